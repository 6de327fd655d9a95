"""UTC helpers: the store and the JSON contract speak UTC; only windows and display use other zones."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime


def utcnow() -> datetime:
    return datetime.now(UTC)


def parse_iso(text: str) -> datetime:
    """Parse ISO 8601 (``Z`` or offset, or naive meaning UTC) into an aware UTC datetime."""
    value = datetime.fromisoformat(text.strip().replace("z", "Z"))
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def parse_github_time(text: str | None) -> datetime | None:
    return parse_iso(text) if text else None


def iso_z(value: datetime) -> str:
    """``2025-12-01T03:05:00Z``: the one time format of the JSON contract and GitHub's ``since``."""
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_retry_after(value: str | None, *, now: datetime | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: delay-seconds (decimals tolerated) or an HTTP-date.

    ``None`` when the header is absent or unreadable (the caller picks its own backoff); never negative (a
    past date or ``-5`` means "now"); never infinite or NaN. Huge values are returned as they are: whether
    to wait that long is the caller's decision."""
    if value is None:
        return None
    text = value.strip()
    if not text:
        return None
    try:
        seconds = float(text)
    except ValueError:
        try:
            when = parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError, OverflowError):
            return None
        if when.tzinfo is None:  # RFC 9110 dates are GMT
            when = when.replace(tzinfo=UTC)
        seconds = (when - (now or utcnow())).total_seconds()
    if not math.isfinite(seconds):
        return None
    return max(0.0, seconds)
