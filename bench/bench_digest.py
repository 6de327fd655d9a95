"""One day's digest on a vLLM-scale store, against the floor of merely reading that day's rows.

    python -m bench.bench_digest               # the bench_sync sample: 60 days, ~23k items, ~108k comments
    python -m bench.bench_digest --quick       # a small smoke run

The store is the one bench_sync leaves under bench/results/ (or is built once here and kept there). The
digest (``DigestBuilder.build``, what `digest-bot digest` runs before formatting) and the floor (one plain
SQLAlchemy read of the window's items and comments, ``bench.floor.read_window_rows``) run alternately in
the same process, so both see the same machine load and the same warm SQLite page cache.

Target: median(build) / median(floor) <= 3. Also the build's peak memory (tracemalloc, allocations made
during one build), and the narrative's cost: the same build with and without the narrative (summary, trends
against 7 earlier days, activity, hot streaks), interleaved, target <= 1.2x. The items' facts
(``bot.digest.facts``) are remembered by their text, so the timed builds, like a day's second digest, read them;
the first build of a day works them out, which is printed apart ("first build of a day"), without a target.
"""

from __future__ import annotations

import argparse
import sys
import tracemalloc
from collections.abc import Callable

from bench.common import (
    END,
    REPO,
    SampleSpec,
    Summary,
    add_sample_args,
    bench_settings,
    cached_store,
    mib,
    ms,
    print_machine,
    print_table,
    profile_top,
    ratio,
    sample_spec,
    sqlite_url,
    timed,
    use_quick_sample,
    verdict,
)
from bench.floor import read_window_rows
from bot.digest import facts
from bot.digest.build import BuildOptions, DigestBuilder
from bot.digest.window import default_window
from bot.model import Digest, Window
from bot.store.store import Store
from bot.topics.catalog import load_taxonomy

FULL = SampleSpec(days=60, items_per_day=340, comments_per_day=1700)
QUICK = SampleSpec(days=3, items_per_day=120, comments_per_day=500)
TARGET = 3.0
NARRATIVE_TARGET = 1.2


def make_builder(store: Store, *, narrative: bool = True) -> DigestBuilder:
    """The builder exactly as ``DigestService.build_digest`` wires it from the shipped configuration."""
    settings = bench_settings()
    options = BuildOptions(
        hot_min_comments=settings.digest.hot_min_comments,
        locale=settings.digest.locale,
        narrative=narrative,
        bots_key=settings.bots_key,
    )
    return DigestBuilder(store, load_taxonomy(settings, REPO), options, is_bot=settings.is_bot)


def the_window() -> Window:
    settings = bench_settings()
    return default_window(END, settings.digest.zone, settings.digest.post_time)


def interleave(runs: int, ours: Callable[[], object], floor: Callable[[], object]) -> tuple[list[float], list[float]]:
    """Alternate which goes first so neither side always inherits the other's warm caches."""
    ours_times: list[float] = []
    floor_times: list[float] = []
    for k in range(runs):
        order = [(ours, ours_times), (floor, floor_times)]
        for fn, sink in order if k % 2 == 0 else reversed(order):
            sink.append(timed(fn)[0])
    return ours_times, floor_times


def compare(title: str, ours: tuple[str, list[float]], base: tuple[str, list[float]], target: float) -> float:
    """Print both sides' timings and the ratio of their medians against ``target``; returns that ratio."""
    (ours_name, ours_times), (base_name, base_times) = ours, base
    a, b = Summary.of(ours_times), Summary.of(base_times)
    value = ratio(a.p50, b.p50)
    print(title)
    print_table(
        ["", "median", "p90", "best", "worst"],
        [
            [ours_name, ms(a.p50), ms(a.p90), ms(a.best), ms(a.worst)],
            [base_name, ms(b.p50), ms(b.p90), ms(b.best), ms(b.worst)],
            ["ratio", f"**{value:.2f}x**", f"{ratio(a.p90, b.p90):.2f}x", "", ""],
        ],
    )
    print(f"ratio of medians: {value:.2f}x -> {verdict(value, target)}")
    return value


def traced_peak(fn: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def describe(store: Store, window: Window, digest: Digest, rows: tuple[int, int]) -> None:
    items, comments = store.counts(REPO)
    print(f"store: {items:,} items, {comments:,} comments in {REPO}")
    print(f"window: {window.start:%Y-%m-%d %H:%M} .. {window.end:%Y-%m-%d %H:%M} UTC ({window.timezone} day)")
    print(f"window rows read by the floor: {rows[0]:,} items, {rows[1]:,} comments")
    sections = sum(1 for section in digest.sections if section.items)
    print(f"digest: {digest.stats}, {sections} non-empty sections\n")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_sample_args(parser, FULL)
    parser.add_argument("--runs", type=int, default=20, help="timed runs of each side (interleaved)")
    parser.add_argument("--quick", action="store_true", help=f"small smoke run ({QUICK.label()}, 5 runs)")
    parser.add_argument("--rebuild", action="store_true", help="rebuild the cached store")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of one build (also on a miss)")
    args = parser.parse_args(argv)
    if args.quick:
        use_quick_sample(args, QUICK)
        args.runs = 5
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    print_machine()
    spec = sample_spec(args)
    path = cached_store(spec, rebuild=args.rebuild)
    with Store.open(sqlite_url(path)) as store:
        builder = make_builder(store)
        window = the_window()

        def build() -> Digest:
            return builder.build(REPO, window)

        def floor() -> tuple[int, int]:
            return read_window_rows(store.engine, REPO, window.start, window.end)

        # Warm-up (not counted): SQLite's page cache, compiled statements and topic regexes.
        digest, rows = build(), floor()
        describe(store, window, digest, rows)
        ours, base = interleave(args.runs, build, floor)
        plain = make_builder(store, narrative=False)
        with_narrative, without = interleave(args.runs, build, lambda: plain.build(REPO, window))
        def first_build() -> Digest:
            facts.forget()
            return build()

        first, again = interleave(max(3, args.runs // 4), first_build, build)
        peak = traced_peak(build)
        value = compare(f"One day's digest vs reading that day's rows, {args.runs} interleaved runs each:",
                        ("DigestBuilder.build", ours), ("floor: plain select", base), TARGET)
        base_median = Summary.of(base).p50
        compare(f"\nThe narrative's cost: the same build with and without it, {args.runs} interleaved runs each:",
                ("with narrative", with_narrative), ("without", without), NARRATIVE_TARGET)
        print(f"peak memory of one build (tracemalloc, allocations during the build): {mib(peak)}")
        cold, warm = Summary.of(first), Summary.of(again)
        print(f"first build of a day (item facts worked out, not remembered): median {ms(cold.p50)} against "
              f"{ms(warm.p50)} ({ratio(cold.p50, base_median):.2f}x the floor), no target")
        if args.profile or value > TARGET:
            print("\ncProfile of one build:")
            print(profile_top(build))
    return 0


if __name__ == "__main__":
    sys.exit(main())
