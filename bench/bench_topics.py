"""Topic matcher throughput, next to a floor measured in the same run.

    /work/venv/bin/python -m bench.bench_topics [--items 100000] [--raw-items 20000]    # ~2 min

Items are the labelled eval set (tests/data/topic_eval.jsonl) repeated and perturbed (a number in the title,
labels rotated, a sentence appended to the body) up to ``--items``. Over the same texts:

- floor: one pre-compiled regex ``search`` (a single keyword on word boundaries, so it scans the whole text)
  over title + prose: the least any matcher that reads the item once can cost;
- one pattern: every keyword of every topic as one pattern (``compile_phrases``), ``finditer`` over title +
  prose: one pass with the whole vocabulary, no topics, exclusions, tags or scores (a reference point);
- match: ``Topic.match`` for every topic over title, labels and the prose stored at sync time, which is what
  the digest builder and search run (bot/topics/items.py);
- match+prose: ``Taxonomy.match`` from the raw body, i.e. also ``body_prose`` (done once per item at sync).

The items are cut into 10 chunks and every measurement runs on chunk 1, then every one on chunk 2, and so
on (interleaved, as the other benches do): a burst of other work on the shared machine then hits all of them
alike. items/s is the median over the chunks, and the ratio is the ratio of those medians.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # also runs as a plain script
    sys.path.insert(0, str(ROOT))

from bench.common import print_machine, print_table  # noqa: E402
from bot.text import body_prose  # noqa: E402
from bot.topics.taxonomy import Taxonomy, compile_phrases  # noqa: E402

EVAL_SET = ROOT / "tests" / "data" / "topic_eval.jsonl"
TOPICS = ROOT / "config" / "topics.toml"
CHUNKS = 10
FILLER = ("Happy to add more details if needed.", "Thanks for the great project!", "cc the maintainers.",
          "This blocks our upgrade.", "")

Item = tuple[str, tuple[str, ...], str]  # title, labels, body (raw) or prose


def build_items(n: int) -> list[Item]:
    base = [json.loads(line) for line in EVAL_SET.read_text(encoding="utf-8").splitlines() if line.strip()]
    items = []
    for i in range(n):
        item = base[i % len(base)]
        labels = item["labels"][i % len(item["labels"]):] + item["labels"][: i % len(item["labels"])] \
            if item["labels"] else []
        body = f"{item['body']}\n\n{FILLER[i % len(FILLER)]} (#{i})"
        items.append((f"{item['title']} (#{i})", tuple(labels), body))
    return items


def chunks(data: Sequence[Any], count: int) -> list[Sequence[Any]]:
    size = max(1, -(-len(data) // count))
    return [data[start:start + size] for start in range(0, len(data), size)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=100_000, help="items for floor and match (default 100000)")
    parser.add_argument("--raw-items", type=int, default=20_000, help="items for match+prose (default 20000)")
    args = parser.parse_args()

    taxonomy = Taxonomy.load(TOPICS)
    topics = taxonomy.topics
    items = build_items(args.items)
    t0 = time.perf_counter()
    stored: list[Item] = [(title, labels, body_prose(body)) for title, labels, body in items]
    prose_seconds = time.perf_counter() - t0
    floor_re = re.compile(r"(?<![0-9A-Za-z])rocm(?![0-9A-Za-z])", re.IGNORECASE)
    vocabulary = compile_phrases(
        phrase for t in topics for phrase in (*t.definition.keywords, *t.definition.aliases, *t.definition.strong)
    )
    assert vocabulary is not None

    def floor(chunk: Sequence[Item]) -> int:
        return sum(1 for title, _, prose in chunk if floor_re.search(f"{title}\n{prose}"))

    def one_pattern(chunk: Sequence[Item]) -> int:
        return sum(1 for title, _, prose in chunk for _ in vocabulary.finditer(f"{title}\n{prose}"))

    def match(chunk: Sequence[Item]) -> int:
        return sum(1 for title, labels, prose in chunk for topic in topics
                   if topic.match(title, labels, prose) is not None)

    def match_raw(chunk: Sequence[Item]) -> int:
        return sum(len(taxonomy.match(title, labels, body)) for title, labels, body in chunk)

    runs: list[tuple[str, Callable[[Sequence[Item]], int], list[Sequence[Item]]]] = [
        ("floor: one regex search", floor, chunks(stored, CHUNKS)),
        ("one pattern, all keywords", one_pattern, chunks(stored, CHUNKS)),
        (f"match: {len(topics)} topics, stored prose", match, chunks(stored, CHUNKS)),
        ("match+prose: from raw body", match_raw, chunks(items[: args.raw_items], CHUNKS)),
    ]
    for title, labels, body in items[:200]:  # warm up: compile the topics' patterns
        taxonomy.match(title, labels, body)
    per_item: dict[str, list[float]] = {name: [] for name, _, _ in runs}
    found = dict.fromkeys(per_item, 0)
    for k in range(CHUNKS):  # interleaved: chunk k of every run, then chunk k+1
        for name, fn, parts in runs:
            if k < len(parts):
                start = time.perf_counter()
                found[name] += fn(parts[k])
                per_item[name].append((time.perf_counter() - start) / len(parts[k]))

    print_machine({"sample": f"{len(items):,} items from {EVAL_SET.name}, {len(topics)} topics; body_prose for "
                             f"all: {prose_seconds:.1f} s (done once, at sync)"})
    floor_median = statistics.median(per_item[runs[0][0]])
    rows = []
    for name, _, parts in runs:
        median = statistics.median(per_item[name])
        rows.append((name, f"{sum(len(p) for p in parts):,}", f"{1 / median:,.0f}", f"{median * 1e6:,.1f}",
                     f"{median / floor_median:.1f}x", f"{found[name]:,}"))
    print_table(["measure", "items", "items/s (median)", "us/item", "vs floor", "hits or matches"], rows)


if __name__ == "__main__":
    main()
