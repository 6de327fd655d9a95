"""The terminal as a platform: an answer as Markdown, the JSON contract, or the exact Slack/Discord payloads."""

from __future__ import annotations

import json

from bot.app.notices import Notice, Why
from bot.model import Digest, QueryResult
from formatters.notices import notice_to_dict, render_notice


def render(answer: Digest | QueryResult, fmt: str) -> str:
    """Text for the terminal. ``slack``/``discord`` are a preview: paste a Slack payload's blocks into Block
    Kit Builder."""
    if fmt == "slack":
        from formatters.slack_blocks import render_slack_digest, render_slack_query

        payloads = (render_slack_digest(answer, locale=answer.locale) if isinstance(answer, Digest)
                    else render_slack_query(answer, locale=answer.locale))
        return json.dumps(payloads, ensure_ascii=False, indent=2) + "\n"
    if fmt == "discord":
        from formatters.discord_embeds import render_discord_digest, render_discord_query

        messages = (render_discord_digest(answer, locale=answer.locale) if isinstance(answer, Digest)
                    else render_discord_query(answer, locale=answer.locale))
        return json.dumps(messages, ensure_ascii=False, indent=2) + "\n"
    if fmt == "html":
        from formatters.html import render_html, render_html_query

        return render_html(answer) if isinstance(answer, Digest) else render_html_query(answer)
    if fmt == "json":
        from formatters.json_format import render_json

        return render_json(answer) + "\n"
    if isinstance(answer, QueryResult):
        from formatters.markdown import render_markdown_query

        return render_markdown_query(answer)
    from formatters.markdown import render_markdown

    return render_markdown(answer)


def notice_text(notice: Notice, locale: str = "en") -> str:
    """A notice as one plain line for stderr."""
    return render_notice(notice, locale=locale, escape=str, platform="cli")


def render_why(why: Why, fmt: str, *, locale: str) -> str:
    """``digest-bot query "why 123"``: the typed answer as JSON, else as the chat command says it."""
    if fmt == "json":
        return json.dumps(notice_to_dict(why), ensure_ascii=False, indent=2) + "\n"
    return render_notice(why, locale=locale, escape=str, platform="cli") + "\n"
