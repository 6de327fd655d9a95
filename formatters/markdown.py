"""The digest and query answers as Markdown, for terminals, e-mail and files (Jinja2 holds the layout).

The digest is the complete report: every section whole (an item may be in several), the followed topics first,
then hot discussions, trends, key changes, notable new bugs, the other topics and the full appendix. Items carry
a short badge (why a discussion is hot, merged or in review, what a new bug does), not the matching evidence:
that is the JSON's ``reason`` and ``why``."""

from __future__ import annotations

from collections.abc import Callable

from bot.model import STAT_KEYS, Digest, DigestItem, QueryResult, Theme
from formatters import layout
from formatters.layout import environment, localtime
from formatters.locale import strings
from formatters.notices import answer_notes
from formatters.safety import item_url, markdown_inline
from formatters.sections import section_title

__all__ = ["environment", "localtime", "render_markdown", "render_markdown_query"]


def _item_line(locale: str, repo: str) -> Callable[[DigestItem], str]:
    t = strings(locale)

    def line(item: DigestItem) -> str:
        state = markdown_inline(layout.state_word(item, t), 40)
        labels = ", ".join(markdown_inline(label, 50) for label in item.labels[:6])
        title = markdown_inline(item.title, 200) or t["no_title"]
        author = markdown_inline(item.author)
        url = item_url(repo, item)
        number = f"[#{item.number}]({url})" if url else f"#{item.number}"
        line = f"{number} **{title}** — " + t["item_meta"].format(state=state, author=author)
        return line + (f" · {labels}" if labels else "")

    return line


def render_markdown(
    digest: Digest, *, locale: str | None = None, section_limit: int = 10, timezone: str | None = None
) -> str:
    """The edited digest (``formatters.layout.page``): headline, summary, the followed topics, hot discussions,
    key changes, notable issues (each item's full entry once, short links elsewhere), themes, activity, the
    other topics' index and the full appendix. ``section_limit`` is kept for callers; the edition decides."""
    locale = locale or digest.locale
    t = strings(locale)
    view = layout.page(digest)
    repo = digest.repo

    def link(item: DigestItem) -> str:
        url = item_url(repo, item)
        return f"[#{item.number}]({url})" if url else f"#{item.number}"

    def entry_line(entry: layout.Entry) -> str:
        item = entry.item
        title = markdown_inline(item.title, 300) or t["no_title"]
        meta = t["item_meta"].format(state=markdown_inline(layout.state_word(item, t), 40),
                                     author=markdown_inline(item.author, 60))
        badge = markdown_inline(layout.badge(entry, t, state=False), 300)
        em = t["em"]
        return f"{link(item)} **{title}** — {meta}" + (f" · {em}{badge}{em}" if badge else "")

    def entry_details(entry: layout.Entry) -> list[str]:
        """Each line's text escaped, its code (an error line) as a code span: nothing inside one is markup."""
        return ["".join(f"`{text}`" if code else layout.spaced(text, lambda s: markdown_inline(s, 600))
                        for text, code in line)
                for line in layout.entry_details(entry, t)]

    def theme_line(theme: Theme) -> str:
        links = t["list_sep"].join(link(view.items[n]) for n in theme.items if n in view.items)
        return layout.theme_sentence(theme, t, "**" + markdown_inline(layout.theme_name(theme, t), 120) + "**", links)

    text = environment().get_template("markdown/digest.md.j2").render(
        digest=digest,
        strings=t,
        title=layout.digest_title(digest, t),
        view=view,
        # the followed topics, then (None) those with nothing today, then hot, key changes, notable
        ordered=[*(p for p in view.parts if p.kind == "topic"), None, *(p for p in view.parts if p.kind != "topic")],
        stat_keys=STAT_KEYS,
        stats=digest.stats.as_dict(),
        heading=lambda part: layout.header(part, t, markdown_inline(section_title(part.section, t), 100)),
        section_name=lambda section: section_title(section, t),
        entry_line=entry_line,
        entry_details=entry_details,
        link=link,
        theme_line=theme_line,
        appendix=layout.appendix_groups(digest),
        tz=timezone or digest.window.timezone,
    )
    return text.strip() + "\n"


def render_markdown_query(
    result: QueryResult, *, limit: int = 10, locale: str | None = None, timezone: str | None = None
) -> str:
    """The best ``limit`` items by group (``RESULT_GROUPS`` order) with "…and M more" per group (groups with
    nothing shown in one line after them), or a plain "nothing matched" with the window and the suggestions;
    the answer's notes (a looser reading, limits applied) under the window."""
    locale = locale or result.locale
    shown = result.items[: max(limit, 0)]
    groups, hidden = layout.shown_groups(result.items, len(shown))
    t = strings(locale)
    text = environment().get_template("markdown/query.md.j2").render(
        result=result,
        strings=t,
        groups=groups,
        hidden=layout.hidden_groups_line(hidden, t),
        notes=answer_notes(result.notes, locale=locale),
        shown=len(shown),
        tz=timezone or result.window.timezone,
        item_line=_item_line(locale, result.repo),
    )
    return text.strip() + "\n"
