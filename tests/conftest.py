"""Shared fixtures. No test reaches the internet: a guard fails any connection off the loopback.

The suite runs in parallel (pyproject's addopts: ``-n auto --dist loadgroup``). A module- or session-scoped
fixture runs once per *worker*, so the tests that share one (a synced demo store, a model server, a browser's
store) are marked here with one xdist group per module and parameter, for loadgroup to keep on one worker.
(pytest is held below 9.2 for this: with 9.2, pytest-xdist 3.8 ignores xdist_group, pytest-xdist#1386.)
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator

import pytest

from bot.store.store import Store
from tests import pg

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


# Workers for -n auto: one per usable CPU and one more, which takes the CPU while another waits on a
# subprocess, a server or a sleep-free deadline. Measured on 2 quiet CPUs (docs/benchmarks.md, "Test suite"):
# 2 workers 312-320 s, 3 workers 286 s, 4 workers 298 s for the same 2,832 tests.
_EXTRA_WORKERS = 1


@pytest.hookimpl(optionalhook=True)  # -p no:xdist: no such hook, and no error for it
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own hook reads it
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return cpus + _EXTRA_WORKERS


def pytest_itemcollected(item: pytest.Item) -> None:
    """Marked as each test is collected, so the mark is there before any collection_modifyitems hook (xdist
    turns it into the work unit there)."""
    if not item.config.pluginmanager.hasplugin("xdist"):  # -p no:xdist: no such mark to add
        return
    group = shared_fixture_group(item)
    if group is not None and item.get_closest_marker("xdist_group") is None:  # a test's own group wins
        item.add_marker(pytest.mark.xdist_group(group))


def shared_fixture_group(item: pytest.Item) -> str | None:
    """``module[::fixture#i…]`` when the test uses a module/session fixture its own module defines."""
    info = getattr(item, "_fixtureinfo", None)
    module = item.nodeid.split("::", 1)[0]
    if info is None:
        return None
    shared = sorted(
        name for name, defs in info.name2fixturedefs.items()
        if defs and defs[-1].scope in ("module", "package", "session") and defs[-1].baseid == module
    )
    if not shared:
        return None
    indices = getattr(getattr(item, "callspec", None), "indices", {})  # a parametrized fixture: one group each
    # "name#i", not "name[i]": xdist reads a group only when no "]" follows the "@" it appends
    return "::".join([module, *(f"{name}#{indices[name]}" for name in shared if name in indices)])


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket.socket, "connect", _guarded_connect)
    monkeypatch.setattr(socket.socket, "connect_ex", _guarded_connect_ex)


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: os.PathLike[str]) -> Iterator[Store]:
    """The same tests on the embedded default and on a real PostgreSQL (``DIGEST_BOT_TEST_PG``, tests/pg.py:
    a fresh schema per test)."""
    if request.param == "sqlite":
        with Store.open(f"sqlite:///{tmp_path}/store.sqlite3") as opened:
            yield opened
        return
    found = pg.this_run()
    if found.url is None:
        pytest.skip(found.skip or "PostgreSQL tests skipped")
    with pg.fresh_schema(found.url) as url, Store.open(url) as opened:
        yield opened


@pytest.fixture
def sqlite_store(tmp_path: os.PathLike[str]) -> Iterator[Store]:
    with Store.open(f"sqlite:///{tmp_path}/store.sqlite3") as opened:
        yield opened
