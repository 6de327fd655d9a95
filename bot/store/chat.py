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
    team_id: str | None = None  # its workspace (Slack team, Discord guild); None: single-workspace mode


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
    team_id: str | None = None  # the workspace it was made in: its token sends the DMs


# Why a workspace's deliveries stopped: the app was removed from it (Slack ``app_uninstalled`` /
# ``tokens_revoked``, Discord ``on_guild_remove``). A new install of the same workspace resumes exactly these.
WORKSPACE_GONE = "workspace_removed"


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
            "team_id": saved.team_id,
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

    # --- workspaces (many Slack teams, many Discord guilds) ---

    def team_of(self, platform: str, target: str, *, dm: bool) -> str | None:
        """The workspace a channel (or a user's DMs) belongs to: its stored settings (or, for a user or channel
        with live alerts only, the alerts'), else (a channel nobody configured, where someone ran ``/digest
        post``) the workspace recorded with that post's request."""
        a = schema.alerts.c
        alerts = (select(a.team_id).where(a.platform == platform, a.target == target, a.dm.is_(dm),
                                          a.team_id.is_not(None)).order_by(a.id.desc()).limit(1))
        if dm:
            c = schema.subscriptions.c
            stmt = (select(c.team_id).where(c.platform == platform, c.user_id == target, c.team_id.is_not(None))
                    .order_by(c.id.desc()).limit(1))
            with self.engine.connect() as conn:
                return conn.execute(stmt).scalar() or conn.execute(alerts).scalar()
        c = schema.channels.c
        d = schema.deliveries.c
        with self.engine.connect() as conn:
            team = conn.execute(select(c.team_id).where(c.platform == platform, c.channel_id == target)).scalar()
            if team is None:
                team = conn.execute(alerts).scalar()
            if team is not None:
                return str(team)
            rows = conn.execute(select(d.request).where(d.platform == platform, d.target == target,
                                                        d.kind.like("post:%")).order_by(d.id.desc()).limit(5))
            for (request,) in rows:
                if isinstance(request, dict) and isinstance(request.get("team"), str):
                    return str(request["team"])
        return None

    def pause_workspace(self, platform: str, team_id: str, reason: str = WORKSPACE_GONE, *,
                        subscriptions: bool = True) -> tuple[int, int]:
        """Stop every delivery of a workspace the app was removed from: its channels are marked (the scheduler
        skips marked channels) and its subscriptions paused, without a notice (nobody there can read it).
        Returns (channels, subscriptions) paused."""
        ch, sub = schema.channels.c, schema.subscriptions.c
        with self.engine.begin() as conn:
            channels = conn.execute(
                update(schema.channels).where(ch.platform == platform, ch.team_id == team_id, ch.status.is_(None))
                .values(status=reason, enabled=False, updated_at=utcnow())).rowcount or 0
            paused = 0
            if subscriptions:
                paused = conn.execute(
                    update(schema.subscriptions).where(sub.platform == platform, sub.team_id == team_id,
                                                       sub.paused.is_(None))
                    .values(paused=reason, notice_pending=False)).rowcount or 0
        return channels, paused

    def resume_workspace(self, platform: str, team_id: str, reason: str = WORKSPACE_GONE) -> tuple[int, int]:
        """Undo ``pause_workspace`` (the workspace installed the app again): only what it paused, not channels
        marked for their own reasons (deleted, bot removed from the channel)."""
        ch, sub = schema.channels.c, schema.subscriptions.c
        with self.engine.begin() as conn:
            channels = conn.execute(
                update(schema.channels).where(ch.platform == platform, ch.team_id == team_id, ch.status == reason)
                .values(status=None, enabled=True, updated_at=utcnow())).rowcount or 0
            subscriptions = conn.execute(
                update(schema.subscriptions).where(sub.platform == platform, sub.team_id == team_id,
                                                   sub.paused == reason)
                .values(paused=None, notice_pending=False)).rowcount or 0
        return channels, subscriptions

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
        locale: str, team_id: str | None = None,
    ) -> tuple[Subscription, bool]:
        """Add or update (same query) a subscription; returns it and whether it is new. ``team_id``: the
        workspace it is made in (None keeps the one stored, if any)."""
        c = schema.subscriptions.c
        values: dict[str, Any] = dict(repo=repo, post_time=post_time, timezone=timezone, locale=locale, paused=None,
                                      notice_pending=False)
        if team_id is not None:
            values["team_id"] = team_id
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
