"""`digest-bot run` end to end: the real worker syncs from a fake GitHub and posts to a fake Slack."""

from __future__ import annotations

import asyncio
import json
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import update

from bot.cli import main
from bot.demo.fake_github import FakeGitHub
from bot.platforms.runtime import run_worker
from bot.settings import load_settings
from bot.store import schema
from bot.store.chat import ChannelSettings, ChatState
from bot.store.store import Store
from tests.factories import issue_payload
from tests.fakes.slack_api import FakeSlack

ROOT = Path(__file__).resolve().parents[1]


async def test_worker_catches_up_a_missed_post_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copy(ROOT / "config" / "topics.toml", tmp_path)
    db = tmp_path / "store.sqlite3"
    (tmp_path / "digest.toml").write_text(f'[store]\nurl = "sqlite:///{db}"\n[[repos]]\nname = "o/r"\n')
    settings = load_settings(tmp_path, env={})
    now = datetime.now(UTC)
    post_time = (now - timedelta(hours=1)).strftime("%H:%M")  # missed an hour ago: within the 6 h grace
    with Store.open(settings.database_url) as store:
        ChatState(store).save_channel(ChannelSettings("slack", "C1", repo="o/r", post_time=post_time,
                                                      timezone="UTC"))
        # Configured days ago (a channel set up after today's post time is not "caught up").
        with store.engine.begin() as conn:
            conn.execute(update(schema.channels).values(updated_at=now - timedelta(days=3)))
    github = FakeGitHub()
    github.add_repo("o/r", [issue_payload(n, now - timedelta(hours=3, minutes=n), title=f"[ROCm] fix {n}",
                                          pr=True) for n in range(1, 8)], [])
    slack = FakeSlack()
    with github.serve() as github_url, slack.serve() as slack_url:
        monkeypatch.setenv("GITHUB_API_URL", github_url)
        settings = load_settings(tmp_path)
        env = {"SLACK_BOT_TOKEN": "xoxb-test", "SLACK_API_URL": slack_url + "/api/"}
        worker = asyncio.create_task(run_worker(settings, env))
        try:
            calls = await slack.until(lambda calls: any(c.method == "chat.postMessage" for c in calls), 30)
        finally:
            worker.cancel()
            await asyncio.gather(worker, return_exceptions=True)
    posts = [c for c in calls if c.method == "chat.postMessage"]
    assert posts[0].data["channel"] == "C1"
    assert "o/r" in json.dumps(posts[0].data)
    assert any(r.path == "/repos/o/r/issues" for r in github.requests)  # synced before posting
    with Store.open(settings.database_url) as store:
        assert ChatState(store).channel("slack", "C1").status is None


def test_status_reports_syncs_and_deliveries(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(ROOT / "config" / "topics.toml", tmp_path)
    (tmp_path / "digest.toml").write_text(f'[store]\nurl = "sqlite:///{tmp_path}/s.sqlite3"\n')
    assert main(["--config", str(tmp_path), "status"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert {"last_sync", "last_post", "pending"} <= set(report)
