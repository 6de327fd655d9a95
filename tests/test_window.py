from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.digest.window import default_window, resolve_window
from bot.errors import UserError

SHANGHAI = ZoneInfo("Asia/Shanghai")


def test_default_window_ends_at_the_last_local_post_time() -> None:
    # 2025-12-02 11:04 in Shanghai: the last 11:05 was the day before.
    now = datetime(2025, 12, 2, 3, 4, tzinfo=UTC)
    window = default_window(now, SHANGHAI, "11:05")
    assert window.end == datetime(2025, 12, 1, 3, 5, tzinfo=UTC)
    assert window.start == datetime(2025, 11, 30, 3, 5, tzinfo=UTC)
    later = default_window(now + timedelta(minutes=1), SHANGHAI, "11:05")
    assert later.end == datetime(2025, 12, 2, 3, 5, tzinfo=UTC)


def test_window_across_dst_keeps_wall_clock_time() -> None:
    berlin = ZoneInfo("Europe/Berlin")  # clocks go back on 2025-10-26
    window = default_window(datetime(2025, 10, 26, 12, 0, tzinfo=UTC), berlin, "09:00")
    assert window.end - window.start == timedelta(hours=25)
    assert window.end.astimezone(berlin).hour == 9 and window.start.astimezone(berlin).hour == 9


def test_resolve_window_rules() -> None:
    end = datetime(2025, 12, 1, tzinfo=UTC)
    now = datetime(2026, 1, 1, tzinfo=UTC)
    assert resolve_window(start=None, end=end, now=now, zone=SHANGHAI, post_time="11:05").start == end - timedelta(1)
    assert resolve_window(start=end, end=None, now=now, zone=SHANGHAI, post_time="11:05").end == end + timedelta(1)
    with pytest.raises(UserError, match="end must be after"):
        resolve_window(start=end, end=end, now=now, zone=SHANGHAI, post_time="11:05")
    with pytest.raises(UserError, match="at most 92 days"):
        resolve_window(start=end - timedelta(days=200), end=end, now=now, zone=SHANGHAI, post_time="11:05")
