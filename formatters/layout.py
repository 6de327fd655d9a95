"""Pieces every renderer shares: the Jinja2 environment, what goes where, the sparkline, time display.

What goes where in a chat post is decided here once, for Slack and Discord alike (docs/editorial.md, "Where a
reader sees what"): ``chat_layout`` places each item of the digest in one place of the post, ``channel_levels``
says what gives when a platform's limits are reached (fewer items, never a cut title), ``search_url`` links the
appendix's counts to GitHub. Markdown and JSON keep every section whole; ``markdown_order`` orders them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cache
from typing import Any, TypeVar
from urllib.parse import quote_plus, urlsplit
from zoneinfo import ZoneInfo

from jinja2 import Environment, PackageLoader, StrictUndefined

from bot.model import (
    RESULT_GROUPS,
    STAT_KEYS,
    TOPIC_PREFIX,
    Analysis,
    Digest,
    DigestItem,
    Hot,
    InReview,
    Merged,
    NewBug,
    Section,
    SectionKind,
    Signal,
    Suggestion,
    Theme,
    Trend,
    result_group,
)
from bot.model.edition import TopicIndexEntry, edition_of
from bot.timeutil import iso_z
from formatters import facts, safety, sections
from formatters.reasons import counted, item_reason

R = TypeVar("R")
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
        state_word=lambda item, t: state_word(item, t),
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


# ------------------------------------------------------------------------------- the edition, as rendered


@dataclass(frozen=True, slots=True)
class Entry:
    """An item's one full entry: as its home section lists it (``kind``), with the other sections it is a
    candidate of (``also``: the badge says it is a new bug and hot too) and any LLM analysis of it."""

    item: DigestItem
    kind: SectionKind
    also: tuple[tuple[SectionKind, DigestItem], ...] = ()  # the item as each other section lists it
    analysis: Analysis | None = None

    def why(self, reason: type[R]) -> R | None:
        """The item's reason of that type in any section it is in (its ``NewBug`` as notable lists it)."""
        for item in (self.item, *(other for _, other in self.also)):
            if isinstance(item.why, reason):
                return item.why
        return None

    @property
    def kinds(self) -> tuple[SectionKind, ...]:
        return (self.kind, *(kind for kind, _ in self.also))

    @property
    def number(self) -> int:
        return self.item.number


@dataclass(frozen=True, slots=True)
class Part:
    """One edited section as the renderers show it: its full entries, references to entries elsewhere (the item
    and the section holding it), and the candidates shown nowhere as an entry (``rest``)."""

    kind: SectionKind
    section: Section
    total: int
    entries: tuple[Entry, ...]
    refs: tuple[tuple[DigestItem, Section], ...] = ()
    rest: tuple[DigestItem, ...] = ()

    @property
    def anchor(self) -> str:
        """The id of the section on the report page (``#hot``, ``#topic-rocm``)."""
        return anchor(self.section.id)


@dataclass(frozen=True, slots=True)
class Page:
    """The whole edition, ready to render: parts in reading order (followed topics, hot discussions, key
    changes, notable issues), the followed topics with nothing today, the other topics' index, the themes, and
    the items the summary names (each has a full entry in ``parts``)."""

    parts: tuple[Part, ...]
    quiet: tuple[Section, ...] = ()
    index: tuple[TopicIndexEntry, ...] = ()
    themes: tuple[Theme, ...] = ()
    named: frozenset[int] = frozenset()
    items: dict[int, DigestItem] = field(default_factory=dict)  # every item of the sections, by number

    def entry(self, number: int) -> Entry | None:
        return next((e for part in self.parts for e in part.entries if e.number == number), None)


def anchor(section_id: str) -> str:
    return section_id.replace(":", "-")


_SUMMARY_ITEM = re.compile(r"(?<![\w&/#])#(\d{1,9})\b")


def summary_numbers(digest: Digest) -> frozenset[int]:
    """The item numbers the summary names (``#123``), template or LLM."""
    narrative = digest.narrative
    if narrative is None:
        return frozenset()
    return frozenset(int(found) for found in _SUMMARY_ITEM.findall(narrative.summary))


def page(digest: Digest) -> Page:
    """The digest's edition (``bot.model.edition``) resolved into items. An item the summary names that has
    no entry (an LLM may name the fourth hot discussion) gets one at the end of its first section, so the
    summary never names what the same rendering does not show."""
    edition = edition_of(digest)
    sections = {section.id: section for section in digest.sections}
    items: dict[int, DigestItem] = {}
    member: dict[int, dict[SectionKind, DigestItem]] = {}
    analysis: dict[int, Analysis] = {}
    for section in digest.sections:
        for item in section.items:
            items.setdefault(item.number, item)
            member.setdefault(item.number, {}).setdefault(section.kind, item)
            if item.analysis is not None and item.number not in analysis:
                analysis[item.number] = item.analysis
    named = summary_numbers(digest) & set(items)
    edited = list(edition.sections())
    placed = {n for s in edited for n in s.entries}
    for number in sorted(named - placed):
        for k, candidate in enumerate(edited):
            found = sections.get(candidate.id)
            if found is not None and any(item.number == number for item in found.items):
                edited[k] = replace(candidate, entries=(*candidate.entries, number),
                                    refs=tuple(r for r in candidate.refs if r.number != number),
                                    rest=tuple(n for n in candidate.rest if n != number))
                placed.add(number)
                break
    home = {n: s.id for s in edited for n in s.entries}
    parts = []
    for candidate in edited:
        home_section = sections.get(candidate.id)
        if home_section is None:
            continue
        section = home_section
        own = {item.number: item for item in section.items}
        entries = tuple(
            Entry(own[n], section.kind,
                  tuple((k, other) for k, other in member.get(n, {}).items() if k != section.kind), analysis.get(n))
            for n in candidate.entries if n in own
        )
        refs = tuple((own[r.number], sections[home[r.number]]) for r in candidate.refs
                     if r.number in own and home.get(r.number) in sections and home[r.number] != candidate.id)
        rest = tuple(own[n] for n in candidate.rest if n in own and home.get(n) != candidate.id)
        if entries or refs or rest:
            parts.append(Part(section.kind, section, candidate.total, entries, refs, rest))
    return Page(
        parts=tuple(parts),
        quiet=tuple(sections[TOPIC_PREFIX + topic] for topic in edition.quiet if TOPIC_PREFIX + topic in sections),
        index=edition.index,
        themes=digest.narrative.themes if digest.narrative is not None else (),
        named=frozenset(named),
        items=items,
    )


# ----------------------------------------------------------------------------------- the chat post's layout


@dataclass(frozen=True, slots=True)
class ChannelCounts:
    """How many entries each part of the channel message shows; ``topics``: how many followed topics show
    theirs there (None: all; the others' entries go to the thread)."""

    hot: int = 3
    topic: int = 3
    key_changes: int = 5
    notable: int = 5
    topics: int | None = None


@dataclass(frozen=True, slots=True)
class ChatPart:
    """A part of a chat post: the entries the channel message shows, those the thread continues with (followed
    topics only), and the references shown with them."""

    part: Part
    channel: tuple[Entry, ...]
    thread: tuple[Entry, ...] = ()

    @property
    def shown(self) -> int:
        """Candidates the post shows for this part: entries and references (what "3 of 10" counts)."""
        return len(self.channel) + len(self.thread) + len(self.part.refs)

    @property
    def unshown(self) -> int:
        return max(self.part.total - self.shown, 0)


@dataclass(frozen=True, slots=True)
class ChatLayout:
    """What a chat post shows of the page: each part's first entries in the channel message, the followed topics'
    next ones in the thread. An item has its entry once in the whole post."""

    page: Page
    parts: tuple[ChatPart, ...]

    def channel_parts(self) -> list[ChatPart]:
        return [part for part in self.parts if part.channel]

    def thread_topics(self) -> list[ChatPart]:
        """The followed topics the thread continues: entries the channel message had no room for, or more."""
        return [part for part in self.parts if part.part.kind == "topic" and (part.thread or
                                                                               (part.unshown and part.channel))]

    @property
    def quiet(self) -> tuple[Section, ...]:
        return self.page.quiet

    def shown(self) -> set[int]:
        return {e.number for part in self.parts for e in (*part.channel, *part.thread)}


def chat_layout(digest: Digest | Page, counts: ChannelCounts = ChannelCounts()) -> ChatLayout:
    """The first ``counts`` entries of each part in the channel message (a followed topic beyond
    ``counts.topics`` shows its entries in the thread instead), the followed topics' other entries in the
    thread. An entry the summary names is always in the channel message."""
    view = digest if isinstance(digest, Page) else page(digest)
    limits = {"hot": counts.hot, "topic": counts.topic, "key_changes": counts.key_changes,
              "notable": counts.notable}
    in_channel = len(view.parts) if counts.topics is None else max(counts.topics, 0)
    parts = []
    topic_index = 0
    for part in view.parts:
        limit = max(limits[part.kind], 0)
        if part.kind == "topic":
            if topic_index >= in_channel:
                limit = 0
            topic_index += 1
        channel = tuple(e for k, e in enumerate(part.entries) if k < limit or e.number in view.named)
        thread = tuple(e for e in part.entries if e not in channel) if part.kind == "topic" else ()
        parts.append(ChatPart(part, channel, thread))
    return ChatLayout(view, tuple(parts))


def channel_levels(followed: int) -> list[ChannelCounts]:
    """What the channel message tries, in order, until one fits the platform's limits: fewer entries per part
    first, then fewer followed topics showing theirs (their entries move to the thread), at last none."""
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


def fit_layout(digest: Digest, fits: Callable[[ChatLayout], bool]) -> ChatLayout:
    """The first of ``channel_levels`` whose layout ``fits`` (the last, the headline and the summary's items,
    always must)."""
    view = page(digest)
    levels = channel_levels(sum(1 for part in view.parts if part.kind == "topic"))
    for counts in levels[:-1]:
        layout = chat_layout(view, counts)
        if fits(layout):
            return layout
    return chat_layout(view, levels[-1])


def with_thread_limit(layout: ChatLayout, limit: int) -> list[ChatPart]:
    """The thread's followed topics showing at most ``limit`` entries each: what the topics reply shrinks to
    when one message cannot hold them all (the rest are counted as not shown)."""
    return [replace(part, thread=part.thread[: max(limit, 0)]) for part in layout.thread_topics()]


# ------------------------------------------------------------------------------------------- entry words


def badge(entry: Entry, t: dict[str, Any], *, state: bool = True) -> str:
    """The few words an entry carries instead of a why-line: what a new bug does, what kind of change a key
    change is (and, with ``state``, whether it is merged or in review), why a discussion is hot; with
    ``state``, what happened to an item that is none of these ("new PR"). Surfaces that print the state in a
    byline ask without it. Unescaped (GitHub's text can be in it): callers escape it for their output."""
    kinds = entry.kinds
    words: list[str] = []
    item = entry.item
    words.append(bug_word(entry, t))
    if "key_changes" in kinds:
        if state:
            words.append(t["badges"]["merged"] if item.state == "merged" else t["badges"]["in_review"])
        words.append(change_word(entry, t))
    if "hot" in kinds:
        words.append(hot_words(entry, t))
    words = [word for word in words if word]
    if not words and state:
        words.append(state_word(item, t))
    return " · ".join(words)


_CHANGE_ORDER = ("new_model", "hardware", "feature", "default", "speedup", "fix", "breaking")


def change_word(entry: Entry, t: dict[str, Any]) -> str:
    """What kind of change a key change is ("new model", "speed-up 25%", "fixes crash"), "" when unknown."""
    why = entry.why(Merged) or entry.why(InReview)
    if why is None:
        return ""
    signals: dict[str, Signal] = {signal.kind: signal for signal in why.signals}
    words = t["reasons"]
    for kind in _CHANGE_ORDER:
        signal = signals.get(kind)
        if signal is None:
            continue
        if kind == "speedup" and signal.value:
            return str(words["signals"]["speedup_by"].format(value=signal.value))
        if kind == "fix":
            return str(words["signals"]["fix"].format(value=words["bugs"].get(signal.value, signal.value)))
        return str(words["signals"][kind])
    return ""


def bug_word(entry: Entry, t: dict[str, Any]) -> str:
    """What a bug report describes ("crash", "卡死"): its ``NewBug`` as the notable section ranks it, else the
    failure its facts name (a report past the notable ten says it too); "new bug" for a notable entry that says
    neither, "" for an item that reports no failure."""
    why = entry.why(NewBug)
    facts = entry.item.facts
    failure = why.bug if why is not None else facts.failure if facts is not None else None
    if failure is not None:
        return str(t["reasons"]["bugs"][failure])
    return str(t["badges"]["new_bug"]) if "notable" in entry.kinds else ""


def hot_words(entry: Entry, t: dict[str, Any]) -> str:
    """Why a discussion is hot, short: new comments and people, whether it waits for the maintainers, its streak."""
    why = entry.why(Hot)
    words = t["reasons"]
    parts: list[str] = []
    if why is not None:
        parts.append(counted(words["hot"], why.comments).format(comments=why.comments))
        if why.participants > 1:
            parts.append(counted(words["participants"], why.participants).format(n=why.participants))
        if why.open_question and not why.maintainer:
            parts.append(words["open_question"])
    else:
        parts.append(t["badges"]["hot"])
    hot = next((other for kind, other in entry.also if kind == "hot"), entry.item)
    streak = streak_text(hot, t)
    return str(words["sep"]).join(parts) + (f" · {streak}" if streak else "")


def state_word(item: DigestItem, t: dict[str, Any]) -> str:
    """What happened to the item in the window, with its kind: "new PR", "merged PR", "open issue" (zh-CN:
    状态词 by what is going on: 讨论中 only for an open item discussed in the window)."""
    states: dict[str, Any] = t["states"]
    kind = "pr" if item.kind == "pr" else "issue"
    state = item.state
    if state == "open" and kind == "issue" and item.comments_in_window:
        state = "discussed"
    found = states.get(state)
    if isinstance(found, dict):
        return str(found.get(kind, ""))
    return str(found) if found else ""


def streak_text(item: DigestItem, t: dict[str, Any]) -> str:
    if item.streak_days == 1:
        return f"🆕 {t['streak_new']}"
    if item.streak_days:
        return f"🔁 {t['streak'].format(n=item.streak_days)}"
    return ""


def count_header(name: str, shown: int, total: int, t: dict[str, Any]) -> str:
    """A heading with its count: "Hot discussions (10)" when all are shown, else "Hot discussions · 3 of 10"
    (zh-CN "高热度讨论（10 项中的 3 项）"); ``name`` is already escaped for the output."""
    if shown >= total:
        return str(t["counted"].format(name=name, n=total))
    return str(t["counted_of"].format(name=name, shown=shown, n=total))


def header(part: Part, t: dict[str, Any], name: str) -> str:
    """A part's heading on the page and in Markdown, which show every candidate (entries, references, links)."""
    return count_header(name, len(part.entries) + len(part.refs) + len(part.rest), part.total, t)


Segments = list[tuple[str, bool]]  # a line as (text, is code) pieces, unescaped


def spaced(text: str, escape: Callable[[str], str]) -> str:
    """``escape(text)`` with the spaces around ``text`` kept (escapers trim: " · " between a code span and the
    next part would lose them)."""
    body = text.strip()
    if not body:
        return text
    return text[: len(text) - len(text.lstrip())] + escape(body) + text[len(text.rstrip()):]


def entry_details(entry: Entry, t: dict[str, Any], *, analysis: bool = True) -> list[Segments]:
    """The lines under an entry's title, unescaped, each as segments (text, code): its facts
    (``formatters.facts``; an error line it quotes is code), what the body adds (English only: under zh-CN the
    title stands alone), and, with ``analysis``, the LLM's, one line per field (🤖)."""
    locale = t["locale"]
    lines: list[Segments] = []
    line = facts.facts_line(entry.item, locale)
    if line:
        lines.append([(piece, k % 2 == 1) for k, piece in enumerate(line.split("`")) if piece])
    sentence = facts.description(entry.item, locale)
    if sentence:
        lines.append([(sentence, False)])
    said = entry.analysis
    if analysis and said is not None:
        for key in ("question", "positions", "status", "impact"):
            value = getattr(said, key)
            if value:
                lines.append([(f"🤖 {t[key]}{t['colon']}{value}", False)])
    return lines


def analysis_line(entry: Entry, t: dict[str, Any]) -> str:
    """The LLM's analysis in one line, for a chat post: a key change's impact, a discussion's state (else its
    question); "" without one."""
    analysis = entry.analysis
    if analysis is None:
        return ""
    return analysis.impact or analysis.status or analysis.question or ""


def digest_title(digest: Digest, t: dict[str, Any]) -> str:
    """The report's title: the project and the day ("vllm 开发动态报告 · 2025-12-02"), unescaped."""
    day = localtime(digest.window.end, digest.window.timezone, "%Y-%m-%d")
    name = digest.repo.rsplit("/", 1)[-1]
    return str(t["report"]["page_title"].format(name=name, repo=digest.repo, day=day))


def theme_sentence(theme: Theme, t: dict[str, Any], name: str, links: str) -> str:
    """One theme as a sentence: its name (escaped by the caller), how many items and of what kind, how far
    above its usual level, and its items (``links``, already made for the output)."""
    words = t["themes"]
    head = str(t["reasons"]["sep"]).join(text for text in (
        counted(words["items"], theme.count).format(n=theme.count), theme_movement(theme, t)) if text)
    facets = theme_facets(theme, t)
    inner = head + (str(words["after_size"]) + facets if facets else "")
    return str(words["line"].format(name=name, details=inner, links=links))


def theme_name(theme: Theme, t: dict[str, Any] | None = None) -> str:
    """A theme's name: its topics' names joined as the locale joins them ("Qwen models + Quantization",
    "Qwen 系列模型的量化"); unescaped: a topic's name is configuration, like a title."""
    join = str(t["themes"]["join"]) if t is not None else " + "
    return join.join(topic.name for topic in theme.topics)


def theme_facets(theme: Theme, t: dict[str, Any]) -> str:
    """What a theme's items are, counted ("4 fixes, 2 bug reports"); "" when they are all of one other kind."""
    words = t["themes"]["facets"]
    parts = [counted(words[name], n).format(n=n) for name, n in theme.facets if name != "other"]
    return str(t["themes"]["facet_sep"]).join(parts)


def theme_movement(theme: Theme, t: dict[str, Any]) -> str:
    if theme.new:
        return str(t["themes"]["new"])
    if theme.ratio is not None and theme.ratio >= 1.5:
        return str(t["themes"]["ratio"].format(ratio=f"{theme.ratio:.1f}".removesuffix(".0")))
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


def shown_groups(
    items: Sequence[DigestItem], shown: int
) -> tuple[list[tuple[str, list[DigestItem], list[DigestItem]]], list[tuple[str, int]]]:
    """A query answer's groups (``group_results``) as shown with its best ``shown`` items: each group with at
    least one item shown (group, its items, those shown), and the groups with none shown as (group, count) for
    one line after them (``hidden_groups_line``): a heading never stands over nothing but "…and N more"."""
    top = {id(item) for item in items[: max(shown, 0)]}
    visible: list[tuple[str, list[DigestItem], list[DigestItem]]] = []
    hidden: list[tuple[str, int]] = []
    for group, members in group_results(items):
        seen = [item for item in members if id(item) in top]
        if seen:
            visible.append((group, members, seen))
        else:
            hidden.append((group, len(members)))
    return visible, hidden


def hidden_groups_line(hidden: Sequence[tuple[str, int]], t: dict[str, Any]) -> str:
    """"…and 3 more: Closed issues (1), Active (2)" for groups none of whose items are shown (unescaped);
    empty when there are none."""
    total = sum(count for _, count in hidden)
    if not total:
        return ""
    names = t["list_sep"].join(t["counted"].format(name=t["groups"].get(group, group), n=count)
                               for group, count in hidden)
    return str(t["and_more_in"].format(n=total, details=names))


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
