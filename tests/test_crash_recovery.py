"""A worker killed with SIGKILL in the middle of posting, then restarted: every part arrives, none twice.

Real processes (`python -m bot run`), a real fake GitHub and a real fake Slack on 127.0.0.1. The fake Slack
never answers the third `chat.postMessage` (the platform did not accept it) until the first worker is dead.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select, update

from bot.demo.fake_github import FakeGitHub
from bot.store import schema
from bot.store.chat import ChannelSettings, ChatState
from bot.store.store import Store
from tests.factories import issue_payload
from tests.fakes.slack_api import FakeSlack

ROOT = Path(__file__).resolve().parents[1]


def start_worker(config: Path, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "bot", "--config", str(config), "-v", "run"], env=env,
                            stdout=log.open("ab"), stderr=subprocess.STDOUT, cwd=config)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_kill_minus_nine_mid_post_then_restart_posts_each_part_once(tmp_path: Path) -> None:
    shutil.copy(ROOT / "config" / "topics.toml", tmp_path)
    db = tmp_path / "store.sqlite3"
    (tmp_path / "digest.toml").write_text(
        f'[store]\nurl = "sqlite:///{db}"\n[delivery]\nlease_seconds = 2\n[[repos]]\nname = "o/r"\n')
    now = datetime.now(UTC)
    with Store.open(f"sqlite:///{db}") as store:
        ChatState(store).save_channel(ChannelSettings("slack", "C1", repo="o/r", timezone="UTC",
                                                      post_time=(now - timedelta(hours=1)).strftime("%H:%M")))
        with store.engine.begin() as conn:  # configured days ago: today's missed post is due now
            conn.execute(update(schema.channels).values(updated_at=now - timedelta(days=3)))
    github = FakeGitHub()
    items = [issue_payload(n, now - timedelta(hours=3, minutes=n), title=f"[ROCm][Kernel] Fix MI300X case {n}",
                           pr=True, merged=now - timedelta(hours=2)) for n in range(1, 400)]
    github.add_repo("o/r", items, [])
    slack = FakeSlack()
    release = slack.hold("chat.postMessage", after=2)
    log = tmp_path / "worker.log"
    with github.serve() as github_url, slack.serve() as slack_url:
        env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), "GITHUB_API_URL": github_url,
               "SLACK_BOT_TOKEN": "xoxb-test", "SLACK_API_URL": slack_url + "/api/"}
        first = start_worker(tmp_path, env, log)
        try:
            slack.wait_for(lambda calls: any(c.method == "chat.postMessage" and c.status == 0 for c in calls), 60)
            first.send_signal(signal.SIGKILL)
            assert first.wait(30) == -signal.SIGKILL
        finally:
            release.set()
            if first.poll() is None:
                first.kill()
        with Store.open(f"sqlite:///{db}") as store, store.engine.connect() as conn:
            [row] = conn.execute(select(schema.deliveries)).all()
        assert row.status == "claimed"  # the dead worker's claim, two parts recorded
        assert len(row.message_ids) == 2
        # A live claim is never taken over; the restarted worker takes this one once its lease has run out.
        lease_left = (row.lease_until.replace(tzinfo=UTC) - datetime.now(UTC)).total_seconds()
        if lease_left > 0:
            time.sleep(lease_left + 0.2)
        second = start_worker(tmp_path, env, log)
        try:
            def sent() -> bool:
                with Store.open(f"sqlite:///{db}") as store, store.engine.connect() as conn:
                    return conn.execute(select(schema.deliveries.c.status)).scalar() == "sent"

            # The ledger lives in another process's database writes: check it until it says sent (bounded).
            deadline = time.monotonic() + 60
            while not sent():
                assert time.monotonic() < deadline, log.read_text()[-3000:]
                assert second.poll() is None, log.read_text()[-3000:]
                time.sleep(0.1)
        finally:
            second.send_signal(signal.SIGTERM)
            second.wait(30)
    accepted = [c for c in slack.calls if c.method == "chat.postMessage" and c.status == 200]
    parts = Counter(json.dumps(c.data.get("blocks"), sort_keys=True) for c in accepted)
    assert len(accepted) >= 3, log.read_text()[-3000:]
    assert max(parts.values()) == 1, "a part was posted twice"
    headline_ts = {c.data.get("thread_ts") for c in accepted[1:]}
    assert len(headline_ts) == 1  # the resumed parts went into the first worker's thread
    with Store.open(f"sqlite:///{db}") as store, store.engine.connect() as conn:
        [row] = conn.execute(select(schema.deliveries)).all()
    assert len(row.message_ids) == len(accepted)
