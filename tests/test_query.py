"""The query grammar: every documented form, and never an exception on hostile text."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.topics.query import MAX_TERMS, MAX_WINDOW_DAYS, MAX_WORD_CHARS, QueryNote, parse_query
from tests.query_strategies import query_texts

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
        ("rocm 2025-12-07..2025-12-01", "ends before it starts (use 2025-12-01..2025-12-07)"),
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


def test_long_text_is_cut() -> None:
    query = parse_query("rocm " * 3000)
    assert query.notes[0].startswith("the query was cut")
    assert query.issues[0] == QueryNote("query_cut", "500") and not query.problems


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("labe:bug", QueryNote("unknown_filter", "labe:", "label:bug")),
        ("colour:red", QueryNote("unknown_filter", "colour:", "")),
        ("is:bogus", QueryNote("bad_is", "is:bogus", "")),
        ("is:merg", QueryNote("bad_is", "is:merg", "is:merged")),
        ("-is:pr", QueryNote("negated_is", "-is:pr", "is:issue")),
        ("label:", QueryNote("no_value", "label:", "label:bug")),
        ("repo:nope", QueryNote("bad_repo", "repo:nope", "repo:owner/name")),
        ("since 2025-99-01", QueryNote("bad_date", "2025-99-01")),
        ("since 99999999999999999999-01-01", QueryNote("bad_date", "99999999999999999999-01-01")),
        ("2025-02-30", QueryNote("bad_date", "2025-02-30")),
        ("2025-12-12..2025-12-01", QueryNote("inverted_range", "2025-12-12..2025-12-01", "2025-12-01..2025-12-12")),
        ("rocm 0d", QueryNote("empty_window", "0d", "1d")),
    ],
)
def test_text_that_does_not_say_what_it_means_is_a_problem(text: str, problem: QueryNote) -> None:
    query = parse_query(text)
    assert query.problems == (problem,)
    assert query.notes == (problem.english(),)


def test_words_are_limited_in_length_and_number() -> None:
    query = parse_query("x" * 450 + " rocm")
    assert query.words == ("x" * MAX_WORD_CHARS, "rocm")
    assert query.adjustments == (QueryNote("word_cut", "x" * 20 + "…", str(MAX_WORD_CHARS)),)
    many = parse_query(" ".join(f"w{n}" for n in range(20)) + " " + " ".join(f"-x{n}" for n in range(20)))
    assert len(many.words) == len(many.excluded_words) == MAX_TERMS
    assert many.adjustments == (QueryNote("words_dropped", str(MAX_TERMS)),)
    assert parse_query(" ".join(["rocm"] * 20)).issues == ()  # repeats are one word


@pytest.mark.parametrize(
    ("text", "start", "end", "notes"),
    [
        # A year and a bit back: cut to the last 366 days, like every other window.
        ("since 1970-01-01", NOW - timedelta(days=366), NOW, [QueryNote("window_capped", "366")]),
        ("since 0001-01-01", NOW - timedelta(days=366), NOW, [QueryNote("window_capped", "366")]),
        ("since 2024-12-01", NOW - timedelta(days=366), NOW, [QueryNote("window_capped", "366")]),
        ("since 9999-12-31", datetime(2025, 12, 2, 16, tzinfo=UTC), NOW,
         [QueryNote("date_clamped", "9999-12-31", "2025-12-03")]),
        ("0001-01-01..0001-01-02", datetime(1969, 12, 31, 16, tzinfo=UTC), datetime(1970, 1, 1, 16, tzinfo=UTC),
         [QueryNote("date_clamped", "0001-01-01", "1970-01-01"),
          QueryNote("date_clamped", "0001-01-02", "1970-01-01")]),
        ("2025-12-01..9999-12-31", datetime(2025, 11, 30, 16, tzinfo=UTC), datetime(2025, 12, 3, 16, tzinfo=UTC),
         [QueryNote("date_clamped", "9999-12-31", "2025-12-03")]),
        ("2024-01-01..2025-12-01", datetime(2024, 11, 30, 16, tzinfo=UTC), datetime(2025, 12, 1, 16, tzinfo=UTC),
         [QueryNote("window_capped", "366")]),
        ("2024-12-01..2025-12-01", datetime(2024, 11, 30, 16, tzinfo=UTC), datetime(2025, 12, 1, 16, tzinfo=UTC),
         []),
    ],
)
def test_dates_are_clamped_and_windows_capped(text: str, start: datetime, end: datetime,
                                              notes: list[QueryNote]) -> None:
    query = parse_query(text)
    assert query.problems == ()
    window, resolved = query.window.resolve_noted(NOW, SHANGHAI)
    assert (window.start, window.end) == (start, end)
    assert list(resolved) == notes


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


ZONES = [ZoneInfo(name) for name in ("UTC", "Asia/Shanghai", "Pacific/Kiritimati", "Pacific/Pago_Pago",
                                     "America/New_York", "Europe/Berlin")]


@settings(max_examples=400, deadline=None)
@given(query_texts, st.datetimes(datetime(2000, 1, 1), datetime(2100, 1, 1), timezones=st.just(UTC)),
       st.sampled_from(ZONES))
def test_every_query_parses_to_words_or_notes_and_a_window_of_at_most_a_year(text: str, now: datetime,
                                                                               zone: ZoneInfo) -> None:
    query = parse_query(text)
    assert len(query.notes) == len(query.issues) and all(query.notes)
    assert len(query.words) <= MAX_TERMS and len(query.excluded_words) <= MAX_TERMS
    assert all(len(word) <= MAX_WORD_CHARS for word in (*query.words, *query.excluded_words))
    if query.window is not None:
        window, notes = query.window.resolve_noted(now, zone)
        assert window.start <= window.end
        # 366 local days; a range of whole days may gain the hour a DST change takes back.
        assert window.end - window.start <= timedelta(days=MAX_WINDOW_DAYS, hours=1)
        assert all(not note.is_problem and note.english() for note in notes)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["rocm", "-label:x", "7d", "since", "2025-13-45", "..", "is:", "label:",
                                 "repo:a/b", "\u202e", "🚀", "卡住", "last", "week", '"', "author:"]), max_size=12))
def test_parser_never_raises_on_grammar_fragments(parts: list[str]) -> None:
    parse_query(" ".join(parts))
