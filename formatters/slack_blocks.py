"""The digest and query answers as Slack ``chat.postMessage`` payloads (Block Kit).

A digest is a post (docs/editorial.md, "Where a reader sees what"): the channel message is the digest itself
(title and window, the five counts, the summary, the top hot discussions with why each is hot, the followed
topics' top items, the top key changes and notable new bugs), readable without opening the thread; the thread
has at most three replies: the followed topics in full, trends and activity, and the appendix (the counts,
each linked to its GitHub search; ``thread = "full"`` adds every item). ``formatters.layout.chat_layout``
places each item once in the whole post. The adapter adds ``channel``/``thread_ts``.

Exact text: every piece of GitHub's text (and the LLM's) is a ``text`` element of a ``rich_text`` block.
Slack parses nothing inside such an element (mrkdwn would style ``fused_moe`` and has no escape for ``_ * ~``
`````; mentions and links are elements of their own), so a title reads, copies and searches as it does on
GitHub, and the only links are the ``link`` elements we make to the repository and its searches. mrkdwn
carries only our own words and numbers (headers, counts, the window); the ``text`` fallback only the repository
and the counts (``formatters.safety``).

Limits: at most 50 blocks and ``TEXT_BUDGET`` characters (fallback and link URLs included) per message,
section and rich text block text at most 3000, header 150, fields 10 x 2000. When the channel message would
not fit, it shows fewer items (``formatters.layout.channel_levels``), never a cut title; a thread reply that
would not fit one message shows fewer items with "…and N more"; the full appendix continues in further
replies at a line boundary under a "(continued)" heading.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, NotRequired, TypedDict

from bot.model import STAT_KEYS, Digest, DigestItem, QueryResult, Section, SectionKind, Theme, ThreadMode
from formatters import layout, sections
from formatters.layout import ChatLayout
from formatters.locale import strings
from formatters.notices import answer_notes
from formatters.reasons import item_reason
from formatters.safety import item_url, slack_text, text_size, truncate

MAX_BLOCKS = 50
SECTION_TEXT = 3000
RICH_TEXT = 3000  # one rich_text block: Slack documents no bound of its own; a section's is a safe one
HEADER_TEXT = 150
FIELD_TEXT = 2000
TEXT_BUDGET = 8000  # all text of one message, fallback included: far below where Slack refuses or truncates
FALLBACK_TEXT = 300
TITLE_TEXT = 512  # GitHub allows 256 characters in a title: never cut
SUMMARY_TEXT = 1000
DETAIL_TEXT = 300  # an item's summary, reason or byline in a query answer
FACT_TEXT = 200  # a piece of an entry's facts line (an error line is cut, as it is on the page)
PARTS = "slack/parts.j2"

# ------------------------------------------------------------------------------------------ payload types


class MrkdwnText(TypedDict):
    type: Literal["mrkdwn"]
    text: str
    verbatim: bool


class PlainText(TypedDict):
    type: Literal["plain_text"]
    text: str
    emoji: bool


class TextStyle(TypedDict, total=False):
    bold: bool
    italic: bool
    code: bool


class RichTextText(TypedDict):
    """Shown exactly as given: Slack parses no markup, mention or link in it."""

    type: Literal["text"]
    text: str
    style: NotRequired[TextStyle]


class RichTextLink(TypedDict):
    type: Literal["link"]
    url: str  # only from ``safety.item_url`` or ``layout.search_url``: the repository's own pages
    text: str


Inline = RichTextText | RichTextLink


class RichTextSection(TypedDict):
    type: Literal["rich_text_section"]
    elements: list[Inline]


class RichTextList(TypedDict):
    type: Literal["rich_text_list"]
    style: Literal["bullet"]
    elements: list[RichTextSection]


class RichTextBlock(TypedDict):
    type: Literal["rich_text"]
    elements: list[RichTextSection | RichTextList]


class SectionBlock(TypedDict):
    type: Literal["section"]
    text: NotRequired[MrkdwnText]  # a section has text, fields, or both
    fields: NotRequired[list[MrkdwnText]]


class HeaderBlock(TypedDict):
    type: Literal["header"]
    text: PlainText


class ContextBlock(TypedDict):
    type: Literal["context"]
    elements: list[MrkdwnText]


class DividerBlock(TypedDict):
    type: Literal["divider"]


Block = SectionBlock | HeaderBlock | ContextBlock | DividerBlock | RichTextBlock


class SlackMessage(TypedDict):
    """A ``chat.postMessage`` payload without ``channel``/``thread_ts`` (the adapter adds them)."""

    text: str  # the notification and accessibility fallback
    blocks: list[Block]
    unfurl_links: bool
    unfurl_media: bool


Payload = SlackMessage


# ------------------------------------------------------------------------------------------------- blocks


def _mrkdwn(text: str) -> MrkdwnText:
    # verbatim: Slack must not auto-link URLs or parse names in text we did not mark up ourselves
    return {"type": "mrkdwn", "text": text, "verbatim": True}


def _section(text: str) -> SectionBlock:
    return {"type": "section", "text": _mrkdwn(truncate(text, SECTION_TEXT))}


def _fields(texts: list[str]) -> SectionBlock:
    return {"type": "section", "fields": [_mrkdwn(truncate(text, FIELD_TEXT)) for text in texts[:10]]}


def _header(text: str) -> HeaderBlock:
    return {"type": "header", "text": {"type": "plain_text", "text": truncate(text, HEADER_TEXT), "emoji": True}}


def _context(*texts: str) -> ContextBlock:
    return {"type": "context", "elements": [_mrkdwn(text) for text in texts if text][:10]}


def _divider() -> DividerBlock:
    return {"type": "divider"}


def _text(text: str, *, bold: bool = False, italic: bool = False, code: bool = False) -> RichTextText:
    element: RichTextText = {"type": "text", "text": text}
    style: TextStyle = {}
    if bold:
        style["bold"] = True
    if italic:
        style["italic"] = True
    if code:
        style["code"] = True
    if style:
        element["style"] = style
    return element


def _link(url: str | None, text: str) -> Inline:
    """A link to ``url`` (ours: the repository's pages), or the bare text when there is none."""
    return {"type": "link", "url": url, "text": text} if url else _text(text)


def _line(*elements: Inline) -> RichTextSection:
    # Slack refuses an empty text element: leave them out.
    return {"type": "rich_text_section", "elements": [e for e in elements if e["text"]]}


def _bullets(lines: list[RichTextSection]) -> RichTextList:
    return {"type": "rich_text_list", "style": "bullet", "elements": lines}


def _rich(*parts: RichTextSection | RichTextList) -> RichTextBlock:
    return {"type": "rich_text", "elements": [part for part in parts if part["elements"]]}


def _inline_size(element: Inline) -> int:
    return text_size(element["text"]) + (len(element["url"]) if element["type"] == "link" else 0)


def _rich_size(part: RichTextBlock | RichTextSection | RichTextList) -> int:
    total = 0
    for element in part["elements"]:
        if element["type"] == "text" or element["type"] == "link":
            total += _inline_size(element)
        else:
            total += _rich_size(element)
    return total


def block_text_size(block: Block) -> int:
    """Characters of text a block carries (what the per-message budget counts; link URLs included)."""
    if block["type"] == "rich_text":
        return _rich_size(block)
    texts: list[MrkdwnText | PlainText] = []
    if block["type"] == "section":
        if "text" in block:
            texts.append(block["text"])
        texts.extend(block.get("fields", []))
    elif block["type"] == "header":
        texts.append(block["text"])
    elif block["type"] == "context":
        texts.extend(block["elements"])
    return sum(text_size(text["text"]) for text in texts)


def message_fits(blocks: Sequence[Block], budget: int = TEXT_BUDGET - FALLBACK_TEXT) -> bool:
    """Within Slack's block count, our text budget and each rich text block's bound."""
    return len(blocks) <= MAX_BLOCKS and sum(block_text_size(b) for b in blocks) <= budget and all(
        _rich_size(b) <= RICH_TEXT for b in blocks if b["type"] == "rich_text"
    )


# ------------------------------------------------------------------------------------------ item lines


def _title(item: DigestItem, t: dict[str, Any], limit: int = TITLE_TEXT) -> str:
    return slack_text(item.title, limit) or t["no_title"]


def _item_line(item: DigestItem, repo: str, t: dict[str, Any], badge: str = "") -> RichTextSection:
    """``#123`` linked to the item, its title exactly as on GitHub, and a short badge."""
    badge = slack_text(badge, DETAIL_TEXT)
    return _line(
        _link(item_url(repo, item), f"#{item.number}"),
        _text(" "),
        _text(_title(item, t)),
        _text(f" — {badge}" if badge else "", italic=bool(t["em"])),
    )


def _entry_line(entry: layout.Entry, repo: str, t: dict[str, Any]) -> RichTextSection:
    """An entry of the post: its line; under it its facts (an error line as code) and the LLM's analysis in one
    line when there is one."""
    line = _item_line(entry.item, repo, t, layout.badge(entry, t))
    details = layout.entry_details(entry, t, analysis=False)[:1]  # the facts line (or the body's sentence)
    for segments in details:
        line["elements"].append(_text("\n"))
        for text, code in segments:
            piece = slack_text(text, FACT_TEXT) if code else layout.spaced(text, lambda s: slack_text(s, FACT_TEXT))
            line["elements"].append(_text(piece, code=code))
    analysis = slack_text(layout.analysis_line(entry, t), DETAIL_TEXT)
    if analysis:
        line["elements"].append(_text(f"\n🤖 {analysis}"))
    return line


def _refs_line(part: layout.Part, repo: str, t: dict[str, Any]) -> RichTextSection | None:
    """"also here: #5 (AMD / ROCm) · #9 (Hot discussions)": candidates whose entry is elsewhere in the post."""
    if not part.refs:
        return None
    elements: list[Inline] = [_text(t["also"], italic=bool(t["em"])), _text(t["gap"])]
    head, _, tail = t["ref"].partition("{link}")
    for k, (item, home) in enumerate(part.refs):
        if k:
            elements.append(_text(" · "))
        elements += [_text(head.format(home="")), _link(item_url(repo, item), f"#{item.number}"),
                     _text(tail.format(home=slack_text(sections.section_title(home, t), 100)))]
    return _line(*elements)


def _heading(text: str) -> RichTextSection:
    return _line(_text(text, bold=True))


def _more(count: int, t: dict[str, Any], url: str | None = None) -> RichTextSection:
    """"…and N more", linked to the report page's section when there is one."""
    text = t["and_more"].format(n=count)
    return _line(_link(url, text)) if url else _line(_text(text, italic=True))


def _part_name(kind: SectionKind, section: Section, t: dict[str, Any]) -> str:
    return f"{sections.icon(kind)} {slack_text(sections.section_title(section, t), 100)}"


def _section_url(digest: Digest, part: layout.Part) -> str | None:
    """The report page's section of ``part`` (its anchor), when the digest links to a report page."""
    report = layout.report_link(digest.report_url)
    return f"{report}#{part.anchor}" if report else None


# ----------------------------------------------------------------------------------------------- packing


class _Pack:
    """Blocks into as few messages as the limits allow, in order; a list that does not fit one block or message
    continues in the next under a "(continued)" heading, so a reader of any reply knows what they look at."""

    def __init__(self, budget: int = TEXT_BUDGET - FALLBACK_TEXT) -> None:
        self.budget = budget
        self.messages: list[list[Block]] = []
        self._chars = 0

    def _room(self, chars: int) -> bool:
        """Room for one more block of ``chars`` in the current message (a message yet to start has it)."""
        if not self.messages:
            return chars <= self.budget
        return len(self.messages[-1]) < MAX_BLOCKS and self._chars + chars <= self.budget

    def new_message(self) -> None:
        self.messages.append([])
        self._chars = 0

    def add(self, block: Block) -> None:
        size = block_text_size(block)
        if not self.messages or not self._room(size):
            self.new_message()
        self.messages[-1].append(block)
        self._chars += size

    def add_list(self, heading: str, continued: str, lines: list[RichTextSection],
                 trailer: RichTextSection | None = None) -> None:
        """A heading and its bullet lines, in as many blocks as they need; lines are never split."""
        head, pending = _heading(heading), list[RichTextSection]()
        lines = [*lines, trailer] if trailer is not None else lines
        for line in lines:
            size = _rich_size(_rich(head, _bullets([*pending, line])))
            if pending and (size > RICH_TEXT or not self._room(size)):
                self.add(_rich(head, _bullets(pending)))
                head, pending = _heading(continued), []
            pending.append(line)
        self.add(_rich(head, _bullets(pending)))


def _payload(text: str, blocks: list[Block]) -> SlackMessage:
    return {"text": text, "blocks": blocks, "unfurl_links": False, "unfurl_media": False}


# ---------------------------------------------------------------------------------------- channel message


def _summary_block(digest: Digest, t: dict[str, Any]) -> RichTextBlock | None:
    narrative = digest.narrative
    text = slack_text(narrative.summary, SUMMARY_TEXT) if narrative else ""
    if not narrative or not text:
        return None
    llm = narrative.summary_source == "llm"
    return _rich(_line(_text("🤖 " if llm else "📝 "), _text(text), _text(f" ({t['ai']})" if llm else "", italic=True)))


def _channel_blocks(digest: Digest, chat: ChatLayout, t: dict[str, Any], tz: str) -> list[Block]:
    parts = layout.macros(PARTS)
    stats = digest.stats.as_dict()
    blocks: list[Block] = [
        _header(parts.title(digest.repo, t)),
        _context(parts.window(digest.window, tz, t), parts.activity(digest.daily_activity, t)),
        _fields([parts.stat(key, stats[key], t) for key in STAT_KEYS]),
    ]
    summary = _summary_block(digest, t)
    if summary is not None:
        blocks.append(summary)
    report = layout.report_link(digest.report_url)
    if report is not None:
        blocks.append(_rich(_line(_text("📄 "), _link(report, t["report"]["full_report"]))))
    blocks.append(_divider())
    shown = chat.channel_parts()
    for placed in shown:
        part = placed.part
        lines = [_entry_line(entry, digest.repo, t) for entry in placed.channel]
        refs = _refs_line(part, digest.repo, t)
        if refs is not None:
            lines.append(refs)
        count = len(placed.channel) + len(part.refs)
        url = _section_url(digest, part)
        if count < part.total and not placed.thread and url:  # a topic's thread reply says what is left
            lines.append(_more(part.total - count, t, url))
        heading = layout.count_header(_part_name(part.kind, part.section, t), count, part.total, t)
        blocks.append(_rich(_heading(heading), _bullets(lines)))
    if not shown:
        blocks.append(_section(parts.no_highlights(t)))
    if chat.quiet:  # rich text: a topic's name is shown exactly, never read as markup
        names = t["list_sep"].join(slack_text(sections.section_title(s, t), 100) for s in chat.quiet)
        blocks.append(_rich(_line(_text("🔕 " + t["quiet_topics"].format(name=names), italic=True))))
    blocks.append(_context(parts.thread_hint(t)))  # the appendix always follows, even on a quiet day
    return blocks


# ------------------------------------------------------------------------------------------------ thread


def _topics_reply(digest: Digest, places: list[layout.ChatPart], t: dict[str, Any]) -> list[list[Block]]:
    pack = _Pack()
    for place in places:
        part = place.part
        lines = [_entry_line(entry, digest.repo, t) for entry in place.thread]
        name = _part_name("topic", part.section, t)
        unshown = part.total - len(place.channel) - len(place.thread) - len(part.refs)
        more = _more(unshown, t, _section_url(digest, part)) if unshown > 0 else None
        heading = name + (t["continued_suffix"] if place.channel else "")
        pack.add_list(heading, name + t["continued_suffix"], lines, more)
    return pack.messages


def _topics_messages(digest: Digest, chat: ChatLayout, t: dict[str, Any], limit: int) -> list[list[Block]]:
    """The followed topics' next entries, in one reply: as many per topic as one message holds."""
    if not chat.thread_topics():
        return []
    count = layout.largest_fitting(
        max(limit, 0), lambda k: len(_topics_reply(digest, layout.with_thread_limit(chat, k), t)) <= 1
    )
    return _topics_reply(digest, layout.with_thread_limit(chat, count), t)


def _theme_line(digest: Digest, theme: Theme, items: dict[int, DigestItem], t: dict[str, Any]) -> RichTextSection:
    """One theme as a sentence with its items linked (``layout.theme_sentence`` in rich text elements)."""
    marker = "\x00"
    sentence = layout.theme_sentence(theme, t, marker + "N" + marker, marker + "L" + marker)
    elements: list[Inline] = []
    for piece in sentence.split(marker):
        if piece == "N":
            elements.append(_text(slack_text(layout.theme_name(theme, t), 120), bold=True))
        elif piece == "L":
            for k, number in enumerate(n for n in theme.items if n in items):
                if k:
                    elements.append(_text(t["list_sep"]))
                elements.append(_link(item_url(digest.repo, items[number]), f"#{number}"))
        elif piece:
            elements.append(_text(piece))
    return _line(*elements)


def _trends_messages(digest: Digest, chat: ChatLayout, t: dict[str, Any]) -> list[list[Block]]:
    """The themes (each a sentence with its items linked), the day's activity and the other topics' index."""
    narrative = digest.narrative
    view = chat.page
    if narrative is None and not view.index:
        return []
    pack = _Pack()
    if view.themes:
        lines = [_theme_line(digest, theme, view.items, t) for theme in view.themes]
        title = f"{sections.icon('trends')} {t['themes']['title']}"
        pack.add_list(title, f"{title} {t['continued']}", lines)
    if narrative is not None:
        pack.add(_section(layout.macros(PARTS).people(narrative.activity, t)))
    if view.index:
        entries = " · ".join(f"{slack_text(e.title, 80)} {e.count}" for e in view.index)
        hint = [_text(piece, code=k % 2 == 1, italic=k % 2 == 0 and bool(t["em"]))
                for k, piece in enumerate(t["index_hint"].split("`"))]
        pack.add(_rich(_line(_text(f"{t['index']}{t['colon']}", bold=True), _text(entries)), _line(*hint)))
    return pack.messages


def _count_lines(digest: Digest, t: dict[str, Any]) -> list[RichTextSection]:
    stats = digest.stats.as_dict()
    return [
        _line(_link(layout.search_url(digest, key), t["count"].format(name=t["stats"][key], n=stats[key])))
        for key in STAT_KEYS
    ]


def _appendix_messages(digest: Digest, t: dict[str, Any], tz: str, thread: ThreadMode) -> list[list[Block]]:
    """The counts, each linked to the GitHub search that lists it; with ``full``, every item too."""
    pack = _Pack()
    icon = sections.icon("appendix")
    pack.add_list(f"{icon} {t['appendix']} · {t['appendix_links']}", f"{icon} {t['appendix']} {t['continued']}",
                  _count_lines(digest, t))
    if thread == "full":
        for key, items in layout.appendix_groups(digest):
            name = slack_text(t["stats"].get(key, key), 100)
            lines = [_appendix_line(item, digest.repo, tz, t) for item in items] or [
                _line(_text(t["nothing"], italic=True))
            ]
            heading = t["counted"].format(name=f"{icon} {t['full_appendix']} · {name}", n=len(items))
            pack.add_list(heading, f"{heading} {t['continued']}", lines)
    return pack.messages


def _appendix_line(item: DigestItem, repo: str, tz: str, t: dict[str, Any]) -> RichTextSection:
    details = [f"@{slack_text(item.author, 40)}" if slack_text(item.author) else ""]
    details.append(", ".join(slack_text(label, 30) for label in item.labels[:3]))
    details.append(layout.localtime(item.event_time, tz, "%m-%d %H:%M"))
    meta = " · ".join(detail for detail in details if detail)
    return _line(_link(item_url(repo, item), f"#{item.number}"), _text(" "), _text(_title(item, t)),
                 _text(f" · {meta}" if meta else ""))


def render_slack_digest(
    digest: Digest, *, locale: str | None = None, timezone: str | None = None, section_limit: int = 10,
    thread: ThreadMode | None = None,
) -> list[SlackMessage]:
    """The channel message, then the replies for its thread (empty ones are not sent). ``section_limit``: a
    followed topic's items in the thread; ``thread``: overrides the digest's (the channel's) setting."""
    t = strings(locale or digest.locale)
    tz = timezone or digest.window.timezone
    parts = layout.macros(PARTS)
    chat = layout.fit_layout(digest, lambda c: message_fits(_channel_blocks(digest, c, t, tz)))
    replies = [
        *_topics_messages(digest, chat, t, section_limit),
        *_trends_messages(digest, chat, t),
        *_appendix_messages(digest, t, tz, thread or digest.thread),
    ]
    stats = digest.stats.as_dict()
    payloads = [_payload(parts.fallback(digest.repo, stats, STAT_KEYS, t), _channel_blocks(digest, chat, t, tz))]
    for number, blocks in enumerate(replies, start=1):
        payloads.append(_payload(parts.part(digest.repo, number, len(replies), t), blocks))
    return payloads


# -------------------------------------------------------------------------------------------------- query


def _query_line(item: DigestItem, repo: str, t: dict[str, Any]) -> RichTextSection:
    state = t["state"].get(item.state) or slack_text(item.state, 20)
    kind = t["kind"].get(item.kind) or slack_text(item.kind, 20)
    byline = [f"{state} {kind}".strip()]
    if slack_text(item.author):
        byline.append(f"{t['by_prefix']}@{slack_text(item.author, 60)}")
    if item.labels:
        labels = ", ".join(slack_text(label, 50) for label in item.labels[:6])
        byline.append(f"🏷️ {labels}" + (f" +{len(item.labels) - 6}" if len(item.labels) > 6 else ""))
    details = [slack_text(item.summary, DETAIL_TEXT // 2), slack_text(item_reason(item, t["locale"]), DETAIL_TEXT // 2)]
    detail = " · ".join(text for text in details if text)
    return _line(
        _link(item_url(repo, item), f"#{item.number}"),
        _text(" "),
        _text(_title(item, t, 300), bold=True),
        _text(" — " + " · ".join(byline), italic=True),
        _text(f"\n↳ {detail}" if detail else ""),
    )


def _query_blocks(result: QueryResult, shown: int, t: dict[str, Any], tz: str) -> list[list[Block]]:
    parts = layout.macros(PARTS)
    pack = _Pack()
    pack.new_message()
    pack.add(_header(parts.query_title(result, t)))
    pack.add(_context(parts.query_context(result, shown, tz, t)))
    if result.topic_title:
        topic = slack_text(result.topic_title, 100)
        pack.add(_rich(_line(_text(f"{t['query_topic']}{t['colon']}", bold=True), _text(topic))))
    report = layout.report_link(result.report_url)
    if report is not None:
        pack.add(_rich(_line(_text("📄 "), _link(report, t["report"]["search_page"]))))
    notes = answer_notes(result.notes, locale=t["locale"], platform="slack")
    if notes:  # rich text: the notes' values (a word, a date) are shown exactly, never read as markup
        pack.add(_rich(*(_line(_text("ℹ️ " + slack_text(note, DETAIL_TEXT), italic=True)) for note in notes)))
    if not result.items:
        text = t["query_none"].format(
            query=slack_text(result.query, 200), repo=slack_text(result.repo, 100),
            start=layout.localtime(result.window.start, tz), end=layout.localtime(result.window.end, tz),
            tz=slack_text(tz, 60),
        )
        pack.add(_rich(_line(_text(text))))
        if result.suggestions:
            tried = " · ".join(slack_text(layout.suggestion(s, t), 100) for s in result.suggestions[:10])
            pack.add(_rich(_line(_text(t["query_try"] + t["colon"], bold=True), _text(tried))))
        return pack.messages
    groups, hidden = layout.shown_groups(result.items, shown)
    for group, items, visible in groups:
        lines = [_query_line(item, result.repo, t) for item in visible]
        heading = t["counted"].format(name=slack_text(t["groups"].get(group, group), 100), n=len(items))
        more = _more(len(items) - len(visible), t) if len(items) > len(visible) else None
        pack.add_list(heading, f"{heading} {t['continued']}", lines, more)
    rest = layout.hidden_groups_line(hidden, t)
    if rest:
        pack.add(_rich(_line(_text(slack_text(rest, DETAIL_TEXT), italic=True))))
    return pack.messages


def render_slack_query(
    result: QueryResult, *, limit: int = 10, locale: str | None = None, timezone: str | None = None
) -> list[SlackMessage]:
    """One compact message: the answer's notes, the best ``limit`` items (fewer if one message cannot hold them),
    by group, with "…and M more" per group (groups with nothing shown in one line after them); or a plain
    "nothing matched" with the window and suggestions."""
    t = strings(locale or result.locale)
    tz = timezone or result.window.timezone
    count = layout.largest_fitting(
        min(max(limit, 0), len(result.items)), lambda k: len(_query_blocks(result, k, t, tz)) == 1
    )
    blocks = _query_blocks(result, count, t, tz)[0]
    return [_payload(layout.macros(PARTS).query_fallback(result, t), blocks)]
