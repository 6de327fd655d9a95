"""Command replies (help, subscriptions, settings, refusals) as text for one platform, in the reader's language.

Templates live in ``templates/notices/<locale>.j2`` as one macro per notice kind (``Notice.kind``); every
untrusted value (a query, a repository, a reason) goes through ``esc``, the platform's escaping from
``formatters.safety``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Literal

from jinja2 import Environment, PackageLoader, StrictUndefined

from bot.locales import normalise_locale

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
                                        else "/digest"})
    macros = {notice.kind: getattr(module, notice.kind) for notice in notices}
    parts = [str(macros[notice.kind](notice)).strip() for notice in notices]
    return "\n\n".join(part for part in parts if part)


def render_notice(notice: Notice, *, locale: str, escape: Callable[[str], str], platform: Platform = "slack") -> str:
    return render_notices([notice], locale=locale, escape=escape, platform=platform)
