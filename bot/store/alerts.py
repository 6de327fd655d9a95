"""Live alerts in the store: who wants to hear of which new issues and PRs (``alerts``), and what arrived when
(``items.first_seen_at``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, delete, func, select, update

from bot.store import schema
from bot.store.store import Store
from bot.timeutil import utcnow


@dataclass(frozen=True, slots=True)
class Alert:
    id: int
    platform: str
    target: str  # user id (dm) | channel id
    dm: bool
    query: str
    repo: str | None
    locale: str
    timezone: str
    created_at: datetime
    paused: str | None = None  # why DMs to the user stopped (the platform refused them); None: active
    team_id: str | None = None  # the workspace it was made in; None: single-workspace mode (or made before)
    notice_pending: bool = False  # paused, and the user not told yet (they are, once, at their next command)


@dataclass(frozen=True, slots=True)
class Arrival:
    number: int
    first_seen_at: datetime
    created_at: datetime


class AlertState:
    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    def add(self, platform: str, target: str, *, dm: bool, query: str, repo: str | None, locale: str,
            timezone: str, by: str | None = None, team_id: str | None = None) -> tuple[Alert, bool]:
        """The alert, and whether it is new (the same query again keeps its start, updates its repo/locale, and
        resumes it if it was paused). ``team_id``: the workspace it is made in (None keeps the one stored)."""
        a = schema.alerts.c
        mine = and_(a.platform == platform, a.target == target, a.dm == dm, func.lower(a.query) == query.lower())
        workspace = {"team_id": team_id} if team_id is not None else {}
        with self.engine.begin() as conn:
            existing = conn.execute(select(a.id).where(mine)).scalar()
            if existing is not None:
                conn.execute(schema.alerts.update().where(a.id == existing).values(
                    repo=repo, locale=locale, timezone=timezone, paused=None, notice_pending=False, **workspace))
            else:
                conn.execute(schema.alerts.insert().values(platform=platform, target=target, dm=dm, query=query,
                                                           repo=repo, locale=locale, timezone=timezone,
                                                           created_by=by, created_at=utcnow(),
                                                           notice_pending=False, **workspace))
            row = conn.execute(select(schema.alerts).where(mine)).one()
        return _alert(row), existing is None

    def remove(self, platform: str, target: str, *, dm: bool, query: str | None) -> int:
        """One alert (by query, any case) or, with None, all of the target's."""
        a = schema.alerts.c
        where = and_(a.platform == platform, a.target == target, a.dm == dm)
        if query is not None:
            where = and_(where, func.lower(a.query) == query.lower())
        with self.engine.begin() as conn:
            return int(conn.execute(delete(schema.alerts).where(where)).rowcount or 0)

    def of(self, platform: str, target: str, *, dm: bool) -> list[Alert]:
        a = schema.alerts.c
        with self.engine.connect() as conn:
            rows = conn.execute(select(schema.alerts).where(a.platform == platform, a.target == target, a.dm == dm)
                                .order_by(a.id)).all()
        return [_alert(row) for row in rows]

    def all(self) -> list[Alert]:
        with self.engine.connect() as conn:
            return [_alert(row) for row in conn.execute(select(schema.alerts).order_by(schema.alerts.c.id))]

    def active(self) -> list[Alert]:
        """The alerts the worker looks at: all but the DM alerts paused because the user cannot be messaged."""
        a = schema.alerts.c
        with self.engine.connect() as conn:
            rows = conn.execute(select(schema.alerts).where(a.paused.is_(None)).order_by(a.id))
            return [_alert(row) for row in rows]

    def paused(self) -> list[Alert]:
        a = schema.alerts.c
        with self.engine.connect() as conn:
            rows = conn.execute(select(schema.alerts).where(a.paused.is_not(None)).order_by(a.id))
            return [_alert(row) for row in rows]

    def pause(self, platform: str, user_id: str, reason: str, *, notice: bool = True) -> int:
        """Stop a user's DM alerts (the platform refused to message them) and, with ``notice``, remember to tell
        them once when they next use the bot. Returns how many were paused (0 when already paused)."""
        a = schema.alerts.c
        with self.engine.begin() as conn:
            return int(conn.execute(
                update(schema.alerts)
                .where(a.platform == platform, a.target == user_id, a.dm.is_(True), a.paused.is_(None))
                .values(paused=reason, notice_pending=notice)).rowcount or 0)

    def pause_team(self, platform: str, team_id: str, reason: str) -> int:
        """The app was removed from a workspace: its DM alerts stop (nobody there can read a notice)."""
        a = schema.alerts.c
        with self.engine.begin() as conn:
            return int(conn.execute(
                update(schema.alerts)
                .where(a.platform == platform, a.team_id == team_id, a.dm.is_(True), a.paused.is_(None))
                .values(paused=reason, notice_pending=False)).rowcount or 0)

    def resume_team(self, platform: str, team_id: str, reason: str) -> int:
        """Undo ``pause_team`` (the workspace installed the app again): only what it paused."""
        a = schema.alerts.c
        with self.engine.begin() as conn:
            return int(conn.execute(
                update(schema.alerts)
                .where(a.platform == platform, a.team_id == team_id, a.paused == reason)
                .values(paused=None, notice_pending=False)).rowcount or 0)

    def take_pause_notice(self, platform: str, user_id: str) -> str | None:
        """Why the user's DM alerts were paused, once: later calls return None until the next pause."""
        a = schema.alerts.c
        mine = and_(a.platform == platform, a.target == user_id, a.dm.is_(True))
        with self.engine.begin() as conn:
            reason = conn.execute(select(a.paused).where(mine, a.notice_pending.is_(True))).scalar()
            if reason is not None:
                conn.execute(update(schema.alerts).where(mine).values(notice_pending=False))
        return reason

    def arrivals(self, repo: str, start: datetime, end: datetime, *, newer_than: timedelta) -> list[Arrival]:
        """Items of ``repo`` the store first held in ``[start, end)`` that were new then: created at most
        ``newer_than`` before they arrived (a first sync's month of history, a transferred old issue, are not
        news). Fixed once ``end`` has passed, so a batch rebuilt after a crash is the same batch."""
        i = schema.items.c
        query = select(i.number, i.first_seen_at, i.created_at).where(
            i.repo == repo, i.first_seen_at >= start, i.first_seen_at < end)
        with self.engine.connect() as conn:
            rows = conn.execute(query.order_by(i.first_seen_at, i.number)).all()
        return [Arrival(row.number, row.first_seen_at, row.created_at) for row in rows
                if row.first_seen_at - row.created_at <= newer_than]


def _alert(row: object) -> Alert:
    m = row._mapping  # type: ignore[attr-defined]
    return Alert(m["id"], m["platform"], m["target"], bool(m["dm"]), m["query"], m["repo"], m["locale"],
                 m["timezone"], m["created_at"], m["paused"], m["team_id"], bool(m["notice_pending"]))
