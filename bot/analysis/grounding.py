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
- ``invented number``: a number (digits or a number word: ``two``…``twelve``, ``二``…``十``, ``两`` before a
  measure word, ``one``/``一`` before a unit of time; outside quoted identifiers that are in the data) that the
  data does not carry and a careful writer does not derive from it (``Facts.grounds``): the window's length
  ("24 hours", "one day", "7 天"), a sum or difference of two or three counts of one kind (59 = 49 merged + 10
  closed unmerged), a share in percent of a part in its whole rounded half up (83%), a ratio of two counts
  (2.3x), how many items a list of the prompt shows ("three hot discussions", "两个"), or a hedged round number
  on the right side of one of these ("about 80%", "over 200"). A duration, a percentage and a multiple are held
  to their unit: "25 hours" for a 24-hour window is invented even if the data has a 25 somewhere.
- ``wrong language``: a zh-CN answer that is not mostly Chinese outside code, names, titles and identifiers
  (or an English answer that is mostly Chinese).
- ``length``: shorter than a useful answer (not counting the names it quotes), or longer than the part's cap.

The facts of a part are what its prompt showed the model (``Facts``): the data blocks' text (numbers and
``#items`` are read from it), the names it may quote verbatim, the logins of the people in it, and what the
analyst knows the figures of the data mean: the counts of one kind (``counts``), the shares worth a percentage
(``shares``), the sizes of the lists it shows (``listed``) and the window's length (``window_hours``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from itertools import combinations

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
_DECIMAL = re.compile(r"\d+(?:\.\d+)?")


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


# --- numbers an answer states: digits or words, with the unit and the hedge around them ---

HOUR, DAY, WEEK, PERCENT, TIMES = "hour", "day", "week", "percent", "times"
DURATIONS = frozenset({HOUR, DAY, WEEK})
ABOUT, OVER, UNDER = "about", "over", "under"
NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12,
}
_HAN_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
# A numeral: digits, an English number word, or a Chinese one (not an ordinal 第二, nor part of a word such as
# 同一, 统一, 唯一, 之一).
_NUMERAL = re.compile(
    r"(?P<digits>\d+(?:[.,]\d+)*)"
    r"|(?<![a-z0-9])(?P<word>one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)(?![a-z0-9])"
    r"|(?<![第同某每另任唯统单之万几])(?P<han>[一二两三四五六七八九十]{1,3})"
)
# What a number measures, right after it: a duration, a share, a multiple ("24-hour", "83%", "1.6x", "两个小时").
_UNIT = re.compile(
    r"\s?-?\s?(?:(?P<hour>hours?|hrs?|h)(?![a-z0-9])|(?P<day>days?)(?![a-z0-9])|(?P<week>weeks?)(?![a-z0-9])"
    r"|(?P<percent>%|percent(?![a-z])|per cent(?![a-z]))"
    r"|(?P<times>[x×](?![a-z0-9])|fold(?![a-z])|倍"
    r"|times(?= (?:faster|slower|more|fewer|less|larger|smaller|higher|lower|bigger|as|the)(?![a-z])))"
    r"|个?(?P<zh_hour>小时|钟头)|个?(?P<zh_week>星期|礼拜)|(?P<zh_week2>周)|(?P<zh_day>天))"
)
_UNITS = {"hour": HOUR, "zh_hour": HOUR, "day": DAY, "zh_day": DAY, "week": WEEK, "zh_week": WEEK,
          "zh_week2": WEEK, "percent": PERCENT, "times": TIMES}
# A Chinese numeral is a number before a measure word (两个, 三项, 五条, 一天); elsewhere 一 and 二 are parts
# of words (一致, 二者).
_MEASURE = re.compile(
    r"\s?(?:个|项|条|位|名|人|次|种|篇|份|处|组|轮|家|款|张|类|批|例|场|周|星期|礼拜|天|小时|钟头|倍)"
)
# Hedges: "about 80%", "over 200 contributors", "nearly 50", "约 80%", "超过 100 个", "100 多个", "80% 以上".
_HEDGE_BEFORE = re.compile(
    r"(?:(?P<about>(?<![a-z])(?:about|around|roughly|approximately|approx\.|some|close to)|~|≈|约|大约|大概|接近)"
    r"|(?P<over>(?<![a-z])(?:over|more than|above|upwards of|at least)|逾|超过|多于|至少)"
    r"|(?P<under>(?<![a-z])(?:nearly|almost|under|fewer than|less than|below)|将近|近乎|近|不到|少于|不足))\s*$"
)
_HEDGE_AFTER = re.compile(r"\s?(?:(?P<over>\+|多|余|以上)|(?P<about>左右|上下)|(?P<under>以下|以内))")
# How far a hedged round number may be from the figure it rounds: a share of it (counts, durations) or points
# (percentages), multiples (x); "about" is either side, "over" below the figure, "under"/"nearly" above it.
_HEDGE_STEP = {"": Fraction(5), PERCENT: Fraction(5), TIMES: Fraction(1, 2)}
_HEDGE_SLACK = {ABOUT: Fraction(15, 100), OVER: Fraction(20, 100), UNDER: Fraction(20, 100)}
_HEDGE_POINTS = {PERCENT: {ABOUT: Fraction(5), OVER: Fraction(10), UNDER: Fraction(10)},
                 TIMES: {ABOUT: Fraction(1, 2), OVER: Fraction(1), UNDER: Fraction(1)}}


@dataclass(frozen=True, slots=True)
class Claim:
    """A number an answer states: its canonical value (``1,234`` -> 1234), what it measures (``unit``: "" for a
    count, a duration, ``percent`` or ``times``) and how exactly (``hedge``: "", about, over or under)."""

    value: str
    unit: str = ""
    hedge: str = ""


def claims(text: str) -> Iterator[Claim]:
    """The numbers of ``text`` (normalised: ``normalise``), with their units and hedges. "one" and "一" are
    numbers only before a unit of time ("one day", "一天"): elsewhere they are articles ("one of the", "一个");
    another Chinese numeral only before a measure word ("两个", "三项"; not "二者")."""
    for match in _NUMERAL.finditer(text):
        end = match.end()
        # Digits inside a name ("MI355X", "H100", "sm90") measure nothing: the "x" of MI355X is no multiple.
        glued = match.group("digits") is not None and match.start() > 0 and text[match.start() - 1].isalpha()
        unit_match = None if glued else _UNIT.match(text, end)
        unit = _UNITS[unit_match.lastgroup or ""] if unit_match else ""
        if match.group("digits"):
            values = _answer_values(match.group("digits"))
        elif match.group("word"):
            word = match.group("word")
            if word == "one" and unit not in DURATIONS:
                continue
            values = [str(NUMBER_WORDS[word])]
        else:
            number = _han_value(match.group("han"))
            if number is None or not _MEASURE.match(text, end) or (number == 1 and unit not in DURATIONS):
                continue
            values = [str(number)]
        if len(values) != 1:  # "1.2.3": a version's parts, each stated as is
            yield from (Claim(value) for value in values)
            continue
        hedge = _HEDGE_BEFORE.search(text[max(0, match.start() - 24) : match.start()]) or _HEDGE_AFTER.match(
            text, unit_match.end() if unit_match else end) or _HEDGE_AFTER.match(text, end)
        yield Claim(values[0], unit, (hedge.lastgroup or "") if hedge else "")


def _han_value(numeral: str) -> int | None:
    """一 … 九十九 (两 = 2); None for a run of digits that is not one number."""
    if "十" in numeral:
        head, _, tail = numeral.partition("十")
        if "十" in tail or len(head) > 1 or len(tail) > 1:
            return None
        return (_HAN_DIGITS[head] if head else 1) * 10 + (_HAN_DIGITS[tail] if tail else 0)
    return _HAN_DIGITS[numeral] if len(numeral) == 1 else None


def _value(text: str) -> Fraction:
    return Fraction(text)


def _values(texts: Iterable[str]) -> tuple[Fraction, ...]:
    """The values of canonical numbers (a version's whole text, ``0.11.2``, is none)."""
    return tuple(Fraction(text) for text in texts if _DECIMAL.fullmatch(text))


def _text(value: Fraction) -> str:
    """The canonical text of a value (as ``_canonical`` writes a number): 59, 83.1."""
    if value.denominator == 1:
        return str(value.numerator)
    return _canonical(f"{float(value):.6f}")


def _round(value: Fraction, digits: int) -> str:
    """Rounded half up, as people round (83.05 -> 83.1; 82.5 -> 83)."""
    scale = 10**digits
    return _text(Fraction(int(value * scale + Fraction(1, 2)), scale))


def _near(value: Fraction, unit: str, hedge: str, targets: Iterable[Fraction]) -> bool:
    """A hedged round number for one of ``targets``: "about 80%" for 83.05%, "over 200" for 213."""
    step = _HEDGE_STEP.get(unit, _HEDGE_STEP[""])
    if not hedge or value <= 0 or value % step:
        return False
    for target in targets:
        slack = _HEDGE_POINTS[unit][hedge] if unit in _HEDGE_POINTS else _HEDGE_SLACK[hedge] * target
        if abs(value - target) > slack:
            continue
        if (hedge == OVER and value > target) or (hedge == UNDER and value < target):
            continue
        return True
    return False


@dataclass(frozen=True)
class Facts:
    """What one part's prompt gave the model. ``prompt``: all of it (system and user messages), for echoes;
    ``data``: its data blocks (from GitHub and the digest), where numbers and items may come from; ``names``:
    titles, labels, topic names, logins, the repository: spans an answer may quote verbatim; ``logins``: the
    people in the data.

    What the analyst knows the data's figures mean, for the numbers a careful writer derives from them:
    ``counts``, groups of counts of one kind (a digest's PR and issue counts; its contributors; the items of its
    busiest areas; the comments of its hot discussions): they add up, subtract and compare (114 / 49 = 2.3x);
    ``shares``, (part, whole) pairs whose share in percent is meaningful (merged of closed PRs: 49 of 49 + 10);
    ``listed``, how many items each list of the prompt shows (hot discussions, key changes, comments, labels);
    ``window_hours``, the window's length in hours (as its two timestamps read, and as elapsed when a clock
    change makes them differ)."""

    prompt: str
    data: str
    names: tuple[str, ...] = ()
    logins: frozenset[str] = field(default_factory=frozenset)
    counts: tuple[tuple[int, ...], ...] = ()
    shares: tuple[tuple[int, int], ...] = ()
    listed: tuple[int, ...] = ()
    window_hours: tuple[float, ...] = ()

    @classmethod
    def of_prompt(cls, messages: list[dict[str, str]], *, names: tuple[str, ...] = (),
                  logins: frozenset[str] | set[str] = frozenset(), counts: Iterable[Iterable[int]] = (),
                  shares: Iterable[tuple[int, int]] = (), listed: Iterable[int] = (),
                  window_hours: Iterable[float] = ()) -> Facts:
        prompt = "\n".join(message.get("content", "") for message in messages)
        user = "\n".join(message.get("content", "") for message in messages if message.get("role") == "user")
        data = "\n".join(match.group(1) for match in _DATA.finditer(user))
        return cls(prompt=prompt, data=data, names=tuple(name for name in names if name and name.strip()),
                   logins=frozenset(login.casefold() for login in logins if login),
                   counts=tuple(tuple(int(count) for count in group) for group in counts if group),
                   shares=tuple((int(part), int(whole)) for part, whole in shares if 0 <= part <= whole and whole),
                   listed=tuple(int(size) for size in listed),
                   window_hours=tuple(float(hours) for hours in window_hours if hours > 0))

    @cached_property
    def numbers(self) -> frozenset[str]:
        """Every number of the data, in all its parts (``number_forms``), and its number words' values."""
        text = unicodedata.normalize("NFKC", self.data)
        digits = {form for token in _NUMBER.findall(text) for form in number_forms(token)}
        return frozenset(digits | {claim.value for claim in self._data_claims})

    @cached_property
    def _data_claims(self) -> tuple[Claim, ...]:
        return tuple(claims(self.data_normalised))

    @cached_property
    def derived(self) -> frozenset[str]:
        """Counts a careful writer derives: a sum or difference of two or three counts of one group (49 + 10,
        114 - 49, 49 + 10 + 22, 114 - 49 - 10), and how many items a list of the prompt shows."""
        found: set[Fraction] = {Fraction(size) for size in self.listed if size > 0}
        for group in self.counts:
            values = [Fraction(count) for count in group]
            for a, b in combinations(values, 2):
                found.update((a + b, abs(a - b)))
            for trio in combinations(values, 3):
                a, b, c = sorted(trio, reverse=True)
                found.update((a + b + c, a - b - c))
        return frozenset(_text(value) for value in found if value > 0)

    @cached_property
    def _percents(self) -> tuple[Fraction, ...]:
        """``shares`` in percent, and what is left of each whole (49 of 59: 83.05%, and 16.95%)."""
        return tuple(Fraction(100 * portion, whole) for part, whole in self.shares for portion in (part, whole - part))

    @cached_property
    def _ratios(self) -> tuple[Fraction, ...]:
        """Of two counts of one group, the larger over the smaller (114 / 49; 28 comments against 15)."""
        return tuple(
            b / a for group in self.counts
            for a, b in combinations(sorted(Fraction(count) for count in group if count > 0), 2)
        )

    @cached_property
    def percents(self) -> frozenset[str]:
        """``shares`` in percent, rounded half up to a whole number or one decimal (49 of 59: 83, 83.1)."""
        return frozenset(text for share in self._percents for text in (_round(share, 0), _round(share, 1)))

    @cached_property
    def multiples(self) -> frozenset[str]:
        """The ratios of two counts of one group, to one decimal (114 / 49: 2.3)."""
        return frozenset(_round(ratio, 1) for ratio in self._ratios)

    def stated(self, unit: str) -> tuple[Fraction, ...]:
        """The values the data states in ``unit`` ("83%", "1.6x")."""
        return self._stated.get(unit, ())

    @cached_property
    def _stated(self) -> dict[str, tuple[Fraction, ...]]:
        units = {claim.unit for claim in self._data_claims}
        return {unit: _values(claim.value for claim in self._data_claims if claim.unit == unit) for unit in units}

    @cached_property
    def durations(self) -> frozenset[tuple[str, str]]:
        """(value, unit) of the durations the data states ("19.1 h", "hot for 2 days") and of the window's
        length in hours, days and weeks (whole or halves: 24 hours, 1 day; 168 hours, 7 days, 1 week)."""
        found = {(claim.value, claim.unit) for claim in self._data_claims if claim.unit in DURATIONS}
        found.update((value.partition(".")[0], unit) for value, unit in list(found))  # "19.1 h": about 19 hours
        for hours in self.window_hours:
            length = Fraction(hours).limit_denominator(60)
            for unit, size in ((HOUR, 1), (DAY, 24), (WEEK, 168)):
                if (length / size * 2).denominator == 1:
                    found.add((_text(length / size), unit))
        return frozenset(found)

    def grounds(self, claim: Claim) -> bool:
        """Whether ``claim`` is in the data or derived from it. A duration, share or multiple is held to its
        unit: stated so in the data ("hot for 2 days", "83%", "1.6x") or derived (the window's length, a share,
        a ratio); a count to any number of the data or a derived count. A hedged round number may stand for
        what it rounds, on the right side of it ("about 80%" for 83.05%, "over 200" for 213, "nearly 50" for
        49)."""
        value = _value(claim.value)
        if claim.unit in DURATIONS:
            if (claim.value, claim.unit) in self.durations:
                return True
            return _near(value, claim.unit, claim.hedge,
                         _values(number for number, unit in self.durations if unit == claim.unit))
        if claim.unit == PERCENT:
            return value in self.stated(PERCENT) or claim.value in self.percents or _near(
                value, PERCENT, claim.hedge, (*self._percents, *self.stated(PERCENT)))
        if claim.unit == TIMES:
            return value in self.stated(TIMES) or claim.value in self.multiples or _near(
                value, TIMES, claim.hedge, (*self._ratios, *self.stated(TIMES)))
        if claim.value in self.numbers or claim.value in self.derived:
            return True
        return _near(value, "", claim.hedge, self._count_targets)

    @cached_property
    def _count_targets(self) -> tuple[Fraction, ...]:
        return _values(self.numbers | self.derived)

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
    return [claim.value for claim in claims(without_items) if not facts.grounds(claim)]


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
    "DAY",
    "ECHO",
    "HOUR",
    "INVENTED_ITEM",
    "INVENTED_NAME",
    "INVENTED_NUMBER",
    "INVENTED_PERSON",
    "KINDS",
    "LENGTH",
    "PERCENT",
    "TIMES",
    "WEEK",
    "WRONG_LANGUAGE",
    "Claim",
    "Facts",
    "check",
    "claims",
    "normalise",
    "number_forms",
]
