"""Why an item is picked for a section, as numbers with reasons a reader can check.

Key changes (docs/editorial.md, "Key changes"): human-authored PRs merged in the window, and open, non-draft
human PRs opened or discussed in the window that are significant (user-facing and at least ``SMALL_LINES``
lines changed, or at least ``LARGE_LINES`` whatever their kind). ``key_change_score`` adds up:

1. what kind of change it is, from its title tags, labels and title words (``change_kind``; what a reader
   feels decides first):
   internal (a [Refactor] / [CI] / [Doc] / [Test] / [Chore] / [Build] / [Deprecation] / [V0 Deprecation] tag,
   a dependencies / docs / CI label; or, unless the title is a fix naming a crash, hang or wrong output or a
   [Perf] change, a title about a typo, rename, refactor, clean-up, unused or redundant code, type hints,
   tests, logging, moving code onto a shared implementation ("unify", "consolidate"), or deprecating or
   removing code: "Remove the legacy block manager", "Deprecate guided_json in favor of structured_outputs")  +0
   crash, hang or wrong-output fix (a fix whose title names one, ``SEVERITIES``), however it is worded  +7
   speed-up or memory saving ([Perf], "faster", "speed up", "tune", "reduce memory", ...)           +6
     + 1.5 more when the title or the body's prose quotes a figure ("1.8x", "30% lower TTFT")
   breaking change: a removal of something users call (a --flag, an argument, option, parameter, field,
   endpoint, env var, "support for X"), label breaking-change, [Breaking], "breaking"                +6
   new model or model family ([Model], [New Model], label new-model; "[Model] Fix X" is a fix)      +7
   changed default ("by default", "default to", "Default X to Y")                                  +6
   new backend or hardware support (a hardware tag such as [ROCm] / [TPU] / [XPU] with add, support, enable,
   port)                                                                                           +6
   new feature or API ([Feature], [Frontend], [Kernel], [Core], ... with add, support, enable, ...) +6
   other bug fix ([Bugfix], "Fix ...")                                                              +3.5
   new feature without a kind tag ("Support video input for X", "Add FlashInfer MLA backend [4/N]": a title
   that starts by adding; "[2/N]", "[WIP]" and "[Misc]" say nothing of the kind)                    +6
   anything else (often a new kernel or backend named as a noun: "[Kernel] Triton MoE kernel for gfx942") +4
2. breadth: +1.75 for each area it touches beyond the first (its topic matches, ``ItemRecord.topics``, that
   its title, tags or labels name: model families, hardware, kernels, frontend, ...), at most +3 (a refactor
   across four model families outranks one on a helper, not a user-facing change);
3. size, with diminishing returns (from the PR's details, fetched at sync time): 0.8 x log2(1 + lines/10),
   at most 7, plus 0.25 x log2(files), at most 1; a PR whose size is unknown counts as a typical one
   (``TYPICAL_LINES`` lines in ``TYPICAL_FILES`` files);
4. review attention: min(2, 0.5 x log2(1 + comments + review comments)) + min(1, 0.5 x log2(1 + reactions)).

A merged PR is listed when users feel it (a user-facing kind or a bug fix: ``Scored.listed_merged``), whatever
its score, or else when it scores at least ``MIN_SCORE``; a PR in review ([WIP] titles are not) ranks
``IN_REVIEW_PENALTY`` below a merged one of the same weight. Best first (ties: the newer PR), at most
``MAX_KEY_CHANGES``. The signals name what scored: the first user-visible tag or label and [Bugfix] as the JSON
``reason`` has always shown them, then the kind of change, areas, lines, files, comments, review comments,
reactions.

Notable new bugs: issues opened in the window by a human that report a failure (``bug_kind``: a bug label, a
``[Bug]`` title, or a title that describes a failure; not feature requests, nor usage or installation questions
unless they describe a crash or hang), of the most severe kind the title (else the body's prose) describes:
crash > hang > wrong output > null output > regression > fails with a configuration > OOM (a bug report that
names no kind but says something fails counts as failing with its configuration). Ranked by ``notable_score``:
severity weight x (1 + ``bug_reach``), x ``PERIPHERAL_FACTOR`` for a failure of a side tool (the benchmark CLI,
metrics, examples, docs: ``peripheral``), at most ten.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from bot.model import BUG_KINDS, BugKind, Signal, SignalKind
from bot.store.records import ItemRecord
from bot.topics.kinds import (  # noqa: F401  (re-exported: the rules are documented here)
    BUGFIX_TAGS,
    bug_kind,
    change_kind,
    is_bug_report,
    is_help_request,
    severity,
)
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
KIND_WEIGHTS: dict[SignalKind, float] = {
    "internal": 0.0, "new_model": 7.0, "breaking": 6.0, "default": 6.0, "speedup": 6.0, "fix": 7.0,
    "hardware": 6.0, "feature": 6.0, "bugfix": 3.5,
}
OTHER_WEIGHT = 4.0  # a change we cannot tell the kind of (editors often pick them: "[Kernel] Triton MoE for gfx942")
FIGURE_BONUS = 1.5
AREA_WEIGHT, MAX_AREA_BONUS = 1.75, 3.0  # cap chosen by the editorial evaluation (docs/editorial.md)
_AREA_EVIDENCE = frozenset({"label", "tag", "title"})  # the body names many topics in passing: not an area
TYPICAL_LINES, TYPICAL_FILES = 100, 4
SIZE_WEIGHT, SIZE_MAX = 0.8, 7.0  # chosen by the editorial evaluation: editors weigh size more than 0.4 / 3 did
SMALL_LINES, LARGE_LINES = 100, 1000
MIN_SCORE = 4.5  # an internal change of typical size (100 lines in 4 files: 3.3) stays out; 2,000 lines (6) gets in
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

    @property
    def listed_merged(self) -> bool:
        """A merged PR of this kind is listed whatever its score: users feel it (a small fix too)."""
        return self.kind in _USER_FACING or self.kind == "bugfix"


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
    if tags & BUGFIX_TAGS and kind != "internal":
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


def may_be_significant(item: ItemRecord) -> bool:
    """``significant_in_review`` before scoring: False for an open PR that cannot be, whatever its kind (a
    [WIP], too small, or of unknown size with little review), so a busy window scores only the rest."""
    if _WIP.search(item.title):
        return False
    lines = _lines(item)
    if lines is None:
        return item.comment_count + (item.review_comments or 0) >= 3
    return lines >= SMALL_LINES


def significant_in_review(item: ItemRecord, scored: Scored) -> bool:
    """An open PR earns a place when it is user-facing and not small, or large whatever it is. Without its
    size, a user-facing PR that people are reviewing (3+ comments) stands in for "not small". A PR its title
    calls a work in progress ([WIP]) is not in review yet."""
    if not may_be_significant(item):  # a [WIP], too small, or of unknown size with little review
        return False
    lines = _lines(item)
    return scored.user_facing or (lines is not None and lines >= LARGE_LINES)


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
    return min(SIZE_MAX, SIZE_WEIGHT * math.log2(1 + lines / 10)) + min(1.0, 0.25 * math.log2(max(1, files or 1)))


# --- notable new bugs ---

# Severity weight per kind (``notable_score``), each about 1.25x the next: severity decides unless reach is
# clearly larger (one confirmation lifts a report about one step; naming a model family alone never does).
SEVERITY_WEIGHTS: dict[BugKind, float] = {
    "crash": 10.0, "hang": 8.0, "wrong_output": 6.5, "null_output": 5.2, "regression": 4.2,
    "config_failure": 3.4, "oom": 2.7,
}
assert tuple(SEVERITY_WEIGHTS) == BUG_KINDS, "one severity order"

MAX_NOTABLE = 10
# Hardware topics of the shipped taxonomy (it marks model families, ``lead_subject``, but not hardware).
HARDWARE_TOPICS = frozenset({"rocm", "cuda", "hardware"})

def bug_reach(
    item: ItemRecord, *, family: bool, hardware: bool, comments: int = 0, confirmations: int = 0
) -> float:
    """How many people a new bug may reach, 0 to about 2.5:
      +0.12 it names a model family (a ``lead_subject`` topic of the taxonomy), +0.06 a hardware topic (most
            reports name one: a small nudge)
      +0.2 x log2(1 + reactions + thumbs-up), at most 0.8 (a thumbs-up is someone saying "me too")
      +0.35 per comment in the window confirming it ("+1", "same here"), at most 1.05
      +0.15 x log2(1 + comments in the window), at most 0.45"""
    reach = (0.12 if family else 0.0) + (0.06 if hardware else 0.0)
    reach += min(0.8, 0.2 * math.log2(1 + item.reactions + item.thumbs_up))
    reach += min(1.05, 0.35 * confirmations)
    reach += min(0.45, 0.15 * math.log2(1 + comments))
    return round(reach, 3)


# A failure in a side tool reaches few readers: the benchmark CLI, the metrics, the examples, the docs' snippets,
# collect_env. "`vllm bench serve` crashes with a private dataset" is not the server crashing.
_PERIPHERAL = re.compile(
    r"`?vllm (?:bench|chat|complete|collect-env)\b|\bbenchmark\w*|\b(?:prometheus|grafana|metrics?|collect_env|"
    r"examples?/|example scripts?|docs?|documentation|readme|unit tests?|ci)\b",
    re.IGNORECASE,
)
PERIPHERAL_FACTOR = 0.6


def peripheral(item: ItemRecord) -> bool:
    """Whether a new bug is in a side tool rather than in serving (``_PERIPHERAL``, in its title)."""
    return _PERIPHERAL.search(item.title) is not None


def notable_score(kind: BugKind, reach: float, *, side_tool: bool = False) -> float:
    """Severity x (1 + reach), x ``PERIPHERAL_FACTOR`` for a side tool's failure: the order of the notable new
    bugs, highest first."""
    return round(SEVERITY_WEIGHTS[kind] * (1 + reach) * (PERIPHERAL_FACTOR if side_tool else 1.0), 3)
