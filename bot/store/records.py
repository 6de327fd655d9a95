"""What the store holds, as plain frozen values: the sync writes them, the builders read them."""

from __future__ import annotations

from datetime import datetime

from msgspec import Struct, field


class ItemRecord(Struct, frozen=True):
    repo: str
    number: int
    kind: str  # "issue" | "pr"
    title: str
    body: str
    author: str
    author_is_bot: bool
    labels: tuple[str, ...]
    state: str  # "open" | "closed"
    created_at: datetime
    updated_at: datetime
    url: str
    closed_at: datetime | None = None
    merged_at: datetime | None = None
    state_reason: str | None = None
    draft: bool = False
    comment_count: int = 0
    reactions: int = 0
    thumbs_up: int = 0
    author_association: str = ""
    # Derived once at sync time, so digests and queries never re-clean bodies.
    prose: str = ""  # the body without templates, code, HTML and checklists
    summary: str = ""  # its first meaningful sentence
    # Topic matches (topic id, score, reasons) computed by the sync with the taxonomy ``topics_key``.
    topics: tuple[tuple[str, int, tuple[str, ...]], ...] | None = None
    topics_key: str = ""
    # What the item is (``bot.topics.kinds``), worked out by the sync with the rules ``kinds_key``: the failure
    # a bug report describes, the kind of change a PR makes and its signal's value.
    bug_kind: str | None = None
    change_kind: str | None = None
    change_value: str = ""
    kinds_key: str = ""
    # What its text says beyond the title (``bot.topics.text_facts``: ``ItemFacts`` fields not at their default,
    # as (name, value) pairs), worked out with the kinds under ``kinds_key``; None: not worked out.
    text_facts: tuple[tuple[str, object], ...] | None = None
    # A PR's details (``GET /pulls/{n}``), fetched by the sync for key-change candidates only; None: not known.
    additions: int | None = None
    deletions: int | None = None
    changed_files: int | None = None
    review_comments: int | None = None
    details_updated_at: datetime | None = None  # the ``updated_at`` the details were read at (older: stale)
    details_due: bool = False  # picked for a details fetch that has not succeeded yet: retried by the next sync

    @property
    def is_pr(self) -> bool:
        return self.kind == "pr"


class RemovedItem(Struct, frozen=True):
    """An issue GitHub says is gone from ``repo``: ``deleted``, or ``transferred`` (to ``moved_to``,
    "owner/name#number", when known). The store forgets it and never stores it again."""

    repo: str
    number: int
    reason: str  # deleted | transferred
    moved_to: str | None = None
    removed_at: datetime | None = None


class PullDetails(Struct, frozen=True):
    """What ``GET /repos/{o}/{r}/pulls/{n}`` adds to the issues listing, as the store keeps it."""

    number: int
    updated_at: datetime | None  # the pull's own, when it said
    additions: int | None = None
    deletions: int | None = None
    changed_files: int | None = None
    review_comments: int | None = None
    commits: int | None = None


DETAIL_FIELDS = ("additions", "deletions", "changed_files", "review_comments", "details_updated_at", "details_due")


class CommentRecord(Struct, frozen=True):
    repo: str
    id: int
    number: int
    author: str
    author_is_bot: bool
    created_at: datetime
    updated_at: datetime
    body: str = ""
    reactions: int = 0
    author_association: str = ""  # GitHub's: OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, FIRST_TIMER, NONE, ...
    confirms: bool = False  # derived once at sync time: a short "+1" / "same here" (bot.github.payloads)


# GitHub's ``author_association`` values of the project's own people, and of first-time contributors.
MAINTAINER_ASSOCIATIONS = frozenset({"OWNER", "MEMBER", "COLLABORATOR"})
FIRST_TIMER_ASSOCIATIONS = frozenset({"FIRST_TIME_CONTRIBUTOR", "FIRST_TIMER"})


class Discussion(Struct, frozen=True):
    """One item's human comments in a window: who took part, and who spoke last (bots never count)."""

    people: frozenset[str]  # distinct human commenters
    maintainer: bool  # one of them is the project's (``MAINTAINER_ASSOCIATIONS``)
    last_author: str  # of the latest human comment
    last_association: str
    # short comments confirming the item (``CommentRecord.confirms``) by people other than its author
    confirmations: int = 0
    # the login of the maintainer (``MAINTAINER_ASSOCIATIONS``) other than the item's author who commented first
    # in the window ("": none did)
    first_maintainer: str = ""

    @property
    def participants(self) -> int:
        return len(self.people)

    @property
    def maintainer_spoke_last(self) -> bool:
        return self.last_association in MAINTAINER_ASSOCIATIONS


class WindowActivity(Struct, frozen=True):
    """Everything one window's digest needs, read in a fixed number of queries."""

    items: dict[int, ItemRecord]
    # human comments created inside the window, per item number
    comments_in_window: dict[int, int] = field(default_factory=dict)
    comment_reactions_in_window: dict[int, int] = field(default_factory=dict)
    # per item with human comments in the window: who discussed it there
    discussions: dict[int, Discussion] = field(default_factory=dict)


class ItemFilter(Struct, frozen=True):
    """Which of a window's items a read returns, decided by the database (``Store.window_activity``): a query's
    filters that columns answer exactly. Empty fields filter nothing."""

    kinds: frozenset[str] = frozenset()  # issue | pr: any of them
    states: frozenset[str] = frozenset()  # open | closed | merged: any of them
    authors: frozenset[str] = frozenset()  # lower-case ASCII logins: any of them
    excluded_authors: frozenset[str] = frozenset()  # lower-case logins: none of them
    humans: bool = False  # leave out items whose author GitHub marks as a bot
    # None: every item's prose. Else the prose only of the items whose prose contains one of these fragments
    # (lower-case; compared with the database's lower(), which SQLite applies to ASCII letters only) or whose
    # stored topic matches are not ``topics_key``'s (they are matched again, from the prose); "" for the others.
    prose_fragments: tuple[str, ...] | None = None
    topics_key: str = ""
    # Per query word, (the topic it names or "", fragments): only the items each word could match, i.e. whose
    # title, labels, prose or a human comment in the window contains one of its fragments (ASCII, lower-case),
    # or whose stored topics name its topic (or are not ``topics_key``'s). Empty: no such condition.
    mentions: tuple[tuple[str, tuple[str, ...]], ...] = ()


class Unreadable(Struct, frozen=True):
    """An item a sync saw but could not read (its payload was malformed), reported until it is stored."""

    resource: str  # "issues" | "comments"
    key: int | None  # issue number | comment id; None when that could not be read either
    error: str
    hold: datetime | None = None  # key None: its listing must start again at or before this to see it
    first_seen_at: datetime | None = None
    last_seen_at: datetime | None = None
    attempts: int = 1


class UnreadableChange(Struct):
    """What one completed listing learnt about unreadable items, written with its cursor."""

    found: dict[int, str] = field(default_factory=dict)  # key -> why, for items it saw malformed
    fixed: set[int] = field(default_factory=set)  # reported keys it read fine: their reports go
    unkeyed: list[tuple[str, datetime]] = field(default_factory=list)  # (why, hold) of items with no key
    replace_unkeyed: bool = False  # it re-read all of the held range: earlier unkeyed reports go
