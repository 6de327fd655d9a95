"""What an item is, from its own words: the failure a bug report describes (``bug_kind``) and the kind of change
a PR makes (``change_kind``). The rules are documented where they are used, in ``bot.digest.rank``.

Both read only an item's title, labels and prose, so the sync works them out once, when it stores the item
(``with_kinds``), keyed by ``KINDS_KEY``, a fingerprint of this module: a digest reads them from the store, and
works them out again only for an item stored before these rules changed. They used to cost a digest build a
quarter of its time, for every channel and every day again."""

from __future__ import annotations

import dataclasses
import hashlib
import re
from pathlib import Path
from typing import Protocol, cast

from bot.model import BugKind, SignalKind
from bot.store.records import ItemRecord
from bot.topics.taxonomy import title_tags

# Any edit of these rules gives stored kinds another key: stale ones are never read.
KINDS_KEY = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]


def bug_kind(item: ItemRecord) -> BugKind | None:
    """The failure a new issue reports (``is_bug_report``), or None when it is not a bug report of one."""
    if item.kinds_key == KINDS_KEY:
        return cast("BugKind | None", item.bug_kind)
    return _bug_kind(item)


def change_kind(item: ItemRecord) -> tuple[SignalKind | None, str]:
    """What kind of change a PR is, from its title tags, labels and title words, and a value for its signal
    (the figure a speed-up quotes, the failure a fix ends); None when nothing says."""
    if item.kinds_key == KINDS_KEY:
        return cast("SignalKind | None", item.change_kind), item.change_value
    return _change_kind(item)


def with_kinds(item: ItemRecord) -> ItemRecord:
    """The item with its kinds worked out, as the sync stores it."""
    change, value = _change_kind(item) if item.is_pr else (None, "")
    return dataclasses.replace(item, bug_kind=_bug_kind(item), change_kind=change, change_value=value,
                               kinds_key=KINDS_KEY)


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
    r"warning message|use the shared|shared [\w-]+ implementation|unif(y|ies|ied)|consolidat\w*|"
    r"deduplicat\w*)\b|^\s*log\b",
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
BUGFIX_TAGS = frozenset({"bugfix", "bug fix", "fix", "bug"})
_ADDS = re.compile(r"\b(add\w*|support\w*|enabl\w*|introduc\w*|implement\w*|allow\w*|expos\w*|port\w*|"
                   r"new)\b", re.IGNORECASE)
_BREAKING = re.compile(r"\b(breaking|deprecat\w*|remov\w*|drop(s|ped)? support)\b", re.IGNORECASE)
_DEFAULT = re.compile(r"\b(by default|default to|defaults to|change (the )?default\w*|new default)\b|"
                      r"^\s*default\b.*\bto\b",
                      re.IGNORECASE)
_SPEEDUP = re.compile(
    r"\b(speed ?ups?|speeds? up|faster|quicker|accelerat\w*|optimi[sz]\w*|tun(e|es|ed|ing)|"
    r"reduc\w* (the )?(latency|memory|overhead|ttft|tpot)|lower (latency|memory|ttft|tpot)|less memory|"
    r"memory (saving|usage|footprint)|"
    r"improv\w* (the )?(throughput|latency|performance))\b",
    re.IGNORECASE,
)
_FIGURE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?\s?[x×]|[-−]?\d+(?:\.\d+)?\s?%)(?!\w)")
_LEADING_ADD = re.compile(r"^\s*(add|support|enable|introduce|implement)\w*\b", re.IGNORECASE)
_FIX = re.compile(r"^\s*fix(es|ed)?\b", re.IGNORECASE)

def _change_kind(item: ItemRecord) -> tuple[SignalKind | None, str]:
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
    fixes = bool(tags & BUGFIX_TAGS) or bool(_FIX.search(title))
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
    if not tags and _LEADING_ADD.search(title):  # "Support video input for MiniCPM-V": untagged, still new
        return "feature", ""
    return None, ""


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
    "config_failure": "",  # _OnOneLine(_FAILING, _CONFIG): what (?=F).*C|(?=C).*F says
    "oom": r"\b(?:oom|out of memory|outofmemoryerror|memory leak|oom-?killed)\b|显存不足|内存不足|爆显存",
}
class _Finder(Protocol):
    def search(self, text: str) -> object: ...


class _OnOneLine:
    """Both patterns on one line, in either order: what ``(?=A).*B|(?=B).*A`` says, without trying both
    lookaheads at every position of a 4,000-character body (that regex cost more than all other kinds together)."""

    def __init__(self, first: str, second: str) -> None:
        self.first, self.second = re.compile(first, re.IGNORECASE), re.compile(second, re.IGNORECASE)

    def search(self, text: str) -> bool:
        if not (self.first.search(text) and self.second.search(text)):
            return False
        # "." stops at "\n" only, so lines are split on "\n" only.
        return any(self.first.search(line) and self.second.search(line) for line in text.split("\n"))


SEVERITIES: tuple[tuple[BugKind, _Finder], ...] = tuple(
    (name, _OnOneLine(_FAILING, _CONFIG) if name == "config_failure" else re.compile(pattern, re.IGNORECASE))
    for name, pattern in _SEVERITY_PATTERNS.items()
)
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


def _bug_kind(item: ItemRecord) -> BugKind | None:
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


