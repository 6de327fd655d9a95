"""The query language shared by Slack, Discord and the CLI: words, filters and a window.

    rocm                        a topic
    qwen hangs 7d               free words (all must match; stems and synonyms) over the last 7 days
    label:bug -label:stale author:alice -author:dependabot[bot] is:pr is:merged repo:owner/name -word
    24h 3d 2w today yesterday "last week" "since 2025-12-01" 2025-12-01..2025-12-07

Parsing never fails: anything it cannot use becomes a friendly note in ``Query.notes``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from bot.model import Window
from bot.settings import REPO_RE

MAX_QUERY_CHARS = 500
MAX_TERMS = 12
MAX_WINDOW_DAYS = 366
KNOWN_FILTERS = ("label", "author", "is", "repo")
IS_VALUES = {"issue": "kind", "pr": "kind", "open": "state", "closed": "state", "merged": "state", "bot": "bot"}

_RELATIVE = re.compile(r"^(\d{1,4})(h|d|w)$", re.IGNORECASE)
_DATE = r"\d{4}-\d{1,2}-\d{1,2}"
_RANGE = re.compile(rf"^({_DATE})\.\.({_DATE})$")
_ZERO_WIDTH = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]")


@dataclass(frozen=True)
class WindowSpec:
    """A window as typed; ``resolve`` turns it into UTC times for a given now and zone."""

    kind: str  # relative | today | yesterday | last_week | since | range
    amount: timedelta | None = None
    start_date: date | None = None
    end_date: date | None = None  # inclusive
    text: str = ""

    def resolve(self, now: datetime, zone: ZoneInfo) -> Window:
        local_now = now.astimezone(zone)
        today = local_now.date()

        def midnight(day: date) -> datetime:
            return datetime.combine(day, time(0), tzinfo=zone)

        if self.kind == "relative":
            assert self.amount is not None
            start, end = now - self.amount, now
        elif self.kind == "today":
            start, end = midnight(today), now
        elif self.kind == "yesterday":
            start, end = midnight(today - timedelta(days=1)), midnight(today)
        elif self.kind == "last_week":
            monday = today - timedelta(days=today.weekday())
            start, end = midnight(monday - timedelta(days=7)), midnight(monday)
        elif self.kind == "since":
            assert self.start_date is not None
            start, end = midnight(self.start_date), now
        else:
            assert self.start_date is not None and self.end_date is not None
            start, end = midnight(self.start_date), midnight(self.end_date + timedelta(days=1))
        return Window(start=_utc(start), end=_utc(end), timezone=zone.key)


def _utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC)


@dataclass(frozen=True)
class Query:
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
    notes: tuple[str, ...] = ()

    @property
    def is_empty(self) -> bool:
        """No words and no filters: the channel's digest, not a search."""
        return not (self.words or self.excluded_words or self.labels or self.excluded_labels or self.authors
                    or self.excluded_authors or self.kinds or self.states or self.bots_only)

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
        }
        if self.notes:
            data["notes"] = list(self.notes)
        return data


@dataclass
class _Builder:
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
    notes: list[str] = field(default_factory=list)

    def note(self, message: str) -> None:
        if message not in self.notes:
            self.notes.append(message)


def clean_text(text: str) -> str:
    text = _ZERO_WIDTH.sub("", text or "")
    text = "".join(ch if ch.isprintable() else " " for ch in text)
    return text.replace("\u201c", '"').replace("\u201d", '"').replace("\u2018", "'").replace("\u2019", "'")


_TOKEN = re.compile(r'"([^"]*)"|(\S+)')


def tokenize(text: str) -> list[str]:
    """Whitespace words, with "quoted phrases" kept together; an unbalanced quote is just a character."""
    return [quoted if quoted is not None and match.group(0).startswith('"') else match.group(0)
            for match in _TOKEN.finditer(text) for quoted in [match.group(1)]]


def parse_date(text: str) -> date | None:
    try:
        year, month, day = (int(part) for part in text.split("-"))
        return date(year, month, day)
    except ValueError:
        return None


def parse_query(text: str) -> Query:
    raw = text or ""
    builder = _Builder()
    cleaned = clean_text(raw)
    if len(cleaned) > MAX_QUERY_CHARS:
        builder.note(f"the query was cut to its first {MAX_QUERY_CHARS} characters")
        cleaned = cleaned[:MAX_QUERY_CHARS]
    tokens = tokenize(cleaned)
    index = 0
    while index < len(tokens):
        token = tokens[index]
        lowered = token.lower()
        following = tokens[index + 1].lower() if index + 1 < len(tokens) else ""
        if lowered in ("last", "past", "this") and following == "week":
            _set_window(builder, WindowSpec("last_week" if lowered == "last" else "relative",
                                            amount=timedelta(days=7), text=f"{lowered} week"))
            index += 2
            continue
        if lowered == "since" and following:
            day = parse_date(following)
            if day is None:
                builder.note(f"“{tokens[index + 1]}” is not a date (use YYYY-MM-DD); using the default window")
            else:
                _set_window(builder, WindowSpec("since", start_date=day, text=f"since {day.isoformat()}"))
            index += 2
            continue
        if lowered == "last" and following in ("24h", "day"):
            _set_window(builder, WindowSpec("relative", amount=timedelta(hours=24), text="24h"))
            index += 2
            continue
        _token(builder, token)
        index += 1
    return Query(
        text=raw,
        words=tuple(dict.fromkeys(builder.words))[:MAX_TERMS],
        excluded_words=tuple(dict.fromkeys(builder.excluded_words))[:MAX_TERMS],
        labels=tuple(builder.labels),
        excluded_labels=tuple(builder.excluded_labels),
        authors=tuple(builder.authors),
        excluded_authors=tuple(builder.excluded_authors),
        kinds=frozenset(builder.kinds),
        states=frozenset(builder.states),
        bots_only=builder.bots_only,
        repo=builder.repo,
        window=builder.window,
        notes=tuple(builder.notes + (["only the first 12 words are used"] if len(builder.words) > MAX_TERMS
                                     else [])),
    )


def _set_window(builder: _Builder, spec: WindowSpec) -> None:
    if builder.window is not None and builder.window != spec:
        builder.note(f"several windows given; using “{spec.text}”")
    builder.window = spec


def _token(builder: _Builder, token: str) -> None:
    lowered = token.lower()
    window = _window_token(builder, lowered)
    if window is not None:
        _set_window(builder, window)
        return
    negated = token.startswith("-") and len(token) > 1
    body = token[1:] if negated else token
    name, sep, value = body.partition(":")
    if sep and name.isascii() and name.isalpha() and not name[0].isdigit():
        _filter(builder, name.lower(), value.strip(), negated, token)
        return
    word = _normalise_word(body)
    if not word:
        return
    (builder.excluded_words if negated else builder.words).append(word)


def _normalise_word(word: str) -> str:
    # Keep letters, digits and the joiners that appear in names (gpt-oss, qwen2.5, torch.compile, p/d).
    word = word.strip().strip(".,;:!?()[]{}<>\"'`*").lower()
    return word if any(ch.isalnum() for ch in word) else ""


def _window_token(builder: _Builder, lowered: str) -> WindowSpec | None:
    if lowered in ("today", "yesterday"):
        return WindowSpec(lowered, text=lowered)
    match = _RELATIVE.match(lowered)
    if match:
        amount, unit = int(match[1]), match[2]
        delta = {"h": timedelta(hours=amount), "d": timedelta(days=amount), "w": timedelta(weeks=amount)}[unit]
        if amount == 0:
            builder.note(f"“{lowered}” is an empty window; using the default")
            return None
        if delta > timedelta(days=MAX_WINDOW_DAYS):
            builder.note(f"windows are limited to {MAX_WINDOW_DAYS} days; using {MAX_WINDOW_DAYS}d")
            delta = timedelta(days=MAX_WINDOW_DAYS)
            lowered = f"{MAX_WINDOW_DAYS}d"
        return WindowSpec("relative", amount=delta, text=lowered)
    match = _RANGE.match(lowered)
    if match:
        first, last = parse_date(match[1]), parse_date(match[2])
        if first is None or last is None:
            bad = match[1] if first is None else match[2]
            builder.note(f"“{bad}” is not a date (use YYYY-MM-DD); using the default window")
            return None
        if last < first:
            first, last = last, first
        if last - first > timedelta(days=MAX_WINDOW_DAYS):
            builder.note(f"windows are limited to {MAX_WINDOW_DAYS} days; using the last {MAX_WINDOW_DAYS}")
            first = last - timedelta(days=MAX_WINDOW_DAYS)
        return WindowSpec("range", start_date=first, end_date=last, text=f"{first}..{last}")
    if re.fullmatch(_DATE, lowered):
        day = parse_date(lowered)
        if day is None:
            builder.note(f"“{lowered}” is not a date (use YYYY-MM-DD); using the default window")
            return None
        return WindowSpec("range", start_date=day, end_date=day, text=f"{day}..{day}")
    return None


def _filter(builder: _Builder, name: str, value: str, negated: bool, token: str) -> None:
    if not value:
        builder.note(f"“{token}” has no value (e.g. {name}:something)")
        return
    if name == "label":
        (builder.excluded_labels if negated else builder.labels).append(value.lower())
    elif name == "author":
        (builder.excluded_authors if negated else builder.authors).append(value.lower().lstrip("@"))
    elif name == "is":
        kind = IS_VALUES.get(value.lower())
        if kind is None:
            builder.note(f"“{token}”: is: takes issue, pr, open, closed, merged or bot")
        elif negated:
            builder.note(f"“{token}”: negated is: filters are not supported; ignored")
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
            builder.note(f"“{token}” is not a repository (use repo:owner/name)")
    else:
        builder.note(f"unknown filter “{name}:” (known: {', '.join(f + ':' for f in KNOWN_FILTERS)}); ignored")
