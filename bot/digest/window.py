"""Digest windows: ``[start, end)``, by default the day ending at the configured local post time."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

from bot.errors import UserError
from bot.model import Window


def latest_post_time(now: datetime, zone: ZoneInfo, post_time: str) -> datetime:
    """The most recent ``post_time`` (local HH:MM) at or before ``now``, as an aware datetime in ``zone``."""
    hour, minute = (int(part) for part in post_time.split(":"))
    local_now = now.astimezone(zone)
    candidate = datetime.combine(local_now.date(), time(hour, minute), tzinfo=zone)
    if candidate > local_now:
        candidate = datetime.combine(local_now.date() - timedelta(days=1), time(hour, minute), tzinfo=zone)
    return candidate


def daily_window(end_local: datetime, zone: ZoneInfo) -> Window:
    """One calendar day back from ``end_local`` at the same wall-clock time (23 or 25 h across DST)."""
    start_local = datetime.combine(
        end_local.date() - timedelta(days=1), end_local.timetz().replace(tzinfo=None), tzinfo=zone
    )
    return Window(start=_utc(start_local), end=_utc(end_local), timezone=zone.key)


def days_before(moment: datetime, zone: ZoneInfo, days: int) -> list[datetime]:
    """``days + 1`` bounds of the local calendar days ending at ``moment`` (same wall-clock time each day,
    so 23 or 25 h across DST), oldest first, in UTC."""
    local = moment.astimezone(zone)
    wall = local.timetz().replace(tzinfo=None)
    return [
        _utc(datetime.combine(local.date() - timedelta(days=back), wall, tzinfo=zone))
        for back in range(days, 0, -1)
    ] + [_utc(moment)]


def is_daily(window: Window) -> bool:
    """A window of one local day (23–25 h: DST days count)."""
    return timedelta(hours=23) <= window.end - window.start <= timedelta(hours=25)


def default_window(now: datetime, zone: ZoneInfo, post_time: str) -> Window:
    return daily_window(latest_post_time(now, zone, post_time), zone)


def resolve_window(
    *, start: datetime | None, end: datetime | None, now: datetime, zone: ZoneInfo, post_time: str
) -> Window:
    """CLI rules: both given -> as given; one given -> a day from/to it; none -> the default window."""
    if start is None and end is None:
        return default_window(now, zone, post_time)
    if start is None:
        assert end is not None
        start = end - timedelta(days=1)
    elif end is None:
        end = start + timedelta(days=1)
    if end <= start:
        raise UserError("the window's end must be after its start")
    if end - start > timedelta(days=92):
        raise UserError("a digest window can span at most 92 days")
    return Window(start=_utc(start), end=_utc(end), timezone=zone.key)


def _utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC)
