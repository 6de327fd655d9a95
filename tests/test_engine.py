"""The task engine in one process: schema, coalescing, locks, planning and posting on a real PostgreSQL; and the
SQLite default left as it was."""

from __future__ import annotations

import asyncio
import json
import threading
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pytest

from bot.cli import main
from bot.demo.fake_github import FakeGitHub
from bot.platforms.runtime import run_worker
from bot.runtime.engine import build_app, conninfo_for, engine_status, engine_unavailable, ensure_schema
from bot.runtime.locks import advisory_lock
from bot.runtime.tasks import defer
from bot.settings import EngineSettings, load_settings
from tests.engine_support import channels_due, pg_schema, postgres_skip_reason, write_config
from tests.factories import issue_payload
from tests.fakes.slack_api import FakeSlack

if TYPE_CHECKING:
    import procrastinate

needs_pg = pytest.mark.skipif(bool(postgres_skip_reason()), reason=postgres_skip_reason() or "")


def test_only_postgresql_gets_the_engine() -> None:
    assert conninfo_for("sqlite:///x.sqlite3") is None
    assert engine_unavailable("sqlite:///x.sqlite3") == "the store is not PostgreSQL"
    url = "postgresql+psycopg://u:p%40ss@db:5433/bot?options=-csearch_path%3Dx"
    assert conninfo_for(url) == "postgresql://u:p%40ss@db:5433/bot?options=-csearch_path%3Dx"


def test_a_role_on_sqlite_is_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_config(tmp_path, f"sqlite:///{tmp_path}/s.sqlite3", extra="")
    code = main(["--config", str(tmp_path), "run", "--role", "worker"])
    err = capsys.readouterr().err
    assert code != 0
    assert "--role worker needs the task engine, and the store is not PostgreSQL" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_status_on_sqlite_says_single_process(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_config(tmp_path, f"sqlite:///{tmp_path}/s.sqlite3", extra="")
    assert main(["--config", str(tmp_path), "status"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["engine"] == {"mode": "single process (no task engine)", "why": "the store is not PostgreSQL"}
    assert {"last_sync", "last_post", "pending"} <= set(report)  # the keys it had stay


@needs_pg
def test_the_schema_is_applied_once_by_racing_starters() -> None:
    with pg_schema() as url:
        conninfo = conninfo_for(url)
        assert conninfo is not None
        results: list[bool] = []
        threads = [threading.Thread(target=lambda: results.append(ensure_schema(conninfo))) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(results) == [False, False, False, True]
        assert ensure_schema(conninfo) is False


@asynccontextmanager
async def fresh_engine() -> AsyncIterator[tuple[procrastinate.App, str]]:
    """The task engine's App (and its connection string), open, on a fresh PostgreSQL schema with its tables."""
    with pg_schema() as url:
        conninfo = conninfo_for(url)
        assert conninfo is not None
        await asyncio.to_thread(ensure_schema, conninfo)
        app = build_app(conninfo, EngineSettings())
        async with app.open_async():
            yield app, conninfo


@needs_pg
async def test_a_second_sync_while_one_waits_is_coalesced() -> None:
    async with fresh_engine() as (app, conninfo):
        first = await defer(app, "sync_repo", queue="sync", lock="sync:o/r", queueing_lock="sync:o/r", repo="o/r")
        second = await defer(app, "sync_repo", queue="sync", lock="sync:o/r", queueing_lock="sync:o/r",
                             repo="o/r")
        other = await defer(app, "sync_repo", queue="sync", lock="sync:o/q", queueing_lock="sync:o/q",
                            repo="o/q")
        assert first is not None and other is not None
        assert second is None
        status = await asyncio.to_thread(engine_status, conninfo)
        assert status["queues"]["sync"]["waiting"] == 2


@needs_pg
async def test_one_holder_of_a_lock_and_the_next_takes_over_when_it_goes() -> None:
    with pg_schema() as url:
        conninfo = conninfo_for(url)
        assert conninfo is not None
        stop = asyncio.Event()
        order: list[str] = []
        first_held = asyncio.Event()
        release = asyncio.Event()

        async def holder(name: str) -> None:
            async with advisory_lock(conninfo, "planner", retry_seconds=0.1, stop=stop) as conn:
                assert conn is not None
                order.append(name)
                first_held.set()
                await release.wait()

        one = asyncio.create_task(holder("one"))
        await first_held.wait()
        two = asyncio.create_task(holder("two"))
        await asyncio.sleep(0)  # let the second try (it must not get the lock while the first holds it)
        for _ in range(5):
            await asyncio.sleep(0.1)
            assert order == ["one"]
        one.cancel()  # its connection closes: the session's lock is released
        await asyncio.gather(one, return_exceptions=True)
        release.set()
        await asyncio.wait_for(two, 10)
        assert order == ["one", "two"]


@needs_pg
async def test_the_engine_posts_each_due_channel_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pg_schema() as url:
        write_config(tmp_path, url)
        channels_due(url, [f"C{n}" for n in range(5)])
        now = datetime.now(UTC)
        github = FakeGitHub()
        github.add_repo("o/r", [issue_payload(n, now - timedelta(hours=3, minutes=n), title=f"[ROCm] fix {n}",
                                              pr=True) for n in range(1, 6)], [])
        slack = FakeSlack()
        with github.serve() as github_url, slack.serve() as slack_url:
            monkeypatch.setenv("GITHUB_API_URL", github_url)
            settings = load_settings(tmp_path)
            env = {"SLACK_BOT_TOKEN": "xoxb-test", "SLACK_API_URL": slack_url + "/api/"}
            worker = asyncio.create_task(run_worker(settings, env))
            try:
                await slack.until(lambda calls: len({c.data["channel"] for c in calls
                                                     if c.method == "chat.postMessage"}) == 5, 60)
            finally:
                worker.cancel()
                await asyncio.gather(worker, return_exceptions=True)
        headlines = Counter(c.data["channel"] for c in slack.calls
                            if c.method == "chat.postMessage" and not c.data.get("thread_ts"))
        assert headlines == {f"C{n}": 1 for n in range(5)}
        listings = [r for r in github.requests if r.path == "/repos/o/r/issues"]
        assert listings  # synced through the sync_repo task


@needs_pg
async def test_two_planners_in_one_window_defer_one_delivery_with_the_window_in_its_args() -> None:
    from bot.runtime.planner import EngineRunner

    async with fresh_engine() as (app, _):
        one, two = EngineRunner(app), EngineRunner(app)
        at = datetime(2026, 3, 2, 9, 0, 5, tzinfo=UTC)
        first = await one.run("channel", ("slack", "C1"), ("09:00", "Europe/Paris"), at)
        again = await two.run("channel", ("slack", "C1"), ("09:00", "Europe/Paris"), at + timedelta(seconds=40))
        slot = await one.run("dm", ("09:00", "UTC"), ("09:00", "UTC"), at)
        jobs = await app.job_manager.list_jobs_async()
        assert first is not None and slot is not None
        assert again is None  # the same window's delivery is already waiting: coalesced
        assert one.deferred == 1 + 1 and two.deferred == 0
        by_task = {job.task_name: job for job in jobs}
        channel = by_task["deliver_channel"]
        # 09:00 in Paris is 08:00 UTC in March; the window is the day before it.
        assert channel.task_kwargs["window_start"] == "2026-03-01T08:00:00+00:00"
        assert channel.lock == "channel:slack:C1"
        assert by_task["deliver_slot"].task_kwargs["window_start"] == "2026-03-01T09:00:00+00:00"


@needs_pg
async def test_the_chat_gateway_is_held_by_one_process_at_a_time() -> None:
    from bot.runtime.roles import hold_gateway

    with pg_schema() as url:
        conninfo = conninfo_for(url)
        assert conninfo is not None
        engine = EngineSettings(planner_retry_seconds=0.1)
        connected: list[str] = []
        live: set[str] = set()
        up = {"a": asyncio.Event(), "b": asyncio.Event()}

        def gateway(name: str) -> Any:
            async def run() -> None:
                connected.append(name)
                live.add(name)
                up[name].set()
                try:
                    await asyncio.Event().wait()  # a gateway connection lives until cancelled
                finally:
                    live.discard(name)
            return run

        stop_a, stop_b = asyncio.Event(), asyncio.Event()
        a = asyncio.create_task(hold_gateway(conninfo, [gateway("a")], engine, stop_a))
        await asyncio.wait_for(up["a"].wait(), 10)
        b = asyncio.create_task(hold_gateway(conninfo, [gateway("b")], engine, stop_b))
        for _ in range(5):  # b tries every 0.1 s and never gets it while a holds it
            await asyncio.sleep(0.1)
            assert live == {"a"}
        stop_a.set()
        await asyncio.wait_for(a, 10)
        await asyncio.wait_for(up["b"].wait(), 10)
        assert connected == ["a", "b"] and live == {"b"}
        stop_b.set()
        await asyncio.wait_for(b, 10)


@needs_pg
def test_workers_starting_together_on_a_fresh_database_all_open_the_store() -> None:
    from bot.store.store import Store

    with pg_schema() as url:
        errors: list[BaseException] = []

        def open_store() -> None:
            try:
                Store.open(url).close()
            except BaseException as err:  # collected: a thread's failure must fail the test
                errors.append(err)

        threads = [threading.Thread(target=open_store) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []


@needs_pg
async def test_a_slot_of_dms_goes_out_in_batches_each_subscriber_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sqlalchemy import update

    from bot.store import schema
    from bot.store.chat import ChatState
    from bot.store.store import Store

    users = [f"U{n}" for n in range(5)]
    with pg_schema() as url:
        write_config(tmp_path, url, extra="[engine]\ndm_batch = 2\nstalled_seconds = 3\ntick_seconds = 1\n")
        now = datetime.now(UTC)
        post_time = (now - timedelta(hours=1)).strftime("%H:%M")
        with Store.open(url) as store:
            chat = ChatState(store)
            for user in users:
                chat.subscribe("slack", user, "rocm", repo="o/r", post_time=post_time, timezone="UTC", locale="en")
            with store.engine.begin() as conn:  # subscribed days ago: today's DM is due now
                conn.execute(update(schema.subscriptions).values(created_at=now - timedelta(days=3)))
        github = FakeGitHub()
        github.add_repo("o/r", [issue_payload(n, now - timedelta(hours=3, minutes=n), title=f"[ROCm] crash {n}")
                                for n in range(1, 4)], [])
        slack = FakeSlack()
        with github.serve() as github_url, slack.serve() as slack_url:
            monkeypatch.setenv("GITHUB_API_URL", github_url)
            settings = load_settings(tmp_path)
            env = {"SLACK_BOT_TOKEN": "xoxb-test", "SLACK_API_URL": slack_url + "/api/"}
            worker = asyncio.create_task(run_worker(settings, env))
            try:
                await slack.until(lambda calls: len({c.data["channel"] for c in calls
                                                     if c.method == "chat.postMessage"}) == len(users), 60)
                conninfo = conninfo_for(url)
                assert conninfo is not None
                app = build_app(conninfo, EngineSettings())
                async with app.open_async():
                    jobs = [job for job in await app.job_manager.list_jobs_async() if job.task_name == "deliver_dms"]
            finally:
                worker.cancel()
                await asyncio.gather(worker, return_exceptions=True)
        headlines = Counter(c.data["channel"] for c in slack.calls
                            if c.method == "chat.postMessage" and not c.data.get("thread_ts"))
        assert headlines == {f"D{user}": 1 for user in users}
        assert sorted(len(job.task_kwargs["batch"]) for job in jobs) == [1, 2, 2]  # 5 subscribers, batches of 2


@needs_pg
async def test_one_poll_per_repository_however_many_ask_at_once() -> None:
    from bot.runtime.locks import ClusterSync

    with pg_schema() as url:
        conninfo = conninfo_for(url)
        assert conninfo is not None
        polled: dict[str, datetime] = {}
        polls: list[str] = []

        async def sync(repo: str) -> object:
            polls.append(repo)
            await asyncio.sleep(0.3)  # a poll takes a while: the others ask meanwhile
            polled[repo] = datetime.now(UTC)
            return repo

        # Two syncers stand for two worker processes (each its own connection per call: the lock is PostgreSQL's).
        one = ClusterSync(conninfo, sync, polled.get, fresh=timedelta(seconds=0))
        two = ClusterSync(conninfo, sync, polled.get, fresh=timedelta(seconds=0))
        results = await asyncio.gather(*(syncer("o/r") for syncer in (one, two, one, two, two)),
                                       two("o/q"))
        assert sorted(polls) == ["o/q", "o/r"]  # five asked for o/r at once: GitHub was asked once
        assert results.count("o/r") == 1 and results.count(None) == 4
        await one("o/r")  # asked after that poll (and nothing fresh allowed): polls again
        assert polls.count("o/r") == 2
        fresh = ClusterSync(conninfo, sync, polled.get, fresh=timedelta(minutes=1))
        assert await fresh("o/r") is None  # a poll a moment ago is the one wanted
        assert polls.count("o/r") == 2


@needs_pg
async def test_an_engine_that_cannot_set_up_its_tables_says_so_in_one_sentence() -> None:
    from bot.delivery.jobs import DeliveryJobs
    from bot.errors import UserError
    from bot.runtime.roles import Assembly, run_roles
    from bot.runtime.tasks import WorkerContext

    jobs = cast(DeliveryJobs, None)  # never reached: the tables come first
    assembly = Assembly("postgresql://postgres@127.0.0.1:5432/no_such_database_i25", EngineSettings(),
                        WorkerContext(jobs), scheduler=lambda runner: cast(Any, None))
    with pytest.raises(UserError, match=r"cannot set up the task engine's tables: .*no_such_database_i25") as raised:
        await run_roles(assembly, "worker", asyncio.Event())
    assert "enabled = false" in str(raised.value) and "\n" not in str(raised.value).strip()
