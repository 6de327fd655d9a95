"""Where the PostgreSQL tests run: one env var, ``DIGEST_BOT_TEST_PG``, an SQLAlchemy URL.

Unset, it is the local server (``postgresql+psycopg://postgres@127.0.0.1:5432/test``); empty or ``off``, the
PostgreSQL cases skip on purpose. When the server cannot be reached they skip too, and the reason names the URL
(password hidden) and the env var, so ``pytest -rs`` tells a newcomer what to set.
"""

from __future__ import annotations

import functools
import logging
import os
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy import create_engine, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from bot.settings import normalise_database_url

_log = logging.getLogger(__name__)

ENV = "DIGEST_BOT_TEST_PG"
DEFAULT_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
OFF = ("", "off")
_HOW = f"set {ENV} to an SQLAlchemy URL of a database the tests may create schemas in ({ENV}=off skips them)"


@dataclass(frozen=True)
class PgTarget:
    """The URL the PostgreSQL tests use, or why they skip (exactly one of the two is set)."""

    url: URL | None
    skip: str | None


def shown(url: URL) -> str:
    return url.render_as_string(hide_password=True)


def target(environ: Mapping[str, str], probe: Callable[[URL], None]) -> PgTarget:
    """Read ``DIGEST_BOT_TEST_PG`` and try the server once with ``probe`` (raises when it cannot connect)."""
    raw = environ.get(ENV)
    if raw is not None and raw.strip().lower() in OFF:
        return PgTarget(None, f"PostgreSQL tests off: {ENV}={raw.strip()!r}")
    try:
        url = make_url(normalise_database_url((raw or DEFAULT_URL).strip()))
    except ArgumentError:
        return PgTarget(None, f"PostgreSQL tests skipped: {ENV} is not an SQLAlchemy URL; {_HOW}")
    if url.get_backend_name() != "postgresql":
        return PgTarget(None, f"PostgreSQL tests skipped: {ENV}={shown(url)} is not a PostgreSQL URL; {_HOW}")
    try:
        probe(url)
    except ImportError as err:
        return PgTarget(None, f"PostgreSQL tests skipped: no driver for {url.drivername} ({err.name or err}): "
                              "pip install -e '.[test]'")
    except Exception as err:
        return PgTarget(None, f"PostgreSQL tests skipped: no PostgreSQL at {shown(url)} ({type(err).__name__}); "
                              f"start one or {_HOW}")
    return PgTarget(url, None)


def connect_probe(url: URL) -> None:
    """One connection, given up after 2 s: an absent server must not stall collection."""
    engine = create_engine(url, connect_args={"connect_timeout": 2})
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    finally:
        engine.dispose()


@functools.cache
def this_run() -> PgTarget:
    """Asked on the first PostgreSQL test of a process (each xdist worker asks once), never at import."""
    found = target(os.environ, connect_probe)
    if found.skip:
        _log.info("%s", found.skip)
    return found


@contextmanager
def fresh_schema(url: URL) -> Iterator[str]:
    """A schema of its own for one test, dropped after it; the URL that sees only it is yielded.

    The name carries the xdist worker (``gw0``…) for whoever looks at a leftover; the random part keeps two
    workers, or two runs on one server, apart.
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    schema = f"t_{worker}_{uuid.uuid4().hex[:12]}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        scoped = url.update_query_dict({"options": f"-csearch_path={schema}"})
        try:
            yield scoped.render_as_string(hide_password=False)
        finally:
            with admin.connect() as conn:
                conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    finally:
        admin.dispose()
