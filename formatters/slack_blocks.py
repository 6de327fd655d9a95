"""The digest and query answers as Slack ``chat.postMessage`` payloads (Block Kit).

Layout: the first payload is the headline (repo, window, the five counts, a 7-day sparkline and the top
three of hot / key changes / notable); every other payload is a reply for the headline's thread: each
non-empty section (header block, one section block per item, "…and M more") and then the compact appendix
(every item, lines packed into section blocks). The adapter adds ``channel``/``thread_ts``.

Limits: at most 50 blocks and ``TEXT_BUDGET`` characters of text (fallback included) per message, section
text at most 3000, header 150, fields 10 x 2000. Overflow continues in the next message at an item or line
boundary, under a repeated "(continued)" heading; nothing is cut inside an item, link or escape.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, NotRequired, TypedDict

from bot.model import STAT_KEYS, Digest, QueryResult, Section
from formatters import layout, sections
from formatters.locale import strings
from formatters.safety import text_size, truncate

MAX_BLOCKS = 50
SECTION_TEXT = 3000
HEADER_TEXT = 150
FIELD_TEXT = 2000
TEXT_BUDGET = 8000  # all text of one message, fallback included: far below where Slack refuses or truncates
FALLBACK_TEXT = 300
HIGHLIGHT_TEXT = 2000  # per highlighted section in the headline: three of them always fit one message
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


Block = SectionBlock | HeaderBlock | ContextBlock | DividerBlock


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
    return {"type": "section", "text": _mrkdwn(text)}


def _fields(texts: list[str]) -> SectionBlock:
    return {"type": "section", "fields": [_mrkdwn(truncate(text, FIELD_TEXT)) for text in texts[:10]]}


def _header(text: str) -> HeaderBlock:
    return {"type": "header", "text": {"type": "plain_text", "text": truncate(text, HEADER_TEXT), "emoji": True}}


def _context(*texts: str) -> ContextBlock:
    return {"type": "context", "elements": [_mrkdwn(text) for text in texts if text][:10]}


def _divider() -> DividerBlock:
    return {"type": "divider"}


def block_text_size(block: Block) -> int:
    """Characters of text a block carries (what the per-message budget counts)."""
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


# ----------------------------------------------------------------------------------------------- packing


class _Thread:
    """Packs blocks and text lines into as few messages as the limits allow, in order.

    ``repeat`` (blocks) or ``repeat_line`` (a text line) re-introduce the current section when it has to
    continue in a new message, so a reader of any single reply knows what they are looking at.
    """

    def __init__(self, budget: int = TEXT_BUDGET - FALLBACK_TEXT) -> None:
        self.budget = budget
        self.messages: list[list[Block]] = []
        self.repeat: Callable[[], list[Block]] | None = None
        self.repeat_line: str | None = None
        self._chars = 0
        self._open: MrkdwnText | None = None  # the text of the section block lines are appended to

    def _room(self, blocks: int, chars: int) -> bool:
        return bool(self.messages) and len(self.messages[-1]) + blocks <= MAX_BLOCKS and (
            self._chars + chars <= self.budget
        )

    def _new_message(self) -> None:
        self.messages.append([])
        self._chars, self._open = 0, None

    def _put(self, blocks: list[Block]) -> None:
        self.messages[-1].extend(blocks)
        self._chars += sum(block_text_size(block) for block in blocks)
        self._open = None

    def add(self, blocks: list[Block], *, open_text: bool = False) -> None:
        """Blocks that stay together; ``open_text``: later lines may be appended to the last one."""
        if not self._room(len(blocks), sum(block_text_size(block) for block in blocks)):
            self._new_message()
            if self.repeat is not None:
                self._put(self.repeat())
        self._put(blocks)
        last = blocks[-1]
        if open_text and last["type"] == "section" and "text" in last:
            self._open = last["text"]

    def add_line(self, line: str, *, gap: bool = False) -> None:
        """A line of text: appended to the open section block, else in a new block, else a new message."""
        if self._open is not None:
            joined = self._open["text"] + ("\n\n" if gap else "\n") + line
            grow = text_size(joined) - text_size(self._open["text"])
            if text_size(joined) <= SECTION_TEXT and self._chars + grow <= self.budget:
                self._open["text"] = joined
                self._chars += grow
                return
        if self._room(1, text_size(line)):
            self.add([_section(line)], open_text=True)
            return
        self._new_message()
        self.add([_section(f"{self.repeat_line}\n{line}" if self.repeat_line else line)], open_text=True)


def _payload(text: str, blocks: list[Block]) -> SlackMessage:
    return {"text": text, "blocks": blocks, "unfurl_links": False, "unfurl_media": False}


# ------------------------------------------------------------------------------------------------- digest


def _headline(digest: Digest, t: dict[str, Any], tz: str) -> list[Block]:
    parts = layout.macros(PARTS)
    stats = digest.stats.as_dict()
    blocks: list[Block] = [
        _header(parts.title(digest.repo, t)),
        _context(parts.window(digest.window, tz, t), parts.activity(digest.daily_activity, t)),
    ]
    narrative = digest.narrative
    summary = parts.summary(narrative, t) if narrative else ""
    if summary:
        blocks.append(_section(summary))
    blocks.append(_fields([parts.stat(key, stats[key], t) for key in STAT_KEYS]))
    if narrative:
        blocks.append(_context(parts.trends_line(narrative.trends, t), parts.people(narrative.activity, t)))
    blocks.append(_divider())
    highlighted = sections.highlights(digest)
    for section in highlighted:
        name = sections.section_title(section, t)
        lines = [parts.highlight(item, digest.repo, t) for item in section.items[: layout.HIGHLIGHT_COUNT]]
        heading = parts.highlight_heading(section.kind, name, len(section.items))
        body = layout.take_lines(
            lines, HIGHLIGHT_TEXT - text_size(heading) - 1, lambda n: parts.more(n, t),
            hidden=len(section.items) - len(lines),
        )
        blocks.append(_section(f"{heading}\n{body}"))
    if not highlighted:
        blocks.append(_section(parts.no_highlights(t)))
    blocks.append(_context(parts.in_thread(t)))  # the appendix always follows, even on a quiet day
    return blocks


def _add_section(thread: _Thread, section: Section, repo: str, t: dict[str, Any], limit: int) -> None:
    parts = layout.macros(PARTS)
    name, count = sections.section_title(section, t), len(section.items)
    shown = section.items[: max(limit, 0)]
    thread.repeat = None
    first: list[Block] = [_header(parts.section_heading(section.kind, name, count, t))]
    if shown:
        first.append(_section(parts.item(shown[0], repo, t)))
    thread.add(first)  # a heading never ends a message alone
    thread.repeat = lambda: [_header(parts.section_heading(section.kind, name, count, t, True))]
    for item in shown[1:]:
        thread.add([_section(parts.item(item, repo, t))])
    if count > len(shown):
        thread.add([_context(parts.more(count - len(shown), t))])


def _add_trends(thread: _Thread, digest: Digest, t: dict[str, Any]) -> None:
    parts = layout.macros(PARTS)
    trends = digest.narrative.trends if digest.narrative else ()
    shown = trends[: layout.THREAD_TRENDS]
    thread.repeat = None
    thread.repeat_line = parts.trends_heading(len(trends), t, True)
    entries = [parts.trend_entry(trend, layout.trend_items(digest, trend), digest.repo, t) for trend in shown]
    thread.add([_header(parts.trends_heading(len(trends), t)), _section(entries[0])], open_text=True)
    for entry in entries[1:]:
        thread.add_line(entry)
    if len(trends) > len(shown):
        thread.add_line(parts.more(len(trends) - len(shown), t))
    thread.repeat_line = None


def _add_appendix(thread: _Thread, digest: Digest, t: dict[str, Any], tz: str) -> None:
    """Every item of every stat list, compact, one line each; only the lines are ever split."""
    parts = layout.macros(PARTS)
    thread.repeat = None
    first = True
    for key, items in layout.appendix_groups(digest):
        name = t["stats"].get(key, key)
        lines = [parts.appendix_line(item, digest.repo, tz, t) for item in items] or [parts.nothing(t)]
        opening = f"{parts.group_heading(name, len(items), t)}\n{lines[0]}"
        thread.repeat_line = None
        if first:
            thread.add([_header(parts.appendix_title(t)), _section(opening)], open_text=True)
            first = False
        else:
            thread.add_line(opening, gap=True)
        thread.repeat_line = parts.appendix_continued(name, len(items), t)
        for line in lines[1:]:
            thread.add_line(line)
    thread.repeat_line = None


def render_slack_digest(
    digest: Digest, *, locale: str | None = None, timezone: str | None = None, section_limit: int = 10
) -> list[SlackMessage]:
    """The headline payload, then the payloads to post as replies in its thread."""
    t = strings(locale or digest.locale)
    tz = timezone or digest.window.timezone
    parts = layout.macros(PARTS)
    thread = _Thread()
    if digest.narrative and digest.narrative.trends:
        _add_trends(thread, digest, t)
    for section in layout.reply_sections(digest):
        _add_section(thread, section, digest.repo, t, section_limit)
    _add_appendix(thread, digest, t, tz)
    stats = digest.stats.as_dict()
    payloads = [_payload(parts.fallback(digest.repo, stats, STAT_KEYS, t), _headline(digest, t, tz))]
    total = len(thread.messages)
    for number, blocks in enumerate(thread.messages, start=1):
        payloads.append(_payload(parts.part(digest.repo, number, total, t), blocks))
    return payloads


# -------------------------------------------------------------------------------------------------- query


def _query_blocks(result: QueryResult, shown: int, t: dict[str, Any], tz: str) -> list[list[Block]]:
    parts = layout.macros(PARTS)
    thread = _Thread()
    thread.add([_header(parts.query_title(result, t)), _context(parts.query_context(result, shown, tz, t))])
    if not result.items:
        thread.add([_section(parts.query_none(result, tz, t))])
        if result.suggestions:
            thread.add([_section(parts.query_try(result, t))])
        return thread.messages
    top = {id(item) for item in result.items[:shown]}
    first = True
    for group, items in layout.group_results(result.items):
        visible = [item for item in items if id(item) in top]
        lines = [parts.query_item(item, result.repo, t) for item in visible]
        if len(items) > len(visible):
            lines.append(parts.more(len(items) - len(visible), t))
        heading = parts.group_heading(t["groups"].get(group, group), len(items), t)
        if first:
            thread.add([_section(f"{heading}\n{lines[0]}")], open_text=True)
            first = False
        else:
            thread.add_line(f"{heading}\n{lines[0]}", gap=True)
        for line in lines[1:]:
            thread.add_line(line)
    return thread.messages


def render_slack_query(
    result: QueryResult, *, limit: int = 10, locale: str | None = None, timezone: str | None = None
) -> list[SlackMessage]:
    """One compact message: the best ``limit`` items (fewer if one message cannot hold them), by group, with
    "…and M more" per group; or a plain "nothing matched" with the window and suggestions."""
    t = strings(locale or result.locale)
    tz = timezone or result.window.timezone
    count = layout.largest_fitting(
        min(max(limit, 0), len(result.items)), lambda k: len(_query_blocks(result, k, t, tz)) == 1
    )
    blocks = _query_blocks(result, count, t, tz)[0]
    return [_payload(layout.macros(PARTS).query_fallback(result, t), blocks)]
