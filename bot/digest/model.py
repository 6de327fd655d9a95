"""The platform-neutral digest: plain data that every formatter renders and nothing more."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

STAT_KEYS = ("new_issues", "closed_issues", "new_prs", "merged_prs", "closed_unmerged_prs")


@dataclass(frozen=True, slots=True)
class Window:
    """``[start, end)`` in UTC; ``timezone`` is how people reading the digest see it."""

    start: datetime
    end: datetime
    timezone: str = "UTC"

    def __contains__(self, moment: datetime | None) -> bool:
        return moment is not None and self.start <= moment < self.end


@dataclass(frozen=True, slots=True)
class Analysis:
    """LLM-written text about one item (untrusted: formatters escape it like titles). Empty fields: none."""

    question: str = ""  # hot discussion: the core question
    positions: str = ""  # hot discussion: who argues what
    status: str = ""  # hot discussion: where it stands
    impact: str = ""  # key change: its impact, one sentence


@dataclass(frozen=True, slots=True)
class DigestItem:
    number: int
    kind: str  # "issue" | "pr"
    title: str
    url: str
    author: str
    labels: tuple[str, ...]
    summary: str
    reason: str
    state: str  # new | merged | closed | open — what happened to it in the window, most decisive first
    event_time: datetime | None = None  # for appendix lists: when the listed event happened
    comments_in_window: int = 0
    reactions: int = 0
    author_is_bot: bool = False
    streak_days: int | None = None  # hot items: consecutive days hot, 1 = new today
    analysis: Analysis | None = None


@dataclass(frozen=True, slots=True)
class Section:
    id: str  # "topic:<id>" | "hot" | "key_changes" | "notable"
    title: str
    items: tuple[DigestItem, ...]


@dataclass(frozen=True, slots=True)
class Stats:
    new_issues: int = 0
    closed_issues: int = 0
    new_prs: int = 0
    merged_prs: int = 0
    closed_unmerged_prs: int = 0

    def as_dict(self) -> dict[str, int]:
        return {key: getattr(self, key) for key in STAT_KEYS}


@dataclass(frozen=True, slots=True)
class Trend:
    """A topic at or above its usual level: ``count`` is its section's size; ``baseline`` its mean items per day
    over the 7 days before the window (None: the store has no such day yet)."""

    topic: str
    title: str
    count: int
    baseline: float | None
    items: tuple[int, ...]  # its top items' numbers, best first
    window_days: float = 1.0  # the window's length in days: the count is compared with baseline x this

    @property
    def ratio(self) -> float | None:
        """count / the usual count for a window this long; None without a baseline or when it is 0 (new)."""
        if not self.baseline or self.baseline <= 0:
            return None
        return self.count / (self.baseline * self.window_days)


@dataclass(frozen=True, slots=True)
class Activity:
    contributors: int = 0  # distinct human authors of items opened and comments written in the window
    first_time_contributors: int = 0  # of the people who opened an item in it, those with no earlier item stored
    # Like the counts in the header, the merge figures cover every PR, bots' included.
    merge_rate: float | None = None  # merged / new PRs (None: no new PRs)
    median_hours_to_merge: float | None = None  # of the PRs merged in the window (None: none merged)
    busiest_areas: tuple[tuple[str, int], ...] = ()  # (topic title, items), busiest first


@dataclass(frozen=True, slots=True)
class Narrative:
    summary: str  # two to four sentences; written by the LLM when ``summary_source`` is "llm"
    trends: tuple[Trend, ...] = ()
    activity: Activity = Activity()
    summary_source: str = "template"  # template | llm


@dataclass(frozen=True, slots=True)
class Digest:
    repo: str
    window: Window
    stats: Stats
    sections: tuple[Section, ...]
    appendix: dict[str, tuple[DigestItem, ...]] = field(default_factory=dict)
    locale: str = "en"
    # Items opened per day over the 7 windows ending with this one (oldest first), for a sparkline.
    daily_activity: tuple[int, ...] = ()
    narrative: Narrative | None = None

    def section(self, section_id: str) -> Section | None:
        return next((s for s in self.sections if s.id == section_id), None)


@dataclass(frozen=True, slots=True)
class QueryResult:
    """The answer to ``/digest <words> [window]``: every matching item, best first, each with its reason."""

    repo: str
    query: str  # the text as typed
    window: Window
    items: tuple[DigestItem, ...]
    topic: str | None = None  # set when the query named one topic
    topic_title: str | None = None
    parsed: dict[str, object] = field(default_factory=dict)  # the parser's view, for JSON and debugging
    suggestions: tuple[str, ...] = ()  # when nothing matched: nearest topics, a wider window
    locale: str = "en"


# Groups a query answer is shown in, in this order; ``DigestItem.state`` + kind decide the group.
RESULT_GROUPS = ("new_issues", "new_prs", "merged_prs", "closed_issues", "closed_prs", "active")


def result_group(item: DigestItem) -> str:
    if item.state == "merged":
        return "merged_prs"
    if item.state == "new":
        return "new_prs" if item.kind == "pr" else "new_issues"
    if item.state == "closed":
        return "closed_prs" if item.kind == "pr" else "closed_issues"
    return "active"
