"""Slash command request-to-ack latency of the real Slack app, side by side with a bolt app that only acks.

Both apps run in this process behind aiohttp on 127.0.0.1 and get the same signed, form-encoded `/digest`
requests, interleaved. Ours answers from a store of >= 100,000 items (the query bench's store) and posts its
answer to a fake response_url; we also time until that answer arrives. Target: p99 ack ours / floor <= 1.5.

    python -m bench.bench_slack_ack [--runs 200] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import threading
import time
import uuid
from typing import Any
from urllib.parse import urlencode

import aiohttp
from aiohttp import web
from slack_bolt.async_app import AsyncApp
from slack_sdk.signature import SignatureVerifier

from bench.bench_query import FULL, QUICK
from bench.common import (
    REPO,
    bench_settings,
    cached_store,
    ms,
    percentile,
    print_machine,
    print_table,
    ratio,
    sqlite_url,
    verdict,
)
from bot.app.service import DigestService
from bot.platforms.slack_app import build_app, build_client, default_deps, slack_routes
from bot.platforms.web import web_app
from bot.store.chat import ChannelSettings, ChatState
from bot.store.store import Store
from tests.fakes.slack_api import FakeSlack

SECRET = "bench-signing-secret"
TARGET = 1.5
TEXTS = ("rocm 30d", "qwen hangs 7d", "", "label:bug 3d", "help")


def signed(text: str, response_url: str, trigger: str) -> tuple[str, dict[str, str]]:
    body = urlencode({"team_id": "T1", "channel_id": "C1", "user_id": "U1", "command": "/digest", "text": text,
                      "response_url": response_url, "trigger_id": trigger, "api_app_id": "A1"})
    timestamp = str(int(time.time()))
    return body, {"Content-Type": "application/x-www-form-urlencoded", "X-Slack-Request-Timestamp": timestamp,
                  "X-Slack-Signature": SignatureVerifier(SECRET).generate_signature(timestamp=timestamp, body=body)}


async def start(app: web.Application) -> tuple[web.AppRunner, str]:
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    return runner, f"http://127.0.0.1:{port}/slack/events"


async def measure(runs: int, store: Store, fake: FakeSlack) -> dict[str, list[float]]:
    settings = bench_settings()
    ours, _ = build_app(default_deps(DigestService(store, settings)), token="xoxb-bench", signing_secret=SECRET,
                        api_url=fake.base_url + "/api/")
    floor = AsyncApp(client=build_client("xoxb-bench", fake.base_url + "/api/"), signing_secret=SECRET)

    @floor.command("/digest")
    async def only_ack(ack: Any) -> None:
        await ack()

    async def health() -> dict[str, Any]:
        return {"ok": True}

    runner_ours, url_ours = await start(web_app(slack_routes(ours), health))
    runner_floor, url_floor = await start(web_app(slack_routes(floor), health))
    times: dict[str, list[float]] = {"ack ours": [], "ack floor": [], "answer ours": []}
    arrived: dict[str, float] = {}
    run_id = uuid.uuid4().hex
    lock = threading.Lock()
    original = fake._answer

    def stamp(call: Any) -> Any:  # when each response_url post arrives at the fake
        with lock:
            arrived.setdefault(call.method, time.perf_counter())
        return original(call)

    fake._answer = stamp  # type: ignore[method-assign]
    try:
        async with aiohttp.ClientSession() as session:
            for n in range(runs):
                text = TEXTS[n % len(TEXTS)]
                for name, url in (("ours", url_ours), ("floor", url_floor)):
                    # Trigger ids are unique per run: the store remembers handled ones across runs.
                    body, headers = signed(text, fake.response_url(f"{name}{n}"), f"{name}-{n}-{run_id}")
                    began = time.perf_counter()
                    async with session.post(url, data=body, headers=headers) as response:
                        await response.read()
                        assert response.status == 200, response.status
                    times[f"ack {name}"].append(time.perf_counter() - began)
                    if name == "ours":
                        key = f"response:ours{n}"
                        await fake.until(lambda calls, key=key: any(c.method == key for c in calls), 30)
                        times["answer ours"].append(arrived[key] - began)
    finally:
        await runner_ours.cleanup()
        await runner_floor.cleanup()
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    spec = QUICK if args.quick else FULL
    runs = 20 if args.quick else args.runs
    print_machine()
    path = cached_store(spec)
    fake = FakeSlack()
    with Store.open(sqlite_url(path)) as store, fake.serve():
        n_items, _ = store.counts(REPO)
        ChatState(store).save_channel(ChannelSettings("slack", "C1", repo=REPO))
        print(f"store: {n_items:,} items; {runs} interleaved requests to each app; texts {TEXTS}")
        times = asyncio.run(measure(runs, store, fake))
    rows = [[name, ms(percentile(values, 50)), ms(percentile(values, 99))] for name, values in times.items()]
    print_table(["", "p50", "p99"], rows)
    value = ratio(percentile(times["ack ours"], 99), percentile(times["ack floor"], 99))
    print(f"p99 ack ratio ours / ack-only app: {value:.2f}x -> {verdict(value, TARGET)}")
    print(f"slowest ack: {ms(max(times['ack ours']))} (Slack's limit is 3,000 ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
