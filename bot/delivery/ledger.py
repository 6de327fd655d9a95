"""The delivery ledger: each scheduled post or DM happens once, whoever (process, retry, restart) runs it.

One row per ``(platform, target, repo, kind, window_start)`` in ``deliveries`` (unique). Life of a row:

    claim()  ->  claimed  --record_part() per accepted message-->  complete() -> sent
                          \\-> skip()  -> skipped  (permanent: channel gone, DMs closed, nothing to say)
                          \\-> fail()  -> failed   (transient; claimable again once ``lease_until`` passed)

* ``claim`` inserts the row; whoever finds it already there gets ``None`` and does nothing, unless the row is
  ``claimed`` with an expired lease (its claimer died) or ``failed`` and due for a retry: then one conditional
  UPDATE takes it over (exactly one of several racing claimers wins on SQLite and PostgreSQL alike).
* ``attempts`` counts claims and is the fencing token: every later write names (claimed_by, attempts) and
  fails with ``LeaseLost`` once someone else took the row over, so a stalled claimer stops after at most the
  message it had in flight.
* ``record_part`` stores a message id right after the platform accepted it (and extends the lease); a
  takeover gets ``Claim.message_ids`` and resumes after them. The only repeat a crash can cause is the one
  message accepted by the platform but not yet recorded (docs/delivery.md).

All methods are synchronous (SQLAlchemy Core); async callers use ``asyncio.to_thread``.
"""

from __future__ import annotations

import hashlib
import logging
import os
import secrets
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, and_, delete, func, insert, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from bot.redact import redact
from bot.store import schema
from bot.store.store import Store
from bot.timeutil import utcnow

_log = logging.getLogger(__name__)

CLAIMED, SENT, FAILED, SKIPPED = "claimed", "sent", "failed", "skipped"
FINAL = (SENT, SKIPPED)
# What ``outlook`` says about a key: nothing more to do, someone is on it / retry later, or work is due now.
DONE, WAIT, DUE = "done", "wait", "due"
_KEY_COLUMNS = ("platform", "target", "repo", "kind", "window_start")
_ERROR_CHARS = 2000


class LeaseLost(Exception):
    """The row was taken over by another claimer (our lease had expired): stop, write nothing more."""


@dataclass(frozen=True)
class DeliveryKey:
    platform: str  # slack | discord
    target: str  # channel id or user id
    repo: str
    kind: str  # "channel" | "dm:<query key>"
    window_start: datetime

    def short(self) -> tuple[str, str, str, str]:
        """The key without the window: what ``outlook`` maps for one window."""
        return (self.platform, self.target, self.repo, self.kind)

    def token(self) -> str:
        """A short stable id of this delivery, the same in every process: what marks its messages on the
        platform (Slack metadata, Discord nonces) so a part can be recognised after an ambiguous failure."""
        start = _aware(self.window_start).astimezone(UTC).isoformat()
        raw = "|".join((self.platform, self.target, self.repo, self.kind, start))
        return hashlib.sha1(raw.encode("utf-8")).hexdigest()[:20]

    def __str__(self) -> str:
        return f"{self.platform}:{self.target} {self.kind} {self.repo} @{self.window_start:%Y-%m-%dT%H:%MZ}"


@dataclass
class Claim:
    """A won claim. ``message_ids`` are the parts already accepted (by this or an earlier claimer)."""

    key: DeliveryKey
    owner: str
    attempt: int  # the fencing token
    message_ids: list[str] = field(default_factory=list)
    takeover: bool = False  # the row existed: an expired lease or a due retry was taken over

    @property
    def parts_sent(self) -> int:
        return len(self.message_ids)


@dataclass(frozen=True)
class Delivery:
    """A ledger row, as read back (status pages, tests)."""

    key: DeliveryKey
    window_end: datetime
    status: str
    claimed_by: str
    claimed_at: datetime
    lease_until: datetime | None
    attempts: int
    parts_sent: int
    message_ids: tuple[str, ...]
    last_error: str | None
    completed_at: datetime | None
    request: dict[str, Any] | None = None  # post:* rows: what the answer was built from (PostRequest.to_json)


def default_owner() -> str:
    """``pid@host/instance``: the process and host for people, plus a random part so two ledgers differ."""
    return f"{os.getpid()}@{socket.gethostname()}/{secrets.token_hex(3)}"


class Ledger:
    def __init__(
        self,
        store: Store,
        *,
        owner: str | None = None,
        lease: timedelta = timedelta(minutes=2),
        max_attempts: int = 8,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        if lease <= timedelta(0):
            raise ValueError("the lease must be positive")
        self.engine = store.engine
        self.owner = owner or default_owner()
        self.lease = lease
        self.max_attempts = max_attempts
        self.clock = clock

    # --- claiming ---

    def claim(self, key: DeliveryKey, window_end: datetime, *, request: dict[str, Any] | None = None) -> Claim | None:
        """Win the right to deliver ``key``, or ``None``: it is done, in someone's hands, or not yet retryable.
        ``request`` is stored with a new row only: a takeover resumes what the first claimer started."""
        now = self.clock()
        t = schema.deliveries
        row = {
            "platform": key.platform, "target": key.target, "repo": key.repo, "kind": key.kind,
            "window_start": key.window_start, "window_end": window_end, "status": CLAIMED,
            "claimed_by": self.owner, "claimed_at": now, "lease_until": now + self.lease, "attempts": 1,
            "parts_sent": 0, "message_ids": [], "last_error": None, "completed_at": None,
        }
        if request is not None:  # left out, not None: the JSON type would store a JSON null, not SQL NULL
            row["request"] = request
        with self.engine.begin() as conn:
            if _insert_if_absent(conn, row):
                return Claim(key, self.owner, 1)
        # The row exists. Take it over only if its claimer's lease expired or its retry is due: one
        # conditional UPDATE, so of several racing claimers exactly one matches (the others see its new lease).
        with self.engine.begin() as conn:
            result = conn.execute(
                update(t)
                .where(
                    _key_clause(key),
                    t.c.status.in_((CLAIMED, FAILED)),
                    or_(t.c.lease_until.is_(None), t.c.lease_until <= now),
                    t.c.attempts < self.max_attempts,
                )
                .values(status=CLAIMED, claimed_by=self.owner, claimed_at=now, lease_until=now + self.lease,
                        attempts=t.c.attempts + 1, window_end=window_end)
            )
            if result.rowcount != 1:
                return None
            taken = conn.execute(select(t.c.attempts, t.c.message_ids, t.c.claimed_by).where(_key_clause(key))).one()
        ids = [str(value) for value in (taken.message_ids or [])]
        _log.info("took over %s (attempt %d, %d part(s) already sent)", key, taken.attempts, len(ids))
        return Claim(key, self.owner, taken.attempts, ids, takeover=True)

    def record_part(self, claim: Claim, message_id: str) -> None:
        """Remember one accepted message (call right after the platform accepted it); extends the lease."""
        ids = [*claim.message_ids, str(message_id)]
        t = schema.deliveries
        self._write(
            claim,
            {"message_ids": ids, "parts_sent": len(ids), "lease_until": self.clock() + self.lease},
            t.c.parts_sent == claim.parts_sent,
        )
        claim.message_ids = ids

    def renew(self, claim: Claim) -> None:
        """Extend the lease while working on something long (a sync, a build, a backoff)."""
        self._write(claim, {"lease_until": self.clock() + self.lease})

    def complete(self, claim: Claim) -> None:
        self._write(claim, {"status": SENT, "lease_until": None, "completed_at": self.clock(), "last_error": None})

    def skip(self, claim: Claim, reason: str) -> None:
        """A permanent outcome without (more) messages: target gone, nothing to say, …"""
        self._write(claim, {"status": SKIPPED, "lease_until": None, "completed_at": self.clock(),
                            "last_error": redact(reason)[:_ERROR_CHARS]})

    def fail(self, claim: Claim, error: str, *, retry_in: timedelta = timedelta(0)) -> None:
        """A transient failure: anyone may claim the row again ``retry_in`` from now (up to ``max_attempts``)."""
        self._write(claim, {"status": FAILED, "lease_until": self.clock() + retry_in,
                            "last_error": redact(error)[:_ERROR_CHARS]})

    def _write(self, claim: Claim, values: dict[str, Any], *extra: Any) -> None:
        t = schema.deliveries
        with self.engine.begin() as conn:
            result = conn.execute(
                update(t)
                .where(_key_clause(claim.key), t.c.status == CLAIMED, t.c.claimed_by == claim.owner,
                       t.c.attempts == claim.attempt, *extra)
                .values(**values)
            )
        if result.rowcount != 1:
            raise LeaseLost(f"{claim.key}: claimed by someone else since (attempt {claim.attempt} was ours)")

    # --- reading ---

    def get(self, key: DeliveryKey) -> Delivery | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(schema.deliveries).where(_key_clause(key))).first()
        return _delivery(row) if row else None

    def outlook(self, window_start: datetime, *, kind: str | None = None, kind_prefix: str | None = None,
                platforms: Iterable[str] | None = None) -> dict[tuple[str, str, str, str], str]:
        """For one window: ``DONE`` (final, or gave up), ``WAIT`` (live lease, retry not due) or ``DUE`` per
        existing row, keyed by ``DeliveryKey.short()``. A key without a row is due too (not in the map)."""
        t = schema.deliveries
        stmt = select(t.c.platform, t.c.target, t.c.repo, t.c.kind, t.c.status, t.c.lease_until, t.c.attempts).where(
            t.c.window_start == window_start)
        if kind is not None:
            stmt = stmt.where(t.c.kind == kind)
        if kind_prefix is not None:
            stmt = stmt.where(t.c.kind.startswith(kind_prefix, autoescape=True))
        if platforms is not None:
            stmt = stmt.where(t.c.platform.in_(list(platforms)))
        now = self.clock()
        with self.engine.connect() as conn:
            return {(r.platform, r.target, r.repo, r.kind): self._state(r.status, r.lease_until, r.attempts, now)
                    for r in conn.execute(stmt)}

    def state(self, key: DeliveryKey) -> str:
        row = self.get(key)
        return DUE if row is None else self._state(row.status, row.lease_until, row.attempts, self.clock())

    def _state(self, status: str, lease_until: datetime | None, attempts: int, now: datetime) -> str:
        if status in FINAL or attempts >= self.max_attempts:
            return DONE
        if lease_until is not None and lease_until > now:
            return WAIT
        return DUE

    def pending(self) -> list[Delivery]:
        """Rows not finished: claimed (in flight, or orphaned once the lease passed) and failed (retry later)."""
        t = schema.deliveries
        with self.engine.connect() as conn:
            rows = conn.execute(select(t).where(t.c.status.in_((CLAIMED, FAILED))).order_by(t.c.claimed_at))
            return [_delivery(row) for row in rows]

    def resumable_posts(self, since: datetime, *, platforms: Iterable[str] | None = None) -> list[Delivery]:
        """``post:*`` rows with a stored request that someone may claim now (failed and due, or claimed with an
        expired lease), last claimed at or after ``since``. Whether they are still wanted is the caller's call."""
        t = schema.deliveries
        now = self.clock()
        stmt = select(t).where(
            t.c.kind.startswith("post:", autoescape=True), t.c.status.in_((CLAIMED, FAILED)),
            or_(t.c.lease_until.is_(None), t.c.lease_until <= now), t.c.attempts < self.max_attempts,
            t.c.claimed_at >= since,
        ).order_by(t.c.claimed_at)
        if platforms is not None:
            stmt = stmt.where(t.c.platform.in_(list(platforms)))
        with self.engine.connect() as conn:
            rows = [_delivery(row) for row in conn.execute(stmt)]
        return [row for row in rows if row.request is not None]

    def latest(self, platform: str, target: str, repo: str, kind: str) -> Delivery | None:
        """The row of the latest window of one (platform, target, repo, kind): a live alert's last batch."""
        t = schema.deliveries
        stmt = (select(t).where(t.c.platform == platform, t.c.target == target, t.c.repo == repo, t.c.kind == kind)
                .order_by(t.c.window_start.desc()).limit(1))
        with self.engine.connect() as conn:
            row = conn.execute(stmt).first()
        return _delivery(row) if row else None

    def last_sent(self, kind: str = "channel") -> dict[tuple[str, str], datetime]:
        """When each target last got a ``kind`` delivery, by (platform, target)."""
        t = schema.deliveries
        stmt = (select(t.c.platform, t.c.target, func.max(t.c.completed_at).label("at"))
                .where(t.c.kind == kind, t.c.status == SENT)
                .group_by(t.c.platform, t.c.target))
        with self.engine.connect() as conn:
            return {(row.platform, row.target): _aware(row.at) for row in conn.execute(stmt) if row.at is not None}

    def prune(self, before: datetime) -> int:
        """Forget rows of windows that started before ``before`` (they are never replayed anyway)."""
        t = schema.deliveries
        with self.engine.begin() as conn:
            result = conn.execute(delete(t).where(t.c.window_start < before, t.c.status.in_(FINAL)))
        return result.rowcount or 0


def _key_clause(key: DeliveryKey) -> Any:
    c = schema.deliveries.c
    return and_(c.platform == key.platform, c.target == key.target, c.repo == key.repo, c.kind == key.kind,
                c.window_start == key.window_start)


def _insert_if_absent(conn: Connection, row: dict[str, Any]) -> bool:
    """Insert unless the key exists; True when this call inserted it."""
    t = schema.deliveries
    dialect = conn.dialect.name
    if dialect in ("sqlite", "postgresql"):
        module = sqlite if dialect == "sqlite" else postgresql
        stmt = (module.insert(t).values(**row).on_conflict_do_nothing(index_elements=list(_KEY_COLUMNS))
                .returning(t.c.id))  # rowcount is not reliable here (PostgreSQL reports -1): ask for the id
        return conn.execute(stmt).first() is not None
    try:
        with conn.begin_nested():
            conn.execute(insert(t).values(**row))
    except IntegrityError:
        return False
    return True


def _aware(value: datetime) -> datetime:
    # Defensive: max() keeps the column type (aware), but a driver may hand back a naive value.
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _delivery(row: Any) -> Delivery:
    return Delivery(
        key=DeliveryKey(row.platform, row.target, row.repo, row.kind, row.window_start),
        window_end=row.window_end, status=row.status, claimed_by=row.claimed_by, claimed_at=row.claimed_at,
        lease_until=row.lease_until, attempts=row.attempts, parts_sent=row.parts_sent,
        message_ids=tuple(str(v) for v in (row.message_ids or ())), last_error=row.last_error,
        completed_at=row.completed_at, request=row.request if isinstance(row.request, dict) else None,
    )
