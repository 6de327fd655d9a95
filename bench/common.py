"""Shared by the benchmark scripts: the machine, timing and percentiles, the big sample and its cached store.

The machine is shared and noisy, so no script reports a bare time as its result: each one measures the
bot's code and a *floor* (the least work that could possibly produce the same answer) side by side in the
same run, interleaved, and reports the ratio. Bare times are printed only to show where a ratio comes from.

Building a store of 100k+ items takes minutes, so it is done once per sample and kept under
``bench/results/`` (git-ignored), keyed by the sample's sizes and a fingerprint of what shapes the rows
(generator, payload conversion, text cleaning, the items/comments columns): a change there rebuilds it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import hashlib
import io
import json
import math
import os
import platform
import pstats
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from importlib import metadata
from pathlib import Path
from typing import Any, TypeVar

import httpx

from bot.demo.fake_github import FakeGitHub
from bot.demo.generator import SampleRepo, generate_repo
from bot.github.factory import build_syncer, github_client
from bot.github.sync import SyncReport
from bot.settings import Settings, load_settings
from bot.store import schema
from bot.store.db import SCHEMA_VERSION
from bot.store.store import Store
from bot.timeutil import parse_iso

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
CONFIG_DIR = ROOT / "config"
# 03:05 UTC is 11:05 in Asia/Shanghai, the configured post time: the default daily window ends exactly here.
END = datetime(2026, 12, 2, 3, 5, tzinfo=UTC)
OWNER, NAME = "vllm-project", "vllm"
REPO = f"{OWNER}/{NAME}"
MOCK_API = "https://api.github.invalid"  # never resolved: only used with httpx.MockTransport
RESULT_TAG = "BENCH-RESULT "
# What shapes the stored rows, hence the cache key: the sample, its conversion to records, and the two
# tables' columns. Not the whole schema file: other tables (chat, delivery) change often and do not matter.
_FINGERPRINTED = ("bot/demo/generator.py", "bot/github/payloads.py", "bot/text.py", "bot/topics/taxonomy.py",
                  "config/topics.toml", "bot/store/schema.py", "bot/topics/kinds.py",
                  "bot/topics/kind_rules.py", "bot/topics/text_facts.py")

T = TypeVar("T")


def stored_rows_differ(other: Path) -> list[str]:
    """The files shaping stored rows (``_FINGERPRINTED``) that another checkout has otherwise: its topic
    matches and kinds in a store built here are stale for it, so it works them out on every read."""
    def read(path: Path) -> bytes | None:
        return path.read_bytes() if path.exists() else None

    return [name for name in _FINGERPRINTED if read(ROOT / name) != read(other / name)]


# --- the sample ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SampleSpec:
    days: int
    items_per_day: int
    comments_per_day: int
    seed: int = 0

    def generate(self) -> SampleRepo:
        return generate_repo(
            owner=OWNER,
            name=NAME,
            end=END,
            days=self.days,
            items_per_day=self.items_per_day,
            comments_per_day=self.comments_per_day,
            seed=self.seed,
        )

    def label(self) -> str:
        return f"{self.days} days x {self.items_per_day} items/day, {self.comments_per_day} comments/day"

    def cache_key(self) -> str:
        digest = hashlib.sha256()
        for name in _FINGERPRINTED:
            path = ROOT / name
            digest.update(path.read_bytes() if path.exists() else b"-")
        for table in (schema.items, schema.comments):
            digest.update(repr([(column.name, str(column.type)) for column in table.columns]).encode())
        digest.update(str(SCHEMA_VERSION).encode())
        return f"d{self.days}-i{self.items_per_day}-c{self.comments_per_day}-s{self.seed}-{digest.hexdigest()[:10]}"


def full_lookback(sample: SampleRepo) -> timedelta:
    """A lookback reaching every payload's ``updated_at``: the first sync then lists the whole sample, so the
    request lower bound is simply ceil(items/100) + ceil(comments/100)."""
    oldest = min(
        min((parse_iso(p["updated_at"]) for p in sample.issues), default=END),
        min((parse_iso(p["updated_at"]) for p in sample.comments), default=END),
    )
    return END - oldest + timedelta(days=1)


def bench_settings() -> Settings:
    # env={}: a developer's DATABASE_URL or GITHUB_TOKEN must not leak into the figures.
    return load_settings(CONFIG_DIR, env={})


# --- building and caching the synced store ----------------------------------------------------------------


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


def sync_sample(sample: SampleRepo, store_url: str) -> SyncReport:
    """The real Syncer over an in-process fake GitHub (no sockets: this only builds a fixture)."""
    fake = FakeGitHub(base_url=MOCK_API, rate_limit=10**9)
    fake.add_repo(REPO, sample.issues, sample.comments)
    fake.add_pulls(REPO, sample.pulls)
    lookback = full_lookback(sample)

    async def run(store: Store) -> SyncReport:
        transport = httpx.MockTransport(fake.handler)
        settings = bench_settings()
        async with github_client(settings, api_url=MOCK_API, transport=transport) as client:
            syncer = build_syncer(store, settings, client, lookback=lookback, clock=lambda: END)
            return await syncer.sync(REPO)

    store = Store.open(store_url)
    try:
        return asyncio.run(run(store))
    finally:
        store.close()


def checkpoint_sqlite(path: Path) -> None:
    """Fold the WAL into the main file so the file alone is the whole store (safe to copy or rename)."""
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def cached_store(
    spec: SampleSpec, *, rebuild: bool = False, log: Callable[[str], None] = print
) -> Path:
    """The SQLite file holding ``spec``'s sample after a full sync; built once, then reused."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"store-{spec.cache_key()}.sqlite3"
    if path.exists() and not rebuild:
        log(f"store: reusing {path.relative_to(ROOT)}")
        return path
    started = time.perf_counter()
    log(f"store: generating {spec.label()} (seed {spec.seed}) ...")
    sample = spec.generate()
    log(f"store: {len(sample.issues):,} items, {len(sample.comments):,} comments generated; syncing ...")
    # Build beside the target and rename: an interrupted build never leaves a half store under the real name.
    with tempfile.TemporaryDirectory(dir=RESULTS, prefix="build-") as folder:
        tmp = Path(folder) / "store.sqlite3"
        report = sync_sample(sample, sqlite_url(tmp))
        checkpoint_sqlite(tmp)
        shutil.move(tmp, path)
    log(f"store: {report.line()}; built in {time.perf_counter() - started:.0f} s -> {path.relative_to(ROOT)}")
    return path


def adopt_store(spec: SampleSpec, source: Path) -> Path | None:
    """Keep a store synced elsewhere (bench_sync's) as ``spec``'s cached store, unless one exists already."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    target = RESULTS / f"store-{spec.cache_key()}.sqlite3"
    if target.exists():
        return None
    checkpoint_sqlite(source)
    tmp = target.with_suffix(".partial")
    shutil.copyfile(source, tmp)
    tmp.replace(target)
    return target


# --- the floor read shared by the digest and query benches: bench/floor.py -----------------------------------


# --- the machine -------------------------------------------------------------------------------------------


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _memory_total() -> str:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    return "unknown"


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def code_version() -> str:
    """Which code ran: the commit, whether the tree had uncommitted changes, and a hash of bot/ as it was
    (several people edit the tree at once, so the commit alone does not say)."""
    digest = hashlib.sha256()
    for path in sorted((ROOT / "bot").rglob("*.py")):
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "bot"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        head, dirty = "unknown", ""
    changes = f" + uncommitted changes in {len(dirty.splitlines())} path(s) under bot/" if dirty else ""
    return f"git {head}{changes}; bot/*.py sha256 {digest.hexdigest()[:12]}"


def machine_info() -> dict[str, str]:
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = os.getloadavg() if hasattr(os, "getloadavg") else (math.nan,) * 3
    return {
        "platform": platform.platform(),
        "cpu": f"{_cpu_model()} x {os.cpu_count()} (usable {usable})",
        "memory": _memory_total(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "sqlite": sqlite3.sqlite_version,
        "libraries": f"SQLAlchemy {_version('SQLAlchemy')}, httpx {_version('httpx')}, psycopg {_version('psycopg')}",
        "load average at start": " ".join(f"{value:.2f}" for value in load),
        "code": code_version(),
    }


def print_machine(extra: dict[str, str] | None = None) -> None:
    info = {**machine_info(), **(extra or {})}
    print("machine:")
    for key, value in info.items():
        print(f"  {key:<22} {value}")
    print()


# --- numbers -------------------------------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default): p50 of [1, 2] is 1.5."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


@dataclass(frozen=True)
class Summary:
    n: int
    p50: float
    p90: float
    p99: float
    best: float
    worst: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Summary:
        return cls(
            n=len(values),
            p50=percentile(values, 50),
            p90=percentile(values, 90),
            p99=percentile(values, 99),
            best=min(values) if values else math.nan,
            worst=max(values) if values else math.nan,
        )

    def as_dict(self) -> dict[str, float]:
        return asdict(self)


def timed(fn: Callable[[], T]) -> tuple[float, T]:
    started = time.perf_counter()
    result = fn()
    return time.perf_counter() - started, result


def ratio(ours: float, floor: float) -> float:
    return ours / floor if floor > 0 else math.inf


def verdict(value: float, target: float) -> str:
    return f"PASS (<= {target:g})" if value <= target else f"MISS (target <= {target:g})"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f} ms"


def mib(n_bytes: float) -> str:
    return f"{n_bytes / 1024 / 1024:,.1f} MiB"


def print_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    """A Markdown table, so the printed figures can be pasted into docs/benchmarks.md as they are."""
    cells = [[str(h) for h in headers], *[[str(v) for v in row] for row in rows]]
    widths = [max(len(row[k]) for row in cells) for k in range(len(headers))]

    def line(row: Sequence[str]) -> str:
        return "| " + " | ".join(value.ljust(width) for value, width in zip(row, widths, strict=True)) + " |"

    print(line(cells[0]))
    print("|" + "|".join("-" * (width + 2) for width in widths) + "|")
    for row in cells[1:]:
        print(line(row))
    print()


def profile_top(fn: Callable[[], object], *, limit: int = 25) -> str:
    """cProfile of one call: the top entries by own time and by cumulative time."""
    profiler = cProfile.Profile()
    profiler.enable()
    try:
        fn()
    finally:
        profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs()
    out.write("--- by own time (tottime) ---\n")
    stats.sort_stats("tottime").print_stats(limit)
    out.write("--- by cumulative time ---\n")
    stats.sort_stats("cumulative").print_stats(limit)
    return out.getvalue()


# --- fresh-process workers ------------------------------------------------------------------------------------


def run_worker(module: str, job: dict[str, Any], *, env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run ``python -m module --worker JOB`` in a fresh interpreter and return the JSON it reports.

    A fresh process is what makes a peak-memory figure the measured operation's own, and keeps the parent's
    data (the sample served by the fake GitHub) out of it."""
    command = [sys.executable, "-m", module, "--worker", json.dumps(job)]
    proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False, env=env)
    if proc.returncode != 0:
        raise RuntimeError(f"worker {module} {job.get('mode')} failed ({proc.returncode}):\n{proc.stderr[-4000:]}")
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith(RESULT_TAG):
            return dict(json.loads(line[len(RESULT_TAG):]))
    raise RuntimeError(f"worker {module} printed no result:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")


def report_result(result: dict[str, Any]) -> None:
    print(RESULT_TAG + json.dumps(result), flush=True)


def peak_rss_bytes() -> int:
    """This process's peak resident set so far.

    On Linux this reads VmHWM rather than ``ru_maxrss``: the kernel carries ``ru_maxrss`` over fork and exec,
    so a worker started by a parent holding the 700 MiB sample would report the parent's peak as its own.
    VmHWM is kept per address space and starts fresh at exec. Elsewhere, ``ru_maxrss`` it is."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    import resource  # POSIX only; imported here so the module still imports elsewhere

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


def ru_maxrss_bytes() -> int:
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


def add_sample_args(parser: argparse.ArgumentParser, full: SampleSpec) -> None:
    """The sample's sizes, defaulting to ``full`` (each bench's issue-sized sample)."""
    parser.add_argument("--days", type=int, default=full.days)
    parser.add_argument("--items-per-day", type=int, default=full.items_per_day)
    parser.add_argument("--comments-per-day", type=int, default=full.comments_per_day)
    parser.add_argument("--seed", type=int, default=full.seed)


def use_quick_sample(args: argparse.Namespace, quick: SampleSpec) -> None:
    args.days, args.items_per_day, args.comments_per_day = quick.days, quick.items_per_day, quick.comments_per_day


def sample_spec(args: argparse.Namespace) -> SampleSpec:
    return SampleSpec(args.days, args.items_per_day, args.comments_per_day, args.seed)


@contextlib.contextmanager
def scratch_store(postgres: str | None, prefix: str) -> Iterator[tuple[str, Path]]:
    """A store URL nobody else uses, and a scratch folder, both removed afterwards: a SQLite file in the folder,
    or (``postgres``: a SQLAlchemy URL of the local server) a fresh schema of its own."""
    tmp = Path(tempfile.mkdtemp(prefix=prefix))
    schema_name = None
    try:
        if postgres:
            import psycopg

            schema_name = f"bench_{uuid.uuid4().hex[:10]}"
            with psycopg.connect(_LOCAL_POSTGRES, autocommit=True) as conn:
                conn.execute(f"CREATE SCHEMA {schema_name}")
            yield f"{postgres}?options=-csearch_path%3D{schema_name}", tmp
        else:
            yield f"sqlite:///{tmp}/store.sqlite3", tmp
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if schema_name:
            import psycopg

            with psycopg.connect(_LOCAL_POSTGRES, autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA {schema_name} CASCADE")


_LOCAL_POSTGRES = "host=127.0.0.1 port=5432 user=postgres dbname=test"
