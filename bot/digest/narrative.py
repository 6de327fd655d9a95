"""The deterministic narrative of a built digest: status summary, trends, activity and hot streaks.

A trend's count is the size of the topic's section in the same digest, and its baseline counts the preceding
days with the same definition (items opened, closed, merged or commented that day, by humans, matching the
same taxonomy), so "ROCm 9 items, 2.1x its usual" compares like with like. A topic trends only when it is well
above its usual (``TREND_MIN_RATIO``) with at least ``TREND_MIN_COUNT`` items, and only on a day whose store
has at least ``TREND_MIN_DAYS`` of the ``BASELINE_DAYS`` days before it synced (docs/editorial.md, "Trends").
"""

from __future__ import annotations

import logging
import math
import re
import statistics
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import cache
from zoneinfo import ZoneInfo

import jinja2
from msgspec import structs

from bot.digest.heat import is_hot
from bot.digest.themes import themes
from bot.digest.window import days_before, is_daily
from bot.locales import normalise_locale
from bot.model import Activity, Digest, DigestItem, Hot, Narrative, NewBug, Section, Theme, Trend
from bot.model.edition import edition_of
from bot.store.history import History
from bot.store.records import FIRST_TIMER_ASSOCIATIONS, WindowActivity
from bot.topics.items import stored_topic_ids
from bot.topics.taxonomy import Taxonomy

_log = logging.getLogger(__name__)

BASELINE_DAYS = 7
STREAK_LOOKBACK_DAYS = 14
TREND_MIN_COUNT = 3  # one or two items are news, not a trend (a topic new today too)
TREND_MIN_RATIO = 1.5  # "well above its usual count"
TREND_MIN_DAYS = 5  # of the BASELINE_DAYS days before the window, synced: else no trends at all
TREND_MAX = 5
TREND_TOP_ITEMS = 3
BUSY, QUIET = 1.3, 0.7  # opened today vs the previous days' mean


def narrate(
    digest: Digest,
    activity: WindowActivity,
    history: History,
    taxonomy: Taxonomy,
    *,
    hot_min_comments: int,
    is_bot: Callable[[str], bool],
    synced_from: datetime | None,
    complete_until: datetime | None = None,
    bots_key: str = "",
) -> Digest:
    """``digest`` with its narrative (summary, trends, themes, activity) and its hot items' streaks."""
    digest = _with_streaks(digest, history, hot_min_comments)
    topic_sections = [section for section in digest.sections if section.kind == "topic"]
    trends: tuple[Trend, ...] = ()
    baselines: dict[str, float] = {}
    if synced_days(digest, synced_from) >= TREND_MIN_DAYS:
        baselines = topic_baselines(
            history, digest, taxonomy, is_bot, synced_from, complete_until=complete_until, bots_key=bots_key
        )
        trends = rank_trends(topic_sections, baselines, _window_days(digest))
    figures = activity_figures(digest, activity, is_bot, topic_sections)
    humans = sum(1 for item in activity.items.values() if not (item.author_is_bot or is_bot(item.author)))
    found = themes(digest, activity.items, taxonomy, baselines, _window_days(digest), humans)
    summary = render_summary(digest, found, figures, topic_sections)
    return structs.replace(
        digest, narrative=Narrative(summary=summary, trends=trends, activity=figures, themes=found)
    )


def _window_days(digest: Digest) -> float:
    return (digest.window.end - digest.window.start) / timedelta(days=1)


# --- trends ---


def topic_baselines(
    history: History,
    digest: Digest,
    taxonomy: Taxonomy,
    is_bot: Callable[[str], bool],
    synced_from: datetime | None,
    *,
    complete_until: datetime | None = None,
    bots_key: str = "",
) -> dict[str, float]:
    """Each topic's mean items per day over the ``BASELINE_DAYS`` days before the window (days the store never
    synced are left out of the mean; no such day at all gives no baselines).

    Days that end before ``complete_until`` (the last completed sync) cannot change any more: their counts are
    kept in the store, so a daily digest computes one new day, not seven."""
    bounds = _synced_bounds(digest, synced_from)
    covered = len(bounds) - 1
    if covered <= 0:
        return {}
    days = topic_day_counts(history, digest, bounds, taxonomy, is_bot, complete_until=complete_until,
                            bots_key=bots_key)
    return {
        topic: sum(counts.get(topic, 0) for counts in days.values()) / covered for topic in taxonomy.ids()
    }


def topic_day_counts(
    history: History,
    digest: Digest,
    bounds: list[datetime],
    taxonomy: Taxonomy,
    is_bot: Callable[[str], bool],
    *,
    complete_until: datetime | None = None,
    bots_key: str = "",
) -> dict[datetime, dict[str, int]]:
    """Per-topic counts of the days ``[bounds[k], bounds[k+1])`` by their start, read from the store's cache
    where computed before; days that end before ``complete_until`` (the last completed sync) cannot change any
    more, so what is computed of them is kept (the baselines and the report page's topic charts share it)."""
    seconds = int(timedelta(days=1).total_seconds())
    key = f"{taxonomy.fingerprint}:{bots_key}"
    # Only windows that start on a whole minute (post times, dates) are cached: "/digest 24h" starts at "now",
    # and caching its seven one-off days would only grow the table.
    cacheable = complete_until is not None and digest.window.start.second == 0 == digest.window.start.microsecond
    days = history.topic_days(digest.repo, bounds[:-1], seconds, key) if cacheable else {}
    missing = [k for k, moment in enumerate(bounds[:-1]) if moment not in days]
    if missing:
        span = bounds[missing[0] : missing[-1] + 2]
        computed, exact = count_topic_days(history, digest.repo, span, taxonomy, is_bot)
        fresh = {moment: computed[k] for k, moment in enumerate(span[:-1]) if moment not in days}
        days.update(fresh)
        if exact and cacheable and complete_until is not None:
            done = {moment: counts for moment, counts in fresh.items() if _next_day(bounds, moment) <= complete_until}
            history.save_topic_days(digest.repo, done, seconds, key)
    return days


def _synced_bounds(digest: Digest, synced_from: datetime | None) -> list[datetime]:
    """Bounds of the baseline days before the window that the sync covered whole (all, when it says nothing)."""
    bounds = _days_before(digest, BASELINE_DAYS)
    if synced_from is not None:
        bounds = [moment for moment in bounds if moment >= synced_from]
    return bounds


def synced_days(digest: Digest, synced_from: datetime | None) -> int:
    """How many of the ``BASELINE_DAYS`` days before the window the store has synced whole."""
    return max(0, len(_synced_bounds(digest, synced_from)) - 1)


def _days_before(digest: Digest, days: int) -> list[datetime]:
    return days_before(digest.window.start, ZoneInfo(digest.window.timezone), days)


def _next_day(bounds: list[datetime], moment: datetime) -> datetime:
    return bounds[bounds.index(moment) + 1]


def count_topic_days(
    history: History, repo: str, bounds: list[datetime], taxonomy: Taxonomy, is_bot: Callable[[str], bool]
) -> tuple[list[dict[str, int]], bool]:
    """Per day, per topic: human items touched that day. ``exact`` is False when some stored matches were
    stale and only ``taxonomy``'s (maybe restricted) topics could be counted: such counts are not cached."""
    touched = history.touched_by_day(repo, bounds)
    topics_of, exact = stored_topic_ids(
        history.store, taxonomy, repo, touched, skip_author=lambda login, bot: bot or is_bot(login)
    )
    counts: list[dict[str, int]] = [{} for _ in bounds[:-1]]
    for number, touched_days in touched.items():
        for topic in topics_of.get(number, ()):
            for k in touched_days:
                counts[k][topic] = counts[k].get(topic, 0) + 1
    return counts, exact


def rank_trends(sections: list[Section], baselines: dict[str, float], window_days: float) -> tuple[Trend, ...]:
    """Topics well above their usual level (``TREND_MIN_RATIO`` x the baseline) with at least ``TREND_MIN_COUNT``
    items, strongest first (the ratio, topics new since the baseline days first, then the count), at most
    ``TREND_MAX``. No baselines (not enough history): no trends."""
    if not baselines:
        return ()
    trends = []
    for section in sections:
        topic = section.topic
        if topic is None:
            continue
        count = len(section.items)
        baseline = baselines.get(topic, 0.0)
        if count < TREND_MIN_COUNT or count < TREND_MIN_RATIO * baseline * window_days:
            continue
        trends.append(
            Trend(
                topic=topic,
                title=section.title,
                count=count,
                baseline=round(baseline, 2),
                items=tuple(item.number for item in section.items[:TREND_TOP_ITEMS]),
                window_days=round(window_days, 3),
            )
        )

    def unusual(trend: Trend) -> float:
        return math.inf if trend.ratio is None else trend.ratio  # new: nothing like it in the baseline days

    trends.sort(key=lambda trend: (-unusual(trend), -trend.count, trend.topic))
    return tuple(trends[:TREND_MAX])


# --- activity ---


def activity_figures(
    digest: Digest,
    activity: WindowActivity,
    is_bot: Callable[[str], bool],
    topic_sections: list[Section],
) -> Activity:
    """Contributors (humans who opened or commented), first-timers (openers GitHub marks as such), merge rate
    (merged / (merged + closed unmerged)) and median hours to merge, all in the window."""
    window = digest.window
    human = [item for item in activity.items.values() if not (item.author_is_bot or is_bot(item.author))]
    opened = [item for item in human if item.created_at in window]
    openers = {item.author for item in opened}
    first_timers = {item.author for item in opened if item.author_association in FIRST_TIMER_ASSOCIATIONS}
    commenters = {
        login for discussion in activity.discussions.values() for login in discussion.people if not is_bot(login)
    }
    merged = [item for item in activity.items.values() if item.merged_at in window]
    hours = [(item.merged_at - item.created_at) / timedelta(hours=1) for item in merged if item.merged_at]
    stats = digest.stats
    decided = stats.merged_prs + stats.closed_unmerged_prs
    busiest = sorted(topic_sections, key=lambda section: (-len(section.items), section.id))[:3]
    return Activity(
        contributors=len(openers | commenters),
        first_time_contributors=len(first_timers),
        merge_rate=round(stats.merged_prs / decided, 2) if decided else None,
        median_hours_to_merge=round(statistics.median(hours), 1) if hours else None,
        busiest_areas=tuple((section.title, len(section.items)) for section in busiest if section.items),
    )


# --- day over day ---


def _with_streaks(digest: Digest, history: History, hot_min_comments: int) -> Digest:
    """Each hot item's ``streak_days``: n >= 2 when it was also hot (``is_hot``, the same rule) on each of the n-1
    local days before the window (days of 23 or 25 h across DST, whatever the window's length); 1 when it was
    created in the window ("new today"); None when neither (hot today, not new, not hot yesterday)."""
    hot = digest.section("hot")
    if hot is None or not hot.items:
        return digest
    bounds = _days_before(digest, STREAK_LOOKBACK_DAYS)
    per_day = history.discussion_days(digest.repo, {item.number for item in hot.items}, bounds)
    # The appendix lists exactly the items opened in the window (whatever else happened to them there).
    created = {item.number for key in ("new_issues", "new_prs") for item in digest.appendix.get(key, ())}
    items = []
    for item in hot.items:
        streak = 1
        for comments, people in reversed(per_day.get(item.number, [])):
            if not is_hot(comments, people, hot_min_comments):
                break
            streak += 1
        badge = streak if streak > 1 or item.number in created else None
        items.append(structs.replace(item, streak_days=badge))
    sections = tuple(
        structs.replace(section, items=tuple(items)) if section.id == "hot" else section
        for section in digest.sections
    )
    return structs.replace(digest, sections=sections)


# --- summary ---


class _BytecodeCache(jinja2.FileSystemBytecodeCache):
    """Jinja's own cache of compiled templates (a private folder under the temp dir, keyed by each template's
    source): a one-shot command compiled the summary template on every run. A cache it cannot write is no
    cache, never an error."""

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError as err:
            _log.debug("template cache not written: %s", err)


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    try:
        return _BytecodeCache()
    except (OSError, RuntimeError) as err:  # no safe temp folder of our own (read-only, another owner)
        _log.debug("no template cache: %s", err)
        return None


@cache
def _templates() -> jinja2.Environment:
    # Plain text: the formatters escape it for each platform like any other string.
    return jinja2.Environment(
        loader=jinja2.PackageLoader("bot.digest", "templates"),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
        bytecode_cache=_bytecode_cache(),
    )


def mood(daily_activity: tuple[int, ...]) -> str:
    """busy | quiet | steady: items opened in this window against the mean of the windows before it."""
    if len(daily_activity) < 2:
        return "steady"
    earlier = statistics.fmean(daily_activity[:-1])
    if earlier <= 0:
        return "busy" if daily_activity[-1] else "quiet"
    ratio = daily_activity[-1] / earlier
    return "busy" if ratio >= BUSY else "quiet" if ratio <= QUIET else "steady"


def render_summary(digest: Digest, found: tuple[Theme, ...], figures: Activity, topic_sections: list[Section]) -> str:
    """Three to five sentences: how busy the window was, what it was about (its themes, else its busiest
    topics), the reader's first topic, the hottest discussion, the new bug to watch and the key change. Every
    item it names has its full entry in the edition (the first of its section), so every surface that shows
    the summary shows the item too."""
    edition = edition_of(digest)
    home = edition.home()
    locale = normalise_locale(digest.locale)

    named: set[int] = set()

    def first(section_id: str) -> DigestItem | None:
        """The section's best item when it has a full entry and the summary has not named it yet."""
        section = digest.section(section_id)
        found = next((item for item in section.items[:1] if item.number in home and item.number not in named),
                     None) if section is not None else None
        if found is not None:
            named.add(found.number)
        return found

    hottest, bug, change = first("hot"), first("notable"), first("key_changes")
    topic = edition.topics[0] if edition.topics else None
    topic_section = digest.section(topic.id) if topic is not None else None
    busiest = sorted(topic_sections, key=lambda section: (-len(section.items), section.id))[:2]
    template = _templates().get_template(f"summary.{locale}.j2")
    text = template.render(
        mood=mood(digest.daily_activity),
        one_day=is_daily(digest.window),
        stats=digest.stats,
        themes=[([t.name for t in theme.topics], theme.count, theme.ratio) for theme in found[:2]],
        focus=[(section.title, len(section.items)) for section in busiest if section.items],
        topic=(topic_section.title, topic.total, topic.entries[0]) if topic and topic_section and topic.entries
        else None,
        hottest=hottest,
        hottest_people=hottest.why.participants if hottest is not None and isinstance(hottest.why, Hot) else 0,
        notable=bug,
        notable_kind=bug.why.bug if bug is not None and isinstance(bug.why, NewBug) else None,
        change=change,
        activity=figures,
    )
    lines = (line.strip() for line in text.splitlines())
    return tidy_cjk_spacing(("" if locale == "zh-CN" else " ").join(line for line in lines if line))


# Han characters, CJK and full-width punctuation, and the Chinese quotation marks.
_CJK = "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef\u201c\u201d"
_CJK_PUNCTUATION = "\u3000-\u303f\uff00-\uffef\u201c\u201d"
_STRAY_SPACES = re.compile(
    f"(?<=[{_CJK}])[ \t]+(?=[{_CJK}])|[ \t]+(?=[{_CJK_PUNCTUATION}])|(?<=[{_CJK_PUNCTUATION}])[ \t]+"
)


def tidy_cjk_spacing(text: str) -> str:
    """``text`` without spaces between two Chinese characters or next to full-width punctuation: the templates
    put a space after every value ("{{ title }} 为"), which Chinese wants only when the value ends in Latin
    letters or digits ("AMD / ROCm 为", but "Llama 系列模型为")."""
    return _STRAY_SPACES.sub("", text)
