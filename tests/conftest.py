"""Shared fixtures. No test reaches the internet: a guard fails any connection off the loopback."""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterator

import pytest

from bot.store.store import Store

_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex
_LOOPBACK = ("127.", "::1", "localhost")


def _check(address: object) -> None:
    host = address[0] if isinstance(address, tuple) else address
    if isinstance(host, str) and (host.startswith(_LOOPBACK) or host.startswith("/")):
        return
    if isinstance(address, (str, bytes)):  # unix sockets (PostgreSQL's local socket)
        return
    raise RuntimeError(f"test tried to reach the network at {address!r}: tests must use fakes on 127.0.0.1")


def _guarded_connect(self: socket.socket, address: object) -> None:
    _check(address)
    return _real_connect(self, address)


def _guarded_connect_ex(self: socket.socket, address: object) -> int:
    _check(address)
    return _real_connect_ex(self, address)


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket.socket, "connect", _guarded_connect)
    monkeypatch.setattr(socket.socket, "connect_ex", _guarded_connect_ex)


PG_URL = os.environ.get("DIGEST_BOT_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def _postgres_available() -> str | None:
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed"
    try:
        with psycopg.connect("host=127.0.0.1 port=5432 user=postgres dbname=test", connect_timeout=2):
            return None
    except Exception as err:
        return f"no PostgreSQL at 127.0.0.1:5432 ({type(err).__name__})"


_PG_SKIP = _postgres_available()


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: os.PathLike[str]) -> Iterator[Store]:
    """The same tests on the embedded default and on a real PostgreSQL (fresh schema per test)."""
    if request.param == "sqlite":
        with Store.open(f"sqlite:///{tmp_path}/store.sqlite3") as opened:
            yield opened
        return
    if _PG_SKIP:
        pytest.skip(f"PostgreSQL tests skipped: {_PG_SKIP}")
    import psycopg

    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect("host=127.0.0.1 port=5432 user=postgres dbname=test", autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        with Store.open(f"{PG_URL}?options=-csearch_path%3D{schema}") as opened:
            yield opened
    finally:
        with psycopg.connect("host=127.0.0.1 port=5432 user=postgres dbname=test", autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def sqlite_store(tmp_path: os.PathLike[str]) -> Iterator[Store]:
    with Store.open(f"sqlite:///{tmp_path}/store.sqlite3") as opened:
        yield opened
