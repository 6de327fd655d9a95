"""Full and repeated sync of a vLLM-scale repository through the loopback fake GitHub (real HTTP).

    python -m bench.bench_sync                 # 60 days x 340 items, 1,700 comments a day (~23k / ~108k)
    python -m bench.bench_sync --quick         # a small smoke run
    python -m bench.bench_sync --postgres postgresql+psycopg://postgres@127.0.0.1:5432/test

The parent process generates the sample and serves it with ``FakeGitHub.serve()``; every sync and every
floor fetch runs in a fresh interpreter (``--worker``), so its memory figures are its own and the server
(in the parent) and the client use separate cores, as they would against GitHub.

Figures:
* requests of a full sync vs the lower bound ceil(items/100) + ceil(comments/100) (target ratio <= 1.05 for
  the listings), and apart from them the PR-detail requests (``GET /pulls/{n}``, one per key-change candidate
  fetched, at most ``sync.pr_details_max``): total = listings + candidates fetched, nothing else;
* two repeated syncs with nothing changed: the first asks from the new cursor (new URLs, so 200s), the
  second repeats those URLs with their ETags (304s) (target: only 304s, or <= 2 requests, and no PR details:
  no candidate changed);
* wall time of a full sync vs a bare httpx client fetching and JSON-decoding the same pages (the floor),
  interleaved round by round, and their ratio;
* peak memory of a full sync: tracemalloc peak (in a traced run) and peak-RSS growth (in the timed runs).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import sys
import tempfile
import time
import tracemalloc
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from statistics import median
from typing import Any

import httpx

from bench.common import (
    END,
    REPO,
    SampleSpec,
    add_sample_args,
    adopt_store,
    bench_settings,
    full_lookback,
    mib,
    peak_rss_bytes,
    print_machine,
    print_table,
    profile_top,
    ratio,
    report_result,
    ru_maxrss_bytes,
    run_worker,
    sample_spec,
    sqlite_url,
    use_quick_sample,
    verdict,
)
from bot.demo.fake_github import FakeGitHub
from bot.github.factory import build_syncer, github_client
from bot.github.sync import SyncReport
from bot.store.store import Store
from bot.timeutil import iso_z

MODULE = "bench.bench_sync"
FULL = SampleSpec(days=60, items_per_day=340, comments_per_day=1700)
QUICK = SampleSpec(days=3, items_per_day=120, comments_per_day=500)
REQUEST_TARGET = 1.05
REPEAT_TARGET = 2  # requests, unless every one is a 304
PER_PAGE = 100


# --- worker side: one operation in a fresh interpreter -------------------------------------------------------


def _listing_params(since: str) -> list[tuple[str, dict[str, Any]]]:
    """Exactly the two listings and parameters the Syncer asks for, so the floor fetches the same pages."""
    common = {"since": since, "sort": "updated", "direction": "asc", "per_page": PER_PAGE}
    return [(f"repos/{REPO}/issues", {**common, "state": "all"}), (f"repos/{REPO}/issues/comments", common)]


async def _fetch_all(api_url: str, since: str) -> tuple[int, int]:
    """The floor: GET every page, decode its JSON, follow Link next. Nothing else."""
    pages = rows = 0
    async with httpx.AsyncClient(base_url=api_url.rstrip("/") + "/", timeout=60) as http:
        for path, params in _listing_params(since):
            response = await http.get(path, params=params)
            while True:
                response.raise_for_status()
                rows += len(response.json())
                pages += 1
                next_url = response.links.get("next", {}).get("url")
                if not next_url:
                    break
                response = await http.get(next_url)
    return pages, rows


async def _sync(store: Store, api_url: str, lookback: timedelta) -> SyncReport:
    # Same wiring as `digest-bot sync`: the configured bot logins, a fixed clock at the sample's end.
    settings = bench_settings()
    async with github_client(settings, api_url=api_url) as client:
        syncer = build_syncer(store, settings, client, lookback=lookback, clock=lambda: END)
        return await syncer.sync(REPO)


def _worker_floor(job: dict[str, Any]) -> dict[str, Any]:
    started = time.perf_counter()
    pages, rows = asyncio.run(_fetch_all(job["api_url"], job["since"]))
    return {"wall": time.perf_counter() - started, "pages": pages, "rows": rows}


def _worker_sync(job: dict[str, Any]) -> dict[str, Any]:
    lookback = timedelta(seconds=job["lookback_s"])
    store = Store.open(job["store_url"])
    bench_settings()  # parsed once here so the baseline below already holds it
    rss_before = peak_rss_bytes()
    inherited = ru_maxrss_bytes()
    result: dict[str, Any] = {}
    try:
        if job.get("profile"):
            holder: list[SyncReport] = []
            result["profile"] = profile_top(lambda: holder.append(asyncio.run(_sync(store, job["api_url"], lookback))))
            report = holder[0]
        else:
            if job.get("trace"):
                tracemalloc.start()
            started = time.perf_counter()
            report = asyncio.run(_sync(store, job["api_url"], lookback))
            result["wall"] = time.perf_counter() - started
            if job.get("trace"):
                result["traced_peak"] = tracemalloc.get_traced_memory()[1]
                tracemalloc.stop()
    finally:
        store.close()
    result.update(
        items=report.items,
        comments=report.comments,
        requests=report.requests,
        not_modified=report.not_modified,
        detail_requests=report.detail_requests,
        detail_candidates=report.detail_candidates,
        details_not_modified=report.details_not_modified,
        details_failed=report.details_failed,
        since=report.since,
        rss_before=rss_before,
        rss_growth=peak_rss_bytes() - rss_before,
        ru_maxrss_before=inherited,
    )
    return result


def worker_main(job: dict[str, Any]) -> None:
    handlers = {"floor": _worker_floor, "sync": _worker_sync}
    report_result(handlers[job["mode"]](job))


# --- parent side -------------------------------------------------------------------------------------------------


@dataclass
class Run:
    """One worker run plus what the fake GitHub saw during it."""

    result: dict[str, Any]
    statuses: Counter[int] = field(default_factory=Counter)  # of the listing requests
    detail_statuses: Counter[int] = field(default_factory=Counter)  # of the GET /pulls/{n} requests

    @property
    def requests_seen(self) -> int:
        return sum(self.statuses.values())

    @property
    def details_seen(self) -> int:
        return sum(self.detail_statuses.values())

    def status_text(self) -> str:
        return ", ".join(f"{n} x {status}" for status, n in sorted(self.statuses.items())) or "none"


@dataclass
class Backend:
    name: str
    url: str
    rounds: list[tuple[Run, Run]] = field(default_factory=list)  # (floor, full sync), interleaved
    repeats: list[Run] = field(default_factory=list)
    traced: Run | None = None


class Bench:
    def __init__(self, fake: FakeGitHub, api_url: str, lookback: timedelta) -> None:
        self.fake = fake
        self.api_url = api_url
        self.lookback = lookback
        self.since = iso_z(END - lookback)

    def run(self, mode: str, **job: Any) -> Run:
        before = len(self.fake.requests)
        result = run_worker(MODULE, {"mode": mode, "api_url": self.api_url, **job})
        seen = self.fake.requests[before:]
        details = [rec for rec in seen if "/pulls/" in rec.path]
        listings = [rec for rec in seen if "/pulls/" not in rec.path]
        return Run(result, Counter(rec.status or 0 for rec in listings), Counter(rec.status or 0 for rec in details))

    def floor(self) -> Run:
        return self.run("floor", since=self.since)

    def sync(self, store_url: str, **flags: Any) -> Run:
        return self.run("sync", store_url=store_url, lookback_s=self.lookback.total_seconds(), **flags)


def measure_backend(bench: Bench, backend: Backend, fresh_url: Iterator[str], rounds: int, memory: bool) -> None:
    """Interleave floor and full sync; then two repeated syncs on the last store; then a traced sync."""
    last_url = ""
    for k in range(rounds):
        last_url = next(fresh_url)
        floor = bench.floor()
        full = bench.sync(last_url)
        backend.rounds.append((floor, full))
        print(
            f"  {backend.name} round {k + 1}/{rounds}: floor {floor.result['wall']:.2f} s,"
            f" sync {full.result['wall']:.2f} s ({full.result['requests']} requests)",
            flush=True,
        )
    for _ in range(2):
        backend.repeats.append(bench.sync(last_url))
    if memory:
        backend.traced = bench.sync(next(fresh_url), trace=True)
        print(f"  {backend.name} traced sync: {mib(backend.traced.result['traced_peak'])} peak", flush=True)


def sqlite_urls(folder: Path) -> Iterator[str]:
    n = 0
    while True:
        n += 1
        yield sqlite_url(folder / f"sync-{n}.sqlite3")


@contextlib.contextmanager
def postgres_schemas(url: str) -> Iterator[Iterator[str]]:
    """Fresh schemas in the given database (one per full sync), all dropped at the end."""
    import psycopg
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    conninfo = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
    created: list[str] = []
    tag = uuid.uuid4().hex[:8]

    def fresh() -> Iterator[str]:
        while True:
            name = f"bench_sync_{tag}_{len(created) + 1}"
            with psycopg.connect(conninfo, autocommit=True) as conn:
                conn.execute(f'CREATE SCHEMA "{name}"')
            created.append(name)
            separator = "&" if "?" in url else "?"
            yield f"{url}{separator}options=-csearch_path%3D{name}"

    try:
        yield fresh()
    finally:
        with psycopg.connect(conninfo, autocommit=True) as conn:
            for name in created:
                conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


def postgres_version(url: str) -> str:
    import psycopg
    from sqlalchemy.engine import make_url

    conninfo = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(conninfo) as conn:
        row = conn.execute("SHOW server_version").fetchone()
    return str(row[0]) if row else "unknown"


# --- report ------------------------------------------------------------------------------------------------------


def print_requests(backends: list[Backend], n_items: int, n_comments: int, details_max: int) -> bool:
    bound = math.ceil(n_items / PER_PAGE) + math.ceil(n_comments / PER_PAGE)
    print(f"Full sync: requests vs the lower bound ceil({n_items:,}/100) + ceil({n_comments:,}/100) = {bound:,},"
          f" plus one GET /pulls/{{n}} per key-change candidate fetched (at most sync.pr_details_max = {details_max}):")
    rows, ok = [], True
    for backend in backends:
        full = backend.rounds[0][1]
        made = full.result["requests"]
        details = full.result["detail_requests"]
        listings = made - details
        fetched = min(full.result["detail_candidates"], details_max)
        value = ratio(listings, bound)
        exact = details == fetched == full.details_seen and made == listings + fetched
        ok &= value <= REQUEST_TARGET and exact
        rows.append([
            backend.name, f"{full.result['items']:,}", f"{full.result['comments']:,}", f"{listings:,}",
            f"{full.requests_seen:,}", f"{bound:,}", f"{value:.3f}", f"{full.result['detail_candidates']:,}",
            f"{details:,} ({full.details_seen:,})", f"{made:,} = {listings:,} + {fetched:,}" if exact else f"{made:,}",
            verdict(value, REQUEST_TARGET) if exact else "MISS (details != candidates fetched)",
        ])
    print_table(
        ["store", "items", "comments", "listing requests (client)", "listing requests (server saw)", "lower bound",
         "ratio", "PR-detail candidates", "PR-detail requests (server saw)", "total = listings + details", "result"],
        rows,
    )
    return ok


def print_repeats(backends: list[Backend]) -> bool:
    print("Repeated sync, nothing changed on the server (same store, right after the full sync):")
    rows, ok = [], True
    for backend in backends:
        for k, run in enumerate(backend.repeats, start=1):
            listings_ok = set(run.statuses) <= {304} or run.requests_seen <= REPEAT_TARGET
            passed = listings_ok and run.details_seen == 0
            ok &= passed
            since = run.result["since"]
            rows.append([
                backend.name, f"repeat {k}", since.get("issues", "?"), run.result["requests"], run.status_text(),
                run.details_seen, f"{run.result['items']} / {run.result['comments']}",
                "PASS" if passed else "MISS (target: only 304s or <= 2 requests, no PR details)",
            ])
    print_table(["store", "sync", "since (issues)", "requests", "statuses", "PR-detail requests",
                 "items / comments saved", "result"], rows)
    return ok


def print_times(backends: list[Backend]) -> None:
    print("Wall time of a full sync vs the floor (bare httpx: fetch + JSON-decode the same pages), interleaved:")
    rows = []
    for backend in backends:
        for k, (floor, full) in enumerate(backend.rounds, start=1):
            f, s = floor.result["wall"], full.result["wall"]
            rows.append([backend.name, k, f"{f:.2f} s", f"{s:.2f} s", f"{ratio(s, f):.2f}x"])
        floors = [floor.result["wall"] for floor, _ in backend.rounds]
        syncs = [full.result["wall"] for _, full in backend.rounds]
        # Each round's pair ran back to back; the median of the per-round ratios is the figure least bent by
        # load that changed between rounds.
        ratios = [ratio(full.result["wall"], floor.result["wall"]) for floor, full in backend.rounds]
        rows.append([
            backend.name, "median", f"{median(floors):.2f} s", f"{median(syncs):.2f} s", f"**{median(ratios):.2f}x**"
        ])
    print_table(["store", "round", "floor (fetch only)", "full sync", "sync / floor"], rows)
    print("median row: the median of each column (the ratio is the median of the per-round ratios).\n")


def print_memory(backends: list[Backend]) -> None:
    print("Peak memory of a full sync (fresh process each; baseline = after imports and opening the store):")
    rows = []
    for backend in backends:
        growth = median(full.result["rss_growth"] for _, full in backend.rounds)
        baseline = median(full.result["rss_before"] for _, full in backend.rounds)
        inherited = median(full.result["ru_maxrss_before"] for _, full in backend.rounds)
        traced = mib(backend.traced.result["traced_peak"]) if backend.traced else "not traced"
        rows.append([backend.name, traced, mib(growth), mib(baseline), mib(inherited)])
    print_table(
        ["store", "tracemalloc peak (traced run)", "peak RSS growth (median, timed runs)", "baseline peak RSS",
         "ru_maxrss at start (inherited from the parent)"],
        rows,
    )
    print("peak RSS = VmHWM of the worker's own address space; ru_maxrss carries the spawning parent's peak over")
    print("fork+exec on Linux (last column), so its delta would read 0 here.\n")


def print_profile(bench: Bench, folder: Path) -> None:
    run = bench.sync(sqlite_url(folder / "profiled.sqlite3"), profile=True)
    print("cProfile of one full sync (SQLite), worker process:")
    print(run.result["profile"])


# --- main -----------------------------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_sample_args(parser, FULL)
    parser.add_argument("--rounds", type=int, default=3, help="interleaved floor/sync rounds per store")
    parser.add_argument("--postgres", metavar="URL", help="also sync into PostgreSQL (fresh schemas, dropped after)")
    parser.add_argument("--quick", action="store_true", help=f"small smoke run ({QUICK.label()}, 1 round)")
    parser.add_argument("--no-memory", action="store_true", help="skip the traced (slow) memory run")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of one full sync")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.quick:
        use_quick_sample(args, QUICK)
        args.rounds = 1
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.worker:
        worker_main(json.loads(args.worker))
        return 0
    spec = sample_spec(args)
    extra = {"postgresql": postgres_version(args.postgres)} if args.postgres else {}
    print_machine(extra)
    started = time.perf_counter()
    sample = spec.generate()
    n_items, n_comments = len(sample.issues), len(sample.comments)
    lookback = full_lookback(sample)
    print(f"sample: {spec.label()}, seed {spec.seed}: {n_items:,} items, {n_comments:,} comments"
          f" (generated in {time.perf_counter() - started:.1f} s); since {iso_z(END - lookback)} covers all of it")
    # No rate limit in the way: rounds x ~1,300 requests would pass GitHub's 5,000/hour.
    fake = FakeGitHub(rate_limit=10**9)
    fake.add_repo(REPO, sample.issues, sample.comments)
    fake.add_pulls(REPO, sample.pulls)
    del sample
    backends = [Backend("SQLite", "sqlite")]
    with fake.serve() as api_url, tempfile.TemporaryDirectory(prefix="bench-sync-") as tmp:
        folder = Path(tmp)
        bench = Bench(fake, api_url, lookback)
        warm = bench.floor()  # the fake builds its sorted views and JSON caches once; neither side pays it later
        pages, rows, wall = warm.result["pages"], warm.result["rows"], warm.result["wall"]
        print(f"warm-up fetch (not counted): {pages} pages, {rows:,} rows, {wall:.2f} s\n")
        urls = sqlite_urls(folder)
        measure_backend(bench, backends[0], urls, args.rounds, memory=not args.no_memory)
        if args.postgres:
            backends.append(Backend("PostgreSQL", args.postgres))
            with postgres_schemas(args.postgres) as schemas:
                # The sync streams page by page whatever the store; one traced run (SQLite) tells its memory.
                measure_backend(bench, backends[1], schemas, args.rounds, memory=False)
        if args.profile:
            print_profile(bench, folder)
        kept = adopt_store(spec, folder / "sync-1.sqlite3")
        if kept:
            print(f"kept the synced SQLite store for bench_digest: {kept}")
    print()
    ok = print_requests(backends, n_items, n_comments, bench_settings().sync.pr_details_max)
    ok &= print_repeats(backends)
    print_times(backends)
    print_memory(backends)
    print("targets:", "all met" if ok else "at least one MISSED (see above)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
