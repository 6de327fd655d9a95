"""Daily-DM fan-out at scale: 10,000 subscribers through a fake Slack that enforces rate limits with 429s.

    python -m bench.bench_fanout                       # 10,000 DMs, workspace limit 100/s, 1/s per channel
    python -m bench.bench_fanout --subscribers 2000 --workspace-rate 200
    python -m bench.bench_fanout --pace                # pace sends at 0.98 x the limit instead of leaning on 429s
    python -m bench.bench_fanout --shared-session      # one aiohttp session for the slack_sdk client
    python -m bench.bench_fanout --trace-memory        # tracemalloc peak (slows the run ~3x: ignore its rate)
    python -m bench.bench_fanout --postgres postgresql+psycopg://postgres@127.0.0.1:5432/test

Time is scaled down: Slack does not publish chat.postMessage's workspace limit ("short bursts tolerated"), so
the fake enforces ``--workspace-rate`` messages/s (token bucket, one second's burst) and 1 message/s per
channel (burst ``--channel-burst``), answering 429 with ``Retry-After`` (whole seconds, as Slack does) when a
bucket is empty. The fake Slack runs in a child process, so the bot's CPU and memory figures are its own.

The bot side is the real thing, as shipped by default: ``DeliveryJobs.send_slot`` (ledger on SQLite or
PostgreSQL, the real ``Commands`` building the answers from a small store, ``SlackMessenger`` +
``SlackMessenger.deliver`` over ``build_client``'s ``AsyncWebClient`` with its 429/5xx retry handlers, no pacing).

Figures: delivered messages/s as a fraction of what the limits allow (target >= 0.9), lost and duplicated
messages (target 0), 429s answered, peak memory (tracemalloc with ``--trace-memory``; ru_maxrss always), and
the machine. The limit must be below what the bot can push on the machine, or the figure measures the CPU.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import logging
import math
import multiprocessing as mp
import shutil
import threading
import time
import tracemalloc
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tests.fakes.slack_api import Call, FakeSlack

ROOT = Path(__file__).resolve().parent.parent
# 03:05 UTC is 11:05 in Asia/Shanghai.
END = datetime(2025, 6, 2, 3, 5, tzinfo=UTC)
POST_TIME, TIMEZONE = "11:05", "Asia/Shanghai"
QUERIES = ("", "rocm", "label:bug", "is:pr", "cuda", "rocm is:pr", "author:alice", "label:bug is:issue")


class RateLimitedSlack(FakeSlack):
    """``FakeSlack`` that enforces chat.postMessage limits like Slack: per channel and per workspace.

    Token buckets: ``channel_rate``/s per channel (burst ``channel_burst``) and ``workspace_rate``/s overall
    (burst ``workspace_burst``, default one second's worth). An empty bucket answers 429 with
    ``Retry-After`` (``retry_after`` if given, else the wait rounded up to whole seconds, as Slack does).
    ``keep_blocks=False`` drops block payloads from the recorded calls (memory, for big runs)."""

    def __init__(self, *, channel_rate: float | None = None, channel_burst: float = 1.0,
                 workspace_rate: float | None = None, workspace_burst: float | None = None,
                 retry_after: int | None = None, keep_blocks: bool = True) -> None:
        super().__init__()
        self.channel_rate = channel_rate
        self.channel_burst = channel_burst
        self.workspace_rate = workspace_rate
        self.workspace_burst = workspace_burst if workspace_burst is not None else (workspace_rate or 1.0)
        self.retry_after = retry_after
        self.keep_blocks = keep_blocks
        self.limited = 0
        self._channels: dict[str, list[float]] = {}
        self._workspace = [self.workspace_burst, time.monotonic()]

    def _answer(self, call: Call) -> tuple[int, dict[str, Any], dict[str, str]]:
        blocks = call.data.get("blocks")
        call.data["part"] = hashlib.sha1(json.dumps(blocks, sort_keys=True).encode()).hexdigest()[:16]
        if not self.keep_blocks:
            call.data.pop("blocks", None)
        if call.method == "chat.postMessage":
            with self._cond:
                now = time.monotonic()
                wait = 0.0
                buckets: list[tuple[list[float], float, float]] = []
                if self.workspace_rate:
                    buckets.append((self._workspace, self.workspace_rate, self.workspace_burst))
                if self.channel_rate:
                    channel = str(call.data.get("channel"))
                    bucket = self._channels.setdefault(channel, [self.channel_burst, now])
                    buckets.append((bucket, self.channel_rate, self.channel_burst))
                for bucket, rate, burst in buckets:
                    bucket[0] = min(burst, bucket[0] + (now - bucket[1]) * rate)
                    bucket[1] = now
                    if bucket[0] < 1:
                        wait = max(wait, (1 - bucket[0]) / rate)
                if wait > 0:
                    self.limited += 1
                    after = self.retry_after if self.retry_after is not None else math.ceil(wait)
                    return 429, {"ok": False, "error": "ratelimited"}, {"Retry-After": str(after)}
                for bucket, _, _ in buckets:
                    bucket[0] -= 1
        return super()._answer(call)

    def delivery_counts(self) -> dict[str, Any]:
        """Accepted messages per DM: unique (channel, thread, text) and repeats of the same one."""
        with self._cond:
            accepted = [c for c in self.calls if c.method == "chat.postMessage" and c.status == 200]
        seen = Counter((str(c.data.get("channel")), str(c.data.get("thread_ts") or ""), str(c.data.get("part")))
                       for c in accepted)
        per_channel = Counter(channel for channel, _, _ in seen)
        return {
            "accepted": len(accepted),
            "unique": len(seen),
            "duplicates": sum(n - 1 for n in seen.values()),
            "per_channel": dict(per_channel),
            "limited": self.limited,
        }


# --- the fake in a child process ---


def _serve(conn: Any, options: dict[str, Any]) -> None:
    from http.server import ThreadingHTTPServer

    # socketserver's listen backlog is 5: a client opening a connection per request (slack_sdk without a
    # session) at 64 at once would see refused connects and 1 s SYN retries. Slack's servers have no such
    # limit. (Only in this child process.)
    ThreadingHTTPServer.request_queue_size = 1024
    fake = RateLimitedSlack(**options)
    with fake.serve() as base_url:
        conn.send(base_url)
        while True:
            message = conn.recv()
            if message == "counts":
                conn.send(fake.delivery_counts())
            elif message == "reset":
                with fake._cond:
                    fake.calls.clear()
                    fake.limited = 0
                conn.send("ok")
            else:
                break


class FakeSlackProcess:
    def __init__(self, **options: Any) -> None:
        self._parent, child = mp.Pipe()
        self._process = mp.get_context("spawn").Process(target=_serve, args=(child, options), daemon=True)

    def __enter__(self) -> str:
        self._process.start()
        return str(self._parent.recv())

    def counts(self) -> dict[str, Any]:
        self._parent.send("counts")
        return self._parent.recv()  # type: ignore[no-any-return]

    def __exit__(self, *exc: object) -> None:
        self._parent.send("stop")
        self._process.join(timeout=10)


# --- the bot side ---


def _settings(tmp: Path) -> Any:
    from bot.settings import load_settings

    shutil.copy(ROOT / "config" / "topics.toml", tmp)
    (tmp / "digest.toml").write_text('[[repos]]\nname = "o/r"\n')
    return load_settings(tmp, env={})


def _fill(store: Any, subscribers: int) -> None:
    from sqlalchemy import insert

    from bot.github.payloads import item_from_payload
    from bot.store import schema
    from tests.factories import issue_payload

    items = [issue_payload(n, END - timedelta(hours=n % 23 + 0.5), title=f"[Bugfix][ROCm] fix MI300X case {n}",
                           pr=n % 2 == 0, merged=END - timedelta(hours=n % 20 + 0.2) if n % 4 == 0 else None,
                           labels=("bug",) if n % 3 == 0 else ()) for n in range(1, 40)]
    store.save_page([item_from_payload("o/r", p, lambda login: False) for p in items])
    for resource in ("issues", "comments"):
        store.complete_listing("o/r", resource, END, [], synced_from=END - timedelta(days=30))
    rows = [dict(platform="slack", user_id=f"U{n:06d}", query=QUERIES[n % len(QUERIES)], repo="o/r",
                 post_time=POST_TIME, timezone=TIMEZONE, locale="en", paused=None, notice_pending=False,
                 created_at=END - timedelta(days=1)) for n in range(subscribers)]
    with store.engine.begin() as conn:
        for start in range(0, len(rows), 2000):
            conn.execute(insert(schema.subscriptions), rows[start:start + 2000])


async def _run(args: argparse.Namespace, base_url: str, store_url: str, tmp: Path) -> dict[str, Any]:
    import aiohttp

    from bot.app.context import ChannelContext
    from bot.app.service import DigestService
    from bot.delivery.fanout import Backoff, FanoutOptions, RatePacer
    from bot.delivery.jobs import DeliveryJobs, JobOptions, dm_text
    from bot.model import QueryResult
    from bot.platforms.slack_app import SlackMessenger, build_client
    from bot.store.store import Store

    settings = _settings(tmp)
    store = Store.open(store_url)
    _fill(store, args.subscribers)
    client = build_client("xoxb-bench", base_url + "/api/")
    session = None
    if args.shared_session:  # one connection pool instead of a new aiohttp session per request
        session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=args.concurrency))
        client.session = session
    messenger = SlackMessenger(client)
    pacers = None
    if args.pace:
        pacers = {"slack": RatePacer(args.workspace_rate * args.pace_fraction, burst=args.workspace_rate / 4).wait}
    service = DigestService(store, settings)
    jobs = DeliveryJobs(
        service, {"slack": messenger}, clock=lambda: END + timedelta(seconds=30), pacers=pacers,
        options=JobOptions(fanout=FanoutOptions(concurrency=args.concurrency, progress_seconds=10.0),
                           retry=Backoff(attempts=6, base=0.5, cap=8.0)),
    )
    if args.trace_memory:
        tracemalloc.start()
    started = time.monotonic()
    result = await jobs.send_slot(POST_TIME, TIMEZONE)
    elapsed = time.monotonic() - started
    traced_peak = tracemalloc.get_traced_memory()[1] if args.trace_memory else 0
    tracemalloc.stop()
    if session is not None:
        await session.close()
    # What every subscriber should have got: the parts of the answer to their query (none when it is empty).
    renderer = messenger
    channel = ChannelContext(repo="o/r", post_time=POST_TIME, timezone=TIMEZONE, locale="en")
    parts_by_query: dict[str, int] = {}
    for query in QUERIES:
        answer = service.answer_now(channel, dm_text(query), now=END)
        empty = isinstance(answer, QueryResult) and not answer.items
        parts_by_query[query] = 0 if empty else len(renderer.render(answer, locale="en", timezone=TIMEZONE))
    expected = {f"DU{n:06d}": parts_by_query[QUERIES[n % len(QUERIES)]] for n in range(args.subscribers)}
    service.close()
    store.close()
    return {"result": result.line(), "elapsed": elapsed, "traced_peak": traced_peak, "expected": expected,
            "parts_by_query": parts_by_query}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--subscribers", type=int, default=10_000)
    parser.add_argument("--workspace-rate", type=float, default=100.0, help="fake workspace limit, messages/s")
    parser.add_argument("--channel-rate", type=float, default=1.0, help="fake per-channel limit, messages/s")
    parser.add_argument("--channel-burst", type=float, default=3.0)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--pace", action="store_true",
                        help="client-side pacing (RatePacer) at --pace-fraction of the workspace limit")
    parser.add_argument("--pace-fraction", type=float, default=0.98,
                        help="pace at this fraction of the workspace limit")
    parser.add_argument("--shared-session", action="store_true",
                        help="give the slack_sdk client one aiohttp session (build_client makes one per request)")
    parser.add_argument("--postgres", metavar="URL", help="ledger and store on PostgreSQL (a fresh schema)")
    parser.add_argument("--trace-memory", action="store_true", help="tracemalloc during the run (slows it)")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING if args.quiet else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("slack_sdk").setLevel(logging.WARNING)

    from bench.common import print_machine, ru_maxrss_bytes, scratch_store

    print_machine({"bench": "bench_fanout", "subscribers": str(args.subscribers)})
    fake = FakeSlackProcess(channel_rate=args.channel_rate, channel_burst=args.channel_burst,
                            workspace_rate=args.workspace_rate, keep_blocks=False)
    with scratch_store(args.postgres, "bench-fanout-") as (store_url, tmp), fake as base_url:
        run = asyncio.run(_run(args, base_url, store_url, tmp))
        counts = fake.counts()
    expected = run["expected"]
    per_channel = counts["per_channel"]
    lost = sum(max(0, n - per_channel.get(channel, 0)) for channel, n in expected.items())
    extra = sum(max(0, per_channel.get(channel, 0) - n) for channel, n in expected.items())
    delivered = counts["accepted"]
    rate = delivered / run["elapsed"]
    # What the limits allow: the workspace rate, unless the per-channel limits bind first (they do not here:
    # every DM has its own channel and at most a few parts).
    allowed = args.workspace_rate
    summary = {
        "ledger": "postgresql" if args.postgres else "sqlite",
        "subscribers": args.subscribers,
        "messages expected": sum(expected.values()),
        "messages delivered (accepted by the fake)": delivered,
        "elapsed s": round(run["elapsed"], 2),
        "delivered msg/s": round(rate, 1),
        "allowed msg/s (workspace limit)": allowed,
        "fraction of the limit": round(rate / allowed, 3),
        "lost": lost,
        "duplicated": counts["duplicates"] + extra,
        "429s answered by the fake": counts["limited"],
        "outcome": run["result"],
        "parts per query": run["parts_by_query"],
        "tracemalloc peak MiB (bot process, during the fan-out)":
            round(run["traced_peak"] / 2**20, 1) if args.trace_memory else "not traced (use --trace-memory)",
        "ru_maxrss MiB (bot process)": round(ru_maxrss_bytes() / 2**20, 1),
        "client pacing": f"{args.pace_fraction:.2f} x workspace limit" if args.pace else "none (429s only)",
        "concurrency": args.concurrency,
        "http session": "shared" if args.shared_session else "one per request (build_client as shipped)",
    }
    print(json.dumps(summary, indent=2))
    verdicts = [("fraction >= 0.9", rate / allowed >= 0.9), ("lost == 0", lost == 0),
                ("duplicated == 0", summary["duplicated"] == 0)]
    print("  ".join(f"{name}: {'PASS' if ok else 'MISS'}" for name, ok in verdicts))


if __name__ == "__main__":
    threading.excepthook = lambda args: None  # the fake's handler threads may see the client hang up at exit
    main()
