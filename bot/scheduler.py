"""The worker's clock: APScheduler 3.11 jobs for syncs, channel digests and daily DMs, reconciled every minute.

``DigestScheduler`` wraps one ``AsyncIOScheduler`` (started inside the running loop, in-memory job store:
job stores are never shared between processes) and owns the job ids and time zones:

* ``sync:<repo>``: every ``settings.sync.interval_minutes`` (first run at start), for each configured repo and
  each repo a channel or subscription uses, unless it is not allowed (docs/access.md: skipped, logged once);
* ``channel:<platform>:<channel_id>``: a ``CronTrigger`` at the channel's HH:MM in its time zone;
* ``dm:<HH:MM>:<tz>``: one job per time slot, fanning out to that slot's subscriptions;
* ``refresh``: every minute, re-reads ``ChatState`` (settings written by another process show up within a
  minute), adds/reschedules/removes the jobs above, and catches up: a channel or slot whose latest post
  time passed less than ``grace`` ago (default 6 h) and whose delivery for that window is not in the ledger
  runs now, once. Older windows are never replayed. It also starts ``resume:posts`` when an interrupted
  ``/digest post`` (failed, or its claimer's lease expired) asked less than ``grace`` ago is due: the answer is
  rebuilt from the request stored with its ledger row and finished in its thread.

Job options, deliberately: ``coalesce=True`` (a backlog of one job runs once), ``max_instances=1`` (plus our
own guard, shared by cron runs and catch-ups), ``misfire_grace_time`` = ``grace`` for posts (a post delayed
by a busy loop is still wanted; the window comes from the clock, not the fire time), the interval for syncs
and for ``refresh``. Several workers may run this against one database: the delivery ledger, not the
scheduler, makes each post happen once.

With a ``runner`` (the task engine's planner, ``bot/runtime/planner.py``) the scheduler only plans: each due job
is handed to ``runner.run(kind, args, schedule, now)``, which defers a task with the window in its arguments,
and the engine's workers run it; the refresh's webhook retries are handed over the same way.

``stop()`` (or leaving ``async with``): no new runs, fan-outs start no new targets, in-flight deliveries
finish within ``stop_timeout`` (then are cancelled: their rows are handed back), then ``on_stop`` closers run.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any, Protocol
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from apscheduler.jobstores.base import JobLookupError
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.base import BaseTrigger
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.interval import IntervalTrigger

from bot.app.messenger import Messenger
from bot.app.service import DigestService
from bot.delivery.alerts import AlertJobs
from bot.delivery.fanout import FanoutResult, Pace
from bot.delivery.jobs import DeliveryJobs, JobOptions, SyncFn, plan_channel, plan_slot
from bot.delivery.ledger import DONE, DUE, DeliveryKey, Ledger
from bot.github.webhooks import WebhookApplier
from bot.settings import Settings
from bot.store.alerts import AlertState
from bot.store.chat import ChatState
from bot.store.llm_cache import LLMCache
from bot.store.store import Store
from bot.store.webhooks import WebhookLog
from bot.timeutil import iso_z, utcnow

_log = logging.getLogger(__name__)

DEFAULT_GRACE = timedelta(hours=6)
REFRESH = "refresh"
RESUME_POSTS = "resume:posts"  # the run that finishes interrupted /digest posts (not an APScheduler job)
LEDGER_KEEP = timedelta(days=35)
WEBHOOKS_KEEP = timedelta(days=7)  # applied webhook deliveries kept (GitHub redelivers for 3 days)
WEBHOOKS_LIVE = timedelta(days=1)  # a repository a delivery came for this recently is reconciled, not polled
ALERTS = "alerts"  # the live alerts job

TriggerFactory = Callable[[str, ZoneInfo], BaseTrigger]

CANCEL_GRACE = 3.0  # seconds a cancelled run may take to unwind in stop() (hand its row back)


class JobRunner(Protocol):
    """Runs a due job elsewhere (the task engine): ``kind`` is sync | channel | dm | alerts | resume | webhooks,
    ``args`` the job's (repo | platform, channel id | post time, time zone), ``schedule`` what its trigger is
    made of (a channel's or slot's post time and zone), ``now`` the planner's clock at the run."""

    async def run(self, kind: str, args: tuple[str, ...], schedule: tuple[Any, ...], now: datetime) -> object: ...


def daily_trigger(post_time: str, zone: ZoneInfo) -> BaseTrigger:
    """Every day at ``post_time`` (HH:MM) local time in ``zone``; DST-aware (a skipped time fires an hour
    later on that day, a repeated one fires twice: the ledger keeps it to one post)."""
    hour, minute = (int(part) for part in post_time.split(":"))
    return CronTrigger(hour=hour, minute=minute, timezone=zone)


@dataclass(frozen=True)
class _Spec:
    kind: str  # sync | channel | dm
    schedule: tuple[Any, ...]  # what the trigger is made of: a change reschedules the job
    args: tuple[str, ...]


@dataclass
class RefreshReport:
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    caught_up: list[str] = field(default_factory=list)


@dataclass
class _Plan:
    specs: dict[str, _Spec]
    due: list[str]
    posts_due: int = 0  # interrupted /digest posts to finish (JobOptions/ledger decide which)


class DigestScheduler:
    def __init__(
        self,
        service: DigestService,
        messengers: Mapping[str, Messenger],
        *,
        sync: SyncFn | None = None,
        clock: Callable[[], datetime] = utcnow,
        grace: timedelta = DEFAULT_GRACE,
        ledger: Ledger | None = None,
        options: JobOptions | None = None,
        pacers: Mapping[str, Pace] | None = None,
        refresh_seconds: float = 60.0,
        stop_timeout: float = 30.0,
        trigger: TriggerFactory = daily_trigger,
        sync_on_start: bool = True,
        on_stop: Sequence[Callable[[], Awaitable[object]]] = (),
        jobs: DeliveryJobs | None = None,
        webhooks: WebhookApplier | None = None,
        alerts: AlertJobs | None = None,
        runner: JobRunner | None = None,
    ) -> None:
        self.jobs = jobs or DeliveryJobs(service, messengers, ledger=ledger, sync=sync, clock=clock,
                                         options=options, pacers=pacers)
        self.service = service
        self.store = service.store
        self.settings = service.settings
        self.clock = clock
        self.grace = grace
        self.refresh_seconds = refresh_seconds
        self.stop_timeout = stop_timeout
        self.trigger = trigger
        self.sync_on_start = sync_on_start
        self.on_stop = list(on_stop)
        self._scheduler: AsyncIOScheduler | None = None
        self._specs: dict[str, _Spec] = {}
        self._running: dict[str, asyncio.Task[Any]] = {}  # job id -> the run in progress (cron or catch-up)
        self._tasks: set[asyncio.Task[Any]] = set()  # every run in progress, for stop()
        self._settled: set[tuple[str, Any]] = set()  # (job id, window key) known final: no catch-up checks
        self._stopping = False
        self._pruned: date | None = None
        self._refused: set[str] = set()  # repositories of stored channels/subscriptions that are not allowed
        self.last_results: dict[str, object] = {}  # job id -> last outcome (status pages, tests)
        self.webhooks = webhooks  # retries webhook deliveries that failed to apply (the web process took them)
        self.alerts = alerts  # live alerts: sent by the ALERTS job
        self.runner = runner  # the task engine: due jobs are deferred to it, not run here

    # --- lifecycle ---

    async def __aenter__(self) -> DigestScheduler:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def running(self) -> bool:
        return self._scheduler is not None and not self._stopping

    async def start(self) -> None:
        """Start inside the running loop; reconciles and catches up once before returning."""
        if self._scheduler is not None:
            raise RuntimeError("the scheduler is already running")
        scheduler = AsyncIOScheduler(
            timezone=UTC, job_defaults={"coalesce": True, "max_instances": 1, "misfire_grace_time": 60}
        )
        scheduler.start()
        self._scheduler = scheduler
        self._stopping = False
        self.jobs.stopping.clear()  # (a scheduler may be started again after stop())
        scheduler.add_job(self._run, IntervalTrigger(seconds=self.refresh_seconds, timezone=UTC), id=REFRESH,
                          name=REFRESH, args=[REFRESH], misfire_grace_time=max(1, int(self.refresh_seconds)),
                          coalesce=True, max_instances=1)
        if self.alerts is not None or self.runner is not None:
            seconds = self.alerts.tick_seconds if self.alerts is not None else 10.0
            scheduler.add_job(self._run, IntervalTrigger(seconds=seconds, timezone=UTC), id=ALERTS, name=ALERTS,
                              args=[ALERTS], misfire_grace_time=max(1, int(seconds)), coalesce=True, max_instances=1)
        await self._run(REFRESH)
        _log.info("scheduler started with %d job(s)", len(self._specs) + 1)

    async def stop(self, wait_seconds: float | None = None) -> None:
        """No new runs; in-flight ones finish (bounded wait), the rest are cancelled; then ``on_stop``."""
        scheduler = self._scheduler
        if scheduler is None or self._stopping:
            return
        self._stopping = True
        self.jobs.stopping.set()
        scheduler.pause()
        current = asyncio.current_task()
        pending = {task for task in self._tasks if task is not current and not task.done()}
        if pending:
            _log.info("waiting for %d run(s) in progress: %s", len(pending), sorted(self._running))
            _, late = await asyncio.wait(pending, timeout=self.stop_timeout if wait_seconds is None else wait_seconds)
            if late:
                _log.warning("%d run(s) did not finish in time; cancelling them (their deliveries are handed back)",
                             len(late))
                for task in late:
                    task.cancel()
                # Bounded: a run that swallows its cancellation must not hold the process (docs/scaling.md,
                # "Stopping"); the process's deadline ends it.
                _, stuck = await asyncio.wait(late, timeout=CANCEL_GRACE)
                if stuck:
                    _log.warning("%d run(s) ignored their cancellation; not waiting for them", len(stuck))
        scheduler.shutdown(wait=False)
        self._scheduler = None
        self._specs.clear()
        for close in self.on_stop:
            try:
                await close()
            except Exception:
                _log.exception("closing a client failed")
        _log.info("scheduler stopped")

    # --- runs ---

    async def _run(self, job_id: str) -> None:
        """Every run, by APScheduler or as a catch-up, goes through here: one at a time per job id."""
        if self._stopping:
            return
        if job_id in self._running:
            _log.info("%s is still running; not starting it again", job_id)
            return
        task = asyncio.current_task()
        assert task is not None
        self._running[job_id] = task
        self._tasks.add(task)
        try:
            self.last_results[job_id] = await self._dispatch(job_id)
        except Exception as err:
            _log.exception("job %s failed", job_id)
            self.last_results[job_id] = err
        finally:
            self._running.pop(job_id, None)
            self._tasks.discard(task)

    async def _dispatch(self, job_id: str) -> object:
        if job_id == REFRESH:
            return await self.refresh()
        if self.runner is not None:
            return await self._defer(self.runner, job_id)
        if job_id == RESUME_POSTS:
            return await self.jobs.resume_posts(self.grace)
        if job_id == ALERTS:
            return await self.alerts.run() if self.alerts is not None else None
        spec = self._specs.get(job_id)
        if spec is None:
            return None
        if spec.kind == "sync":
            return await self.jobs.sync_repo(spec.args[0])
        if spec.kind == "channel":
            return await self.jobs.post_channel(spec.args[0], spec.args[1])
        result: FanoutResult = await self.jobs.send_slot(spec.args[0], spec.args[1])
        return result

    async def _defer(self, runner: JobRunner, job_id: str) -> object:
        now = self.clock()
        if job_id == RESUME_POSTS:
            return await runner.run("resume", (), (), now)
        if job_id == ALERTS:
            return await runner.run("alerts", (), (), now)
        spec = self._specs.get(job_id)
        if spec is None:
            return None
        return await runner.run(spec.kind, spec.args, spec.schedule, now)

    async def drain(self) -> None:
        """Wait until no run is in progress (catch-ups started by ``refresh`` included)."""
        current = asyncio.current_task()
        while pending := [task for task in self._tasks if task is not current and not task.done()]:
            await asyncio.gather(*pending, return_exceptions=True)

    def run_now(self, job_id: str) -> asyncio.Task[None]:
        """Start a run of ``job_id`` now (unless it is running); the task is tracked for ``stop()``."""
        task = asyncio.create_task(self._run(job_id), name=job_id)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # --- reconcile + catch up ---

    async def refresh(self) -> RefreshReport:
        """Make the jobs match config + database, and start catch-ups of missed posts (within ``grace``)."""
        now = self.clock()
        plan = await asyncio.to_thread(self._plan, now)
        report = self._reconcile(plan.specs)
        for job_id in plan.due:
            if job_id not in self._running and not self._stopping:
                _log.info("%s: its latest post is not in the ledger; posting it now", job_id)
                self.run_now(job_id)
                report.caught_up.append(job_id)
        if plan.posts_due and RESUME_POSTS not in self._running and not self._stopping:
            _log.info("%d interrupted /digest post(s) to finish", plan.posts_due)
            self.run_now(RESUME_POSTS)
            report.caught_up.append(RESUME_POSTS)
        if self.runner is not None:
            await self.runner.run("webhooks", (), (), now)
        elif self.webhooks is not None:
            retried = await asyncio.to_thread(self.webhooks.retry)
            if retried:
                _log.info("webhook deliveries retried: %s", retried)
        if self._pruned != now.date():
            self._pruned = now.date()
            removed = await asyncio.to_thread(self.jobs.ledger.prune, now - LEDGER_KEEP)
            if removed:
                _log.info("pruned %d old ledger row(s)", removed)
            if self.webhooks is not None:
                await asyncio.to_thread(self.webhooks.log.prune, now - WEBHOOKS_KEEP)
        if report.added or report.changed or report.removed:
            _log.info("jobs: +%s ~%s -%s", report.added, report.changed, report.removed)
        return report

    def _plan(self, now: datetime) -> _Plan:
        """Database reads (in a thread): the wanted jobs and which of them missed their latest post."""
        jobs, service = self.jobs, self.service
        platforms = set(jobs.messengers)
        specs: dict[str, _Spec] = {}
        due: list[str] = []
        repos = {repo.name for repo in self.settings.repos}
        refused: set[str] = set()
        for channel in service.channels():
            if channel.platform not in platforms or channel.repo is None:
                continue
            if service.refused(channel.repo):
                refused.add(channel.repo)
                continue
            repos.add(channel.repo)
            job_id = f"channel:{channel.platform}:{channel.channel_id}"
            specs[job_id] = _Spec("channel", (channel.post_time, channel.timezone),
                                  (channel.platform, channel.channel_id))
            planned = plan_channel(channel, now)
            if planned is None or not self._recent(planned.window.end, now):
                continue
            if channel.updated_at is not None and channel.updated_at > planned.window.end:
                continue  # configured after that post time: the first post is the next one
            if self._is_due(job_id, planned.key, functools.partial(jobs.ledger.state, planned.key)):
                due.append(job_id)
        subscriptions = []
        for sub in service.active_subscriptions(platforms):
            repo = sub.repo or service.default_repo
            if repo is not None and service.refused(repo):
                refused.add(repo)
            else:
                subscriptions.append(sub)
        repos.update(repo for repo in (s.repo or service.default_repo for s in subscriptions) if repo)
        for post_time, timezone in sorted({(s.post_time, s.timezone) for s in subscriptions}):
            job_id = f"dm:{post_time}:{timezone}"
            specs[job_id] = _Spec("dm", (post_time, timezone), (post_time, timezone))
            slot = plan_slot(subscriptions, post_time, timezone, now, platforms=platforms,
                             default_repo=service.default_repo)
            if not slot.targets or not self._recent(slot.window.end, now):
                continue

            def slot_state(slot: Any = slot) -> str:
                outlook = jobs.ledger.outlook(slot.window.start, kind_prefix="dm:")
                states = {outlook.get(target.key.short(), DUE) for target in slot.targets}
                return DUE if DUE in states else (DONE if states == {DONE} else "wait")

            if self._is_due(job_id, (slot.window.start, len(slot.targets)), slot_state):
                due.append(job_id)
        if jobs.sync is not None:
            # Webhooks keep a repository current: polling only reconciles it, less often.
            live = WebhookLog(self.store).live_repos(now - WEBHOOKS_LIVE)
            sync = self.settings.sync
            for repo in sorted(repos):
                minutes = sync.reconcile_minutes if repo in live else sync.interval_minutes
                specs[f"sync:{repo}"] = _Spec("sync", (minutes,), (repo,))
        self._settled = {entry for entry in self._settled if entry[0] in specs}
        for repo in sorted(refused - self._refused):  # once, not every minute
            _log.warning("%s is not an allowed repository (docs/access.md): its channels and subscriptions are "
                         "skipped, it is not synced", repo)
        self._refused = refused
        return _Plan(specs, due, len(jobs.due_posts(self.grace)))

    def _recent(self, post_time: datetime, now: datetime) -> bool:
        return timedelta(0) <= now - post_time < self.grace

    def _is_due(self, job_id: str, window_key: DeliveryKey | tuple[Any, ...], state: Callable[[], str]) -> bool:
        if (job_id, window_key) in self._settled:
            return False
        current = state()
        if current == DONE:
            self._settled.add((job_id, window_key))
        return current == DUE

    def _reconcile(self, specs: dict[str, _Spec]) -> RefreshReport:
        report = RefreshReport()
        scheduler = self._scheduler
        if scheduler is None:
            return report
        for job_id in [job_id for job_id in self._specs if job_id not in specs]:
            with suppress(JobLookupError):
                scheduler.remove_job(job_id)
            del self._specs[job_id]
            report.removed.append(job_id)
        for job_id, spec in specs.items():
            old = self._specs.get(job_id)
            if old == spec:
                continue
            trigger = self._trigger_for(spec)
            if old is None:
                extra: dict[str, Any] = {}
                if spec.kind == "sync" and self.sync_on_start:
                    extra["next_run_time"] = datetime.now(UTC)
                scheduler.add_job(self._run, trigger, id=job_id, name=job_id, args=[job_id],
                                  misfire_grace_time=self._misfire_grace(spec), coalesce=True, max_instances=1,
                                  replace_existing=True, **extra)
                report.added.append(job_id)
            else:
                scheduler.reschedule_job(job_id, trigger=trigger)
                report.changed.append(job_id)
            self._specs[job_id] = spec
        return report

    def _trigger_for(self, spec: _Spec) -> BaseTrigger:
        if spec.kind == "sync":
            return IntervalTrigger(minutes=spec.schedule[0], timezone=UTC)
        post_time, timezone = spec.schedule
        return self.trigger(post_time, ZoneInfo(timezone))

    def _misfire_grace(self, spec: _Spec) -> int:
        if spec.kind == "sync":
            return int(spec.schedule[0]) * 60
        return max(1, int(self.grace.total_seconds()))

    # --- introspection ---

    def job_ids(self) -> list[str]:
        return sorted(job.id for job in self._scheduler.get_jobs()) if self._scheduler else []

    def next_run(self, job_id: str) -> datetime | None:
        job = self._scheduler.get_job(job_id) if self._scheduler else None
        return job.next_run_time if job else None

    async def status(self) -> dict[str, Any]:
        """``delivery_status`` plus the scheduler's jobs and what is running now (for /healthz)."""
        report = await asyncio.to_thread(delivery_status, self.store, self.settings, ledger=self.jobs.ledger,
                                         now=self.clock())
        jobs = self._scheduler.get_jobs() if self._scheduler else []
        report["scheduler"] = {
            "running": self.running,
            "jobs": {job.id: iso_z(job.next_run_time) if job.next_run_time else None for job in jobs},
            "in_progress": sorted(self._running),
        }
        return report


def delivery_status(store: Store, settings: Settings | None = None, *, ledger: Ledger | None = None,
                    now: datetime | None = None) -> dict[str, Any]:
    """For ``/healthz`` and ``digest-bot status``: last sync per repo, last post per channel, pending deliveries,
    items the sync could not read.

    Synchronous (database reads); from async code use ``asyncio.to_thread``. Needs no running scheduler."""
    now = now or utcnow()
    ledger = ledger or Ledger(store)
    repos = sorted(set(store.repos()) | {repo.name for repo in (settings.repos if settings else [])})
    last_sync = {repo: store.last_synced(repo) for repo in repos}
    pending = ledger.pending()
    return {
        "last_sync": {repo: iso_z(at) if at else None for repo, at in last_sync.items()},
        "last_post": {f"{platform}:{target}": iso_z(at)
                      for (platform, target), at in sorted(ledger.last_sent("channel").items())},
        "pending": [
            {
                "platform": row.key.platform, "target": row.key.target, "repo": row.key.repo, "kind": row.key.kind,
                "window_start": iso_z(row.key.window_start), "status": row.status, "claimed_by": row.claimed_by,
                "lease_until": iso_z(row.lease_until) if row.lease_until else None,
                "lease_expired": row.lease_until is not None and row.lease_until <= now,
                "attempts": row.attempts, "parts_sent": row.parts_sent, "last_error": row.last_error,
            }
            for row in pending[:100]
        ],
        "pending_count": len(pending),
        "unreadable": {repo: summary for repo in repos if (summary := unreadable_status(store, repo))},
        "llm": _llm_status(settings, store),
        "webhooks": WebhookLog(store).counts(),  # deliveries by status: failed ones are retried every minute
        **paused_dms(store),
    }


def paused_dms(store: Store, *, limit: int = 100) -> dict[str, Any]:
    """Users whose DMs the platform refused (closed DMs, a bot, a removed workspace): their daily DMs and live
    alerts are paused, never retried, until they subscribe again. ``told``: whether they have been told yet
    (once, at their next command)."""
    rows = [{"platform": sub.platform, "user": sub.user_id, "kind": "daily", "query": sub.query,
             "reason": sub.paused, "told": not sub.notice_pending}
            for sub in ChatState(store).all_subscriptions() if sub.paused]
    rows += [{"platform": alert.platform, "user": alert.target, "kind": "live", "query": alert.query,
              "reason": alert.paused, "told": not alert.notice_pending} for alert in AlertState(store).paused()]
    return {"paused_dms": rows[:limit], "paused_dms_count": len(rows)}


def unreadable_status(store: Store, repo: str) -> dict[str, Any] | None:
    """Items of ``repo`` the sync saw but could not read (malformed payloads), None when there are none."""
    entries = store.unreadable(repo)
    if not entries:
        return None
    return {
        "count": len(entries),
        "issues": [u.key for u in entries if u.resource == "issues" and u.key is not None],
        "comments": [u.key for u in entries if u.resource == "comments" and u.key is not None],
        "unnumbered": sum(1 for u in entries if u.key is None),  # the listing's cursor waits for these
        "oldest": iso_z(min(u.first_seen_at or utcnow() for u in entries)),
        "errors": [u.error for u in entries[:5]],
    }


def _llm_status(settings: Settings | None, store: Store | None = None) -> dict[str, Any]:
    """Whether digests ask an LLM, and which (the URL without any credentials in it; never the key); with the
    last analysis of each repository and locale: parts asked, answered, accepted, and the answers refused by
    the grounding checks, by kind (docs/llm.md)."""
    if settings is None or not settings.llm_enabled:
        return {"enabled": False}
    parts = urlsplit(settings.llm_base_url or "")
    host = parts.hostname or ""
    where = f"{parts.scheme}://{host}{f':{parts.port}' if parts.port else ''}{parts.path}"
    status: dict[str, Any] = {"enabled": True, "model": settings.llm_model, "base_url": where}
    if store is not None:
        status["last_analysis"] = [
            {name: report.get(name) for name in _LLM_REPORT_FIELDS if name in report}
            for report in LLMCache(store).reports()
        ]
    return status


_LLM_REPORT_FIELDS = (
    "repo", "locale", "at", "parts_total", "asked", "answered", "accepted", "parts_cached", "parts_shared",
    "rejected", "fell_back", "width", "seconds",
)
