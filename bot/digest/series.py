"""The report page's chart data (``ActivitySeries``), read from the store for one built digest.

Only the web report and ``--format html`` ask for it (``BuildOptions.series``): a chat post never pays for these
reads. Days are local days at the window's wall-clock time (23 or 25 h across DST), like the digest's own.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from bot.digest.narrative import BASELINE_DAYS, TREND_MIN_DAYS, topic_day_counts
from bot.digest.window import days_before
from bot.model import (
    MERGE_BUCKET_HOURS,
    SERIES_DAYS,
    TOPIC_SERIES_DAYS,
    ActivitySeries,
    DayCount,
    Digest,
    TopicSeries,
)
from bot.store.history import History
from bot.store.store import Store
from bot.topics.taxonomy import Taxonomy

MERGE_DAYS = 7  # the time-to-merge chart covers the PRs merged in the last 7 days


def activity_series(
    store: Store,
    digest: Digest,
    taxonomy: Taxonomy,
    topics: Sequence[str],
    *,
    is_bot: Callable[[str], bool],
    synced_from: datetime | None,
    complete_until: datetime | None = None,
    bots_key: str = "",
) -> ActivitySeries:
    """Opened / closed / merged per day over ``SERIES_DAYS`` days ending with the digest's window, ``topics``'
    daily counts over ``TOPIC_SERIES_DAYS`` days with their baseline, and the time-to-merge distribution."""
    window = digest.window
    zone = ZoneInfo(window.timezone)
    bounds = days_before(window.end, zone, SERIES_DAYS)
    counts = store.event_days(digest.repo, bounds)
    days = tuple(
        DayCount(
            day=bounds[k + 1].astimezone(zone).date(),
            opened=opened,
            closed=closed,
            merged=merged,
            synced=synced_from is None or bounds[k] >= synced_from,
        )
        for k, (opened, closed, merged) in enumerate(counts)
    )
    return ActivitySeries(
        days=days,
        topics=_topic_series(store, digest, taxonomy, topics, bounds[-TOPIC_SERIES_DAYS - 1 :], is_bot, synced_from,
                             complete_until, bots_key),
        merge_buckets=merge_buckets(store.merge_durations(digest.repo, bounds[-MERGE_DAYS - 1], window.end)),
        merge_days=MERGE_DAYS,
    )


def merge_buckets(durations: Sequence[timedelta]) -> tuple[int, ...]:
    counts = [0] * (len(MERGE_BUCKET_HOURS) + 1)
    for duration in durations:
        hours = max(duration / timedelta(hours=1), 0.0)
        counts[bisect.bisect_left(MERGE_BUCKET_HOURS, hours)] += 1
    return tuple(counts)


def _topic_series(
    store: Store,
    digest: Digest,
    taxonomy: Taxonomy,
    topics: Sequence[str],
    bounds: list[datetime],
    is_bot: Callable[[str], bool],
    synced_from: datetime | None,
    complete_until: datetime | None,
    bots_key: str,
) -> tuple[TopicSeries, ...]:
    wanted = [topic for topic in dict.fromkeys(topics) if taxonomy.get(topic) is not None]
    if not wanted:
        return ()
    cached = topic_day_counts(History(store), digest, bounds, taxonomy, is_bot, complete_until=complete_until,
                              bots_key=bots_key)
    per_day = [cached.get(start, {}) for start in bounds[:-1]]
    synced = [synced_from is None or start >= synced_from for start in bounds[:-1]]
    # The baseline days: the BASELINE_DAYS before the window's own day (the last one), those synced.
    before = [k for k in range(len(per_day) - 1 - BASELINE_DAYS, len(per_day) - 1) if k >= 0 and synced[k]]
    series = []
    for topic_id in wanted:
        topic = taxonomy.get(topic_id)
        assert topic is not None
        counts = tuple(day.get(topic_id, 0) for day in per_day)
        baseline = (
            round(sum(counts[k] for k in before) / len(before), 2) if len(before) >= TREND_MIN_DAYS else None
        )
        series.append(TopicSeries(topic_id, topic.display_name(digest.locale), counts, baseline))
    return tuple(series)
