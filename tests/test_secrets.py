"""Planted credentials never come out: failing runs of the real CLI (a child process, so stdout, stderr and the
log lines are all it wrote), the store's rows, ``digest-bot status``, the worker's ledger and /healthz."""

from __future__ import annotations

import json
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import inspect, select

from bot.delivery.jobs import FAILED
from bot.demo.fake_github import FakeGitHub
from bot.errors import GitHubUnavailable
from bot.platforms.web import store_health, web_app
from bot.redact import RedactingFilter, install_log_redaction
from bot.settings import load_settings
from bot.store import schema
from bot.store.store import Store
from tests.factories import comment_payload, issue_payload
from tests.fakes.openai_api import FakeLLM
from tests.test_scheduler import NOW, Clock, FakeMessenger, add_channel, channel_key, make_jobs, set_last_sync

ROOT = Path(__file__).resolve().parents[1]

GH_PASSWORD = "GhPl4ntedPassw0rd"
GITHUB_TOKEN = "0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d"  # a classic token: no prefix to recognise it by
SLACK_BOT_TOKEN = "xoxb-1111111111-2222222222-PlantedSlackBotTok"
SLACK_SIGNING_SECRET = "5191e0c0ffee0ddba11f00d5ca1ab1e5"
LLM_PASSWORD = "LlmPl4ntedPw"
LLM_API_KEY = "sk-PlantedLlmKey0123456789"
DB_PASSWORD = "DbPl4nted/Pw@x"  # "/" and "@" raw: the URL cannot be parsed, and gets echoed
HEALTH_TOKEN = "HealthPl4ntedTok"
PLANTED = (GH_PASSWORD, GITHUB_TOKEN, SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET, LLM_PASSWORD, LLM_API_KEY,
           DB_PASSWORD, "DbPl4nted", HEALTH_TOKEN)


def with_userinfo(url: str, user: str, password: str) -> str:
    scheme, rest = url.split("://", 1)
    return f"{scheme}://{user}:{password}@{rest}"


def leaks(text: str) -> list[str]:
    return [secret for secret in PLANTED if secret in text]


@pytest.fixture
def config(tmp_path: Path) -> Path:
    folder = tmp_path / "config"
    folder.mkdir()
    shutil.copy(ROOT / "config" / "topics.toml", folder)
    (folder / "digest.toml").write_text(
        '[store]\nurl = "sqlite:///%s"\n[sync]\nmax_retries = 0\n[[repos]]\nname = "o/r"\n' % (tmp_path / "s.db"))
    return folder


def cli(config: Path, env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "SLACK_", "LLM_", "DATABASE_"))}
    return subprocess.run([sys.executable, "-m", "bot", "--config", str(config), *argv],
                          env={**base, **env}, capture_output=True, text=True, timeout=120, cwd=config.parent)


def dump_store(path: Path) -> str:
    with sqlite3.connect(path) as conn:
        tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return "\n".join(repr(row) for table in tables for row in conn.execute(f'SELECT * FROM "{table}"'))


def test_failing_cli_runs_leak_no_planted_secret(config: Path, tmp_path: Path) -> None:
    now = datetime.now(UTC)
    github = FakeGitHub(token="good")
    github.add_repo("o/r", [issue_payload(1, now - timedelta(hours=2), title="[Bug]: hang", labels=("bug",)),
                            issue_payload(2, now - timedelta(hours=3), title="Faster sampler", pr=True,
                                          merged=now - timedelta(hours=1))],
                    [comment_payload(10 + k, 1, now - timedelta(minutes=40 - k), user=f"u{k}") for k in range(3)])
    llm = FakeLLM()
    outputs: list[str] = []

    def record(result: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
        outputs.extend((result.stdout, result.stderr))
        return result

    chat = {"SLACK_BOT_TOKEN": SLACK_BOT_TOKEN, "SLACK_SIGNING_SECRET": SLACK_SIGNING_SECRET,
            "HEALTH_TOKEN": HEALTH_TOKEN}
    with github.serve() as github_url, llm.serve():
        assert record(cli(config, {"GITHUB_API_URL": github_url, "GITHUB_TOKEN": "good"}, "sync")).returncode == 0
        planted = {**chat, "GITHUB_TOKEN": GITHUB_TOKEN, "LLM_API_KEY": LLM_API_KEY, "LLM_MODEL": "m",
                   "GITHUB_API_URL": with_userinfo(github_url, "ghuser", GH_PASSWORD),
                   "LLM_BASE_URL": with_userinfo(llm.base_url, "llmuser", LLM_PASSWORD)}
        # Rejected by GitHub; -v logs every request URL (httpx's own log lines).
        rejected = record(cli(config, planted, "-v", "sync"))
        assert rejected.returncode == 3 and "HTTP Request: GET http://ghuser:***@127.0.0.1" in rejected.stderr
        # The LLM's URL in httpx's log lines, and the digest still printed.
        digest = record(cli(config, planted, "-v", "digest", "--format", "json"))
        assert digest.returncode == 0 and "POST http://llmuser:***@127.0.0.1" in digest.stderr
        assert len(llm.requests) > 0
    # GitHub gone: its URL (with the password) is in the error, the stored sync error and --debug's traceback.
    down = record(cli(config, planted, "--debug", "sync"))
    assert down.returncode == 3 and "GitHub API at http://ghuser:***@127.0.0.1" in down.stderr
    status = record(cli(config, planted, "status"))
    assert status.returncode == 0 and "o/r" in json.loads(status.stdout)["last_sync"]
    # A store URL with the password in it: unparsable (echoed), then unreachable (PostgreSQL, closed port).
    bad = record(cli(config, {**planted, "DATABASE_URL": f"postgres//admin:{DB_PASSWORD}@127.0.0.1/x"}, "status"))
    assert bad.returncode == 2 and "is not a SQLAlchemy URL" in bad.stderr and "admin:***" in bad.stderr
    unreachable = record(cli(config, {**planted, "DATABASE_URL": "postgresql://admin:DbPl4nted@127.0.0.1:9/x"},
                             "--debug", "status"))
    assert unreachable.returncode == 2 and "cannot open the store" in unreachable.stderr

    everything = "\n".join(outputs)
    assert leaks(everything) == [], everything
    stored = dump_store(tmp_path / "s.db")
    assert "ghuser:***@" in stored  # the sync error was stored, redacted
    assert leaks(stored) == [], stored


def test_debug_tracebacks_are_redacted(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from bot import cli

    monkeypatch.setenv("SLACK_BOT_TOKEN", SLACK_BOT_TOKEN)

    def crash(_: object) -> int:  # an unexpected error (not a UserError) whose message holds credentials
        raise RuntimeError(f"cannot reach https://ghuser:{GH_PASSWORD}@ghe.example with {SLACK_BOT_TOKEN}")

    monkeypatch.setitem(cli.HANDLERS, "status", crash)
    assert cli.main(["--debug", "status"]) == 1
    out, err = capsys.readouterr()
    assert "Traceback" in err and "RuntimeError: cannot reach https://ghuser:***@ghe.example with ***" in err
    assert cli.main(["status"]) == 1
    out2, err2 = capsys.readouterr()
    assert "unexpected error: RuntimeError" in err2
    assert leaks(out + err + out2 + err2) == []


@pytest.fixture
def redacted_logs() -> Iterator[None]:
    """What the CLI does before running the worker: a redacting filter on the root handlers (pytest's here)."""
    install_log_redaction()
    yield
    for handler in logging.getLogger().handlers:
        for found in [f for f in handler.filters if isinstance(f, RedactingFilter)]:
            handler.removeFilter(found)


@pytest.mark.usefixtures("redacted_logs")
async def test_the_worker_ledger_and_healthz_leak_no_url_credentials(tmp_path: Path, sqlite_store: Store,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    shutil.copy(ROOT / "config" / "topics.toml", tmp_path)
    (tmp_path / "digest.toml").write_text('[[repos]]\nname = "o/r"\n')
    settings = load_settings(tmp_path, env={})
    add_channel(sqlite_store)
    set_last_sync(sqlite_store, NOW - timedelta(hours=1))  # before the window's end: the delivery syncs first
    url = f"https://ghuser:{GH_PASSWORD}@ghe.example/api/v3"

    async def sync(repo: str) -> None:
        sqlite_store.record_failure(repo, "issues", f"GitHub API at {url} is unreachable after 6 attempts")
        raise GitHubUnavailable(f"GitHub API at {url} is unreachable after 6 attempts")

    jobs = make_jobs(sqlite_store, settings, FakeMessenger(), Clock(NOW + timedelta(seconds=5)), sync=sync)
    with caplog.at_level(logging.DEBUG):
        assert await jobs.post_channel("slack", "C1") == FAILED
    assert "cannot build (sync of o/r failed: GitHub API at https://ghuser:***@ghe.example" in caplog.text
    assert leaks(caplog.text) == []
    row = jobs.ledger.get(channel_key())
    assert row is not None and row.last_error is not None and "ghuser:***@ghe.example" in row.last_error

    with sqlite_store.engine.connect() as conn:
        rows = [conn.execute(select(table)).all() for name, table in schema.metadata.tables.items()
                if inspect(conn).has_table(name)]
    assert leaks(repr(rows)) == []

    async with TestClient(TestServer(web_app([], store_health(sqlite_store)), host="127.0.0.1")) as client:
        details: dict[str, Any] = await (await client.get("/healthz")).json()  # loopback: the full report
    assert details["pending"][0]["last_error"].startswith("build: sync of o/r failed: GitHub API at https://ghuser:***@")
    assert leaks(json.dumps(details)) == []
