"""SIGTERM stops `digest-bot run` within the platform's 30 s, whatever its endpoints do (docs/scaling.md, "Stopping").

Real worker processes (`python -m bot run`) against a fake Discord (REST + gateway) and a fake GitHub on
127.0.0.1; the endpoints then vanish (ports closed), hang (a socket that accepts and never answers) or ask for
an 800 s wait (403 with Retry-After). What the worker logs is read from its pipe as it comes: each step waits
for the line that says it happened, never on a sleep. And ``Shutdown`` itself, in this process.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import sys
import threading
import time
from collections.abc import AsyncIterator
from contextlib import ExitStack, asynccontextmanager, suppress
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import update

from bot.demo.fake_github import FakeGitHub
from bot.errors import Stopping
from bot.github.client import stoppable_sleep
from bot.platforms.shutdown import OVERDUE_EXIT, Shutdown, cancel_until_done
from bot.store import schema
from bot.store.chat import ChannelSettings, ChatState
from bot.store.store import Store
from tests.factories import issue_payload
from tests.fakes.discord_api import CHANNEL_ID, FakeDiscord

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

ROOT = Path(__file__).resolve().parents[1]
KILL_AFTER = 30.0  # what a platform waits after SIGTERM before SIGKILL


class Worker:
    """A `digest-bot run` process whose output is read as it comes (a full pipe would stall it)."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.lines: list[str] = []
        self._changed = asyncio.Condition()
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        async for raw in self.proc.stdout:
            async with self._changed:
                self.lines.append(raw.decode("utf-8", "replace").rstrip())
                self._changed.notify_all()

    async def wait_line(self, text: str, within: float = 60) -> None:
        async with self._changed:
            try:
                await asyncio.wait_for(self._changed.wait_for(lambda: any(text in line for line in self.lines)),
                                       within)
            except TimeoutError:
                raise AssertionError(f"the worker never said {text!r}:\n" + self.tail()) from None

    def tail(self, n: int = 60) -> str:
        return "\n".join(self.lines[-n:])

    async def stopped_within(self, seconds: float) -> tuple[int, float]:
        """(exit code, seconds from now to the exit); fails if the process outlives ``seconds``."""
        started = time.monotonic()
        try:
            code = await asyncio.wait_for(self.proc.wait(), seconds)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
            raise AssertionError(f"still running {seconds:.0f} s after SIGTERM:\n" + self.tail()) from None
        await self._reader
        return code, time.monotonic() - started


def _config(tmp: Path) -> Path:
    shutil.copy(ROOT / "config" / "topics.toml", tmp)
    db = tmp / "store.sqlite3"
    (tmp / "digest.toml").write_text(f'[store]\nurl = "sqlite:///{db}"\n[[repos]]\nname = "o/r"\n')
    now = datetime.now(UTC)
    with Store.open(f"sqlite:///{db}") as store:  # a Discord channel whose post (an hour ago) is due at start
        ChatState(store).save_channel(ChannelSettings("discord", str(CHANNEL_ID), repo="o/r", timezone="UTC",
                                                      post_time=(now - timedelta(hours=1)).strftime("%H:%M")))
        with store.engine.begin() as conn:
            conn.execute(update(schema.channels).values(updated_at=now - timedelta(days=3)))
    return tmp


def _github() -> FakeGitHub:
    github = FakeGitHub()
    now = datetime.now(UTC)
    github.add_repo("o/r", [issue_payload(n, now - timedelta(hours=3), title=f"Fix case {n}") for n in range(1, 30)],
                    [])
    return github


@asynccontextmanager
async def worker(config: Path, discord: FakeDiscord, github_url: str, *,
                 discord_api: str | None = None) -> AsyncIterator[Worker]:
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(config), "GITHUB_API_URL": github_url,
           "DISCORD_TOKEN": "token", "DISCORD_API_URL": discord_api or discord.api_url,
           "DISCORD_GATEWAY_URL": discord.gateway_url}
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "--config", str(config), "-v", "run",
                                                env=env, cwd=config, stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.STDOUT)
    running = Worker(proc)
    try:
        yield running
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


class BlackHole:
    """A server that accepts connections and reads forever, never answering: an endpoint that hangs."""

    def __init__(self) -> None:
        self.reached = asyncio.Event()  # a request is waiting for an answer that never comes

    async def _swallow(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while await reader.read(65536):
            self.reached.set()
        writer.close()

    @asynccontextmanager
    async def serve(self) -> AsyncIterator[str]:
        server = await asyncio.start_server(self._swallow, "127.0.0.1", 0)
        try:
            yield f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}"
        finally:
            server.close()


async def test_sigterm_with_discord_and_github_gone_exits_in_time(tmp_path: Path) -> None:
    """The reported case: the gateway vanished, discord.py's reconnect loop runs, a cancel can be swallowed
    (Python 3.11 ``wait_for``): the worker used to stay alive until SIGKILL."""
    config = _config(tmp_path)
    github = _github()
    discord = FakeDiscord()
    await discord.__aenter__()
    discord_up = True
    try:
        with ExitStack() as github_up:
            github_url = github_up.enter_context(github.serve())
            async with worker(config, discord, github_url) as bot:
                await bot.wait_line("channel o/r @")  # the due post went out: synced, posted, the gateway up
                await bot.wait_line("Discord: connected")
                discord_up = False
                await discord.__aexit__()  # the gateway's and the REST API's port close
                github_up.close()  # and GitHub's
                await bot.wait_line("Attempting a reconnect")  # discord.py's reconnect loop is running
                bot.proc.send_signal(signal.SIGTERM)
                code, _ = await bot.stopped_within(KILL_AFTER)
    finally:
        if discord_up:
            await discord.__aexit__()
    assert code == 0, bot.tail()
    assert "SIGTERM: stopping" in "\n".join(bot.lines)


async def test_sigterm_while_github_hangs_mid_delivery_exits_in_time(tmp_path: Path) -> None:
    """GitHub accepts and never answers (30 s per try, 5 retries): the due post's sync is stuck when the
    signal comes; the drain ends, the run is cancelled (its ledger row handed back) and the worker exits."""
    config = _config(tmp_path)
    github = BlackHole()
    async with FakeDiscord() as discord, github.serve() as github_url, worker(config, discord, github_url) as bot:
        await bot.wait_line("scheduler started")  # the due post's catch-up and the sync job are running
        await asyncio.wait_for(github.reached.wait(), 60)  # a request is in flight to the silent GitHub
        bot.proc.send_signal(signal.SIGTERM)
        code, _ = await bot.stopped_within(KILL_AFTER)
    assert code == 0, bot.tail()
    assert "did not finish in time; cancelling them" in "\n".join(bot.lines)


async def test_sigterm_while_discord_hangs_at_login_exits_at_once(tmp_path: Path) -> None:
    """Discord's REST API accepts and never answers: start-up waits at the login (aiohttp's 5 min) when the
    signal comes; nothing runs yet, so start-up is cancelled and the worker exits."""
    config = _config(tmp_path)
    github = _github()
    hole = BlackHole()
    async with FakeDiscord() as discord, hole.serve() as hole_url:
        discord_api = hole_url + "/api/v10"
        with github.serve() as github_url:
            async with worker(config, discord, github_url, discord_api=discord_api) as bot:
                await bot.wait_line("logging in")
                await asyncio.wait_for(hole.reached.wait(), 60)
                bot.proc.send_signal(signal.SIGTERM)
                code, _ = await bot.stopped_within(KILL_AFTER)
    assert code == 0, bot.tail()
    assert "scheduler started" not in "\n".join(bot.lines)


async def test_sigterm_during_a_long_rate_limit_wait_exits_at_once(tmp_path: Path) -> None:
    """GitHub asks for 800 s (a secondary rate limit, under sync.max_rate_limit_wait_seconds): the wait ends
    with the stop instead of holding the drain, and the post is handed back to be retried."""
    config = _config(tmp_path)
    github = _github()
    github.inject(403, headers={"retry-after": "800"}, body={"message": "You have exceeded a secondary rate limit"},
                  times=1000)
    async with FakeDiscord() as discord:
        with github.serve() as github_url:
            async with worker(config, discord, github_url) as bot:
                await bot.wait_line("waiting 800 s")
                bot.proc.send_signal(signal.SIGTERM)
                code, _ = await bot.stopped_within(KILL_AFTER)
    assert code == 0, bot.tail()
    said = "\n".join(bot.lines)
    assert "not waiting 800 s for GitHub" in said
    assert "did not finish in time" not in said  # nothing waited for the drain to end


async def test_a_second_sigterm_exits_at_once(tmp_path: Path) -> None:
    config = _config(tmp_path)
    github = BlackHole()
    async with FakeDiscord() as discord, github.serve() as github_url, worker(config, discord, github_url) as bot:
        await bot.wait_line("scheduler started")
        await asyncio.wait_for(github.reached.wait(), 60)
        bot.proc.send_signal(signal.SIGTERM)
        await bot.wait_line("SIGTERM: stopping")  # draining: the stuck sync has 12 s to finish
        bot.proc.send_signal(signal.SIGTERM)
        code, _ = await bot.stopped_within(KILL_AFTER)
    assert code == 128 + signal.SIGTERM, bot.tail()
    assert "SIGTERM again: exiting now" in "\n".join(bot.lines)
    assert "did not finish in time" not in "\n".join(bot.lines)  # it did not wait for the drain


# --- Shutdown in this process ---


async def test_cancel_until_done_outlasts_a_swallowed_cancellation() -> None:
    started = asyncio.Event()

    async def stubborn() -> None:  # what discord.py's reconnect loop does when wait_for swallows the cancel
        started.set()
        with suppress(asyncio.CancelledError):  # swallowed: it carries on
            await asyncio.Event().wait()
        await asyncio.Event().wait()

    task = asyncio.create_task(stubborn(), name="stubborn")
    await started.wait()
    left = await cancel_until_done([task], time.monotonic() + 10)
    assert left == set()
    assert task.cancelled()


async def test_cancel_until_done_gives_up_at_its_time() -> None:
    released = False
    started = asyncio.Event()

    async def deaf() -> None:
        started.set()
        while True:
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                if released:
                    raise

    task = asyncio.create_task(deaf(), name="deaf")
    await started.wait()
    left = await cancel_until_done([task], time.monotonic() + 0.3)
    assert left == {task}
    released = True  # leave no task behind
    task.cancel()
    await asyncio.wait([task])


def test_the_watchdog_ends_a_process_whose_stop_is_stuck() -> None:
    """The deadline holds even when nothing on the event loop runs (a thread blocked in a driver call)."""
    exited: list[int] = []
    called = threading.Event()

    def fake_exit(code: int) -> None:
        exited.append(code)
        called.set()

    shutdown = Shutdown(deadline_seconds=0.2, exit=fake_exit)
    shutdown.begin()
    assert shutdown.requested.is_set()
    assert called.wait(10), "the watchdog never fired"
    assert exited == [OVERDUE_EXIT]


async def test_signals_first_stop_then_exit_at_once() -> None:
    exited: list[int] = []
    second = asyncio.Event()
    loop = asyncio.get_running_loop()

    def fake_exit(code: int) -> None:
        exited.append(code)
        loop.call_soon_threadsafe(second.set)

    shutdown = Shutdown(deadline_seconds=60, exit=fake_exit)
    shutdown.install()
    try:
        os.kill(os.getpid(), signal.SIGINT)
        await asyncio.wait_for(shutdown.requested.wait(), 10)
        assert exited == [] and 0 < shutdown.remaining() <= 60
        os.kill(os.getpid(), signal.SIGTERM)
        await asyncio.wait_for(second.wait(), 10)
        assert exited == [128 + signal.SIGTERM]
    finally:
        shutdown.uninstall()
        shutdown.disarm()  # the first signal armed the 60 s watchdog: it must not fire after this test's loop


async def test_a_rate_limit_wait_ends_when_the_stop_begins() -> None:
    stop = asyncio.Event()
    sleep = stoppable_sleep(stop)
    await sleep(0.01)  # an ordinary wait still ends on its own
    waiting = asyncio.create_task(sleep(3600))
    stop.set()
    with pytest.raises(Stopping, match="not waiting 3600 s"):
        await asyncio.wait_for(waiting, 10)
    with pytest.raises(Stopping):
        await sleep(1)  # once stopping, no new wait starts
