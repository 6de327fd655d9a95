"""Topics as data (config/topics.toml) and the matcher that says which items belong to one, and why.

Evidence per topic, strongest first (docs/topics.md has the full story and the measured quality):

- a label from ``labels`` (exact, case-insensitive)                                       5
- the author's login matches one of ``authors`` (glob patterns: a vendor's engineers)       2
- a bracket tag in the title from ``tags``, or one that contains a keyword ("[ROCm]")     5
- a keyword, alias, ``strong`` phrase or ``patterns`` regex in the title (tags removed)     3
- a ``strong`` phrase or ``patterns`` regex in the body ("segfault", "18% lower TPOT")      3
- with ``lead_subject``: a body that opens with the topic's name ("gpt-oss ships ...")        3
- otherwise the body (prose only: no templates, code, <details> or environment dumps):
  1 per sentence that names the topic, counted only from ``body_min`` sentences (default 2)

A topic matches from ``MATCH_THRESHOLD``. ``exclude`` phrases are blanked out before keywords are searched,
so "cuda graph" cannot count for NVIDIA/CUDA and "x-ray" cannot count as Ray; so are the words of a
``not_near`` rule found close to a word that gives them another sense ("scheduled" next to "nightly job" is
not the engine's scheduler, "slow" next to "CI job" is not serving speed).
"""

from __future__ import annotations

import hashlib
import json
import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache
from pathlib import Path
from typing import Literal, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from bot import checked
from bot.locales import normalise_locale
from bot.model import Evidence, EvidenceSource, TopicRef
from bot.settings import ConfigProblem, config_error, load_toml, toml_line, validation_problems
from bot.text import body_prose

_ID_RE = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
_AUTHOR_GLOB = re.compile(r"[A-Za-z0-9*?-]{1,39}(?:\[bot\])?")
_TAG_RE = re.compile(r"\[([^\[\]]{1,40})\]")
# Word characters for boundaries: "amd" must not match in "command", "hip" not in "ship". "_" is not one, so
# identifiers such as fused_moe or kv_cache still show their words.
_WORD = r"0-9A-Za-z\u00C0-\u024F"
_WORD_CHAR = re.compile(f"[{_WORD}]")

LABEL_SCORE = 5
TAG_SCORE = 5
TITLE_SCORE = 3
PATTERN_SCORE = 3
BODY_SCORE = 1
# A vendor engineer's item belongs to the vendor's topic even when its text does not say so (editorial policy,
# "Followed topic sections"): enough alone, but the weakest evidence, so text that names the topic ranks first.
AUTHOR_SCORE = 2
BODY_MIN_HITS = 2  # sentences: a body mentions many things once, what it is about comes back
MATCH_THRESHOLD = 2

# Sentences of prose: end punctuation followed by space, or a paragraph break.
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|(?<=[。！？；])|\n+")
# What may come before the subject of the body's first sentence: quotes, brackets, emphasis left over, "The".
_LEAD = re.compile(r"[\s\"'“‘(\[*]*(?:the\s+)?", re.IGNORECASE)
# The whole word a lead subject is part of, and what makes that word one checkpoint rather than the family:
# an organisation ("Qwen/Qwen2.5-72B-Instruct-AWQ") or a parameter count ("Llama-3.1-8B", "gpt-oss-120b").
_LEAD_WORD = re.compile(r"[^\s,;:()]+")
_CHECKPOINT = re.compile(r"/|\d+(?:\.\d+)?[bm](?![a-z])", re.IGNORECASE)


def normalise_tag(tag: str) -> str:
    return re.sub(r"[\s_]+", " ", tag.strip().lower())


def title_tags(title: str) -> list[str]:
    return [normalise_tag(tag) for tag in _TAG_RE.findall(title)]


def _phrase_units(phrase: str) -> tuple[str, list[str], str]:
    """A phrase as (left boundary kind, regex units, right boundary): words on boundaries, space = any run of
    space/_/-, hyphen = optional separator, ``*`` = any more letters/digits/dots (``gfx9*`` matches gfx942,
    ``qwen* moe`` matches "Qwen3 MoE"). A count prefix is a boundary too: "8xH100" names the H100."""
    phrase = phrase.strip().lower()
    units: list[str] = []
    for piece in re.split(r"(\*| +|-)", phrase):
        if piece == "*":
            units.append(f"[{_WORD}.]*")
        elif piece == "-":
            units.append(r"[\s_-]?")
        elif piece.startswith(" "):
            units.append(r"[\s_-]+")
        else:
            units.extend(re.escape(ch) for ch in piece)
    # CJK has no spaces between words: boundaries only make sense around Latin text. A phrase that starts
    # with a symbol ("/v1/*") must not continue a word or a path ("tests/v1/sample").
    left = "word" if _WORD_CHAR.match(phrase) else "symbol" if re.match(r"[\x21-\x7e]", phrase) else "none"
    right = f"(?![{_WORD}])" if re.search(f"[{_WORD}*]$", phrase) else ""
    return left, units, right


_END = ""


def _trie_regex(root: dict) -> str:
    """A prefix tree of regex units as one regex. Longer continuations come before the end of a shorter
    phrase, as in a longest-first alternation. Built bottom-up with an explicit stack, not by recursion: a
    phrase is one unit per character, and a long one (a pasted query word) would exhaust Python's stack."""
    built: dict[int, str] = {}
    stack: list[tuple[dict, bool]] = [(root, False)]
    while stack:
        node, children_built = stack.pop()
        if not children_built:
            stack.append((node, True))
            stack.extend((child, False) for unit, child in node.items() if unit != _END)
            continue
        branches = [unit + built.pop(id(child)) for unit, child in node.items() if unit != _END]
        if not branches:
            built[id(node)] = ""
        elif len(branches) == 1 and _END not in node:
            built[id(node)] = branches[0]
        else:
            built[id(node)] = "(?:" + "|".join(branches) + ("|" if _END in node else "") + ")"
    return built[id(root)]


_LEFT = {
    "word": (f"(?:(?<![{_WORD}]{{c}})|(?<=[0-9][xX]{{c}}))", f"(?:(?<![{_WORD}])|(?<=[0-9][xX]))"),
    "symbol": (f"(?<![{_WORD}/]{{c}})", f"(?<![{_WORD}/])"),
    "none": ("", ""),
}


def compile_phrases(phrases: Iterable[str]) -> re.Pattern[str] | None:
    """One case-insensitive pattern for many phrases (see ``_phrase_units`` for the syntax).

    Built for Python's re, which tries alternatives one by one and only skips ahead fast when a pattern
    starts with one character class: phrases become prefix trees (grouped by their boundaries), and the
    pattern starts with the class of all first characters; the left boundary is checked just after it.
    Several times faster than a plain alternation of the same phrases, with the same matches."""
    groups: dict[tuple[str, str], dict] = {}
    for phrase in sorted({p for p in phrases if p.strip()}, key=lambda p: (-len(p.strip()), p)):
        left, units, right = _phrase_units(phrase)
        node = groups.setdefault((left, right), {})
        for unit in units:
            node = node.setdefault(unit, {})
        node[_END] = {}
    if not groups:
        return None
    firsts = {unit for root in groups.values() for unit in root}
    if any(unit.startswith("[") for unit in firsts):  # a leading * or separator: no first character to lead with
        parts = [_LEFT[left][1] + f"(?:{_trie_regex(root)})" + right for (left, right), root in groups.items()]
        return re.compile("|".join(parts), re.IGNORECASE)
    parts = []
    for (left, right), root in groups.items():
        chars = "".join(sorted(root))
        dispatch = "|".join(f"(?<={unit}){_trie_regex(child)}" for unit, child in root.items())
        boundary = _LEFT[left][0].format(c=f"[{chars}]")
        parts.append(f"(?<=[{chars}]){boundary}(?:{dispatch}){right}")
    lead = "".join(sorted(firsts))
    return re.compile(f"[{lead}](?:{'|'.join(parts)})", re.IGNORECASE)


def _compiled(phrases: Iterable[str]) -> re.Pattern[str]:
    """``compile_phrases`` for a fixed, non-empty list of phrases."""
    pattern = compile_phrases(phrases)
    if pattern is None:
        raise ValueError("no phrases to compile")
    return pattern


@cache  # compiled on first use (~10 ms): a digest or a query reading stored matches never does
def _env_keys() -> re.Pattern[str]:
    """Paragraphs of a pasted `python collect_env.py` (raw, not in a fence or <details>, so body_prose keeps
    them): they name CUDA, ROCm, CPUs and libraries on every line and say nothing about the item itself."""
    return _compiled([
        "pytorch version", "is debug build", "cuda used to build", "rocm used to build", "is cuda available",
        "cuda runtime version", "cuda_module_loading", "gpu models and configuration", "nvidia driver version",
        "cudnn version", "hip runtime version", "miopen runtime version", "is xnnpack available", "vllm build flags",
        "cuda archs", "gpu topology", "neuron sdk version", "rocm version", "vllm version", "libc version",
        "gcc version", "clang version", "cmake version", "python platform", "cpu op-mode", "vendor id:",
        "model name:", "address sizes", "architecture:", "flags:", "[pip3]", "[pip]", "[conda]", "numa node*",
        "versions of relevant libraries", "collecting environment information",
    ])


_ENV_VAR = re.compile(r"(?<![A-Za-z0-9_])[A-Z][A-Z0-9]*_[A-Z0-9_]+=\S")  # VLLM_USE_AITER=1, case-sensitive


@cache
def _boilerplate() -> re.Pattern[str]:
    """Boilerplate that body_prose leaves in (the PR template's footer, bots' trailers and headers)."""
    return _compiled([
        "anything written below this line will be removed", "dependabot will resolve any conflicts",
        "you can trigger dependabot actions", "automatic backport of pull request",
    ])


# A dependency bump's changelog lines ("Bumps the minor-update group with 3 updates ...: fastapi, ...",
# "Updates `fastapi` from 0.116.1 to 0.116.2") name other projects, not what the item is about.
_BUMP_LINE = re.compile(r"^[^\w\n]*(?:bumps|updates)\b.*\b(?:from \S*\d\S* to \S*\d|with \d+ updates?\b)",
                        re.IGNORECASE | re.MULTILINE)
# A command line left in the prose (a test plan's "pytest tests/v1/core", "lm_eval gsm8k, DeepSeek-V3, TP=8",
# "vllm serve ... -tp 8"): the setup used to test, which the labelling policy leaves out (A.2). body_prose joins
# a paragraph into one line, so a paragraph goes when it starts with a test runner (pytest, lm_eval: a test plan),
# or with another command and is nothing but the command: a flag, a path or an assignment and no sentence
# ("`vllm serve X` crashes with a segfault." is a report, and stays).
_PROMPT = r"^[ \t]*(?:\$[ \t]*)?(?:[A-Z][A-Z0-9_]*=\S*[ \t]+)*"  # "$ ", "CUDA_VISIBLE_DEVICES=0 " before a command
_TEST_RUNNER = re.compile(_PROMPT + r"(?:pytest|lm_eval|lm-eval)\b")
_COMMAND_LINE = re.compile(
    _PROMPT + r"(?:pytest|lm_eval|lm-eval|python3?|vllm[ \t]+(?:serve|bench)|curl|pip3?|uv|bash|torchrun|"
    r"docker[ \t]+run)\b", re.MULTILINE)
_COMMAND_ARGUMENT = re.compile(r"(?:^|\s)(?:--?\w|\S*[/=:]\S)")
_SENTENCE = re.compile(r"[.!?](?:\s|$)")
# A test's name (test_chat.py::test_chat_streaming, test_openai_server.py) is not the topic of its words (B.4),
# nor is a file's (docs/features/tool_calling.md, custom_all_reduce.cu, csrc/moe/marlin_moe_wna16).
_TEST_NAME = re.compile(r"\btest_\w+(?:\.py)?(?:::\w+)*")
_FILE_NAME = re.compile(
    r"(?<![\w/.-])(?:(?:csrc|vllm|benchmarks|examples|docs|tools|requirements|cmake|docker|tests|\.github|\.buildkite)"
    r"/[\w.-]+/[\w./-]*\w|[\w./-]*\w\.(?:py|md|cu|cuh|cpp|cc|h|hpp|yaml|yml|toml|json|sh|rst|txt|in))(?![\w/])")
# Files that are CI's and the build's own subject (policy C): they read as "ci", which ci_build counts.
_BUILD_FILES = ("setup.py", "pyproject.toml", "cmakelists.txt", "requirements", "dockerfile", "conftest.py")
_BUILD_DIRS = (".github/", ".buildkite/", "docker/", "requirements/", "tests/", "cmake/")
# A GitHub handle ("thanks @moe-kim", "cc @ray-zhang", "cc @moe.") names a person, never a topic. Usernames are
# letters, digits and hyphens: a decorator (@support_torch_compile, @torch.compile) is not one, nor "@B200",
# "@FP8" or "@4xH100" (a handle here starts with a letter and has a lower-case one).
_HANDLE = re.compile(r"(?<![\w@.])@(?=[A-Za-z0-9-]*[a-z])[A-Za-z][A-Za-z0-9-]*(?![\w(]|\.\w)")


def _is_env_dump(paragraph: str) -> bool:
    # Two collect_env keys, or a run of environment variables; one "VLLM_USE_AITER=1" in a sentence is prose.
    keys = len(_env_keys().findall(paragraph))
    assignments = len(_ENV_VAR.findall(paragraph))
    return keys >= 2 or assignments >= 3 or (keys >= 1 and assignments >= 1)


@lru_cache(maxsize=64)  # every topic asks for the same item's prose in turn
def matchable_prose(prose: str) -> str:
    """The prose a topic may look at: without pasted environment dumps and template boilerplate."""
    if not prose:
        return ""
    # Most prose has neither: one look at the whole text, then paragraph by paragraph only when needed.
    prose = _blank_names(prose)
    if not (_env_keys().search(prose) or _ENV_VAR.search(prose) or _boilerplate().search(prose)
            or _BUMP_LINE.search(prose) or _COMMAND_LINE.search(prose)):
        return prose
    kept = [p for p in prose.split("\n") if not _is_env_dump(p) and not _boilerplate().search(p)
            and not _BUMP_LINE.match(p) and not _is_command(p)]
    return "\n".join(kept)


def _is_command(paragraph: str) -> bool:
    if _COMMAND_LINE.match(paragraph) is None:
        return False
    if _TEST_RUNNER.match(paragraph) is not None:
        return True
    return _COMMAND_ARGUMENT.search(paragraph) is not None and _SENTENCE.search(paragraph) is None


def _blank_names(text: str) -> str:
    """Handles blanked out, test names read as "test" and file names as what the file is ("docs", "ci",
    "script" ...), padded to the same length so offsets stay valid."""
    if "@" in text:
        text = _HANDLE.sub(_blank, text)
    if "test_" in text:
        text = _TEST_NAME.sub(_as_test, text)
    if "." in text or "/" in text:
        text = _FILE_NAME.sub(_as_file, text)
    return text


def _as_file(match: re.Match[str]) -> str:
    # What the file is, without the words of its name: documentation ("Update README.md", "docs/.../fp8.md"),
    # an example, a script ("collect_env.py crashes" is a script's crash) or just a file.
    name = match.group(0)
    if len(name) < 6:
        return name
    lower = name.lower()
    if lower.startswith("docs/") or lower.endswith((".md", ".rst")):
        kind = "docs"
    elif lower.startswith("examples/"):
        kind = "examples"
    elif lower.startswith(_BUILD_DIRS) or lower.rsplit("/", 1)[-1].startswith(_BUILD_FILES):
        kind = "ci"
    elif name.endswith((".py", ".sh")):
        kind = "script"
    else:
        kind = "file"
    return kind.ljust(len(name))


def _as_test(match: re.Match[str]) -> str:
    # Still a test ("flaky test_prefix_caching" is a flaky test), without the words of its name.
    return "test".ljust(len(match.group(0)))


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group(0))


@lru_cache(maxsize=64)
def _bare_title(title: str) -> tuple[tuple[str, ...], str]:
    """The title's bracket tags, and the title without them."""
    return tuple(title_tags(title)), _blank_names(_TAG_RE.sub(" ", title))


def _sentence_starts(text: str) -> list[int]:
    return [0, *(m.end() for m in _SENTENCE_END.finditer(text))]


def _structure(pattern: str, start: int = 0) -> Iterator[tuple[int, str, int]]:
    """``(index, character, depth)`` of the regex's characters that are neither escaped nor inside a character
    class; ``depth`` counts the groups open after the character (a ``(`` already counts its own)."""
    depth, i, in_class = 0, start, False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            if pattern[i + 1:i + 2] == "^":
                i += 1
            if pattern[i + 1:i + 2] == "]":  # "[]...]", "[^]...]": a leading ] is a literal
                i += 1
        else:
            depth += (ch == "(") - (ch == ")")
            yield i, ch, depth
        i += 1


def _group_end(pattern: str, start: int) -> int:
    """The index just after the group that opens at ``pattern[start]`` ("("), or -1."""
    return next((i + 1 for i, ch, depth in _structure(pattern, start) if ch == ")" and depth == 0), -1)


def _split_top(pattern: str) -> list[str]:
    """A regex split at its top-level | (outside groups and character classes)."""
    cuts = [i for i, ch, depth in _structure(pattern) if ch == "|" and depth == 0]
    return [pattern[a + 1:b] for a, b in zip([-1, *cuts], [*cuts, len(pattern)], strict=True)]


_QUANTIFIER = tuple("?*+{")


def _led(pattern: str) -> tuple[list[str], str] | None:
    r"""A pattern that starts on a word boundary with a known first character, rewritten to consume that
    character first: (first characters, rest) with ``[characters]`` + rest matching what the pattern
    matches. ``\b\d+...`` becomes ``\d`` + ``(?<!\w\d)\d*...``; ``\b(?:improv\w*|cuts?)...`` becomes ``[ic]`` +
    ``(?<!\w.)(?:(?<=i)mprov\w*|(?<=c)uts?)...``. None for any other pattern (or one with a top-level |)."""
    if not pattern.startswith("\\b") or len(_split_top(pattern)) > 1:
        return None
    if pattern.startswith("\\b\\d+"):
        return ["\\d"], "(?<!\\w\\d)\\d*" + pattern[5:]
    if pattern.startswith("\\b(?:"):
        end = _group_end(pattern, 2)
        if end < 0:
            return None
        alternatives = _split_top(pattern[5:end - 1])
        rest = pattern[end:]
        if rest.startswith(_QUANTIFIER):  # "\b(?:ab|cd)?x": the group may match nothing
            return None
    else:
        alternatives, rest = [pattern[2:]], ""
    firsts = []
    for alternative in alternatives:
        if not (alternative[:1].isascii() and alternative[:1].isalpha()) or alternative[1:2].startswith(_QUANTIFIER):
            return None
        firsts.append(alternative[0].lower())
    body = "|".join(f"(?<={a[0]}){a[1:]}" for a in alternatives)
    return sorted(set(firsts)), f"(?<!\\w.)(?:{body}){rest}"


def _compile_patterns(patterns: Sequence[str]) -> tuple[re.Pattern[str], ...]:
    r"""Patterns as case-insensitive regexes with the same matches as their alternation, built for Python's re
    like ``compile_phrases``: the patterns that start on a word boundary with a known first character
    (``\b\d+``, ``\b(?:ttft|latency)``, ``\bvllm``) become one regex that starts with the class of those
    characters, which re scans for fast; the others stay one alternation. (``_leftmost`` takes the leftmost
    match of the two; at the same position the first regex wins, where the alternation might have preferred a
    later pattern: only the reason shown could differ.)"""
    led = [(p, _led(p)) for p in patterns]
    regexes = []
    others = [p for p, form in led if form is None]
    if others:
        regexes.append(re.compile(others[0] if len(others) == 1 else "|".join(f"(?:{p})" for p in others),
                                  re.IGNORECASE))
    forms = [form for _, form in led if form is not None]
    if forms:
        lead = "".join(sorted({c for chars, _ in forms for c in chars}))
        body = "|".join(f"(?<=[{''.join(chars)}]){rest}" for chars, rest in forms)
        regexes.insert(0, re.compile(f"[{lead}](?:{body})", re.IGNORECASE))
    return tuple(regexes)


def _leftmost(regexes: Sequence[re.Pattern[str]], text: str) -> re.Match[str] | None:
    """The leftmost match of any of the regexes, the first one on a tie: what one alternation of them finds."""
    best: re.Match[str] | None = None
    for regex in regexes:
        found = regex.search(text)
        if found is not None and (best is None or found.start() < best.start()):
            best = found
    return best


# A sentence end between two words ("." before a space, not the dot of "test_x.py"; a line break).
_GAP_END = re.compile(r"[.!?;。！？；](?:\s|$)|\n")


_WHOLE_TEXT = -1  # a ContextRule window that means scope = "text"


def _near(text: str, a: tuple[int, int], b: tuple[int, int], window: int) -> bool:
    """Whether two spans are in the same sentence with at most ``window`` words between them."""
    if a[1] <= b[0]:
        gap = text[a[1]:b[0]]
    elif b[1] <= a[0]:
        gap = text[b[1]:a[0]]
    else:
        return True  # they overlap
    return len(gap.split()) <= window and not _GAP_END.search(gap)


class ContextRule(BaseModel):
    """Words of a topic that mean something else next to certain other words: "scheduled" next to "nightly
    job" or "cron" is not the engine's scheduler. Such a word does not count where one of ``near`` is at most
    ``window`` words away in the same sentence (the title is one sentence). With ``scope = "text"`` the word
    does not count anywhere in an item (tags, title and body) that names one of ``near``: one sense per
    discourse, so after "NVIDIA Dynamo" a bare "Dynamo" is still NVIDIA's."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    words: list[str] = Field(min_length=1)
    near: list[str] = Field(min_length=1)
    window: int = Field(default=3, ge=0, le=10)
    scope: Literal["sentence", "text"] = "sentence"

    @model_validator(mode="after")
    def _window_is_for_sentences(self) -> ContextRule:
        if self.scope == "text" and "window" in self.model_fields_set:
            raise ValueError('window applies to scope = "sentence" only; a "text" rule covers the whole item')
        return self


class TopicDef(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    name: str
    name_zh: str | None = None
    labels: list[str] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    aliases: list[str] = Field(default_factory=list)
    exclude: list[str] = Field(default_factory=list)
    # Words that name the topic in a query ("/digest cpu") but say too little inside an item's text.
    query_words: list[str] = Field(default_factory=list)
    # Tags, aliases or query words that are everyday words or symptoms ("build", "server"): they match as
    # usual but never name the topic in a query, where they are plain words (docs/topics.md, "Queries").
    plain_words: list[str] = Field(default_factory=list)
    # GitHub logins whose items belong to the topic whatever their text says: glob patterns, case-insensitive
    # ("*-amd" for a vendor's engineers, "vllmellm" for a team account that posts real work).
    authors: list[str] = Field(default_factory=list)
    # Phrases (keyword syntax) and regular expressions (case-insensitive) that decide alone, even once in
    # the body: symptoms such as "segfault", measured claims such as "18% lower TPOT".
    strong: list[str] = Field(default_factory=list)
    patterns: list[str] = Field(default_factory=list)
    # Keywords too ambiguous to count in a body on their own ("image": a docker image); they still count in
    # the title and next to another keyword of the topic.
    ambiguous: list[str] = Field(default_factory=list)
    # How many body sentences must name the topic when the title and labels don't.
    body_min: int = Field(default=BODY_MIN_HITS, ge=1, le=10)
    # A body whose first sentence opens with the topic's name is about it ("gpt-oss ships MXFP4 experts."),
    # unless that name is one checkpoint, the model used to reproduce ("Qwen/Qwen2.5-72B-AWQ with -tp 4 ...").
    lead_subject: bool = False
    # Words that do not count next to words that give them another sense (``ContextRule``).
    not_near: list[ContextRule] = Field(default_factory=list)

    @field_validator("id")
    @classmethod
    def _id(cls, value: str) -> str:
        if not _ID_RE.match(value):
            raise ValueError(f"must be lower-case letters, digits and _ (got {value!r})")
        return value

    @field_validator("authors")
    @classmethod
    def _authors(cls, value: list[str]) -> list[str]:
        for pattern in value:
            if not _AUTHOR_GLOB.fullmatch(pattern):
                raise ValueError(f"not a login pattern {pattern!r} (letters, digits, -, [bot], * and ?)")
        return value

    @field_validator("patterns")
    @classmethod
    def _patterns(cls, value: list[str], info: ValidationInfo) -> list[str]:
        if info.context and info.context.get(PATTERNS_CHECKED):
            return value  # this very file compiled before (``Taxonomy.load``'s cache)
        for pattern in value:
            try:
                re.compile(pattern)
            except re.error as err:
                raise ValueError(f"bad regular expression {pattern!r}: {err}") from None
        return value


class TopicsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    topic: list[TopicDef] = Field(default_factory=list)


@dataclass(frozen=True)
class TopicMatch:
    topic_id: str
    score: int
    evidence: tuple[Evidence, ...]  # why, strongest first (``Evidence``); formatters put it into words

    def stored(self) -> tuple[str, int, tuple[str, ...]]:
        """As the store keeps it (``ItemRecord.topics``), under this taxonomy's fingerprint."""
        return self.topic_id, self.score, tuple(encode_evidence(e) for e in self.evidence)

    @classmethod
    def from_stored(cls, topic_id: str, score: int, evidence: Sequence[str]) -> TopicMatch:
        """A match the sync stored; evidence this code did not write (none under its fingerprint) is left out."""
        decoded = (decode_evidence(text) for text in evidence)
        return cls(topic_id, score, tuple(e for e in decoded if e is not None))


_SOURCES: frozenset[str] = frozenset(get_args(EvidenceSource))


def encode_evidence(evidence: Evidence) -> str:
    """Evidence as stored: a JSON array ``[source, value]`` or ``[source, value, sentences]``. This file is part of
    the taxonomy's fingerprint, so a changed encoding makes stored matches stale (and recomputed)."""
    fields: list[object] = [evidence.source, evidence.value]
    if evidence.sentences:
        fields.append(evidence.sentences)
    return json.dumps(fields, ensure_ascii=False, separators=(",", ":"))


@lru_cache(maxsize=8192)  # the same few thousand strings recur in every digest; Evidence is frozen
@lru_cache(maxsize=4096)  # the same few hundred texts ("label rocm", "title MI300X") across a search's items
def decode_evidence(text: str) -> Evidence | None:
    """``encode_evidence``'s inverse; None for anything it did not write."""
    try:
        fields = json.loads(text)
    except ValueError:
        return None
    if not (isinstance(fields, list) and len(fields) in (2, 3) and fields[0] in _SOURCES
            and isinstance(fields[1], str)):
        return None
    sentences = fields[2] if len(fields) == 3 else 0
    if type(sentences) is not int or sentences < 0:
        return None
    source: EvidenceSource = fields[0]
    return Evidence(source, fields[1], sentences)


@dataclass(frozen=True)
class Topic:
    definition: TopicDef

    @property
    def id(self) -> str:
        return self.definition.id

    def display_name(self, locale: str = "en") -> str:
        if normalise_locale(locale) == "zh-CN" and self.definition.name_zh:
            return self.definition.name_zh
        return self.definition.name

    def ref(self) -> TopicRef:
        """The topic as answers name it (formatters choose the name for the reader's locale)."""
        return TopicRef(self.id, self.definition.name, self.definition.name_zh)

    @cached_property
    def _labels(self) -> frozenset[str]:
        return frozenset(label.lower() for label in self.definition.labels)

    @cached_property
    def _tags(self) -> frozenset[str]:
        return frozenset(normalise_tag(tag) for tag in self.definition.tags)

    @cached_property
    def _keywords(self) -> re.Pattern[str] | None:
        d = self.definition
        return compile_phrases([*d.keywords, *d.aliases, *d.strong, *d.ambiguous])

    @cached_property
    def _exclude(self) -> re.Pattern[str] | None:
        return compile_phrases(self.definition.exclude)

    @cached_property
    def _not_near(self) -> tuple[re.Pattern[str] | None, list[tuple[re.Pattern[str], re.Pattern[str], int]]]:
        """All the rules' words as one pattern (one pass finds them), and per rule: words, near, window."""
        rules = []
        for rule in self.definition.not_near:
            words, near = compile_phrases(rule.words), compile_phrases(rule.near)
            if words is not None and near is not None:
                rules.append((words, near, rule.window if rule.scope == "sentence" else _WHOLE_TEXT))
        return compile_phrases(w for rule in self.definition.not_near for w in rule.words), rules

    @cached_property
    def _item_scoped(self) -> bool:
        return any(rule.scope == "text" for rule in self.definition.not_near)

    @cached_property
    def _ambiguous(self) -> re.Pattern[str] | None:
        return compile_phrases(self.definition.ambiguous)

    @cached_property
    def _patterns(self) -> tuple[re.Pattern[str], ...]:
        """The patterns in at most two regexes, each one pass over the text (see ``_compile_patterns``)."""
        return _compile_patterns(self.definition.patterns)

    @cached_property
    def _strong(self) -> tuple[re.Pattern[str], ...]:
        """Strong phrases and patterns, searched apart: the phrases keep the fast scan of ``compile_phrases``,
        which an alternation with the patterns would lose, and a lone pattern that starts with a literal
        ("Connector", "--") keeps re's fast scan for that literal."""
        phrases = compile_phrases(self.definition.strong)
        return (phrases, *self._patterns) if phrases is not None else self._patterns

    @cached_property
    def query_names(self) -> frozenset[str]:
        """Words that name this topic in a query, lower-case: its id, its name, its aliases, query words and
        tags, less its ``plain_words``. Other keywords never name it: a word is a word (docs/topics.md)."""
        d = self.definition
        names = {d.id, d.id.replace("_", "-"), d.name, *d.aliases, *d.query_words, *d.tags}
        plain = {normalise_tag(word) for word in d.plain_words}
        return frozenset(name for name in map(normalise_tag, names) if name not in plain)

    def aliases_pattern(self) -> re.Pattern[str] | None:
        """The aliases and query words as one word-boundary pattern (for finding topic names in free text)."""
        return compile_phrases([*self.definition.aliases, *self.definition.query_words])

    def names_word(self, word: str) -> bool:
        """Whether a free word of a query names this topic ("amd", "qwen3", "cpu" ...; not "hang", "mi300x")."""
        word = normalise_tag(word)
        return bool(word) and word in self.query_names

    @cached_property
    def _authors(self) -> re.Pattern[str] | None:
        # Only * and ? are wildcards: "[bot]" in a login is literal (fnmatch would read a character class).
        patterns = ["".join(".*" if ch == "*" else "." if ch == "?" else re.escape(ch) for ch in pattern.lower())
                    for pattern in self.definition.authors]
        return re.compile("|".join(f"(?:{p})" for p in patterns)) if patterns else None

    def author_hit(self, login: str) -> bool:
        """Whether ``login`` is one of the people or team accounts the topic lists (``authors``)."""
        return self._authors is not None and bool(login) and self._authors.fullmatch(login.lower()) is not None

    def _blank_excluded(self, text: str, item: str = "") -> str:
        """``text`` with exclusions and other senses blanked out; ``item`` is the whole item (tags, title and
        body), where a ``scope = "text"`` rule looks for its other sense. Same-length blanks keep offsets
        (sentence positions) valid."""
        original = item or text
        if self._exclude is not None:
            text = self._exclude.sub(lambda m: " " * len(m.group(0)), text)
        any_word, rules = self._not_near
        if any_word is None or not any_word.search(text):
            return text
        for words, near, window in rules:
            hits = [m.span() for m in words.finditer(text)]
            if not hits:
                continue
            if window == _WHOLE_TEXT:  # the other sense is named anywhere in the item, even in an excluded phrase
                blank = hits if near.search(original) else []
            else:
                context = [m.span() for m in near.finditer(text)]
                blank = [(a, b) for a, b in hits if any(_near(text, (a, b), span, window) for span in context)]
            if blank and self._keywords is not None:
                # A longer keyword the word is part of names the topic by itself ("async scheduling").
                longer = [m.span() for m in self._keywords.finditer(text)]
                blank = [(a, b) for a, b in blank if not any(c <= a and b <= d and d - c > b - a for c, d in longer)]
            for a, b in blank:
                text = f"{text[:a]}{' ' * (b - a)}{text[b:]}"
        return text

    def _keyword_hits(self, text: str, item: str = "") -> list[re.Match[str]]:
        # Most topics find nothing in most texts: look first, blank out exclusions only when something is there.
        if not text or self._keywords is None or not self._keywords.search(text):
            return []
        return list(self._keywords.finditer(self._blank_excluded(text, item)))

    def _tag_hit(self, tags: Sequence[str], item: str = "") -> str | None:
        for tag in tags:
            if tag in self._tags:
                return tag
        # A tag that names the topic by a keyword ("[Qwen3-Next]", "[Spec Decode]") is as good as a listed one.
        for tag in tags:
            if self._keyword_hits(tag, item):
                return tag
        return None

    def match(self, title: str, labels: Sequence[str], body: str = "", author: str = "") -> TopicMatch | None:
        """``body`` is the prose of the body (``bot.text.body_prose``), as stored at sync time; ``author`` the
        item's login."""
        score = 0
        evidence: list[Evidence] = []
        for label in labels:
            if label.lower() in self._labels:
                score += LABEL_SCORE
                evidence.append(Evidence("label", label))
                break
        tags, bare_title = _bare_title(title)
        # Rules about the whole item (scope = "text") see the tags, the title and the body together.
        item = f"{title}\n{body}" if self._item_scoped else ""
        tag = self._tag_hit(tags, item)
        if tag is not None:
            score += TAG_SCORE
            evidence.append(Evidence("tag", tag))
        title_hits = self._keyword_hits(bare_title, item)
        if title_hits:
            score += TITLE_SCORE
            evidence.append(Evidence("title", title_hits[0].group(0)))
        elif (self._patterns and any(pattern.search(bare_title) for pattern in self._patterns)
              and (found := _leftmost(self._patterns, self._blank_excluded(bare_title, item)))):
            # Look first, blank out exclusions only when something is there (as for keywords).
            score += PATTERN_SCORE
            evidence.append(Evidence("title", found.group(0)))
        if score < MATCH_THRESHOLD and body:
            body_score, found_in_body = self._body_evidence(matchable_prose(body), item)
            if found_in_body is not None:
                score += body_score
                evidence.append(found_in_body)
        if self.author_hit(author):
            # After the text: a reason that names the topic reads first, "by @x" adds who wrote it.
            score += AUTHOR_SCORE
            evidence.append(Evidence("author", author))
        if score < MATCH_THRESHOLD:
            return None
        return TopicMatch(self.id, score, tuple(evidence))

    def _body_evidence(self, prose: str, item: str = "") -> tuple[int, Evidence | None]:
        if not (self._keywords is not None and self._keywords.search(prose)) and not any(
            pattern.search(prose) for pattern in self._patterns
        ):
            return 0, None
        prose = self._blank_excluded(prose, item)
        if self._strong and (found := _leftmost(self._strong, prose)):
            return PATTERN_SCORE, Evidence("body", found.group(0))
        if self.definition.lead_subject and (subject := self._lead_subject(prose)):
            return PATTERN_SCORE, Evidence("body_lead", subject)
        hits = list(self._keywords.finditer(prose)) if self._keywords is not None else []
        if self._ambiguous is not None and all(self._ambiguous.fullmatch(hit.group(0)) for hit in hits):
            return 0, None
        if not hits:
            return 0, None
        starts = _sentence_starts(prose)
        sentences = len({bisect_right(starts, hit.start()) for hit in hits})
        if sentences < self.definition.body_min:
            return 0, None
        score = max(BODY_SCORE * sentences, MATCH_THRESHOLD)
        return score, Evidence("body", hits[0].group(0), sentences)

    def _lead_subject(self, prose: str) -> str | None:
        """The topic's name when it is the first word(s) of the body and not a single checkpoint's id."""
        if self._keywords is None:
            return None
        lead = _LEAD.match(prose)  # the pattern matches the empty string: never None in fact
        start = lead.end() if lead is not None else 0
        found = self._keywords.match(prose, start)
        if found is None or (self._ambiguous is not None and self._ambiguous.fullmatch(found.group(0))):
            return None
        word = _LEAD_WORD.match(prose, start)
        if word is not None and _CHECKPOINT.search(word.group(0)):
            return None
        return found.group(0)


@dataclass
class Taxonomy:
    topics: list[Topic] = field(default_factory=list)
    # Identifies the definitions and this matcher's code: topic matches stored by the sync under another
    # fingerprint are recomputed. A restricted view keeps its parent's fingerprint.
    fingerprint: str = ""

    def __post_init__(self) -> None:
        self._by_id = {topic.id: topic for topic in self.topics}
        if not self.fingerprint:
            digest = hashlib.sha256(Path(__file__).read_bytes())
            for topic in self.topics:
                digest.update(topic.definition.model_dump_json().encode())
            self.fingerprint = digest.hexdigest()[:16]

    def get(self, topic_id: str) -> Topic | None:
        return self._by_id.get(topic_id)

    def ids(self) -> list[str]:
        return [topic.id for topic in self.topics]

    def named(self, word: str) -> Topic | None:
        """The topic a query word names, if any (first in file order; ``Topic.names_word``)."""
        return next((topic for topic in self.topics if topic.names_word(word)), None)

    def match(self, title: str, labels: Sequence[str], body: str = "", author: str = "") -> list[TopicMatch]:
        """Every topic the item belongs to; ``body`` is the raw body (templates and code are skipped)."""
        prose = body_prose(body) if body else ""
        found = [topic.match(title, labels, prose, author) for topic in self.topics]
        return [m for m in found if m is not None]

    def restricted(self, ids: Sequence[str] | None) -> Taxonomy:
        if ids is None:
            return self
        return Taxonomy([topic for topic in self.topics if topic.id in set(ids)], fingerprint=self.fingerprint)

    @classmethod
    def load(cls, *paths: Path) -> Taxonomy:
        """Later files add topics or replace earlier ones with the same id. A ``ConfigError`` lists every
        problem of every file at once (with its line and a fix)."""
        merged: dict[str, TopicDef] = {}
        problems: list[ConfigProblem] = []
        for path in paths:
            entry = _checked_entry(path)
            parsed = _checked_before(entry)
            fresh = parsed is None
            if parsed is None:
                raw, unreadable = load_toml(path)
                if unreadable:
                    problems += unreadable
                    continue
                try:
                    parsed = TopicsFile.model_validate(raw)
                except ValidationError as err:
                    problems += validation_problems(path, err, TopicsFile)
                    continue
            before = len(problems)
            seen: set[str] = set()
            for index, definition in enumerate(parsed.topic):
                if definition.id in seen:
                    text = path.read_text(encoding="utf-8")
                    problems.append(ConfigProblem(
                        str(path), f"topic.{index}.id", f"topic {definition.id!r} is defined twice",
                        toml_line(text, ("topic", index, "id")), fix="give one of them another id, or merge them"))
                seen.add(definition.id)
                merged[definition.id] = definition
            if fresh and entry is not None and len(problems) == before:  # only a file that passed is kept
                checked.write(_CHECKED, entry, parsed.model_dump_json(exclude_unset=True))
        if problems:
            raise config_error(problems)
        return cls([Topic(definition) for definition in merged.values()])


_CHECKED = "topics"  # the kind of entry in ``bot.checked``'s folder
PATTERNS_CHECKED = "patterns_checked"  # validation context: the regular expressions compiled before


def _checked_entry(path: Path) -> str | None:
    """The cache key of a topics file as it is now, None when it cannot be read (load_toml says why)."""
    try:
        return checked.key(path.read_bytes(), Path(__file__))
    except OSError:
        return None


def _checked_before(entry: str | None) -> TopicsFile | None:
    """The file as validated by an earlier run (parsing and compiling skipped), if one kept it."""
    text = checked.read(_CHECKED, entry) if entry is not None else None
    if text is None:
        return None
    try:
        return TopicsFile.model_validate_json(text, context={PATTERNS_CHECKED: True})
    except ValidationError:
        return None  # an entry of another shape: checked again, and rewritten
