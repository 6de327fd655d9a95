"""Helpers of the task engine's tests: a fresh PostgreSQL schema per test, a config directory, channels due now."""

from __future__ import annotations

import os
import shutil
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TypeVar

from sqlalchemy import update

from bot.store import schema
from bot.store.chat import ChannelSettings, ChatState
from bot.store.store import Store

ROOT = Path(__file__).resolve().parents[1]
PG_BASE = os.environ.get("DIGEST_BOT_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
LIBPQ = "host=127.0.0.1 port=5432 user=postgres dbname=test"

# Fast timings: a killed worker is found in ~3 s instead of 30 (the same code paths, shorter waits).
FAST_ENGINE = """[engine]
heartbeat_seconds = 0.5
stalled_seconds = 3
planner_retry_seconds = 1
tick_seconds = 1
lease_seconds = 3
shutdown_seconds = 5
max_attempts = 2
retry_wait_seconds = 1
"""

T = TypeVar("T")


def postgres_skip_reason() -> str | None:
    try:
        import procrastinate  # noqa: F401
        import psycopg
    except ImportError as err:
        return f"needs the engine extra ({err.name})"
    try:
        with psycopg.connect(LIBPQ, connect_timeout=2):
            return None
    except Exception as err:
        return f"no PostgreSQL at 127.0.0.1:5432 ({type(err).__name__})"


@contextmanager
def pg_schema() -> Iterator[str]:
    """A SQLAlchemy URL on a schema of its own (dropped afterwards)."""
    import psycopg

    name = f"e_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(LIBPQ, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    try:
        yield f"{PG_BASE}?options=-csearch_path%3D{name}"
    finally:
        with psycopg.connect(LIBPQ, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {name} CASCADE")


def write_config(directory: Path, url: str, *, extra: str = FAST_ENGINE, repos: tuple[str, ...] = ("o/r",)) -> None:
    shutil.copy(ROOT / "config" / "topics.toml", directory)
    repo_lines = "".join(f'[[repos]]\nname = "{repo}"\n' for repo in repos)
    (directory / "digest.toml").write_text(f'[store]\nurl = "{url}"\n{extra}\n{repo_lines}')


def channels_due(url: str, ids: list[str], *, repo: str = "o/r", hours_ago: float = 1) -> None:
    """Channels whose post time passed ``hours_ago`` (within the grace: due now), configured days ago."""
    now = datetime.now(UTC)
    with Store.open(url) as store:
        chat = ChatState(store)
        for channel in ids:
            chat.save_channel(ChannelSettings("slack", channel, repo=repo, timezone="UTC",
                                              post_time=(now - timedelta(hours=hours_ago)).strftime("%H:%M")))
        with store.engine.begin() as conn:
            conn.execute(update(schema.channels).values(updated_at=now - timedelta(days=3)))


def until(condition: Callable[[], T | None], timeout: float, what: str, *, every: float = 0.1) -> T:
    """Poll ``condition`` until it returns something truthy (returned), or fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:.0f}s: {what}")
        time.sleep(every)
