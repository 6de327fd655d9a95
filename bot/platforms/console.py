"""The terminal as a platform: an answer as Markdown, the JSON contract, or the exact Slack/Discord payloads."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, TextIO

from bot.model import Digest, QueryResult

if TYPE_CHECKING:
    from bot.app.notices import Notice, Why


def render(answer: Digest | QueryResult, fmt: str, *, pretty: bool = False) -> str:
    """Text for the terminal. ``slack``/``discord`` are a preview: paste a Slack payload's blocks into Block
    Kit Builder."""
    if fmt == "slack":
        from formatters.slack_blocks import render_slack_digest, render_slack_query

        payloads = (render_slack_digest(answer, locale=answer.locale) if isinstance(answer, Digest)
                    else render_slack_query(answer, locale=answer.locale))
        return _dumps(payloads, pretty)
    if fmt == "discord":
        from formatters.discord_embeds import render_discord_digest, render_discord_query

        messages = (render_discord_digest(answer, locale=answer.locale) if isinstance(answer, Digest)
                    else render_discord_query(answer, locale=answer.locale))
        return _dumps(messages, pretty)
    if fmt == "html":
        from formatters.html import render_html, render_html_query

        return render_html(answer) if isinstance(answer, Digest) else render_html_query(answer)
    if fmt == "json":
        from formatters.json_format import render_json

        return render_json(answer, pretty=pretty) + "\n"
    if isinstance(answer, QueryResult):
        from formatters.markdown import render_markdown_query

        return render_markdown_query(answer)
    from formatters.markdown import render_markdown

    return render_markdown(answer)


def _dumps(data: object, pretty: bool) -> str:
    """JSON for the terminal: compact (C encoder) unless ``pretty``."""
    if pretty:
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


def show(answer: Digest | QueryResult, fmt: str | None, out: TextIO, *, pretty: bool = False) -> None:
    """Write ``answer`` to ``out``. Without a format, a terminal gets the Markdown laid out by ``rich``
    (headings, colour, clickable links, the terminal's width) and a pipe or a file plain Markdown; ``terminal``
    asks for the laid-out text, ``markdown`` for plain Markdown, wherever it goes."""
    fmt = output_format(fmt, out)
    if fmt == "terminal":
        print_markdown(render(answer, "markdown"), out)
    else:
        out.write(render(answer, fmt, pretty=pretty))


def output_format(fmt: str | None, out: TextIO) -> str:
    """The format asked for, else ``terminal`` on a terminal and ``markdown`` anywhere else."""
    return fmt or ("terminal" if _is_terminal(out) else "markdown")


def print_markdown(text: str, out: TextIO) -> None:
    """Markdown laid out for a terminal by ``rich``: headings, tables, colour, links the terminal can open."""
    from rich.console import Console  # only the terminal pays for rich
    from rich.markdown import Markdown

    markdown = Markdown(text, hyperlinks=True)
    # Our Markdown breaks a line only where it means one (an entry's facts, its sentence, why it matched): rich
    # would join such lines with a space ("crash TP=2 · v0.11.2"), so they stay lines here too.
    for block in markdown.parsed:
        for token in block.children or ():
            if token.type == "softbreak":
                token.type = "hardbreak"
    Console(file=out, highlight=False, emoji=False).print(markdown)


def _is_terminal(out: TextIO) -> bool:
    try:
        return out.isatty()
    except (AttributeError, ValueError):  # a closed or odd stream
        return False


def notice_text(notice: Notice, locale: str = "en") -> str:
    """A notice as one plain line for stderr."""
    from formatters.notices import render_notice

    return render_notice(notice, locale=locale, escape=str, platform="cli")


def render_why(why: Why, fmt: str, *, locale: str) -> str:
    """``digest-bot query "why 123"``: the typed answer as JSON, else as the chat command says it."""
    from formatters.notices import notice_to_dict, render_notice

    if fmt == "json":
        return json.dumps(notice_to_dict(why), ensure_ascii=False, indent=2) + "\n"
    return render_notice(why, locale=locale, escape=str, platform="cli") + "\n"
