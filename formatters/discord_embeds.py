r"""The digest and query answers as Discord messages: ``{"content", "embeds", "allowed_mentions"}`` dicts.

A digest is a post, as on Slack (docs/editorial.md, "Where a reader sees what"): the first message is the
digest itself, in embeds: the headline (window, summary, the five counts as inline fields), then the top hot
discussions with why each is hot, the followed topics' top items, the top key changes and notable new bugs;
the thread has at most three messages: the followed topics in full, trends and activity, and the appendix (the
counts, each a link to its GitHub search; ``thread = "full"`` adds one embed per stat list with every item).
``formatters.layout.chat_layout`` places each item once in the whole post. Every message carries
``allowed_mentions: {"parse": []}``.

Exact text: Discord renders a backslash before ASCII punctuation as the character itself, so the escaped
``fused\_moe`` reads ``fused_moe`` (``formatters.safety.discord_markdown``).

Limits: per message at most 10 embeds and 6000 characters over all embeds, description 4096, title 256,
25 fields (name 256, value 1024), footer 2048, content 2000. Sizes are counted in UTF-16 units (never less
than Discord counts). When the first message would not fit it shows fewer items, never a cut title; the topics
message shows fewer items with "…and N more"; the full appendix continues in a new embed titled
"… (continued)", in the same message while it fits, else in the next; entries are never split.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from bot.model import STAT_KEYS, Digest, QueryResult, ThreadMode
from formatters import layout, safety, sections
from formatters.layout import ChatLayout
from formatters.locale import strings
from formatters.notices import answer_notes
from formatters.safety import discord_link, discord_markdown, discord_plain, item_url, text_size, truncate

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
    url: NotRequired[str]  # the title's link: the web report (``layout.report_link``)


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


def message_fits(message: DiscordMessage) -> bool:
    embeds = message["embeds"]
    return len(embeds) <= MAX_EMBEDS and sum(embed_size(e) for e in embeds) <= MESSAGE_EMBED_TEXT and all(
        text_size(e.get("description", "")) <= DESCRIPTION for e in embeds
    )


def _entry_line(entry: layout.Entry, repo: str, t: dict[str, Any]) -> str:
    """An entry of the post: linked number, title, badge; under it its facts (an error line as code) and the
    LLM's analysis in one line (🤖)."""
    line = str(layout.macros(PARTS).line(entry.item, repo, layout.badge(entry, t), t))
    for segments in layout.entry_details(entry, t, analysis=False)[:1]:
        facts = "".join(_code(text) if code else layout.spaced(text, lambda s: discord_markdown(s, 200))
                        for text, code in segments)
        line += f"\n   {facts}"
    analysis = discord_markdown(layout.analysis_line(entry, t), 300)
    return f"{line}\n   🤖 {analysis}" if analysis else line


def _code(text: str) -> str:
    """GitHub's text in a code span: shown as it is (no markup, no mention); a backtick cannot end it early."""
    body = truncate(safety.one_line(text).replace("`", "'"), 200)
    return f"`{body}`" if body else ""


def _refs_line(part: layout.Part, repo: str, t: dict[str, Any]) -> str:
    """"also here: #5 (AMD / ROCm)": candidates whose entry is elsewhere in the post ("" when none)."""
    if not part.refs:
        return ""
    refs = [
        t["ref"].format(link=discord_link(item_url(repo, item), f"#{item.number}"),
                        home=discord_markdown(sections.section_title(home, t), 100))
        for item, home in part.refs
    ]
    em = "*" if t["em"] else ""
    return f"{em}{t['also']}{em}{t['gap']}" + " · ".join(refs)


def _section_url(digest: Digest, part: layout.Part) -> str | None:
    report = layout.report_link(digest.report_url)
    return f"{report}#{part.anchor}" if report else None


def _more(count: int, t: dict[str, Any], url: str | None) -> str:
    text = t["and_more"].format(n=count)
    return discord_link(url, text) if url else f"*{text}*"


def _first_message(digest: Digest, chat: ChatLayout, t: dict[str, Any], tz: str) -> DiscordMessage:
    parts = layout.macros(PARTS)
    stats = digest.stats.as_dict()
    narrative = digest.narrative
    report = layout.report_link(digest.report_url)
    quiet = [sections.section_title(s, t) for s in chat.quiet]  # GitHub-like data: escaped by the template
    lines = [parts.summary(narrative, t) + "\n" if narrative else "", parts.window(digest.window, tz, t),
             parts.activity(digest.daily_activity, t), parts.quiet_topics(quiet, t) if quiet else "",
             "📄 " + discord_link(report, t["report"]["full_report"]) if report else ""]
    headline: Embed = {
        "title": truncate(parts.title(digest.repo, t), TITLE),
        "description": "\n".join(text for text in lines if text.strip()),
        "color": sections.color("headline"),
        "fields": [_field(t["stats"][key], str(stats[key]), inline=True) for key in STAT_KEYS],
    }
    if report:
        headline["url"] = report
    embeds = [headline]
    for placed in chat.channel_parts():
        part = placed.part
        lines = [_entry_line(entry, digest.repo, t) for entry in placed.channel]
        refs = _refs_line(part, digest.repo, t)
        if refs:
            lines.append(refs)
        count = len(placed.channel) + len(part.refs)
        url = _section_url(digest, part)
        if count < part.total and not placed.thread and url:
            lines.append(_more(part.total - count, t, url))
        name = f"{sections.icon(part.kind)} {sections.section_title(part.section, t)}"
        embed: Embed = {
            "title": truncate(layout.count_header(discord_plain(name, 150), count, part.total, t), TITLE),
            "description": "\n".join(lines),
            "color": sections.color(part.kind),
        }
        if url:
            embed["url"] = url
        embeds.append(embed)
    if len(embeds) == 1:
        headline["fields"].append(_field(t["highlights"], parts.no_highlights(t)))
    embeds[-1]["footer"] = {"text": parts.thread_hint(t)}  # the appendix always follows, even on a quiet day
    return _message(embeds, parts.content(digest.repo, digest.window, tz, t))


def _topics_thread(digest: Digest, places: list[layout.ChatPart], t: dict[str, Any]) -> list[list[Embed]]:
    """One embed ("Followed topics", continued as needed) whose entries are each topic's heading and lines."""
    parts = layout.macros(PARTS)
    thread = _Thread()
    title = f"{sections.icon('topic')} {t['followed']}"
    thread.start(title, f"{title} {t['continued']}", sections.color("topic"))
    for place in places:
        part = place.part
        name = sections.section_title(part.section, t)
        lines = [_entry_line(entry, digest.repo, t) for entry in place.thread]
        unshown = part.total - len(place.channel) - len(place.thread) - len(part.refs)
        if unshown > 0:
            lines.append(_more(unshown, t, _section_url(digest, part)))
        heading = parts.topic_heading(name, part.total, t, bool(place.channel))
        thread.add(f"{heading}\n{lines[0]}" if lines else heading)  # a heading never ends an embed alone
        for line in lines[1:]:
            thread.add(line)
    return thread.messages


def _topics_messages(digest: Digest, chat: ChatLayout, t: dict[str, Any], limit: int) -> list[list[Embed]]:
    """The followed topics' next entries, in one message: as many per topic as it holds."""
    if not chat.thread_topics():
        return []
    count = layout.largest_fitting(
        max(limit, 0), lambda k: len(_topics_thread(digest, layout.with_thread_limit(chat, k), t)) <= 1
    )
    return _topics_thread(digest, layout.with_thread_limit(chat, count), t)


def _trends_messages(digest: Digest, chat: ChatLayout, t: dict[str, Any]) -> list[list[Embed]]:
    """The themes (a sentence each, items linked), the day's activity and the other topics' index."""
    parts = layout.macros(PARTS)
    narrative = digest.narrative
    view = chat.page
    if narrative is None and not view.index:
        return []
    thread = _Thread()
    title = f"{sections.icon('trends')} {t['themes']['title']}"
    thread.start(title, f"{title} {t['continued']}", sections.color("trends"))
    for theme in view.themes:
        links = t["list_sep"].join(discord_link(item_url(digest.repo, view.items[n]), f"#{n}")
                          for n in theme.items if n in view.items)
        name = "**" + discord_markdown(layout.theme_name(theme, t), 120) + "**"
        thread.add("• " + layout.theme_sentence(theme, t, name, links))
    if narrative is not None:
        thread.add(parts.people(narrative.activity, t))
    if view.index:
        entries = " · ".join(f"{discord_markdown(e.title, 80)} {e.count}" for e in view.index)
        hint = t["index_hint"]  # our words and the command's syntax in a code span: nothing of GitHub's
        em = "*" if t["em"] else ""
        thread.add(f"**{t['index']}**{t['colon']}{entries}\n{em}{hint}{em}")
    return thread.messages


def _appendix_messages(digest: Digest, t: dict[str, Any], tz: str, thread_mode: ThreadMode) -> list[list[Embed]]:
    """The counts, each linked to the GitHub search that lists it; with ``full``, one embed per stat list
    (continued as needed) with every item on one line."""
    parts = layout.macros(PARTS)
    thread = _Thread()
    icon = sections.icon("appendix")
    title = truncate(f"{icon} {t['appendix']} · {t['appendix_links']}", TITLE)
    thread.start(title, f"{icon} {t['appendix']} {t['continued']}", sections.color("appendix"))
    stats = digest.stats.as_dict()
    for key in STAT_KEYS:
        thread.add(parts.count_link(t["stats"][key], stats[key], layout.search_url(digest, key), t))
    if thread_mode == "full":
        for key, items in layout.appendix_groups(digest):
            name = t["stats"].get(key, key)
            thread.start(
                parts.appendix_title(name, len(items), t),
                parts.appendix_title(name, len(items), t, True),
                sections.color("appendix"),
            )
            for line in [parts.appendix_line(item, digest.repo, tz, t) for item in items] or [parts.nothing(t)]:
                thread.add(line)
    return thread.messages


def render_discord_digest(
    digest: Digest, *, locale: str | None = None, timezone: str | None = None, section_limit: int = 10,
    thread: ThreadMode | None = None,
) -> list[DiscordMessage]:
    """The first message (the digest), then the messages of its thread (empty ones are not sent).
    ``section_limit``: a followed topic's items in the thread; ``thread``: overrides the digest's setting."""
    t = strings(locale or digest.locale)
    tz = timezone or digest.window.timezone
    chat = layout.fit_layout(digest, lambda c: message_fits(_first_message(digest, c, t, tz)))
    replies = [
        *_topics_messages(digest, chat, t, section_limit),
        *_trends_messages(digest, chat, t),
        *_appendix_messages(digest, t, tz, thread or digest.thread),
    ]
    return [_first_message(digest, chat, t, tz), *(_message(embeds) for embeds in replies)]


# -------------------------------------------------------------------------------------------------- query


def _query_description(result: QueryResult, shown: int, t: dict[str, Any], tz: str) -> str:
    parts = layout.macros(PARTS)
    paragraphs = [parts.query_context(result, shown, tz, t)]
    notes = answer_notes(result.notes, locale=t["locale"], escape=discord_markdown, platform="discord")
    if notes:
        paragraphs.append("\n".join(f"ℹ️ *{note}*" for note in notes))
    if not result.items:
        paragraphs.append(parts.query_none(result, tz, t))
        if result.suggestions:
            paragraphs.append(parts.query_try(result, t))
        return "\n\n".join(paragraphs)
    groups, hidden = layout.shown_groups(result.items, shown)
    for group, items, visible in groups:
        lines = [parts.group_heading(t["groups"].get(group, group), len(items), t)]
        lines += [parts.query_item(item, result.repo, t) for item in visible]
        if len(items) > len(visible):
            lines.append(parts.more(len(items) - len(visible), t))
        paragraphs.append("\n".join(lines))
    rest = layout.hidden_groups_line(hidden, t)
    if rest:
        paragraphs.append(f"*{rest}*")  # our words only: the groups' names and counts
    return "\n\n".join(paragraphs)


def render_discord_query(
    result: QueryResult, *, limit: int = 10, locale: str | None = None, timezone: str | None = None
) -> list[DiscordMessage]:
    """One message, one embed: the answer's notes, the best ``limit`` items (fewer if one embed cannot hold
    them), by group, with "…and M more" per group (groups with nothing shown in one line after them); or a
    plain "nothing matched" with the window and suggestions."""
    t = strings(locale or result.locale)
    tz = timezone or result.window.timezone
    title = truncate(layout.macros(PARTS).query_title(result, t), TITLE)
    room = min(DESCRIPTION, MESSAGE_EMBED_TEXT - text_size(title))
    count = layout.largest_fitting(
        min(max(limit, 0), len(result.items)),
        lambda k: text_size(_query_description(result, k, t, tz)) <= room,
    )
    description = _query_description(result, count, t, tz)
    embed: Embed = {"title": title, "description": description, "color": sections.color("topic")}
    report = layout.report_link(result.report_url)
    if report:
        embed["url"] = report  # the title opens the report's search page
    return [_message([embed])]
