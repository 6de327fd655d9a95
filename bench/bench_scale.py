"""Workers sharing the work on one PostgreSQL: 1, 2, 4 `digest-bot run` processes with the task engine, against
the single-process mode run the same way, side by side in one run.

    python -m bench.bench_scale                                  # 10 repositories x 60 channels, 1/2/4 workers
    python -m bench.bench_scale --repos 50 --channels 200        # the issue's size
    python -m bench.bench_scale --workers 3 --kill 2 --channels 30 --modes engine single   # recovery after -9

Each run: a fresh PostgreSQL schema, R repositories on a fake GitHub, C channels (channel i follows repository
i mod R) whose post time passed an hour ago (all due at once: the catch-up), ``sync.interval_minutes = 1``, a fake
Slack taking ``--slack-delay`` per message (both fakes in this process, on 127.0.0.1), N real worker processes
with the default engine timings. Measured per run:

* GitHub listing requests (``/repos/*/issues`` and ``/issues/comments``) from start for ``--observe`` seconds
  (the start-up sync and one interval's): with the engine this must not grow with the workers;
* messages and posts per minute, first message to last headline;
* with ``--kill K``: K workers killed with -9 at the first message; seconds from the kill to the last channel's
  headline, and every channel once (headlines per channel, repeated messages).

Ratios against the engine's first run are printed; bare figures only to show where a ratio comes from.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench.common import print_machine, print_table
from bot.demo.fake_github import FakeGitHub
from tests.engine_support import channels_due, pg_schema, write_config
from tests.factories import issue_payload
from tests.fakes.slack_api import Call, FakeSlack


class TimedSlack(FakeSlack):
    """Accepts each message after ``delay`` seconds and remembers when each headline arrived."""

    def __init__(self, delay: float) -> None:
        super().__init__()
        self.delay = delay
        self.first: float | None = None
        self.headline_at: dict[str, float] = {}

    def _answer(self, call: Call) -> tuple[int, dict[str, Any], dict[str, str]]:
        if call.method != "chat.postMessage":
            return super()._answer(call)
        time.sleep(self.delay)
        answer = super()._answer(call)
        with self._cond:
            now = time.monotonic()
            self.first = self.first or now
            if not call.data.get("thread_ts"):
                self.headline_at.setdefault(str(call.data.get("channel")), now)
            self.calls.clear()  # counted in messages; a long run's calls are not kept
        return answer


def github(repos: list[str]) -> FakeGitHub:
    now = datetime.now(UTC)
    fake = FakeGitHub()
    for r, repo in enumerate(repos):
        items = [issue_payload(n, now - timedelta(hours=3, minutes=n), title=f"[ROCm] crash in case {r}.{n}")
                 for n in range(1, 6)]
        fake.add_repo(repo, items, [])
    return fake


def listings(fake: FakeGitHub) -> int:
    return sum(1 for r in list(fake.requests) if r.path.startswith("/repos/")
               and (r.path.endswith("/issues") or r.path.endswith("/issues/comments")))


def one_run(mode: str, workers: int, args: argparse.Namespace) -> dict[str, Any]:
    repos = [f"o/r{r}" for r in range(args.repos)]
    channels = [f"C{c:04d}" for c in range(args.channels)]
    with tempfile.TemporaryDirectory() as tmp, pg_schema() as url:
        directory = Path(tmp)
        engine = f"[engine]\nenabled = {'true' if mode == 'engine' else 'false'}\n"
        write_config(directory, url, extra=f"[sync]\ninterval_minutes = 1\n{engine}", repos=tuple(repos))
        for r, repo in enumerate(repos):
            channels_due(url, [c for i, c in enumerate(channels) if i % len(repos) == r], repo=repo)
        fake, slack = github(repos), TimedSlack(args.slack_delay)
        logs = [directory / f"w{n}.log" for n in range(workers)]
        with fake.serve() as github_url, slack.serve() as slack_url:
            env = {"PATH": os.environ.get("PATH", ""), "HOME": tmp, "GITHUB_API_URL": github_url,
                   "SLACK_BOT_TOKEN": "xoxb-bench", "SLACK_API_URL": slack_url + "/api/"}
            started = time.monotonic()
            processes = [subprocess.Popen([sys.executable, "-m", "bot", "--config", tmp, "-v", "run"], env=env,
                                          stdout=log.open("ab"), stderr=subprocess.STDOUT, cwd=tmp) for log in logs]
            killed_at: float | None = None
            try:
                deadline = started + args.timeout
                while len(slack.headlines()) < len(channels) and time.monotonic() < deadline:
                    if args.kill and killed_at is None and slack.first is not None:
                        for process in processes[:args.kill]:
                            process.send_signal(signal.SIGKILL)
                        killed_at = time.monotonic()
                    time.sleep(0.05)
                done_at = max(slack.headline_at.values(), default=time.monotonic())
                while time.monotonic() < started + args.observe:
                    time.sleep(0.2)
                requests = listings(fake)
            finally:
                for process in processes:
                    if process.poll() is None:
                        process.send_signal(signal.SIGTERM)
                for process in processes:
                    try:
                        process.wait(40)
                    except subprocess.TimeoutExpired:
                        process.kill()
        headlines = slack.headlines()
        first = slack.first or done_at
        span = max(1e-6, done_at - first)
        result = {
            "mode": mode, "workers": workers, "listing_requests": requests,
            "messages": len(slack.messages), "posts_per_min": len(headlines) / span * 60,
            "messages_per_min": len(slack.messages) / span * 60,
            "channels_posted": len(headlines), "channels": len(channels),
            "doubled_headlines": sum(n - 1 for n in headlines.values() if n > 1), "repeated_messages": slack.repeats(),
            "recovery_s": round(done_at - killed_at, 1) if killed_at is not None else None,
            "start_to_all_posted_s": round(done_at - started, 1),
        }
        if len(headlines) < len(channels):
            result["log_tail"] = logs[-1].read_text()[-1500:]
        return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repos", type=int, default=10)
    parser.add_argument("--channels", type=int, default=60)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--modes", nargs="+", default=["engine", "single"], choices=["engine", "single"])
    parser.add_argument("--slack-delay", type=float, default=0.05, help="seconds per accepted message")
    parser.add_argument("--observe", type=float, default=75, help="seconds of GitHub requests counted per run")
    parser.add_argument("--kill", type=int, default=0, help="workers killed -9 at the first message")
    parser.add_argument("--timeout", type=float, default=300)
    args = parser.parse_args()
    print_machine({"postgres": "127.0.0.1:5432", "cpus": str(os.cpu_count())})
    results = [one_run(mode, n, args) for n in args.workers for mode in args.modes]
    base = next((r for r in results if r["mode"] == "engine" and r["workers"] == min(args.workers)), results[0])
    rows = []
    for r in results:
        listed = r["listing_requests"] / max(1, base["listing_requests"])
        rate = r["posts_per_min"] / max(1e-6, base["posts_per_min"])
        rows.append([r["mode"], r["workers"], r["listing_requests"], f"{listed:.2f}x", f"{r['posts_per_min']:.0f}",
                     f"{rate:.2f}x", f"{r['messages_per_min']:.0f}", r["start_to_all_posted_s"],
                     f"{r['channels_posted']}/{r['channels']}", r["doubled_headlines"], r["repeated_messages"],
                     "-" if r["recovery_s"] is None else r["recovery_s"]])
    print_table(["mode", "workers", "GitHub listings", "vs engine x1", "posts/min", "vs engine x1", "messages/min",
                 "start->all posted s", "posted", "doubled", "repeated", "kill->last post s"], rows)
    for r in results:
        if "log_tail" in r:
            print(f"--- {r['mode']} x{r['workers']} did not post everything; a log's end:\n{r['log_tail']}")
    print("BENCH-RESULT " + json.dumps([{k: v for k, v in r.items() if k != "log_tail"} for r in results]))


if __name__ == "__main__":
    main()
