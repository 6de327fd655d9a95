"""`digest-bot demo`: the real sync and digest code against an in-process fake GitHub serving a sample.

No token, no network. The sample's two weeks end at the latest post time (the same world every run, moved in
time), and its store is kept where the other commands find it (``kept_store``), so they have data to answer:
built in a temporary file beside its place, then copied in by SQLite's backup API in one transaction.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import tempfile
from collections.abc import Callable
from contextlib import ExitStack, closing
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from bot.app.service import DigestService
from bot.demo.fake_github import FakeGitHub
from bot.demo.generator import generate_repo
from bot.digest.window import default_window
from bot.github.factory import build_syncer, github_client
from bot.github.sync import SyncReport
from bot.platforms.console import render
from bot.settings import Settings, StoreSettings
from bot.store.store import Store

_log = logging.getLogger(__name__)

SAMPLE_END = datetime(2025, 12, 2, 3, 5, tzinfo=UTC)  # 11:05 in Asia/Shanghai: the world is drawn as of then
SAMPLE_DAYS = 14
SAMPLE_REPO = "vllm-project/vllm"
DEMO_API = "https://api.github.invalid"  # never resolved: MockTransport answers in-process
# Where the demo keeps its store when the store the commands use is not its to fill (relative to the working
# directory, like the default store).
APART = Path("data/digest-bot-demo.sqlite3")
# SQLite's header field for "what kind of file this is" (PRAGMA application_id): set on the stores the demo
# makes, so a later demo refreshes its own store and never a real one. "dgD1".
DEMO_MARK = 0x64674431


def sample_github(end: datetime = SAMPLE_END) -> FakeGitHub:
    """The in-process fake GitHub serving the demo's generated sample (issues, comments, PR details), its two
    weeks ending at ``end``: always the world drawn as of ``SAMPLE_END``, moved in time (same items, texts and
    relative times)."""
    owner, name = SAMPLE_REPO.split("/")
    sample = generate_repo(owner=owner, name=name, end=SAMPLE_END, days=SAMPLE_DAYS, api_url=DEMO_API)
    sample = sample.shifted(end - SAMPLE_END)
    fake = FakeGitHub(base_url=DEMO_API)
    fake.add_repo(SAMPLE_REPO, sample.issues, sample.comments)
    fake.add_pulls(SAMPLE_REPO, sample.pulls)
    return fake


def sample_end(now: datetime, settings: Settings) -> datetime:
    """The end of the sample made at ``now``: the latest post time, so the default digest window is its last day."""
    return default_window(now, settings.digest.zone, settings.digest.post_time).end


# --- where the store is kept ---


@dataclass(frozen=True)
class KeptStore:
    """Where the demo keeps its store. ``apart``: why not in the store the commands use ("" when it is that
    one; "configured": a store is configured; "taken": the default file holds a store the demo did not make).
    ``path`` is None when even the place apart holds someone else's store (``APART`` then says where)."""

    path: Path | None
    apart: str = ""

    @property
    def url(self) -> str:
        assert self.path is not None
        return f"sqlite:///{self.path}"


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite store URL, absolute; None for another database or an in-memory one."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return None
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database).expanduser().absolute()


def kept_store(settings: Settings) -> KeptStore:
    """The store the commands use when none is configured (the default SQLite file, or a store the demo made),
    if it is absent, empty or the demo's; else ``APART``, if that is."""
    used = sqlite_file(settings.database_url)
    unconfigured = settings.database_url == StoreSettings().url
    if used is not None and fillable(used) and (unconfigured or made_by_demo(used)):
        return KeptStore(used)
    apart = "taken" if unconfigured else "configured"
    place = APART.absolute()
    return KeptStore(place if fillable(place) else None, apart)


def fillable(path: Path) -> bool:
    """Whether the demo may fill the store at ``path``: absent, empty (no row but schema_version's) or its own."""
    if not path.exists() or (path.is_file() and path.stat().st_size == 0):
        return True
    try:
        with _sqlite(path) as conn:
            if conn.execute("PRAGMA application_id").fetchone()[0] == DEMO_MARK:
                return True
            tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            return not any(conn.execute(f'SELECT 1 FROM "{table}" LIMIT 1').fetchone()
                           for table in tables if table != "schema_version" and not table.startswith("sqlite_"))
    except sqlite3.Error:  # not a SQLite database (or unreadable): someone else's
        return False


def made_by_demo(path: Path) -> bool:
    try:
        with _sqlite(path) as conn:
            return bool(conn.execute("PRAGMA application_id").fetchone()[0] == DEMO_MARK)
    except sqlite3.Error:
        return False


def _sqlite(path: Path, *, create: bool = False) -> closing[sqlite3.Connection]:
    """A plain connection to the file (never created unless asked), closed on leaving (sqlite3's own context
    manager only ends the transaction)."""
    return closing(sqlite3.connect(path if create else f"file:{path}?mode=rw", uri=not create, timeout=30))


# --- the demo ---


def run_demo(*, fmt: str, locale: str | None, settings: Settings, info: Callable[[SyncReport], None],
             pretty: bool = False, now: datetime | None = None, keep: Path | None = None) -> str:
    """The sample synced into a store and its digest rendered in ``fmt``; ``info`` hears how the sync went (the
    caller words it). The sample ends at ``sample_end(now)`` (default: at ``SAMPLE_END``). ``keep``: the store
    is left there (``kept_store``), replacing the one there in one transaction; else it is thrown away."""
    end = SAMPLE_END if now is None else sample_end(now, settings)
    fake = sample_github(end)
    with ExitStack() as stack:
        if keep is None:
            path = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="digest-bot-demo-"))) / "demo.sqlite3"
        else:
            path = _temporary_beside(keep)
            stack.callback(_remove, path)
        store = Store.open(f"sqlite:///{path}")
        try:
            report = asyncio.run(_sync(store, fake, settings, end))
            info(report)
            window = default_window(end, settings.digest.zone, settings.digest.post_time)
            service = DigestService(store, _following_the_sample(settings))
            try:
                context = service.default_context(repo=SAMPLE_REPO, locale=locale)
                # no network, even with LLM_* set; the charts' data only for the page that draws them
                digest = service.build_digest(context, window, analyse=False, series=fmt == "html")
            finally:
                service.close()
        finally:
            store.close()  # the last connection: SQLite checkpoints the WAL into the file
        if keep is not None:
            install(path, keep)
    return render(digest, fmt, pretty=pretty)


def _temporary_beside(target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".building", dir=target.parent)
    os.close(handle)
    return Path(name)


def _remove(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def install(built: Path, target: Path) -> None:
    """Mark ``built`` as the demo's and copy it over ``target`` with SQLite's backup API: one write transaction
    on ``target``, so a reader sees the old store or the new one, and a crash leaves the old one. (Renaming the
    file over ``target`` would not do: a reader of the old file keeps its ``-wal``/``-shm`` beside the name, and
    a new reader would pair them with the new file.)"""
    with _sqlite(built) as source:
        source.execute(f"PRAGMA application_id = {DEMO_MARK}")
        source.commit()
        with _sqlite(target, create=True) as destination:
            source.backup(destination)  # pages=-1: every page in one step, committed at its end
    _log.info("demo store installed at %s", target)


def _following_the_sample(settings: Settings) -> Settings:
    """The sample is served by the in-process fake, not read with a token: allowed whatever the config says."""
    access = settings.file.access.model_copy(update={"repos": [*settings.file.access.repos, SAMPLE_REPO]})
    return settings.model_copy(update={"file": settings.file.model_copy(update={"access": access})})


async def _sync(store: Store, fake: FakeGitHub, settings: Settings, end: datetime) -> SyncReport:
    async with github_client(settings, api_url=DEMO_API, transport=httpx.MockTransport(fake.handler)) as client:
        syncer = build_syncer(store, settings, client, lookback=timedelta(days=SAMPLE_DAYS + 1), clock=lambda: end)
        return await syncer.sync(SAMPLE_REPO)
