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
   its title, tags or labels name: model families, hardware, kernels, frontend, ...), at most +3 (a refactor
   across four model families outranks one on a helper, not a user-facing change);
3. size, with diminishing returns (from the PR's details, fetched at sync time): 0.8 x log2(1 + lines/10),
   at most 5, plus 0.25 x log2(files), at most 1; a PR whose size is unknown counts as a typical one
   (``TYPICAL_LINES`` lines in ``TYPICAL_FILES`` files);
4. review attention: min(2, 0.5 x log2(1 + comments + review comments)) + min(1, 0.5 x log2(1 + reactions)).

A merged PR is listed when it scores at least ``MIN_SCORE``; a PR in review ([WIP] titles are not) ranks
``IN_REVIEW_PENALTY`` below a merged one of the same weight. Best first (ties: the newer PR), at most
``MAX_KEY_CHANGES``. The signals name what scored: the first user-visible tag or label and [Bugfix] as the JSON
``reason`` has always shown them, then the kind of change, areas, lines, files, comments, review comments,
reactions.

Notable new bugs: issues opened in the window by a human that report a failure (``bug_kind``: a bug label, a
``[Bug]`` title, or a title that describes a failure; not feature requests, nor usage or installation questions
unless they describe a crash or hang), of the most severe kind the title (else the body's prose) describes:
crash > hang > wrong output > null output > regression > fails with a configuration > OOM. Ranked by
``notable_score``: severity weight x (1 + ``bug_reach``), at most ten.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from bot.model import BUG_KINDS, BugKind, Signal, SignalKind
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
AREA_WEIGHT, MAX_AREA_BONUS = 1.75, 3.0  # cap chosen by the editorial evaluation (docs/editorial.md)
_AREA_EVIDENCE = frozenset({"label", "tag", "title"})  # the body names many topics in passing: not an area
TYPICAL_LINES, TYPICAL_FILES = 100, 4
SIZE_WEIGHT, SIZE_MAX = 0.8, 5.0  # chosen by the editorial evaluation: editors weigh size more than 0.4 / 3 did
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


# --- notable new bugs ---

# A configuration named next to a failure: "fails with PP > 1", "TP=8", "--enable-lora", "with X enabled",
# "with transformers 4.57.3".
_CONFIG = (
    r"(?:\b(?:pp|tp|dp|ep|sp|cp)\s*(?:>=?|==?)\s*\d+|\b(?:pipeline|tensor|data|expert|sequence|context)[ -]parallel"
    r"\w*|(?<![\w-])--[a-z][\w-]+|\b\w+=\w+|\b(?:enabled|disabled)\b|\bwhen (?:using|enabling|setting)\b|"
    r"\b(?:with|on|using|under) [a-z][\w.-]* v?\d+(?:\.\d+)+\b)"
)
_FAILING = (
    r"\b(?:fail\w*|errors?|broken|breaks|not work\w*|(?:does|do)n'?t work|(?:does|do) not work|unable to|cannot|"
    r"can'?t|exceptions?|raises?|assert(?:ion)?\w*|invalid|incompatible|not supported|unsupported)\b"
)
_SEVERITY_PATTERNS: dict[BugKind, str] = {  # most severe first, as ``BUG_KINDS``
    "crash": r"\b(?:crash\w*|segfault\w*|segmentation fault|sigsegv|sigabrt|sigbus|core dump(?:ed)?|"
    r"illegal memory access|(?:cuda|hip) error(?!:? out of memory)|device-side assert\w*|no kernel image|"
    r"engine ?dead\w*|enginecore\w* died|(?:engine|worker|server|process|core)(?: \w+)? (?:died|dies|is dead|"
    r"was killed)|died unexpectedly|fatal error)\b|崩溃|闪退",
    "hang": r"\b(?:hang|hangs|hanging|hung|stuck|freez\w*|frozen|deadlock\w*|dead lock|timed out|timeout|"
    r"times out|no response|not responding|unresponsive|never (?:returns?|finish\w*|complet\w*|ends?)|"
    r"(?:waits?|blocks?|blocked|waiting) forever)\b|卡住|卡死|死锁|无响应",
    "wrong_output": r"\b(?:(?:wrong|incorrect|bad) (?:output|results?|answers?|tokens?|logits|logprobs|responses?)|"
    r"garbage|gibberish|garbled|nonsense|nans?|accuracy (?:drop|degradation|regression|issue|loss|decrease)|"
    r"(?:drop|degradation|decrease) in accuracy|(?:repeated|repetitive|repeating|endless|infinite) "
    r"(?:output|tokens?|text|decoding|generation|words|answers?|responses?|content)|repetitions?|"
    r"repeats? (?:itself|the same)|outputs? (?:is |are )?(?:wrong|broken|corrupted|garbled|inconsistent)|"
    r"outputs? (?:repeated|garbage|gibberish|nonsense)|"
    r"different (?:output|results?|answers?) (?:with|between|from|when|for))\b|乱码|精度|重复输出|输出重复",
    # "reasoning_content is null": a field's name ends in the word, so there is no word boundary before it.
    "null_output": r"\b(?:returns? (?:null|none|nothing|an? empty)|(?:null|none|empty|blank) (?:content|output|"
    r"responses?|text|string|results?|choices|message|completion|generation|reasoning)|no output|"
    r"outputs? nothing|empty strings?)\b|(?:\b|_)(?:content|output|response|text|message|result)s? "
    r"(?:is|was|are|were|comes? back) (?:null|none|empty|blank)\b|\bcontent\W{0,3}null\b|"
    r"返回空|输出为空|空输出|空回复|内容为空",
    "regression": r"\b(?:regression|regressed|slower than (?:before|earlier|previous\w*|in v?\d|v?\d)|"
    r"slower (?:after|since|in|with|on) v?\d|perf(?:ormance)? (?:drop|degradation)|throughput (?:drop|decrease)|"
    r"no longer works?|used to work|stopped working|worked (?:fine |well )?(?:in|on|with|before) v?\d|"
    r"broken? (?:after|since|in|by) |(?:after|since) upgrad\w+|since v?\d+\.\d+)\b|回归|升级后",
    "config_failure": rf"(?={_FAILING}).*{_CONFIG}|(?={_CONFIG}).*{_FAILING}",
    "oom": r"\b(?:oom|out of memory|outofmemoryerror|memory leak|oom-?killed)\b|显存不足|内存不足|爆显存",
}
SEVERITIES: tuple[tuple[BugKind, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, re.IGNORECASE)) for name, pattern in _SEVERITY_PATTERNS.items()
)
# Severity weight per kind (``notable_score``), each about 1.25x the next: severity decides unless reach is
# clearly larger (one confirmation lifts a report about one step; naming a model family alone never does).
SEVERITY_WEIGHTS: dict[BugKind, float] = {
    "crash": 10.0, "hang": 8.0, "wrong_output": 6.5, "null_output": 5.2, "regression": 4.2,
    "config_failure": 3.4, "oom": 2.7,
}
assert tuple(SEVERITY_WEIGHTS) == BUG_KINDS == tuple(_SEVERITY_PATTERNS), "one severity order"

MAX_NOTABLE = 10
# Hardware topics of the shipped taxonomy (it marks model families, ``lead_subject``, but not hardware).
HARDWARE_TOPICS = frozenset({"rocm", "cuda", "hardware"})

_BUG_TITLE = re.compile(r"\bbug\b", re.IGNORECASE)
# What a reporter says they are filing, by a title tag or a label: never a bug report (requests, proposals,
# docs), or asking for help (a bug report only when its title describes a crash or a hang).
_NEVER_TAGS = frozenset({"feature", "feature request", "rfc", "doc", "docs", "documentation", "new model", "roadmap"})
_NEVER_LABELS = frozenset({"feature request", "feature", "enhancement", "rfc", "documentation", "new-model"})
_HELP_TAGS = frozenset({"usage", "installation", "install", "question", "help", "help wanted", "how to"})
_HELP_LABELS = frozenset({"usage", "installation", "question"})
_QUESTION = re.compile(
    r"^\W*(?:how|what|why|which|where|when|who|is there|are there|can|could|does|do|should|would|any|is it)\b"
    r"|如何|怎么|怎样|是否",
    re.IGNORECASE,
)


def severity(item: ItemRecord) -> BugKind | None:
    """The most severe failure the title describes, else the most severe the body's own prose does."""
    return _title_severity(item) or _kind_in(item.prose[:4000])


def _title_severity(item: ItemRecord) -> BugKind | None:
    return _kind_in(_strip_tags(item.title))


def _kind_in(text: str) -> BugKind | None:
    for name, pattern in SEVERITIES:
        if pattern.search(text):
            return name
    return None


def is_bug_report(item: ItemRecord) -> bool:
    """Whether a new issue reports a failure: labelled bug or titled [Bug], or a title that describes one (or
    that says something fails and a body that says what). Feature requests, RFCs and docs never are; usage
    questions and installation help only when their title describes a crash or a hang."""
    return bug_kind(item) is not None


def bug_kind(item: ItemRecord) -> BugKind | None:
    """The failure a new issue reports (``is_bug_report``), or None when it is not a bug report of one."""
    if item.is_pr:
        return None
    tags = set(title_tags(item.title))
    labels = {label.lower() for label in item.labels}
    if tags & _NEVER_TAGS or labels & _NEVER_LABELS:
        return None
    in_title = _title_severity(item)
    bare_title = _strip_tags(item.title)
    if tags & _HELP_TAGS or labels & _HELP_LABELS:
        asks = _QUESTION.search(bare_title) is not None
        return in_title if in_title in ("crash", "hang") and not asks else None
    if "bug" in tags or "bug" in labels or _BUG_TITLE.search(item.title):
        return in_title or _kind_in(item.prose[:4000])
    if in_title is not None:
        if _QUESTION.search(bare_title) and in_title not in ("crash", "hang"):
            return None  # "Why is the output different from transformers?" asks, it does not report
        return in_title
    if re.search(_FAILING, bare_title, re.IGNORECASE) and not _QUESTION.search(bare_title):
        return _kind_in(item.prose[:4000])
    return None


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


def notable_score(kind: BugKind, reach: float) -> float:
    """Severity x (1 + reach): the order of the notable new bugs, highest first."""
    return round(SEVERITY_WEIGHTS[kind] * (1 + reach), 3)
