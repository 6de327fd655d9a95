"""The task engine under faults, with real processes (`python -m bot run`) on a real PostgreSQL, a fake GitHub and
a slow fake Slack on 127.0.0.1: workers and the planner killed with -9, a task that always fails, SIGTERM.

Timings are the engine's settings made short (tests/engine_support.py FAST_ENGINE: a worker silent for 3 s is
stalled), so a run takes seconds; the code paths are the production ones.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.demo.fake_github import FakeGitHub
from bot.runtime.engine import build_app, conninfo_for, ensure_schema
from bot.runtime.tasks import defer
from bot.settings import EngineSettings
from tests.engine_support import channels_due, pg_schema, postgres_skip_reason, until, write_config
from tests.factories import issue_payload
from tests.fakes.slack_api import Call, FakeSlack

pytestmark = [
    pytest.mark.skipif(bool(postgres_skip_reason()), reason=postgres_skip_reason() or ""),
    pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL"),
]


class SlowSlack(FakeSlack):
    """Slack taking ``delay`` seconds to accept each message (a realistic per-call delay, made longer)."""

    def __init__(self, delay: float) -> None:
        super().__init__()
        self.delay = delay

    def _answer(self, call: Call) -> tuple[int, dict[str, Any], dict[str, str]]:
        if call.method == "chat.postMessage":
            time.sleep(self.delay)
        return super()._answer(call)


def start(config: Path, env: dict[str, str], log: Path, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "bot", "--config", str(config), "-v", "run", *args], env=env,
                            stdout=log.open("ab"), stderr=subprocess.STDOUT, cwd=config)


def github_with_activity() -> FakeGitHub:
    now = datetime.now(UTC)
    github = FakeGitHub()
    github.add_repo("o/r", [issue_payload(n, now - timedelta(hours=3, minutes=n), title=f"[ROCm] fix case {n}",
                                          pr=True, merged=now - timedelta(hours=2)) for n in range(1, 12)], [])
    return github


def base_env(tmp_path: Path, github_url: str, slack_url: str) -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), "GITHUB_API_URL": github_url,
            "SLACK_BOT_TOKEN": "xoxb-test", "SLACK_API_URL": slack_url + "/api/"}


def stop_all(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    for process in processes:
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()


def planners(logs: list[Path]) -> list[int]:
    """The processes whose log says they took the planner lock (at most one at a time)."""
    return [n for n, log in enumerate(logs) if log.exists() and "holds the planner lock" in log.read_text()]


def tails(logs: list[Path]) -> str:
    return "\n".join(f"--- {log.name}\n{log.read_text()[-2500:]}" for log in logs if log.exists())


def test_two_of_three_workers_killed_as_posts_begin_every_channel_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    channels = [f"C{n:02d}" for n in range(30)]
    with pg_schema() as url:
        write_config(tmp_path, url, extra=FAST_WITH_SMALL_CONCURRENCY)
        channels_due(url, channels)
        conninfo = conninfo_for(url)
        assert conninfo is not None
        ensure_schema(conninfo)
        slack = SlowSlack(delay=0.4)
        logs = [tmp_path / f"worker{n}.log" for n in range(3)]
        with github_with_activity().serve() as github_url, slack.serve() as slack_url:
            env = base_env(tmp_path, github_url, slack_url)
            processes = [start(tmp_path, env, log) for log in logs]
            try:
                asyncio.run(_defer_poison(conninfo))
                until(lambda: slack.messages, 90, "the first post\n" + tails(logs))
                [planner] = until(lambda: planners(logs), 30, "a planner\n" + tails(logs))
                victims = [planner, (planner + 1) % 3]
                survivor = next(n for n in range(3) if n not in victims)
                for n in victims:
                    processes[n].send_signal(signal.SIGKILL)
                killed_at = time.monotonic()
                for n in victims:
                    assert processes[n].wait(30) == -signal.SIGKILL
                assert len(slack.headlines()) < len(channels), "posting had finished before the kill"
                until(lambda: len(slack.headlines()) == len(channels), 60,
                      f"every channel posted: {sorted(set(channels) - set(slack.headlines()))}\n" + tails(logs))
                recovered = time.monotonic() - killed_at
                until(lambda: "holds the planner lock" in logs[survivor].read_text(), 60 - recovered,
                      "the survivor plans\n" + tails(logs))
                assert processes[survivor].poll() is None

                def one_live_worker() -> dict[str, Any] | None:
                    assert main(["--config", str(tmp_path), "status"]) == 0
                    engine = json.loads(capsys.readouterr().out)["engine"]
                    live = [w for w in engine["workers"] if not w["stalled"]]
                    return engine if len(engine["workers"]) == 1 and len(live) == 1 else None

                # The killed workers are pruned once silent for stalled_seconds; the survivor keeps its heartbeat.
                engine = until(one_live_worker, 30, "status lists the one live worker\n" + tails(logs))
                assert set(engine["queues"]) <= {"sync", "deliver", "background"}
                assert "oldest_pending_seconds" in engine
            finally:
                stop_all(processes)
        assert slack.headlines() == {channel: 1 for channel in channels}
        assert slack.repeats() == 0
        assert recovered < 60

        def failed() -> list[dict[str, Any]]:
            assert main(["--config", str(tmp_path), "status"]) == 0
            report = json.loads(capsys.readouterr().out)
            return [f for f in report["engine"]["failed"] if f["task"] == "deliver_channel"]

        [poison] = until(failed, 30, "the poisoned task shows as failed")
        assert poison["args"]["window_start"] == "not-a-date"
        assert poison["attempts"] == 3  # the first run and max_attempts (2) retries, then it stopped
        assert "ValueError" in (poison["error"] or "")


async def _defer_poison(conninfo: str) -> None:
    """A task that always fails (its window cannot be read): retried, then failed for good, blocking nothing."""
    app = build_app(conninfo, EngineSettings())
    async with app.open_async():
        await defer(app, "deliver_channel", queue="deliver", lock="channel:slack:CX", platform="slack",
                    channel_id="CX", window_start="not-a-date", at="not-a-date")


def test_a_killed_planner_is_replaced(tmp_path: Path) -> None:
    with pg_schema() as url:
        write_config(tmp_path, url)
        logs = [tmp_path / f"planner{n}.log" for n in range(2)]
        slack = FakeSlack()
        with github_with_activity().serve() as github_url, slack.serve() as slack_url:
            env = base_env(tmp_path, github_url, slack_url)
            processes = [start(tmp_path, env, log, "--role", "planner") for log in logs]
            try:
                [first] = until(lambda: planners(logs), 60, "a planner\n" + tails(logs))
                other = 1 - first
                assert "holds the planner lock" not in logs[other].read_text()
                processes[first].send_signal(signal.SIGKILL)
                killed_at = time.monotonic()
                until(lambda: "holds the planner lock" in logs[other].read_text(), 60,
                      "the standby plans\n" + tails(logs))
                assert time.monotonic() - killed_at < 60
            finally:
                stop_all(processes)


def test_sigterm_hands_back_and_exits_then_another_worker_finishes(tmp_path: Path) -> None:
    channels = [f"C{n:02d}" for n in range(8)]
    with pg_schema() as url:
        # Messages take longer than the shutdown grace: the posts in flight at SIGTERM are handed back mid-way.
        write_config(tmp_path, url, extra=FAST_WITH_SMALL_CONCURRENCY.replace("shutdown_seconds = 4",
                                                                           "shutdown_seconds = 2"))
        channels_due(url, channels)
        slack = SlowSlack(delay=2.5)
        logs = [tmp_path / "first.log", tmp_path / "second.log"]
        with github_with_activity().serve() as github_url, slack.serve() as slack_url:
            env = base_env(tmp_path, github_url, slack_url)
            first = start(tmp_path, env, logs[0])
            processes = [first]
            try:
                until(lambda: slack.messages, 90, "the first post\n" + tails(logs))
                first.send_signal(signal.SIGTERM)
                asked = time.monotonic()
                code = first.wait(30)  # SIGKILL would come now
                took = time.monotonic() - asked
                assert code == 0, tails(logs)
                assert took < 30
                assert len(slack.headlines()) < len(channels), "posting had finished before SIGTERM"
                assert "still running after graceful timeout" in logs[0].read_text()  # handed back, not finished
                second = start(tmp_path, env, logs[1])
                processes.append(second)
                until(lambda: len(slack.headlines()) == len(channels), 60, "every channel posted\n" + tails(logs))
            finally:
                stop_all(processes)
        assert slack.headlines() == {channel: 1 for channel in channels}
        assert slack.repeats() == 0


FAST_WITH_SMALL_CONCURRENCY = """[engine]
concurrency = 3
heartbeat_seconds = 0.5
stalled_seconds = 3
planner_retry_seconds = 1
tick_seconds = 1
lease_seconds = 3
shutdown_seconds = 4
max_attempts = 2
retry_wait_seconds = 1
"""
