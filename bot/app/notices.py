"""What a command answers besides a digest or a search: typed, language-free notices.

Each notice is a frozen dataclass whose ``kind`` names the template that words it (``formatters/notices.py``,
one macro per kind and locale). Values are data (subscriptions, channel contexts, mutes, counts): nothing here
is a sentence, so Slack, Discord and the CLI say the same thing in the reader's language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal, cast

from bot.app.context import ChannelContext
from bot.model import (
    Active,
    AnswerNote,
    AnswerNoteKind,
    Evidence,
    ListedEvent,
    QueryAdjustmentKind,
    QueryProblemKind,
    Reason,
    SectionKind,
    TopicRef,
)

if TYPE_CHECKING:
    from bot.topics.query import QueryNote

NoticeKind = Literal[
    "help", "subscribed", "subscriptions", "unsubscribed", "channel", "channel_saved", "muted", "mutes", "unmuted",
    "not_allowed", "no_repo", "invalid", "error", "posted", "post_failed", "more_parts", "paused",
    "not_synced", "repo_not_synced", "post_needs_channel", "too_many_subscriptions", "settings_in_channel",
    "unknown_topics", "unknown_topic", "subscription_window", "sorry", "repo_not_allowed", "repo_needs_admin",
    "query_problem", "query_adjusted", "busy", "why", "item_not_found", "alert_set", "alerts_removed", "alerts",
    "other_repository",
]
BusyScope = Literal["user", "channel", "bot"]  # bot: the whole process is at its limit
BusyReason = Literal["in_flight", "per_minute"]


@dataclass(frozen=True)
class MuteView:
    """One active mute as a notice shows it: ``until`` is local time ("2025-12-09 11:05"), None for good."""

    topic: str
    title: str
    until: str | None


@dataclass(frozen=True)
class SubscriptionView:
    """A daily DM as a notice shows it."""

    query: str
    post_time: str
    timezone: str
    repo: str | None = None
    paused: str | None = None

    @classmethod
    def of(cls, subscription: object) -> SubscriptionView:
        return cls(**{name: getattr(subscription, name) for name in ("query", "post_time", "timezone", "repo",
                                                                     "paused")})


@dataclass(frozen=True)
class AlertView:
    """A live alert as a notice shows it: new issues and PRs matching ``query`` in ``repo``, as they arrive;
    ``paused``: why it stopped (the platform refused to message the user), None when active."""

    query: str
    repo: str | None = None
    paused: str | None = None

    @classmethod
    def of(cls, alert: object) -> AlertView:
        return cls(getattr(alert, "query"), getattr(alert, "repo"),  # noqa: B009 (any object with the fields)
                   getattr(alert, "paused", None))


@dataclass(frozen=True)
class Notice:
    kind: ClassVar[NoticeKind]


# --- answers to commands that worked ---


@dataclass(frozen=True)
class Help(Notice):
    kind: ClassVar[NoticeKind] = "help"
    topics: tuple[str, ...]


@dataclass(frozen=True)
class Subscribed(Notice):
    kind: ClassVar[NoticeKind] = "subscribed"
    subscription: SubscriptionView
    created: bool
    notes: tuple[QueryAdjusted, ...] = ()


Adjustment = AnswerNoteKind


@dataclass(frozen=True)
class QueryAdjusted(Notice):
    """Said with an answer: the query was answered, but not quite as typed (a limit, a clamped date, a looser
    reading), or the window reaches before what was synced. ``value`` and ``hint`` as in
    ``bot.topics.query.QueryNote``; never_synced: ``value`` is the local time the store's history starts. For
    items asked for by number: outside_window: ``value`` the number, ``hint`` its last activity (local time),
    none in the window; not_in_store: ``value`` a number the store does not hold. A looser reading when no
    item had every word: most_words: ``value`` the words each item shown has (at least), ``hint`` of how many;
    topic_alone: ``value`` the topic's name, ``hint`` its id. A query answer carries the same notes
    (``QueryResult.notes``), so every format says them."""

    kind: ClassVar[NoticeKind] = "query_adjusted"
    adjustment: Adjustment
    value: str = ""
    hint: str = ""

    @classmethod
    def of(cls, note: QueryNote) -> QueryAdjusted:
        assert not note.is_problem
        return cls(cast(QueryAdjustmentKind, note.kind), note.value, note.hint)

    @classmethod
    def of_answer(cls, note: AnswerNote) -> QueryAdjusted:
        return cls(note.kind, note.value, note.hint)

    def as_note(self) -> AnswerNote:
        """The note as an answer carries it (``QueryResult.notes``)."""
        return AnswerNote(self.adjustment, self.value, self.hint)


@dataclass(frozen=True)
class Subscriptions(Notice):
    kind: ClassVar[NoticeKind] = "subscriptions"
    subscriptions: tuple[SubscriptionView, ...]
    timezone: str
    mutes: tuple[MuteView, ...] = ()
    alerts: tuple[AlertView, ...] = ()  # live alerts by DM


@dataclass(frozen=True)
class AlertSet(Notice):
    """``subscribe <query> live`` (a DM, ``dm``) or ``channel alert <query>`` (this channel)."""

    kind: ClassVar[NoticeKind] = "alert_set"
    alert: AlertView
    dm: bool
    created: bool
    notes: tuple[QueryAdjusted, ...] = ()


@dataclass(frozen=True)
class AlertsRemoved(Notice):
    kind: ClassVar[NoticeKind] = "alerts_removed"
    query: str | None  # None: all
    removed: int
    dm: bool


@dataclass(frozen=True)
class Alerts(Notice):
    """``channel alert``: the channel's live alerts."""

    kind: ClassVar[NoticeKind] = "alerts"
    alerts: tuple[AlertView, ...]


@dataclass(frozen=True)
class Unsubscribed(Notice):
    kind: ClassVar[NoticeKind] = "unsubscribed"
    query: str | None  # None: all
    removed: int
    subscriptions: tuple[SubscriptionView, ...]
    mutes: tuple[MuteView, ...] = ()


@dataclass(frozen=True)
class ChannelShown(Notice):
    kind: ClassVar[NoticeKind] = "channel"
    channel: ChannelContext
    timezone: str
    mutes: tuple[MuteView, ...] = ()


@dataclass(frozen=True)
class ChannelSaved(Notice):
    kind: ClassVar[NoticeKind] = "channel_saved"
    channel: ChannelContext
    changed: tuple[str, ...]
    timezone: str
    mutes: tuple[MuteView, ...] = ()


@dataclass(frozen=True)
class Muted(Notice):
    kind: ClassVar[NoticeKind] = "muted"
    personal: bool
    timezone: str
    mute: MuteView


@dataclass(frozen=True)
class Mutes(Notice):
    kind: ClassVar[NoticeKind] = "mutes"
    personal: bool
    timezone: str
    mutes: tuple[MuteView, ...]


@dataclass(frozen=True)
class Unmuted(Notice):
    kind: ClassVar[NoticeKind] = "unmuted"
    personal: bool
    timezone: str
    topic: str | None  # None: all
    removed: int
    mutes: tuple[MuteView, ...]


@dataclass(frozen=True)
class Posted(Notice):
    kind: ClassVar[NoticeKind] = "posted"


@dataclass(frozen=True)
class MoreParts(Notice):
    """An answer too long to show privately: how many parts were left out."""

    kind: ClassVar[NoticeKind] = "more_parts"
    count: int


@dataclass(frozen=True)
class Paused(Notice):
    """Said once after a user's DMs (daily digests, live alerts) were paused because the platform refused them;
    ``reason`` is the platform's (``cannot_dm_bot``, ``messages_tab_disabled``, ``dms_closed``, …)."""

    kind: ClassVar[NoticeKind] = "paused"
    reason: str


@dataclass(frozen=True)
class WhyPlacement:
    """Where an item is in a digest: a section (``topic`` for a topic section), its place in it (1-based) of
    ``size`` items, and the typed reason it is there."""

    section: SectionKind
    position: int
    size: int
    why: Reason | None
    topic: TopicRef | None = None


@dataclass(frozen=True)
class WhyTopic:
    """A topic the item belongs to, on this evidence; ``shown``: the digest has its section (the channel
    follows it and has not muted it)."""

    topic: TopicRef
    evidence: tuple[Evidence, ...]
    shown: bool


@dataclass(frozen=True)
class Why(Notice):
    """``/digest why 123``: where item ``number`` is in the digest of ``window_start``..``window_end`` (local
    times in ``timezone``) and why, or that it is not there and what happened to it in the window.

    ``placements``: every section it is in, in the digest's order (empty: not in the digest). ``listed``: the
    appendix lists it for these events. ``activity``: what happened to it in the window (None: nothing).
    ``topics``: every topic it belongs to. ``last_activity``: its latest activity (local), in the window or
    before it. ``bot``: its author is a bot, whose items the sections leave out."""

    kind: ClassVar[NoticeKind] = "why"
    repo: str
    number: int
    item_kind: str  # issue | pr
    title: str
    url: str
    author: str
    state: str  # open | closed | merged (now)
    window_start: str
    window_end: str
    timezone: str
    placements: tuple[WhyPlacement, ...] = ()
    listed: tuple[ListedEvent, ...] = ()
    activity: Active | None = None
    topics: tuple[WhyTopic, ...] = ()
    last_activity: str = ""
    bot: bool = False


# --- refusals: the user can fix these ---


@dataclass(frozen=True)
class ItemNotFound(Notice):
    """No item ``number`` in the store of ``repo``: older than the synced history (``synced_from``, local time;
    empty when unknown), or not opened yet."""

    kind: ClassVar[NoticeKind] = "item_not_found"
    repo: str
    number: int
    synced_from: str = ""


@dataclass(frozen=True)
class NotAllowed(Notice):
    kind: ClassVar[NoticeKind] = "not_allowed"


@dataclass(frozen=True)
class NoRepo(Notice):
    """The channel has no repository and the query names none."""

    kind: ClassVar[NoticeKind] = "no_repo"


@dataclass(frozen=True)
class NotSynced(Notice):
    """Nothing of ``repo`` is in the store yet."""

    kind: ClassVar[NoticeKind] = "not_synced"
    repo: str


@dataclass(frozen=True)
class RepoNotSynced(Notice):
    """A query names an allowed repository the store does not hold. It names no other repository: the list
    of what the bot holds is not every reader's to see."""

    kind: ClassVar[NoticeKind] = "repo_not_synced"
    repo: str


@dataclass(frozen=True)
class RepoNotAllowed(Notice):
    """``repo`` is not one the bot may read (not configured, or private, or not visible to its token: one
    answer for all three, naming nothing else)."""

    kind: ClassVar[NoticeKind] = "repo_not_allowed"
    repo: str


@dataclass(frozen=True)
class OtherRepository(Notice):
    """A report page's search (``/reports/<page>/?q=…``) names another repository (``repo:asked``): a page
    searches only its own repository. Names only what the reader typed and the page they are on, and is the
    same whether ``asked`` is followed, private or does not exist."""

    kind: ClassVar[NoticeKind] = "other_repository"
    asked: str
    page: str


@dataclass(frozen=True)
class RepoNeedsAdmin(Notice):
    """``chat.channel_settings = "admins"``: only someone who may change the channel's settings may make the bot
    follow a repository outside ``[[repos]]`` (a subscription to it)."""

    kind: ClassVar[NoticeKind] = "repo_needs_admin"
    repo: str


@dataclass(frozen=True)
class PostFailed(Notice):
    kind: ClassVar[NoticeKind] = "post_failed"
    reason: str


@dataclass(frozen=True)
class PostNeedsChannel(Notice):
    kind: ClassVar[NoticeKind] = "post_needs_channel"


@dataclass(frozen=True)
class TooManySubscriptions(Notice):
    kind: ClassVar[NoticeKind] = "too_many_subscriptions"
    limit: int


@dataclass(frozen=True)
class SubscriptionWindow(Notice):
    """A daily subscription names a window: it always covers the last day."""

    kind: ClassVar[NoticeKind] = "subscription_window"


@dataclass(frozen=True)
class SettingsInChannel(Notice):
    """Channel settings asked for in a direct message."""

    kind: ClassVar[NoticeKind] = "settings_in_channel"


@dataclass(frozen=True)
class UnknownTopics(Notice):
    kind: ClassVar[NoticeKind] = "unknown_topics"
    unknown: tuple[str, ...]
    known: tuple[str, ...]


@dataclass(frozen=True)
class UnknownTopic(Notice):
    kind: ClassVar[NoticeKind] = "unknown_topic"
    text: str
    suggestion: str | None


@dataclass(frozen=True)
class Busy(Notice):
    """Fair use (``bot.app.limits``): the user or the channel has too much heavy work in flight, or started too
    much in the last minute; ``retry_after`` whole seconds is when asking again should work."""

    kind: ClassVar[NoticeKind] = "busy"
    scope: BusyScope
    reason: BusyReason
    retry_after: int


Problem = Literal[
    "say_subscribe", "say_unsubscribe", "say_mute", "say_unmute", "say_why",  # a word the command needs is missing
    "not_a_duration", "unknown_setting", "needs_value", "subcommand",  # ``value``: the word at fault
    "bad_time", "bad_timezone", "bad_repo", "bad_locale", "bad_topics",  # ``word value``: a setting and its value
    "bad_thread",
]
SETTING_PROBLEMS: dict[str, Problem] = {"repo": "bad_repo", "post_time": "bad_time", "timezone": "bad_timezone",
                                        "locale": "bad_locale", "topics": "bad_topics", "thread": "bad_thread"}


@dataclass(frozen=True)
class Invalid(Notice):
    """The command grammar could not use the input: ``problem`` says what is wrong, ``value`` (and the setting's
    ``word`` as typed) what it was, ``usage`` how to write it. A command of its own too: the grammar returns it."""

    kind: ClassVar[NoticeKind] = "invalid"
    problem: Problem
    usage: str
    value: str = ""
    word: str = ""


@dataclass(frozen=True)
class QueryProblem(Notice):
    """A query that does not say what it means (an unknown filter, a bad date, a range that ends before it
    starts): refused rather than answered as something else, often the whole digest. ``value`` is the part at
    fault as typed, ``hint`` the fix when there is one (``label:bug`` for ``labe:bug``)."""

    kind: ClassVar[NoticeKind] = "query_problem"
    problem: QueryProblemKind
    value: str = ""
    hint: str = ""

    @classmethod
    def of(cls, note: QueryNote) -> QueryProblem:
        assert note.is_problem
        return cls(cast(QueryProblemKind, note.kind), note.value, note.hint)


def query_refusal(problems: tuple[QueryNote, ...]) -> Refused:
    """Every problem of a query, said at once: fixing one at a time would take as many tries."""
    first, *more = (QueryProblem.of(problem) for problem in problems)
    return Refused(first, tuple(more))


@dataclass(frozen=True)
class Failed(Notice):
    """A lower layer's one-sentence error (configuration, environment): operators' words, shown as they are."""

    kind: ClassVar[NoticeKind] = "error"
    message: str


@dataclass(frozen=True)
class Sorry(Notice):
    """Something failed on our side (a bug): logged; the person is told, never shown a traceback."""

    kind: ClassVar[NoticeKind] = "sorry"


REFUSALS: tuple[type[Notice], ...] = (
    NotAllowed, NoRepo, NotSynced, RepoNotSynced, RepoNotAllowed, RepoNeedsAdmin, PostFailed, PostNeedsChannel,
    TooManySubscriptions, SubscriptionWindow, SettingsInChannel, UnknownTopics, UnknownTopic, Invalid, QueryProblem,
    Failed, Busy, ItemNotFound,
)


def is_refusal(notice: Notice | None) -> bool:
    return isinstance(notice, REFUSALS)


class Refused(Exception):
    """Raised inside the service where a use case cannot go on; the caller answers with ``notice`` (and
    ``notes`` after it: more of the same kind)."""

    def __init__(self, notice: Notice, notes: tuple[Notice, ...] = ()) -> None:
        super().__init__(repr(notice))  # logs and the ledger's last_error keep the detail (which repository…)
        self.notice = notice
        self.notes = notes

    def __reduce__(self) -> tuple[type[Refused], tuple[Notice, tuple[Notice, ...]]]:
        return Refused, (self.notice, self.notes)  # from a worker process: the notice itself, not its repr
