"""Untrusted text from GitHub made safe for each output. One place, used by every formatter.

Everything that came from GitHub (titles, summaries, labels, authors, reasons, repo names, query text) goes
through one of the functions below before it reaches a template's output; templates never print raw values.

Per output:

- **Markdown** (``markdown_inline``): backslash-escape every Markdown/HTML special character.
- **Slack rich text** (``slack_text``): GitHub's text (titles, labels, authors, summaries, reasons, LLM text)
  goes into ``rich_text`` blocks as ``text`` elements, which Slack shows as they are: no mrkdwn, no mention,
  no link is ever parsed out of them (mentions and links are elements of their own, and we make only links to
  the repository). So the text is only cleaned and cut, never changed: ``fused_moe`` reads, copies and
  searches as ``fused_moe``.
- **Slack mrkdwn** (``slack_mrkdwn``): only our own words, numbers and configured names (topic names, zones,
  the repository), and the notification fallback. ``&``, ``<``, ``>`` become ``&amp;``, ``&lt;``, ``&gt;``
  (Slack's own rule, only those three), so no ``<!channel>``, ``<@U…>``, ``<!subteam^…>`` or ``<url|text>``
  can form; ``@channel``/``@here``/``@everyone`` get a zero-width space after the ``@``, and so does the colon
  of ``://`` so a URL is not auto-linked. Slack has no escape for ``* _ ~ `````, which is why GitHub's text
  never goes here (look-alike characters would make a copied title fail a search). Slack text objects are
  also sent ``verbatim``. Header ``plain_text`` never parses mentions; ``<``/``>`` there become ``‹``/``›``
  (``slack_plain``).
- **Discord Markdown** (``discord_markdown``): a backslash before every character Discord's Markdown reacts
  to (a superset of ``discord.utils.escape_markdown``: lone ``[ ] ( )`` too, so no masked link ``[x](url)``
  forms; heading/list markers at the start), ``escape_mentions`` (a copy of discord.py's), and a zero-width
  space after every ``<`` (no ``<@id>``, ``<@&id>``, ``<#id>``, ``<t:…>``, ``</cmd:id>``) and after ``://``
  (no auto-link). Where Discord does not render Markdown (embed titles, field names, footers)
  ``discord_plain`` does the same without backslashes (and a zero-width space inside ``](``).

Every function first drops control, format (bidi overrides…) and lone-surrogate characters, folds whitespace
to one line, and cuts to a limit measured AFTER escaping (in UTF-16 units, the stricter of the ways platforms
count), always at a grapheme boundary (emoji ZWJ sequences, flags, combining marks and CJK stay whole) and
ending with "…" when cut.

Links are built only here: ``item_url`` accepts an item's URL only when it is an https page of the digest's
own repository (``/{repo}/issues/{n}`` or ``/{repo}/pull/{n}``, any host so GitHub Enterprise works) and
otherwise builds ``https://github.com/{repo}/...`` itself; an invalid repository name gets no link.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import cache
from urllib.parse import urlsplit

__all__ = [
    "discord_link",
    "discord_markdown",
    "discord_plain",
    "fit",
    "item_url",
    "markdown_inline",
    "one_line",
    "safe_url",
    "slack_link",
    "slack_mrkdwn",
    "slack_plain",
    "slack_text",
    "text_size",
    "truncate",
    "valid_repo",
]

ZWSP = "\u200b"
ELLIPSIS = "…"

# ---------------------------------------------------------------------------------------------- plain text


def text_size(text: str) -> int:
    """Length in UTF-16 code units: never less than ``len`` and what JavaScript-side limits count."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


@cache
def _invisible() -> re.Pattern[str]:
    """Every control (Cc), format (Cf: bidi overrides, zero-width characters, tags) and surrogate (Cs) code
    point except the zero-width joiner of emoji sequences and whitespace (folded to a space instead). A
    superset of ``bot.text.strip_controls`` (which keeps C1 controls) and fast on long titles. Built once
    from the running Python's Unicode database (about 0.2 s)."""
    codes = [
        code for code in range(0x110000)
        if unicodedata.category(chr(code)) in ("Cc", "Cf", "Cs") and code != 0x200D and not chr(code).isspace()
    ]
    ranges: list[list[int]] = []
    for code in codes:
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    return re.compile("[" + "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in ranges) + "]")


def one_line(text: str) -> str:
    """Control/format characters and lone surrogates out, all whitespace runs (newlines too) to one space."""
    return re.sub(r"\s+", " ", _invisible().sub("", text or "")).strip()


def _extends(ch: str) -> bool:
    """True when ``ch`` continues the grapheme before it (so a cut must not fall just before it)."""
    code = ord(ch)
    return (
        unicodedata.category(ch) in ("Mn", "Mc", "Me")
        or ch == "\u200d"
        or 0xFE00 <= code <= 0xFE0F  # variation selectors
        or 0xE0100 <= code <= 0xE01EF
        or 0x1F3FB <= code <= 0x1F3FF  # skin tones
        or 0xE0020 <= code <= 0xE007F  # emoji tag sequences
    )


def _regional(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def _inside_flag(text: str, cut: int) -> bool:
    """A cut between the two regional indicators of one flag (they pair up from the left)."""
    if not (_regional(text[cut - 1]) and _regional(text[cut])):
        return False
    run = 0
    while cut - 1 - run >= 0 and _regional(text[cut - 1 - run]):
        run += 1
    return run % 2 == 1


def _boundary(text: str, cut: int) -> bool:
    if cut <= 0 or cut >= len(text):
        return True
    before = text[cut - 1]
    return not (
        _extends(text[cut])
        or before == "\u200d"
        or unicodedata.combining(before) == 9  # virama: the next consonant belongs to the same cluster
        or _inside_flag(text, cut)
    )


def truncate(text: str, limit: int, ellipsis: str = ELLIPSIS) -> str:
    """At most ``limit`` characters, cut at a grapheme boundary, ending with ``ellipsis`` when cut."""
    if len(text) <= limit:
        return text
    if limit <= len(ellipsis):
        return ellipsis[: max(limit, 0)]
    cut = limit - len(ellipsis)
    while not _boundary(text, cut):
        cut -= 1
    return text[:cut].rstrip().rstrip("\u200d") + ellipsis  # no dangling joiner before the "…"


def _clean_prefix(text: str, limit: int | None) -> str:
    """``one_line(text)``, or for a very long text only a prefix of it that is long enough to be cut within
    (same result: a cut looks only at characters before and at the cut), so 10,000-character titles cost
    as much as short ones."""
    if limit is not None and len(text) > 2 * limit + 64:
        head = one_line(text[: 2 * limit + 64])
        if len(head) > limit + 1:
            return head
    return one_line(text)


def fit(text: str, limit: int | None, escape: Callable[[str], str]) -> str:
    """``escape(one_line(text))`` cut so that the ESCAPED result is at most ``limit`` UTF-16 units.

    Cutting happens before escaping (so no escape, entity or link is ever split); a binary search finds the
    longest prefix whose escaped form still fits.
    """
    text = _clean_prefix(text, limit)
    escaped = escape(text)
    if limit is None or text_size(escaped) <= limit:
        return escaped
    low, high = 0, min(len(text), limit)
    best = ""
    while low <= high:
        middle = (low + high) // 2
        candidate = escape(truncate(text, middle))
        if text_size(candidate) <= limit:
            best, low = candidate, middle + 1
        else:
            high = middle - 1
    return best


# ------------------------------------------------------------------------------------------------ Markdown

# Only what can start markup inside a line: with [ and ] escaped no link or image can form, so ( ) ! stay
# plain, and an underscore inside a word (fused_moe) is not emphasis in CommonMark. Titles never start a line
# (they follow "- [#n](url) **"), so # + - need nothing. Fewer backslashes: readable in a terminal too.
_MD_SPECIAL = re.compile(r"([\\`*\[\]<>~|]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])|(?<=\])\()")


def markdown_inline(text: str, limit: int | None = None) -> str:
    """Plain text that renders as itself inside Markdown (link text, list items): no markup, no HTML."""
    text = _clean_prefix(text, limit)
    if limit is not None:
        text = truncate(text, limit)
    return _MD_SPECIAL.sub(r"\\\1", text)


_SAFE_URL = re.compile(r"^https?://[^\s<>()\[\]\"'`|]+$")


def safe_url(url: str) -> str:
    """Only plain http(s) URLs survive; anything that could break out of link syntax becomes empty."""
    return url if _SAFE_URL.match(url or "") else ""


# --------------------------------------------------------------------------------------------------- links

_REPO = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}$")
_HOST = re.compile(r"^[a-z0-9](?:[a-z0-9.-]{0,98}[a-z0-9])?(?::[0-9]{1,5})?$")


def valid_repo(repo: str) -> bool:
    return bool(_REPO.match(repo or "")) and ".." not in repo


def item_url(repo: str, item: object) -> str | None:
    """The item's page in the digest's repository, or None: never a link anywhere else."""
    number, kind, url = getattr(item, "number", None), getattr(item, "kind", ""), getattr(item, "url", "")
    if not valid_repo(repo) or type(number) is not int or number <= 0:
        return None
    try:
        parts = urlsplit(url or "")
        netloc = parts.netloc.lower()
    except ValueError:
        parts, netloc = None, ""
    if parts is not None and parts.scheme == "https" and _HOST.match(netloc):
        match = re.fullmatch(r"/([^/]+/[^/]+)/(issues|pull)/([0-9]+)", parts.path)
        if match and match[1].lower() == repo.lower() and int(match[3]) == number:
            return f"https://{netloc}/{repo}/{match[2]}/{number}"
    return f"https://github.com/{repo}/{'pull' if kind == 'pr' else 'issues'}/{number}"


# --------------------------------------------------------------------------------------------------- Slack

_SLACK = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_SLACK_PLAIN = str.maketrans({"<": "\u2039", ">": "\u203a"})
_BROADCAST = re.compile(r"@(?=everyone|here|channel)", re.IGNORECASE)  # "@herein" too: no word boundary


def _defuse(text: str) -> str:
    """No broadcast mention and no auto-linked URL, whatever the platform does with plain text."""
    if "@" in text:
        text = _BROADCAST.sub("@" + ZWSP, text)
    return text.replace("://", ":" + ZWSP + "//")


def _slack_escape(text: str) -> str:
    return _defuse(text.translate(_SLACK))


def slack_text(text: str, limit: int | None = None) -> str:
    """Text for a Slack rich text ``text`` element: one clean line, cut to ``limit``, otherwise exactly as given
    (Slack parses nothing in such an element, so nothing needs escaping)."""
    return fit(text, limit, str)


def slack_mrkdwn(text: str, limit: int | None = None) -> str:
    """Text for a Slack mrkdwn text object: no mention or link can form. Our words and configured names only:
    ``* _ ~ ``` would still style (Slack has no escape for them), so GitHub's text goes to ``slack_text``."""
    return fit(text, limit, _slack_escape)


def slack_plain(text: str, limit: int | None = None) -> str:
    """Untrusted text for a Slack plain_text object (headers)."""
    return fit(text, limit, lambda s: _defuse(s.translate(_SLACK_PLAIN)))


def slack_link(url: str | None, text: str) -> str:
    """``<url|text>`` for a URL from ``item_url``; the text is escaped and cannot contain ``|`` or ``>``."""
    label = slack_mrkdwn(text).replace("|", "\u00a6")
    return f"<{url}|{label}>" if url else label


# ------------------------------------------------------------------------------------------------- Discord

# What Discord's Markdown reacts to anywhere in a line (escape_markdown's set plus lone brackets and
# parentheses, so no masked link forms) and, at the start, heading, list and quote markers. A backslash
# before ASCII punctuation always renders as the character itself.
_DISCORD_MD = str.maketrans({char: "\\" + char for char in "\\*_~`|[]()<>"})
_DISCORD_LINE_START = re.compile(r"^(?:([-+#])|([0-9]+)\.)")
# discord.utils.escape_mentions' pattern, copied so the formatters do not import discord.py (the CLI and
# the Markdown output must work without it); tests check both agree.
_DISCORD_MENTION = re.compile(r"@(everyone|here|[!&]?[0-9]{17,20})")


def escape_mentions(text: str) -> str:
    """Same as ``discord.utils.escape_mentions``: a zero-width space after the ``@`` of a mention."""
    return _DISCORD_MENTION.sub("@" + ZWSP + r"\1", text) if "@" in text else text


def _discord_defuse(text: str) -> str:
    """No mention, no ``<…>`` construct, no URL and no ``[text](url)`` (where backslashes would show)."""
    text = _defuse(escape_mentions(text)).replace("<", "<" + ZWSP)
    return text.replace("](", "]" + ZWSP + "(")


def _discord_escape(text: str, *, line_start: bool = True) -> str:
    text = text.translate(_DISCORD_MD)
    if line_start and text[:1] in "-+#0123456789":
        text = _DISCORD_LINE_START.sub(lambda m: f"\\{m[1]}" if m[1] else f"{m[2]}\\.", text)
    return _discord_defuse(text)


def discord_markdown(text: str, limit: int | None = None) -> str:
    """Untrusted text for Discord Markdown (content, embed descriptions, field values)."""
    return fit(text, limit, _discord_escape)


def discord_plain(text: str, limit: int | None = None) -> str:
    """Untrusted text where Discord shows text as is (embed titles, footers): only mentions and links defused."""
    return fit(text, limit, _discord_defuse)


def discord_link(url: str | None, text: str) -> str:
    """``[text](url)`` for a URL from ``item_url``; the text is escaped, so it cannot close the link early
    (inside ``[...]`` nothing is at the start of a line, so ``#123`` stays as is)."""
    label = fit(text, None, lambda s: _discord_escape(s, line_start=False))
    return f"[{label}]({url})" if url else label
