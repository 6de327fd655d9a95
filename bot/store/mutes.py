"""Muted topics: "/digest mute rocm 7d" leaves a topic out of a channel's digests (scope ``channel``, target the
channel id) or out of a user's daily DMs (scope ``user``, target the user id), until ``until`` (None: until
unmuted). Expired rows have no effect; they are pruned when the same target mutes again."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ColumnElement, delete, or_, select

from bot.store import schema
from bot.store.db import upsert
from bot.store.store import Store
from bot.timeutil import utcnow

CHANNEL = "channel"
USER = "user"
SCOPES = (CHANNEL, USER)
_CHUNK = 500  # numbers per IN (…): well under SQLite's variable limit


class Mutes:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    def mute(
        self, platform: str, scope: str, target: str, topic: str, until: datetime | None, by: str | None = None,
        *, now: datetime | None = None,
    ) -> None:
        """Mute ``topic`` for the target until ``until`` (aware; None: for good). Muting again replaces it."""
        if scope not in SCOPES:
            raise ValueError(f"scope must be one of {SCOPES}, not {scope!r}")
        now = now or utcnow()
        c = schema.mutes.c
        row = {"platform": platform, "scope": scope, "target": target, "topic": topic, "until": until,
               "created_at": now, "created_by": by}
        with self.engine.begin() as conn:
            conn.execute(delete(schema.mutes).where(c.platform == platform, c.scope == scope, c.target == target,
                                                    c.until.is_not(None), c.until <= now))
            upsert(conn, schema.mutes, [row], ("platform", "scope", "target", "topic"))

    def unmute(self, platform: str, scope: str, target: str, topic: str | None, *,
               now: datetime | None = None) -> int:
        """Unmute one topic, or all (``topic=None``); returns how many active mutes were lifted."""
        now = now or utcnow()
        c = schema.mutes.c
        where = [c.platform == platform, c.scope == scope, c.target == target]
        if topic is not None:
            where.append(c.topic == topic)
        with self.engine.begin() as conn:
            active = conn.execute(delete(schema.mutes).where(*where, _active(now))).rowcount or 0
            conn.execute(delete(schema.mutes).where(*where))  # and any expired leftovers
        return active

    def active(self, platform: str, scope: str, target: str, now: datetime) -> dict[str, datetime | None]:
        """The target's mutes in force at ``now``: topic -> until (None: until unmuted), by topic."""
        c = schema.mutes.c
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(c.topic, c.until)
                .where(c.platform == platform, c.scope == scope, c.target == target, _active(now))
                .order_by(c.topic)
            )
            return {row.topic: row.until for row in rows}

    def active_all(self, scope: str, now: datetime) -> dict[tuple[str, str], dict[str, datetime | None]]:
        """Every target's mutes in force at ``now`` in one query: (platform, target) -> topic -> until."""
        c = schema.mutes.c
        found: dict[tuple[str, str], dict[str, datetime | None]] = {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(c.platform, c.target, c.topic, c.until).where(c.scope == scope, _active(now))
                .order_by(c.platform, c.target, c.topic)
            )
            for row in rows:
                found.setdefault((row.platform, row.target), {})[row.topic] = row.until
        return found


def _active(now: datetime) -> ColumnElement[bool]:
    """In force at ``now``: for good, or until a later time."""
    c = schema.mutes.c
    return or_(c.until.is_(None), c.until > now)
