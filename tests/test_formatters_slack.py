"""Slack Block Kit output: every payload valid and within limits, nothing live from GitHub, nothing lost."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from slack_sdk.models.blocks import Block

from bot.model import Digest, Evidence, InTopic, QueryResult, Section, Stats
from formatters.safety import text_size, valid_repo
from formatters.slack_blocks import render_slack_digest, render_slack_query
from tests.formatter_strategies import (
    WINDOW,
    assert_clean_cuts,
    digests,
    evil_reason,
    item,
    query_results,
    small_digest,
)

# The only links we make: an https GitHub(-Enterprise) page of an issue or PR, text "#number".
OUR_LINK = re.compile(r"<(https://[a-z0-9.:-]+/[A-Za-z0-9._-]+/[A-Za-z0-9._-]+/(?:issues|pull)/[0-9]+)\|#[0-9]+>")


def text_objects(payload: dict) -> list[tuple[str, str]]:
    """(type, text) of everything Slack shows: fallback (mrkdwn), header, section text and fields, context."""
    found = [("mrkdwn", payload["text"])]
    for block in payload["blocks"]:
        for part in (block.get("text"), *block.get("fields", ()), *block.get("elements", ())):
            if isinstance(part, dict):
                found.append((part["type"], part["text"]))
    return found


def texts(payload: dict) -> list[str]:
    return [text for _, text in text_objects(payload)]


def check_payload(payload: dict) -> None:
    assert set(payload) == {"text", "blocks", "unfurl_links", "unfurl_media"}
    assert 0 < len(payload["text"]) <= 300
    blocks = payload["blocks"]
    assert 0 < len(blocks) <= 50
    for block in blocks:
        parsed = Block.parse(block)
        assert parsed is not None, block
        parsed.validate_json()  # raises SlackObjectFormationError on a broken block
        if block["type"] == "section":
            assert "text" in block or "fields" in block
            if "text" in block:
                assert 0 < len(block["text"]["text"]) <= 3000
            assert len(block.get("fields", ())) <= 10
            assert all(0 < len(field["text"]) <= 2000 for field in block.get("fields", ()))
        if block["type"] == "header":
            assert 0 < len(block["text"]["text"]) <= 150
        if block["type"] == "context":
            assert 0 < len(block["elements"]) <= 10
    for block in blocks:  # ours are always verbatim: Slack must not link or mention on its own
        for part in (block.get("text"), *block.get("fields", ()), *block.get("elements", ())):
            if isinstance(part, dict) and part["type"] == "mrkdwn":
                assert part["verbatim"] is True
    assert sum(text_size(text) for text in texts(payload)) <= 8000
    json.dumps(payload)


def check_safe(payload: dict, repo: str) -> None:
    for kind, text in text_objects(payload):
        assert_clean_cuts(text)
        for url in OUR_LINK.findall(text):
            assert re.fullmatch(rf"https://(github\.com|ghe\.example\.com)/{re.escape(repo)}/(issues|pull)/\d+", url)
        rest = OUR_LINK.sub("", text)
        assert "<" not in rest, rest  # so no <!channel>, <@U…>, <!subteam^…>, <url|text> of GitHub's
        assert not re.search(r"@(everyone|here|channel)", rest, re.IGNORECASE), rest
        assert "://" not in rest, rest  # no URL from GitHub for Slack to link
        if kind == "mrkdwn":  # plain_text shows "&" as is; in mrkdwn every "&" must be an entity we wrote
            assert not re.search(r"&(?!amp;|lt;|gt;)", rest), rest


def all_text(payloads: list[dict]) -> str:
    return "\n".join(text for payload in payloads for text in texts(payload))


# ----------------------------------------------------------------------------------------- hand-made


@pytest.mark.parametrize(
    ("locale", "names"),
    [
        ("en", ["daily digest", "Hot discussions", "Key changes", "Appendix", "New issues", "…and 4 more",
                "3 new comments"]),
        ("zh-CN", ["每日开发状态摘要", "高热度讨论", "重点技术变更", "附录", "新 Issue", "……另有 4 项",
                   "3 条新评论"]),
    ],
)
def test_small_digest_reads_well_in_both_locales(locale: str, names: list[str]) -> None:
    payloads = render_slack_digest(small_digest(locale))
    for payload in payloads:
        check_payload(payload)
        check_safe(payload, "o/r")
    headline, replies = payloads[0], payloads[1:]
    head = all_text([headline])
    assert headline["blocks"][0]["type"] == "header" and "o/r" in headline["blocks"][0]["text"]["text"]
    assert "▂▄▁█▃▆▅" in head  # the sparkline of (1, 3, 0, 7, 2, 5, 4)
    assert "2025-12-01 11:05 → 2025-12-02 11:05 (Asia/Shanghai)" in head  # window in the digest's zone
    for count in ("14", "2", "3", "1", "0"):
        assert any(field["text"].endswith("\n" + count) for field in headline["blocks"][2]["fields"])
    assert "<https://github.com/o/r/issues/1|#1>" in head and "#4>" not in head  # top 3 of hot only
    everything = all_text(payloads)
    for name in names:
        assert name in everything, name
    assert len(replies) == 1  # a small day is one reply: sections and appendix together
    reply = all_text(replies)
    assert reply.index("ROCm") < reply.index(names[1]) < reply.index(names[3])  # digest order, appendix last
    assert "<https://github.com/o/r/issues/10|#10> *Crash when loading model 10*" in reply
    assert "|#11>" not in reply.split(names[3])[0]  # the section stops at 10 …
    assert all(f"|#{n}>" in reply.split(names[3])[1] for n in range(1, 15))  # … the appendix has all 14
    assert "> The engine crashes on load." in reply and f"↳ _{names[6]}_" in reply  # the reason, in the locale
    assert "@alice" in reply and "bug, rocm" in reply


def test_locale_and_timezone_parameters_override_the_digest() -> None:
    payloads = render_slack_digest(small_digest("en"), locale="zh-CN", timezone="UTC")
    text = all_text(payloads)
    assert "高热度讨论" in text and "Hot discussions" not in text
    assert "2025-12-01 03:05 → 2025-12-02 03:05 (UTC)" in text


def test_empty_digest_still_has_a_headline_and_an_appendix() -> None:
    digest = Digest(repo="o/r", window=WINDOW, stats=Stats(), sections=())
    payloads = render_slack_digest(digest)
    assert len(payloads) == 2
    for payload in payloads:
        check_payload(payload)
    text = all_text(payloads)
    assert "No hot discussions" in text and "Nothing in this window." in text and "Activity" not in text


def test_injection_in_every_field_comes_out_inert() -> None:
    evil = "<!channel> <!here> @everyone <@U123> <!subteam^S1> <http://evil|click> *bold* _it_ ~s~ `c` & ```"
    bad = item(
        7, evil, author="<@U1>", labels=(evil,), summary=evil, why=evil_reason(evil), url="http://evil.example/o/r/issues/7"
    )
    digest = dataclasses.replace(small_digest(), sections=(Section("hot", evil, (bad,)),), appendix={})
    payloads = render_slack_digest(digest)
    for payload in payloads:
        check_payload(payload)
        check_safe(payload, "o/r")
    text = all_text(payloads)
    assert "<https://github.com/o/r/issues/7|#7>" in text  # our own link, not the item's URL
    assert "&lt;!channel&gt;" in text and "∗bold∗" in text and "ˍitˍ" in text and "&amp;" in text


def test_links_only_to_the_repository() -> None:
    ghe = item(1, url="https://GHE.example.com/o/r/pull/1", kind="pr")
    other = item(2, url="https://github.com/evil/r/issues/2")
    digest = Digest(repo="o/r", window=WINDOW, stats=Stats(), sections=(Section("hot", "", (ghe, other)),))
    text = all_text(render_slack_digest(digest))
    assert "<https://ghe.example.com/o/r/pull/1|#1>" in text
    assert "<https://github.com/o/r/issues/2|#2>" in text and "evil" not in text
    no_repo = dataclasses.replace(digest, repo="not a repo")
    assert "<https://" not in all_text(render_slack_digest(no_repo))


def test_a_huge_section_and_appendix_split_at_item_boundaries() -> None:
    many = tuple(item(n, "長い标题 👩‍👩‍👧‍👦 " * 40) for n in range(1, 501))
    digest = Digest(
        repo="o/r", window=WINDOW, stats=Stats(new_issues=500), sections=(Section("hot", "", many),),
        appendix={"new_issues": many},
    )
    payloads = render_slack_digest(digest, section_limit=40)
    assert len(payloads) > 3
    for payload in payloads:
        check_payload(payload)
        check_safe(payload, "o/r")
    text = all_text(payloads)
    assert "…and 460 more" in text
    appendix = text.split("📎 Appendix", 1)[1]
    assert [int(n) for n in re.findall(r"\|#(\d+)>", appendix)] == list(range(1, 501))  # all, in order
    assert "📎 Appendix · *New issues* (500) (continued)" in text  # a reply starting mid-list says so
    parts = len(payloads) - 1
    assert [p["text"] for p in payloads[1:3]] == [f"o/r daily digest, part {n} of {parts}" for n in (1, 2)]


def test_many_tiny_items_split_on_the_block_count() -> None:
    tiny = tuple(item(n, "x", author="", labels=(), summary="", why=None) for n in range(1, 121))
    digest = Digest(repo="o/r", window=WINDOW, stats=Stats(), sections=(Section("hot", "", tiny),))
    payloads = render_slack_digest(digest, section_limit=120)
    for payload in payloads:
        check_payload(payload)
    assert max(len(p["blocks"]) for p in payloads) == 50  # full messages, then the rest
    assert sum(f"|#{n}>" in all_text(payloads[1:]) for n in range(1, 121)) == 120


# -------------------------------------------------------------------------------------------- queries


def test_query_groups_in_order_with_more_per_group() -> None:
    found = (
        item(1, kind="pr", state="merged"), item(2, state="new"), item(3, kind="pr", state="new"),
        item(4, state="open"), item(5, state="closed"), item(6, kind="pr", state="closed"), item(7, state="new"),
    )
    result = QueryResult(repo="o/r", query="rocm", window=WINDOW, items=found, topic_title="ROCm")
    (payload,) = render_slack_query(result, limit=4)
    check_payload(payload)
    check_safe(payload, "o/r")
    text = all_text([payload])
    order = [text.index(name) for name in ("*New issues* (2)", "*New PRs* (1)", "*Merged PRs* (1)",
                                           "*Closed issues* (1)", "*Closed PRs* (1)", "*Active* (1)")]
    assert order == sorted(order)
    assert all(f"|#{n}>" in text for n in (1, 2, 3, 4)) and "|#5>" not in text and "|#7>" not in text
    assert text.count("…and 1 more") == 3  # #7 under new issues, #5 and #6 in their own groups
    assert "4 of 7 items" in text and "ROCm" in text


def test_query_with_no_results_says_so_with_window_and_suggestions() -> None:
    result = QueryResult(
        repo="o/r", query="<!channel> rocm", window=WINDOW, items=(), suggestions=("rocm (topic)", "last 7 days"),
        locale="zh-CN",
    )
    (payload,) = render_slack_query(result)
    check_payload(payload)
    check_safe(payload, "o/r")
    text = all_text([payload])
    assert "没有与“&lt;!channel&gt; rocm”匹配的内容" in text
    assert "2025-12-01 11:05 至 2025-12-02 11:05" in text
    assert "rocm (topic) · last 7 days" in text


def test_a_big_query_answer_is_still_one_message() -> None:
    long_reason = InTopic((Evidence("body", "z" * 500),))
    found = tuple(item(n, "x" * 5000, summary="y" * 5000, why=long_reason) for n in range(1, 400))
    result = QueryResult(repo="o/r", query="q", window=WINDOW, items=found)
    (payload,) = render_slack_query(result, limit=400)
    check_payload(payload)
    text = all_text([payload])
    shown = len(re.findall(r"\|#\d+>", text))
    assert 0 < shown < 399 and f"…and {399 - shown} more" in text


# ------------------------------------------------------------------------------------------ properties


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(digests())
def test_any_digest_renders_within_limits_safely_and_completely(digest: Digest) -> None:
    payloads = render_slack_digest(digest, section_limit=10)
    for payload in payloads:
        check_payload(payload)
        check_safe(payload, digest.repo)
    text = all_text(payloads[1:])
    for items in digest.appendix.values():  # every appendix item, linked when the repo is valid
        for entry in items:
            mark = f"|#{entry.number}>" if valid_repo(digest.repo) else f"• #{entry.number} "
            assert mark in text, entry.number
    for section in digest.sections:
        if len(section.items) > 10:
            assert re.search(rf"and {len(section.items) - 10} more|另有 {len(section.items) - 10} 项", text)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(query_results())
def test_any_query_answer_is_one_valid_safe_message(result: QueryResult) -> None:
    payloads = render_slack_query(result, limit=10)
    assert len(payloads) == 1
    check_payload(payloads[0])
    check_safe(payloads[0], result.repo)
    text = all_text(payloads)
    shown = len(re.findall(r"(?m)^• (?:<[^|]+\|)?#\d+", text))
    hidden = sum(int(n) for n in re.findall(r"(?:and|另有) (\d+) (?:more|项)", text))
    assert shown + hidden == len(result.items) and shown <= 10  # nothing vanishes without a count
