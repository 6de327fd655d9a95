"""One holder cluster-wide: a PostgreSQL session advisory lock on a connection of its own (the planner, the
Discord gateway). The lock lives as long as the session: a process killed with -9 frees it when PostgreSQL sees
its connection close, and the next standby's try takes it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from typing import TYPE_CHECKING, Any

from bot.runtime.engine import lock_key_async

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
