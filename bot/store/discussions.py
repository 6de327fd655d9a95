"""The comments worth reading in a discussion: what the LLM analysis is shown of a hot thread.

Human comments only, ranked by reactions then recency, the top few per item, returned in the order they
were written so the thread reads as a conversation. One query for all the items of a digest: a window
function ranks each item's comments in the database (SQLite >= 3.25 and PostgreSQL alike), so a
2,000-comment megathread costs no more to read than a quiet one.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select

from bot.store import schema
from bot.store.store import Store
from bot.text import strip_controls, truncate

_CHUNK = 500


@dataclass(frozen=True, slots=True)
class DiscussionComment:
    number: int
    id: int
    author: str
    created_at: datetime
    body: str  # controls removed, whitespace collapsed, at most ``max_chars``
    reactions: int


class Discussions:
    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    def relevant_comments(
        self,
        repo: str,
        numbers: Collection[int],
        *,
        limit: int = 8,
        max_chars: int = 500,
        before: datetime | None = None,
        exclude_authors: Collection[str] = (),
    ) -> dict[int, list[DiscussionComment]]:
        """Per item number: up to ``limit`` human comments (most reactions, then newest), oldest first.

        ``before`` leaves out comments written at or after it (a digest passes its window's end): a later
        comment never changes a past window's prompt. Everything else is read as it is now: reactions (which
        pick the comments), edited bodies, and the item's own title, state and body. So re-running a past
        window hits the LLM cache only while none of those changed since the last run; ranking by recency
        instead would not make the prompt fixed (the item's text still moves), only pick worse comments.
        ``exclude_authors`` are extra bot logins."""
        wanted = sorted(set(numbers))
        if not wanted or limit <= 0:
            return {}
        c = schema.comments.c
        found: dict[int, list[DiscussionComment]] = {number: [] for number in wanted}
        with self.engine.connect() as conn:
            for start in range(0, len(wanted), _CHUNK):
                chunk = wanted[start : start + _CHUNK]
                conditions = [c.repo == repo, c.number.in_(chunk), c.author_is_bot.is_(False), c.body != ""]
                if before is not None:
                    conditions.append(c.created_at < before)
                if exclude_authors:
                    conditions.append(c.author.not_in(sorted(set(exclude_authors))))
                # Reactions first: the best signal of what matters; a re-run after new reactions costs one call.
                rank = func.row_number().over(
                    partition_by=c.number, order_by=(c.reactions.desc(), c.created_at.desc(), c.id.desc())
                ).label("rank")
                ranked = (
                    select(c.number, c.id, c.author, c.created_at, c.body, c.reactions, rank)
                    .where(*conditions)
                    .subquery()
                )
                rows = conn.execute(
                    select(ranked)
                    .where(ranked.c.rank <= limit)
                    .order_by(ranked.c.number, ranked.c.created_at, ranked.c.id)
                )
                for row in rows:
                    body = truncate(" ".join(strip_controls(row.body).split()), max_chars)
                    if body:
                        found[row.number].append(
                            DiscussionComment(row.number, row.id, row.author, row.created_at, body, row.reactions)
                        )
        return {number: comments for number, comments in found.items() if comments}
