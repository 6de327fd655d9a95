"""The window's themes: 3-5 things the day was about, each at least ``MIN_ITEMS`` items, each a fact a reader
can check ("Qwen models + Quantization: 4 fixes, 2 bug reports, #A #B #C"; docs/editorial.md, "Themes").

Candidates are a topic's human items, and the items two topics share when one is a model family and the other
is not (a family's quantization work, its hangs): those say more than either alone. A PR series ("[2/N]",
"(part 3)", "(take 2)", "follow-up") counts once. Each candidate scores its size, damped when the topic is
ambient (it holds more than ``AMBIENT_SHARE`` of the window's items, as CI or CUDA do on most days) or mostly
housekeeping, lifted by how far above its usual level the topic is (the trends' baselines) and for a pair.
The best are taken greedily, skipping one that mostly repeats a theme already taken (``MAX_OVERLAP``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from bot.digest.rank import bug_kind, change_kind
from bot.digest.topic_rank import tier
from bot.model import THEME_FACETS, Digest, Section, Theme, ThemeFacet, TopicRef
from bot.store.records import ItemRecord
from bot.topics.taxonomy import Taxonomy

MIN_ITEMS = 3
MAX_THEMES = 5
THEME_ITEMS = 5  # items a theme names
AMBIENT_SHARE = 0.08
MAX_OVERLAP = 0.5
PAIR_BONUS = 1.3
HOUSEKEEPING_DAMPING = 0.6

_FIXES = frozenset({"fix", "bugfix"})
_FEATURES = frozenset({"new_model", "feature", "hardware", "speedup", "default"})
_SERIES = re.compile(
    r"\[[^\]]*\]|\((?:part|take|follow[- ]up|v)\s*[^)]*\)|\b(?:part|take)\s*\d+\b|\[?\d+\s*/\s*(?:\d+|n)\]?|"
    r"\bfollow[- ]up\b.*$|[-–]\s*(?:cleanup|fix|wip)\s*$|\bv\d+\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class _Candidate:
    topics: tuple[TopicRef, ...]
    numbers: tuple[int, ...]  # one per series, best first
    score: float
    facets: tuple[tuple[ThemeFacet, int], ...]
    ratio: float | None
    new: bool


def facet(item: ItemRecord) -> ThemeFacet:
    if not item.is_pr:
        return "bug_reports" if bug_kind(item) is not None else "other"
    kind, _ = change_kind(item)
    if kind in _FIXES:
        return "fixes"
    return "features" if kind in _FEATURES else "other"


@lru_cache(maxsize=8192)
def series_key(title: str) -> str:
    """A title without its tags and series marks: two PRs of one series give the same key."""
    return " ".join(_SERIES.sub(" ", title.lower()).split())


def themes(
    digest: Digest,
    records: Mapping[int, ItemRecord],
    taxonomy: Taxonomy,
    baselines: Mapping[str, float] | None,
    window_days: float,
    human_items: int,
) -> tuple[Theme, ...]:
    """Up to ``MAX_THEMES`` themes of ``digest``'s topic sections (best first). ``baselines``: each topic's usual
    items per day (None or empty: no history, no movement said); ``human_items``: the window's human items."""
    sections = [s for s in digest.sections if s.kind == "topic" and s.items and s.topic]
    families = {topic.id for topic in taxonomy.topics if topic.definition.lead_subject}
    refs = {s.topic: TopicRef(s.topic, s.title) for s in sections if s.topic}
    memo: dict[int, tuple[ThemeFacet, int]] = {}
    candidates = [c for s in sections if (c := _candidate((s,), records, refs, baselines, window_days,
                                                           human_items, memo)) is not None]
    numbers = {s.id: {item.number for item in s.items} for s in sections}
    for family in (s for s in sections if s.topic in families):
        for other in sections:
            if other.topic in families or other is family:
                continue
            if len(numbers[family.id] & numbers[other.id]) < MIN_ITEMS:
                continue
            shared = tuple(item for item in family.items if item.number in numbers[other.id])
            pair = Section(family.id, family.title, shared)
            found = _candidate((pair, other), records, refs, baselines, window_days, human_items, memo)
            if found is not None:
                candidates.append(found)
    candidates.sort(key=lambda c: (-c.score, [t.id for t in c.topics]))
    chosen: list[_Candidate] = []
    for candidate in candidates:
        if len(chosen) >= MAX_THEMES:
            break
        if any(_overlap(candidate.numbers, taken.numbers) > MAX_OVERLAP for taken in chosen):
            continue
        chosen.append(candidate)
    return tuple(
        Theme(topics=c.topics, count=len(c.numbers), items=c.numbers[:THEME_ITEMS], facets=c.facets,
              ratio=c.ratio, new=c.new)
        for c in chosen
    )


def _candidate(
    sections: Sequence[Section],
    records: Mapping[int, ItemRecord],
    refs: Mapping[str, TopicRef],
    baselines: Mapping[str, float] | None,
    window_days: float,
    human_items: int,
    memo: dict[int, tuple[ThemeFacet, int]],
) -> _Candidate | None:
    """A theme of the items of ``sections[0]`` (for a pair, the shared ones), its series counted once."""
    first = sections[0]
    series: dict[str, int] = {}
    for item in first.items:
        record = records.get(item.number)
        if record is None:
            continue
        series.setdefault(series_key(record.title) or str(item.number), item.number)
    numbers = tuple(series.values())
    if len(numbers) < MIN_ITEMS:
        return None
    counted: dict[ThemeFacet, int] = {}
    housekeeping = 0
    for number in numbers:
        found = memo.get(number)
        if found is None:  # an item is in several candidate themes: what it is, worked out once
            found = memo[number] = (facet(records[number]), tier(records[number]))
        kind, level = found
        counted[kind] = counted.get(kind, 0) + 1
        housekeeping += level == 2
    share = len(numbers) / max(human_items, 1)
    score = 2 * math.log2(1 + len(numbers))
    if share > AMBIENT_SHARE:
        score *= (AMBIENT_SHARE / share) ** 0.7
    score *= 1 - HOUSEKEEPING_DAMPING * housekeeping / len(numbers)
    score *= 1 + 0.25 * counted.get("bug_reports", 0) / len(numbers)
    ratio, new = None, False
    topic = first.topic if len(sections) == 1 else None
    if topic is not None and baselines:
        usual = baselines.get(topic, 0.0) * window_days
        if usual > 0:
            ratio = round(len(first.items) / usual, 1)
            score *= min(3.0, max(0.6, ratio))
        else:
            new = True
            score *= 1.5
    if len(sections) > 1:
        score *= PAIR_BONUS
    topics = tuple(refs[s.topic] for s in sections if s.topic is not None and s.topic in refs)
    facets = tuple((name, counted[name]) for name in THEME_FACETS if name in counted)
    return _Candidate(topics, numbers, round(score, 3), facets, ratio, new)


def _overlap(a: Sequence[int], b: Sequence[int]) -> float:
    """Of the smaller theme, the share the other also holds."""
    small, large = (set(a), set(b)) if len(a) <= len(b) else (set(b), set(a))
    return len(small & large) / max(len(small), 1) if small else 0.0

