"""Reads about the days before a window, for the narrative: topic baselines and hot streaks.

Each read is a fixed number of index range scans (created/closed/merged/comment times, authors), so the
narrative costs a small fraction of the digest it annotates (bench/bench_digest.py measures it).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import and_, select, union_all

from bot.store import schema
from bot.store.db import upsert
from bot.store.store import Store
from bot.timeutil import utcnow

_LEAN = ("number", "author", "author_is_bot", "topics", "topics_key")
_MATCHABLE = ("number", "title", "labels", "prose")


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

    def discussion_days(
        self, repo: str, numbers: Collection[int], bounds: Sequence[datetime]
    ) -> dict[int, list[tuple[int, int]]]:
        """For ``numbers``, per window ``[bounds[k], bounds[k+1])``: (human comments, distinct human commenters),
        what made an item hot that day. One query, on the (repo, number, created_at) index."""
        c = schema.comments.c
        empty = (0, 0)
        days: dict[int, list[tuple[int, int]]] = {number: [empty] * (len(bounds) - 1) for number in numbers}
        if not days:
            return days
        people: dict[tuple[int, int], set[str]] = {}
        comments: dict[tuple[int, int], int] = {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(c.number, c.created_at, c.author).where(
                    and_(
                        c.repo == repo,
                        c.number.in_(sorted(days)),
                        c.created_at >= bounds[0],
                        c.created_at < bounds[-1],
                        c.author_is_bot.is_(False),
                    )
                )
            )
            for number, moment, author in rows:
                day = _bucket(bounds, moment)
                if day is not None:
                    comments[number, day] = comments.get((number, day), 0) + 1
                    people.setdefault((number, day), set()).add(author)
        for (number, day), n in comments.items():
            days[number][day] = (n, len(people[number, day]))
        return days

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
