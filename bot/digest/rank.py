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

from bot.model import BUG_KINDS, BugKind, Signal
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
