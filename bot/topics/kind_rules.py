"""The rules behind ``bot.topics.kinds``: what failure a bug report describes and what kind of change a PR
makes, from an item's title, labels and prose. The sync applies them when it stores an item; a digest reads the
stored kinds and imports this module (its hundreds of alternatives compile at import) only for an item stored
with older rules. The rules are documented where they are used, in ``bot.digest.rank``."""

from __future__ import annotations

import re
from typing import Protocol

from bot.model import BugKind, SignalKind
from bot.store.records import ItemRecord
from bot.topics.kinds import BUGFIX_TAGS, HELP_LABELS, HELP_TAGS, QUESTION, strip_tags
from bot.topics.taxonomy import title_tags

_INTERNAL_TAGS = frozenset(
    {
        "refactor", "doc", "docs", "documentation", "ci", "ci/build", "build", "chore", "typo", "test", "tests",
        "style", "lint", "ci failure", "deps", "dependencies", "minor", "cleanup", "logging", "deprecation",
        "v0 deprecation", "v1 deprecation", "pre-commit.ci", "ci bugfix",
    }
)
_INTERNAL_LABELS = frozenset({"documentation", "ci/build", "dependencies"})
# Housekeeping a reader does not feel. "Unified" names a kernel ("unified triton attention"), so only the verb
# counts; tests count when the change is about them ("Add tests for X"), not when a fix adds one in passing.
_INTERNAL_WORDS = re.compile(
    r"\b(typos?|renam\w*|refactor\w*|clean ?up|cleans up|unused|useless|dead code|redundant|unnecessary|"
    r"type hints?|lint\w*|flaky|logging|log (message|line)s?|"
    r"warning message|use the shared|shared [\w-]+ implementation|unif(y|ies)|consolidat\w*|"
    r"deduplicat\w*)\b|^\s*log\b|^\s*(?:add|fix|update|improve|enable|re-?enable|skip|disable|extend|move)\w* "
    r"(?:\w+ ){0,2}?(?:unit |e2e |regression |more |missing )?tests?\b|^\s*tests?\b",
    re.IGNORECASE,
)
_MODEL_TAGS = frozenset({"model", "new model", "models"})
_HARDWARE_TAGS = frozenset(
    {"hardware", "rocm", "amd", "tpu", "cpu", "xpu", "intel gpu", "nvidia", "neuron", "gaudi", "hpu", "arm",
     "blackwell", "npu"}
)
_FEATURE_TAGS = frozenset(
    {"feature", "feat", "frontend", "api", "kernel", "core", "v1", "spec decode", "quantization", "distributed",
     "attention", "multimodal", "torch.compile", "scheduler", "engine", "lora", "kv connector", "p/d",
     "kv offloading", "eplb", "structured output", "tool", "tool parser", "sampler", "mm", "triton"}
)
_PERF_TAGS = frozenset({"perf", "performance"})
_ADDS = re.compile(r"\b(add\w*|support\w*|enabl\w*|introduc\w*|implement\w*|allow\w*|expos\w*|port\w*|"
                   r"new)\b", re.IGNORECASE)
_BREAKING = re.compile(r"\bbreaking\b", re.IGNORECASE)
# Taking away something users call breaks them: a flag, an argument, an endpoint, an env var, "support for X".
# Deprecating it (a warning, it still works) or removing code ("the legacy block manager", "V0 backends") is
# housekeeping for readers.
_REMOVES = re.compile(r"\b(remov\w*|drop(s|ped|ping)?|delet\w*|no longer (accept|support)\w*)\b", re.IGNORECASE)
_DEPRECATES = re.compile(r"\b(deprecat\w*|remov\w*|drop(s|ped|ping)?|delet\w*)\b", re.IGNORECASE)
_USER_THING = re.compile(
    r"(?<![\w-])--[a-z][\w-]+|/v1/|\b(flags?|arguments?|args|options?|parameters?|params|fields?|endpoints?|"
    r"apis?|env(ironment)? var\w*|cli|support (for|of))\b",
    re.IGNORECASE,
)
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
# Tags that only say where a PR is in a series or its state, not what it is: "[2/N]", "[WIP]", "[Draft]".
_PART_TAG = re.compile(r"^(\d+\s*/\s*(\d+|n)|part \d+|wip|draft|rfc|misc|\d+)$", re.IGNORECASE)


def change_kind_of(item: ItemRecord) -> tuple[SignalKind | None, str]:
    """What kind of change a PR is, from its title tags, labels and title words, and a value for its signal
    (the figure a speed-up quotes, the failure a fix ends); None when nothing says.

    What a reader feels decides first: an internal tag says housekeeping whatever the words; then a fix that
    names a crash, hang or wrong output, or a speed-up, is user-facing even when its title also says "remove
    the redundant sync" or "refactor"; only then do housekeeping words make a change internal."""
    tags = set(title_tags(item.title))
    labels = {label.lower() for label in item.labels}
    title = strip_tags(item.title)
    takes_away = bool(_REMOVES.search(title) and _USER_THING.search(title))  # "Remove the --task flag"
    if (tags & _INTERNAL_TAGS or labels & _INTERNAL_LABELS) and not takes_away:
        return "internal", ""
    fixes = bool(tags & BUGFIX_TAGS) or bool(_FIX.search(title))
    failure = _title_failure(title) if fixes else None
    if failure is not None:
        return "fix", failure
    if tags & _PERF_TAGS or "performance" in labels:
        return "speedup", _figure(item)
    if takes_away or "breaking" in tags or "breaking-change" in labels or _BREAKING.search(title):
        return "breaking", ""
    if _INTERNAL_WORDS.search(title) or (_DEPRECATES.search(title) and not fixes):  # "[Bugfix] Remove X" fixes
        return "internal", ""
    if (tags & _MODEL_TAGS or "new-model" in labels) and not fixes:
        return "new_model", ""
    if _DEFAULT.search(title):
        return "default", ""
    if _SPEEDUP.search(title):
        return "speedup", _figure(item)
    if tags & _HARDWARE_TAGS and _ADDS.search(title):
        return "hardware", ""
    if (tags & _FEATURE_TAGS or "feature" in labels) and _ADDS.search(title) and not fixes:
        return "feature", ""
    if fixes:
        return "bugfix", ""
    kinds_of_tags = {tag for tag in tags if not _PART_TAG.match(tag)}
    if not kinds_of_tags and _LEADING_ADD.search(title):  # "Support video input for MiniCPM-V": untagged, still new
        return "feature", ""
    return None, ""


def _figure(item: ItemRecord) -> str:
    """The first figure a speed-up quotes ("1.8x", "30%"): the title first, then the body's own prose."""
    for text in (strip_tags(item.title), item.prose[:3000]):
        found = _FIGURE.search(text)
        if found:
            return re.sub(r"\s", "", found.group(1)).replace("×", "x").replace("−", "-")
    return ""


def _title_failure(title: str) -> BugKind | None:
    for name, pattern in SEVERITIES:
        if name in ("crash", "hang", "wrong_output") and pattern.search(title):
            return name
    return None


# A configuration named next to a failure: "fails with PP > 1", "TP=8", "--enable-lora", "with X enabled",
# "with transformers 4.57.3".
_CONFIG = (
    r"(?:\b(?:pp|tp|dp|ep|sp|cp)\s*(?:>=?|==?)\s*\d+|\b(?:pipeline|tensor|data|expert|sequence|context)[ -]parallel"
    r"\w*|(?<![\w-])--[a-z][\w-]+|\b\w+=\w+|\b(?:enabled|disabled)\b|\bwhen (?:using|enabling|setting)\b|"
    r"\b(?:with|on|using|under) [a-z][\w.-]* v?\d+(?:\.\d+)+\b)"
)
_FAILING = (
    r"\b(?:fail\w*|\w*errors?|\w*exceptions?|broken|breaks|not work\w*|(?:does|do)n'?t work|(?:does|do) not work|"
    r"unable to|cannot|can'?t|can not|not able to|won'?t (?:work|run|load|start|serve)|raises?|assert(?:ion)?\w*|"
    r"invalid|incompatible|not supported|unsupported|(?:does ?n[o']t|do ?n[o']t|does not|do not) support|"
    r"(?:issues?|problems?) with|same (?:bug|issue|problem)|missing|not (?:set|found|defined|initiali[sz]ed)|"
    r"no attribute|undefined|traceback)\b|报错|错误|失败|无法|异常"
)
_SEVERITY_PATTERNS: dict[BugKind, str] = {  # most severe first, as ``BUG_KINDS``
    # A crash: the process dies, or never comes up ("fails to start", "Engine process failed to start",
    # "unable to launch": vLLM's engine raising at start-up is its engine dying).
    "crash": r"\b(?:crash\w*|segfault\w*|segmentation fault|sigsegv|sigabrt|sigbus|sigill|core dump(?:ed)?|"
    r"illegal memory access|illegal instruction|(?:cuda|hip|nccl|cublas|hsa) error(?!:? out of memory)|"
    r"cuda_error_\w+|cudaerror\w*|cublas_status_\w+|hsa_status_error\w*|device-side assert\w*|no kernel image|"
    r"misaligned address|engine ?dead\w*|enginecore\w* died|(?:engine|worker|server|process|core)(?: \w+)? "
    r"(?:died|dies|is dead|was killed|gets? killed|exits? unexpectedly|exited unexpectedly)|died unexpectedly|"
    r"fatal (?:python )?error|terminate called|(?:engine|worker|enginecore\w*)(?: (?:core|process|proc))? "
    r"(?:failed|fails)\b|(?:fails?|failed|failing|unable|cannot|can'?t|can not|won'?t|could ?n[o']t) (?:to )?"
    r"(?:start|launch|lauch|boot|initiali[sz]e)|(?:is )?not starting|(?:does ?n[o']t|does not) start|"
    r"(?:start|startup|start-up|launch|initiali[sz]ation|init) "
    r"(?:fails|failed|failure|error))\b|崩溃|闪退|启动失败",
    # A hang: it stops making progress ("sits at 'Capturing CUDA graphs' forever", "stops answering").
    "hang": r"\b(?:hang|hangs|hanging|hung|stuck\w*|stall|stalls|stalled|stalling|freez\w*|frozen|deadlock\w*|"
    r"dead lock|timed out|timeout|times out|no response|not responding|unresponsive|stops? (?:responding|"
    r"answering|generating|serving)|stopped (?:responding|answering|generating|serving)|never (?:returns?|"
    r"finish\w*|complet\w*|ends?|starts?|loads?|responds?)|infinite(?:ly)? loading|(?:waits?|waiting|blocks?|"
    r"blocked|sits?|sitting|loads?|loading|pending|spins?|spinning|starting|initiali[sz]ing|compiling|"
    r"capturing)\b[^.\n]{0,60}?\b(?:forever|indefinitely))\b|卡住|卡死|死锁|无响应",
    # Wrong output: garbage, repetition, a quality drop, a mismatch with the reference implementation.
    "wrong_output": r"\b(?:(?:wrong|incorrect|bad|weird|strange|abnormal|corrupt\w*|messy|random|meaningless|"
    r"inconsistent|non-?deterministic|broken|improper|invalid) (?:\w+ )?(?:outputs?|results?|answers?|tokens?|"
    r"logits|logprobs|responses?|text|characters|generations?|completions?|json)|"
    # structured output that does not hold: "ignores guided json", "doesn't honor the json schema"
    r"(?:not|never|(?:does|do|did) ?n[o']?t|fails? to) (?:generat|produc|return|giv|respect|honou?r|follow|"
    r"obey)\w* (?:the |a )?"
    r"(?:proper|correct|valid|expected|right|specified|requested|given)|ignor(?:es|ed|ing) (?:the )?(?:guided|json|"
    r"schemas?|response_format|structured|grammar|stop|max_tokens)|not (?:a )?valid json|"
    r"garbage|gibberish|garbled|nonsense|meaningless|nans?|"
    r"(?:degraded|lower|worse|poor|reduced) accuracy|accuracy (?:\w+ ){0,3}?(?:drops?|dropped|degrad\w*|"
    r"regress\w*|decreas\w*|discrepanc\w*|mismatch\w*|issue|loss|lower|worse)|(?:drop|degradation|decrease) in "
    r"accuracy|(?:repeated|repetitive|repeating|endless|infinite) (?:outputs?|tokens?|text|decoding|generation|"
    r"words|answers?|responses?|content|paragraphs?|sentences?)|repetitions?|(?:is|are|becomes?|became|gets?|"
    r"got|getting|turns?) (?:very |extremely |too )?repetitive|keeps? (?:repeating|looping)|repeats? (?:itself|"
    r"the same|endlessly|forever|infinitely|over and over)|outputs? (?:is |are |becomes? |became )?(?:wrong|"
    r"broken|corrupted|garbled|inconsistent|abnormal|meaningless)|outputs? (?:repeated|garbage|gibberish|"
    r"nonsense)|different (?:outputs?|results?|answers?|logprobs|logits|embeddings|scores|responses?)|"
    r"(?:differs?|different|inconsistent|mismatch\w*|diverg\w*) (?:\w+ ){0,3}?(?:from|than|with|to|vs\.?) "
    r"(?:the )?(?:hf|huggingface|hugging face|transformers|sglang|original)|(?:returns?|outputs?|gives?|"
    r"generates?|produces?|emits?|responds? with) [^.\n]{1,60}?\binstead of|(?:tool|function)[- ]?call\w* "
    r"(?:\w+ )?loops?|(?:loops?|looping) (?:of |calling |on |in )?(?:the )?(?:tool|function)[- ]?call\w*|"
    r"(?:outputs?|answers?|responses?|generations?|completions?) (?:\w+ ){0,2}?(?:cut off|truncated)|"
    r"(?:is|are|was|were) (?:always |often |sometimes )?(?:incorrect|wrong)|(?:generates?|outputs?|produces?|"
    r"emits?) only\b(?! (?:one|a single|the first) )|"
    # a tool call that comes back as text: "tool calls left in content (not parsed)", "fails to parse tool calls"
    r"(?:tool[-_ ]?calls?|function[- ]?calls?)\b[^.\n]{0,40}?\b(?:not|never|isn'?t|aren'?t|fails? to|failed to) "
    r"(?:be )?(?:parsed|parse|captured|extracted|recogni[sz]ed)|(?:fails? to|failed to|doesn'?t|does not|can'?t|"
    r"cannot|not) (?:parse|extract|capture) (?:\w+ ){0,2}?(?:tool|function)[-_ ]?calls?|parser doesn'?t parse)\b|"
    r"!{4,}|"
    r"乱码|精度|重复输出|输出重复|错误输出|输出错误|结果错误|胡言乱语",
    # "reasoning_content is null": a field's name ends in the word, so there is no word boundary before it.
    "null_output": r"\b(?:returns? (?:null|none|nothing|an? empty|empty)|(?:null|none|empty|blank)\W{0,2} "
    r"?(?:content|output|responses?|text|string|results?|choices|message|completion|generation|reasoning|"
    r"arguments)|no output|outputs? nothing|empty strings?)\b|(?:\b|_)(?:content|output|response|text|"
    r"message|result|argument|answer)s?\b(?:[^.\n]|\.(?=\w)){0,40}?\b(?:is|was|are|were|comes? back|returns?|returned) "
    r"(?:always |often |sometimes )?(?:null|none|empty|blank)\b|"
    r"\bcontent\W{0,3}null\b|`(?:null|none)`|返回空|输出为空|空输出|空回复|内容为空",
    # A regression: it worked in an earlier version, or a performance problem ("slower than vllm v0.8.5").
    "regression": r"\b(?:regression|regressed|slower than (?:vllm |the |in )?(?:before|earlier|previous\w*|old\w*|"
    r"v?\d)|slower (?:after|since|in|with|on) v?\d|perf(?:ormance)? (?:drop|degradation)|throughput (?:drop|"
    r"decrease)|(?:higher|increased|worse) (?:latency|ttft|tpot|itl)|(?:lower|reduced|worse) throughput|"
    r"no longer works?|used to work|stopped working|works? (?:fine |well |ok |correctly )?(?:in|on|with|before|"
    r"using) (?:vllm )?v?\d|worked (?:fine |well )?(?:in|on|with|before) v?\d|broken? (?:after|since|by) |"
    r"broken? in (?:vllm |the )?(?:v?\d|latest|main|nightly|recent|new)|"
    r"(?:after|since) (?:upgrad\w+|updat\w+)|(?:since|after) (?:vllm )?v?\d+\.\d+|(?:for|in|with|on) (?:vllm )?"
    r"(?:>=|≥|>) ?v?\d+\.\d+|(?:with|in|on|using) (?:vllm ?)?(?:==|v)?\d+\.\d+[\w.]*,? (?:it |everything )?works?|"
    r"no (?:errors?|issues?|problems?) (?:in|on|with) (?:vllm )?v?\d|"
    r"(?:between|from) (?:vllm )?v?\d+\.\d+[\w.]* (?:and|to) (?:vllm )?v?\d+\.\d+)\b|回归|升级后|升级到.{0,20}后",
    "config_failure": "",  # _OnOneLine(_FAILING, _CONFIG): what (?=F).*C|(?=C).*F says
    "oom": r"\b(?:oom(?:s|ing|ed)?|out of memory|outofmemoryerror|memory leak\w*|leaks? memory|oom-?killed)\b|"
    r"显存不足|内存不足|爆显存",
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
# A performance report ([Performance], label performance) that says something is slow is a regression-level
# report even when it names no earlier version ("B200 slower than H200 for Qwen3-235B").
_PERF_TAGS_ISSUE = frozenset({"performance", "perf"})
_SLOW = re.compile(r"\b(?:slow\w*|latency|throughput|degrad\w*|drops?|regress\w*|worse)\b", re.IGNORECASE)


def severity(item: ItemRecord) -> BugKind | None:
    """The most severe failure the title describes, else the most severe the body's own prose does."""
    return _title_severity(item) or _kind_in(item.prose[:4000])


def _title_severity(item: ItemRecord) -> BugKind | None:
    return _kind_in(strip_tags(item.title))


def _kind_in(text: str) -> BugKind | None:
    for name, pattern in SEVERITIES:
        if pattern.search(text):
            return name
    return None


def bug_kind_of(item: ItemRecord) -> BugKind | None:
    if item.is_pr:
        return None
    tags = set(title_tags(item.title))
    labels = {label.lower() for label in item.labels}
    if tags & _NEVER_TAGS or labels & _NEVER_LABELS:
        return None
    in_title = _title_severity(item)
    bare_title = strip_tags(item.title)
    if tags & HELP_TAGS or labels & HELP_LABELS:
        asks = QUESTION.search(bare_title) is not None
        return in_title if in_title in ("crash", "hang") and not asks else None
    if "bug" in tags or "bug" in labels or _BUG_TITLE.search(item.title):
        # A bug report says what failed; when no kind is named ("[Bug]: vllm serve Gemma3 error",
        # "[Bug]: RuntimeError: PassManager::run failed"), it still fails with its model, hardware and flags.
        prose = item.prose[:4000]
        found = in_title or _kind_in(prose)
        if found is None and (_FAILS.search(bare_title) or _FAILS.search(prose)) and not _ASKS.search(prose):
            return "config_failure"
        return found
    if (tags | labels) & _PERF_TAGS_ISSUE and _SLOW.search(bare_title):
        return in_title or "regression"
    if in_title is not None:
        if QUESTION.search(bare_title) and in_title not in ("crash", "hang"):
            return None  # "Why is the output different from transformers?" asks, it does not report
        return in_title
    if _FAILS.search(bare_title) and not QUESTION.search(bare_title):
        return _kind_in(item.prose[:4000])
    return None


_FAILS = re.compile(_FAILING, re.IGNORECASE)
# A "[Bug]" that only asks whether something can be done ("I want the logits ... Is this possible?") is a usage
# question, unless it names a failure of one of the kinds above.
_ASKS = re.compile(r"\b(?:is (?:this|that|it) (?:possible|supported)|is there (?:a|any) way|how (?:can|do|should) "
                   r"(?:i|we)\b|possible to)", re.IGNORECASE)
