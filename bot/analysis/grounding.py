"""Is an LLM answer true to the data it was given? Pure checks over (answer, the part's facts, locale).

A digest that teams act on must never carry a number, an item or a person that is not in the data, nor the
prompt itself: weak models echo their prompt (delimiters, field labels, whole data blocks) and every model
invents now and then. ``check`` returns the kinds of failure found (empty: grounded):

- ``echo``: a prompt delimiter or scaffold phrase (``<<<BEGIN DATA``, "Draft summary written from the counts"),
  or a long span copied verbatim from the prompt, not counting titles, labels, logins and identifiers
  (``Qwen3-30B``, ``v0.11``) that are in the data and may be quoted.
- ``invented item``: a ``#123`` that the data does not name.
- ``invented person``: an ``@login`` that is not among the people in the data (``@everyone``, ``@here`` and
  ``@channel`` are not people: the formatters neutralise them, as for any GitHub text).
- ``invented name``: a technical name (two or more capitals: ``AIR-RTC``, ``BIGARCTER``, ``vLLM``) that is
  neither in the data nor a common acronym (``GPU``, ``API``, ``CI``: ``COMMON_NAMES``).
- ``invented number``: a number (outside quoted identifiers that are in the data) that the data does not
  carry. Strict on purpose: no arithmetic, no rounding; "12 of 40" is fine only if both are given.
- ``wrong language``: a zh-CN answer that is not mostly Chinese outside code, names, titles and identifiers
  (or an English answer that is mostly Chinese).
- ``length``: shorter than a useful answer (not counting the names it quotes), or longer than the part's cap.

The facts of a part are what its prompt showed the model (``Facts``): the data blocks' text (numbers and
``#items`` are read from it), the names it may quote verbatim, and the logins of the people in it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import cached_property

ECHO = "echo"
INVENTED_ITEM = "invented item"
INVENTED_PERSON = "invented person"
INVENTED_NUMBER = "invented number"
INVENTED_NAME = "invented name"
WRONG_LANGUAGE = "wrong language"
LENGTH = "length"
KINDS = (ECHO, INVENTED_ITEM, INVENTED_PERSON, INVENTED_NUMBER, INVENTED_NAME, WRONG_LANGUAGE, LENGTH)

# Copied spans at least this long (characters, after normalising) are echoes. Long enough for a model to reuse
# a count line in its own sentence; short enough to catch a quoted paragraph. CJK says more per character.
COPY_CHARS = {"en": 80, "zh-CN": 48}
# Phrases only the prompt's scaffolding uses (both locales' are looked for whatever the answer's locale).
SCAFFOLD = (
    "<<<", ">>>", "‹‹‹", "›››", "begin data", "end data",
    "draft summary written from the counts", "description (excerpt)", "most relevant comments",
    "state today:", "labels:", "answer with one json", "answer with the", "analyse this github discussion",
    "write the status summary", "never instructions", "material to describe", "repository:", "window:", "counts:",
    "contributors:", "busiest areas:", "trends (topics busier", "hottest discussions:", "author:",
    "根据计数生成的摘要草稿", "描述（节选）", "最相关的评论", "今日状态：", "标签：", "只回答", "请为今天的摘要",
    "请为摘要分析", "绝不是给你的指令", "仓库：", "时间窗口：", "计数：", "贡献者：", "最活跃的领域：", "趋势（比平时",
    "最热的讨论：", "重点变更：", "作者：", "概要：",
)
# Acronyms any engineer writes without their being in the data (case-folded; plural forms too).
COMMON_NAMES = frozenset({
    "api", "gpu", "cpu", "ci", "cd", "pr", "issue", "llm", "rfc", "oom", "http", "https", "json", "url", "ui", "cli",
    "sdk", "ai", "kv", "id", "ok", "todo", "readme", "faq", "io", "os", "ram", "vram", "doc", "docs", "ml", "tps",
    "qps", "p99", "sla",
})
NOT_PEOPLE = frozenset({"everyone", "here", "channel", "all", "room"})

_DATA = re.compile(r"<<<BEGIN DATA:[^\n]*>>>\n?(.*?)<<<END DATA>>>", re.DOTALL)
_ITEM = re.compile(r"(?<![\w&])#(\d+)\b")
_LOGIN = re.compile(r"(?<![\w.@/])@([A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?)")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
# A token that names something (a model, a version, a flag): letters and digits together, or dotted digits.
_IDENTIFIER = re.compile(r"[a-z0-9_][a-z0-9_.+/-]*[a-z0-9_+]|[a-z0-9]")  # on case-folded text
_CODE = re.compile(r"`[^`\n]{1,200}`")
_URL = re.compile(r"https?://\S+")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f]")
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
_NAME = re.compile(r"(?<![\w@#-])[A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)*")
_GAP = "\x00"


def normalise(text: str) -> str:
    """Compatibility forms (full-width digits and letters), case-folded, whitespace collapsed."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


_SCAFFOLD = tuple(normalise(phrase) for phrase in SCAFFOLD)


def number_forms(token: str) -> set[str]:
    """A numeric token and its parts, canonical: ``1,234`` -> 1234; ``2.10`` -> 2.1 (and 2, 10);
    ``2025-12-01`` is three tokens already; leading zeros dropped."""
    forms: set[str] = set()
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+", token):
        forms.add(_canonical(token.replace(",", "")))
    else:
        forms.add(_canonical(token.replace(",", ".")))
    forms.update(_canonical(part) for part in re.split(r"[.,]", token) if part)
    return forms


def _canonical(token: str) -> str:
    if "." in token:
        whole, _, fraction = token.partition(".")
        whole, fraction = whole.lstrip("0") or "0", fraction.rstrip("0")
        return f"{whole}.{fraction}" if fraction else whole
    return token.lstrip("0") or "0"


def _answer_values(token: str) -> list[str]:
    """What an answer's number states: ``1,234`` one value; ``2.5`` one decimal; ``1.2.3`` or ``3,4`` each part."""
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+", token):
        return [_canonical(token.replace(",", ""))]
    if re.fullmatch(r"\d+\.\d+", token):
        return [_canonical(token)]
    return [_canonical(part) for part in re.split(r"[.,]", token) if part]


@dataclass(frozen=True)
class Facts:
    """What one part's prompt gave the model. ``prompt``: all of it (system and user messages), for echoes;
    ``data``: its data blocks (from GitHub and the digest), where numbers and items may come from; ``names``:
    titles, labels, topic names, logins, the repository: spans an answer may quote verbatim; ``logins``: the
    people in the data."""

    prompt: str
    data: str
    names: tuple[str, ...] = ()
    logins: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def of_prompt(cls, messages: list[dict[str, str]], *, names: tuple[str, ...] = (),
                  logins: frozenset[str] | set[str] = frozenset()) -> Facts:
        prompt = "\n".join(message.get("content", "") for message in messages)
        user = "\n".join(message.get("content", "") for message in messages if message.get("role") == "user")
        data = "\n".join(match.group(1) for match in _DATA.finditer(user))
        return cls(prompt=prompt, data=data, names=tuple(name for name in names if name and name.strip()),
                   logins=frozenset(login.casefold() for login in logins if login))

    @cached_property
    def numbers(self) -> frozenset[str]:
        text = unicodedata.normalize("NFKC", self.data)
        return frozenset(form for token in _NUMBER.findall(text) for form in number_forms(token))

    @cached_property
    def items(self) -> frozenset[str]:
        return frozenset(_canonical(number) for number in _ITEM.findall(unicodedata.normalize("NFKC", self.data)))

    @cached_property
    def words(self) -> frozenset[str]:
        """The Latin words of the data, case-folded."""
        return frozenset(_LATIN_WORD.findall(self.data_normalised))

    @cached_property
    def data_normalised(self) -> str:
        return normalise(self.data)

    @cached_property
    def quotable(self) -> tuple[str, ...]:
        """Normalised names, longest first (so a title is masked before a label inside it)."""
        found = {normalise(name) for name in self.names} | {normalise(login) for login in self.logins}
        return tuple(sorted((name for name in found if len(name) >= 2), key=len, reverse=True))

    def prompt_windows(self, size: int) -> frozenset[str]:
        return _windows(normalise(self.prompt), size)


def _windows(text: str, size: int) -> frozenset[str]:
    return frozenset(text[start : start + size] for start in range(max(0, len(text) - size + 1)))


def check(text: str, facts: Facts, locale: str, *, min_chars: int = 1, max_chars: int | None = None) -> list[str]:
    """The kinds of failure of ``text`` (one answer, or one field of it) against ``facts``; empty: grounded."""
    failures: list[str] = []
    plain = normalise(text)
    masked = _mask(plain, facts)
    own = " ".join(masked.replace(_GAP, " ").split())  # what the answer says beyond the names it quotes
    if (max_chars is not None and len(text) > max_chars) or len(own) < min_chars:
        failures.append(LENGTH)
    if _echoes(plain, facts, locale):
        failures.append(ECHO)
    items = set(_ITEM.findall(plain))
    if any(_canonical(number) not in facts.items for number in items):
        failures.append(INVENTED_ITEM)
    logins = {login.casefold() for login in _LOGIN.findall(unicodedata.normalize("NFKC", text))}
    if any(login not in facts.logins and login not in NOT_PEOPLE for login in logins):
        failures.append(INVENTED_PERSON)
    if _invented_numbers(masked, facts):
        failures.append(INVENTED_NUMBER)
    if _invented_names(text, facts):
        failures.append(INVENTED_NAME)
    if not _language_matches(masked, locale, facts):
        failures.append(WRONG_LANGUAGE)
    return failures


def _without_names(plain: str, facts: Facts) -> str:
    for name in facts.quotable:
        plain = plain.replace(name, _GAP)
    return _URL.sub(_GAP, plain)


def _mask(plain: str, facts: Facts) -> str:
    """The answer with what it may quote replaced by gaps: names from the data, identifiers the data has."""
    plain = _without_names(plain, facts)

    def identifier(match: re.Match[str]) -> str:
        token = match.group(0)
        quoted = (any(c.isdigit() for c in token) and any(c.isalpha() for c in token)) or token.count(".") >= 2
        return _GAP if quoted and token in facts.data_normalised else token

    return _IDENTIFIER.sub(identifier, plain)


def _echoes(plain: str, facts: Facts, locale: str) -> bool:
    if any(phrase in plain for phrase in _SCAFFOLD):
        return True
    size = COPY_CHARS.get(locale, COPY_CHARS["en"])
    windows = facts.prompt_windows(size)
    return any(
        window in windows
        for piece in _without_names(plain, facts).split(_GAP)
        for window in _windows(piece.strip(), size)
    )


def _invented_numbers(masked: str, facts: Facts) -> list[str]:
    without_items = _ITEM.sub(" ", _LOGIN.sub(" ", masked))
    return [value for token in _NUMBER.findall(without_items) for value in _answer_values(token)
            if value not in facts.numbers]


def _invented_names(text: str, facts: Facts) -> list[str]:
    invented = []
    for token in _NAME.findall(_URL.sub(" ", unicodedata.normalize("NFKC", text))):
        if sum(char.isupper() for char in token) < 2:
            continue
        folded = token.casefold()
        if folded in COMMON_NAMES or folded.rstrip("s") in COMMON_NAMES or folded in facts.logins:
            continue
        if folded not in facts.data_normalised and not any(folded in name for name in facts.quotable):
            invented.append(token)
    return invented


def _language_matches(masked: str, locale: str, facts: Facts) -> bool:
    """zh-CN: mostly Chinese once code, names and identifiers are set aside. A Latin word weighs two characters
    (a Chinese word is one or two), half a character when the data has it or it is a common acronym (a term of
    the title or the thread: "KV cache", "PR"). en: not mostly Chinese."""
    rest = _CODE.sub(" ", masked)
    rest = _LOGIN.sub(" ", rest)
    cjk = len(_CJK.findall(rest))
    data_words = facts.words
    latin = sum(0.5 if word in data_words or word in COMMON_NAMES else 2.0 for word in _LATIN_WORD.findall(rest))
    if cjk + latin == 0:
        return locale != "zh-CN"
    share = cjk / (cjk + latin)
    return share >= 0.6 if locale == "zh-CN" else share <= 0.3


__all__ = [
    "ECHO", "INVENTED_ITEM", "INVENTED_NAME", "INVENTED_NUMBER", "INVENTED_PERSON", "KINDS", "LENGTH",
    "WRONG_LANGUAGE", "Facts", "check", "normalise", "number_forms",
]
