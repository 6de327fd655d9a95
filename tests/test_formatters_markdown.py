"""Markdown: the digest keeps its features and gains the sparkline; query answers; hostile input stays text."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from msgspec import structs

from bot.model import Digest, QueryResult, Section, Stats, Suggestion
from formatters.markdown import render_markdown, render_markdown_query
from formatters.safety import valid_repo
from tests.formatter_strategies import WINDOW, digests, item, post_digest, query_results, small_digest

TRY = (Suggestion("topic", "rocm"), Suggestion("wider_window", "7d"))  # what an empty answer suggests

OUR_LINK = re.compile(r"\[#[0-9]+\]\(https://[a-z0-9.:-]+/[A-Za-z0-9._-]+/[A-Za-z0-9._-]+/(?:issues|pull)/[0-9]+\)")


def check_inert(text: str) -> None:
    rest = OUR_LINK.sub("", text)
    assert "](" not in rest  # no link but ours
    assert not re.search(r"(?<!\\)[<>]", rest.replace("→", "")), rest  # no raw HTML
    text.encode("utf-8")


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("en", ["# o/r daily report · 2025-12-02", "## 🔥 Hot discussions (14)", "## 🛠️ Key changes (1)",
                "## 📎 Appendix", "- _more:_ [#6](", "Last 7 days: ▂▄▁█▃▆▅ (1 3 0 7 2 5 4)",
                "— new issue by @alice · _3 new comments_"]),
        ("zh-CN", ["# r 开发动态报告 · 2025-12-02", "## 🔥 高热度讨论（14）", "## 🛠️ 重点技术变更（1）", "## 📎 附录",
                   "- 其余：[#6](", "近 7 天每日新增：▂▄▁█▃▆▅", "时间窗口：2025-12-01 11:05",
                   "— 新 Issue · @alice · 3 条新评论"]),
    ],
)
def test_digest_in_both_locales_with_sparkline(locale: str, words: list[str]) -> None:
    text = render_markdown(small_digest(), locale=locale)  # the digest was built in English
    for word in words:
        assert word in text, word
    assert "| 14 | 2 | 3 | 1 | 0 |" in text
    assert "2025-12-01 11:05 → 2025-12-02 11:05 (Asia/Shanghai)" in text
    # five full entries, the other nine as short links in the section's "more" line
    assert "- [#5](https://github.com/o/r/issues/5) **Crash when loading model 5**" in text
    assert "**Crash when loading model 6**" not in text.split("## 📎")[0]
    assert "## ⚠️ Notable" not in text and "值得关注的问题（0）" not in text  # empty sections are left out
    appendix = text.split("## 📎")[1]
    assert all(f"[#{n}](https://github.com/o/r/issues/{n})" in appendix for n in range(1, 15))
    check_inert(text)


def test_followed_topics_lead_then_hot_key_changes_notable_activity_appendix() -> None:
    text = render_markdown(post_digest())
    headings = re.findall(r"(?m)^## (.+)$", text)
    assert headings == ["🏷️ AMD / ROCm (8)", "🏷️ Quantization (2)", "🔥 Hot discussions (5)", "🛠️ Key changes (4)",
                        "⚠️ Notable issues (2)", "📈 Activity", "📎 Appendix"]
    assert "**Other topics**: Qwen 1" in text  # a topic the reader does not follow: one line, no section
    # each item's full entry once, where it ranks best; short links elsewhere: #5 is in ROCm, hot and notable,
    # #6 in ROCm, Quantization and key changes
    body = text.split("## 📎")[0]
    entry = lambda n: re.findall(rf"(?m)^- \[#{n}\]\(", body)  # noqa: E731
    assert len(entry(5)) == 1 and len(entry(6)) == 1
    sections = body.split("\n## ")
    assert re.search(r"(?m)^- \[#5\]\(", sections[1]) and re.search(r"(?m)^- \[#6\]\(", sections[2])
    assert "[#5](https://github.com/o/r/issues/5) (in AMD / ROCm)" in sections[3]  # also hot, referenced
    assert "[#6](https://github.com/o/r/pull/6) (in Quantization)" in sections[1]


def test_items_carry_a_badge_not_a_why_line() -> None:
    text = render_markdown(post_digest())
    for debug in ("label rocm", "tag \\[rocm\\]", "title: ROCm", "new bug:", "_merged_:", "merged: "):
        assert debug not in text, debug
    assert "**Hot thread 20** — new issue by @alice · _20 new comments_" in text
    assert "**\\[Core\\] New scheduler** — open PR by @alice\n" in text  # a key change of no known kind
    assert "**\\[Bug\\] Segfault in tokenizer** — new issue by @alice · _crash_" in text
    # an item placed in a topic says what else it is: #5 is a new hang report and a hot discussion
    assert "**\\[ROCm\\] fused\\_moe hangs on MI300X** — new issue by @alice · _hang · 30 new comments_" in text \
        or "**\\[ROCm\\] fused_moe hangs on MI300X** — new issue by @alice · _hang · 30 new comments_" in text
    assert "fused_moe" in text  # an underscore inside a word needs no backslash in CommonMark


def test_no_sparkline_without_activity_and_missing_appendix_keys_are_empty_lists() -> None:
    digest = Digest(repo="o/r", window=WINDOW, stats=Stats(), sections=())
    text = render_markdown(digest, timezone="UTC")
    assert "Activity" not in text and "▁" not in text
    assert text.count("- Nothing in this window.") == 5
    assert "2025-12-01 03:05 → 2025-12-02 03:05 (UTC)" in text


def test_links_go_only_to_the_repository() -> None:
    evil = item(3, "[x](http://evil) <script>", url="http://evil.example/")
    digest = structs.replace(
        small_digest(), sections=(Section("hot", "", (evil,)),), appendix={"new_issues": (evil,)}
    )
    text = render_markdown(digest)
    assert text.count("[#3](https://github.com/o/r/issues/3)") == 2 and "evil.example" not in text
    assert "\\[x\\]\\(http://evil) \\<script\\>" in text
    check_inert(text)


def test_query_groups_with_more_and_plain_empty_answer() -> None:
    found = (item(1, kind="pr", state="merged"), item(2), item(3, state="open"), item(4))
    text = render_markdown_query(QueryResult("o/r", "rocm", WINDOW, found, topic_title="ROCm"), limit=2)
    assert text.startswith("# 🔎 “rocm” in o/r")
    # A group none of whose items is shown gets no heading over nothing: one line after the groups counts it.
    assert text.index("## New issues (2)") < text.index("## Merged PRs (1)") < text.index("…and 1 more: Active (1)")
    assert "## Active" not in text
    assert "[#1](" in text and "[#2](" in text and "[#3](" not in text and "[#4](" not in text
    assert text.count("- …and 1 more") == 1 and "2 of 4 items" in text and "Topic: ROCm" in text
    empty = render_markdown_query(
        QueryResult("o/r", "<b>rocm</b>", WINDOW, (), suggestions=TRY, locale="zh-CN")
    )
    assert "没有与“\\<b\\>rocm\\</b\\>”匹配的内容" in empty and "试试：主题 rocm · 放宽时间范围，例如 7d" in empty
    assert "2025-12-01 11:05 至 2025-12-02 11:05（Asia/Shanghai）" in empty
    check_inert(empty)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(digests(max_items=200))
def test_any_digest_renders_inert_and_complete(digest: Digest) -> None:
    text = render_markdown(digest)
    check_inert(text)
    for items in digest.appendix.values():
        for entry in items:
            assert (f"[#{entry.number}](" if valid_repo(digest.repo) else f"- #{entry.number} ") in text


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(query_results())
def test_any_query_answer_renders_inert_and_counts_everything(result: QueryResult) -> None:
    text = render_markdown_query(result, limit=10)
    check_inert(text)
    shown = len(re.findall(r"(?m)^- \[?#\d+", text))
    hidden = sum(int(n) for n in re.findall(r"(?:and|另有) (\d+) (?:more|项)", text))
    assert shown + hidden == len(result.items) and shown == min(10, len(result.items))
