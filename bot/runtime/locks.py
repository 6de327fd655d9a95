"""One holder cluster-wide: a PostgreSQL session advisory lock on a connection of its own (the planner, the
Discord gateway). The lock lives as long as the session: a process killed with -9 frees it when PostgreSQL sees
its connection close, and the next standby's try takes it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from bot.runtime.engine import lock_key_async
from bot.timeutil import utcnow

if TYPE_CHECKING:
    import psycopg

_log = logging.getLogger(__name__)


async def wait_or_stop(stop: asyncio.Event, seconds: float) -> bool:
    """Wait ``seconds`` or until ``stop`` is set; True when stopped."""
    with suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)
    return stop.is_set()


@asynccontextmanager
async def advisory_lock(conninfo: str, name: str, *, retry_seconds: float,
                        stop: asyncio.Event) -> AsyncIterator[psycopg.AsyncConnection[Any] | None]:
    """Wait until the lock ``name`` is ours and yield the connection holding it (None: stopped first)."""
    import psycopg

    said = False
    while True:
        conn = await psycopg.AsyncConnection.connect(conninfo, autocommit=True)
        try:
            key = await lock_key_async(conn, name)
            cursor = await conn.execute("SELECT pg_try_advisory_lock(%s)", (key,))
            row = await cursor.fetchone()
            if row is not None and row[0]:
                break
        except BaseException:
            await conn.close()
            raise
        await conn.close()
        if not said:
            _log.info("%s: another process holds it; trying every %.0fs", name, retry_seconds)
            said = True
        if await wait_or_stop(stop, retry_seconds):
            yield None
            return
    try:
        yield conn
    finally:
        await conn.close()  # ends the session: the lock is released with it


async def while_holding(conninfo: str, name: str, hold: Callable[[psycopg.AsyncConnection[Any]], Awaitable[None]], *,
                        retry_seconds: float, stop: asyncio.Event) -> None:
    """Run ``hold`` whenever this process holds the lock ``name``, standing by while another does, until ``stop``.
    A failure (the database went away: the lock freed with it; a gateway that died) is logged and tried again
    after ``retry_seconds``."""
    while not stop.is_set():
        try:
            async with advisory_lock(conninfo, name, retry_seconds=retry_seconds, stop=stop) as conn:
                if conn is None:
                    return
                await hold(conn)
        except Exception as err:
            _log.warning("%s: %s; trying again in %.0fs", name, err, retry_seconds)
            await wait_or_stop(stop, retry_seconds)


class ClusterSync:
    """A repository's sync, one at a time cluster-wide (a blocking advisory lock per repository, on a connection
    of its own), and none when a poll completed while this one waited or less than ``fresh`` before: a slot of
    DMs, 200 channels' deliveries on four workers and the periodic ``sync_repo`` all asking for the same
    repository in the same minute cost GitHub one listing. Wraps the process's syncer (``DeliveryJobs.sync``)."""

    def __init__(self, conninfo: str, sync: Callable[[str], Awaitable[object]],
                 last_polled: Callable[[str], datetime | None], *, fresh: timedelta = timedelta(seconds=30)) -> None:
        self.conninfo = conninfo
        self.sync = sync
        self.last_polled = last_polled  # blocking (the store): called in a thread
        self.fresh = fresh
        self.skipped = 0

    async def __call__(self, repo: str, *, asked: datetime | None = None) -> object:
        import psycopg

        asked = asked or utcnow()
        before = await asyncio.to_thread(self.last_polled, repo)
        async with await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True) as conn:
            key = await lock_key_async(conn, f"sync:{repo}")
            await conn.execute("SELECT pg_advisory_lock(%s)", (key,))  # released when the session ends
            polled = await asyncio.to_thread(self.last_polled, repo)
            # A poll completed while we waited (its mark moved), or just before we were asked (``fresh``: a
            # delivery's "sync first" and the periodic sync of the same minute): it is the one we wanted.
            if polled is not None and (polled != before or polled >= asked - self.fresh):
                self.skipped += 1
                _log.info("%s was polled at %s, after this sync was asked for: not asking GitHub again", repo,
                          polled.isoformat())
                return None
            return await self.sync(repo)
