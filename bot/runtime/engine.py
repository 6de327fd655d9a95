"""The task engine: procrastinate on the store's PostgreSQL (docs/scaling.md).

``engine_unavailable`` says why a deployment runs in the single-process mode instead (SQLite, or procrastinate
not installed). ``build_app`` makes the ``procrastinate.App`` (tasks from ``bot/runtime/tasks.py``);
``ensure_schema`` applies procrastinate's schema once, under an advisory lock so two workers starting together do
not both try; ``engine_status`` is what ``digest-bot status`` shows of it. Advisory lock keys are derived from
a name, the database and the schema (``current_schema()``), so deployments (and tests) in other schemas of one
database never share a lock.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import make_url

from bot.settings import EngineSettings

if TYPE_CHECKING:
    import procrastinate
    import psycopg

_log = logging.getLogger(__name__)

ERRORS_TABLE = "digest_engine_errors"  # the last error of each task run that raised (procrastinate keeps none)
QUEUES = ("sync", "deliver", "background")


def conninfo_for(database_url: str) -> str | None:
    """The libpq URL of a PostgreSQL SQLAlchemy URL (its query, e.g. ``options=-csearch_path=…``, kept);
    None for any other database."""
    url = make_url(database_url)
    if url.get_backend_name() != "postgresql":
        return None
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def engine_unavailable(database_url: str) -> str | None:
    """None when the task engine can run on ``database_url``; else why not, in words for a person."""
    if conninfo_for(database_url) is None:
        return "the store is not PostgreSQL"
    if importlib.util.find_spec("procrastinate") is None:
        return "procrastinate is not installed (pip install 'digest-bot[engine]')"
    return None


def lock_key(conn: psycopg.Connection[Any], name: str) -> int:
    """A 64-bit advisory lock key for ``name`` in this database and schema."""
    row = conn.execute("SELECT current_database(), current_schema()").fetchone()
    assert row is not None
    return _key(name, str(row[0]), str(row[1]))


async def lock_key_async(conn: psycopg.AsyncConnection[Any], name: str) -> int:
    cursor = await conn.execute("SELECT current_database(), current_schema()")
    row = await cursor.fetchone()
    assert row is not None
    return _key(name, str(row[0]), str(row[1]))


def _key(name: str, database: str, schema: str) -> int:
    digest = hashlib.blake2b(f"digest-bot:{name}:{database}:{schema}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def ensure_schema(conninfo: str) -> bool:
    """Apply procrastinate's schema if it is absent (True when this call applied it). Idempotent; serialised
    across processes by an advisory lock held for the check and the apply."""
    import psycopg
    from procrastinate.schema import SchemaManager

    with psycopg.connect(conninfo, autocommit=True) as conn:
        key = lock_key(conn, "engine-schema")
        conn.execute("SELECT pg_advisory_lock(%s)", (key,))
        try:
            row = conn.execute("SELECT to_regclass('procrastinate_jobs')").fetchone()
            applied = row is None or row[0] is None
            if applied:
                conn.execute(SchemaManager.get_schema())  # one script, no parameters
                _log.warning("task engine: procrastinate's schema applied")
            conn.execute(f"CREATE TABLE IF NOT EXISTS {ERRORS_TABLE} (job_id bigint PRIMARY KEY, "
                         "task_name text NOT NULL, error text NOT NULL, at timestamptz NOT NULL DEFAULT now())")
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (key,))
    return applied


def build_app(conninfo: str, settings: EngineSettings) -> procrastinate.App:
    """The App on ``conninfo`` with every task registered (not opened: ``async with app.open_async()``)."""
    import procrastinate

    from bot.runtime.tasks import register

    # The engine's own queries (fetch, finish, heartbeat) are short: a few connections serve any concurrency.
    connector = procrastinate.PsycopgConnector(conninfo=conninfo, min_size=1, max_size=4)
    app = procrastinate.App(connector=connector)
    register(app, settings)
    return app


def engine_status(conninfo: str, *, stalled_seconds: float = 30, limit: int = 20) -> dict[str, Any]:
    """Workers (id, last heartbeat, stalled?), tasks waiting and running per queue, the oldest waiting task's
    age, and the tasks that failed for good (name, args, attempts, last error)."""
    import psycopg
    from psycopg.rows import dict_row

    now = datetime.now(UTC)
    with psycopg.connect(conninfo, autocommit=True, row_factory=dict_row) as conn:
        if conn.execute("SELECT to_regclass('procrastinate_jobs') AS t").fetchone() in (None, {"t": None}):
            return {"mode": "engine", "workers": [], "queues": {}, "oldest_pending_seconds": None, "failed": [],
                    "failed_count": 0, "note": "no worker has started yet (the engine's schema is not applied)"}
        workers = [
            {"id": row["id"], "last_heartbeat": row["last_heartbeat"].astimezone(UTC).isoformat(),
             "stalled": (now - row["last_heartbeat"]).total_seconds() > stalled_seconds}
            for row in conn.execute("SELECT id, last_heartbeat FROM procrastinate_workers ORDER BY id")
        ]
        queues = {
            row["queue_name"]: {"waiting": row["waiting"], "running": row["running"], "failed": row["failed"]}
            for row in conn.execute(
                "SELECT queue_name, count(*) FILTER (WHERE status = 'todo') AS waiting, "
                "count(*) FILTER (WHERE status = 'doing') AS running, "
                "count(*) FILTER (WHERE status = 'failed') AS failed "
                "FROM procrastinate_jobs GROUP BY queue_name ORDER BY queue_name")
        }
        oldest = conn.execute(
            "SELECT min(e.at) AS at FROM procrastinate_jobs j JOIN procrastinate_events e "
            "ON e.job_id = j.id AND e.type = 'deferred' "
            "WHERE j.status = 'todo' AND (j.scheduled_at IS NULL OR j.scheduled_at <= now())").fetchone()
        failed_count = conn.execute("SELECT count(*) AS n FROM procrastinate_jobs WHERE status = 'failed'").fetchone()
        failed = [
            {"id": row["id"], "task": row["task_name"], "args": row["args"], "attempts": row["attempts"],
             "error": row["error"]}
            for row in conn.execute(
                f"SELECT j.id, j.task_name, j.args, j.attempts, e.error FROM procrastinate_jobs j "
                f"LEFT JOIN {ERRORS_TABLE} e ON e.job_id = j.id WHERE j.status = 'failed' "
                "ORDER BY j.id DESC LIMIT %s", (limit,))
        ]
    at = oldest["at"] if oldest else None
    return {
        "mode": "engine",
        "workers": workers,
        "queues": queues,
        "oldest_pending_seconds": round((now - at).total_seconds(), 1) if at is not None else None,
        "failed": failed,
        "failed_count": failed_count["n"] if failed_count else 0,
    }
