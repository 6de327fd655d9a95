"""Pieces every renderer shares: the Jinja2 environment, what goes where, the sparkline, time display."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo

from jinja2 import Environment, PackageLoader, StrictUndefined

from bot.model import RESULT_GROUPS, STAT_KEYS, Digest, DigestItem, Section, Trend, result_group
from formatters import safety, sections
from formatters.reasons import item_reason

SPARK_BARS = "▁▂▃▄▅▆▇█"
HIGHLIGHT_COUNT = 3
HEADLINE_TRENDS = 3  # trends named in the headline; the thread lists up to THREAD_TRENDS with their items
THREAD_TRENDS = 5


def localtime(moment: datetime | None, tz: str, fmt: str = "%Y-%m-%d %H:%M") -> str:
    return "" if moment is None else moment.astimezone(ZoneInfo(tz)).strftime(fmt)


def sparkline(values: Sequence[int]) -> str:
    """One bar per value, scaled from zero (not from the minimum) so a quiet week looks quiet."""
    values = [max(int(v), 0) for v in values]
    top = max(values, default=0)
    if not values:
        return ""
    if top == 0:
        return SPARK_BARS[0] * len(values)
    return "".join(SPARK_BARS[round(v * (len(SPARK_BARS) - 1) / top)] for v in values)


@cache
def environment() -> Environment:
    """One template tree for every output; autoescape is off because each output escapes differently, in
    the filters below (all from ``formatters.safety``)."""
    env = Environment(
        loader=PackageLoader("formatters", "templates"),
        undefined=StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=False,
    )
    env.filters.update(
        md=safety.markdown_inline,
        url=safety.safe_url,
        localtime=localtime,
        slack=safety.slack_mrkdwn,
        slack_plain=safety.slack_plain,
        slack_link=safety.slack_link,
        discord=safety.discord_markdown,
        discord_plain=safety.discord_plain,
        discord_link=safety.discord_link,
    )
    env.globals.update(
        sparkline=sparkline,
        icon=sections.icon,
        reason=reason,
        item_url=safety.item_url,
        ratio_text=ratio_text,
        percent=percent,
        headline_trends=HEADLINE_TRENDS,
    )
    return env


def macros(name: str) -> Any:
    """A template's macros as callables (``macros("slack/parts.j2").item(...)``)."""
    return environment().get_template(name).module


def reason(item: DigestItem, t: dict[str, Any]) -> str:
    """Why the item is listed, in the locale of the strings ``t`` (unescaped: templates escape it)."""
    return item_reason(item, t["locale"])


def trend_items(digest: Digest, trend: Trend) -> list[DigestItem]:
    """A trend's top items, as its topic section shows them (so links and titles come from one place)."""
    section = digest.section(f"topic:{trend.topic}")
    by_number = {item.number: item for item in section.items} if section else {}
    return [by_number[number] for number in trend.items if number in by_number]


def ratio_text(trend: Trend) -> str | None:
    ratio = trend.ratio
    return None if ratio is None else f"{ratio:.1f}"


def percent(value: float | None) -> int | None:
    return None if value is None else round(value * 100)


def reply_sections(digest: Digest) -> list[Section]:
    return [section for section in digest.sections if section.items]


def appendix_groups(digest: Digest) -> list[tuple[str, tuple[DigestItem, ...]]]:
    """The five stat lists in stat order, then any other key the builder added (never dropped)."""
    keys = [*STAT_KEYS, *(key for key in digest.appendix if key not in STAT_KEYS)]
    return [(key, tuple(digest.appendix.get(key, ()))) for key in keys]


def group_results(items: Sequence[DigestItem]) -> list[tuple[str, list[DigestItem]]]:
    """Items by ``result_group`` in ``RESULT_GROUPS`` order (unknown groups last), best first inside."""
    groups: dict[str, list[DigestItem]] = {}
    for item in items:
        groups.setdefault(result_group(item), []).append(item)
    order = [*RESULT_GROUPS, *(g for g in groups if g not in RESULT_GROUPS)]
    return [(group, groups[group]) for group in order if group in groups]


def take_lines(
    lines: Sequence[str], limit: int, more: Callable[[int], str], *, hidden: int = 0, sep: str = "\n"
) -> str:
    """Join as many whole lines as fit in ``limit`` (UTF-16 units); one "more" line counts the lines left
    out plus ``hidden`` ones that were never offered."""
    for shown in range(len(lines), -1, -1):
        parts = list(lines[:shown])
        left_out = len(lines) - shown + hidden
        if left_out:
            parts.append(more(left_out))
        text = sep.join(parts)
        if safety.text_size(text) <= limit:
            return text
    return safety.truncate(more(len(lines) + hidden), limit)


def largest_fitting(count: int, fits: Callable[[int], bool]) -> int:
    """The largest ``k <= count`` with ``fits(k)`` (``fits`` is monotone and ``fits(0)`` holds)."""
    low, high = 0, count
    while low < high:
        middle = (low + high + 1) // 2
        if fits(middle):
            low = middle
        else:
            high = middle - 1
    return low
