"""The query language shared by Slack, Discord and the CLI: words, filters and a window.

    rocm                        a topic
    qwen hangs 7d               free words (all must match; stems and synonyms) over the last 7 days
    #123  123                   that item, whatever the window (a bare number only when no other word is given)
    label:bug -label:stale author:alice -author:dependabot[bot] is:pr is:merged repo:owner/name -word
    24h 3d 2w today yesterday "last week" "since 2025-12-01" 2025-12-01..2025-12-07
    "this week" "last 3 days" "past 2 weeks" "last 24 hours" 今天 昨天 本周 这周 上周 最近三天 "近 7 天"

A question in plain words is read for what it asks: "what's new with rocm hangs this week" is ``rocm hangs``
over this week, "show me qwen crashes" is ``qwen crashes``, "这周 rocm 有没有卡住的" is ``rocm 卡住`` over this
week. The words that frame it (``bot.topics.words.STOPWORDS``, English and Chinese) are left out and kept in
``Query.ignored``; a word in quotes is always a word.

Parsing never fails. What it cannot use becomes a typed ``QueryNote`` in ``Query.issues`` (formatters word it)
and an English sentence in ``Query.notes`` (the JSON ``parsed.notes`` contract). A *problem* (an unknown
filter, a bad date, a range that ends before it starts) means the text does not say what was meant: the
caller refuses it rather than answer another question. An *adjustment* (a limit applied, a date clamped) is
said next to the answer. Limits: ``MAX_QUERY_CHARS``, ``MAX_TERMS`` words, ``MAX_WORD_CHARS`` per word,
``MAX_WINDOW_DAYS`` per window, dates from ``EARLIEST_DATE`` to today.
"""

from __future__ import annotations

import difflib
import re
from datetime import UTC, date, datetime, time, timedelta
from typing import get_args
from zoneinfo import ZoneInfo

from msgspec import Struct, field

from bot.model import QueryAdjustmentKind, QueryProblemKind, Window
from bot.settings import REPO_RE
from bot.topics.words import EN_NUMBERS, STOPWORDS, relative_token, split_chinese, zh_windows

MAX_QUERY_CHARS = 500
MAX_TERMS = 12  # words, and excluded words: each is a regex over every item of the window
MAX_WORD_CHARS = 100  # longer is a paste, not a word; it also bounds the regex built for it
MAX_WINDOW_DAYS = 366
EARLIEST_DATE = date(1970, 1, 1)  # earlier dates mean nothing here (and year 1 overflows east of UTC)
KNOWN_FILTERS = ("label", "author", "is", "repo")
IS_VALUES = {"issue": "kind", "pr": "kind", "open": "state", "closed": "state", "merged": "state", "bot": "bot"}

_RELATIVE = re.compile(r"^(\d{1,4})(h|d|w)$", re.IGNORECASE)
_DATE = r"\d{4}-\d{1,2}-\d{1,2}"
_RANGE = re.compile(rf"^({_DATE})\.\.({_DATE})$")
_ZERO_WIDTH = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]")

QUERY_PROBLEMS: frozenset[str] = frozenset(get_args(QueryProblemKind))
_FILTER_EXAMPLES = {"label": "label:bug", "author": "author:alice", "is": "is:pr", "repo": "repo:owner/name"}
_IS_OPPOSITES = {"pr": "is:issue", "issue": "is:pr", "open": "is:closed", "closed": "is:open", "merged": "is:open"}


class QueryNote(Struct, frozen=True):
    """Something in the text the grammar did not take as typed: ``value`` is the part at fault (or a limit),
    ``hint`` the fix or what was used instead (a known filter, the range the right way round, a date)."""

    kind: QueryProblemKind | QueryAdjustmentKind
    value: str = ""
    hint: str = ""

    @property
    def is_problem(self) -> bool:
        return self.kind in QUERY_PROBLEMS

    def english(self) -> str:
        """The sentence for JSON's ``parsed.notes`` (a contract: English, as it always was). Chat users get the
        typed note worded by ``formatters`` in their language instead."""
        v, h = self.value, self.hint
        return {
            "unknown_filter": f"unknown filter “{v}” (known: {', '.join(f + ':' for f in KNOWN_FILTERS)})",
            "bad_is": f"“{v}”: is: takes issue, pr, open, closed, merged or bot",
            "negated_is": f"“{v}”: negated is: filters are not supported",
            "no_value": f"“{v}” has no value (e.g. {h})",
            "bad_repo": f"“{v}” is not a repository (use repo:owner/name)",
            "bad_date": f"“{v}” is not a date (use YYYY-MM-DD)",
            "inverted_range": f"“{v}” ends before it starts (use {h})",
            "empty_window": f"“{v}” is an empty window (use {h})",
            "query_cut": f"the query was cut to its first {v} characters",
            "words_dropped": f"only the first {v} words are used",
            "word_cut": f"a word was cut to its first {h} characters (“{v}”)",
            "window_capped": f"windows are limited to {v} days; using the last {v}",
            "date_clamped": f"“{v}” is out of range; using {h}",
            "several_windows": f"several windows given; using “{v}”",
        }[self.kind]


class WindowSpec(Struct, frozen=True):
    """A window as typed; ``resolve`` turns it into UTC times for a given now and zone."""

    kind: str  # relative | today | yesterday | last_week | since | range
    amount: timedelta | None = None
    start_date: date | None = None
    end_date: date | None = None  # inclusive
    text: str = ""

    def resolve(self, now: datetime, zone: ZoneInfo) -> Window:
        return self.resolve_noted(now, zone)[0]

    def resolve_noted(self, now: datetime, zone: ZoneInfo) -> tuple[Window, tuple[QueryNote, ...]]:
        """The window in UTC, and what had to change to get one: dates after today (in ``zone``) become today,
        dates before ``EARLIEST_DATE`` become it, and no window is longer than ``MAX_WINDOW_DAYS`` days."""
        local_now = now.astimezone(zone)
        today = local_now.date()
        notes: list[QueryNote] = []
        longest = timedelta(days=MAX_WINDOW_DAYS)

        def midnight(day: date) -> datetime:
            return datetime.combine(day, time(0), tzinfo=zone)

        def clamped(day: date) -> date:
            used = min(max(day, EARLIEST_DATE), today)
            if used != day:
                notes.append(QueryNote("date_clamped", day.isoformat(), used.isoformat()))
            return used

        if self.kind == "relative":
            assert self.amount is not None
            start, end = now - min(self.amount, longest), now
        elif self.kind == "today":
            start, end = midnight(today), now
        elif self.kind == "yesterday":
            start, end = midnight(today - timedelta(days=1)), midnight(today)
        elif self.kind == "last_week":
            monday = today - timedelta(days=today.weekday())
            start, end = midnight(monday - timedelta(days=7)), midnight(monday)
        elif self.kind == "since":
            assert self.start_date is not None
            end = now
            # Compare dates before making times: midnight of year 1 does not exist in UTC east of Greenwich.
            start = now - longest
            if self.start_date >= today - longest and (since := midnight(clamped(self.start_date))) >= start:
                start = since
            else:
                notes.append(QueryNote("window_capped", str(MAX_WINDOW_DAYS)))
        else:
            assert self.start_date is not None and self.end_date is not None
            first, last = clamped(self.start_date), clamped(self.end_date)
            if last - first >= longest:  # inclusive days: the window runs to the midnight after ``last``
                first = last - longest + timedelta(days=1)
                notes.append(QueryNote("window_capped", str(MAX_WINDOW_DAYS)))
            start, end = midnight(first), midnight(last + timedelta(days=1))
        unique = tuple(dict.fromkeys(notes))
        return Window(start=_utc(start), end=_utc(end), timezone=zone.key), unique


def _utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC)


class Query(Struct, frozen=True):
    text: str
    words: tuple[str, ...] = ()
    excluded_words: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    excluded_labels: tuple[str, ...] = ()
    authors: tuple[str, ...] = ()
    excluded_authors: tuple[str, ...] = ()
    kinds: frozenset[str] = frozenset()  # issue | pr
    states: frozenset[str] = frozenset()  # open | closed | merged
    bots_only: bool = False
    repo: str | None = None
    window: WindowSpec | None = None
    notes: tuple[str, ...] = ()  # the English sentences of ``issues``, for JSON
    issues: tuple[QueryNote, ...] = ()
    numbers: tuple[int, ...] = ()  # items asked for by number (#123, or 123 alone)
    ignored: tuple[str, ...] = ()  # the words a question was framed in ("what's", "show", "me", "有没有"): left out

    @property
    def problems(self) -> tuple[QueryNote, ...]:
        """What makes the text unanswerable as typed: answering anyway would answer another question."""
        return tuple(issue for issue in self.issues if issue.is_problem)

    @property
    def adjustments(self) -> tuple[QueryNote, ...]:
        return tuple(issue for issue in self.issues if not issue.is_problem)

    @property
    def is_empty(self) -> bool:
        """No words and no filters: the channel's digest, not a search."""
        return not (self.words or self.excluded_words or self.labels or self.excluded_labels or self.authors
                    or self.excluded_authors or self.kinds or self.states or self.bots_only or self.numbers)

    def as_dict(self) -> dict[str, object]:
        data: dict[str, object] = {
            "words": list(self.words),
            "excluded_words": list(self.excluded_words),
            "labels": list(self.labels),
            "excluded_labels": list(self.excluded_labels),
            "authors": list(self.authors),
            "excluded_authors": list(self.excluded_authors),
            "kinds": sorted(self.kinds),
            "states": sorted(self.states),
            "bots_only": self.bots_only,
            "repo": self.repo,
            "window": self.window.text if self.window else None,
            "numbers": list(self.numbers),
        }
        if self.ignored:
            data["ignored"] = list(self.ignored)  # added: the words left out as the question's frame
        if self.notes:
            data["notes"] = list(self.notes)
        return data


class _Builder(Struct):
    words: list[str] = field(default_factory=list)
    excluded_words: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    excluded_labels: list[str] = field(default_factory=list)
    authors: list[str] = field(default_factory=list)
    excluded_authors: list[str] = field(default_factory=list)
    kinds: set[str] = field(default_factory=set)
    states: set[str] = field(default_factory=set)
    bots_only: bool = False
    repo: str | None = None
    window: WindowSpec | None = None
    issues: list[QueryNote] = field(default_factory=list)
    numbers: list[int] = field(default_factory=list)  # #123
    ignored: list[str] = field(default_factory=list)

    def note(self, kind: QueryProblemKind | QueryAdjustmentKind, value: str = "", hint: str = "") -> None:
        issue = QueryNote(kind, value, hint)
        if issue not in self.issues:
            self.issues.append(issue)

    def add_word(self, word: str, *, negated: bool) -> None:
        if len(word) > MAX_WORD_CHARS:
            self.note("word_cut", word[:20] + "…", str(MAX_WORD_CHARS))
            word = word[:MAX_WORD_CHARS]
        (self.excluded_words if negated else self.words).append(word)


def clean_text(text: str) -> str:
    text = _ZERO_WIDTH.sub("", text or "")
    text = "".join(ch if ch.isprintable() else " " for ch in text)
    return text.replace("\u201c", '"').replace("\u201d", '"').replace("\u2018", "'").replace("\u2019", "'")


_TOKEN = re.compile(r'"([^"]*)"|(\S+)')
# An item by number: "#123" always; "123" when the query has no other words. GitHub numbers fit in 9 digits.
_ITEM_REF = re.compile(r"#(\d{1,9})[.,;:!?)]*")
_ITEM_NUMBER = re.compile(r"\d{1,9}")


def tokenize(text: str) -> list[str]:
    """Whitespace words, with "quoted phrases" kept together; an unbalanced quote is just a character."""
    return [token for token, _ in _tokens(text)]


def _tokens(text: str) -> list[tuple[str, bool]]:
    """``tokenize``, each token with whether it was quoted (a quoted word is always a word)."""
    return [(quoted, True) if quoted is not None and match.group(0).startswith('"') else (match.group(0), False)
            for match in _TOKEN.finditer(text) for quoted in [match.group(1)]]


_QUOTED = re.compile(r'("[^"]*")')


def _plain(text: str) -> tuple[str, list[str]]:
    """Outside quotes: Chinese time words as window tokens, Chinese split from Latin words and cut at its
    frames and particles (``bot.topics.words``); and the frames cut out."""
    cut: list[str] = []
    parts = _QUOTED.split(text)
    for k in range(0, len(parts), 2):  # even parts are outside quotes
        parts[k], found = split_chinese(zh_windows(parts[k]))
        cut += found
    return "".join(parts), cut


def parse_date(text: str) -> date | None:
    try:
        year, month, day = (int(part) for part in text.split("-"))
        return date(year, month, day)
    except (ValueError, OverflowError):  # OverflowError: a year too large for C's int
        return None


def parse_query(text: str) -> Query:
    raw = text or ""
    builder = _Builder()
    cleaned = clean_text(raw)
    if len(cleaned) > MAX_QUERY_CHARS:
        builder.note("query_cut", str(MAX_QUERY_CHARS))
        cleaned = cleaned[:MAX_QUERY_CHARS]
    cleaned, cut = _plain(cleaned)
    builder.ignored += cut
    tokens = _tokens(cleaned)
    index = 0
    while index < len(tokens):
        token, quoted = tokens[index]
        lowered = _bare(token)
        following = _bare(tokens[index + 1][0]) if index + 1 < len(tokens) else ""
        if lowered in ("last", "past", "this") and following == "week":
            _set_window(builder, WindowSpec("last_week" if lowered == "last" else "relative",
                                            amount=timedelta(days=7), text=f"{lowered} week"))
            index += 2
            continue
        if lowered == "since" and following:
            day = parse_date(following)
            if day is None:
                builder.note("bad_date", tokens[index + 1][0])
            else:
                _set_window(builder, WindowSpec("since", start_date=day, text=f"since {day.isoformat()}"))
            index += 2
            continue
        if lowered in _SPAN_WORDS and not quoted:
            span, used = _span(tokens[index + 1 : index + 3])
            if used:
                window = _window_token(builder, span)
                if window is not None:
                    _set_window(builder, window)
                index += 1 + used
                continue
        _token(builder, token, quoted=quoted)
        index += 1
    numbers = list(builder.numbers)
    if all(_ITEM_NUMBER.fullmatch(word) for word in builder.words):
        # "123" alone (or only numbers) asks for that item; next to other words it is a word ("qwen 3").
        numbers += [int(word) for word in builder.words]
        builder.words = []
    words = tuple(dict.fromkeys(builder.words))
    excluded_words = tuple(dict.fromkeys(builder.excluded_words))
    if len(words) > MAX_TERMS or len(excluded_words) > MAX_TERMS:
        builder.note("words_dropped", str(MAX_TERMS))
    issues = tuple(builder.issues)
    return Query(
        text=raw,
        words=words[:MAX_TERMS],
        excluded_words=excluded_words[:MAX_TERMS],
        labels=tuple(builder.labels),
        excluded_labels=tuple(builder.excluded_labels),
        authors=tuple(builder.authors),
        excluded_authors=tuple(builder.excluded_authors),
        kinds=frozenset(builder.kinds),
        states=frozenset(builder.states),
        bots_only=builder.bots_only,
        repo=builder.repo,
        window=builder.window,
        notes=tuple(issue.english() for issue in issues),
        issues=issues,
        numbers=tuple(dict.fromkeys(numbers))[:MAX_TERMS],
        ignored=tuple(dict.fromkeys(builder.ignored)),
    )


# "last 3 days", "past 2 weeks", "last 24 hours", "previous day", "last 24h": a relative window in words.
_SPAN_WORDS = ("last", "past", "previous")
_UNITS = {"hour": "h", "hours": "h", "hr": "h", "hrs": "h", "day": "d", "days": "d", "week": "w", "weeks": "w",
          "wk": "w", "wks": "w", "month": "m", "months": "m"}


def _span(following: list[tuple[str, bool]]) -> tuple[str, int]:
    """The window token a span word ("last") starts, from the tokens after it, and how many of them it used:
    ("3d", 2) for "3 days", ("24h", 1) for "day" or "24h"; ("", 0) when they are not a span of time."""
    words: list[str] = []
    for token, quoted in following:
        if quoted:  # "last "3 days"": a quoted phrase is a word
            break
        words.append(_bare(token))
    if words and _RELATIVE.match(words[0]):
        return words[0], 1
    if words and words[0] in _UNITS and words[0] not in ("week", "weeks"):  # "last week" is the week before
        return ("24h" if words[0] == "day" else relative_token(1, _UNITS[words[0]])), 1
    if len(words) >= 2 and words[1] in _UNITS:
        amount = int(words[0]) if words[0].isdigit() and len(words[0]) <= 4 else EN_NUMBERS.get(words[0])
        if amount is not None:
            return relative_token(amount, _UNITS[words[1]]), 2
    return "", 0


def _set_window(builder: _Builder, spec: WindowSpec) -> None:
    if builder.window is not None and builder.window != spec:
        builder.note("several_windows", spec.text)
    builder.window = spec


def _bare(token: str) -> str:
    """A token lower-cased without the punctuation a sentence ends in ("yesterday?", "this week."); a date
    range's ".." stays (half a range is not a date)."""
    lowered = token.lower()
    return lowered if lowered.endswith("..") and lowered[-3:-2].isdigit() else lowered.rstrip(".,;:!?…。，？！、")


def _token(builder: _Builder, token: str, *, quoted: bool = False) -> None:
    lowered = token.lower()
    window = _window_token(builder, lowered if quoted else _bare(token))
    if window is not None:
        _set_window(builder, window)
        return
    negated = token.startswith("-") and len(token) > 1
    body = token[1:] if negated else token
    name, sep, value = body.partition(":")
    if sep and name.isascii() and name.isalpha() and not name[0].isdigit():
        _filter(builder, name.lower(), value.strip(), negated, token)
        return
    if not negated and (number := _ITEM_REF.fullmatch(body)):
        builder.numbers.append(int(number[1]))
        return
    word = _normalise_word(body)
    if word and not quoted and not negated and word in STOPWORDS:
        builder.ignored.append(word)  # the question's frame: "what's", "show", "me", "有没有"
    elif word:
        builder.add_word(word, negated=negated)


def _normalise_word(word: str) -> str:
    # Keep letters, digits and the joiners that appear in names (gpt-oss, qwen2.5, torch.compile, p/d).
    word = word.strip().strip(".,;:!?()[]{}<>\"'`*，。？！、；：（）【】《》“”‘’").lower()
    return word if any(ch.isalnum() for ch in word) else ""


def _window_token(builder: _Builder, lowered: str) -> WindowSpec | None:
    """A window typed as one token. Dates are checked here; clamping them needs today, so ``resolve`` does."""
    if lowered in ("today", "yesterday"):
        return WindowSpec(lowered, text=lowered)
    match = _RELATIVE.match(lowered)
    if match:
        amount, unit = int(match[1]), match[2]
        delta = {"h": timedelta(hours=amount), "d": timedelta(days=amount), "w": timedelta(weeks=amount)}[unit]
        if amount == 0:
            builder.note("empty_window", lowered, f"1{unit}")
            return None
        if delta > timedelta(days=MAX_WINDOW_DAYS):
            builder.note("window_capped", str(MAX_WINDOW_DAYS))
            delta = timedelta(days=MAX_WINDOW_DAYS)
            lowered = f"{MAX_WINDOW_DAYS}d"
        return WindowSpec("relative", amount=delta, text=lowered)
    match = _RANGE.match(lowered)
    if match:
        first, last = parse_date(match[1]), parse_date(match[2])
        if first is None or last is None:
            builder.note("bad_date", match[1] if first is None else match[2])
            return None
        if last < first:
            builder.note("inverted_range", lowered, f"{last}..{first}")
            return None
        return WindowSpec("range", start_date=first, end_date=last, text=f"{first}..{last}")
    if re.fullmatch(_DATE, lowered):
        day = parse_date(lowered)
        if day is None:
            builder.note("bad_date", lowered)
            return None
        return WindowSpec("range", start_date=day, end_date=day, text=f"{day}..{day}")
    return None


def _filter(builder: _Builder, name: str, value: str, negated: bool, token: str) -> None:
    if name not in KNOWN_FILTERS:
        close = difflib.get_close_matches(name, KNOWN_FILTERS, n=1, cutoff=0.6)
        builder.note("unknown_filter", f"{name}:", f"{close[0]}:{value}" if close and value else
                     f"{close[0]}:" if close else "")
        return
    if not value:
        builder.note("no_value", token, _FILTER_EXAMPLES[name])
        return
    if name == "label":
        (builder.excluded_labels if negated else builder.labels).append(value.lower())
    elif name == "author":
        (builder.excluded_authors if negated else builder.authors).append(value.lower().lstrip("@"))
    elif name == "is":
        kind = IS_VALUES.get(value.lower())
        if kind is None:
            close = difflib.get_close_matches(value.lower(), IS_VALUES, n=1, cutoff=0.6)
            builder.note("bad_is", token, f"is:{close[0]}" if close else "")
        elif negated:
            builder.note("negated_is", token, _IS_OPPOSITES.get(value.lower(), ""))
        elif kind == "kind":
            builder.kinds.add(value.lower())
        elif kind == "state":
            builder.states.add(value.lower())
        else:
            builder.bots_only = True
    elif name == "repo":
        if REPO_RE.match(value) and not negated:
            builder.repo = value
        else:
            builder.note("bad_repo", token, "repo:owner/name")


def as_query(text: str | Query) -> Query:
    """A query parsed once: ``text`` itself when it is one already (a command parsed it), else parsed now."""
    return text if isinstance(text, Query) else parse_query(text)
