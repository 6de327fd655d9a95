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

from jinja2 import Environment, PackageLoader, StrictUndefined

from bot.locales import normalise_locale
from bot.model import SectionKind, TopicRef
from formatters.locale import strings
from formatters.reasons import evidence_text, reason_text, topic_name
from formatters.sections import kind_title

if TYPE_CHECKING:
    from bot.app.notices import Notice

Platform = Literal["slack", "discord", "cli"]


@cache
def _environment(escape: Callable[[str], str]) -> Environment:
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
                                        else "/digest", **_wording(locale)})
    macros = {notice.kind: getattr(module, notice.kind) for notice in notices}
    parts = [str(macros[notice.kind](notice)).strip() for notice in notices]
    return "\n\n".join(part for part in parts if part)


def render_notice(notice: Notice, *, locale: str, escape: Callable[[str], str], platform: Platform = "slack") -> str:
    return render_notices([notice], locale=locale, escape=escape, platform=platform)


def _wording(locale: str) -> dict[str, Callable[..., str]]:
    """What templates need to word typed values (reasons, topics, sections) in ``locale``, unescaped: the
    templates escape the result like any GitHub text."""
    words = strings(locale)

    def section_name(kind: SectionKind, topic: TopicRef | None = None) -> str:
        return topic_name(topic, locale) if kind == "topic" and topic is not None else kind_title(kind, words)

    return {
        "reason": lambda why: reason_text(why, locale) if why is not None else "",
        "evidence": lambda found: evidence_text(tuple(found), locale),
        "topic_name": lambda topic: topic_name(topic, locale),
        "section_name": section_name,
        "listed_event": lambda event: str(words["reasons"]["listed"][event]),
    }


def notice_to_dict(notice: Notice) -> dict[str, Any]:
    """A notice's typed data as JSON values (``kind`` and every field; reasons with their ``kind``), for
    ``digest-bot query --format json``."""
    data = _plain(notice)
    assert isinstance(data, dict)
    return {"kind": notice.kind, **data}


def _plain(value: object) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(element) for element in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        data = {field.name: _plain(getattr(value, field.name)) for field in dataclasses.fields(value)}
        kind = getattr(type(value), "kind", None)  # a typed reason says which (hot, merged, topic, …)
        return {"kind": kind, **data} if isinstance(kind, str) and "kind" not in data else data
    return value
