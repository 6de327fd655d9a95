"""Planning with the engine: APScheduler still computes what is due (``DigestScheduler``, each channel's cron in
its zone), and ``EngineRunner`` turns each due job into a deferred task whose arguments carry the window, so two
planners (or a repeat) produce the same queueing lock and the same ledger key.

Exactly one planner plans cluster-wide: ``plan`` holds a PostgreSQL session advisory lock on a connection of
its own while it plans; a standby tries again every ``planner_retry_seconds``; a planner killed with -9 loses
its session, the lock frees, and a standby takes over at its next try. The planner's tick also re-queues
stalled tasks: ``doing`` jobs of workers whose heartbeat is older than ``stalled_seconds`` (procrastinate's
``get_stalled_jobs`` / ``retry_job``), so a killed worker's task runs again elsewhere.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from bot.digest.window import default_window
from bot.runtime.locks import wait_or_stop, while_holding
from bot.runtime.tasks import defer, iso
from bot.settings import EngineSettings

if TYPE_CHECKING:
    import procrastinate
    import psycopg

_log = logging.getLogger(__name__)

PLANNER_LOCK = "planner"


class EngineRunner:
    """``DigestScheduler``'s runner in engine mode: defers, never runs."""

    def __init__(self, app: procrastinate.App) -> None:
        self.app = app
        self.deferred = 0  # tasks deferred (coalesced ones not counted)

    async def run(self, kind: str, args: tuple[str, ...], schedule: tuple[Any, ...], now: datetime) -> object:
        job_id = await self._defer(kind, args, schedule, now)
        if job_id is not None:
            self.deferred += 1
        return job_id

    async def _defer(self, kind: str, args: tuple[str, ...], schedule: tuple[Any, ...], now: datetime) -> int | None:
        app, at = self.app, iso(now)
        if kind == "sync":
            (repo,) = args
            return await defer(app, "sync_repo", queue="sync", lock=f"sync:{repo}", queueing_lock=f"sync:{repo}",
                               repo=repo, at=at)
        if kind == "channel":
            platform, channel_id = args
            post_time, timezone = schedule
            start = iso(default_window(now, ZoneInfo(timezone), post_time).start)
            return await defer(app, "deliver_channel", queue="deliver", lock=f"channel:{platform}:{channel_id}",
                               queueing_lock=f"channel:{platform}:{channel_id}:{start}", platform=platform,
                               channel_id=channel_id, window_start=start, at=at)
        if kind == "dm":
            post_time, timezone = args
            start = iso(default_window(now, ZoneInfo(timezone), post_time).start)
            return await defer(app, "deliver_slot", queue="deliver", lock=f"dm:{post_time}:{timezone}",
                               queueing_lock=f"dm:{post_time}:{timezone}:{start}", post_time=post_time,
                               timezone=timezone, window_start=start, at=at)
        names = {"alerts": ("alert_batch", "background"), "webhooks": ("apply_webhooks", "background"),
                 "resume": ("resume_posts", "deliver")}
        if kind in names:
            task, queue = names[kind]
            return await defer(app, task, queue=queue, lock=task, queueing_lock=task)
        raise ValueError(f"unknown job kind {kind!r}")


async def retry_stalled(app: procrastinate.App, stalled_seconds: float) -> int:
    """Put the tasks of workers silent for ``stalled_seconds`` back in the queue, then forget those workers."""
    manager = app.job_manager
    jobs = list(await manager.get_stalled_jobs(seconds_since_heartbeat=stalled_seconds))
    for job in jobs:
        _log.warning("task %s[%s] was running on a worker that stopped answering: running it again",
                     job.task_name, job.id)
        await manager.retry_job(job)
    await manager.prune_stalled_workers(stalled_seconds)
    return len(jobs)


async def plan(conninfo: str, app: procrastinate.App, settings: EngineSettings,
               scheduler: Callable[[], AbstractAsyncContextManager[object]], stop: asyncio.Event) -> None:
    """Plan while this process holds the planner lock; stand by (retrying) while another does; until ``stop``."""
    async def hold(conn: psycopg.AsyncConnection[Any]) -> None:
        _log.warning("planning: this process holds the planner lock")
        async with scheduler():
            while not stop.is_set():
                await retry_stalled(app, settings.stalled_seconds)
                await conn.execute("SELECT 1")  # the session holding the lock is alive
                await wait_or_stop(stop, settings.tick_seconds)

    await while_holding(conninfo, PLANNER_LOCK, hold, retry_seconds=settings.planner_retry_seconds, stop=stop)
