"""Reads about the days before a window, for the narrative: topic baselines, first-timers, hot streaks.

Each read is a fixed number of index range scans (created/closed/merged/comment times, authors), so the
narrative costs a small fraction of the digest it annotates (bench/bench_digest.py measures it).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Collection, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, func, select, union_all

from bot.store import schema
from bot.store.db import upsert
from bot.store.store import Store
from bot.timeutil import utcnow

_LEAN = ("number", "author", "author_is_bot", "topics", "topics_key")
_MATCHABLE = ("number", "title", "labels", "prose")


def _aware(moment: datetime) -> datetime:
    # min() loses the column type, so SQLite hands back a naive (UTC) datetime or even a string.
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _bucket(bounds: Sequence[datetime], moment: datetime | None) -> int | None:
    """Index of the window ``[bounds[k], bounds[k+1])`` holding ``moment``, or None outside them all."""
    if moment is None or not bounds[0] <= moment < bounds[-1]:
        return None
    return bisect_right(bounds, moment) - 1


class History:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    def touched_by_day(self, repo: str, bounds: Sequence[datetime]) -> dict[int, set[int]]:
        """For each item opened, closed, merged or commented in ``[bounds[0], bounds[-1])``: the indexes of the
        consecutive windows ``[bounds[k], bounds[k+1])`` it was touched in (the digest's "in the window")."""
        i, c = schema.items.c, schema.comments.c
        start, end = bounds[0], bounds[-1]
        days: dict[int, set[int]] = {}
        with self.engine.connect() as conn:
            moments = union_all(
                *(
                    select(i.number, column.label("moment")).where(i.repo == repo, column >= start, column < end)
                    for column in (i.created_at, i.closed_at, i.merged_at)
                ),
                select(c.number, c.created_at.label("moment")).where(
                    c.repo == repo, c.created_at >= start, c.created_at < end
                ),
            )
            for number, moment in conn.execute(moments):
                day = _bucket(bounds, moment)
                if day is not None:
                    days.setdefault(number, set()).add(day)
        return days

    def lean_items(self, repo: str, numbers: Collection[int], *, matchable: bool = False) -> list[Any]:
        """Authors and stored topic matches of ``numbers``; with ``matchable``, what matching them anew needs
        instead (only for rows whose stored matches are stale: the sync stores them with the current taxonomy)."""
        i = schema.items.c
        columns = _MATCHABLE if matchable else _LEAN
        wanted = sorted(numbers)
        rows: list[Any] = []
        with self.engine.connect() as conn:
            for at in range(0, len(wanted), 500):
                chunk = wanted[at : at + 500]
                rows.extend(
                    conn.execute(
                        select(*(getattr(i, name) for name in columns)).where(i.repo == repo, i.number.in_(chunk))
                    )
                )
        return rows

    def comment_authors(self, repo: str, start: datetime, end: datetime) -> set[str]:
        """Distinct authors of human comments written in ``[start, end)``."""
        c = schema.comments.c
        with self.engine.connect() as conn:
            return set(
                conn.execute(
                    select(c.author)
                    .where(c.repo == repo, c.created_at >= start, c.created_at < end, c.author_is_bot.is_(False))
                    .distinct()
                ).scalars()
            )

    def earlier_authors(self, repo: str, authors: Collection[str], before: datetime) -> set[str]:
        """Which of ``authors`` opened an item before ``before`` (one index lookup per author, in chunks)."""
        i = schema.items.c
        wanted = sorted(authors)
        found: set[str] = set()
        with self.engine.connect() as conn:
            for at in range(0, len(wanted), 500):
                chunk = wanted[at : at + 500]
                # min() per author on the (repo, author, created_at) index: a "created_at < before" filter
                # would tempt SQLite into scanning the created_at index over the whole history instead.
                found.update(
                    author
                    for author, first in conn.execute(
                        select(i.author, func.min(i.created_at))
                        .where(i.repo == repo, i.author.in_(chunk))
                        .group_by(i.author)
                    )
                    if first is not None and _aware(first) < before
                )
        return found

    def human_comment_days(
        self, repo: str, numbers: Collection[int], bounds: Sequence[datetime]
    ) -> dict[int, list[int]]:
        """Human comments per item and window ``[bounds[k], bounds[k+1])``, for ``numbers``."""
        c = schema.comments.c
        counts = {number: [0] * (len(bounds) - 1) for number in numbers}
        if not counts:
            return counts
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(c.number, c.created_at).where(
                    and_(
                        c.repo == repo,
                        c.number.in_(sorted(counts)),
                        c.created_at >= bounds[0],
                        c.created_at < bounds[-1],
                        c.author_is_bot.is_(False),
                    )
                )
            )
            for number, moment in rows:
                day = _bucket(bounds, moment)
                if day is not None:
                    counts[number][day] += 1
        return counts

    def topic_days(
        self, repo: str, starts: Sequence[datetime], seconds: int, key: str
    ) -> dict[datetime, dict[str, int]]:
        """Cached per-topic counts of the days starting at ``starts`` (those computed before)."""
        t = schema.topic_days.c
        if not starts:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(t.day_start, t.counts).where(
                    t.repo == repo, t.day_seconds == seconds, t.key == key, t.day_start.in_(list(starts))
                )
            )
            return {row.day_start: {str(k): int(v) for k, v in row.counts.items()} for row in rows}

    def save_topic_days(self, repo: str, days: dict[datetime, dict[str, int]], seconds: int, key: str) -> None:
        if not days:
            return
        now = utcnow()
        rows = [
            dict(repo=repo, day_start=start, day_seconds=seconds, key=key, counts=counts, computed_at=now)
            for start, counts in days.items()
        ]
        with self.engine.begin() as conn:
            upsert(conn, schema.topic_days, rows, ("repo", "day_start", "day_seconds", "key"))
