"""GitHub webhook deliveries in the store: recorded raw before they are applied, applied once, retried until
they are (``bot/github/webhooks.py`` reads GitHub's payloads; this module only keeps rows)."""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from bot.redact import redact
from bot.store import schema
from bot.store.db import upsert
from bot.store.records import DETAIL_FIELDS, CommentRecord, ItemRecord, PullDetails, RemovedItem
from bot.store.store import Store, drop_removed, item_row, remove_items
from bot.timeutil import utcnow

PENDING, APPLIED, IGNORED, FAILED = "pending", "applied", "ignored", "failed"
MAX_ATTEMPTS = 20  # a delivery failing this often is left for a person (``digest-bot status`` shows it), not retried


@dataclass(frozen=True, slots=True)
class WebhookDelivery:
    delivery_id: str
    event: str
    action: str
    repo: str | None
    received_at: datetime
    body: str
    status: str
    attempts: int = 0
    last_error: str | None = None


@dataclass(frozen=True, slots=True)
class EventRecords:
    """What one event changes in the store. ``partial``: per item number, the fields its payload lacked (a pull
    request object carries no reactions; a review's one no comment count): the stored values stay."""

    items: Sequence[ItemRecord] = ()
    comments: Sequence[CommentRecord] = ()
    deleted_comments: Sequence[tuple[str, int]] = ()  # (repo, comment id)
    details: Sequence[tuple[str, PullDetails, datetime]] = ()  # (repo, details, the PR's updated_at)
    partial: Mapping[tuple[str, int], Collection[str]] = dataclasses.field(default_factory=dict)
    # PRs whose details (size, review comments) the event cannot have changed (an issue comment): details that
    # were current stay current at the new ``updated_at``, so the reconciling poll does not fetch them again.
    details_unchanged: Sequence[tuple[str, int]] = ()
    # Issues gone from a repository (``issues`` ``deleted`` / ``transferred``): marked, and forgotten.
    removed: Sequence[RemovedItem] = ()


class WebhookLog:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    def item(self, repo: str, number: int) -> ItemRecord | None:
        return self.store.item(repo, number)

    def record(self, delivery_id: str, event: str, action: str, repo: str | None, body: str,
               received_at: datetime | None = None) -> WebhookDelivery | None:
        """Store a delivery before applying it. None when it is new; the stored row when GitHub sent this
        delivery before (a redelivery, or the same one twice): the caller applies it again only if it is not
        applied yet."""
        received_at = received_at or utcnow()
        row = dict(delivery_id=delivery_id, event=event[:40], action=action[:40], repo=repo,
                   received_at=received_at, body=body, status=PENDING, attempts=0)
        try:
            with self.engine.begin() as conn:
                conn.execute(schema.webhook_deliveries.insert().values(**row))
            return None
        except IntegrityError:
            found = self.get(delivery_id)
            if found is None:  # deleted (pruned) between the two statements: nothing to apply twice
                return WebhookDelivery(delivery_id, event, action, repo, received_at, body, APPLIED)
            return found

    def get(self, delivery_id: str) -> WebhookDelivery | None:
        w = schema.webhook_deliveries.c
        with self.engine.connect() as conn:
            row = conn.execute(select(schema.webhook_deliveries).where(w.delivery_id == delivery_id)).first()
        return _delivery(row) if row else None

    def apply(self, delivery_id: str, records: EventRecords) -> None:
        """The event's records and the delivery marked applied, in one transaction: a crash leaves both or
        neither. Items older than the stored ones (a late or out-of-order delivery) change nothing, and neither
        do items and comments of issues marked removed (deleted, transferred)."""
        i = schema.items.c
        now = utcnow()
        with self.engine.begin() as conn:
            rows = [item_row(item) for item in records.items]
            for row in rows:
                missing = records.partial.get((row["repo"], row["number"]))
                if not missing:
                    continue
                stored = conn.execute(
                    select(*(i[name] for name in missing)).where(i.repo == row["repo"], i.number == row["number"])
                ).first()
                if stored is not None:
                    row.update(stored._mapping)
            current: dict[tuple[str, int], datetime] = {}
            for repo, number in records.details_unchanged:
                stored = conn.execute(select(i.updated_at, i.details_updated_at).where(
                    i.repo == repo, i.number == number)).first()
                if stored is not None and stored.details_updated_at is not None \
                        and stored.details_updated_at >= stored.updated_at:
                    current[(repo, number)] = stored.details_updated_at
            upsert(conn, schema.items, rows, ("repo", "number"), keep=DETAIL_FIELDS,
                   insert_only={"first_seen_at": now}, newer_only="updated_at")
            upsert(conn, schema.comments,
                   [{name: getattr(c, name) for name in _COMMENT_FIELDS} for c in records.comments],
                   ("repo", "id"), newer_only="updated_at")
            for (repo, number), read_at in current.items():
                conn.execute(update(schema.items)
                             .where(i.repo == repo, i.number == number, i.updated_at > read_at)
                             .values(details_updated_at=i.updated_at))
            c = schema.comments.c
            for repo, comment_id in records.deleted_comments:
                conn.execute(delete(schema.comments).where(c.repo == repo, c.id == comment_id))
            for repo, found, updated_at in records.details:
                conn.execute(
                    update(schema.items)
                    .where(i.repo == repo, i.number == found.number,
                           or_(i.details_updated_at.is_(None), i.details_updated_at <= updated_at))
                    .values(additions=found.additions, deletions=found.deletions, changed_files=found.changed_files,
                            review_comments=found.review_comments, details_updated_at=updated_at, details_due=None)
                )
            written = {(row["repo"], row["number"]) for row in rows}
            # The same issue in and out at once would be a contradiction: what the event stores wins.
            remove_items(conn, [gone for gone in records.removed if (gone.repo, gone.number) not in written], now)
            drop_removed(conn, written | {(comment.repo, comment.number) for comment in records.comments})
            self._settle(conn, delivery_id, APPLIED, None, now)

    def settle(self, delivery_id: str, status: str, error: str | None = None) -> None:
        """``ignored`` (nothing to apply: an event or repository we do not follow) or ``failed`` (retried)."""
        with self.engine.begin() as conn:
            self._settle(conn, delivery_id, status, error, utcnow())

    def _settle(self, conn: Connection, delivery_id: str, status: str, error: str | None, now: datetime) -> None:
        w = schema.webhook_deliveries
        conn.execute(
            update(w).where(w.c.delivery_id == delivery_id).values(
                status=status, attempts=w.c.attempts + 1, last_error=redact(error)[:2000] if error else None,
                applied_at=now if status in (APPLIED, IGNORED) else None,
            )
        )

    def due(self, *, received_before: datetime, limit: int = 500) -> list[WebhookDelivery]:
        """Deliveries not applied yet (failed, or pending since before ``received_before``: the web process that
        took them died, or is still at it), oldest first."""
        w = schema.webhook_deliveries.c
        query = (select(schema.webhook_deliveries)
                 .where(w.status.in_((PENDING, FAILED)), w.received_at < received_before, w.attempts < MAX_ATTEMPTS)
                 .order_by(w.received_at).limit(limit))
        with self.engine.connect() as conn:
            return [_delivery(row) for row in conn.execute(query)]

    def live_repos(self, since: datetime) -> set[str]:
        """Repositories a webhook delivery was received for since ``since``: their polling can slow down."""
        w = schema.webhook_deliveries.c
        with self.engine.connect() as conn:
            return set(conn.execute(
                select(w.repo).where(w.received_at >= since, w.repo.is_not(None)).distinct()
            ).scalars())

    def counts(self) -> dict[str, int]:
        w = schema.webhook_deliveries.c
        with self.engine.connect() as conn:
            return {status: n for status, n in conn.execute(select(w.status, func.count()).group_by(w.status))}

    def prune(self, before: datetime) -> int:
        """Applied and ignored deliveries older than ``before`` (unapplied ones are kept until applied)."""
        w = schema.webhook_deliveries.c
        with self.engine.begin() as conn:
            result = conn.execute(delete(schema.webhook_deliveries).where(
                w.status.in_((APPLIED, IGNORED)), w.received_at < before))
        return int(result.rowcount or 0)


_COMMENT_FIELDS = list(CommentRecord.__struct_fields__)


def _delivery(row: object) -> WebhookDelivery:
    m = row._mapping  # type: ignore[attr-defined]
    return WebhookDelivery(m["delivery_id"], m["event"], m["action"] or "", m["repo"], m["received_at"], m["body"],
                           m["status"], m["attempts"] or 0, m["last_error"])
