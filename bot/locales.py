"""The languages digests and replies are written in, defined once (no dependencies: settings, the digest core and
the formatters all import it)."""

from __future__ import annotations

from typing import Final, Literal, TypeGuard, get_args

Locale = Literal["en", "zh-CN"]
LOCALES: Final[tuple[Locale, ...]] = get_args(Locale)
DEFAULT_LOCALE: Final[Locale] = "en"


def is_locale(value: object) -> TypeGuard[Locale]:
    """Whether ``value`` is exactly one of ``LOCALES`` (what settings accept)."""
    return value in LOCALES


def normalise_locale(tag: str | None) -> Locale:
    """The locale a tag is read in: one of ``LOCALES`` as is; any Chinese tag (``zh``, ``zh-Hans``, ``zh_CN``,
    ``ZH-cn``) ``zh-CN``; everything else (None, ``en-US``, unknown tags) English."""
    if is_locale(tag):
        return tag
    if tag and tag.strip().lower().startswith("zh"):
        return "zh-CN"
    return DEFAULT_LOCALE
