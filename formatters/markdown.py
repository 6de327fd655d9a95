"""The digest as Markdown, for terminals, e-mail and files (Jinja2 holds the layout)."""

from __future__ import annotations

from datetime import datetime
from functools import cache
from zoneinfo import ZoneInfo

from jinja2 import Environment, PackageLoader, StrictUndefined

from bot.digest.model import STAT_KEYS, Digest, DigestItem
from formatters.locale import strings
from formatters.safety import markdown_inline, safe_url


def localtime(moment: datetime | None, tz: str, fmt: str = "%Y-%m-%d %H:%M") -> str:
    return "" if moment is None else moment.astimezone(ZoneInfo(tz)).strftime(fmt)


@cache
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("formatters", "templates"),
        undefined=StrictUndefined,
        autoescape=False,  # Markdown, not HTML: escaping is done by the ``md`` filter
        keep_trailing_newline=True,
        trim_blocks=False,
    )
    env.filters["md"] = markdown_inline
    env.filters["localtime"] = localtime
    env.filters["url"] = safe_url
    return env


def _item_line(locale: str):  # type: ignore[no-untyped-def]
    t = strings(locale)

    def line(item: DigestItem) -> str:
        state = t["state"].get(item.state, item.state)
        kind = t["kind"].get(item.kind, item.kind)
        labels = ", ".join(markdown_inline(label, 50) for label in item.labels[:6])
        title = markdown_inline(item.title, 200)
        author = markdown_inline(item.author)
        line = f"[#{item.number}]({safe_url(item.url)}) **{title}** — {state} {kind} {t['by']} @{author}"
        return line + (f" · {labels}" if labels else "")

    return line


def render_markdown(
    digest: Digest, *, locale: str | None = None, section_limit: int = 10, timezone: str | None = None
) -> str:
    locale = locale or digest.locale
    template = environment().get_template("markdown/digest.md.j2")
    text = template.render(
        digest=digest,
        strings=strings(locale),
        stat_keys=STAT_KEYS,
        stats=digest.stats.as_dict(),
        limit=section_limit,
        tz=timezone or digest.window.timezone,
        item_line=_item_line(locale),
    )
    return text.strip() + "\n"
