"""The registry of what a digest shows, by kind: title (a key into ``formatters.locale``), icon, Discord embed
colour, and whether its top items go into the headline. Every renderer and template asks here.

``bot.model.SectionKind`` names the digest's sections (topic sections take their title from the topic);
the other kinds are the parts every renderer adds around them.
"""

from __future__ import annotations

from typing import Any, Literal

from msgspec import Struct

from bot.model import Digest, Section, SectionKind

PartKind = Literal["headline", "trends", "activity", "appendix"]
Kind = SectionKind | PartKind


class SectionStyle(Struct, frozen=True):
    title_key: str  # dotted key into the locale's strings ("sections.hot"); "" for topics (the topic's name)
    icon: str
    color: int  # Discord embed colour
    highlighted: bool = False  # top items in the headline, in registry order


REGISTRY: dict[Kind, SectionStyle] = {
    "hot": SectionStyle("sections.hot", "🔥", 0xE8590C, highlighted=True),
    "key_changes": SectionStyle("sections.key_changes", "🛠️", 0x2F9E44, highlighted=True),
    "notable": SectionStyle("sections.notable", "⚠️", 0xF08C00, highlighted=True),
    "topic": SectionStyle("", "🏷️", 0x1C7ED6),
    "trends": SectionStyle("trends", "📊", 0x7048E8),
    "activity": SectionStyle("activity", "📈", 0x5865F2),  # a line of the headline: the headline's colour
    "appendix": SectionStyle("appendix", "📎", 0x868E96),
    "headline": SectionStyle("digest_title", "📰", 0x5865F2),
}
HIGHLIGHTED: tuple[Kind, ...] = tuple(kind for kind, style in REGISTRY.items() if style.highlighted)


def style(kind: Kind) -> SectionStyle:
    return REGISTRY[kind]


def icon(kind: Kind) -> str:
    return REGISTRY[kind].icon


def color(kind: Kind) -> int:
    return REGISTRY[kind].color


def kind_title(kind: Kind, t: dict[str, Any]) -> str:
    """The title of a kind in the strings ``t`` of one locale (not for topics: they have names)."""
    if kind == "topic":
        raise ValueError("a topic section's title is the topic's name")
    value: Any = t
    for part in REGISTRY[kind].title_key.split("."):
        value = value[part]
    return str(value)


def section_title(section: Section, t: dict[str, Any]) -> str:
    """A section's title for a reader of ``t``'s locale: built-in sections in that locale (a channel may read
    another language than the digest was built in); topic sections the name the taxonomy gave them."""
    return section.title if section.kind == "topic" else kind_title(section.kind, t)


def highlights(digest: Digest) -> list[Section]:
    """Sections whose top items go into the headline, in registry order."""
    found = (digest.section(kind) for kind in HIGHLIGHTED)
    return [section for section in found if section is not None and section.items]
