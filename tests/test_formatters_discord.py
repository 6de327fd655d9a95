"""Discord output: every message valid and within limits, no live mention or foreign link, nothing lost."""

from __future__ import annotations

import dataclasses
import json
import re

import discord
import pytest
from hypothesis import HealthCheck, given, settings

from bot.model import Digest, QueryResult, Section, Stats
from formatters.discord_embeds import render_discord_digest, render_discord_query
from formatters.safety import valid_repo
from tests.formatter_strategies import (
    WINDOW,
    assert_clean_cuts,
    digests,
    evil_reason,
    item,
    query_results,
    small_digest,
)

# The only links we make: [#number](https GitHub(-Enterprise) page of an issue or PR).
OUR_LINK = re.compile(r"\[#[0-9]+\]\((https://[a-z0-9.:-]+/[A-Za-z0-9._-]+/[A-Za-z0-9._-]+/(?:issues|pull)/[0-9]+)\)")


def strings_of(message: dict) -> list[str]:
    """Everything Discord shows of a message."""
    found = [message["content"]]
    for embed in message["embeds"]:
        found += [embed.get("title", ""), embed.get("description", ""), embed.get("footer", {}).get("text", "")]
        for field in embed.get("fields", ()):
            found += [field["name"], field["value"]]
    return found


def check_message(message: dict) -> None:
    assert set(message) == {"content", "embeds", "allowed_mentions"}
    assert message["allowed_mentions"] == {"parse": []}
    assert len(message["content"]) <= 2000
    assert 0 < len(message["embeds"]) <= 10
    total = 0
    for data in message["embeds"]:
        embed = discord.Embed.from_dict(data)
        total += len(embed)
        assert 0 < len(data["title"]) <= 256
        assert len(data.get("description", "")) <= 4096
        assert len(data.get("fields", ())) <= 25
        for field in data.get("fields", ()):
            assert 0 < len(field["name"]) <= 256 and 0 < len(field["value"]) <= 1024
        assert len(data.get("footer", {}).get("text", "")) <= 2048
        assert data.get("description") or data.get("fields")
    assert total <= 6000
    json.dumps(message)


def check_safe(message: dict, repo: str) -> None:
    for text in strings_of(message):
        assert_clean_cuts(text)
        for url in OUR_LINK.findall(text):
            assert re.fullmatch(rf"https://(github\.com|ghe\.example\.com)/{re.escape(repo)}/(issues|pull)/\d+", url)
        rest = OUR_LINK.sub("", text)
        assert not re.search(r"@(everyone|here)", rest, re.IGNORECASE), rest
        assert not re.search(r"<(?!\u200b)", rest), rest  # no <@id>, <@!id>, <@&id>, <#id>, <t:…>, </cmd:id>
        assert not re.search(r"@[!&]?[0-9]{17,20}", rest), rest
        assert "](" not in rest, rest  # no masked link but ours
        assert "://" not in rest, rest  # no auto-linked URL from GitHub


def all_text(messages: list[dict]) -> str:
    return "\n".join(text for message in messages for text in strings_of(message))


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
    messages = render_discord_digest(small_digest(locale))
    for message in messages:
        check_message(message)
        check_safe(message, "o/r")
    headline = messages[0]
    (embed,) = headline["embeds"]
    assert "o/r" in headline["content"] and "o/r" in embed["title"]
    assert "▂▄▁█▃▆▅" in embed["description"]
    assert "2025-12-01 11:05 → 2025-12-02 11:05 (Asia/Shanghai)" in embed["description"]
    stats = [field["value"] for field in embed["fields"] if field["inline"]]
    assert stats == ["14", "2", "3", "1", "0"]
    hot = next(field for field in embed["fields"] if names[1] in field["name"])
    assert "[#1](https://github.com/o/r/issues/1)" in hot["value"] and "#4]" not in hot["value"]
    assert "11" in hot["value"]  # "…and 11 more" of the 14
    everything = all_text(messages)
    for name in names:
        assert name in everything, name
    assert len(messages) == 2  # headline + one follow-up holding every section and the appendix
    titles = [embed["title"] for embed in messages[1]["embeds"]]
    assert titles[:3] == ["🏷️ ROCm (1)", f"🔥 {names[1]} (14)", f"🛠️ {names[2]} (1)"]
    assert all(names[3] in title for title in titles[3:])
    reply = all_text(messages[1:])
    assert "[#10](https://github.com/o/r/issues/10) **Crash when loading model 10**" in reply
    assert "> The engine crashes on load." in reply and f"↳ *{names[6]}*" in reply  # the reason, in the locale


def test_locale_and_timezone_parameters_override_the_digest() -> None:
    text = all_text(render_discord_digest(small_digest("en"), locale="zh-CN", timezone="UTC"))
    assert "高热度讨论" in text and "Hot discussions" not in text
    assert "2025-12-01 03:05 → 2025-12-02 03:05 (UTC)" in text


def test_injection_is_escaped_not_removed() -> None:
    evil = "@everyone @here <@123456789012345678> <@&1> <#1> [x](http://evil) ***b*** ``` ||s|| # h"
    bad = item(7, evil, author="everyone", labels=(evil,), summary=evil, why=evil_reason(evil), url="http://evil/o/r/issues/7")
    digest = dataclasses.replace(small_digest(), sections=(Section("hot", evil, (bad,)),), appendix={})
    messages = render_discord_digest(digest)
    for message in messages:
        check_message(message)
        check_safe(message, "o/r")
    text = all_text(messages)
    assert "[#7](https://github.com/o/r/issues/7)" in text  # our link, not the item's URL
    assert "@\u200beveryone" in text and "\\[x\\]\\(http:\u200b//evil\\)" in text and "\\*\\*\\*b" in text
    assert "by @\u200beveryone" in text  # an author called "everyone" does not ping either


def test_a_huge_section_and_appendix_split_at_item_boundaries() -> None:
    many = tuple(item(n, "長い标题 👩‍👩‍👧‍👦 " * 40, summary="s" * 2000) for n in range(1, 501))
    digest = Digest(
        repo="o/r", window=WINDOW, stats=Stats(new_issues=500), sections=(Section("hot", "", many),),
        appendix={"new_issues": many},
    )
    messages = render_discord_digest(digest, section_limit=40)
    assert len(messages) > 5
    for message in messages:
        check_message(message)
        check_safe(message, "o/r")
    text = all_text(messages[1:])
    assert "…and 460 more" in text
    numbers = [int(n) for n in re.findall(r"(?m)^• \[#(\d+)\]", text)]
    assert numbers == list(range(1, 501))  # the appendix: every item once, in order
    hot = [int(n) for n in re.findall(r"(?m)^\[#(\d+)\]", text)]
    assert hot == list(range(1, 41))
    assert "(continued)" in text


def test_many_small_sections_split_on_the_embed_count() -> None:
    sections = tuple(Section(f"topic:t{n}", f"Topic {n}", (item(n),)) for n in range(1, 15))
    digest = Digest(repo="o/r", window=WINDOW, stats=Stats(), sections=sections)
    messages = render_discord_digest(digest)
    for message in messages:
        check_message(message)
    assert [len(m["embeds"]) for m in messages[1:]] == [10, 9]  # 14 topics + 5 appendix lists
    assert [e["title"] for m in messages[1:] for e in m["embeds"]][:14] == [f"🏷️ Topic {n} (1)" for n in range(1, 15)]


def test_query_groups_in_order_with_more_per_group() -> None:
    found = (
        item(1, kind="pr", state="merged"), item(2, state="new"), item(3, kind="pr", state="new"),
        item(4, state="open"), item(5, state="closed"), item(6, kind="pr", state="closed"), item(7, state="new"),
    )
    result = QueryResult(repo="o/r", query="rocm", window=WINDOW, items=found, topic_title="ROCm")
    (message,) = render_discord_query(result, limit=4)
    check_message(message)
    check_safe(message, "o/r")
    text = message["embeds"][0]["description"]
    order = [text.index(name) for name in ("**New issues** (2)", "**New PRs** (1)", "**Merged PRs** (1)",
                                           "**Closed issues** (1)", "**Closed PRs** (1)", "**Active** (1)")]
    assert order == sorted(order)
    assert all(f"[#{n}]" in text for n in (1, 2, 3, 4)) and "[#5]" not in text
    assert text.count("…and 1 more") == 3 and "4 of 7 items" in text


def test_query_with_no_results_says_so_with_window_and_suggestions() -> None:
    result = QueryResult(repo="o/r", query="rocm", window=WINDOW, items=(), suggestions=("rocm (topic)", "7d"))
    (message,) = render_discord_query(result)
    check_message(message)
    text = all_text([message])
    assert "Nothing matched “rocm” in o/r between 2025-12-01 11:05 and 2025-12-02 11:05 (Asia/Shanghai)." in text
    assert "**Try**: rocm \\(topic\\) · 7d" in text


# ------------------------------------------------------------------------------------------ properties


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(digests())
def test_any_digest_renders_within_limits_safely_and_completely(digest: Digest) -> None:
    messages = render_discord_digest(digest, section_limit=10)
    for message in messages:
        check_message(message)
        check_safe(message, digest.repo)
    text = all_text(messages[1:])
    for items in digest.appendix.values():
        for entry in items:
            mark = f"• [#{entry.number}](" if valid_repo(digest.repo) else f"• #{entry.number} "
            assert mark in text, entry.number
    for section in digest.sections:
        if len(section.items) > 10:
            assert re.search(rf"and {len(section.items) - 10} more|另有 {len(section.items) - 10} 项", text)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(query_results())
def test_any_query_answer_is_one_valid_safe_message(result: QueryResult) -> None:
    messages = render_discord_query(result, limit=10)
    assert len(messages) == 1
    check_message(messages[0])
    check_safe(messages[0], result.repo)
    text = all_text(messages)
    shown = len(re.findall(r"(?m)^• (?:\[)?#\d+", text))
    hidden = sum(int(n) for n in re.findall(r"(?:and|另有) (\d+) (?:more|项)", text))
    assert shown + hidden == len(result.items) and shown <= 10
