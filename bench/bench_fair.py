"""Fair use under a burst of heavy requests: do acks, light commands and /healthz stay as fast as when idle?

The real Slack app (bolt) and the real /healthz run behind aiohttp on 127.0.0.1 over a store shaped like the
issue's (366 days of vLLM-like activity, ~14k items). A probe is one `/digest help` (its ack, and the time
until its answer reaches a fake response_url) followed by one GET /healthz. The idle run probes an app with
nothing else to do; each load run first fires 40 heavy requests at once — `/digest since 1970-01-01` (a
year-long digest, ~2.5 s of CPU) and `/digest label:bug 366d` (~1 s) alternating — and probes while any of
them is unanswered. Two loads: "one user" (all 40 from one person in one channel: the issue's case) and
"crowd" (40 people in 8 channels: all admitted, the build pool queues them). Targets: p99 under load / p99
idle <= 1.5 for probe acks, light answers and /healthz.

    python -m bench.bench_fair [--quick] [--heavy 40] [--idle-probes 150] [--max-probes 200] [--rounds 3]
        [--build-threads N] [--build-processes N]

Each load runs ``--rounds`` bursts, each from people and channels not seen before, and pools their probes: with
one burst, p99 was the slowest of 20-40 probes and swung 2x between identical runs.

The bot runs in a process of its own (as deployed: the web process, plus its build worker processes), and
the load generator, the probes and the fake Slack run in this one, so a probe's latency is the bot's and not the
bench's own GIL contention (earlier versions ran all three in one process: there, the fake answering the burst's
40 response_url posts delayed the probes). Peak RSS is the bot process's VmHWM, read before the first heavy
request and at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import threading
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import aiohttp
from slack_sdk.signature import SignatureVerifier

from bench.bench_query import QUICK
from bench.bench_slack_ack import SECRET, start
from bench.common import (
    REPO,
    SampleSpec,
    bench_settings,
    cached_store,
    mib,
    ms,
    peak_rss_bytes,
    percentile,
    print_machine,
    print_table,
    ratio,
    sqlite_url,
    verdict,
)
from bot.app.service import DigestService
from bot.platforms.slack_app import build_app, default_deps, slack_routes
from bot.platforms.web import store_health, web_app
from bot.store.chat import ChannelSettings, ChatState
from bot.store.store import Store
from tests.fakes.slack_api import Call, FakeSlack

FULL = SampleSpec(days=366, items_per_day=35, comments_per_day=150)  # ~14k items, ~59k comments
HEAVY = ("since 1970-01-01", "label:bug 366d")
LIGHT = "help"
TARGET = 1.5
BUSY_WORDS = "try again in"  # how the English busy notice ends; only to count refusals
HEAVY_TIMEOUT = 600.0  # bound on waiting for every heavy answer of one load


def signed_as(text: str, response_url: str, trigger: str, user: str, channel: str) -> tuple[str, dict[str, str]]:
    """A signed /digest from ``user`` in ``channel`` (bench_slack_ack's ``signed`` is always U1 in C1)."""
    body = urlencode({"team_id": "T1", "channel_id": channel, "user_id": user, "command": "/digest", "text": text,
                      "response_url": response_url, "trigger_id": trigger, "api_app_id": "A1"})
    timestamp = str(int(time.time()))
    return body, {"Content-Type": "application/x-www-form-urlencoded", "X-Slack-Request-Timestamp": timestamp,
                  "X-Slack-Signature": SignatureVerifier(SECRET).generate_signature(timestamp=timestamp, body=body)}


@dataclass
class Run:
    name: str
    probe_ack: list[float] = field(default_factory=list)
    light: list[float] = field(default_factory=list)
    health: list[float] = field(default_factory=list)
    burst_ack: list[float] = field(default_factory=list)
    answered: int = 0
    busy: int = 0
    load_seconds: float = 0.0
    ack_after: list[tuple[float, int]] = field(default_factory=list)  # (ack, its probe's index after the burst)

    def add(self, other: Run) -> Run:
        """Pool another round of the same load into this one (figures per round are summed, times pooled)."""
        for name in ("probe_ack", "light", "health", "burst_ack", "ack_after"):
            getattr(self, name).extend(getattr(other, name))
        self.answered += other.answered
        self.busy += other.busy
        self.load_seconds += other.load_seconds
        return self


class Arrivals:
    """When the first response_url post for each name reached the fake, and whether it was a busy notice."""

    def __init__(self, fake: FakeSlack) -> None:
        self.times: dict[str, float] = {}
        self.texts: dict[str, str] = {}
        self._lock = threading.Lock()
        original = fake._answer

        def stamp(call: Call) -> Any:
            with self._lock:
                if call.method not in self.times:
                    self.times[call.method] = time.perf_counter()
                    self.texts[call.method] = str(call.data.get("text", ""))
            return original(call)

        fake._answer = stamp  # type: ignore[method-assign]

    def ack(self, name: str, when: float, text: str) -> None:
        with self._lock:
            self.times.setdefault(name, when)
            self.texts.setdefault(name, text)


class Bench:
    def __init__(self, fake: FakeSlack, url: str, health_url: str, session: aiohttp.ClientSession) -> None:
        self.fake = fake
        self.url = url
        self.health_url = health_url
        self.session = session
        self.arrivals = Arrivals(fake)
        self.run_id = uuid.uuid4().hex
        self.n = 0

    async def command(self, text: str, user: str, channel: str) -> tuple[str, float, float]:
        """POST a signed /digest; returns the response name, when it was sent and how long the ack took."""
        self.n += 1
        name = f"r{self.n}"
        body, headers = signed_as(text, self.fake.response_url(name), f"t{self.n}-{self.run_id}", user, channel)
        began = time.perf_counter()
        async with self.session.post(self.url, data=body, headers=headers) as response:
            acked = await response.read()
            assert response.status == 200, response.status
        done = time.perf_counter()
        if acked:  # the answer came with the ack (a fair-use refusal): nothing will reach the response_url
            self.arrivals.ack(f"response:{name}", done, acked.decode(errors="replace"))
        return f"response:{name}", began, done - began

    async def answered(self, names: Sequence[str], timeout: float) -> None:  # noqa: ASYNC109
        await self.fake.until(lambda calls: all(name in self.arrivals.times for name in names), timeout)

    async def probe(self, run: Run) -> None:
        name, began, ack = await self.command(LIGHT, "UPROBE", "CPROBE")
        run.ack_after.append((ack, len(run.probe_ack)))
        run.probe_ack.append(ack)
        await self.answered([name], 60)
        run.light.append(self.arrivals.times[name] - began)
        began = time.perf_counter()
        async with self.session.get(self.health_url) as response:
            await response.read()
            assert response.status == 200, response.status
        run.health.append(time.perf_counter() - began)

    async def idle(self, probes: int) -> Run:
        run = Run("idle")
        for _ in range(probes):
            await self.probe(run)
        return run

    async def load(self, name: str, heavy: int, people: Sequence[tuple[str, str]], max_probes: int) -> Run:
        run = Run(name)
        began = time.perf_counter()
        sent = await asyncio.gather(*(self.command(HEAVY[k % len(HEAVY)], *people[k % len(people)])
                                      for k in range(heavy)))
        run.burst_ack = [ack for _, _, ack in sent]
        names = [response for response, _, _ in sent]
        while len(run.light) < max_probes and not all(n in self.arrivals.times for n in names):
            await self.probe(run)
        await self.answered(names, HEAVY_TIMEOUT)
        run.load_seconds = time.perf_counter() - began
        run.busy = sum(BUSY_WORDS in self.arrivals.texts[n] for n in names)
        run.answered = len(names) - run.busy
        return run


def serve_bot(db_url: str, slack_api: str, build_threads: int | None, build_processes: int | None,
              conn: Connection) -> None:
    """The bot under test, in its own process: the real bolt app and /healthz on 127.0.0.1. Sends its URL,
    then answers "rss" with its peak RSS until told "stop"."""

    async def main() -> None:
        with Store.open(db_url) as store:
            service = DigestService(store, bench_settings(), build_threads=build_threads,
                                    build_processes=build_processes)
            app, _ = build_app(default_deps(service), token="xoxb-bench", signing_secret=SECRET, api_url=slack_api)
            runner, url = await start(web_app(slack_routes(app), store_health(store)))
            try:
                conn.send(url)
                loop = asyncio.get_running_loop()
                while (message := await loop.run_in_executor(None, conn.recv)) != "stop":
                    conn.send(peak_rss_bytes() if message == "rss" else None)
            finally:
                await runner.cleanup()
                service.close()

    asyncio.run(main())


async def measure(url: str, fake: FakeSlack, args: argparse.Namespace, conn: Connection) -> tuple[list[Run], int, int]:
    health_url = url.replace("/slack/events", "/healthz")

    def bot_rss() -> int:
        conn.send("rss")
        return int(conn.recv())

    async with aiohttp.ClientSession() as session:
        bench = Bench(fake, url, health_url, session)
        await bench.idle(5)  # warm up: templates, connections, the taxonomy
        warm, _, _ = await bench.command(HEAVY[1], "UWARM", "CWARM")  # and the build pool (worker processes)
        await bench.answered([warm], HEAVY_TIMEOUT)
        idle = await bench.idle(args.idle_probes)
        before = bot_rss()
        one_user, crowd = Run("one user"), Run("crowd")
        # Each round is a fresh burst from people and channels not seen before (the per-minute limits would
        # otherwise turn round 2 into a different load); probes pool over rounds, so p99 is not one probe.
        for round_ in range(args.rounds):
            one_user.add(await bench.load("one user", args.heavy, [(f"U1r{round_}", f"C1r{round_}")],
                                          args.max_probes))
            crowd.add(await bench.load("crowd", args.heavy, [(f"U{100 + k}r{round_}", f"C{10 + k % 8}r{round_}")
                                                             for k in range(args.heavy)], args.max_probes))
        return [idle, one_user, crowd], before, bot_rss()


def report(runs: list[Run], before: int, peak: int) -> None:
    idle = runs[0]
    rows = []
    for run in runs:
        rows.append([run.name, len(run.light), ms(percentile(run.probe_ack, 50)), ms(percentile(run.probe_ack, 99)),
                     ms(percentile(run.light, 50)), ms(percentile(run.light, 99)), ms(percentile(run.health, 99)),
                     ms(max(run.burst_ack)) if run.burst_ack else "-",
                     f"{run.answered}/{run.busy}" if run.burst_ack else "-",
                     f"{run.load_seconds:.1f} s" if run.burst_ack else "-"])
    print_table(["run", "probes", "ack p50", "ack p99", "help p50", "help p99", "/healthz p99",
                 "burst: slowest ack", "heavy answered/busy", "load lasted"], rows)
    for run in runs[1:]:
        for label, ours, floor in (("ack", run.probe_ack, idle.probe_ack), ("help answer", run.light, idle.light),
                                   ("/healthz", run.health, idle.health)):
            value = ratio(percentile(ours, 99), percentile(floor, 99))
            print(f"{run.name}: p99 {label} under load / idle: {value:.2f}x -> {verdict(value, TARGET)}")
    for run in runs[1:]:
        slowest = sorted(run.ack_after, reverse=True)[:5]
        print(f"{run.name}: slowest probe acks (probe k after its burst): "
              + ", ".join(f"{ms(ack)} (k={k})" for ack, k in slowest))
    print(f"bot process peak RSS: {mib(before)} before the first heavy request, {mib(peak)} at the end")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the small query-bench store, fewer probes")
    parser.add_argument("--heavy", type=int, default=40, help="heavy requests per load run")
    # As many idle probes as a load's pooled ones, about: a p99 of 20 samples and one of 120 are not alike.
    parser.add_argument("--idle-probes", type=int, default=150)
    parser.add_argument("--max-probes", type=int, default=200, help="probes per load run at most")
    parser.add_argument("--rounds", type=int, default=3, help="bursts per load, probes pooled (default 3)")
    parser.add_argument("--build-threads", type=int, default=None, help="default: [chat] build_threads")
    parser.add_argument("--build-processes", type=int, default=None,
                        help="default: [chat] build_processes (0: chat answers built and rendered in threads)")
    args = parser.parse_args(argv)
    if args.quick:
        args.idle_probes, args.max_probes = 120, 40
    spec = QUICK if args.quick else FULL
    settings = bench_settings().file.chat
    threads = args.build_threads or settings.build_threads
    processes = settings.build_processes if args.build_processes is None else args.build_processes
    print_machine({"fair-use limits": f"build_threads {threads}, build_processes {processes}, per user "
                   f"{settings.heavy_in_flight_per_user} in flight / {settings.heavy_per_minute_per_user} a minute, "
                   f"per channel {settings.heavy_in_flight_per_channel} / {settings.heavy_per_minute_per_channel}"})
    path: Path = cached_store(spec)
    fake = FakeSlack()
    with Store.open(sqlite_url(path)) as store:
        n_items, n_comments = store.counts(REPO)
        ChatState(store).save_channel(ChannelSettings("slack", "C1", repo=REPO))
    print(f"store: {n_items:,} items, {n_comments:,} comments; {args.heavy} heavy requests per load "
          f"({' | '.join(HEAVY)}), probes: `/digest {LIGHT}` + GET /healthz; the bot in its own process")
    with fake.serve():
        ours, theirs = multiprocessing.get_context("spawn").Pipe()
        bot = multiprocessing.get_context("spawn").Process(
            target=serve_bot, args=(sqlite_url(path), fake.base_url + "/api/", args.build_threads,
                                    args.build_processes, theirs), daemon=False)
        bot.start()
        try:
            if not ours.poll(120):
                raise SystemExit("the bot process did not start within 120 s")
            runs, before, peak = asyncio.run(measure(str(ours.recv()), fake, args, ours))
        finally:
            if bot.is_alive():
                ours.send("stop")
            bot.join(60)
    report(runs, before, peak)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
