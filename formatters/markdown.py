"""The digest and query answers as Markdown, for terminals, e-mail and files (Jinja2 holds the layout).

The digest is the complete report: every section whole (an item may be in several), the followed topics first,
then hot discussions, trends, key changes, notable new bugs, the other topics and the full appendix. Items carry
a short badge (why a discussion is hot, merged or in review, what a new bug does), not the matching evidence:
that is the JSON's ``reason`` and ``why``."""

from __future__ import annotations

from collections.abc import Callable

from bot.model import STAT_KEYS, Digest, DigestItem, QueryResult
from formatters import layout
from formatters.layout import environment, localtime
from formatters.locale import strings
from formatters.safety import item_url, markdown_inline
from formatters.sections import section_title

__all__ = ["environment", "localtime", "render_markdown", "render_markdown_query"]


def _item_line(locale: str, repo: str) -> Callable[[DigestItem], str]:
    t = strings(locale)

    def line(item: DigestItem) -> str:
        state = t["state"].get(item.state, markdown_inline(item.state, 20))
        kind = t["kind"].get(item.kind, markdown_inline(item.kind, 20))
        labels = ", ".join(markdown_inline(label, 50) for label in item.labels[:6])
        title = markdown_inline(item.title, 200) or t["no_title"]
        author = markdown_inline(item.author)
        url = item_url(repo, item)
        number = f"[#{item.number}]({url})" if url else f"#{item.number}"
        line = f"{number} **{title}** — " + t["item_meta"].format(state=state, kind=kind, author=author)
        return line + (f" · {labels}" if labels else "")

    return line


def render_markdown(
    digest: Digest, *, locale: str | None = None, section_limit: int = 10, timezone: str | None = None
) -> str:
    locale = locale or digest.locale
    t = strings(locale)
    template = environment().get_template("markdown/digest.md.j2")
    text = template.render(
        digest=digest,
        strings=t,
        stat_keys=STAT_KEYS,
        stats=digest.stats.as_dict(),
        ordered=layout.markdown_order(digest),  # followed topics, hot, trends (None), key changes, notable, others
        section_name=lambda section: section_title(section, t),
        badge=lambda item, kind: layout.badge(item, kind, t),
        appendix=layout.appendix_groups(digest),
        limit=section_limit,
        tz=timezone or digest.window.timezone,
        item_line=_item_line(locale, digest.repo),
        trend_items=lambda trend: layout.trend_items(digest, trend),
        trend_limit=layout.THREAD_TRENDS,
    )
    return text.strip() + "\n"


def render_markdown_query(
    result: QueryResult, *, limit: int = 10, locale: str | None = None, timezone: str | None = None
) -> str:
    """The best ``limit`` items by group (``RESULT_GROUPS`` order) with "…and M more" per group, or a plain
    "nothing matched" with the window and the suggestions."""
    locale = locale or result.locale
    shown = result.items[: max(limit, 0)]
    top = {id(item) for item in shown}
    groups = [
        (group, items, [item for item in items if id(item) in top])
        for group, items in layout.group_results(result.items)
    ]
    text = environment().get_template("markdown/query.md.j2").render(
        result=result,
        strings=strings(locale),
        groups=groups,
        shown=len(shown),
        tz=timezone or result.window.timezone,
        item_line=_item_line(locale, result.repo),
    )
    return text.strip() + "\n"
