"""Untrusted text from GitHub made safe for each output. One place, used by every formatter."""

from __future__ import annotations

import re

from bot.text import strip_controls, truncate

__all__ = ["markdown_inline", "one_line", "safe_url", "truncate"]

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+!|~])")


def one_line(text: str) -> str:
    """Control characters out, all whitespace runs (newlines too) to one space."""
    return re.sub(r"\s+", " ", strip_controls(text)).strip()


def markdown_inline(text: str, limit: int | None = None) -> str:
    """Plain text that renders as itself inside Markdown (link text, list items): no markup, no HTML."""
    text = one_line(text)
    if limit is not None:
        text = truncate(text, limit)
    return _MD_SPECIAL.sub(r"\\\1", text)


_SAFE_URL = re.compile(r"^https?://[^\s<>()\[\]\"'`|]+$")


def safe_url(url: str) -> str:
    """Only plain http(s) URLs survive; anything that could break out of link syntax becomes empty."""
    return url if _SAFE_URL.match(url or "") else ""
