"""The CLI's one-shot commands as a user runs them, each in a fresh interpreter, on a year-sized store.

    python -m bench.bench_cli                  # 365 days x 200 items, 600 comments a day; SQLite and PostgreSQL
    python -m bench.bench_cli --quick          # a small smoke run
    python -m bench.bench_cli --no-postgres    # SQLite only
    python -m bench.bench_cli --compare /tmp/base   # and another checkout's CLI (`git archive main`) beside it
    python -m bench.bench_cli --tree /tmp/base # time another checkout's CLI instead, same store
    cd /tmp/base && python -m bench.bench_cli --tree /tmp/base   # ... on the store its own code builds

What is timed, round-robin (the order rotates each round), ``--rounds`` rounds, medians:

* ``digest-bot --help``: the CLI's own start-up (interpreter, settings, argparse), the unit of the targets;
* ``digest-bot digest --end END --format json``: one day's digest;
* ``digest-bot query "rocm 30d" --end END --format json``: a 30-day query;
* the floor of each (``python -m bench.floor``): a plain script reading the same window's rows with SQLAlchemy
  Core and writing as many characters of JSON as the command printed.

Every command is a fresh process (``subprocess.run``, output captured), so start-up, imports and the exit are
all in the figure, as they are for a user. The store is built once (``bench.common.cached_store``: generator ->
fake GitHub -> the real Syncer) and kept under bench/results/; the PostgreSQL copy is a schema of the local
server named after the store's cache key, copied from the SQLite file once and kept.

Each command's CPU time (its own user + system time, from ``getrusage(RUSAGE_CHILDREN)``) is reported beside
its wall time: on a shared machine a process waiting for a CPU gains wall time that is not its own, and the CPU
ratios move far less between runs. On PostgreSQL they leave out the server's work.

Targets (issue 27), on wall time: digest / --help <= 2.5x and 30-day query / --help <= 2.5x on SQLite; <= 3.5x on
PostgreSQL.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import create_engine, select, text
from sqlalchemy.engine import make_url

from bench.common import (
    CONFIG_DIR,
    END,
    REPO,
    ROOT,
    SampleSpec,
    Summary,
    add_sample_args,
    bench_settings,
    cached_store,
    ms,
    print_machine,
    print_table,
    ratio,
    sample_spec,
    sqlite_url,
    stored_rows_differ,
    use_quick_sample,
    verdict,
)
from bot.digest.window import resolve_window
from bot.model import Window
from bot.store import schema
from bot.store.store import Store
from bot.timeutil import iso_z
from bot.topics.query import parse_query

FULL = SampleSpec(days=365, items_per_day=200, comments_per_day=600)
QUICK = SampleSpec(days=20, items_per_day=60, comments_per_day=150)
QUERY = "rocm 30d"
LOCAL_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
TARGETS = {"SQLite": 2.5, "PostgreSQL": 3.5}


@dataclass
class Command:
    name: str
    argv: list[str]
    env: dict[str, str]
    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)  # the process's own user + system time (not a database server's)
    output: str = ""


# --- the PostgreSQL copy ------------------------------------------------------------------------------------


def _conninfo(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def postgres_store(spec: SampleSpec, sqlite_path: Path, url: str, *, rebuild: bool = False) -> str:
    """A schema of the PostgreSQL server at ``url`` holding the SQLite store's rows (the same store, so both
    backends answer the same), copied once; its URL. A marker table says the copy completed."""
    import psycopg

    name = "bench_cli_" + re.sub(r"\W", "_", spec.cache_key()).lower()
    separator = "&" if "?" in url else "?"
    target = f"{url}{separator}options=-csearch_path%3D{name}"
    with psycopg.connect(_conninfo(url), autocommit=True) as conn:
        done = conn.execute("SELECT 1 FROM information_schema.tables WHERE table_schema = %s"
                            " AND table_name = 'bench_complete'", (name,)).fetchone()
        if done and not rebuild:
            print(f"postgres: reusing schema {name}")
            return target
        conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
        conn.execute(f'CREATE SCHEMA "{name}"')
    started = time.perf_counter()
    Store.open(target).close()  # the migrations create today's tables
    source, copy = create_engine(sqlite_url(sqlite_path)), create_engine(target)
    try:
        for table in schema.metadata.sorted_tables:
            if table is schema.schema_version:
                continue
            with source.connect() as read, copy.begin() as write:
                result = read.execution_options(yield_per=2000).execute(select(table))
                for part in result.partitions():
                    write.execute(table.insert(), [row._asdict() for row in part])
        with copy.begin() as write:
            write.execute(text("CREATE TABLE bench_complete (done INTEGER)"))
        with copy.connect() as conn:
            conn.execution_options(isolation_level="AUTOCOMMIT").execute(text("ANALYZE"))
    finally:
        source.dispose()
        copy.dispose()
    print(f"postgres: copied the store into schema {name} in {time.perf_counter() - started:.0f} s")
    return target


# --- the commands --------------------------------------------------------------------------------------------


def cli_argv() -> list[str]:
    """The console script a user runs (``digest-bot``, i.e. ``bot.cli:run``)."""
    script = Path(sys.executable).with_name("digest-bot")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from bot.cli import run; sys.exit(run())"]


def windows() -> tuple[Window, Window]:
    """The day the digest answers for and the query's 30 days, resolved as the CLI resolves them."""
    settings = bench_settings()
    day = resolve_window(start=None, end=END, now=END, zone=settings.digest.zone, post_time=settings.digest.post_time)
    spec = parse_query(QUERY).window
    assert spec is not None
    return day, spec.resolve(END, settings.digest.zone)


def _environment() -> dict[str, str]:
    # A user's interpreter keeps its bytecode caches: a PYTHONDONTWRITEBYTECODE in the bench's environment
    # would have every run compile bot/ from source again (half a second, more than the work).
    return {key: value for key, value in os.environ.items()
            if key not in ("DIGEST_BOT_CONFIG", "GITHUB_TOKEN", "PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}


def cli_commands(url: str, tree: Path | None, label: str = "") -> list[Command]:
    """--help, the day's digest and the month's query, of this checkout or of ``tree`` (its code first on
    PYTHONPATH, its config), named with ``label``."""
    env = {**_environment(), "DATABASE_URL": url}
    if tree:
        env["PYTHONPATH"] = str(tree)
    base = [*cli_argv(), "--config", str(tree / "config" if tree else CONFIG_DIR)]
    end = iso_z(END)
    return [
        Command(f"--help{label}", [*base, "--help"], env),
        Command(f"digest (1 day){label}", [*base, "digest", "--repo", REPO, "--end", end, "--format", "json"], env),
        Command(f'query "{QUERY}"{label}', [*base, "query", QUERY, "--repo", REPO, "--end", end, "--format", "json"],
                env),
    ]


def floor_argv(url: str, window: Window, size: int) -> list[str]:
    return [sys.executable, "-m", "bench.floor", url, REPO, window.start.isoformat(), window.end.isoformat(),
            str(size)]


def run_once(command: Command) -> float:
    """Run it once; returns its wall time and keeps its CPU time (``Command.cpu``): on a shared machine a
    process waiting for a CPU adds wall time that is not its own, so the CPU figures are the steadier ones."""
    before = _children_cpu()
    started = time.perf_counter()
    done = subprocess.run(command.argv, cwd=ROOT, env=command.env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"{command.name} failed ({done.returncode}): {done.stderr[-3000:]}")
    command.cpu.append(_children_cpu() - before)
    command.output = done.stdout
    return elapsed


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def describe(name: str, output: str) -> str:
    answer = json.loads(output)
    if "items" in answer:
        return f"{name}: {len(answer['items'])} items, {len(output):,} characters of JSON"
    return f"{name}: stats {answer.get('stats')}, {len(output):,} characters of JSON"


def measure(backend: str, url: str, rounds: int, tree: Path | None, compare: Path | None) -> dict[str, float]:
    """Every command ``rounds`` times, round-robin (the order rotates each round); prints the table and returns
    the ratios of the timed checkout's digest and query to its --help. ``compare``: another checkout's three
    commands join the same rotation (before/after under the same load), each against its own --help."""
    help_, digest, query = ours = cli_commands(url, tree)
    others = cli_commands(url, compare, f" ({compare.name})") if compare else []
    env = {**_environment(), "DATABASE_URL": url}
    digest_floor, query_floor = Command("floor: digest's rows", [], env), Command("floor: query's rows", [], env)
    cases = [*ours, *others, digest_floor, query_floor]
    day, month = windows()
    for command in (*ours, *others):  # warm-up (not counted): bytecode caches, the OS page cache
        run_once(command)
    print(f"{backend}: {describe('digest', digest.output)}; {describe('query', query.output)}")
    for theirs, mine in zip(others[1:], (digest, query), strict=True) if others else ():
        if json.loads(theirs.output).get("items") != json.loads(mine.output).get("items"):
            print(f"  note: {theirs.name} answers with other items than {mine.name}")
    digest_floor.argv = floor_argv(url, day, len(digest.output))
    query_floor.argv = floor_argv(url, month, len(query.output))
    for command in (digest_floor, query_floor):
        run_once(command)
    for k in range(rounds):
        for n in range(len(cases)):
            command = cases[(k + n) % len(cases)]
            command.times.append(run_once(command))

    def median(command: Command) -> float:
        return Summary.of(command.times).p50

    def cpu(command: Command) -> float:
        return Summary.of(command.cpu[-rounds:]).p50

    rows = []
    for group in (ours, others):
        if not group:
            continue
        start = median(group[0])
        for command, floor in zip(group, (None, digest_floor, query_floor), strict=True):
            against = f"{ratio(median(command), median(floor)):.2f}x" if floor else ""
            rows.append([command.name, ms(median(command)), ms(Summary.of(command.times).p90),
                         f"{ratio(median(command), start):.2f}x", against, ms(cpu(command)),
                         f"{ratio(cpu(command), cpu(group[0])):.2f}x"])
    for floor in (digest_floor, query_floor):
        rows.append([floor.name, ms(median(floor)), ms(Summary.of(floor.times).p90),
                     f"{ratio(median(floor), median(help_)):.2f}x", "", ms(cpu(floor)),
                     f"{ratio(cpu(floor), cpu(help_)):.2f}x"])
    print(f"\n{backend}: medians of {rounds} interleaved rounds, each command a fresh process"
          " (vs --help: the same checkout's; CPU: the process's own, not the database server's)")
    print_table(["command", "median", "p90", "vs --help", "vs its floor", "CPU median", "CPU vs --help"], rows)
    return {"digest": ratio(median(digest), median(help_)), "query": ratio(median(query), median(help_)),
            "digest (CPU)": ratio(cpu(digest), cpu(help_)), "query (CPU)": ratio(cpu(query), cpu(help_))}


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_sample_args(parser, FULL)
    parser.add_argument("--rounds", type=int, default=11, help="timed runs of each command (interleaved)")
    parser.add_argument("--quick", action="store_true", help=f"small smoke run ({QUICK.label()}, 3 rounds)")
    parser.add_argument("--rebuild", action="store_true", help="rebuild the cached stores")
    parser.add_argument("--postgres", metavar="URL", default=LOCAL_POSTGRES,
                        help=f"the PostgreSQL server to copy the store into (default {LOCAL_POSTGRES})")
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    parser.add_argument("--tree", type=Path, help="time the CLI of this checkout (PYTHONPATH) instead of this one")
    parser.add_argument("--compare", type=Path, metavar="DIR",
                        help="also time the CLI of checkout DIR in the same rounds (e.g. an export of main: before)")
    args = parser.parse_args(argv)
    if args.quick:
        use_quick_sample(args, QUICK)
        args.rounds = 3
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    tree = args.tree.resolve() if args.tree else None
    print_machine({"CLI timed": str(tree or ROOT)})
    spec = sample_spec(args)
    path = cached_store(spec, rebuild=args.rebuild)
    with Store.open(sqlite_url(path)) as store:
        items, comments = store.counts(REPO)
    print(f"store: {items:,} items, {comments:,} comments in {REPO}")
    backends = [("SQLite", sqlite_url(path))]
    if not args.no_postgres:
        backends.append(("PostgreSQL", postgres_store(spec, path, args.postgres, rebuild=args.rebuild)))
    compare = args.compare.resolve() if args.compare else None
    for other in (tree, compare):
        if other is not None and (differ := stored_rows_differ(other)):
            print(f"note: {other} shapes stored rows otherwise ({', '.join(differ)}): this store's topic matches"
                  " and kinds are stale for it, so its commands work them out on every read. For a fair"
                  f" before/after, run it on its own store: cd {other} && python -m bench.bench_cli --tree {other}")
    results = {backend: measure(backend, url, args.rounds, tree, compare) for backend, url in backends}
    for backend, figures in results.items():
        target = TARGETS[backend]
        for name, value in figures.items():
            # The targets are on wall time (what a user waits); the CPU ratios say how much of a miss is load.
            said = verdict(value, target) if "CPU" not in name else "(for context)"
            print(f"{backend} {name} / --help: {value:.2f}x -> {said}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
