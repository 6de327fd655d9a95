"""The query grammar: every documented form, and never an exception on hostile text."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.topics.query import parse_query

SHANGHAI = ZoneInfo("Asia/Shanghai")
NOW = datetime(2025, 12, 3, 4, 0, tzinfo=UTC)  # Wednesday 12:00 in Shanghai


def test_empty_is_the_digest() -> None:
    query = parse_query("")
    assert query.is_empty and query.window is None and query.notes == ()


def test_words_and_window() -> None:
    query = parse_query("Qwen hangs 7d")
    assert query.words == ("qwen", "hangs")
    window = query.window.resolve(NOW, SHANGHAI)
    assert (window.start, window.end) == (NOW - timedelta(days=7), NOW)


def test_filters() -> None:
    query = parse_query("label:bug -label:stale author:@Alice -author:dependabot[bot] is:pr is:merged "
                        "repo:vllm-project/vllm -flaky")
    assert query.labels == ("bug",) and query.excluded_labels == ("stale",)
    assert query.authors == ("alice",) and query.excluded_authors == ("dependabot[bot]",)
    assert query.kinds == {"pr"} and query.states == {"merged"}
    assert query.repo == "vllm-project/vllm" and query.excluded_words == ("flaky",)
    assert query.words == () and not query.is_empty


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("24h", NOW - timedelta(hours=24), NOW),
        ("2w", NOW - timedelta(weeks=2), NOW),
        ("today", datetime(2025, 12, 2, 16, tzinfo=UTC), NOW),
        ("yesterday", datetime(2025, 12, 1, 16, tzinfo=UTC), datetime(2025, 12, 2, 16, tzinfo=UTC)),
        ("last week", datetime(2025, 11, 23, 16, tzinfo=UTC), datetime(2025, 11, 30, 16, tzinfo=UTC)),
        ("since 2025-12-01", datetime(2025, 11, 30, 16, tzinfo=UTC), NOW),
        ("2025-12-01..2025-12-02", datetime(2025, 11, 30, 16, tzinfo=UTC), datetime(2025, 12, 2, 16, tzinfo=UTC)),
    ],
)
def test_windows(text: str, start: datetime, end: datetime) -> None:
    window = parse_query(f"rocm {text}").window.resolve(NOW, SHANGHAI)
    assert (window.start, window.end) == (start, end)


@pytest.mark.parametrize(
    ("text", "note"),
    [
        ("rocm 2025-02-30..2025-03-02", "“2025-02-30” is not a date"),
        ("rocm since yesterday-ish", "is not a date"),
        ("color:red rocm", "unknown filter “color:”"),
        ("is:stale", "is: takes issue, pr, open, closed, merged or bot"),
        ("repo:nope", "is not a repository"),
        ("rocm 0d", "empty window"),
        ("rocm 9999d", "limited to 366 days"),
    ],
)
def test_bad_parts_become_friendly_notes(text: str, note: str) -> None:
    query = parse_query(text)
    assert any(note in n for n in query.notes), query.notes


def test_reversed_range_is_swapped_and_long_text_is_cut() -> None:
    assert parse_query("2025-12-07..2025-12-01").window.start_date == date(2025, 12, 1)
    assert parse_query("rocm " * 3000).notes[0].startswith("the query was cut")


def test_quotes_zero_width_and_metacharacters() -> None:
    query = parse_query('"flash attention" q\u200bwen .*( \'; DROP TABLE items; --')
    assert query.words[:2] == ("flash attention", "qwen")
    assert "drop" in query.words


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=2000))
def test_parser_never_raises(text: str) -> None:
    query = parse_query(text)
    if query.window is not None:
        window = query.window.resolve(NOW, SHANGHAI)
        assert window.start < window.end


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["rocm", "-label:x", "7d", "since", "2025-13-45", "..", "is:", "label:",
                                 "repo:a/b", "\u202e", "🚀", "卡住", "last", "week", '"', "author:"]), max_size=12))
def test_parser_never_raises_on_grammar_fragments(parts: list[str]) -> None:
    parse_query(" ".join(parts))
