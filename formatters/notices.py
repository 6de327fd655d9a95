"""Command replies (help, subscriptions, settings, refusals) as text for one platform, in the reader's language.

Templates live in ``templates/notices/<locale>.j2`` as one macro per notice kind (``Notice.kind``); every
untrusted value (a query, a repository, a reason) goes through ``esc``, the platform's escaping from
``formatters.safety``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from msgspec import Struct

from bot.locales import normalise_locale
from bot.model import AnswerNote, SectionKind, TopicRef
from formatters.locale import strings
from formatters.reasons import evidence_text, reason_text, topic_name
from formatters.safety import discord_link, item_url, slack_link
from formatters.sections import kind_title

if TYPE_CHECKING:
    from jinja2 import Environment

    from bot.app.notices import Notice

Platform = Literal["slack", "discord", "cli"]


@cache
def _environment(escape: Callable[[str], str]) -> Environment:
    from jinja2 import Environment, PackageLoader, StrictUndefined  # only a notice needs it, not every answer

    env = Environment(loader=PackageLoader("formatters", "templates"), undefined=StrictUndefined, autoescape=False)
    env.filters["esc"] = lambda value: escape(str(value))
    return env


def render_notices(
    notices: Sequence[Notice],
    *,
    locale: str,
    escape: Callable[[str], str],
    platform: Platform = "slack",
) -> str:
    """The notices as one text, a paragraph each. ``platform`` picks the command spelling (Discord's digest is
    ``/digest show``) and platform-specific advice."""
    template = _environment(escape).get_template(f"notices/{normalise_locale(locale)}.j2")
    module = template.make_module(vars={"platform": platform, "show": "/digest show" if platform == "discord"
                                        else "/digest", **_wording(locale, platform)})
    macros = {notice.kind: getattr(module, notice.kind) for notice in notices}
    parts = [str(macros[notice.kind](notice)).strip() for notice in notices]
    return "\n\n".join(part for part in parts if part)


def render_notice(notice: Notice, *, locale: str, escape: Callable[[str], str], platform: Platform = "slack") -> str:
    return render_notices([notice], locale=locale, escape=escape, platform=platform)


def answer_notes(notes: Sequence[AnswerNote], *, locale: str, escape: Callable[[str], str] = str,
                 platform: Platform = "cli") -> list[str]:
    """What an answer says with it (``QueryResult.notes``: a looser reading, limits applied, clamped dates,
    unsynced history), a sentence each, worded as the notes said after a chat answer are ("Note: …")."""
    if not notes:
        return []
    from bot.app.notices import QueryAdjusted  # a digest with nothing to say loads no notice

    return [render_notice(QueryAdjusted.of_answer(note), locale=locale, escape=escape, platform=platform)
            for note in notes]


def _wording(locale: str, platform: Platform) -> dict[str, Callable[..., str]]:
    """What templates need to word typed values (reasons, topics, sections) in ``locale``, unescaped: the
    templates escape the result like any GitHub text. ``item_link`` and ``item_url`` are already safe."""
    words = strings(locale)

    def section_name(kind: SectionKind, topic: TopicRef | None = None) -> str:
        return topic_name(topic, locale) if kind == "topic" and topic is not None else kind_title(kind, words)

    return {
        "reason": lambda why: reason_text(why, locale) if why is not None else "",
        "evidence": lambda found: evidence_text(tuple(found), locale),
        "topic_name": lambda topic: topic_name(topic, locale),
        "section_name": section_name,
        "listed_event": lambda event: str(words["reasons"]["listed"][event]),
        "item_link": lambda p: _item_link(p, platform),
        "item_url": lambda p: _item_url(p) or "",
    }


def _item_url(p: Any) -> str | None:
    """A notice's item (``repo``, ``number``, ``url``, ``item_kind``) as a link into its repository only."""
    return item_url(p.repo, _Item(p.number, p.item_kind, p.url))


def _item_link(p: Any, platform: Platform) -> str:
    """``#123`` linked to the item on Slack and Discord; the terminal shows the URL on a line of its own."""
    url = _item_url(p)
    if platform == "slack":
        return slack_link(url, f"#{p.number}")
    if platform == "discord":
        return discord_link(url, f"#{p.number}")
    return f"#{p.number}"


@dataclasses.dataclass(frozen=True)
class _Item:
    number: int
    kind: str
    url: str


def notice_to_dict(notice: Notice) -> dict[str, Any]:
    """A notice's typed data as JSON values (``kind`` and every field; reasons with their ``kind``), for
    ``digest-bot query --format json``."""
    data = _plain(notice)
    assert isinstance(data, dict)
    return {"kind": notice.kind, **data}


def _plain(value: object) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(element) for element in value]
    if isinstance(value, Struct):  # the model's values (a reason, an item)
        names: Sequence[str] = value.__struct_fields__
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):  # the notices' own
        names = [field.name for field in dataclasses.fields(value)]
    else:
        return value
    data = {name: _plain(getattr(value, name)) for name in names}
    kind = getattr(type(value), "kind", None)  # a typed reason says which (hot, merged, topic, …)
    return {"kind": kind, **data} if isinstance(kind, str) and "kind" not in data else data
