"""Query latency over a 30-day window of a 100k+ item store, against the floor of reading that window's rows.

    python -m bench.bench_query                # 300 days x 340 items a day: ~114k items, ~208k comments
    python -m bench.bench_query --quick        # a small smoke run

The store is built once (generator -> fake GitHub -> the real Syncer) and kept under bench/results/. Each
query goes through ``DigestService.answer_now`` as a chat command does (parse, read the window, search,
rank, explain); the floor is one plain SQLAlchemy read of the same window's items and comments
(``bench.floor.read_window_rows``). The two alternate run by run, in the same process.

Target: p99(query) / p99(floor) <= 3 over all runs.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bench.common import (
    END,
    REPO,
    SampleSpec,
    Summary,
    add_sample_args,
    bench_settings,
    cached_store,
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
from bot.app.service import DEFAULT_SEARCH_WINDOW, DigestService
from bot.model import QueryResult, Window
from bot.settings import Settings
from bot.store.store import Store
from bot.topics.query import parse_query

FULL = SampleSpec(days=300, items_per_day=340, comments_per_day=600)
QUICK = SampleSpec(days=40, items_per_day=60, comments_per_day=150)
QUERIES = ("rocm 30d", "qwen hangs 30d", "label:bug -author:dependabot[bot] 30d", "is:merged fp8 30d")
TARGET = 3.0


@dataclass
class Case:
    text: str
    window: Window
    hits: int = 0
    ours: list[float] = field(default_factory=list)
    floor: list[float] = field(default_factory=list)


def query_window(settings: Settings, text: str) -> Window:
    """The window answer_query will read for ``text``, resolved the same way."""
    spec = parse_query(text).window or DEFAULT_SEARCH_WINDOW
    return spec.resolve(END, settings.digest.zone)


def run_cases(
    cases: Sequence[Case], rounds: int, ask: Callable[[Case], object], read: Callable[[Case], object]
) -> None:
    """Round-robin over the queries; within each pair, alternate which side runs first."""
    for k in range(rounds):
        for n, case in enumerate(cases):
            pair = [(ask, case.ours), (read, case.floor)]
            for fn, sink in pair if (k + n) % 2 == 0 else reversed(pair):
                sink.append(timed(lambda fn=fn, case=case: fn(case))[0])


def print_results(cases: Sequence[Case]) -> float:
    rows = []
    for case in cases:
        o, f = Summary.of(case.ours), Summary.of(case.floor)
        rows.append([f"`{case.text}`", case.hits, ms(o.p50), ms(o.p99), ms(f.p50), ms(f.p99),
                     f"{ratio(o.p50, f.p50):.2f}x", f"{ratio(o.p99, f.p99):.2f}x"])
    ours = Summary.of([t for case in cases for t in case.ours])
    floor = Summary.of([t for case in cases for t in case.floor])
    p99_ratio = ratio(ours.p99, floor.p99)
    rows.append([f"**all ({ours.n} runs)**", "", ms(ours.p50), ms(ours.p99), ms(floor.p50), ms(floor.p99),
                 f"{ratio(ours.p50, floor.p50):.2f}x", f"**{p99_ratio:.2f}x**"])
    print_table(
        ["query", "hits", "answer_query p50", "p99", "floor p50", "floor p99", "ratio p50", "ratio p99"], rows
    )
    return p99_ratio


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_sample_args(parser, FULL)
    parser.add_argument("--rounds", type=int, default=15, help="runs of each query (and of its floor)")
    parser.add_argument("--query", action="append", dest="queries", help="a query text (repeatable)")
    parser.add_argument("--quick", action="store_true", help=f"small smoke run ({QUICK.label()}, 3 rounds)")
    parser.add_argument("--rebuild", action="store_true", help="rebuild the cached store")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of each query once (also on a miss)")
    args = parser.parse_args(argv)
    if args.quick:
        use_quick_sample(args, QUICK)
        args.rounds = 3
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    print_machine()
    spec = sample_spec(args)
    path = cached_store(spec, rebuild=args.rebuild)
    settings = bench_settings()
    cases = [Case(text, query_window(settings, text)) for text in args.queries or QUERIES]
    with Store.open(sqlite_url(path)) as store:
        service = DigestService(store, settings)
        context = service.default_context(repo=REPO)

        def ask(case: Case) -> QueryResult:
            answer = service.answer_now(context, case.text, now=END)
            assert isinstance(answer, QueryResult), "a query with words or filters answers with items"
            return answer

        def read(case: Case) -> tuple[int, int]:
            return read_window_rows(store.engine, REPO, case.window.start, case.window.end)

        items, comments = store.counts(REPO)
        print(f"store: {items:,} items, {comments:,} comments in {REPO}")
        for case in cases:  # warm-up (not counted): page cache, compiled statements and regexes
            case.hits = len(ask(case).items)
        window = cases[0].window
        rows = read(cases[0])
        print(f"window: {window.start:%Y-%m-%d %H:%M} .. {window.end:%Y-%m-%d %H:%M} UTC;"
              f" the floor reads {rows[0]:,} items and {rows[1]:,} comments\n")
        run_cases(cases, args.rounds, ask, read)
        print(f"Query latency vs reading the window's rows, {args.rounds} rounds x {len(cases)} queries:")
        value = print_results(cases)
        print(f"p99 ratio: {value:.2f}x -> {verdict(value, TARGET)}")
        if args.profile or value > TARGET:
            for case in cases:
                print(f"\ncProfile of `{case.text}`:")
                print(profile_top(lambda case=case: ask(case), limit=15))
    return 0


if __name__ == "__main__":
    sys.exit(main())
