"""Plain-text helpers for untrusted GitHub bodies: the prose without templates, and a one-line summary."""

from __future__ import annotations

import re
import unicodedata

_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
_FENCE = re.compile(r"^[ \t]*(```|~~~).*?(?:^[ \t]*\1[^\n]*$|\Z)", re.DOTALL | re.MULTILINE)
_DETAILS = re.compile(r"<details\b.*?(?:</details>|\Z)", re.DOTALL | re.IGNORECASE)
_TAG = re.compile(r"</?[A-Za-z][^>]{0,200}>")
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]{0,300})\]\((?:[^()\s]|\([^()\s]*\))*\)")
# Underscore emphasis only at word edges (CommonMark): max_model_len stays one word.
_EMPHASIS = re.compile(r"(\*\*|\*|~~|`)(?=\S)(.+?)(?<=\S)\1|(?<![0-9A-Za-z])(__|_)(?=\S)(.+?)(?<=\S)\3(?![0-9A-Za-z])")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])|(?<=[。！？])")
# C0/C1 controls (but tab and newline) and the Unicode "format" (Cf) characters except the ZWJ that joins
# emoji: bidi overrides, zero-width spaces and the like can disguise text. Ranges as of Unicode 15
# (tests/test_text.py checks them against unicodedata).
_INVISIBLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"
    "\u200b\u200c\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0001\U000e0020-\U000e007f]"
)

# Lines that belong to issue/PR templates, not to what the author wrote (vLLM-style trackers and GitHub's
# defaults). Matched case-insensitively against the start of a stripped line.
_TEMPLATE_LINES = (
    "please fill in the pr description",
    "essential elements of an effective pr description",
    "make sure you already searched for relevant issues",
    "before submitting a new issue",
    "the output of `python collect_env.py`",
    "the output of python collect_env.py",
    "your output of `python collect_env.py` here",
    "(optional) documentation update",
    "(optional) release notes update",
    "the purpose of the pr",
    "the test plan",
    "the test results",
    "purpose",
    "test plan",
    "test result",
    "test results",
    "description",
    "motivation",
    "n/a",
    "tbd",
    "none",
    "no response",
    "_no response_",
    "thank you for your contribution",
    "bump ",
    "updates the requirements on",
)
_SKIP_LINE = re.compile(
    r"^(?:#{1,6}\s|[-*+]\s*\[[ xX]\]|\||>\s*\[!|-{3,}$|={3,}$|\*{3,}$|"
    r"(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|related(?: to)?|part of|follow-?up(?: to| of)?|cc|"
    r"signed-off-by|co-authored-by)\b[:\s]*(?:#|https?://|@|$)|@\S+\s*$|https?://\S+\s*$)",
    re.IGNORECASE,
)
_HEADING = re.compile(r"^#{1,6}\s*(.*)$")


def strip_controls(text: str) -> str:
    """Drop control and bidi-override characters that can disguise text (keeps tab and newline)."""
    return _INVISIBLE.sub("", text)


def _without_blocks(body: str) -> str:
    body = body.replace("\r\n", "\n").replace("\r", "\n")
    body = _HTML_COMMENT.sub("\n", body)
    body = _FENCE.sub("\n", body)
    body = _DETAILS.sub("\n", body)
    body = _IMAGE.sub(" ", body)
    return _TAG.sub(" ", body)


def _is_template(line: str) -> bool:
    lowered = line.lower().strip(" :*_#")
    return any(lowered.startswith(marker) for marker in _TEMPLATE_LINES)


def prose_paragraphs(body: str | None) -> list[str]:
    """The author's own paragraphs: no templates, checklists, code, tables, HTML or link-only lines."""
    if not body:
        return []
    paragraphs: list[str] = []
    current: list[str] = []
    for raw in _without_blocks(strip_controls(body)).split("\n"):
        line = raw.strip()
        heading = _HEADING.match(line)
        if not line or heading or _SKIP_LINE.match(line) or _is_template(line):
            if current:
                paragraphs.append(" ".join(current))
                current = []
            continue
        line = re.sub(r"^(?:[-*+]|\d+[.)])\s+", "", line)
        line = line.lstrip("> ").strip()
        if line:
            current.append(line)
    if current:
        paragraphs.append(" ".join(current))
    return [p for p in (_plain(p) for p in paragraphs) if _meaningful(p)]


def _plain(text: str) -> str:
    text = _LINK.sub(r"\1", text)
    for _ in range(2):
        text = _EMPHASIS.sub(lambda m: m.group(2) if m.group(1) else m.group(4), text)
    return re.sub(r"\s+", " ", text).strip()


def _meaningful(text: str) -> bool:
    letters = sum(ch.isalpha() for ch in text)
    return letters >= 8 or (letters >= 2 and any("\u3400" <= ch <= "\u9fff" for ch in text))


def body_prose(body: str | None) -> str:
    return "\n".join(prose_paragraphs(body))


def truncate(text: str, limit: int, ellipsis: str = "…") -> str:
    """Cut to at most ``limit`` characters, whole grapheme-ish units, ending with an ellipsis when cut."""
    if len(text) <= limit:
        return text
    if limit <= len(ellipsis):
        return ellipsis[:limit]
    cut = limit - len(ellipsis)
    # Don't split a combining sequence, a surrogate pair's partner, or a ZWJ emoji sequence.
    while cut > 0 and (
        unicodedata.combining(text[cut])
        or text[cut] in "\u200d\ufe0f"
        or text[cut - 1] == "\u200d"
        or "\U0001f3fb" <= text[cut] <= "\U0001f3ff"
    ):
        cut -= 1
    return text[:cut].rstrip() + ellipsis


def one_line_summary(body: str | None, limit: int = 200) -> str:
    """The first meaningful sentence of a body, as plain text, at most ``limit`` characters."""
    for paragraph in prose_paragraphs(body):
        sentence = _SENTENCE_END.split(paragraph, maxsplit=1)[0].strip()
        if _meaningful(sentence):
            return truncate(sentence, limit)
    return ""
