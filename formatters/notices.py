"""Replies to /digest commands (help, subscriptions, settings, errors) as text for one platform.

Templates live in ``templates/notices/<locale>.j2`` as one macro per notice; every untrusted value (a
query, a repository, a reason) goes through ``esc``, the platform's escaping from ``formatters.safety``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined

LOCALES = ("en", "zh-CN")


@cache
def _environment(escape: Callable[[str], str]) -> Environment:
    env = Environment(loader=PackageLoader("formatters", "templates"), undefined=StrictUndefined, autoescape=False)
    env.filters["esc"] = lambda value: escape(str(value))
    return env


def render_notice(
    notice: str,
    params: Mapping[str, Any],
    *,
    locale: str,
    escape: Callable[[str], str],
    notes: tuple[str, ...] = (),
    platform: str = "slack",
) -> str:
    """``platform`` (slack | discord) picks the command spelling (Discord's digest is ``/digest show``)."""
    template = _environment(escape).get_template(f"notices/{locale if locale in LOCALES else 'en'}.j2")
    module = template.make_module(vars={"platform": platform, "show": "/digest show" if platform == "discord"
                                        else "/digest"})
    parts = [str(getattr(module, notice)(params)).strip()]
    for note in notes:
        kind, _, value = note.partition(":")
        if kind == "paused":
            parts.append(str(module.paused(value)).strip())
    return "\n\n".join(part for part in parts if part)
