"""The platform-neutral digest: plain data that every formatter renders and nothing more."""

from __future__ import annotations

from datetime import date, datetime
from typing import TYPE_CHECKING, ClassVar, Literal, cast, get_args

from msgspec import Struct, field

if TYPE_CHECKING:
    from bot.model.edition import Edition

STAT_KEYS = ("new_issues", "closed_issues", "new_prs", "merged_prs", "closed_unmerged_prs")


class Window(Struct, frozen=True):
    """``[start, end)`` in UTC; ``timezone`` is how people reading the digest see it."""

    start: datetime
    end: datetime
    timezone: str = "UTC"

    def __contains__(self, moment: datetime | None) -> bool:
        return moment is not None and self.start <= moment < self.end


class Analysis(Struct, frozen=True):
    """LLM-written text about one item (untrusted: formatters escape it like titles). Empty fields: none."""

    question: str = ""  # hot discussion: the core question
    positions: str = ""  # hot discussion: who argues what
    status: str = ""  # hot discussion: where it stands
    impact: str = ""  # key change: its impact, one sentence


# --- why an item is listed: typed and language-free; ``formatters.reasons`` puts them into words per locale ---

# What a new bug report describes, most severe first (docs/editorial.md, "Notable new bugs"): a crash, a hang or
# deadlock, wrong or repeated output, null or empty output, a regression, a failure with one configuration
# (PP > 1, TP=8, a flag), out of memory.
BugKind = Literal["crash", "hang", "wrong_output", "null_output", "regression", "config_failure", "oom"]
BUG_KINDS: tuple[BugKind, ...] = get_args(BugKind)  # most severe first
EvidenceSource = Literal["label", "tag", "title", "body", "body_lead", "author"]
SignalKind = Literal[
    # what the JSON contract's ``reason`` has always shown for a merged PR
    "tag", "label", "bugfix", "breaking", "comments", "reactions",
    # what kind of user-facing change it is (``value``: the number quoted for a speed-up, the failure a fix ends)
    "new_model", "feature", "hardware", "default", "speedup", "fix", "internal",
    # breadth and size (``count``)
    "areas", "lines", "files", "review_comments",
]
LEGACY_SIGNALS: frozenset[str] = frozenset({"tag", "label", "bugfix", "breaking", "comments", "reactions"})
ListedEvent = Literal["opened", "closed", "merged", "closed_unmerged"]
ActiveEvent = Literal["merged", "closed", "opened", "commented"]
TermSource = Literal["title", "topic", "label", "body", "number", "comment"]

# ``omit_defaults``: a value's plain form (``msgspec.to_builtins``, which the JSON formatter writes) leaves out the
# fields at their default, which say nothing ("", 0, None, ()).


class Evidence(Struct, frozen=True, omit_defaults=True):
    """One piece of evidence that an item belongs to a topic: where it was found and GitHub's own text found
    there (a label, a title tag as normalised, the words matched). ``label``, ``tag``, ``title``, ``body`` (a
    strong phrase, or with ``sentences`` the number of body sentences naming the topic), ``body_lead`` (the
    body opens with the topic's name), ``author`` (``value``: the login of a person or team account the topic
    lists in ``authors``, such as a vendor's engineers)."""

    source: EvidenceSource
    value: str
    sentences: int = 0


class Signal(Struct, frozen=True, omit_defaults=True):
    """One reason a PR is a key change (``bot.digest.rank``): a title ``tag`` or a ``label`` that marks
    user-visible work (``value``: its text), ``bugfix``, ``breaking`` (a breaking change or the removal of
    something users call), or ``comments`` / ``reactions`` (``count``: the item's totals). The kind of change:
    ``new_model``, ``feature``, ``hardware`` (a new backend or hardware support), ``default`` (a changed
    default), ``speedup`` (``value``: the figure the PR quotes, "1.8x", "30%", or empty), ``fix`` (``value``:
    the ``BugKind`` it fixes), ``internal`` (refactor, rename, typo, tests, CI, docs or logging only). Breadth
    and size: ``areas`` (topics it touches), ``lines`` (added + deleted), ``files``, ``review_comments``."""

    kind: SignalKind
    value: str = ""
    count: int = 0


class TopicRef(Struct, frozen=True, omit_defaults=True):
    """A topic as an answer names it: its id and its names from topics.toml (formatters pick per locale)."""

    id: str
    name: str
    name_zh: str | None = None


class TermHit(Struct, frozen=True, omit_defaults=True):
    """Where one query word matched an item: in the title, a label, the body or a comment in the window
    (``value``: the words matched), or through ``topic``, a topic the word names that the item belongs to
    (``evidence``: why it does); or ``number``: the query asked for the item by its number (``value``, digits
    only)."""

    source: TermSource
    value: str = ""
    topic: TopicRef | None = None
    evidence: tuple[Evidence, ...] = ()


class Hot(Struct, frozen=True):
    """Hot discussion: human comments in the window and reactions (the item's and its comments' in the window);
    ``participants``: distinct human commenters in the window; ``maintainer``: one of them is the project's
    (OWNER, MEMBER or COLLABORATOR); ``open_question``: still open at the window's end and the last comment is
    not a maintainer's (it needs attention)."""

    comments: int
    reactions: int = 0
    participants: int = 0
    maintainer: bool = False
    open_question: bool = False
    kind: ClassVar[str] = "hot"


class Merged(Struct, frozen=True):
    """Key change: merged in the window, for these signals (none: it scored on followed topics alone)."""

    signals: tuple[Signal, ...] = ()
    kind: ClassVar[str] = "merged"


class InReview(Struct, frozen=True):
    """Key change still in review: an open, non-draft PR opened or discussed in the window that is significant
    (user-facing and not small, or large), for these signals."""

    signals: tuple[Signal, ...] = ()
    kind: ClassVar[str] = "in_review"


class NewBug(Struct, frozen=True):
    """Notable issue: a bug report opened in the window that describes ``bug``; ``comments`` in the window;
    ``confirmations``: others saying they have it too in the window ("+1", "same here")."""

    bug: BugKind
    comments: int = 0
    confirmations: int = 0
    kind: ClassVar[str] = "new_bug"


class InTopic(Struct, frozen=True):
    """Topic section: the item matches the section's topic on this evidence, strongest first."""

    evidence: tuple[Evidence, ...]
    kind: ClassVar[str] = "topic"


class Listed(Struct, frozen=True):
    """Appendix: the event the item is listed for."""

    event: ListedEvent
    kind: ClassVar[str] = "listed"


class QueryMatch(Struct, frozen=True):
    """Query answer: where each word of the query matched, in the query's order."""

    terms: tuple[TermHit, ...]
    kind: ClassVar[str] = "query"


class Active(Struct, frozen=True):
    """Query answer without words: what happened to the item in the window, most decisive first
    (``commented``: only comments, ``comments`` of them)."""

    event: ActiveEvent
    comments: int = 0
    kind: ClassVar[str] = "active"


Reason = Hot | Merged | InReview | NewBug | InTopic | Listed | QueryMatch | Active


class ItemFacts(Struct, frozen=True, omit_defaults=True):
    """What an item's own text and the window say about it beyond its title (``bot.digest.facts``): values only,
    never a sentence of ours, so ``formatters.facts`` words them in any locale. Empty / None / 0: not known.

    Issues: ``error``, the error line the report quotes (its traceback's exception, "RuntimeError: CUDA error:
    an illegal memory access was encountered"); ``hardware``, the accelerators named ("H200", "MI300X");
    ``version``, the vLLM version the reporter runs ("0.11.1"), ``since_upgrade`` when the body says it worked
    before, ``worked_in`` the version it says worked ("0.10.2"); ``models``, the model ids it runs;
    ``parallel``, the parallelism it runs with ("TP=8", "PP=2", "EP"); ``confirmations``, others saying they
    have it too in the window; ``failure``, the failure a bug report describes (its ``BugKind``: the notable
    section ranks only the worst ten, every section says what each report is). PRs: ``fixes`` (the issues a
    closing keyword names), ``follow_up`` (the PR or
    issue it follows up), ``figure`` (the effect its body quotes, "TPOT 12.1 ms → 9.8 ms", "1.8x throughput"),
    ``additions`` / ``deletions`` / ``files`` (its size), ``first_time`` (a first-time contributor's).
    Both: ``first_reply``, the first maintainer other than the author who commented in the window; and
    ``sentence``, free text: the body's first sentence that says more than the title ("" when none does)."""

    error: str = ""
    hardware: tuple[str, ...] = ()
    version: str = ""
    since_upgrade: bool = False
    worked_in: str = ""
    models: tuple[str, ...] = ()
    parallel: tuple[str, ...] = ()
    fixes: tuple[int, ...] = ()
    follow_up: int | None = None
    figure: str = ""
    additions: int | None = None
    deletions: int | None = None
    files: int | None = None
    first_time: bool = False
    first_reply: str = ""
    confirmations: int = 0
    sentence: str = ""
    failure: BugKind | None = None


class DigestItem(Struct, frozen=True):
    number: int
    kind: str  # "issue" | "pr"
    title: str
    url: str
    author: str
    labels: tuple[str, ...]
    summary: str
    state: str  # new | merged | closed | open — what happened to it in the window, most decisive first
    event_time: datetime | None = None  # for appendix lists: when the listed event happened
    comments_in_window: int = 0
    reactions: int = 0
    author_is_bot: bool = False
    # hot items: n >= 2 = hot on each of the n-1 days before too; 1 = new today (opened in the window); None else
    streak_days: int | None = None
    analysis: Analysis | None = None
    why: Reason | None = None  # why it is in its section, list or answer (None: no reason to show)
    facts: ItemFacts | None = None  # what its text says beyond the title (sections only; None: nothing known)


SectionKind = Literal["topic", "hot", "key_changes", "notable"]
BuiltinSection = Literal["hot", "key_changes", "notable"]
BUILTIN_SECTIONS: tuple[BuiltinSection, ...] = get_args(BuiltinSection)
TOPIC_PREFIX = "topic:"


class Section(Struct, frozen=True):
    """``id`` is the stable key (``"topic:<topic id>"`` or a built-in kind); ``kind`` and ``topic`` are its typed
    reading. ``title``: a topic section's name as topics.toml gives it in the digest's locale (data, like an
    item's title); empty for built-in sections, which the formatters name in the reader's locale."""

    id: str
    title: str
    items: tuple[DigestItem, ...]
    # How many qualified before the builder kept its best ``items`` (hot, key changes and notable keep ten):
    # what a header counts. 0: as many as ``items``.
    candidates: int = 0

    @property
    def total(self) -> int:
        return max(self.candidates, len(self.items))

    def __post_init__(self) -> None:
        if not (self.id in BUILTIN_SECTIONS or (self.id.startswith(TOPIC_PREFIX) and len(self.id) > len(TOPIC_PREFIX))):
            raise ValueError(f"unknown section id {self.id!r}")

    @classmethod
    def builtin(cls, kind: BuiltinSection, items: tuple[DigestItem, ...], candidates: int = 0) -> Section:
        return cls(kind, "", items, candidates)

    @classmethod
    def for_topic(cls, topic: str, name: str, items: tuple[DigestItem, ...]) -> Section:
        return cls(TOPIC_PREFIX + topic, name, items)

    @property
    def kind(self) -> SectionKind:
        return "topic" if self.id.startswith(TOPIC_PREFIX) else cast(BuiltinSection, self.id)

    @property
    def topic(self) -> str | None:
        """The topic's id for a topic section, else None."""
        return self.id.removeprefix(TOPIC_PREFIX) if self.id.startswith(TOPIC_PREFIX) else None


class Stats(Struct, frozen=True):
    new_issues: int = 0
    closed_issues: int = 0
    new_prs: int = 0
    merged_prs: int = 0
    closed_unmerged_prs: int = 0

    def as_dict(self) -> dict[str, int]:
        return {key: getattr(self, key) for key in STAT_KEYS}


class Trend(Struct, frozen=True):
    """A topic well above its usual level: ``count`` is its section's size (at least 3); ``baseline`` its mean
    items per day over the 7 days before the window (0: new; the builder lists trends only when at least 5 of
    those days were synced, so it is never None there)."""

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


class Activity(Struct, frozen=True):
    contributors: int = 0  # distinct human authors of items opened and comments written in the window
    # of the people who opened an item in it, those GitHub marks FIRST_TIME_CONTRIBUTOR or FIRST_TIMER on it
    first_time_contributors: int = 0
    # Like the counts in the header, the merge figures cover every PR, bots' included.
    merge_rate: float | None = None  # merged / (merged + closed unmerged) in the window (None: neither)
    median_hours_to_merge: float | None = None  # of the PRs merged in the window (None: none merged)
    busiest_areas: tuple[tuple[str, int], ...] = ()  # (topic title, items), busiest first


ThemeFacet = Literal["bug_reports", "fixes", "features", "other"]
THEME_FACETS: tuple[ThemeFacet, ...] = get_args(ThemeFacet)


class Theme(Struct, frozen=True):
    """What the window was about: items of one topic, or of two at once ("Qwen" and "Quantization"), counted by
    what they are (``facets``: bug reports, fixes, features, the rest; a series of PRs counts once), with its
    best ``items`` (one per series, best first) and, where the store knows the topic's usual level, ``ratio``:
    the topic's items today against it (None: no history, or new)."""

    topics: tuple[TopicRef, ...]
    count: int
    items: tuple[int, ...]
    facets: tuple[tuple[ThemeFacet, int], ...] = ()
    ratio: float | None = None
    new: bool = False  # the topic had nothing in the days before (its usual level is 0)


class Narrative(Struct, frozen=True):
    summary: str  # three to five sentences; written by the LLM when ``summary_source`` is "llm"
    trends: tuple[Trend, ...] = ()
    activity: Activity = Activity()
    summary_source: str = "template"  # template | llm
    themes: tuple[Theme, ...] = ()  # 3-5 themes of the window, strongest first (bot.digest.themes)


# --- the report page's charts (``Digest.activity_series``): built only when asked for (the web page, --format
# html), never for a chat post ---

# Time-to-merge buckets: upper bounds in hours of all but the last bucket (which is "longer").
MERGE_BUCKET_HOURS: tuple[int, ...] = (1, 6, 24, 72, 168, 720)
SERIES_DAYS = 30  # days of opened/closed/merged counts, ending with the digest's window
TOPIC_SERIES_DAYS = 14  # days of each followed topic's counts


class DayCount(Struct, frozen=True):
    """One local day (the window of that length ending on ``day`` at the window's wall-clock time): items
    opened, closed without a merge, and PRs merged then. ``synced``: the store covered the whole day (a day
    before the first sync is no evidence of a quiet day)."""

    day: date
    opened: int = 0
    closed: int = 0
    merged: int = 0
    synced: bool = True


class TopicSeries(Struct, frozen=True):
    """A followed topic's items per day (the trends' definition: human items touched that day), oldest first,
    on the last ``len(counts)`` days of ``ActivitySeries.days``; ``baseline``: its mean over the 7 days before
    the window (None: fewer than 5 of them synced)."""

    topic: str
    title: str
    counts: tuple[int, ...]
    baseline: float | None = None


class ActivitySeries(Struct, frozen=True):
    """What the report page draws: ``days`` (``SERIES_DAYS`` of them, the window's own day last), the followed
    topics' daily counts, and how long the PRs merged in the last 7 days took (``merge_buckets[k]``: merged
    within ``MERGE_BUCKET_HOURS[k]`` hours and not the bucket before; the last bucket: longer)."""

    days: tuple[DayCount, ...] = ()
    topics: tuple[TopicSeries, ...] = ()
    merge_buckets: tuple[int, ...] = ()
    merge_days: int = 7


ThreadMode = Literal["short", "full"]
THREAD_MODES: tuple[ThreadMode, ...] = get_args(ThreadMode)


class Digest(Struct, frozen=True):
    repo: str
    window: Window
    stats: Stats
    sections: tuple[Section, ...]
    appendix: dict[str, tuple[DigestItem, ...]] = field(default_factory=dict)
    locale: str = "en"  # the locale it was built in (section titles, summary); renderers may use another
    # Items opened per day over the 7 windows ending with this one (oldest first), for a sparkline.
    daily_activity: tuple[int, ...] = ()
    narrative: Narrative | None = None
    # The topic ids its reader follows (the channel's ``topics``, else the repository's ``default_topics``), in
    # their order: every topic has its section, these come first and lead the chat post.
    followed: tuple[str, ...] = ()
    # What a chat post's thread carries after the sections (the channel's ``thread`` setting): "short", the five
    # counts linked to GitHub's searches; "full", the complete appendix too. Markdown and JSON show everything.
    thread: ThreadMode = "short"
    # The report page's chart data: None unless asked for (``BuildOptions.series``); chat posts never pay for it.
    activity_series: ActivitySeries | None = None
    # The web report of this day (signed when reports are not public), computed by the app service when
    # PUBLIC_URL is set; formatters only show it.
    report_url: str | None = None
    # Where each item's one full entry goes on every surface (bot.model.edition); None: worked out when rendered.
    edition: Edition | None = None

    def section(self, section_id: str) -> Section | None:
        return next((s for s in self.sections if s.id == section_id), None)


SuggestionKind = Literal["topic", "wider_window", "label"]


class Suggestion(Struct, frozen=True):
    """What to try when nothing matched: a ``topic`` near a word (``value``: the name it is close to), a
    ``label`` of the window near a word (``value``: the label), or a ``wider_window`` (``value``: an example,
    "30d")."""

    kind: SuggestionKind
    value: str = ""


# How a query's words were read (docs/topics.md, "Queries"): every word matched (the strict reading, always
# tried first); when no item had every word, the items with most of them; else the topic a word names alone.
Reading = Literal["all_words", "most_words", "topic"]


class AnswerNote(Struct, frozen=True):
    """Something said with an answer: it was not answered quite as typed (a limit, a clamped date, a looser
    reading), or the window reaches before the synced history. ``kind`` names it; ``value`` and ``hint`` are
    its data (``bot.app.notices.QueryAdjusted`` says which, per kind). Every renderer words it."""

    kind: AnswerNoteKind
    value: str = ""
    hint: str = ""


class QueryResult(Struct, frozen=True):
    """The answer to ``/digest <words> [window]``: every matching item, best first, each with its reason."""

    repo: str
    query: str  # the text as typed
    window: Window
    items: tuple[DigestItem, ...]
    topic: str | None = None  # set when the query named one topic
    topic_title: str | None = None
    parsed: dict[str, object] = field(default_factory=dict)  # the parser's view, for JSON and debugging
    suggestions: tuple[Suggestion, ...] = ()  # when nothing matched: nearest topics, a wider window
    locale: str = "en"
    report_url: str | None = None  # the web report's search page for this query (app service, PUBLIC_URL set)
    alert: bool = False  # a live alert's batch: the new items matching ``query`` that arrived in ``window``
    reading: Reading = "all_words"  # how the words were read: every word, most of them, or the topic alone
    notes: tuple[AnswerNote, ...] = ()  # what to say with the answer, in every format


class IndexDay(Struct, frozen=True):
    """A day in the report index: its counts, items opened on each of the 7 days ending with it (the row's
    sparkline), and the link to its page (relative; signed when reports are)."""

    counts: DayCount
    week: tuple[int, ...]
    url: str


class ReportIndex(Struct, frozen=True):
    """``/reports/<owner>/<name>/``: the days, newest first, and the search box (its action and the hidden
    parameters that keep a signed link valid), with the answer to ``query`` when one was asked."""

    repo: str
    timezone: str
    locale: str
    post_time: str
    days: tuple[IndexDay, ...]
    search_path: str
    search_params: tuple[tuple[str, str], ...] = ()
    query: str = ""
    result: QueryResult | None = None


Answer = Digest | QueryResult

# What the query grammar can find wrong with a query (refused), or had to change to answer it (said after).
QueryProblemKind = Literal[
    "unknown_filter", "bad_is", "negated_is", "no_value", "bad_repo", "bad_date", "inverted_range", "empty_window",
]
QueryAdjustmentKind = Literal[
    "query_cut", "words_dropped", "word_cut", "window_capped", "date_clamped", "several_windows",
]
# What is said with an answer: the grammar's adjustments; the window reaching before the synced history
# (never_synced); an item asked for by number outside the window or not stored; a looser reading
# (most_words: ``value`` words of ``hint`` matched; topic_alone: ``value`` the topic's name, ``hint`` its id).
AnswerNoteKind = Literal[
    QueryAdjustmentKind, "never_synced", "outside_window", "not_in_store", "most_words", "topic_alone",
]


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
