"""Why an item is picked for a section, as numbers with reasons a reader can check.

Key changes: merged, human-authored, non-draft PRs scored by
  +3 a tag or label that marks user-visible work ([Feature], [Model], [Perf], [Kernel], [Core], ...)
  +1 [Bugfix]                    -3 housekeeping only ([Doc], [CI/Build], [Misc], [Test], typo fixes)
  +2 breaking / deprecation / removal in the title
  +log2(1 + comments), at most 3 (review discussion signals impact)
  +log2(1 + reactions), at most 2
  +1 when it belongs to a followed topic
(Area tags such as [ROCm] or [TPU] say where, not how much: they only count through topics.)
and listed when the score is positive, best first.

Notable issues: new (opened in the window), human-authored bug reports (label ``bug``, ``[Bug]`` prefix or a
bug-ish title) whose title or body prose names a hang, crash, regression, wrong output or OOM, ranked by
engagement in the window (2 x comments + reactions), then by severity order.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from bot.model import BugKind, Signal
from bot.store.records import ItemRecord
from bot.topics.taxonomy import title_tags

_IMPACT_TAGS = frozenset(
    {
        "feature",
        "feat",
        "model",
        "new model",
        "perf",
        "performance",
        "kernel",
        "core",
        "v1",
        "frontend",
        "api",
        "spec decode",
        "quantization",
        "hardware",
        "rocm",
        "tpu",
        "cpu",
        "xpu",
        "distributed",
        "breaking",
        "refactor",
        "attention",
        "multimodal",
        "torch.compile",
        "scheduler",
        "engine",
    }
)
_IMPACT_LABELS = frozenset({"new-model", "performance", "feature", "breaking-change", "rfc"})
_LOW_TAGS = frozenset(
    {
        "doc",
        "docs",
        "documentation",
        "ci",
        "ci/build",
        "build",
        "misc",
        "minor",
        "chore",
        "typo",
        "test",
        "tests",
        "style",
        "lint",
        "ci failure",
        "deps",
        "dependencies",
    }
)
_LOW_LABELS = frozenset({"documentation", "ci/build", "dependencies"})
_BREAKING = re.compile(r"\b(breaking|deprecat\w*|remov\w*|drop support)\b", re.IGNORECASE)
_TYPO = re.compile(r"\btypos?\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Scored:
    score: float
    signals: tuple[Signal, ...]  # what scored, in the order above (followed topics are not shown)


def key_change_score(item: ItemRecord, followed_topics: int = 0) -> Scored:
    tags = set(title_tags(item.title))
    labels = {label.lower() for label in item.labels}
    score = 0.0
    signals: list[Signal] = []
    impact = sorted((tags & _IMPACT_TAGS) | (labels & _IMPACT_LABELS))
    if impact:
        score += 3
        signals.append(Signal("tag" if impact[0] in tags else "label", impact[0]))
    if "bugfix" in tags or "bug fix" in tags:
        score += 1
        signals.append(Signal("bugfix"))
    if not impact and (
        (tags and tags <= _LOW_TAGS | {"bugfix"} and tags & _LOW_TAGS)
        or labels & _LOW_LABELS
        or _TYPO.search(item.title)
    ):
        score -= 3
    if _BREAKING.search(_strip_tags(item.title)):
        score += 2
        signals.append(Signal("breaking"))
    if item.comment_count:
        score += min(3.0, math.log2(1 + item.comment_count))
        signals.append(Signal("comments", count=item.comment_count))
    if item.reactions:
        score += min(2.0, math.log2(1 + item.reactions))
        signals.append(Signal("reactions", count=item.reactions))
    if followed_topics:
        score += 1
    return Scored(round(score, 3), tuple(signals))


def _strip_tags(title: str) -> str:
    return re.sub(r"\[[^\]]*\]", " ", title)


_SEVERITY_PATTERNS: dict[BugKind, str] = {  # most severe first, as ``BUG_KINDS``
    "crash": r"\b(crash\w*|segfault\w*|segmentation fault|sigsegv|sigabrt|core dump(ed)?|illegal memory access"
    r"|cuda error|device-side assert|engine ?dead\w*|enginecore\w* died|worker died|"
    r"died unexpectedly)\b|崩溃",
    "hang": r"\b(hang|hangs|hanging|hung|stuck|freez\w*|frozen|deadlock\w*|timed out|timeout|"
    r"no response|never returns?)\b|卡住|卡死|死锁",
    "wrong_output": r"\b(wrong (output|results?|answers?)|incorrect (output|results?)|garbage|gibberish|"
    r"nans?|accuracy (drop|degradation|regression|issue)|repeated (output|tokens)|"
    r"output (is )?(wrong|broken|corrupted))\b|乱码|精度",
    "regression": r"\b(regression|regressed|slower than|perf(ormance)? drop|no longer works|broke(n)? "
    r"(after|since|in))\b",
    "oom": r"\b(oom|out of memory|outofmemoryerror|memory leak)\b|显存不足",
}
SEVERITIES: tuple[tuple[BugKind, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, re.IGNORECASE)) for name, pattern in _SEVERITY_PATTERNS.items()
)
_BUG_TITLE = re.compile(r"^\s*\[bug\]|\bbug\b", re.IGNORECASE)


def is_bug_report(item: ItemRecord) -> bool:
    return any(label.lower() == "bug" for label in item.labels) or bool(_BUG_TITLE.search(item.title))


def severity(item: ItemRecord) -> BugKind | None:
    """The first kind of serious failure the title (or else the body prose) describes."""
    title = _strip_tags(item.title)
    for name, pattern in SEVERITIES:
        if pattern.search(title):
            return name
    prose = item.prose[:4000]
    for name, pattern in SEVERITIES:
        if pattern.search(prose):
            return name
    return None
