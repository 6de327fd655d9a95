"""The store's operations: idempotent writes for the sync, window reads for the builders."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy
from msgspec import Struct
from sqlalchemy import (
    Connection,
    Engine,
    String,
    and_,
    case,
    cast,
    delete,
    exists,
    false,
    func,
    literal,
    or_,
    select,
    true,
    union,
    update,
)

from bot.redact import redact
from bot.store import schema
from bot.store.db import create_store_engine, migrate, upsert
from bot.store.records import (
    DETAIL_FIELDS,
    MAINTAINER_ASSOCIATIONS,
    CommentRecord,
    Discussion,
    ItemFilter,
    ItemRecord,
    PullDetails,
    RemovedItem,
    Unreadable,
    UnreadableChange,
    WindowActivity,
)
from bot.timeutil import utcnow

# The columns of an item a search reads (``Store.search_window``): what it matches, ranks and shows.
SEARCH_FIELDS = ("repo", "number", "kind", "title", "author", "author_is_bot", "labels", "state", "created_at",
                 "updated_at", "url", "closed_at", "merged_at", "reactions", "prose", "summary", "topics",
                 "topics_key")
# Items whose comments a search looks up by number (``Store.comments_containing``); more, and one pass over the
# window's comments reads less (and stays under SQLite's limit of bound parameters).
COMMENT_LOOKUPS = 2_000
# Webhooks count towards a window's coverage only when their deliveries began this long before a poll completed.
WEBHOOK_POLL_MARGIN = timedelta(minutes=10)
_ITEM_FIELDS = list(ItemRecord.__struct_fields__)
_COMMENT_FIELDS = list(CommentRecord.__struct_fields__)


def item_row(item: ItemRecord) -> dict[str, Any]:
    row = {name: getattr(item, name) for name in _ITEM_FIELDS}
    # A listing knows no details: None keeps what the details step stored (``upsert(keep=...)``).
    row["details_due"] = item.details_due or None
    row["labels"] = list(item.labels)
    row["topics"] = None if item.topics is None else [[t, s, list(r)] for t, s, r in item.topics]
    row["text_facts"] = None if item.text_facts is None else dict(item.text_facts)
    return row


def _item_from_row(row: Any, plan: tuple[int | None, ...] | None = None) -> ItemRecord:
    """The record of a row of ``items`` (any selection of its columns holding the fields without a default);
    ``plan``: ``_record_plan`` of the rows' columns, worked out once for many rows."""
    columns = tuple(row)
    values: list[Any] = [default if at is None else columns[at]
                         for at, default in zip(plan or _record_plan(row._fields), _ITEM_DEFAULTS, strict=True)]
    values[_LABELS_AT] = tuple(values[_LABELS_AT] or ())
    for at in _TEXT_AT:
        values[at] = values[at] or ""
    topics = values[_TOPICS_AT]
    if topics is not None:
        values[_TOPICS_AT] = tuple((t, int(s), tuple(r)) for t, s, r in topics)
    facts = values[_FACTS_AT]
    if facts is not None:  # JSON gives lists: ItemFacts holds tuples (hashable, like the rest of the model)
        values[_FACTS_AT] = tuple((name, tuple(value) if isinstance(value, list) else value)
                                  for name, value in facts.items())
    values[_DUE_AT] = bool(values[_DUE_AT])
    return ItemRecord(*values)  # positional: a tenth of the cost of 37 keywords, for ~800 rows a digest


@functools.lru_cache(maxsize=32)
def _record_plan(fields: tuple[str, ...]) -> tuple[int | None, ...]:
    """Per ItemRecord field, where a select's row holds it (None: not selected, the field's default): one lookup
    per query shape instead of one per row and column."""
    where = {name: at for at, name in enumerate(fields)}
    return tuple(where.get(name) for name in _ITEM_FIELDS)


def remove_items(conn: Connection, removed: Iterable[RemovedItem], now: datetime) -> None:
    """Mark issues gone from their repository (deleted, transferred) and forget them, in the caller's
    transaction: their item, comments and unreadable report, and the cached per-day topic counts
    (``topic_days``) of the days since they were opened, which are counted again without them."""
    r, i, c, u, t = (schema.removed_items.c, schema.items.c, schema.comments.c, schema.unreadable.c,
                     schema.topic_days.c)
    for gone in removed:
        where = (r.repo == gone.repo, r.number == gone.number)
        stored = conn.execute(select(r.moved_to).where(*where)).first()
        if stored is None:
            conn.execute(schema.removed_items.insert().values(
                repo=gone.repo, number=gone.number, reason=gone.reason, moved_to=gone.moved_to,
                removed_at=gone.removed_at or now))
        elif stored.moved_to is None and gone.moved_to:  # a later delivery says where it went
            conn.execute(update(schema.removed_items).where(*where).values(moved_to=gone.moved_to))
        created = conn.execute(select(i.created_at).where(i.repo == gone.repo, i.number == gone.number)).scalar()
        conn.execute(delete(schema.items).where(i.repo == gone.repo, i.number == gone.number))
        conn.execute(delete(schema.comments).where(c.repo == gone.repo, c.number == gone.number))
        conn.execute(delete(schema.unreadable).where(u.repo == gone.repo, u.resource == "issues",
                                                     u.key == gone.number))
        if created is not None:  # a day is at most 25 h (DST): every cached day it could have counted in
            conn.execute(delete(schema.topic_days).where(t.repo == gone.repo,
                                                         t.day_start > created - timedelta(hours=26)))


def drop_removed(conn: Connection, keys: Iterable[tuple[str, int]]) -> set[tuple[str, int]]:
    """After a write of items or comments (``keys``: their (repo, issue number)), in the same transaction: delete
    those of issues marked removed, so no poll or late delivery stores a deleted or transferred issue again.
    Checked after the write, not before: a removal committed meanwhile is seen either way."""
    wanted: dict[str, set[int]] = {}
    for repo, number in keys:
        wanted.setdefault(repo, set()).add(number)
    r, i, c = schema.removed_items.c, schema.items.c, schema.comments.c
    found: set[tuple[str, int]] = set()
    for repo, numbers in wanted.items():
        ordered = sorted(numbers)
        for at in range(0, len(ordered), 500):
            found.update((repo, number) for number in conn.execute(
                select(r.number).where(r.repo == repo, r.number.in_(ordered[at : at + 500]))).scalars())
    for repo, number in sorted(found):
        conn.execute(delete(schema.items).where(i.repo == repo, i.number == number))
        conn.execute(delete(schema.comments).where(c.repo == repo, c.number == number))
    return found


_ITEM_DEFAULTS = (None,) * (len(_ITEM_FIELDS) - len(ItemRecord.__struct_defaults__)) + ItemRecord.__struct_defaults__
_LABELS_AT = _ITEM_FIELDS.index("labels")
_TEXT_AT = tuple(_ITEM_FIELDS.index(name) for name in
                 ("body", "prose", "summary", "topics_key", "change_value", "kinds_key"))
_TOPICS_AT = _ITEM_FIELDS.index("topics")
_FACTS_AT = _ITEM_FIELDS.index("text_facts")
_DUE_AT = _ITEM_FIELDS.index("details_due")


# DISTINCT repo would read every item's index entry: this walks from one repository to the next instead.
_REPOS_SKIP_SCAN = sqlalchemy.text("""
WITH RECURSIVE walk(repo) AS (
    SELECT MIN(repo) FROM items
    UNION ALL
    SELECT (SELECT MIN(repo) FROM items WHERE repo > walk.repo) FROM walk WHERE walk.repo IS NOT NULL
)
SELECT repo FROM walk WHERE repo IS NOT NULL ORDER BY repo
""")


class DetailsWanted(Struct, frozen=True):
    """A PR whose details the sync should fetch: it changed since they were read, or an earlier fetch failed."""

    number: int
    updated_at: datetime
    author: str
    due: bool  # an earlier sync picked it and could not fetch it


class Store:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @classmethod
    def open(cls, url: str) -> Store:
        engine = create_store_engine(url)
        migrate(engine)
        return cls(engine)

    def close(self) -> None:
        self.engine.dispose()

    @property
    def shareable_url(self) -> str | None:
        """The URL another process opens to reach this same database; None for in-memory SQLite (private)."""
        url = self.engine.url
        if url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:"):
            return None
        return url.render_as_string(hide_password=False)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- writes (sync) ---

    def save_page(
        self,
        items: Sequence[ItemRecord] = (),
        comments: Sequence[CommentRecord] = (),
        *,
        resolved: Sequence[tuple[str, str, int]] = (),
    ) -> None:
        """One page of a listing, in one transaction: a crash leaves whole pages or nothing. ``resolved``:
        (repo, resource, key) of unreadable reports these records settle, dropped in the same transaction."""
        with self.engine.begin() as conn:
            u = schema.unreadable.c
            for repo, resource, key in resolved:
                conn.execute(delete(schema.unreadable).where(u.repo == repo, u.resource == resource, u.key == key))
            upsert(conn, schema.items, [item_row(item) for item in items], ("repo", "number"), keep=DETAIL_FIELDS,
                   insert_only={"first_seen_at": utcnow()})
            upsert(
                conn,
                schema.comments,
                [{name: getattr(c, name) for name in _COMMENT_FIELDS} for c in comments],
                ("repo", "id"),
            )
            drop_removed(conn, [(item.repo, item.number) for item in items]
                         + [(comment.repo, comment.number) for comment in comments])

    def cursor(self, repo: str, resource: str) -> datetime | None:
        with self.engine.connect() as conn:
            return conn.execute(
                select(schema.sync_state.c.cursor).where(
                    schema.sync_state.c.repo == repo, schema.sync_state.c.resource == resource
                )
            ).scalar()

    def complete_listing(
        self,
        repo: str,
        resource: str,
        cursor: datetime | None,
        pages: Iterable[tuple[str, str, str | None]],
        synced_from: datetime | None = None,
        unreadable: UnreadableChange | None = None,
    ) -> None:
        """Move the cursor and remember page ETags together, only once a listing finished; with them, what it
        learnt about unreadable items (so a report never says more or less than the cursor assumes)."""
        now = utcnow()
        with self.engine.begin() as conn:
            if unreadable is not None:
                self._note_unreadable(conn, repo, resource, unreadable, now)
            earlier = conn.execute(
                select(schema.sync_state.c.synced_from).where(
                    schema.sync_state.c.repo == repo, schema.sync_state.c.resource == resource
                )
            ).scalar()
            known = [moment for moment in (earlier, synced_from) if moment is not None]
            upsert(
                conn,
                schema.sync_state,
                [
                    dict(
                        repo=repo,
                        resource=resource,
                        cursor=cursor,
                        synced_from=min(known) if known else None,
                        last_success_at=now,
                        last_error=None,
                    )
                ],
                ("repo", "resource"),
            )
            upsert(
                conn,
                schema.http_cache,
                [dict(url=url, etag=etag, next_url=next_url, stored_at=now) for url, etag, next_url in pages],
                ("url",),
            )
            # Old URLs (earlier cursors) are never asked again.
            conn.execute(
                delete(schema.http_cache).where(schema.http_cache.c.stored_at < now - timedelta(days=3))
            )

    def _note_unreadable(
        self, conn: Connection, repo: str, resource: str, change: UnreadableChange, now: datetime
    ) -> None:
        u = schema.unreadable.c
        mine = and_(u.repo == repo, u.resource == resource)
        if change.fixed:
            conn.execute(delete(schema.unreadable).where(mine, u.key.in_(sorted(change.fixed))))
        if change.found:
            earlier = {
                row.key: row
                for row in conn.execute(
                    select(u.key, u.first_seen_at, u.attempts).where(mine, u.key.in_(sorted(change.found)))
                )
            }
            upsert(conn, schema.unreadable, [
                dict(repo=repo, resource=resource, key=key, error=error[:2000], hold=None,
                     first_seen_at=earlier[key].first_seen_at if key in earlier else now, last_seen_at=now,
                     attempts=earlier[key].attempts + 1 if key in earlier else 1)
                for key, error in sorted(change.found.items())
            ], ("repo", "resource", "key"))
        if change.replace_unkeyed:
            conn.execute(delete(schema.unreadable).where(mine, u.key < 0))
        if change.unkeyed:
            lowest = conn.execute(select(func.min(u.key)).where(mine, u.key < 0)).scalar() or 0
            conn.execute(schema.unreadable.insert(), [
                dict(repo=repo, resource=resource, key=lowest - n, error=error[:2000], hold=hold,
                     first_seen_at=now, last_seen_at=now, attempts=1)
                for n, (error, hold) in enumerate(change.unkeyed, start=1)
            ])

    def note_unreadable(self, repo: str, resource: str, key: int, error: str) -> None:
        """An item re-fetched alone was malformed again."""
        u = schema.unreadable.c
        with self.engine.begin() as conn:
            conn.execute(
                schema.unreadable.update()
                .where(u.repo == repo, u.resource == resource, u.key == key)
                .values(error=error[:2000], last_seen_at=utcnow(), attempts=u.attempts + 1)
            )

    def unreadable(self, repo: str, resource: str | None = None) -> list[Unreadable]:
        """Items of ``repo`` a sync could not read and no later one stored, by resource then key."""
        u = schema.unreadable.c
        query = select(schema.unreadable).where(u.repo == repo)
        if resource is not None:
            query = query.where(u.resource == resource)
        with self.engine.connect() as conn:
            rows = conn.execute(query.order_by(u.resource, u.key)).all()
        return [
            Unreadable(resource=row.resource, key=row.key if row.key >= 0 else None, error=row.error, hold=row.hold,
                       first_seen_at=row.first_seen_at, last_seen_at=row.last_seen_at, attempts=row.attempts)
            for row in rows
        ]

    def last_synced(self, repo: str) -> datetime | None:
        """How far the store is known to hold ``repo``'s activity: its last completed poll, or later by the
        webhooks applied since (``webhook_coverage``). None when no poll ever completed."""
        return self.sync_marks(repo)[1]

    def sync_marks(self, repo: str) -> tuple[datetime | None, datetime | None]:
        """(``last_polled``, ``last_synced``): what only a completed poll vouches for (GitHub does not promise
        to deliver every webhook: a page that must never change again waits for it), and what webhooks add."""
        polled = self.last_polled(repo)
        if polled is None:
            return None, None
        hooks = self.webhook_coverage(repo, polled)
        return polled, max(polled, hooks) if hooks is not None else polled

    def webhook_coverage(self, repo: str, polled: datetime) -> datetime | None:
        """Up to when webhook deliveries carried ``repo``'s activity on from a poll completed at ``polled``: the
        latest one applied before any not applied yet, provided the deliveries kept began at least
        ``WEBHOOK_POLL_MARGIN`` before that poll completed (the listing read GitHub before it completed; a gap
        between the two paths must not count as covered). None when they do not reach past the poll."""
        w = schema.webhook_deliveries.c
        mine = w.repo == repo
        with self.engine.connect() as conn:
            first = conn.execute(select(func.min(w.received_at)).where(mine)).scalar()
            if first is None or first > polled - WEBHOOK_POLL_MARGIN:
                return None
            waiting = conn.execute(
                select(func.min(w.received_at)).where(mine, w.status.in_(("pending", "failed")))
            ).scalar()
            applied = select(func.max(w.received_at)).where(mine, w.status.in_(("applied", "ignored")))
            if waiting is not None:
                applied = applied.where(w.received_at < waiting)
            latest = conn.execute(applied).scalar()
        return latest if latest is not None and latest > polled else None

    def last_polled(self, repo: str) -> datetime | None:
        """When every listing of ``repo`` last completed (the older of the two), or None if one never did."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(schema.sync_state.c.resource, schema.sync_state.c.last_success_at).where(
                    schema.sync_state.c.repo == repo
                )
            ).all()
        done = {row.resource: row.last_success_at for row in rows if row.last_success_at is not None}
        if {"issues", "comments"} - done.keys():
            return None
        return min(done.values())

    def synced_from(self, repo: str) -> datetime | None:
        """Activity before this time was never fetched (None: nothing synced)."""
        with self.engine.connect() as conn:
            return conn.execute(
                select(func.max(schema.sync_state.c.synced_from)).where(schema.sync_state.c.repo == repo)
            ).scalar()

    def record_failure(self, repo: str, resource: str, message: str) -> None:
        with self.engine.begin() as conn:
            existing = conn.execute(
                select(
                    schema.sync_state.c.cursor, schema.sync_state.c.synced_from, schema.sync_state.c.last_success_at
                ).where(
                    schema.sync_state.c.repo == repo, schema.sync_state.c.resource == resource
                )
            ).first()
            upsert(
                conn,
                schema.sync_state,
                [
                    dict(
                        repo=repo,
                        resource=resource,
                        cursor=existing.cursor if existing else None,
                        synced_from=existing.synced_from if existing else None,
                        last_success_at=existing.last_success_at if existing else None,
                        last_error=redact(message)[:2000],  # shown by status and /healthz
                    )
                ],
                ("repo", "resource"),
            )

    # --- PR details (sync) ---

    def details_wanted(self, repo: str, numbers: Iterable[int], *, merged_since: datetime) -> list[DetailsWanted]:
        """Of ``numbers`` (the items a sync just stored), the human PRs worth their details whose details are
        missing or older than the item: merged since ``merged_since``, or open and not draft; and every PR an
        earlier sync picked and could not fetch. Newest first."""
        i = schema.items.c
        columns = (i.number, i.updated_at, i.author, i.details_due)
        stale = or_(i.details_updated_at.is_(None), i.details_updated_at < i.updated_at)
        worth = or_(i.merged_at >= merged_since, and_(i.state == "open", i.draft == false()))
        human_pr = and_(i.repo == repo, i.kind == "pr", i.author_is_bot == false())
        found: dict[int, DetailsWanted] = {}
        with self.engine.connect() as conn:
            for row in conn.execute(select(*columns).where(i.repo == repo, i.details_due == true())):
                found[row.number] = DetailsWanted(row.number, row.updated_at, row.author, True)
            wanted = sorted(set(numbers))
            for chunk_start in range(0, len(wanted), 500):
                chunk = wanted[chunk_start : chunk_start + 500]
                query = select(*columns).where(human_pr, i.number.in_(chunk), stale, worth)
                for row in conn.execute(query):
                    found.setdefault(row.number, DetailsWanted(row.number, row.updated_at, row.author, False))
        return sorted(found.values(), key=lambda w: (w.updated_at, w.number), reverse=True)

    def mark_details_due(self, repo: str, numbers: Sequence[int]) -> None:
        """Picked for a details fetch: until one succeeds (or GitHub says there is nothing to read), every
        sync retries it, even a crashed one's."""
        i = schema.items
        with self.engine.begin() as conn:
            for chunk_start in range(0, len(numbers), 500):
                chunk = list(numbers[chunk_start : chunk_start + 500])
                conn.execute(i.update().where(i.c.repo == repo, i.c.number.in_(chunk)).values(details_due=True))

    def save_pr_details(
        self,
        repo: str,
        details: Sequence[tuple[PullDetails, datetime]] = (),
        settled: Sequence[tuple[int, datetime]] = (),
        etags: Sequence[tuple[str, str]] = (),
    ) -> None:
        """In one transaction: ``details`` read (each with the item's ``updated_at`` it was asked for), PRs
        ``settled`` without new details (unchanged, 304; or nothing to read) as of the given ``updated_at``, and
        the ETags of the pull URLs read, kept in ``http_cache`` like a listing page's."""
        i = schema.items
        now = utcnow()
        with self.engine.begin() as conn:
            for found, asked_at in details:
                read_at = max(asked_at, found.updated_at) if found.updated_at is not None else asked_at
                conn.execute(
                    i.update()
                    .where(i.c.repo == repo, i.c.number == found.number)
                    .values(additions=found.additions, deletions=found.deletions, changed_files=found.changed_files,
                            review_comments=found.review_comments, details_updated_at=read_at, details_due=None)
                )
            for number, asked_at in settled:
                conn.execute(
                    i.update()
                    .where(i.c.repo == repo, i.c.number == number)
                    .values(details_updated_at=asked_at, details_due=None)
                )
            upsert(
                conn,
                schema.http_cache,
                [dict(url=url, etag=etag, next_url=None, stored_at=now) for url, etag in etags],
                ("url",),
            )

    def cached_page(self, url: str) -> tuple[str, str | None] | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(schema.http_cache.c.etag, schema.http_cache.c.next_url).where(
                    schema.http_cache.c.url == url
                )
            ).first()
        return (row.etag, row.next_url) if row else None

    def stale_classified(self, repo: str, topics_key: str, kinds_key: str, limit: int) -> list[ItemRecord]:
        """Up to ``limit`` items (most recently updated first) whose stored topic matches were computed with
        another taxonomy than ``topics_key``, or their kinds and text facts with other rules than ``kinds_key``
        (the raw body with them: the text facts read the environment dump and the traceback)."""
        i = schema.items.c
        stale = or_(i.topics_key != topics_key, i.kinds_key.is_(None), i.kinds_key != kinds_key)
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(schema.items)
                .where(i.repo == repo, stale)
                .order_by(i.updated_at.desc())
                .limit(limit)
            )
            return [_item_from_row(row) for row in rows]

    def save_topics(self, items: Sequence[ItemRecord]) -> None:
        """Store re-computed topic matches (and their taxonomy's fingerprint), kinds and text facts only."""
        if not items:
            return
        i = schema.items
        with self.engine.begin() as conn:
            for item in items:
                row = item_row(item)
                conn.execute(
                    i.update()
                    .where(i.c.repo == item.repo, i.c.number == item.number)
                    .values(topics=row["topics"], topics_key=item.topics_key, bug_kind=item.bug_kind,
                            change_kind=item.change_kind, change_value=item.change_value, kinds_key=item.kinds_key,
                            text_facts=row["text_facts"])
                )

    # --- reads (builders) ---

    def counts(self, repo: str) -> tuple[int, int]:
        with self.engine.connect() as conn:
            n_items = conn.execute(select(func.count()).where(schema.items.c.repo == repo)).scalar_one()
            n_comments = conn.execute(select(func.count()).where(schema.comments.c.repo == repo)).scalar_one()
        return n_items, n_comments

    def synced_repos(self) -> list[str]:
        """Repositories a sync has run for (the worker follows them)."""
        with self.engine.connect() as conn:
            return list(conn.execute(select(schema.sync_state.c.repo).distinct()).scalars())

    def repos(self) -> list[str]:
        """The repositories holding items, in order: a skip scan of the primary key's index (a recursive CTE,
        one seek per repository, on SQLite and PostgreSQL alike), never a pass over every item."""
        with self.engine.connect() as conn:
            return list(conn.execute(_REPOS_SKIP_SCAN).scalars())

    def has_items(self, repo: str) -> bool:
        """Whether the store holds any item of ``repo``: one seek of the primary key's index."""
        i = schema.items.c
        with self.engine.connect() as conn:
            return conn.execute(select(i.number).where(i.repo == repo).limit(1)).first() is not None

    def removed_item(self, repo: str, number: int) -> RemovedItem | None:
        """Whether GitHub said the issue is gone from ``repo`` (deleted, transferred), and how."""
        r = schema.removed_items.c
        with self.engine.connect() as conn:
            row = conn.execute(select(schema.removed_items).where(r.repo == repo, r.number == number)).first()
        return None if row is None else RemovedItem(row.repo, row.number, row.reason, row.moved_to, row.removed_at)

    def item(self, repo: str, number: int) -> ItemRecord | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(schema.items).where(schema.items.c.repo == repo, schema.items.c.number == number)
            ).first()
        return _item_from_row(row) if row else None

    def window_activity(self, repo: str, start: datetime, end: datetime, *, kinds_key: str = "") -> WindowActivity:
        """Items opened, closed, merged or commented in ``[start, end)``, their human comments there and who wrote
        them (``Discussion``: who took part, who spoke last, the first maintainer to reply), in three queries
        whatever the number of items. The raw body (up to 20 KB an item) comes only with an item whose text
        facts are not stored under ``kinds_key`` (all of them without it): those are worked out from it."""
        i, c = schema.items, schema.comments
        columns: list[Any] = list(i.c)
        if kinds_key:
            stored = and_(i.c.kinds_key == kinds_key, i.c.text_facts.is_not(None))
            columns[list(i.c.keys()).index("body")] = case((stored, literal("")), else_=i.c.body).label("body")

        def within(column: Any) -> Any:
            return and_(column >= start, column < end)

        with self.engine.connect() as conn:
            # One pass over the window's comments, one row per (item, commenter); bot comments make an item
            # active, not hot.
            rows = conn.execute(
                select(
                    c.c.number, c.c.author, c.c.author_is_bot, c.c.author_association, func.count(),
                    func.coalesce(func.sum(c.c.reactions), 0), func.max(c.c.created_at),
                    func.sum(case((c.c.confirms, 1), else_=0)), func.min(c.c.created_at),
                )
                .where(c.c.repo == repo, within(c.c.created_at))
                .group_by(c.c.number, c.c.author, c.c.author_is_bot, c.c.author_association)
            ).all()
            touched = {row[0] for row in rows}
            # Three index range scans: SQLite would answer one OR of the three with a full table scan.
            numbers = union(*(
                select(i.c.number).where(i.c.repo == repo, within(column))
                for column in (i.c.created_at, i.c.closed_at, i.c.merged_at)
            ))
            touched.update(conn.execute(numbers).scalars())
            items: dict[int, ItemRecord] = {}
            wanted = sorted(touched)
            for chunk_start in range(0, len(wanted), 500):
                chunk = wanted[chunk_start : chunk_start + 500]
                result = conn.execute(select(*columns).where(i.c.repo == repo, i.c.number.in_(chunk)))
                plan = _record_plan(tuple(result.keys()))
                for row in result:
                    items[row.number] = _item_from_row(row, plan)
        counts, reactions, discussions = _discussions(rows, items)
        return WindowActivity(
            items=items, comments_in_window=counts, comment_reactions_in_window=reactions, discussions=discussions
        )

    def search_window(self, repo: str, start: datetime, end: datetime, only: ItemFilter) -> WindowActivity:
        """What a search of ``[start, end)`` reads: the items opened, closed, merged or commented in it that
        ``only`` keeps, with the columns a search and its answer use (``SEARCH_FIELDS``: no raw body, no PR
        details; the prose only where ``only`` says it can matter), and per item read its human comments there
        and their reactions (no ``Discussion``: an answer does not rank by heat). One query, and no row of an
        item the filters leave out comes back to Python."""
        i, c = schema.items, schema.comments
        columns: list[Any] = [i.c[name] for name in SEARCH_FIELDS]
        if only.prose_fragments is not None:
            columns[SEARCH_FIELDS.index("prose")] = _prose_when(only.prose_fragments, only.topics_key)

        def within(column: Any) -> Any:
            return and_(column >= start, column < end)

        # Four index range scans: SQLite would answer one OR of them with a scan of every item of the repository.
        touched = union(
            *(select(i.c.number).where(i.c.repo == repo, within(column))
              for column in (i.c.created_at, i.c.closed_at, i.c.merged_at)),
            select(c.c.number).where(c.c.repo == repo, within(c.c.created_at)),
        ).subquery()
        # Each item's human comments in the window, counted by the database for the items read only.
        human = and_(c.c.repo == i.c.repo, c.c.number == i.c.number, within(c.c.created_at),
                     c.c.author_is_bot == false())
        counts = (select(func.count()).where(human).scalar_subquery().label("comments_in_window"),
                  select(func.coalesce(func.sum(c.c.reactions), 0)).where(human).scalar_subquery()
                  .label("comment_reactions"))
        correlated = self.engine.dialect.name == "postgresql"
        mentions = [_mentions(repo, topic, fragments, only.topics_key, within(c.c.created_at), correlated=correlated)
                    for topic, fragments in only.mentions]
        with self.engine.connect() as conn:
            if conn.dialect.name == "postgresql":
                # The planner's estimate for a month's window crosses jit_above_cost: compiling the plan took
                # three times as long as running it (bench_cli). For this transaction only.
                conn.execute(sqlalchemy.text("SET LOCAL jit = off"))
            result = conn.execute(select(*columns, *counts).where(
                i.c.repo == repo, i.c.number.in_(select(touched.c.number)), *_filter_clauses(only), *mentions))
            plan = _record_plan(tuple(result.keys()))
            items: dict[int, ItemRecord] = {}
            comments: dict[int, int] = {}
            reactions: dict[int, int] = {}
            for row in result:
                items[row.number] = _item_from_row(row, plan)
                if row.comments_in_window:
                    comments[row.number] = row.comments_in_window
                    reactions[row.number] = int(row.comment_reactions)
        return WindowActivity(items=items, comments_in_window=comments, comment_reactions_in_window=reactions)

    def comments_containing(self, repo: str, start: datetime, end: datetime, fragments: Sequence[str],
                            numbers: Sequence[int] | None = None) -> dict[int, str]:
        """The human comments created in ``[start, end)`` whose body contains any of ``fragments`` (lower-case,
        compared case-insensitively; LIKE's wildcards are escaped), joined per item number: a query word's
        weakest evidence, read only for the words an item's own text lacks (``bot.topics.search``). ``numbers``:
        of these items only (looked up by number, not a pass over the window's comments; past
        ``COMMENT_LOOKUPS`` of them, the pass is the cheaper read)."""
        if not fragments or (numbers is not None and not numbers):
            return {}
        c = schema.comments
        body = func.lower(c.c.body)
        where = [c.c.repo == repo, c.c.created_at >= start, c.c.created_at < end, c.c.author_is_bot == false(),
                 or_(*(body.contains(fragment.lower(), autoescape=True) for fragment in fragments))]
        if numbers is not None and len(numbers) <= COMMENT_LOOKUPS:
            where.append(c.c.number.in_(sorted(numbers)))
        with self.engine.connect() as conn:
            rows = conn.execute(select(c.c.number, c.c.body).where(*where).order_by(c.c.number, c.c.created_at)).all()
        found: dict[int, list[str]] = {}
        for number, text in rows:
            found.setdefault(number, []).append(text)
        return {number: "\n".join(texts) for number, texts in found.items()}

    def daily_counts(self, repo: str, starts: Sequence[datetime], end: datetime) -> list[int]:
        """Items opened in each of the consecutive windows ``[starts[k], starts[k+1])``, the last ending at ``end``."""
        bounds = [*starts, end]
        created = schema.items.c.created_at
        if not starts:
            return []
        # Counted by the database: a week of a busy repository is thousands of rows to convert otherwise.
        bucket = case(*((created < bound, k) for k, bound in enumerate(bounds[1:])), else_=len(starts))
        counts = [0] * len(starts)
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(bucket, func.count())
                .where(schema.items.c.repo == repo, created >= bounds[0], created < end)
                .group_by(bucket)
            ).all()
        for k, n in rows:
            if 0 <= k < len(counts):
                counts[k] = n
        return counts

    def event_days(self, repo: str, bounds: Sequence[datetime]) -> list[tuple[int, int, int]]:
        """Per window ``[bounds[k], bounds[k+1])``: items opened, items closed without a merge, PRs merged.
        Three index range scans bucketed and counted by the database (a CASE on the bounds), whatever the
        number of days: no row comes back to Python (the report page's activity chart)."""
        i = schema.items.c
        start, end = bounds[0], bounds[-1]
        counts = [[0, 0, 0] for _ in bounds[:-1]]
        with self.engine.connect() as conn:
            for column_index, (column, extra) in enumerate(
                ((i.created_at, true()), (i.closed_at, i.merged_at.is_(None)), (i.merged_at, true()))
            ):
                bucket = case(*((column < bound, k) for k, bound in enumerate(bounds[1:])), else_=-1)
                rows = conn.execute(
                    select(bucket, func.count())
                    .where(i.repo == repo, column >= start, column < end, extra)
                    .group_by(bucket)
                )
                for k, n in rows:
                    if 0 <= k < len(counts):
                        counts[k][column_index] = n
        return [(a, b, c) for a, b, c in counts]

    def merge_durations(self, repo: str, start: datetime, end: datetime) -> list[timedelta]:
        """How long each PR merged in ``[start, end)`` was open (bots' included, like the merge figures)."""
        i = schema.items.c
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(i.created_at, i.merged_at).where(i.repo == repo, i.merged_at >= start, i.merged_at < end)
            ).all()
        return [row.merged_at - row.created_at for row in rows]


def _prose_when(fragments: Sequence[str], topics_key: str) -> Any:
    """The prose column, as "" where it contains none of ``fragments`` and the stored topics are current: the
    rows a search can tell apart without it never carry it out of the database."""
    i = schema.items.c
    prose = func.lower(i.prose)
    needed = or_(i.topics.is_(None), i.topics_key != topics_key,
                 *(prose.contains(fragment.lower(), autoescape=True) for fragment in fragments))
    return case((needed, i.prose), else_=literal("")).label("prose")


def _mentions(repo: str, topic: str, fragments: Sequence[str], topics_key: str, in_window: Any, *,
              correlated: bool) -> Any:
    """An item one query word could match (``ItemFilter.mentions``): a fragment in its title, labels (their JSON
    text: ASCII fragments only), prose or a human comment in the window; or its topic among the stored ones."""
    i, c = schema.items.c, schema.comments.c

    def any_of(column: Any) -> Any:
        text = func.lower(column)
        return or_(*(text.contains(fragment, autoescape=True) for fragment in fragments))

    # Cheapest first, and the stored topic before the texts: the database stops at the first that holds, and
    # most items a topic word finds are in its topic.
    options = []
    if topic:
        options += [i.topics.is_(None), i.topics_key != topics_key,
                    cast(i.topics, String).contains(f'"{topic}"', autoescape=True)]
    options += [any_of(i.title), any_of(cast(i.labels, String)), any_of(i.prose)]
    said = and_(in_window, c.author_is_bot == false(), any_of(c.body))
    if correlated:
        # PostgreSQL: an uncorrelated IN here makes the planner expect half the items to pass and scan them all
        # (bench_cli: 3.4x -> 4.1x); with EXISTS it looks up the window's items by number and filters those.
        options.append(exists().where(c.repo == i.repo, c.number == i.number, said))
    else:
        # SQLite: the window's comments that say it, found once instead of looked up per item (~8% faster).
        options.append(i.number.in_(select(c.number).where(c.repo == repo, said)))
    return or_(*options)


def _filter_clauses(only: ItemFilter) -> list[Any]:
    """``only`` as WHERE clauses on ``items``: each keeps exactly the rows its field asks for."""
    i = schema.items.c
    clauses: list[Any] = []
    if only.kinds:
        clauses.append(i.kind.in_(sorted(only.kinds)))
    if only.states:
        states = [i.merged_at.is_not(None) if state == "merged" else i.state == state for state in sorted(only.states)]
        clauses.append(or_(*states))
    if only.authors:
        clauses.append(func.lower(i.author).in_(sorted(only.authors)))
    if only.excluded_authors:
        clauses.append(func.lower(i.author).not_in(sorted(only.excluded_authors)))
    if only.humans:
        clauses.append(i.author_is_bot == false())
    return clauses


def _discussions(
    rows: Sequence[Any], items: dict[int, ItemRecord]
) -> tuple[dict[int, int], dict[int, int], dict[int, Discussion]]:
    """Human comments, their reactions and ``Discussion`` per item, from one row per (item, commenter)."""
    counts: dict[int, int] = {}
    reactions: dict[int, int] = {}
    people: dict[int, set[str]] = {}
    maintainer: set[int] = set()
    # max(created_at) and min(created_at) of a group are only compared, never shown: SQLite hands back its stored
    # text (which sorts like the time), PostgreSQL a datetime; either way one kind per store, so no parsing.
    last: dict[int, tuple[Any, str, str]] = {}
    first_maintainer: dict[int, tuple[Any, str]] = {}
    confirmations: dict[int, int] = {}
    for number, author, is_bot, association, n, total, latest, confirming, earliest in rows:
        if is_bot:
            continue
        counts[number] = counts.get(number, 0) + n
        reactions[number] = reactions.get(number, 0) + int(total)
        people.setdefault(number, set()).add(author)
        association = association or ""
        item = items.get(number)
        if association in MAINTAINER_ASSOCIATIONS:
            maintainer.add(number)
            if (item is None or author != item.author) and (
                number not in first_maintainer or (earliest, author) < first_maintainer[number]
            ):
                first_maintainer[number] = (earliest, author)
        if number not in last or (latest, author) > last[number][:2]:
            last[number] = (latest, author, association)
        if confirming and (item is None or author != item.author):  # the author's "+1" confirms nothing
            confirmations[number] = confirmations.get(number, 0) + int(confirming)
    discussions = {
        number: Discussion(
            people=frozenset(names),
            maintainer=number in maintainer,
            last_author=last[number][1],
            last_association=last[number][2],
            confirmations=confirmations.get(number, 0),
            first_maintainer=first_maintainer[number][1] if number in first_maintainer else "",
        )
        for number, names in people.items()
    }
    return counts, reactions, discussions

