"""The web report pages' use cases (docs/reports.md): which repositories and days exist, the day's digest with
its chart data, the index of days, and a search. Typed results only: ``bot.platforms.reports`` renders them.

A day ``D`` is the digest window ending on ``D`` at the configured post time in the configured zone, like the
channel post of that day. Only allowed repositories that the store has synced are served, and only days that
have ended and that the store synced (a day before the first sync would read as a quiet day).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from datetime import date, datetime, time
from typing import TYPE_CHECKING

from bot.app.context import ChannelContext
from bot.app.links import ReportLinks, day_path, index_path
from bot.app.notices import Notice, OtherRepository, Refused
from bot.digest.window import daily_window, days_before, latest_post_time
from bot.model import Answer, DayCount, Digest, IndexDay, QueryResult, ReportIndex, Window
from bot.timeutil import utcnow
from bot.topics.query import parse_query

if TYPE_CHECKING:
    from bot.app.service import DigestService

_log = logging.getLogger(__name__)

SPARK_DAYS = 7


class Reports:
    def __init__(self, service: DigestService, *, clock: Callable[[], datetime] = utcnow) -> None:
        self.service = service
        self.clock = clock

    @property
    def links(self) -> ReportLinks:
        return self.service.links  # the service's: they follow its settings

    def window(self, day: date) -> Window:
        digest = self.service.settings.digest
        hour, minute = (int(part) for part in digest.post_time.split(":"))
        return daily_window(datetime.combine(day, time(hour, minute), tzinfo=digest.zone), digest.zone)

    def latest_day(self) -> date:
        digest = self.service.settings.digest
        return latest_post_time(self.clock(), digest.zone, digest.post_time).date()

    def first_day(self, repo: str) -> date | None:
        """The first day whose whole window the store synced (None: it says nothing; then the index limit)."""
        synced_from = self.service.store.synced_from(repo)
        if synced_from is None:
            return None
        local = synced_from.astimezone(self.service.settings.digest.zone).date()
        for day in (local, date.fromordinal(local.toordinal() + 1), date.fromordinal(local.toordinal() + 2)):
            if self.window(day).start >= synced_from:
                return day
        return None

    def days(self, repo: str) -> list[date]:
        """The days the index lists, newest first: the last one that ended, back to the first synced one, at
        most ``[reports] days``."""
        latest = self.latest_day()
        first = self.first_day(repo)
        limit = self.service.settings.file.reports.days
        found = [date.fromordinal(latest.toordinal() - back) for back in range(limit)]
        return [day for day in found if first is None or day >= first]

    def has_day(self, repo: str, day: date) -> bool:
        first = self.first_day(repo)
        return day <= self.latest_day() and (first is None or day >= first)

    def immutable(self, repo: str, window: Window) -> bool:
        """A day whose window the last completed poll covers cannot change any more (webhooks alone do not
        vouch for that: GitHub may drop one, and the reconciling poll would then change the page)."""
        polled, _ = self.service.sync_marks(repo)
        return polled is not None and polled >= window.end

    def context(self, repo: str, locale: str | None) -> ChannelContext:
        return self.service.default_context(repo=repo, locale=locale)

    async def day_digest(self, repo: str, day: date, locale: str | None) -> Digest:
        """The day's digest as the channel post of that day reads it, with the chart data; analysed by the LLM
        when one is configured (answers are cached in the store: a page costs no new call once posted)."""
        built = await self.service.in_pool(
            functools.partial(self.service.build_digest, analyse=False, series=True),
            self.context(repo, locale), self.window(day),
        )
        return await self.service.analyse(built)

    def index(self, repo: str, locale: str | None, *, expires: int | None) -> ReportIndex:
        """Blocking: the index of days (counts per day, a 7-day sparkline each) with links signed to expire
        with the link that was followed (``expires``; None when reports are public)."""
        context = self.context(repo, locale)
        days = self.days(repo)
        if days:
            zone = context.zone
            bounds = days_before(self.window(days[0]).end, zone, len(days) + SPARK_DAYS - 1)
            counts = self.service.store.event_days(repo, bounds)
        else:
            counts = []
        opened = [row[0] for row in counts]
        rows = []
        for position, day in enumerate(days):
            k = len(counts) - 1 - position
            rows.append(IndexDay(
                counts=DayCount(day, *counts[k]),
                week=tuple(opened[max(k - SPARK_DAYS + 1, 0) : k + 1]),
                url=self.links.relative(day_path(repo, day), expires=expires,
                                        extra={"lang": locale} if locale else None),
            ))
        path = index_path(repo)
        return ReportIndex(
            repo=repo, timezone=context.timezone, locale=context.locale, post_time=context.post_time,
            days=tuple(rows), search_path=path,
            search_params=tuple(self.links.params(path, expires=expires).items()) if expires is not None else (),
        )

    def search(self, repo: str, locale: str | None, query: str) -> tuple[QueryResult | None, Notice | None]:
        """Blocking: the ``/digest`` grammar's answer to ``query`` on this repository, or why there is none: the
        refusal, or ``OtherRepository`` for a query naming another repository (``repo:other/x``). A page
        searches only its own repository, and says so rather than showing an empty result. The other repository
        is never searched, and the notice is the same whether or not the bot follows it."""
        parsed = parse_query(query)
        if not parsed.problems and parsed.repo is not None and parsed.repo.lower() != repo.lower():
            return None, OtherRepository(asked=parsed.repo, page=repo)
        context = self.context(repo, locale)
        try:
            answer: Answer = self.service.answer_now(context, query, now=self.clock(), analyse=False)
        except Refused as refused:
            return None, refused.notice
        if answer.repo != repo:  # the same repository spelled otherwise is admitted as this one; anything else
            return None, OtherRepository(asked=answer.repo, page=repo)
        if not isinstance(answer, QueryResult):
            return None, None
        return answer, None
