"""Hypothesis strategies for query text: the grammar's own pieces (filters, windows, dates, ranges) mixed with
huge words, many words, odd dates and arbitrary text, so a property can say every string answers or notes."""

from __future__ import annotations

from hypothesis import strategies as st

_FRAGMENTS = ["rocm", "qwen", "hangs", "-flaky", "label:bug", "-label:stale", "author:@alice", "is:pr", "is:merged",
              "-is:bot", "is:", "label:", "repo:o/r", "repo:nope", "labe:bug", "is:bogus", "colour:red", "since",
              "last", "week", "today", "yesterday", "..", '"', "\u202e", "🚀", "卡住", "0d", "9999w", "24h",
              "#1", "#12", "30521", "#0", "why", "#-3"]

# Years from 0 to 99999 (beyond ``date``), months and days out of range too, with and without zero padding.
dates = st.builds(lambda y, m, d, pad: f"{y:04d}-{m:02d}-{d:02d}" if pad else f"{y}-{m}-{d}",
                  st.one_of(st.integers(0, 99999), st.sampled_from([1, 1969, 1970, 2024, 2025, 9999])),
                  st.integers(0, 13), st.integers(0, 32), st.booleans())
huge_words = st.builds(lambda ch, n: ch * n, st.sampled_from(["a", "x", "é", "卡", "-", "ab"]), st.integers(90, 700))
fragments = st.one_of(
    st.sampled_from(_FRAGMENTS),
    dates,
    st.builds("{}..{}".format, dates, dates),
    st.builds("since {}".format, dates),
    st.builds("{}{}".format, st.integers(0, 9999), st.sampled_from("hdw")),
    huge_words,
    st.text(min_size=1, max_size=30),
)
query_texts = st.one_of(
    st.lists(fragments, max_size=40).map(" ".join),
    st.text(max_size=600),
)
