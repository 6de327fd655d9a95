"""Discord output: every message valid and within limits, no live mention or foreign link, nothing lost."""

from __future__ import annotations

import json
import re

import discord
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec import structs

from bot.model import Digest, Evidence, InTopic, QueryResult, Section, Stats, Suggestion
from formatters.discord_embeds import render_discord_digest, render_discord_query
from formatters.safety import valid_repo
from tests.formatter_strategies import (
    WINDOW,
    assert_clean_cuts,
    digests,
    evil_reason,
    item,
    post_digest,
    query_results,
    small_digest,
)

TRY = (Suggestion("topic", "rocm"), Suggestion("wider_window", "7d"))  # what an empty answer suggests


# The only links we make: [#number](https GitHub(-Enterprise) page of an issue or PR), and the appendix's counts
# linked to the repository's issue and PR searches.
OUR_LINK = re.compile(r"\[#[0-9]+\]\((https://[a-z0-9.:-]+/[A-Za-z0-9._-]+/[A-Za-z0-9._-]+/(?:issues|pull)/[0-9]+)\)")
SEARCH = re.compile(r"\[[^\[\]()]+(?:: |：)[0-9]+\]\((https://[a-z0-9.:-]+/[A-Za-z0-9._-]+/[A-Za-z0-9._-]+/(?:issues|pulls)\?q=[A-Za-z0-9%+._-]+)\)")


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
        for url in SEARCH.findall(text):
            host = r"https://(github\.com|ghe\.example\.com)/"
            assert re.fullmatch(rf"{host}{re.escape(repo)}/(issues|pulls)\?q=\S+", url)
        rest = SEARCH.sub("", OUR_LINK.sub("", text))
        assert not re.search(r"@(everyone|here)", rest, re.IGNORECASE), rest
        assert not re.search(r"<(?!\u200b)", rest), rest  # no <@id>, <@!id>, <@&id>, <#id>, <t:…>, </cmd:id>
        assert not re.search(r"@[!&]?[0-9]{17,20}", rest), rest
        assert "](" not in rest, rest  # no masked link but ours
        assert "://" not in rest, rest  # no auto-linked URL from GitHub


def all_text(messages: list[dict]) -> str:
    return "\n".join(text for message in messages for text in strings_of(message))


# ----------------------------------------------------------------------------------------- hand-made


def unescape(text: str) -> str:
    """What Discord displays of Markdown-escaped text: a backslash before ASCII punctuation shows that character."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)


def numbers(message: dict) -> list[int]:
    """The items a message shows, by the linked number that starts each line, in order."""
    found = []
    for embed in message["embeds"]:
        found += [int(n) for n in re.findall(r"(?m)^• \[#(\d+)\]\(", embed.get("description", ""))]
    return found


def test_the_first_message_is_the_digest_and_the_thread_has_three_messages() -> None:
    messages = render_discord_digest(post_digest())
    for message in messages:
        check_message(message)
        check_safe(message, "o/r")
    first, thread = messages[0], messages[1:]
    titles = [embed["title"] for embed in first["embeds"]]
    assert titles == ["📰 o/r daily digest", "🏷️ AMD / ROCm · 4 of 8", "🏷️ Quantization (2)",
                      "🔥 Hot discussions · 4 of 5", "🛠️ Key changes (4)", "⚠️ Notable issues (2)"]
    headline = first["embeds"][0]
    assert [field["value"] for field in headline["fields"]] == ["9", "0", "0", "3", "0"]
    assert "2025-12-01 11:05 → 2025-12-02 11:05 (Asia/Shanghai)" in headline["description"]
    assert unescape(headline["description"]).startswith("📝 Busy day: 9 new issues. `fused_moe` and *ROCm* lead.")
    assert numbers(first) == [5, 7, 8, 6, 13, 20, 21, 22, 24, 25, 26, 27]  # each once, where it ranks best
    text = all_text([first])
    assert "Hot thread 20 — *20 new comments*" in text and "New scheduler — *in review*" in text
    assert "Segfault in tokenizer — *crash*" in text and first["embeds"][-1]["footer"]["text"].startswith("🧵")
    assert "*also here:* [#5](https://github.com/o/r/issues/5) (in AMD / ROCm)" in unescape(text)
    assert len(thread) == 3 and numbers(thread[0]) == [9, 10]
    assert "**🏷️ AMD / ROCm (continued)**" in thread[0]["embeds"][0]["description"]
    assert "**Other topics**: Qwen 1" in all_text([thread[1]]) and "12 contributors" in all_text([thread[1]])
    appendix = thread[2]["embeds"][0]["description"]
    assert appendix.splitlines()[0] == (
        "• [New issues: 9](https://github.com/o/r/issues?q=is%3Aissue+created%3A"
        "2025-12-01T03%3A05%3A00Z..2025-12-02T03%3A05%3A00Z)")
    for debug in ("label rocm", "tag [rocm]", "title: ROCm", "new bug:"):
        assert debug not in all_text(messages), debug


def test_full_thread_setting_adds_every_appendix_item() -> None:
    messages = render_discord_digest(post_digest(thread="full"))
    for message in messages:
        check_message(message)
        check_safe(message, "o/r")
    assert messages[:3] == render_discord_digest(post_digest())[:3]
    appendix = [number for message in messages[3:] for number in numbers(message)]
    assert sorted(appendix) == sorted([5, 7, 8, 9, 10, 11, 12, 13, 27, 6, 24, 25])


def test_titles_display_exactly_in_discord() -> None:
    """Discord shows a backslash-escaped character as itself: ``_`` and `` ` `` survive, nothing restyles."""
    first = render_discord_digest(post_digest())[0]
    lines = [unescape(line) for embed in first["embeds"] for line in embed.get("description", "").splitlines()]
    hang = "• [#5](https://github.com/o/r/issues/5) [ROCm] fused_moe hangs on MI300X — *hang · 30 new comments*"
    assert hang in lines
    assert "• [#6](https://github.com/o/r/pull/6) Faster ROCm fp8 `scaled_mm` — *merged*" in lines


@settings(max_examples=200, deadline=None)
@given(st.text(st.characters(codec="ascii", exclude_characters="<@:]\n\r\t\x0b\x0c\x1c\x1d\x1e\x1f\x85"),
               max_size=40).filter(lambda t: t == t.strip() and "  " not in t))
def test_a_title_displays_as_itself_after_discord_unescapes_it(title: str) -> None:
    """ASCII titles (no mention, link or ``](`` to defuse: those get a zero-width space) come back whole."""
    from formatters.safety import discord_markdown, one_line

    assert unescape(discord_markdown(title)) == one_line(title)


def test_locale_and_timezone_parameters_override_the_digest() -> None:
    text = all_text(render_discord_digest(small_digest("en"), locale="zh-CN", timezone="UTC"))
    assert "高热度讨论" in text and "Hot discussions" not in text
    assert "2025-12-01 03:05 → 2025-12-02 03:05 (UTC)" in text


def test_injection_is_escaped_not_removed() -> None:
    evil = "@everyone @here <@123456789012345678> <@&1> <#1> [x](http://evil) ***b*** ``` ||s|| # h"
    bad = item(7, evil, author="everyone", labels=(evil,), summary=evil, why=evil_reason(evil), url="http://evil/o/r/issues/7")
    digest = structs.replace(small_digest(), sections=(Section("hot", evil, (bad,)),),
                                 appendix={"new_issues": (bad,)}, thread="full")
    messages = render_discord_digest(digest)
    for message in messages:
        check_message(message)
        check_safe(message, "o/r")
    text = all_text(messages)
    assert "[#7](https://github.com/o/r/issues/7)" in text  # our link, not the item's URL
    assert "@\u200beveryone" in text and "\\[x\\]\\(http:\u200b//evil\\)" in text and "\\*\\*\\*b" in text
    assert "· @\u200beveryone" in text  # an author called "everyone" does not ping either


def test_a_huge_appendix_splits_at_item_boundaries_and_the_topics_fit_one_message() -> None:
    many = tuple(item(n, "長い标题 👩‍👩‍👧‍👦 " * 40, summary="s" * 2000,
                      why=InTopic((Evidence("tag", "t"),))) for n in range(1, 501))
    digest = Digest(
        repo="o/r", window=WINDOW, stats=Stats(new_issues=500), sections=(Section.for_topic("t", "T", many),),
        appendix={"new_issues": many}, followed=("t",), thread="full",
    )
    messages = render_discord_digest(digest, section_limit=40)
    assert len(messages) > 5
    for message in messages:
        check_message(message)
        check_safe(message, "o/r")
    assert numbers(messages[0]) == [1, 2, 3]
    topics = numbers(messages[1])  # as many as one message holds, the rest counted
    assert topics == list(range(4, 4 + len(topics))) and f"…and {497 - len(topics)} more" in all_text([messages[1]])
    appendix = [n for message in messages[2:] for n in numbers(message)]
    assert appendix == list(range(1, 501))  # every item once, in order
    assert "(continued)" in all_text(messages[2:])


def test_many_followed_topics_stay_within_the_embed_count() -> None:
    sections = tuple(Section(f"topic:t{n}", f"Topic {n}", (item(n), item(100 + n))) for n in range(1, 15))
    digest = Digest(repo="o/r", window=WINDOW, stats=Stats(), sections=sections,
                    followed=tuple(f"t{n}" for n in range(1, 15)))
    messages = render_discord_digest(digest)
    for message in messages:
        check_message(message)
    titles = [embed["title"] for embed in messages[0]["embeds"]]
    assert titles[1:] == [f"🏷️ Topic {n} (2)" for n in range(1, 6)]  # five followed topics get a section …
    assert numbers(messages[0]) == [n for k in range(1, 6) for n in (k, 100 + k)]
    index = all_text([messages[1]])  # … the other nine are a line each in the topic index
    assert all(f"Topic {n} 2" in index for n in range(6, 15))
    assert len(messages) == 3


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
                                           "**Active** (1)", "Closed issues (1)", "Closed PRs (1)")]
    assert order == sorted(order)
    assert all(f"[#{n}]" in text for n in (1, 2, 3, 4)) and "[#5]" not in text
    # groups that show nothing (#5, #6) have no heading over "…and 1 more": one line after the groups
    assert "**Closed issues**" not in text and "…and 2 more: Closed issues (1), Closed PRs (1)" in text
    assert text.count("…and 1 more") == 1 and "4 of 7 items" in text


def test_query_with_no_results_says_so_with_window_and_suggestions() -> None:
    result = QueryResult(repo="o/r", query="rocm", window=WINDOW, items=(), suggestions=TRY)
    (message,) = render_discord_query(result)
    check_message(message)
    text = all_text([message])
    assert "Nothing matched “rocm” in o/r between 2025-12-01 11:05 and 2025-12-02 11:05 (Asia/Shanghai)." in text
    assert "**Try**: topic rocm · a wider window, e.g. 7d" in text


# ------------------------------------------------------------------------------------------ properties


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(digests())
def test_any_digest_renders_within_limits_safely_and_completely(digest: Digest) -> None:
    messages = render_discord_digest(digest, section_limit=10)
    for message in messages:
        check_message(message)
        check_safe(message, digest.repo)
    text = all_text(messages[1:])
    if digest.thread == "full":
        for items in digest.appendix.values():
            for entry in items:
                mark = f"• [#{entry.number}](" if valid_repo(digest.repo) else f"• #{entry.number} "
                assert mark in text, entry.number
    else:
        assert len(messages) <= 4  # the digest and at most three thread messages
        shown = [number for message in messages for number in numbers(message)]
        assert sorted(shown) == sorted(set(shown))  # each item once in the post
    if valid_repo(digest.repo):
        assert len(SEARCH.findall(text)) >= 5  # the five counts, linked


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
