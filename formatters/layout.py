"""Pieces every renderer shares: the Jinja2 environment, what goes where, the sparkline, time display.

What goes where in a chat post is decided here once, for Slack and Discord alike (docs/editorial.md, "Where a
reader sees what"): ``chat_layout`` places each item of the digest in one place of the post, ``channel_levels``
says what gives when a platform's limits are reached (fewer items, never a cut title), ``search_url`` links the
appendix's counts to GitHub. Markdown and JSON keep every section whole; ``markdown_order`` orders them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any
from urllib.parse import quote_plus, urlsplit
from zoneinfo import ZoneInfo

from jinja2 import Environment, PackageLoader, StrictUndefined

from bot.model import (
    RESULT_GROUPS,
    STAT_KEYS,
    TOPIC_PREFIX,
    Digest,
    DigestItem,
    InTopic,
    Section,
    SectionKind,
    Suggestion,
    Trend,
    result_group,
)
from bot.timeutil import iso_z
from formatters import safety, sections
from formatters.reasons import bug_kind, hot_reason, item_reason

SPARK_BARS = "▁▂▃▄▅▆▇█"
THREAD_TRENDS = 5  # trends a chat post's thread and the report list


def localtime(moment: datetime | None, tz: str, fmt: str = "%Y-%m-%d %H:%M") -> str:
    return "" if moment is None else moment.astimezone(ZoneInfo(tz)).strftime(fmt)


def sparkline(values: Sequence[int]) -> str:
    """One bar per value, scaled from zero (not from the minimum) so a quiet week looks quiet."""
    values = [max(int(v), 0) for v in values]
    top = max(values, default=0)
    if not values:
        return ""
    if top == 0:
        return SPARK_BARS[0] * len(values)
    return "".join(SPARK_BARS[round(v * (len(SPARK_BARS) - 1) / top)] for v in values)


@cache
def environment() -> Environment:
    """One template tree for every output; autoescape is off because each output escapes differently, in
    the filters below (all from ``formatters.safety``)."""
    env = Environment(
        loader=PackageLoader("formatters", "templates"),
        undefined=StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=False,
    )
    env.filters.update(
        md=safety.markdown_inline,
        url=safety.safe_url,
        localtime=localtime,
        slack=safety.slack_mrkdwn,
        slack_plain=safety.slack_plain,
        discord=safety.discord_markdown,
        discord_plain=safety.discord_plain,
        discord_link=safety.discord_link,
    )
    env.globals.update(
        sparkline=sparkline,
        icon=sections.icon,
        reason=reason,
        item_url=safety.item_url,
        ratio_text=ratio_text,
        suggestion=suggestion,
        percent=percent,
    )
    return env


def macros(name: str) -> Any:
    """A template's macros as callables (``macros("slack/parts.j2").item(...)``)."""
    return environment().get_template(name).module


def reason(item: DigestItem, t: dict[str, Any]) -> str:
    """Why the item is listed, in the locale of the strings ``t`` (unescaped: templates escape it)."""
    return item_reason(item, t["locale"])


def trend_items(digest: Digest, trend: Trend) -> list[DigestItem]:
    """A trend's top items, as its topic section shows them (so links and titles come from one place)."""
    section = digest.section(f"topic:{trend.topic}")
    by_number = {item.number: item for item in section.items} if section else {}
    return [by_number[number] for number in trend.items if number in by_number]


def suggestion(what: Suggestion, t: dict[str, Any]) -> str:
    """What to try when nothing matched, in the words of the strings ``t`` (unescaped)."""
    return str(t["suggest"][what.kind].format(value=what.value))


def ratio_text(trend: Trend) -> str | None:
    ratio = trend.ratio
    return None if ratio is None else f"{ratio:.1f}"


def percent(value: float | None) -> int | None:
    return None if value is None else round(value * 100)


# ----------------------------------------------------------------------------------- the chat post's layout


@dataclass(frozen=True, slots=True)
class ChannelCounts:
    """How many items each part of the channel message shows; ``topics``: how many followed topics show theirs
    there (None: all; the others' items go to the thread)."""

    hot: int = 3
    topic: int = 3
    key_changes: int = 5
    notable: int = 5
    topics: int | None = None


@dataclass(frozen=True, slots=True)
class Placed:
    """A built-in section in the channel message: the items it shows there (its best not placed elsewhere)."""

    section: Section
    items: tuple[DigestItem, ...]


@dataclass(frozen=True, slots=True)
class TopicPlace:
    """A followed topic in a chat post: its items in the channel message, those in the thread, and how many of
    its own items neither shows (items of the topic placed in another followed topic are not its own)."""

    section: Section
    channel: tuple[DigestItem, ...]
    thread: tuple[DigestItem, ...]
    unshown: int = 0


@dataclass(frozen=True, slots=True)
class ChatLayout:
    """Where each item of a chat post goes; an item appears once in the whole post (channel message + thread)."""

    hot: Placed | None
    topics: tuple[TopicPlace, ...]
    key_changes: Placed | None
    notable: Placed | None
    # Followed topics with nothing in the window: the channel message says so in one line, so a reader who
    # follows ROCm knows the digest looked and found nothing rather than wondering whether it looked.
    quiet: tuple[Section, ...] = ()

    def channel_parts(self) -> list[tuple[SectionKind, Section, tuple[DigestItem, ...]]]:
        """The channel message's sections in reading order (hot, followed topics, key changes, notable), each
        with the items it shows there; sections with nothing to show are left out."""
        parts: list[tuple[SectionKind, Section, tuple[DigestItem, ...]]] = []
        if self.hot is not None and self.hot.items:
            parts.append(("hot", self.hot.section, self.hot.items))
        parts += [("topic", place.section, place.channel) for place in self.topics if place.channel]
        for kind, placed in (("key_changes", self.key_changes), ("notable", self.notable)):
            if placed is not None and placed.items:
                parts.append((kind, placed.section, placed.items))  # type: ignore[arg-type]
        return parts

    def thread_topics(self) -> list[TopicPlace]:
        """The followed topics the thread continues: those with items not shown in the channel message."""
        return [place for place in self.topics if place.thread or place.unshown]


# Evidence that an item belongs to a topic, strongest first: the reporter's own label or title tag beats a
# word in the title, which beats the body.
EVIDENCE_STRENGTH = {"label": 0, "tag": 1, "title": 2, "body_lead": 3, "body": 4}


def evidence_strength(item: DigestItem) -> tuple[int, int]:
    """Sorts strongest first: the best source of the item's topic evidence, then how many pieces it has."""
    why = item.why
    if not isinstance(why, InTopic) or not why.evidence:
        return (len(EVIDENCE_STRENGTH), 0)
    best = min(EVIDENCE_STRENGTH.get(found.source, len(EVIDENCE_STRENGTH)) for found in why.evidence)
    return (best, -len(why.evidence))


def followed_sections(digest: Digest) -> list[Section]:
    """The followed topics' sections in the order they are followed (a followed topic without items today
    has no section)."""
    found = (digest.section(TOPIC_PREFIX + topic) for topic in dict.fromkeys(digest.followed))
    return [section for section in found if section is not None and section.items]


def quiet_topics(digest: Digest) -> tuple[Section, ...]:
    """The followed topics with no item in the window, in the order they are followed."""
    found = (digest.section(TOPIC_PREFIX + topic) for topic in dict.fromkeys(digest.followed))
    return tuple(section for section in found if section is not None and not section.items)


def chat_layout(digest: Digest, counts: ChannelCounts = ChannelCounts(), thread_limit: int = 10) -> ChatLayout:
    """Each item once in a chat post, in its most specific place: a followed topic (the one whose evidence for
    it is strongest, the earlier followed on a tie), then notable new bugs, then key changes, then hot
    discussions. A section that loses an item to a more specific place takes its next candidate, so the channel
    still shows 3 hot discussions. ``thread_limit``: a followed topic's items in the thread (beyond those in
    the channel message); what is placed there counts as placed too, the post shows it once."""
    followed = followed_sections(digest)
    home: dict[int, tuple[tuple[int, int], int]] = {}
    for order, section in enumerate(followed):
        for item in section.items:
            claim = (evidence_strength(item), order)
            if item.number not in home or claim < home[item.number]:
                home[item.number] = claim
    placed: set[int] = set()
    topics = []
    in_channel = len(followed) if counts.topics is None else max(counts.topics, 0)
    for order, section in enumerate(followed):
        own = [item for item in section.items if home[item.number][1] == order]
        channel = own[: max(counts.topic, 0)] if order < in_channel else []
        thread = own[len(channel) : len(channel) + max(thread_limit, 0)]
        placed.update(item.number for item in (*channel, *thread))
        if own:
            topics.append(TopicPlace(section, tuple(channel), tuple(thread), len(own) - len(channel) - len(thread)))

    def take(kind: str, count: int) -> Placed | None:
        section = digest.section(kind)
        if section is None:
            return None
        chosen = tuple(item for item in section.items if item.number not in placed)[: max(count, 0)]
        placed.update(item.number for item in chosen)
        return Placed(section, chosen)

    notable = take("notable", counts.notable)
    key_changes = take("key_changes", counts.key_changes)
    hot = take("hot", counts.hot)
    return ChatLayout(hot=hot, topics=tuple(topics), key_changes=key_changes, notable=notable,
                      quiet=quiet_topics(digest))


def channel_levels(followed: int) -> list[ChannelCounts]:
    """What the channel message tries, in order, until one fits the platform's limits: fewer items per part
    first, then fewer followed topics showing theirs (their items move to the thread), at last none."""
    levels = [
        ChannelCounts(),
        ChannelCounts(topic=2),
        ChannelCounts(hot=3, topic=2, key_changes=3, notable=3),
        ChannelCounts(hot=3, topic=1, key_changes=3, notable=3),
        ChannelCounts(hot=2, topic=1, key_changes=2, notable=2),
        ChannelCounts(hot=1, topic=1, key_changes=1, notable=1),
    ]
    levels += [ChannelCounts(hot=1, topic=1, key_changes=1, notable=1, topics=k) for k in range(followed - 1, -1, -1)]
    levels.append(ChannelCounts(hot=0, topic=0, key_changes=0, notable=0, topics=0))
    return levels


def fit_layout(digest: Digest, fits: Callable[[ChatLayout], bool], thread_limit: int = 10) -> ChatLayout:
    """The first of ``channel_levels`` whose layout ``fits`` (the last, nothing but the headline, always must)."""
    levels = channel_levels(len(followed_sections(digest)))
    for counts in levels[:-1]:
        layout = chat_layout(digest, counts, thread_limit)
        if fits(layout):
            return layout
    return chat_layout(digest, levels[-1], thread_limit)


def with_thread_limit(layout: ChatLayout, limit: int) -> list[TopicPlace]:
    """The thread's followed topics showing at most ``limit`` items each (the rest counted as unshown): what the
    topics reply shrinks to when one message cannot hold them all."""
    return [
        TopicPlace(place.section, place.channel, place.thread[:limit],
                   place.unshown + max(len(place.thread) - limit, 0))
        for place in layout.thread_topics()
    ]


def badge(item: DigestItem, kind: SectionKind, t: dict[str, Any]) -> str:
    """The few words an item carries in a chat post and in Markdown instead of a why-line: why a discussion is
    hot (and its streak), whether a key change is merged or in review, what a new bug does, what happened to a
    topic's item. Unescaped (GitHub's text can be in it): callers escape it for their output."""
    words: dict[str, str] = t["badges"]
    if kind == "hot":
        parts = [hot_reason(item, t["locale"]), streak_text(item, t)]
        return " · ".join(part for part in parts if part)
    if kind == "key_changes":
        return words["merged"] if item.state == "merged" else words["in_review"]
    if kind == "notable":
        return bug_kind(item, t["locale"])
    if item.state == "new":
        return words["new_pr"] if item.kind == "pr" else words["new_issue"]
    return words.get(item.state, "")


def streak_text(item: DigestItem, t: dict[str, Any]) -> str:
    if item.streak_days == 1:
        return f"🆕 {t['streak_new']}"
    if item.streak_days:
        return f"🔁 {t['streak'].format(n=item.streak_days)}"
    return ""


# What each count of the appendix searches on GitHub: the page, and the query with the window's range.
SEARCHES: dict[str, tuple[str, str]] = {
    "new_issues": ("issues", "is:issue created:{range}"),
    "closed_issues": ("issues", "is:issue closed:{range}"),
    "new_prs": ("pulls", "is:pr created:{range}"),
    "merged_prs": ("pulls", "is:pr merged:{range}"),
    "closed_unmerged_prs": ("pulls", "is:pr is:unmerged closed:{range}"),
}


def search_url(digest: Digest, key: str) -> str | None:
    """The GitHub search that lists what the count ``key`` counts (window in ISO UTC, URL-encoded), on the host
    the digest's own items link to (GitHub Enterprise too); None for an invalid repository or unknown key."""
    if key not in SEARCHES or not safety.valid_repo(digest.repo):
        return None
    page, query = SEARCHES[key]
    window = f"{iso_z(digest.window.start)}..{iso_z(digest.window.end)}"
    return f"https://{_host(digest)}/{digest.repo}/{page}?q={quote_plus(query.format(range=window))}"


def _host(digest: Digest) -> str:
    """The host of the digest's first item link (``safety.item_url`` checked it is the repository's)."""
    for items in (*digest.appendix.values(), *(section.items for section in digest.sections)):
        for entry in items[:1]:
            url = safety.item_url(digest.repo, entry)
            if url:
                return urlsplit(url).netloc
    return "github.com"


def report_link(url: str | None) -> str | None:
    """The web report's URL (computed by the app service from PUBLIC_URL) when it is a plain http(s) URL that no
    output's markup can break out of; None otherwise (no link is shown)."""
    return url if url and safety.safe_url(url) == url else None


def markdown_order(digest: Digest) -> list[Section | None]:
    """The report's order (docs/editorial.md): followed topics, hot discussions, trends (None), key changes,
    notable new bugs, the other topics; every section with items, whole; a followed topic without items
    keeps its place (it says the window had nothing for it)."""
    found = (digest.section(TOPIC_PREFIX + topic) for topic in dict.fromkeys(digest.followed))
    followed = [section for section in found if section is not None]
    chosen = {section.id for section in followed}
    builtin = {section.id: section for section in digest.sections if section.kind != "topic" and section.items}
    others = [s for s in digest.sections if s.kind == "topic" and s.items and s.id not in chosen]
    order: list[Section | None] = [*followed]
    if "hot" in builtin:
        order.append(builtin["hot"])
    order.append(None)
    order += [builtin[kind] for kind in ("key_changes", "notable") if kind in builtin]
    return order + others


def appendix_groups(digest: Digest) -> list[tuple[str, tuple[DigestItem, ...]]]:
    """The five stat lists in stat order, then any other key the builder added (never dropped)."""
    keys = [*STAT_KEYS, *(key for key in digest.appendix if key not in STAT_KEYS)]
    return [(key, tuple(digest.appendix.get(key, ()))) for key in keys]


def group_results(items: Sequence[DigestItem]) -> list[tuple[str, list[DigestItem]]]:
    """Items by ``result_group`` in ``RESULT_GROUPS`` order (unknown groups last), best first inside."""
    groups: dict[str, list[DigestItem]] = {}
    for item in items:
        groups.setdefault(result_group(item), []).append(item)
    order = [*RESULT_GROUPS, *(g for g in groups if g not in RESULT_GROUPS)]
    return [(group, groups[group]) for group in order if group in groups]


def take_lines(
    lines: Sequence[str], limit: int, more: Callable[[int], str], *, hidden: int = 0, sep: str = "\n"
) -> str:
    """Join as many whole lines as fit in ``limit`` (UTF-16 units); one "more" line counts the lines left
    out plus ``hidden`` ones that were never offered."""
    for shown in range(len(lines), -1, -1):
        parts = list(lines[:shown])
        left_out = len(lines) - shown + hidden
        if left_out:
            parts.append(more(left_out))
        text = sep.join(parts)
        if safety.text_size(text) <= limit:
            return text
    return safety.truncate(more(len(lines) + hidden), limit)


def largest_fitting(count: int, fits: Callable[[int], bool]) -> int:
    """The largest ``k <= count`` with ``fits(k)`` (``fits`` is monotone and ``fits(0)`` holds)."""
    low, high = 0, count
    while low < high:
        middle = (low + high + 1) // 2
        if fits(middle):
            low = middle
        else:
            high = middle - 1
    return low
