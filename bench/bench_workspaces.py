"""Many workspaces on one worker: N Slack workspaces x M channels of scheduled posts (and their subscribers'
DMs) through the fake Slack, each posted with its own workspace's token; then the same with one token, side by
side; optionally several worker processes claiming the same deliveries through the ledger.

    python -m bench.bench_workspaces                          # 20 workspaces x 25 channels, 2,000 DMs, SQLite
    python -m bench.bench_workspaces --workspaces 100 --channels 10 --subscribers 5000
    python -m bench.bench_workspaces --postgres postgresql+psycopg://postgres@127.0.0.1:5432/test --workers 2

The bot side is what ``digest-bot run`` does in OAuth mode: ``DeliveryJobs.post_channel`` per channel (claim in
the ledger, build the channel's digest, post part by part) and ``send_slot`` for the DMs, through
``SlackTeamsMessenger`` (workspace of the target from the store, the workspace's token from bolt's SQLAlchemy
installation store, decrypted with Fernet) over ``build_client``'s client. Each run is a fresh interpreter (its
own CPU and memory); the fake Slack is another process and applies no rate limit (Slack's limits are per
workspace: N workspaces have N times the room; ``bench_fanout`` measures one workspace against its limit).

Figures: deliveries and messages per second, CPU seconds per 1,000 deliveries, the cost of finding a target's
workspace and token (ms, measured alone), peak RSS, and checks: every channel and DM delivered once, each with
its own workspace's token (lost, duplicated, wrong token: all 0).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import multiprocessing as mp
import shutil
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any

from bench.bench_fanout import END, POST_TIME, QUERIES, TIMEZONE, _fill, _settings
from tests.fakes.slack_api import Call, FakeSlack

CLIENT_ID = "111.222"


def team(t: int) -> str:
    return f"T{t:04d}"


def token(t: int) -> str:
    return f"xoxb-{t:04d}-bench-0000000000-aaaaaaaaaaaaaaaaaaaaaaaa"


def channel_id(t: int, m: int) -> str:
    return f"C{t:04d}{m:04d}"


def user_id(t: int, k: int) -> str:
    return f"U{t:04d}{k:05d}"


class CountingSlack(FakeSlack):
    """Records, per accepted ``chat.postMessage``, the channel and whether the token was that workspace's."""

    def __init__(self) -> None:
        super().__init__()
        self.accepted: Counter[tuple[str, str, str]] = Counter()
        self.wrong_token = 0

    def _answer(self, call: Call) -> tuple[int, dict[str, Any], dict[str, str]]:
        status, body, headers = super()._answer(call)
        if call.method == "chat.postMessage" and status == 200:
            channel = str(call.data.get("channel"))
            given = self.token_of(call) or ""
            digits = channel[1:5] if channel.startswith("C") else channel[2:6]  # C<team><n> | DU<team><k>
            with self._cond:
                if given.split("-")[1:2] != [digits]:
                    self.wrong_token += 1
                part = json.dumps(call.data.get("metadata"), sort_keys=True)
                self.accepted[(channel, str(call.data.get("thread_ts") or ""), part)] += 1
                self.calls.clear()  # a big run's calls are counted here, not kept
                self.messages.clear()
        return status, body, headers


def _serve(conn: Any) -> None:
    from http.server import ThreadingHTTPServer

    ThreadingHTTPServer.request_queue_size = 1024
    fake = CountingSlack()
    with fake.serve() as base_url:
        conn.send(base_url)
        while True:
            message = conn.recv()
            if message == "counts":
                with fake._cond:
                    per_target = Counter(channel for channel, _, _ in fake.accepted)
                    conn.send({"accepted": sum(fake.accepted.values()), "unique": len(fake.accepted),
                               "duplicates": sum(n - 1 for n in fake.accepted.values()),
                               "per_target": dict(per_target), "wrong_token": fake.wrong_token})
            elif message == "reset":
                with fake._cond:
                    fake.accepted.clear()
                    fake.wrong_token = 0
                conn.send("ok")
            else:
                break


class FakeProcess:
    def __init__(self) -> None:
        self._parent, child = mp.Pipe()
        self._process = mp.get_context("spawn").Process(target=_serve, args=(child,), daemon=True)
        self._lock = threading.Lock()

    def __enter__(self) -> FakeProcess:
        self._process.start()
        self.base_url = str(self._parent.recv())
        return self

    def ask(self, message: str) -> Any:
        with self._lock:
            self._parent.send(message)
            return self._parent.recv()

    def __exit__(self, *exc: object) -> None:
        self._parent.send("stop")
        self._process.join(timeout=10)


# --- setting up the store: workspaces, their installations, channels, subscribers ---


def _prepare(store_url: str, args: argparse.Namespace, key: str) -> None:
    from slack_sdk.oauth.installation_store import Installation
    from sqlalchemy import insert

    from bot.platforms.slack_oauth import open_stores
    from bot.store import schema
    from bot.store.store import Store

    with Store.open(store_url) as store:
        _fill(store, 0)
        channels = [dict(platform="slack", channel_id=channel_id(t, m), repo="o/r", post_time=POST_TIME,
                         timezone=TIMEZONE, locale="en", topics=None, enabled=True, status=None,
                         updated_at=END - timedelta(days=2), updated_by="bench", thread=None, team_id=team(t))
                    for t in range(args.workspaces) for m in range(args.channels)]
        subscriptions = [dict(platform="slack", user_id=user_id(n % args.workspaces, n),
                              query=QUERIES[n % len(QUERIES)], repo="o/r", post_time=POST_TIME,
                              timezone=TIMEZONE, locale="en", paused=None, notice_pending=False,
                              created_at=END - timedelta(days=1), team_id=team(n % args.workspaces))
                         for n in range(args.subscribers)]
        with store.engine.begin() as conn:
            for rows, table in ((channels, schema.channels), (subscriptions, schema.subscriptions)):
                for start in range(0, len(rows), 2000):
                    if rows[start:start + 2000]:
                        conn.execute(insert(table), rows[start:start + 2000])
        installations, _ = open_stores(store.engine, CLIENT_ID, key)

        async def install() -> None:
            for t in range(args.workspaces):
                await installations.async_save(Installation(
                    app_id="A1", enterprise_id=None, team_id=team(t), team_name=f"Team {t}", bot_token=token(t),
                    bot_id="BBOT", bot_user_id="UBOT", bot_scopes="commands,chat:write", user_id="UINSTALLER",
                    is_enterprise_install=False, token_type="bot"))

        asyncio.run(install())


def _reset_ledger(store_url: str) -> None:
    from sqlalchemy import delete

    from bot.store import schema
    from bot.store.store import Store

    with Store.open(store_url) as store, store.engine.begin() as conn:
        conn.execute(delete(schema.deliveries))


# --- one worker process ---


async def _work(job: dict[str, Any]) -> dict[str, Any]:
    import aiohttp

    from bench.common import peak_rss_bytes
    from bot.app.service import DigestService
    from bot.delivery.fanout import FanoutOptions, fan_out
    from bot.delivery.jobs import DeliveryJobs, JobOptions
    from bot.platforms.slack_app import SlackMessenger, build_client
    from bot.platforms.slack_oauth import SlackTeamsMessenger, open_stores, store_team_of
    from bot.store.store import Store

    tmp = Path(tempfile.mkdtemp(prefix="bench-workspaces-w-"))
    settings = _settings(tmp)
    store = Store.open(job["store_url"])
    service = DigestService(store, settings, build_processes=0)
    api_url = job["base_url"] + "/api/"
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=job["concurrency"]))
    messenger: SlackMessenger
    teams: SlackTeamsMessenger | None = None
    if job["mode"] == "teams":
        installations, _ = open_stores(store.engine, CLIENT_ID, job["key"])
        teams = SlackTeamsMessenger(installations, store_team_of(service), api_url=api_url, session=session)
        messenger = teams
    else:
        client = build_client(token(0), api_url)
        client.session = session
        messenger = SlackMessenger(client)
    options = JobOptions(fanout=FanoutOptions(concurrency=job["concurrency"], progress_seconds=60.0))
    jobs = DeliveryJobs(service, {"slack": messenger}, clock=lambda: END + timedelta(seconds=30), options=options)
    channels = await asyncio.to_thread(service.channels)

    cpu, started = time.process_time(), time.monotonic()
    posted = await fan_out(channels, lambda c: jobs.post_channel("slack", c.channel_id), options=options.fanout,
                           label="channel posts")
    channel_seconds = time.monotonic() - started
    dms = await jobs.send_slot(POST_TIME, TIMEZONE)
    elapsed, cpu = time.monotonic() - started, time.process_time() - cpu

    resolve_ms = None
    if teams is not None:  # the workspace + token look-up alone, for every target once (warm)
        targets = [(c.channel_id, False) for c in channels[:500]]
        began = time.monotonic()
        for target, dm in targets:
            await teams.messenger_for(target, dm=dm)
        resolve_ms = (time.monotonic() - began) * 1000 / max(1, len(targets))
    await session.close()
    service.close()
    store.close()
    shutil.rmtree(tmp, ignore_errors=True)
    return {"mode": job["mode"], "elapsed": elapsed, "channel_seconds": channel_seconds, "cpu": cpu,
            "posted": posted.line(), "dms": dms.line(), "sent": posted.sent + dms.sent, "dm_sent": dms.sent,
            "busy": posted.busy + dms.busy, "resolve_ms": resolve_ms, "rss": peak_rss_bytes()}


def _worker_main(raw: str) -> None:
    from bench.common import report_result

    logging.basicConfig(level=logging.WARNING)
    report_result(asyncio.run(_work(json.loads(raw))))


# --- the parent ---


def _run_workers(jobs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    from bench.common import run_worker

    with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
        return list(pool.map(lambda job: run_worker("bench.bench_workspaces", job), jobs))


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        _worker_main(sys.argv[2])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workspaces", type=int, default=20)
    parser.add_argument("--channels", type=int, default=25, help="channels with a daily post per workspace")
    parser.add_argument("--subscribers", type=int, default=2000, help="daily DMs, spread over the workspaces")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--workers", type=int, default=1, help="worker processes claiming through the ledger")
    parser.add_argument("--postgres", metavar="URL", help="store and ledger on PostgreSQL (a fresh schema)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)

    from cryptography.fernet import Fernet

    from bench.common import print_machine, scratch_store

    print_machine({"bench": "bench_workspaces", "workspaces": str(args.workspaces),
                   "channels per workspace": str(args.channels), "subscribers": str(args.subscribers)})
    key = Fernet.generate_key().decode()
    summary: dict[str, Any] = {"store": "postgresql" if args.postgres else "sqlite"}
    with scratch_store(args.postgres, "bench-workspaces-") as (store_url, _tmp):
        _prepare(store_url, args, key)
        with FakeProcess() as fake:
            base = {"store_url": store_url, "base_url": fake.base_url, "key": key, "concurrency": args.concurrency}
            for mode, workers in (("teams", args.workers), ("single", 1)):
                _reset_ledger(store_url)
                fake.ask("reset")
                runs = _run_workers([{**base, "mode": mode} for _ in range(workers)])
                counts = fake.ask("counts")
                summary[mode] = _figures(args, runs, counts, workers)
    teams, single = summary["teams"], summary["single"]
    summary["per-workspace tokens vs one token, elapsed ratio (same deliveries)"] = round(
        teams["elapsed s (slowest worker)"] / single["elapsed s (slowest worker)"], 3) if args.workers == 1 else "n/a"
    summary["per-workspace tokens vs one token, CPU ratio"] = round(
        teams["CPU s per 1,000 deliveries"] / single["CPU s per 1,000 deliveries"], 3)
    print(json.dumps(summary, indent=2))
    checks = [("lost == 0", teams["lost"] == 0), ("duplicated == 0", teams["duplicated"] == 0),
              ("wrong token == 0", teams["wrong token"] == 0)]
    print("  ".join(f"{name}: {'PASS' if ok else 'MISS'}" for name, ok in checks))


def _figures(args: argparse.Namespace, runs: list[dict[str, Any]], counts: dict[str, Any],
             workers: int) -> dict[str, Any]:
    deliveries = args.workspaces * args.channels + args.subscribers
    per_target = counts["per_target"]
    channels = [channel_id(t, m) for t in range(args.workspaces) for m in range(args.channels)]
    missing_channels = sum(1 for c in channels if not per_target.get(c))
    dm_targets = {target for target in per_target if target.startswith("D")}
    lost_dms = max(0, sum(run["dm_sent"] for run in runs) - len(dm_targets))
    sent = sum(run["sent"] for run in runs)
    elapsed = max(run["elapsed"] for run in runs)
    cpu = sum(run["cpu"] for run in runs)
    return {
        "workers": workers,
        "deliveries due": deliveries,
        "deliveries sent (ledger)": sent,
        "claimed by another worker (busy)": sum(run["busy"] for run in runs),
        "sent per worker": [run["sent"] for run in runs],
        "messages accepted by the fake": counts["accepted"],
        "channels never posted": missing_channels,
        "DM targets reached": len(dm_targets),  # subscribers whose search found nothing get no DM (skipped)
        "lost": missing_channels + lost_dms,
        "duplicated": counts["duplicates"],
        "wrong token": counts["wrong_token"] if runs[0]["mode"] == "teams" else "n/a (one token)",
        "elapsed s (slowest worker)": round(elapsed, 2),
        "channel posts s": round(max(run["channel_seconds"] for run in runs), 2),
        "deliveries/s": round(sent / elapsed, 1),
        "messages/s": round(counts["accepted"] / elapsed, 1),
        "CPU s per 1,000 deliveries": round(cpu * 1000 / max(1, sent), 2),
        "workspace + token look-up ms (alone)": (round(runs[0]["resolve_ms"], 3)
                                                 if runs[0]["resolve_ms"] is not None else "n/a"),
        "peak RSS MiB (per worker)": [round(run["rss"] / 2**20, 1) for run in runs],
        "outcomes": [run["posted"] + " | " + run["dms"] for run in runs],
    }


if __name__ == "__main__":
    threading.excepthook = lambda args: None
    main()
