"""One holder at a time across processes, for work that is correct twice but costly twice (an LLM analysis).

On PostgreSQL: a session advisory lock, named per schema, on a pooled connection held from ``acquire`` to
``release`` (a process killed meanwhile frees it with its connection). On SQLite one process writes the store
(docs/scaling.md), so there is nothing to share and the lock is always granted at once.

``acquire`` and ``release`` are separate blocking calls, so async code can hold the lock across awaits:
``await asyncio.to_thread(lock.acquire, 30)`` ... ``await asyncio.to_thread(lock.release)``.
"""

from __future__ import annotations

import logging

from sqlalchemy import Connection, text
from sqlalchemy.exc import DBAPIError

from bot.store.store import Store

_log = logging.getLogger(__name__)

_KEY = "hashtextextended('digest-bot:' || :name || ':' || current_schema(), 0)"


class ClusterLock:
    def __init__(self, store: Store, name: str) -> None:
        self.store = store
        self.name = name
        self._conn: Connection | None = None

    @property
    def shared(self) -> bool:
        """True when other processes can hold it too (PostgreSQL)."""
        return self.store.engine.dialect.name == "postgresql"

    def acquire(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds; False when another holder kept it that long (go on without it)."""
        if not self.shared:
            return True
        conn = self.store.engine.connect()
        try:
            # lock_timeout bounds the advisory lock's wait too; set for this transaction only.
            conn.execute(text(f"SET LOCAL lock_timeout = {max(1, int(timeout * 1000))}"))
            conn.execute(text(f"SELECT pg_advisory_lock({_KEY})"), {"name": self.name})
            conn.commit()  # the session lock outlives the transaction; lock_timeout goes back to its default
        except DBAPIError as err:
            conn.rollback()
            conn.close()
            if getattr(err.orig, "sqlstate", None) == "55P03":  # lock_not_available: the wait timed out
                _log.info("%s: still held elsewhere after %.0f s; going on without it", self.name, timeout)
                return False
            raise
        self._conn = conn
        return True

    def release(self) -> None:
        conn, self._conn = self._conn, None
        if conn is None:
            return
        try:
            conn.execute(text(f"SELECT pg_advisory_unlock({_KEY})"), {"name": self.name})
            conn.commit()
        finally:
            conn.close()
