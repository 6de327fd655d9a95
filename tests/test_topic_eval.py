"""Topic matching quality over a hand-labelled set of vLLM-style issues and PRs (tests/data/topic_eval.jsonl).

Each line is ``{"title", "labels", "body", "topics"}``; ``topics`` is what a maintainer would file the item
under (written before tuning the rules). Per topic, over items: TP = expected and matched, FP = matched but
not expected, FN = expected but not matched. ``pytest -s`` prints the table.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.topics.taxonomy import Taxonomy

ROOT = Path(__file__).resolve().parents[1]
TOPICS = ROOT / "config" / "topics.toml"
EVAL_SET = Path(__file__).resolve().parent / "data" / "topic_eval.jsonl"
MIN_PRECISION = 0.95
MIN_RECALL = 0.95
MIN_POSITIVES = 5
# Topics whose recall on this set is below MIN_RECALL, with the floor they must keep (docs/topics.md, "Known
# gaps"). The test fails if one drops below its floor, and also once it reaches MIN_RECALL: then delete its
# entry. Empty since performance, gpt_oss and scheduler reached 0.95 (time costs, KV cache capacity, a body
# that opens with a model family's name).
KNOWN_RECALL_GAPS: dict[str, float] = {}


@dataclass
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0


def load_items() -> list[dict]:
    with EVAL_SET.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def evaluate(taxonomy: Taxonomy, items: list[dict]) -> tuple[dict[str, Counts], list[str]]:
    """Counts per topic, and one line per wrong item (for the failure message)."""
    counts = {topic_id: Counts() for topic_id in taxonomy.ids()}
    errors: list[str] = []
    for item in items:
        matches = taxonomy.match(item["title"], item["labels"], item["body"])
        got = {m.topic_id for m in matches}
        expected = set(item["topics"])
        for topic_id, c in counts.items():
            if topic_id in got and topic_id in expected:
                c.tp += 1
            elif topic_id in got:
                c.fp += 1
            elif topic_id in expected:
                c.fn += 1
        if got != expected:
            why = {m.topic_id: m.evidence for m in matches if m.topic_id not in expected}
            errors.append(f"{item['title']!r}: missing {sorted(expected - got)}, extra {why}")
    return counts, errors


def table(counts: dict[str, Counts]) -> str:
    lines = [f"{'topic':<13} {'TP':>4} {'FP':>3} {'FN':>3} {'precision':>9} {'recall':>6}"]
    for topic_id, c in counts.items():
        lines.append(f"{topic_id:<13} {c.tp:>4} {c.fp:>3} {c.fn:>3} {c.precision:>9.3f} {c.recall:>6.3f}")
    total = Counts(*(sum(getattr(c, k) for c in counts.values()) for k in ("tp", "fp", "fn")))
    lines.append(f"{'(all)':<13} {total.tp:>4} {total.fp:>3} {total.fn:>3} {total.precision:>9.3f} "
                 f"{total.recall:>6.3f}")
    return "\n".join(lines)


@pytest.fixture(scope="module")
def taxonomy() -> Taxonomy:
    return Taxonomy.load(TOPICS)


@pytest.fixture(scope="module")
def items() -> list[dict]:
    return load_items()


def test_eval_set_is_well_formed(taxonomy: Taxonomy, items: list[dict]) -> None:
    assert len(items) >= 300
    known = set(taxonomy.ids())
    for item in items:
        assert set(item) == {"title", "labels", "body", "topics"}, item["title"]
        assert set(item["topics"]) <= known, (item["title"], set(item["topics"]) - known)
    titles = [item["title"] for item in items]
    assert len(titles) == len(set(titles)), "duplicate titles"


def test_every_topic_has_enough_positives(taxonomy: Taxonomy, items: list[dict]) -> None:
    positives = {topic_id: sum(topic_id in item["topics"] for item in items) for topic_id in taxonomy.ids()}
    thin = {topic_id: n for topic_id, n in positives.items() if n < MIN_POSITIVES}
    assert not thin, f"topics with fewer than {MIN_POSITIVES} positives: {thin}"


def test_precision_and_recall_per_topic(taxonomy: Taxonomy, items: list[dict]) -> None:
    counts, errors = evaluate(taxonomy, items)
    print("\n" + table(counts))
    if KNOWN_RECALL_GAPS:
        print("known recall gaps (floor): " + ", ".join(f"{k} ({v})" for k, v in KNOWN_RECALL_GAPS.items()))
    below = []
    for topic_id, c in counts.items():
        floor = KNOWN_RECALL_GAPS.get(topic_id, MIN_RECALL)
        if c.precision < MIN_PRECISION or c.recall < floor:
            below.append(f"{topic_id}: precision {c.precision:.3f}, recall {c.recall:.3f} (needs {floor})")
        elif topic_id in KNOWN_RECALL_GAPS and c.recall >= MIN_RECALL:
            below.append(f"{topic_id}: recall {c.recall:.3f} reaches {MIN_RECALL}: remove it from KNOWN_RECALL_GAPS")
    assert not below, "\n".join([*below, "wrong items:", *errors])


def test_known_gaps_are_real_topics(taxonomy: Taxonomy) -> None:
    assert set(KNOWN_RECALL_GAPS) <= set(taxonomy.ids())
