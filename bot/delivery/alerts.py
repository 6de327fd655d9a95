"""Live alerts: new issues and PRs matching a person's (or a channel's) query, within a minute of arriving.

Every ``tick_seconds`` the worker looks, per target (a user's DMs, or a channel) and repository, at the items
the store first held since the target's last batch (``items.first_seen_at``: by webhook or by poll alike) and
sends those its alerts match in one message. A batch is one delivery in the ledger, kind ``alert``, keyed by the
batch's start (the previous batch's end), so it is claimed once, retried after a failure with the same window
(the row keeps its end; what arrived in a past window never changes) and never sent twice. At most one message
a minute per target: after a sent batch the next waits ``every``. Muted topics are respected as in daily DMs.
A permanent refusal (the user's DMs are closed, the channel is gone) pauses the user's DM alerts, with their
daily DMs, or marks the channel: the next batches are not tried until the user subscribes again (or the channel
is set up again), so a closed DM costs one failed message, not one per batch.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime, timedelta

from bot.app.service import Skip
from bot.delivery.fanout import FanoutResult, fan_out
from bot.delivery.jobs import DeliveryJobs
from bot.delivery.ledger import DONE, DUE, SENT, DeliveryKey
from bot.model import QueryResult, Window
from bot.store.alerts import Alert, AlertState

_log = logging.getLogger(__name__)

ALERT = "alert"  # the ledger kind of a live alert's batch
QUIET, WAIT = "quiet", "wait"  # nothing arrived | the target had a message less than a minute ago
Group = tuple[str, str, bool, str]  # platform, target, dm, repo


class AlertJobs:
    def __init__(self, jobs: DeliveryJobs, *, tick_seconds: float = 10.0, every: timedelta = timedelta(minutes=1),
                 newer_than: timedelta = timedelta(days=1)) -> None:
        self.jobs = jobs
        self.service = jobs.service
        self.state = AlertState(jobs.service.store)
        self.tick_seconds = tick_seconds  # how often the worker looks (a batch waits at most this long)
        self.every = every  # at most one message per target in this long
        self.newer_than = newer_than  # an item first seen later than this after its creation is not news

    async def run(self, now: datetime | None = None) -> FanoutResult:
        now = now or self.jobs.clock()
        groups = await asyncio.to_thread(self._groups)
        muted = await asyncio.to_thread(self.service.user_mutes, now) if any(g[2] for g in groups) else {}

        async def worker(group: Group) -> str:
            platform, target, dm, _ = group
            if dm:
                hidden = frozenset(muted.get((platform, target), ()))
            else:
                context = await asyncio.to_thread(self.service.channel_context, platform, target, mutes_at=now)
                if context.status:  # marked unreachable: nothing is sent until someone changes a setting
                    return QUIET
                hidden = context.mutes
            return await self._target(group, groups[group], now, hidden)

        return await fan_out(list(groups), worker, options=self.jobs.options.fanout, stop=self.jobs.stopping,
                             label="live alerts")

    def _groups(self) -> dict[Group, list[Alert]]:
        groups: defaultdict[Group, list[Alert]] = defaultdict(list)
        for alert in self.state.active():  # a user whose DMs refused the bot is paused, not tried batch after batch
            repo = alert.repo or self.service.default_repo
            if alert.platform not in self.jobs.messengers or repo is None or self.service.refused(repo):
                continue
            groups[(alert.platform, alert.target, alert.dm, repo)].append(alert)
        return dict(groups)

    async def _target(self, group: Group, alerts: Sequence[Alert], now: datetime, hidden: frozenset[str]) -> str:
        platform, target, _, repo = group
        ledger = self.jobs.ledger
        last = await asyncio.to_thread(ledger.latest, platform, target, repo, ALERT)
        throttled_until: datetime | None = None
        if last is not None:
            state = await asyncio.to_thread(ledger.state, last.key)
            if state == DUE:  # a batch that failed (or whose claimer died): the same window again
                return await self._send(group, alerts, Window(last.key.window_start, last.window_end), hidden)
            if state != DONE:
                return WAIT
            if last.status == SENT and now - last.window_end < self.every:
                throttled_until = last.window_end + self.every
        start = last.window_end if last is not None else min(alert.created_at for alert in alerts)
        start = max(start, now - self.newer_than)
        if not await asyncio.to_thread(self.state.arrivals, repo, start, now, newer_than=self.newer_than):
            return QUIET
        if throttled_until is not None:
            # The minute since the last message ends before the next tick: wait for it here, so an item that
            # came just after a batch waits at most the minute, not the minute and a tick.
            wait = (throttled_until - now).total_seconds()
            if wait > self.tick_seconds or self.jobs.stopping.is_set():
                return WAIT
            await asyncio.sleep(wait)
            now = throttled_until
        return await self._send(group, alerts, Window(start, now), hidden)

    async def _send(self, group: Group, alerts: Sequence[Alert], window: Window, hidden: frozenset[str]) -> str:
        platform, target, dm, repo = group
        key = DeliveryKey(platform, target, repo, ALERT, window.start)
        locale, timezone = alerts[0].locale, alerts[0].timezone

        async def build() -> QueryResult | Skip:
            # The claimed row's end, not ours: a takeover rebuilds the batch its first claimer began.
            row = await asyncio.to_thread(self.jobs.ledger.get, key)
            batch = Window(window.start, row.window_end if row is not None else window.end, timezone)
            arrived = await asyncio.to_thread(self.state.arrivals, repo, batch.start, batch.end,
                                              newer_than=self.newer_than)
            if not arrived:
                return Skip("no_matches")
            return await self.service.in_pool(
                lambda: self.service.alert_answer(alerts, repo, batch, {a.number for a in arrived}, hidden,
                                                  locale=locale, timezone=timezone))

        outcome = await self.jobs.deliver(key, window, self.jobs.messengers[platform], dm=dm, locale=locale,
                                          timezone=timezone, build=build, sync_first=False)
        if outcome != "skipped":
            _log.info("%s: %s", key, outcome)
        return outcome
