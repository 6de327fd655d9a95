"""The LLM analysis of one day's digest with a slow LLM: how long it adds, against its deadline and its floors.

    python -m bench.bench_llm                 # a fake LLM answering in 2 s per call, the shipped [llm] settings
    python -m bench.bench_llm --delay 0.2     # a quick run
    python -m bench.bench_llm --quick         # a small sample store as well

The digest is built by the real builder from a generated store (bench/common.py, cached under bench/results/),
then analysed by the real ``Analyst`` through the real httpx client against a fake OpenAI-compatible server on
127.0.0.1 (tests/fakes/openai_api.py) that answers every call after ``--delay`` seconds. The analysis cache is
emptied first, so run 1 makes every call; run 2 analyses the same digest again and should make none.

Reported: calls made, wall time of the analysis, wall time / deadline (must stay below 1: the post is never
delayed past it), and wall time against two floors: serial (calls x delay: what one call at a time would
take) and ideal parallel (ceil(calls / concurrency) x delay: the least any client with that concurrency limit
could take). Target: wall / parallel floor <= 1.2 (the bot's own overhead is small beside the LLM's time).

Then a DM time slot: 8 digests of the same day (en and zh-CN, with and without the narrative, some identical
as for subscribers with the same settings) analysed at once as concurrent tasks on one event loop, through
``analyse_digest`` with one shared ``Analyst`` (the process' one), the cache emptied again. Reported: calls
made against the distinct prompts (target: equal, each asked once) and against the parts (what per-digest
analysis would ask), max calls in flight against ``concurrency`` (target: never above: the limit is the
analyst's, shared by every digest), and wall time against that case's parallel floor
(ceil(distinct / concurrency) x delay).

Then the pace (``--pace``, or alone with ``--pace-only``): the same day's digest against a server that serves
one request at a time (as llama.cpp's and Ollama's commonly do) and one that serves four, each answering in
``--delay`` s of work, with a per-call timeout of 3 x delay (the issue's 30 s against ~10 s calls). Rows: a
fresh analyst (slow start from one call), the next digest (the width measured for the endpoint, kept for the
process), and the configured width without measuring (what the issue saw). Reported: calls, timeouts, parts
accepted, wall time, and wall time against the floor for that server, ceil(calls / min(server width,
concurrency)) x delay. Targets: no timeout when measured; after measurement, wall / floor <= 1.2 (the first
digest pays the slow start).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import math
import sys
import time
from datetime import UTC, datetime

from bench.bench_digest import FULL, QUICK, make_builder, the_window
from bench.common import (
    REPO,
    add_sample_args,
    bench_settings,
    cached_store,
    print_machine,
    print_table,
    sample_spec,
    sqlite_url,
    use_quick_sample,
    verdict,
)
from bot.analysis.analyst import AnalysisReport, Analyst, analyse_digest
from bot.analysis.pacing import WIDTHS
from bot.model import Digest
from bot.settings import Settings
from bot.store.llm_cache import LLMCache
from bot.store.store import Store
from tests.fakes.openai_api import FakeLLM

# The samples are bench_digest's (a vLLM-sized day on 60 days of history; a small one): the same cached stores.
TARGET = 1.2
DM_SLOT = (("en", True), ("en", True), ("en", True), ("zh-CN", True), ("zh-CN", True), ("zh-CN", True),
           ("en", False), ("zh-CN", False))  # (locale, narrative) of the 8 digests built at once


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_sample_args(parser, FULL)
    parser.add_argument("--delay", type=float, default=2.0, help="seconds the fake LLM takes per call (default 2)")
    parser.add_argument("--concurrency", type=int, help="override [llm] concurrency")
    parser.add_argument("--deadline", type=float, help="override [llm] deadline_seconds")
    parser.add_argument("--max-requests", type=int, help="override [llm] max_requests")
    parser.add_argument("--quick", action="store_true", help=f"small sample store ({QUICK.label()})")
    parser.add_argument("--rebuild", action="store_true", help="rebuild the cached store")
    parser.add_argument("--pace", action="store_true", help="also: one-at-a-time and 4-wide servers (see above)")
    parser.add_argument("--pace-only", action="store_true", help="only the pace section")
    args = parser.parse_args(argv)
    if args.quick:
        use_quick_sample(args, QUICK)
    return args


def llm_settings(args: argparse.Namespace, fake: FakeLLM) -> Settings:
    settings = bench_settings()
    overrides = {
        name: value
        for name, value in (
            ("concurrency", args.concurrency), ("deadline_seconds", args.deadline), ("max_requests", args.max_requests)
        )
        if value is not None
    }
    llm = settings.file.llm.model_copy(update={"enabled": True, **overrides})
    return settings.model_copy(update={
        "file": settings.file.model_copy(update={"llm": llm}),
        "llm_base_url": fake.base_url,
        "llm_model": "bench-model",
    })


def analyse(store: Store, settings: Settings, digest: Digest) -> tuple[float, Digest, AnalysisReport]:
    started = time.perf_counter()
    analysed, report = asyncio.run(Analyst(store, settings).analyse(digest))
    return time.perf_counter() - started, analysed, report


def build(store: Store, *, locale: str, narrative: bool) -> Digest:
    """The day's digest as ``make_builder`` wires it, in ``locale`` (a subscriber's choice)."""
    builder = make_builder(store, narrative=narrative)
    builder.options = dataclasses.replace(builder.options, locale=locale)
    return builder.build(REPO, the_window())


def parts_of(digest: Digest, settings: Settings) -> int:
    limits = settings.file.llm
    hot, key = digest.section("hot"), digest.section("key_changes")
    return ((digest.narrative is not None) + min(len(hot.items) if hot else 0, limits.max_hot)
            + min(len(key.items) if key else 0, limits.max_key_changes))


async def analyse_at_once(store: Store, settings: Settings, digests: list[Digest]) -> tuple[float, list[Digest], int]:
    """The digests analysed as concurrent tasks by one ``Analyst``: wall time, results, its max calls in flight."""
    analyst = Analyst(store, settings)
    started = time.perf_counter()
    results = await asyncio.gather(*(analyse_digest(store, settings, digest, analyst=analyst) for digest in digests))
    return time.perf_counter() - started, list(results), analyst.max_calls_in_flight


def dm_slot(store: Store, settings: Settings, fake: FakeLLM, delay: float) -> bool:
    """8 digests analysed at once on one loop; prints the figures, returns whether targets held."""
    limits = settings.file.llm
    LLMCache(store).prune(datetime.now(UTC).replace(year=9999))
    digests = [build(store, locale=locale, narrative=narrative) for locale, narrative in DM_SLOT]
    parts = sum(parts_of(digest, settings) for digest in digests)
    before = len(fake.requests)
    fake.max_in_flight = 0
    wall, results, analyst_max = asyncio.run(analyse_at_once(store, settings, digests))
    requests = fake.requests[before:]
    distinct = len({json.dumps(request.body.get("messages"), sort_keys=True) for request in requests})
    floor = math.ceil(distinct / limits.concurrency) * delay
    filled = sum(
        (d.narrative is not None and d.narrative.summary_source == "llm")
        + sum(item.analysis is not None for section in d.sections if section.id in ("hot", "key_changes")
              for item in section.items)
        for d in results
    )
    print(f"\nDM slot: {len(digests)} digests analysed at once (tasks on one loop, one Analyst, cache emptied):")
    print_table(
        ["", "value"],
        [
            ["parts (what per-digest analysis would ask)", parts],
            ["parts filled by LLM", filled],
            ["LLM calls made", len(requests)],
            ["distinct prompts", distinct],
            ["max calls in flight (fake) / concurrency", f"{fake.max_in_flight} / {limits.concurrency}"],
            ["max calls in flight (analyst)", analyst_max],
            ["wall time", f"{wall:.2f} s"],
            [f"parallel floor (ceil({distinct}/{limits.concurrency}) x {delay:g} s)", f"{floor:.1f} s"],
            ["wall / parallel floor", f"**{wall / floor:.2f}x**" if floor else "-"],
        ],
    )
    once = len(requests) == distinct
    bounded = fake.max_in_flight <= limits.concurrency
    print(f"each distinct prompt asked once: {len(requests)} calls for {distinct} prompts -> "
          f"{'PASS' if once else 'MISS'}")
    print(f"calls in flight: max {fake.max_in_flight}, limit {limits.concurrency} -> {'PASS' if bounded else 'MISS'}")
    if floor:
        print(f"DM slot wall / parallel floor: {wall / floor:.2f}x -> {verdict(wall / floor, TARGET)}")
    return once and bounded


def pace_settings(settings: Settings, fake: FakeLLM, delay: float, *, measure: bool) -> Settings:
    llm = settings.file.llm.model_copy(update={
        "enabled": True, "measure_concurrency": measure, "timeout_seconds": 3 * delay,
        "deadline_seconds": max(settings.file.llm.deadline_seconds, 20 * delay),
    })
    return settings.model_copy(update={
        "file": settings.file.model_copy(update={"llm": llm}), "llm_base_url": fake.base_url,
        "llm_model": "bench-model",
    })


def pace_section(store: Store, base: Settings, delay: float) -> bool:
    """Analyses against one-at-a-time and 4-wide fake servers; prints the figures, returns whether targets held."""
    digests = [build(store, locale="en", narrative=True), build(store, locale="zh-CN", narrative=True)]
    rows: list[list[object]] = []
    held = True

    def run(analyst: Analyst, digest: Digest, fake: FakeLLM, width: int, label: str, target: float | None) -> None:
        nonlocal held
        LLMCache(store).prune(datetime.now(UTC).replace(year=9999))
        before = len(fake.requests)
        started = time.perf_counter()
        _, report = asyncio.run(analyst.analyse(digest))
        wall = time.perf_counter() - started
        calls = len(fake.requests) - before
        floor = math.ceil(calls / min(width, analyst.limits.concurrency)) * delay if calls else 0.0
        timeouts = report.fell_back.get("timeout", 0)
        ratio = wall / floor if floor else 0.0
        shown = f"**{ratio:.2f}x**" if target else f"{ratio:.2f}x"
        rows.append([f"{width}", label, calls, timeouts, f"{report.accepted} / {report.parts_total}",
                     report.width, f"{wall:.1f} s", f"{floor:.1f} s", shown])
        if target is not None:
            held = held and timeouts == 0 and ratio <= target

    WIDTHS.clear()
    for width in (1, 4):
        fake = FakeLLM(delay=delay, width=width)
        with fake.serve():
            settings = pace_settings(base, fake, delay, measure=True)
            run(Analyst(store, settings), digests[0], fake, width, "measured: first digest (slow start)", None)
            # A new analyst (a new event loop, as each asyncio.run is): the width measured for the endpoint holds.
            run(Analyst(store, settings), digests[1], fake, width, "measured: next digest", TARGET)
        fixed_fake = FakeLLM(delay=delay, width=width)
        with fixed_fake.serve():
            fixed = Analyst(store, pace_settings(base, fixed_fake, delay, measure=False))
            run(fixed, digests[0], fixed_fake, width, f"fixed at concurrency {fixed.limits.concurrency}", None)
    print(f"\nPace: servers of width 1 and 4, {delay:g} s of work per call, timeout {3 * delay:g} s per call:")
    print_table(["server width", "analyst", "calls", "timeouts", "accepted", "width after", "wall", "floor",
                 "wall / floor"], rows)
    print(f"measured pace: no timeout and next digest wall / floor <= {TARGET:g} -> {'PASS' if held else 'MISS'}")
    return held


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.pace_only:
        print_machine({"fake LLM": f"127.0.0.1, {args.delay:g} s per call, width 1 and 4"})
        path = cached_store(sample_spec(args), rebuild=args.rebuild)
        with Store.open(sqlite_url(path)) as store:
            pace_section(store, bench_settings(), args.delay)
        return 0
    print_machine({"fake LLM": f"127.0.0.1, {args.delay:g} s per call"})
    path = cached_store(sample_spec(args), rebuild=args.rebuild)
    fake = FakeLLM(delay=args.delay)
    with Store.open(sqlite_url(path)) as store, fake.serve():
        settings = llm_settings(args, fake)
        limits = settings.file.llm
        emptied = LLMCache(store).prune(datetime.now(UTC).replace(year=9999))
        started = time.perf_counter()
        digest = make_builder(store).build(REPO, the_window())
        build_time = time.perf_counter() - started
        hot, key = digest.section("hot"), digest.section("key_changes")
        print(f"digest: {digest.stats}; {len(hot.items) if hot else 0} hot, {len(key.items) if key else 0} key changes,"
              f" narrative {'yes' if digest.narrative else 'no'}; built in {build_time:.2f} s")
        print(f"[llm] concurrency {limits.concurrency}, deadline {limits.deadline_seconds:g} s, max_requests"
              f" {limits.max_requests}, max_tokens {limits.max_tokens:,}, timeout {limits.timeout_seconds:g} s,"
              f" max_hot {limits.max_hot}, max_key_changes {limits.max_key_changes}"
              f" (analysis cache emptied: {emptied} rows)\n")

        wall, analysed, report = analyse(store, settings, digest)
        calls = len(fake.requests)
        serial = calls * args.delay
        parallel = math.ceil(calls / limits.concurrency) * args.delay
        again_wall, again, again_report = analyse(store, settings, digest)
        again_calls = len(fake.requests) - calls

        print("Run 1 (empty cache) and run 2 (same digest again):")
        print_table(
            ["", "run 1", "run 2 (cached)"],
            [
                ["LLM calls", calls, again_calls],
                ["parts by LLM / cached / fell back",
                 f"{report.parts_llm} / {report.parts_cached} / {report.parts_fell_back} of {report.parts_total}",
                 f"{again_report.parts_llm} / {again_report.parts_cached} / {again_report.parts_fell_back}"
                 f" of {again_report.parts_total}"],
                ["tokens (prompt + completion)", f"{report.prompt_tokens:,} + {report.completion_tokens:,}",
                 f"{again_report.prompt_tokens:,} + {again_report.completion_tokens:,}"],
                ["analysis wall time", f"{wall:.2f} s", f"{again_wall * 1000:.0f} ms"],
                ["build + analysis", f"{build_time + wall:.2f} s", f"{build_time + again_wall:.2f} s"],
                ["wall / deadline", f"{wall / limits.deadline_seconds:.3f}",
                 f"{again_wall / limits.deadline_seconds:.4f}"],
                [f"serial floor (calls x {args.delay:g} s)", f"{serial:.1f} s", ""],
                [f"parallel floor (ceil(calls/{limits.concurrency}) x {args.delay:g} s)", f"{parallel:.1f} s", ""],
                ["wall / serial floor", f"{wall / serial:.2f}x" if serial else "-", ""],
                ["wall / parallel floor", f"**{wall / parallel:.2f}x**" if parallel else "-", ""],
                ["max calls in flight (fake)", fake.max_in_flight, ""],
            ],
        )
        if report.fell_back:
            print(f"run 1 fell back: {report.fell_back}")
        if parallel:
            print(f"wall / parallel floor: {wall / parallel:.2f}x -> {verdict(wall / parallel, TARGET)}")
        print(f"wall / deadline: {wall / limits.deadline_seconds:.3f} -> "
              f"{verdict(wall / limits.deadline_seconds, 1.0)}")
        same = again == analysed
        print(f"run 2: {again_calls} calls, same digest as run 1: {same} -> "
              f"{'PASS' if again_calls == 0 and same else 'MISS'}")
        summary = analysed.narrative.summary if analysed.narrative else ""
        print(f"\nsummary now ({analysed.narrative.summary_source if analysed.narrative else '-'}): {summary}")
        dm_slot(store, settings, fake, args.delay)
        if args.pace:
            pace_section(store, bench_settings(), args.delay)
    return 0


if __name__ == "__main__":
    sys.exit(main())
