"""UTC helpers: the store and the JSON contract speak UTC; only windows and display use other zones."""

from __future__ import annotations

from datetime import UTC, datetime


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
