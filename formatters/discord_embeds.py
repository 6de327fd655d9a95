"""The digest and query answers as Discord messages: ``{"content", "embeds", "allowed_mentions"}`` dicts.

Layout: the first message is the headline (one embed: window, sparkline, the five counts as inline fields,
the top three of hot / key changes / notable as fields); the others are thread follow-ups: one embed per
non-empty section (items in the description, "…and M more" at the end), then the appendix (one embed per
stat list, every item, one line each). Every message carries ``allowed_mentions: {"parse": []}``.

Limits: per message at most 10 embeds and 6000 characters over all embeds, description 4096, title 256,
25 fields (name 256, value 1024), footer 2048, content 2000. Sizes are counted in UTF-16 units (never less
than Discord counts). Overflow continues in a new embed titled "… (continued)", in the same message while it
fits, else in the next message; entries (items, lines) are never split.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from bot.model import STAT_KEYS, Digest, QueryResult, Section
from formatters import layout, sections
from formatters.locale import strings
from formatters.safety import text_size, truncate

MAX_EMBEDS = 10
MESSAGE_EMBED_TEXT = 6000
CONTENT = 2000
TITLE = 256
DESCRIPTION = 4096
MAX_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
PARTS = "discord/parts.j2"


# ------------------------------------------------------------------------------------------ payload types


class EmbedField(TypedDict):
    name: str
    value: str
    inline: bool


class EmbedFooter(TypedDict):
    text: str


class Embed(TypedDict):
    """The embeds we build (``discord.Embed.from_dict`` input): no author, image or timestamp."""

    title: str
    description: NotRequired[str]
    color: int
    fields: NotRequired[list[EmbedField]]
    footer: NotRequired[EmbedFooter]


class AllowedMentions(TypedDict):
    parse: list[str]  # always empty: nobody is notified


class DiscordMessage(TypedDict):
    """``Messageable.send`` / webhook message fields."""

    content: str
    embeds: list[Embed]
    allowed_mentions: AllowedMentions



def embed_size(embed: Embed) -> int:
    """What Discord counts toward the 6000 per message (``len(discord.Embed)``), in UTF-16 units."""
    texts = [embed["title"], embed.get("description", "")]
    if "footer" in embed:
        texts.append(embed["footer"]["text"])
    for field in embed.get("fields", []):
        texts += [field["name"], field["value"]]
    return sum(text_size(text) for text in texts)


def _message(embeds: list[Embed], content: str = "") -> DiscordMessage:
    # allowed_mentions: even if a mention slipped through the escaping, nobody is notified
    return {"content": truncate(content, CONTENT), "embeds": embeds, "allowed_mentions": {"parse": []}}


class _Thread:
    """Packs entries (items, lines) into embed descriptions and embeds into messages, in order."""

    def __init__(self) -> None:
        self.messages: list[list[Embed]] = []
        self._embed: Embed | None = None
        self._title, self._continued, self._color, self._sep = "", "", 0, "\n"
        self._started = False  # the current section already has an embed (later ones say "continued")
        self._message_size = 0  # running totals, so packing stays linear in the output
        self._description_size = 0

    def start(self, title: str, continued: str, color: int, sep: str = "\n") -> None:
        self._title, self._continued = truncate(title, TITLE), truncate(continued, TITLE)
        self._color, self._sep = color, sep
        self._embed, self._started = None, False

    def add(self, entry: str) -> None:
        size = text_size(entry)
        if self._embed is not None:
            grow = text_size(self._sep) + size
            fits_embed = self._description_size + grow <= DESCRIPTION
            if fits_embed and self._message_size + grow <= MESSAGE_EMBED_TEXT:
                self._embed["description"] += self._sep + entry
                self._description_size += grow
                self._message_size += grow
                return
        embed: Embed = {
            "title": self._continued if self._started else self._title, "description": entry, "color": self._color,
        }
        needed = text_size(embed["title"]) + size
        if not self.messages or len(self.messages[-1]) >= MAX_EMBEDS or self._message_size + needed > (
            MESSAGE_EMBED_TEXT
        ):
            self.messages.append([])
            self._message_size = 0
        self.messages[-1].append(embed)
        self._message_size += needed
        self._embed, self._started, self._description_size = embed, True, size


# ------------------------------------------------------------------------------------------------- digest


def _field(name: str, value: str, inline: bool = False) -> EmbedField:
    return {"name": truncate(name, FIELD_NAME), "value": value, "inline": inline}


def _headline(digest: Digest, t: dict[str, Any], tz: str) -> DiscordMessage:
    parts = layout.macros(PARTS)
    stats = digest.stats.as_dict()
    narrative = digest.narrative
    lines = [parts.window(digest.window, tz, t), parts.activity(digest.daily_activity, t)]
    if narrative:
        lines += [parts.trends_line(narrative.trends, t), parts.people(narrative.activity, t)]
        lines.insert(0, parts.summary(narrative, t) + "\n")
    description = "\n".join(text for text in lines if text.strip())
    fields = [_field(t["stats"][key], str(stats[key]), inline=True) for key in STAT_KEYS]
    highlighted = sections.highlights(digest)
    for section in highlighted:
        lines = [parts.highlight(item, digest.repo, t) for item in section.items[: layout.HIGHLIGHT_COUNT]]
        value = layout.take_lines(
            lines, FIELD_VALUE, lambda n: parts.more(n, t), hidden=len(section.items) - len(lines)
        )
        name = parts.section_title(section.kind, sections.section_title(section, t), len(section.items), t)
        fields.append(_field(name, value))
    if not highlighted:
        fields.append(_field(t["highlights"], parts.no_highlights(t)))
    embed: Embed = {
        "title": truncate(parts.title(digest.repo, t), TITLE),
        "description": description,
        "color": sections.color("headline"),
        "fields": fields,
        "footer": {"text": parts.in_thread(t)},  # the appendix always follows, even on a quiet day
    }
    return _message([embed], parts.content(digest.repo, digest.window, tz, t))


def _add_section(thread: _Thread, section: Section, repo: str, t: dict[str, Any], limit: int) -> None:
    parts = layout.macros(PARTS)
    name, count = sections.section_title(section, t), len(section.items)
    thread.start(
        parts.section_title(section.kind, name, count, t),
        parts.section_title(section.kind, name, count, t, True),
        sections.color(section.kind),
        sep="\n\n",
    )
    shown = section.items[: max(limit, 0)]
    for item in shown:
        thread.add(parts.item(item, repo, t))
    if count > len(shown):
        thread.add(parts.more(count - len(shown), t))


def _add_trends(thread: _Thread, digest: Digest, t: dict[str, Any]) -> None:
    parts = layout.macros(PARTS)
    trends = digest.narrative.trends if digest.narrative else ()
    shown = trends[: layout.THREAD_TRENDS]
    thread.start(
        parts.trends_heading(len(trends), t), parts.trends_heading(len(trends), t, True), sections.color("trends")
    )
    for trend in shown:
        thread.add(parts.trend_entry(trend, layout.trend_items(digest, trend), digest.repo, t))
    if len(trends) > len(shown):
        thread.add(parts.more(len(trends) - len(shown), t))


def _add_appendix(thread: _Thread, digest: Digest, t: dict[str, Any], tz: str) -> None:
    """One embed per stat list (continued as needed), every item on one line: nothing is left out."""
    parts = layout.macros(PARTS)
    for key, items in layout.appendix_groups(digest):
        name = t["stats"].get(key, key)
        thread.start(
            parts.appendix_title(name, len(items), t),
            parts.appendix_title(name, len(items), t, True),
            sections.color("appendix"),
        )
        for line in [parts.appendix_line(item, digest.repo, tz, t) for item in items] or [parts.nothing(t)]:
            thread.add(line)


def render_discord_digest(
    digest: Digest, *, locale: str | None = None, timezone: str | None = None, section_limit: int = 10
) -> list[DiscordMessage]:
    """The headline message, then the messages to post as follow-ups in its thread."""
    t = strings(locale or digest.locale)
    tz = timezone or digest.window.timezone
    thread = _Thread()
    if digest.narrative and digest.narrative.trends:
        _add_trends(thread, digest, t)
    for section in layout.reply_sections(digest):
        _add_section(thread, section, digest.repo, t, section_limit)
    _add_appendix(thread, digest, t, tz)
    return [_headline(digest, t, tz), *(_message(embeds) for embeds in thread.messages)]


# -------------------------------------------------------------------------------------------------- query


def _query_description(result: QueryResult, shown: int, t: dict[str, Any], tz: str) -> str:
    parts = layout.macros(PARTS)
    paragraphs = [parts.query_context(result, shown, tz, t)]
    if not result.items:
        paragraphs.append(parts.query_none(result, tz, t))
        if result.suggestions:
            paragraphs.append(parts.query_try(result, t))
        return "\n\n".join(paragraphs)
    top = {id(item) for item in result.items[:shown]}
    for group, items in layout.group_results(result.items):
        visible = [item for item in items if id(item) in top]
        lines = [parts.group_heading(t["groups"].get(group, group), len(items), t)]
        lines += [parts.query_item(item, result.repo, t) for item in visible]
        if len(items) > len(visible):
            lines.append(parts.more(len(items) - len(visible), t))
        paragraphs.append("\n".join(lines))
    return "\n\n".join(paragraphs)


def render_discord_query(
    result: QueryResult, *, limit: int = 10, locale: str | None = None, timezone: str | None = None
) -> list[DiscordMessage]:
    """One message, one embed: the best ``limit`` items (fewer if one embed cannot hold them), by group,
    with "…and M more" per group; or a plain "nothing matched" with the window and suggestions."""
    t = strings(locale or result.locale)
    tz = timezone or result.window.timezone
    title = truncate(layout.macros(PARTS).query_title(result, t), TITLE)
    room = min(DESCRIPTION, MESSAGE_EMBED_TEXT - text_size(title))
    count = layout.largest_fitting(
        min(max(limit, 0), len(result.items)),
        lambda k: text_size(_query_description(result, k, t, tz)) <= room,
    )
    description = _query_description(result, count, t, tz)
    return [_message([{"title": title, "description": description, "color": sections.color("topic")}])]
