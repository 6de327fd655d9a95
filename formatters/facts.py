"""What an entry says beyond its title (placeholder until the typed facts land): the body's first sentence when
it says more than the title, in English only; "" under zh-CN, where the reader sees the title alone."""

from __future__ import annotations

import re

from bot.locales import normalise_locale
from bot.model import DigestItem

_WORD = re.compile(r"[a-z0-9][a-z0-9_.+-]*")


def facts_line(item: DigestItem, locale: str) -> str:
    return ""


def description(item: DigestItem, locale: str) -> str:
    if normalise_locale(locale) != "en" or not item.summary:
        return ""
    title = set(_WORD.findall(re.sub(r"\[[^\]]*\]", " ", item.title.lower())))
    words = set(_WORD.findall(item.summary.lower()))
    if not words or not title or len(words & title) >= 0.6 * len(title) or len(words & title) >= 0.5 * len(words):
        return ""
    return item.summary
