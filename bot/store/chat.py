"""Chat-side state: per-channel settings and users' daily-DM subscriptions."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from bot.store import schema
from bot.store.db import upsert
from bot.store.store import Store
from bot.timeutil import utcnow

MAX_SUBSCRIPTIONS_PER_USER = 20


@dataclass(frozen=True)
class ChannelSettings:
    platform: str
    channel_id: str
    repo: str | None = None
    post_time: str | None = None
    timezone: str | None = None
    locale: str | None = None
    topics: tuple[str, ...] | None = None
    enabled: bool = True
    status: str | None = None
    updated_at: datetime | None = None
    updated_by: str | None = None
    thread: str | None = None  # short | full; None: short


@dataclass(frozen=True)
class Subscription:
    id: int
    platform: str
    user_id: str
    query: str
    repo: str | None
    post_time: str
    timezone: str
    locale: str
    paused: str | None = None
    notice_pending: bool = False
    created_at: datetime | None = None


# How often a process drops request keys older than a day: not on every claim, where a burst of 40 commands
# would scan the table 40 times.
PRUNE_EVERY = timedelta(minutes=1)


class ChatState:
    def __init__(self, store: Store) -> None:
        self.engine = store.engine
        self._pruned: datetime | None = None

    # --- channels ---

    def channel(self, platform: str, channel_id: str) -> ChannelSettings | None:
        c = schema.channels.c
        with self.engine.connect() as conn:
            row = conn.execute(
                select(schema.channels).where(c.platform == platform, c.channel_id == channel_id)
            ).first()
        return _channel(row) if row else None

    def channels(self, platform: str | None = None) -> list[ChannelSettings]:
        stmt = select(schema.channels).order_by(schema.channels.c.platform, schema.channels.c.channel_id)
        if platform:
            stmt = stmt.where(schema.channels.c.platform == platform)
        with self.engine.connect() as conn:
            return [_channel(row) for row in conn.execute(stmt)]

    def save_channel(self, settings: ChannelSettings, *, by: str | None = None) -> ChannelSettings:
        saved = replace(settings, updated_at=utcnow(), updated_by=by or settings.updated_by)
        row = {
            "platform": saved.platform,
            "channel_id": saved.channel_id,
            "repo": saved.repo,
            "post_time": saved.post_time,
            "timezone": saved.timezone,
            "locale": saved.locale,
            "topics": list(saved.topics) if saved.topics is not None else None,
            "enabled": saved.enabled,
            "status": saved.status,
            "updated_at": saved.updated_at,
            "updated_by": saved.updated_by,
            "thread": saved.thread,
        }
        with self.engine.begin() as conn:
            upsert(conn, schema.channels, [row], ("platform", "channel_id"))
        return saved

    def mark_channel(self, platform: str, channel_id: str, status: str | None) -> None:
        """Record why delivery to a channel stopped (or clear it); the scheduler skips marked channels."""
        c = schema.channels.c
        with self.engine.begin() as conn:
            conn.execute(
                update(schema.channels)
                .where(c.platform == platform, c.channel_id == channel_id)
                .values(status=status, enabled=status is None, updated_at=utcnow())
            )

    # --- idempotency ---

    def claim_request(self, key: str) -> bool:
        """True the first time ``key`` is seen (by any process sharing the store), False for a retry."""
        now = utcnow()
        table = schema.handled_requests
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(table).values(key=key[:200], created_at=now))
                if self._pruned is None or now - self._pruned >= PRUNE_EVERY:
                    # Platforms retry within minutes; a day of keys is plenty.
                    conn.execute(delete(table).where(table.c.created_at < now - timedelta(days=1)))
                    self._pruned = now
        except IntegrityError:
            return False
        return True

    # --- subscriptions ---

    def subscriptions(self, platform: str, user_id: str | None = None) -> list[Subscription]:
        c = schema.subscriptions.c
        stmt = select(schema.subscriptions).where(c.platform == platform).order_by(c.id)
        if user_id is not None:
            stmt = stmt.where(c.user_id == user_id)
        with self.engine.connect() as conn:
            return [_subscription(row) for row in conn.execute(stmt)]

    def all_subscriptions(self) -> list[Subscription]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(schema.subscriptions).order_by(schema.subscriptions.c.id))
            return [_subscription(row) for row in rows]

    def subscribe(
        self, platform: str, user_id: str, query: str, *, repo: str | None, post_time: str, timezone: str,
        locale: str,
    ) -> tuple[Subscription, bool]:
        """Add or update (same query) a subscription; returns it and whether it is new."""
        c = schema.subscriptions.c
        values = dict(repo=repo, post_time=post_time, timezone=timezone, locale=locale, paused=None,
                      notice_pending=False)
        with self.engine.begin() as conn:
            existing = conn.execute(
                select(c.id).where(c.platform == platform, c.user_id == user_id, c.query == query)
            ).scalar()
            if existing is not None:
                conn.execute(update(schema.subscriptions).where(c.id == existing).values(**values))
                created = False
            else:
                try:
                    with conn.begin_nested():
                        conn.execute(insert(schema.subscriptions).values(
                            platform=platform, user_id=user_id, query=query, created_at=utcnow(), **values))
                except IntegrityError:  # a concurrent request added the same one
                    pass
                created = True
            row = conn.execute(
                select(schema.subscriptions).where(c.platform == platform, c.user_id == user_id, c.query == query)
            ).one()
        return _subscription(row), created

    def unsubscribe(self, platform: str, user_id: str, query: str | None) -> int:
        """Remove one subscription (by query text, case-insensitive) or all (``query=None``)."""
        c = schema.subscriptions.c
        with self.engine.begin() as conn:
            ids = [
                row.id
                for row in conn.execute(select(c.id, c.query).where(c.platform == platform, c.user_id == user_id))
                if query is None or row.query.lower() == query.lower()
            ]
            if ids:
                conn.execute(delete(schema.subscriptions).where(c.id.in_(ids)))
        return len(ids)

    def pause_subscriptions(self, platform: str, user_id: str, reason: str) -> int:
        """Stop a user's DMs (e.g. DMs closed) and remember to tell them once when they next use the bot."""
        c = schema.subscriptions.c
        with self.engine.begin() as conn:
            result = conn.execute(
                update(schema.subscriptions)
                .where(c.platform == platform, c.user_id == user_id, c.paused.is_(None))
                .values(paused=reason, notice_pending=True)
            )
        return result.rowcount or 0

    def take_pause_notice(self, platform: str, user_id: str) -> str | None:
        """The reason DMs were paused, once: later calls return None until the next pause."""
        c = schema.subscriptions.c
        with self.engine.begin() as conn:
            reason = conn.execute(
                select(c.paused).where(c.platform == platform, c.user_id == user_id, c.notice_pending.is_(True))
            ).scalar()
            if reason is not None:
                conn.execute(
                    update(schema.subscriptions)
                    .where(c.platform == platform, c.user_id == user_id)
                    .values(notice_pending=False)
                )
        return reason


def _channel(row: Any) -> ChannelSettings:
    values = {name: getattr(row, name) for name in ChannelSettings.__dataclass_fields__}
    if values["topics"] is not None:
        values["topics"] = tuple(values["topics"])
    return ChannelSettings(**values)


def _subscription(row: Any) -> Subscription:
    return Subscription(**{name: getattr(row, name) for name in Subscription.__dataclass_fields__})
