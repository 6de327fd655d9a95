"""Why an item is picked for a section, as numbers with reasons a reader can check.

Key changes (docs/editorial.md, "Key changes"): human-authored PRs merged in the window, and open, non-draft
human PRs opened or discussed in the window that are significant (user-facing and at least ``SMALL_LINES``
lines changed, or at least ``LARGE_LINES`` whatever their kind). ``key_change_score`` adds up:

1. what kind of change it is, from its title tags, labels and title words (the first that applies):
   internal (a [Refactor] / [CI] / [Doc] / [Test] / [Chore] / [Build] tag, a dependencies / docs / CI label,
   or a title about a typo, rename, refactor, clean-up, unused or useless code, type hints, tests or logging;
   "Remove useless X" is internal, not a removal users feel)                                        +0
   new model or model family ([Model], [New Model], label new-model)                               +7
   breaking change or removal (label breaking-change, [Breaking], "breaking", "deprecate", "remove",
   "drop support" in the title)                                                                    +6
   changed default ("by default", "default to")                                                    +6
   speed-up or memory saving ([Perf], "faster", "speed up", "tune", "reduce memory", ...)           +6
     + 1.5 more when the title or the body's prose quotes a figure ("1.8x", "30% lower TTFT")
   crash, hang or wrong-output fix (a fix whose title names one, ``SEVERITIES``)                   +6
   new backend or hardware support (a hardware tag such as [ROCm] / [TPU] / [XPU] with add, support, enable,
   port)                                                                                           +6
   new feature or API ([Feature], [Frontend], [Kernel], [Core], ... with add, support, enable, ...) +6
   other bug fix ([Bugfix], "Fix ...")                                                              +3.5
   anything else                                                                                    +2
2. breadth: +1.75 for each area it touches beyond the first (its topic matches, ``ItemRecord.topics``, that
   its title, tags or labels name: model families, hardware, kernels, frontend, ...), at most +7 (a refactor
   across four model families weighs with a user-facing change);
3. size, with diminishing returns (from the PR's details, fetched at sync time): 0.4 x log2(1 + lines/10),
   at most 3, plus 0.25 x log2(files), at most 1; a PR whose size is unknown counts as a typical one
   (``TYPICAL_LINES`` lines in ``TYPICAL_FILES`` files);
4. review attention: min(2, 0.5 x log2(1 + comments + review comments)) + min(1, 0.5 x log2(1 + reactions)).

A merged PR is listed when it scores at least ``MIN_SCORE``; a PR in review ([WIP] titles are not) ranks
``IN_REVIEW_PENALTY`` below a merged one of the same weight. Best first (ties: the newer PR), at most
``MAX_KEY_CHANGES``. The signals name what scored: the first user-visible tag or label and [Bugfix] as the JSON
``reason`` has always shown them, then the kind of change, areas, lines, files, comments, review comments,
reactions.

Notable issues: new (opened in the window), human-authored bug reports (label ``bug``, ``[Bug]`` prefix or a
bug-ish title) whose title or body prose names a hang, crash, regression, wrong output or OOM, ranked by
engagement in the window (2 x comments + reactions), then by severity order.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from bot.model import BugKind, Signal, SignalKind
from bot.store.records import ItemRecord
from bot.topics.taxonomy import TopicMatch, title_tags

# Tags that mark user-visible work: shown as the legacy ``tag`` signal (the JSON ``reason``'s "[feature]").
_IMPACT_TAGS = frozenset(
    {
        "feature", "feat", "model", "new model", "perf", "performance", "kernel", "core", "v1", "frontend", "api",
        "spec decode", "quantization", "hardware", "rocm", "tpu", "cpu", "xpu", "distributed", "breaking",
        "attention", "multimodal", "torch.compile", "scheduler", "engine",
    }
)
_IMPACT_LABELS = frozenset({"new-model", "performance", "feature", "breaking-change", "rfc"})
_INTERNAL_TAGS = frozenset(
    {
        "refactor", "doc", "docs", "documentation", "ci", "ci/build", "build", "chore", "typo", "test", "tests",
        "style", "lint", "ci failure", "deps", "dependencies", "minor", "cleanup", "logging",
    }
)
_INTERNAL_LABELS = frozenset({"documentation", "ci/build", "dependencies"})
_INTERNAL_WORDS = re.compile(
    r"\b(typos?|renam\w*|refactor\w*|clean ?up|cleans up|unused|useless|dead code|redundant|unnecessary|"
    r"type hints?|lint\w*|add (unit )?tests?|tests? for|flaky|logging|log (message|line)s?|"
    r"warning message)\b|^\s*log\b",
    re.IGNORECASE,
)
_MODEL_TAGS = frozenset({"model", "new model", "models"})
_HARDWARE_TAGS = frozenset(
    {"hardware", "rocm", "amd", "tpu", "cpu", "xpu", "intel gpu", "nvidia", "neuron", "gaudi", "hpu", "arm",
     "blackwell", "npu"}
)
_FEATURE_TAGS = frozenset(
    {"feature", "feat", "frontend", "api", "kernel", "core", "v1", "spec decode", "quantization", "distributed",
     "attention", "multimodal", "torch.compile", "scheduler", "engine", "lora", "kv connector", "p/d"}
)
_PERF_TAGS = frozenset({"perf", "performance"})
_BUGFIX_TAGS = frozenset({"bugfix", "bug fix", "fix", "bug"})
_ADDS = re.compile(r"\b(add\w*|support\w*|enabl\w*|introduc\w*|implement\w*|allow\w*|expos\w*|port\w*|"
                   r"new)\b", re.IGNORECASE)
_BREAKING = re.compile(r"\b(breaking|deprecat\w*|remov\w*|drop(s|ped)? support)\b", re.IGNORECASE)
_DEFAULT = re.compile(r"\b(by default|default to|defaults to|change (the )?default\w*|new default)\b",
                      re.IGNORECASE)
_SPEEDUP = re.compile(
    r"\b(speed ?ups?|speeds? up|faster|quicker|accelerat\w*|optimi[sz]\w*|tun(e|es|ed|ing)|"
    r"reduc\w* (the )?(latency|memory|overhead|ttft|tpot)|lower (latency|memory|ttft|tpot)|less memory|"
    r"memory (saving|usage|footprint)|"
    r"improv\w* (the )?(throughput|latency|performance))\b",
    re.IGNORECASE,
)
_FIGURE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?\s?[x×]|[-−]?\d+(?:\.\d+)?\s?%)(?!\w)")
_FIX = re.compile(r"^\s*fix(es|ed)?\b", re.IGNORECASE)

KIND_WEIGHTS: dict[SignalKind, float] = {
    "internal": 0.0, "new_model": 7.0, "breaking": 6.0, "default": 6.0, "speedup": 6.0, "fix": 6.0,
    "hardware": 6.0, "feature": 6.0, "bugfix": 3.5,
}
OTHER_WEIGHT = 2.0  # a change we cannot tell the kind of
FIGURE_BONUS = 1.5
AREA_WEIGHT, MAX_AREA_BONUS = 1.75, 7.0
_AREA_EVIDENCE = frozenset({"label", "tag", "title"})  # the body names many topics in passing: not an area
TYPICAL_LINES, TYPICAL_FILES = 100, 4
SMALL_LINES, LARGE_LINES = 100, 1000
MIN_SCORE = 3.0
IN_REVIEW_PENALTY = 3.0
_WIP = re.compile(r"^\s*(\[wip\]|wip\b|\[draft\])", re.IGNORECASE)
MAX_KEY_CHANGES = 10
_USER_FACING: frozenset[SignalKind] = frozenset(
    {"new_model", "breaking", "default", "speedup", "fix", "hardware", "feature"}
)


@dataclass(frozen=True, slots=True)
class Scored:
    score: float
    signals: tuple[Signal, ...]  # what scored: the legacy tag/label first, then kind, breadth, size, review
    kind: SignalKind | None = None  # the kind of change (None: could not tell)

    @property
    def user_facing(self) -> bool:
        return self.kind in _USER_FACING


def change_kind(item: ItemRecord) -> tuple[SignalKind | None, str]:
    """What kind of change a PR is, from its title tags, labels and title words, and a value for its signal
    (the figure a speed-up quotes, the failure a fix ends); None when nothing says."""
    tags = set(title_tags(item.title))
    labels = {label.lower() for label in item.labels}
    title = _strip_tags(item.title)
    if tags & _INTERNAL_TAGS or labels & _INTERNAL_LABELS or _INTERNAL_WORDS.search(title):
        return "internal", ""
    if tags & _MODEL_TAGS or "new-model" in labels:
        return "new_model", ""
    if "breaking" in tags or "breaking-change" in labels or _BREAKING.search(title):
        return "breaking", ""
    if _DEFAULT.search(title):
        return "default", ""
    if tags & _PERF_TAGS or "performance" in labels or _SPEEDUP.search(title):
        return "speedup", _figure(item)
    fixes = bool(tags & _BUGFIX_TAGS) or bool(_FIX.search(title))
    if fixes:
        failure = _title_failure(title)
        if failure is not None:
            return "fix", failure
    if tags & _HARDWARE_TAGS and _ADDS.search(title):
        return "hardware", ""
    if (tags & _FEATURE_TAGS or "feature" in labels) and _ADDS.search(title) and not fixes:
        return "feature", ""
    if fixes:
        return "bugfix", ""
    return None, ""


def areas_touched(matches: list[TopicMatch]) -> int:
    """The areas a PR touches: its topics (model families, hardware, kernels, frontend, ...) that its title, tags
    or labels name."""
    return sum(1 for match in matches if any(e.source in _AREA_EVIDENCE for e in match.evidence))


def key_change_score(item: ItemRecord, areas: int = 0) -> Scored:
    """``areas``: how many areas the PR touches (``areas_touched``)."""
    tags = set(title_tags(item.title))
    labels = {label.lower() for label in item.labels}
    signals: list[Signal] = []
    impact = sorted((tags & _IMPACT_TAGS) | (labels & _IMPACT_LABELS))
    kind, value = change_kind(item)
    if impact and kind != "internal":
        signals.append(Signal("tag" if impact[0] in tags else "label", impact[0]))
    if tags & _BUGFIX_TAGS and kind != "internal":
        signals.append(Signal("bugfix"))
    score = KIND_WEIGHTS.get(kind, OTHER_WEIGHT) if kind is not None else OTHER_WEIGHT
    if kind is not None and kind != "bugfix":
        signals.append(Signal(kind, value))
    if kind == "speedup" and value:
        score += FIGURE_BONUS
    if areas > 1:
        score += min(MAX_AREA_BONUS, AREA_WEIGHT * (areas - 1))
        signals.append(Signal("areas", count=areas))
    score += _size_score(item)
    lines = _lines(item)
    if lines is not None:
        signals.append(Signal("lines", count=lines))
    if item.changed_files is not None:
        signals.append(Signal("files", count=item.changed_files))
    discussion = item.comment_count + (item.review_comments or 0)
    if discussion:
        score += min(2.0, 0.5 * math.log2(1 + discussion))
    if item.comment_count:
        signals.append(Signal("comments", count=item.comment_count))
    if item.review_comments:
        signals.append(Signal("review_comments", count=item.review_comments))
    if item.reactions:
        score += min(1.0, 0.5 * math.log2(1 + item.reactions))
        signals.append(Signal("reactions", count=item.reactions))
    return Scored(round(score, 3), tuple(signals), kind)


def significant_in_review(item: ItemRecord, scored: Scored) -> bool:
    """An open PR earns a place when it is user-facing and not small, or large whatever it is. Without its
    size, a user-facing PR that people are reviewing (3+ comments) stands in for "not small". A PR its title
    calls a work in progress ([WIP]) is not in review yet."""
    if _WIP.search(item.title):
        return False
    lines = _lines(item)
    if lines is None:
        return scored.user_facing and item.comment_count + (item.review_comments or 0) >= 3
    return lines >= LARGE_LINES or (scored.user_facing and lines >= SMALL_LINES)


def _lines(item: ItemRecord) -> int | None:
    if item.additions is None and item.deletions is None:
        return None
    return (item.additions or 0) + (item.deletions or 0)


def _size_score(item: ItemRecord) -> float:
    lines = _lines(item)
    files = item.changed_files
    if lines is None:
        lines = TYPICAL_LINES
        files = TYPICAL_FILES if files is None else files
    return min(3.0, 0.4 * math.log2(1 + lines / 10)) + min(1.0, 0.25 * math.log2(max(1, files or 1)))


def _figure(item: ItemRecord) -> str:
    """The first figure a speed-up quotes ("1.8x", "30%"): the title first, then the body's own prose."""
    for text in (_strip_tags(item.title), item.prose[:3000]):
        found = _FIGURE.search(text)
        if found:
            return re.sub(r"\s", "", found.group(1)).replace("×", "x").replace("−", "-")
    return ""


def _title_failure(title: str) -> BugKind | None:
    for name, pattern in SEVERITIES:
        if name in ("crash", "hang", "wrong_output") and pattern.search(title):
            return name
    return None


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
