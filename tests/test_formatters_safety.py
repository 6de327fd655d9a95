"""formatters/safety.py: escaping per platform, cutting at grapheme boundaries, links only to the repo."""

from __future__ import annotations

import re
import unicodedata

import discord.utils
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.model import DigestItem
from bot.text import strip_controls
from formatters.layout import sparkline, take_lines
from formatters.safety import (
    discord_link,
    discord_markdown,
    discord_plain,
    escape_mentions,
    fit,
    item_url,
    markdown_inline,
    one_line,
    slack_link,
    slack_mrkdwn,
    slack_plain,
    slack_text,
    text_size,
    truncate,
)
from tests.formatter_strategies import INJECTIONS, UNICODE, long_text

# Whole user-perceived characters: a cut may fall between these, never inside one.
CLUSTERS = (
    "a", "Z", " ", "中", "文", "한", "ע", "م", "e\u0301", "👍", "👍🏽", "👩‍👩‍👧‍👦", "🏳️‍🌈", "❤️", "1️⃣", "🇺🇸",
    "🇫🇷", "क्षि", "नि", "\U0001d518",
)


def item(url: str, number: int = 5, kind: str = "issue") -> DigestItem:
    return DigestItem(number, kind, "t", url, "a", (), "", "new")


# ----------------------------------------------------------------------------------------------- cutting


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(CLUSTERS), max_size=40), st.data())
def test_truncate_keeps_whole_clusters_and_says_it_cut(clusters: list[str], data: st.DataObject) -> None:
    text = "".join(clusters)
    limit = data.draw(st.integers(0, len(text) + 1), label="limit")  # mostly a cut somewhere inside
    cut = truncate(text, limit)
    assert len(cut) <= limit
    if len(text) <= limit:
        assert cut == text
        return
    assert cut.endswith("…") or limit < 1
    kept = cut[:-1]
    prefixes = {"".join(clusters[:n]).rstrip() for n in range(len(clusters) + 1)}
    assert kept in prefixes, (text, kept)  # ends exactly after one of the clusters


@pytest.mark.parametrize(
    ("text", "limit", "expected"),
    [
        ("a🇺🇸b", 3, "a…"),
        ("a🇺🇸🇫🇷b", 5, "a🇺🇸…"),
        ("ab👩‍👩‍👧‍👦cd", 4, "ab…"),
        ("ab👍🏽cd", 4, "ab…"),
        ("abe\u0301cd", 4, "ab…"),
        ("a क्षि b", 5, "a…"),
        ("中文标题很长", 4, "中文标…"),
        ("a \u200d b c", 4, "a…"),
    ],
)
def test_truncate_examples(text: str, limit: int, expected: str) -> None:
    assert truncate(text, limit) == expected


@settings(max_examples=200, deadline=None)
@given(long_text(), st.integers(1, 400), st.sampled_from([slack_mrkdwn, slack_plain, discord_markdown, discord_plain]))
def test_escaped_text_fits_its_limit_and_is_one_clean_line(text: str, limit: int, escape) -> None:  # type: ignore[no-untyped-def]
    out = escape(text, limit)
    assert text_size(out) <= limit
    assert "\n" not in out and "\r" not in out
    out.encode("utf-8")  # no lone surrogate
    assert not any(unicodedata.category(ch) == "Cc" for ch in out)
    assert not any(ch in out for ch in "\u202e\u202d\u2066\u2067\u2068\u2069\u200e\u200f")
    assert out == escape(text, limit)  # pure


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_one_line_drops_at_least_what_strip_controls_drops(text: str) -> None:
    removed = {ch for ch in text if ch not in strip_controls(ch) and not ch.isspace()}
    assert not removed & set(one_line(text))


def test_a_long_text_is_cut_the_same_way_as_its_prefix() -> None:
    text = ("word " * 5000) + "END"
    assert fit(text, 50, str) == truncate(one_line(text), 50)
    spaces = "a" + " " * 9000 + "b"  # mostly whitespace: the prefix shortcut must not drop "b"
    assert fit(spaces, 50, str) == "a b"


def test_text_size_counts_utf16_units() -> None:
    assert text_size("a中") == 2 and text_size("👍") == 2 and text_size("👩‍👩‍👧‍👦") == 11


# ----------------------------------------------------------------------------------------------- escaping


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("<!channel> & <@U1>", "&lt;!channel&gt; &amp; &lt;@U1&gt;"),
        ("<http://evil|click>", "&lt;http:\u200b//evil|click&gt;"),
        ("*b* _i_ ~s~ `c`", "*b* _i_ ~s~ `c`"),  # no look-alikes: GitHub's text never comes here (slack_text)
        ("@channel @Here @everyone", "@\u200bchannel @\u200bHere @\u200beveryone"),
        ("a\u202eb\x00c\nd", "abc d"),
    ],
)
def test_slack_mrkdwn(raw: str, expected: str) -> None:
    assert slack_mrkdwn(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("fix fused_moe `kernel` *2x* ~30%", "fix fused_moe `kernel` *2x* ~30%"),  # Slack parses nothing here
        ("<!channel> @here <@U1> https://evil.example", "<!channel> @here <@U1> https://evil.example"),
        ("a\u202eb\x00c\nd", "abc d"),  # still one clean line: no bidi override, no control
    ],
)
def test_slack_text_is_the_text_itself(raw: str, expected: str) -> None:
    assert slack_text(raw) == expected
    assert slack_text("x" * 600, 512) == "x" * 511 + "…"


def test_slack_link_is_ours_with_inert_text() -> None:
    url = "https://github.com/o/r/issues/1"
    assert slack_link(url, "#1 | x > y") == f"<{url}|#1 ¦ x &gt; y>"
    assert slack_link(None, "<!here>") == "&lt;!here&gt;"
    assert slack_plain("<!here> *x*") == "‹!here› *x*"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("[x](http://evil)", "\\[x\\]\\(http:\u200b//evil\\)"),
        ("@everyone @here", "@\u200beveryone @\u200bhere"),
        ("<@123456789012345678> <@&1> <#1>", "\\<\u200b@\u200b123456789012345678\\> \\<\u200b@&1\\> \\<\u200b#1\\>"),
        ("***b*** ``` ||s|| \\", "\\*\\*\\*b\\*\\*\\* \\`\\`\\` \\|\\|s\\|\\| \\\\"),
        ("# h", "\\# h"),
        ("-# small", "\\-# small"),
        ("1. list", "1\\. list"),
        ("a - b # c", "a - b # c"),
    ],
)
def test_discord_markdown(raw: str, expected: str) -> None:
    assert discord_markdown(raw) == expected


def test_discord_plain_and_link() -> None:
    assert discord_plain("[x](http://evil) @here <@1>") == "[x]\u200b(http:\u200b//evil) @\u200bhere <\u200b@1>"
    assert discord_link("https://github.com/o/r/pull/2", "#2") == "[#2](https://github.com/o/r/pull/2)"
    assert discord_link(None, "[x](y)") == "\\[x\\]\\(y\\)"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(INJECTIONS + UNICODE) | st.text(max_size=5), max_size=8).map("".join))
def test_escape_mentions_matches_discord_py(text: str) -> None:
    assert escape_mentions(text) == discord.utils.escape_mentions(text)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(INJECTIONS + UNICODE) | st.text(max_size=5), max_size=8).map("".join))
def test_discord_markdown_escapes_at_least_what_discord_py_escapes(text: str) -> None:
    """Every character discord.py would backslash is backslashed by us too (or is a list marker we also
    handle); removing our escapes gives back the cleaned text."""
    ours = discord_markdown(text).replace("\u200b", "")
    assert re.sub(r"\\(.)", r"\1", ours) == one_line(text)
    theirs = discord.utils.escape_markdown(one_line(text), ignore_links=False)
    for match in re.finditer(r"\\([^\\])", theirs):
        assert "\\" + match[1] in ours


def test_markdown_inline_escapes_only_what_forms_markup() -> None:
    assert markdown_inline("[x](http://evil) <b>") == "\\[x\\]\\(http://evil) \\<b\\>"
    assert markdown_inline("Fix fused_moe (part 2) on MI300X #3!") == "Fix fused_moe (part 2) on MI300X #3!"
    assert markdown_inline("_x_ *y* `z` ~~w~~ a|b") == "\\_x\\_ \\*y\\* \\`z\\` \\~\\~w\\~\\~ a\\|b"


# -------------------------------------------------------------------------------------------------- links


@pytest.mark.parametrize(
    ("repo", "url", "expected"),
    [
        ("o/r", "https://github.com/o/r/issues/5", "https://github.com/o/r/issues/5"),
        ("o/r", "https://GHE.example.com/O/R/issues/5", "https://ghe.example.com/o/r/issues/5"),
        ("o/r", "https://ghe.example.com:8443/o/r/pull/5", "https://ghe.example.com:8443/o/r/pull/5"),
        ("o/r", "http://github.com/o/r/issues/5", "https://github.com/o/r/issues/5"),  # not https: ours
        ("o/r", "https://evil.example/x/o/r/issues/5", "https://github.com/o/r/issues/5"),
        ("o/r", "https://github.com/o/other/issues/5", "https://github.com/o/r/issues/5"),
        ("o/r", "https://evil.example/x/y/issues/5", "https://github.com/o/r/issues/5"),  # another repo's host
        ("o/r", "https://github.com/o/r/issues/6", "https://github.com/o/r/issues/5"),
        ("o/r", "https://user@evil.example/o/r/issues/5", "https://github.com/o/r/issues/5"),
        ("o/r", "https://github.com/o/r/issues/5?x=<!here>", "https://github.com/o/r/issues/5"),
        ("o/r", "javascript:alert(1)", "https://github.com/o/r/issues/5"),
        ("o/r", "https://[broken", "https://github.com/o/r/issues/5"),
        ("<!here>/r", "https://github.com/<!here>/r/issues/5", None),
        ("o/../r", "", None),
        ("o/r|x", "", None),
    ],
)
def test_item_url_points_only_at_the_repository(repo: str, url: str, expected: str | None) -> None:
    assert item_url(repo, item(url)) == expected


def test_item_url_uses_the_kind_when_it_builds_the_link() -> None:
    assert item_url("o/r", item("", 7, "pr")) == "https://github.com/o/r/pull/7"
    assert item_url("o/r", item("", 0)) is None


# ---------------------------------------------------------------------------------------------- layout


@pytest.mark.parametrize(
    ("values", "expected"),
    [((), ""), ((0, 0, 0), "▁▁▁"), ((0, 7), "▁█"), ((1, 3, 0, 7, 2, 5, 4), "▂▄▁█▃▆▅"), ((5, 5), "██"), ((-1, 2), "▁█")],
)
def test_sparkline(values: tuple[int, ...], expected: str) -> None:
    assert sparkline(values) == expected


def test_take_lines_counts_what_it_leaves_out() -> None:
    lines = ["a" * 10, "b" * 10, "c" * 10]
    assert take_lines(lines, 100, lambda n: f"+{n}") == "\n".join(lines)
    assert take_lines(lines, 20, lambda n: f"+{n}") == "a" * 10 + "\n+2"
    assert take_lines(lines, 24, lambda n: f"+{n}") == "a" * 10 + "\n" + "b" * 10 + "\n+1"
    assert take_lines(lines, 100, lambda n: f"+{n}", hidden=4) == "\n".join([*lines, "+4"])
