"""The engine's tasks: each idempotent, each retried with exponential backoff, each a thin call into
``bot/delivery`` (the ledger stays the exactly-once record of every post and DM).

A task finds its collaborators (the service's ``DeliveryJobs``, the alerts, the webhook applier) in the
worker's context (``WorkerContext``, given to ``app.run_worker_async(additional_context={"bot": …})`` by the
process that built them). Arguments are JSON: windows travel as ISO 8601 (``window_start``, and ``at``, the
planner's clock when it deferred, so a re-run rebuilds the very same plan).

Locks (procrastinate's ``lock``: one job of a lock runs at a time cluster-wide; ``queueing_lock``: one waiting
job per lock, a second defer raises ``AlreadyEnqueued`` and is coalesced by ``defer``) are set by the caller:
the planner (``bot/runtime/planner.py``) and ``deliver_slot`` for its batches.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from bot.delivery.alerts import AlertJobs
from bot.delivery.fanout import BUSY
from bot.delivery.jobs import DeliveryJobs, plan_channel
from bot.delivery.ledger import CLAIMED, DeliveryKey
from bot.github.webhooks import WebhookApplier
from bot.redact import redact
from bot.runtime.engine import ERRORS_TABLE
from bot.settings import EngineSettings

if TYPE_CHECKING:
    import procrastinate
    from procrastinate.job_context import JobContext

_log = logging.getLogger(__name__)

CONTEXT_KEY = "bot"


class HeldElsewhere(Exception):
    """A delivery of this task is claimed in the ledger by someone else (a live worker, or a dead one whose lease
    has not run out yet): the task is retried later, and then finds it sent or takes it over."""


@dataclass
class WorkerContext:
    """What tasks run with, built once per worker process."""

    jobs: DeliveryJobs
    alerts: AlertJobs | None = None
    webhooks: WebhookApplier | None = None
    grace: timedelta = timedelta(hours=6)
    dm_batch: int = 200


def worker_context(context: JobContext) -> WorkerContext:
    value = (context.additional_context or {}).get(CONTEXT_KEY)
    if not isinstance(value, WorkerContext):
        raise RuntimeError("this worker was started without the bot's context (additional_context['bot'])")
    return value


async def defer(app: procrastinate.App, task: str, *, queue: str, lock: str | None = None,
                queueing_lock: str | None = None, **kwargs: Any) -> int | None:
    """Defer ``task``; None when one with the same ``queueing_lock`` is already waiting (coalesced)."""
    from procrastinate.exceptions import AlreadyEnqueued

    try:
        return await app.configure_task(task, queue=queue, lock=lock, queueing_lock=queueing_lock).defer_async(
            **kwargs)
    except AlreadyEnqueued:
        _log.debug("%s (%s) is already waiting: coalesced", task, queueing_lock)
        return None


def iso(moment: datetime) -> str:
    return moment.isoformat()


def parse(value: str) -> datetime:
    return datetime.fromisoformat(value)


async def _held(jobs: DeliveryJobs, keys: Iterable[DeliveryKey]) -> list[DeliveryKey]:
    """Keys whose ledger row is still claimed by someone (after our run: not by us)."""

    def read() -> list[DeliveryKey]:
        rows = [jobs.ledger.get(key) for key in keys]
        return [row.key for row in rows if row is not None and row.status == CLAIMED]

    return await asyncio.to_thread(read)


# --- task bodies (module-level, so tests call them with a context of their own) ---


async def run_sync_repo(ctx: WorkerContext, repo: str, at: str | None = None) -> bool:
    """The periodic sync; nothing to do when a poll (by anyone: a delivery's catch-up sync) completed after the
    planner asked for this one at ``at``."""
    if at is not None:
        polled = await asyncio.to_thread(ctx.jobs.service.store.last_polled, repo)
        if polled is not None and polled >= parse(at):
            return False
    return await ctx.jobs.sync_repo(repo)


async def run_deliver_channel(ctx: WorkerContext, platform: str, channel_id: str, window_start: str,
                              at: str) -> str:
    now = parse(at)
    start = parse(window_start)
    outcome = await ctx.jobs.post_channel(platform, channel_id, now=now)
    if outcome == BUSY:
        channel = await asyncio.to_thread(ctx.jobs.service.channel_context, platform, channel_id)
        plan = plan_channel(channel, now)
        if plan is not None and plan.key.window_start != start:
            _log.info("%s:%s: its post time changed since this was planned", platform, channel_id)
        if plan is not None and await _held(ctx.jobs, [plan.key]):
            raise HeldElsewhere(str(plan.key))
    return outcome


async def run_deliver_slot(app: procrastinate.App, ctx: WorkerContext, post_time: str, timezone: str,
                           window_start: str, at: str) -> int:
    """Split one slot's DMs into batches of subscribers, one ``deliver_dms`` task each; returns the batches."""
    plan = await ctx.jobs.slot_plan(post_time, timezone, parse(at))
    pairs = sorted({(t.subscription.platform, t.subscription.user_id) for t in plan.targets})
    size = max(1, ctx.dm_batch)
    batches = [pairs[i:i + size] for i in range(0, len(pairs), size)]
    for index, batch in enumerate(batches):
        await defer(app, "deliver_dms", queue="deliver", lock=f"dms:{post_time}:{timezone}:{index}",
                    queueing_lock=f"dms:{post_time}:{timezone}:{window_start}:{index}", post_time=post_time,
                    timezone=timezone, window_start=window_start, at=at, batch=[list(pair) for pair in batch])
    return len(batches)


async def run_deliver_dms(ctx: WorkerContext, post_time: str, timezone: str, window_start: str, at: str,
                          batch: list[list[str]]) -> dict[str, int]:
    now = parse(at)
    only = {(str(platform), str(user)) for platform, user in batch}
    result = await ctx.jobs.send_slot(post_time, timezone, now=now, only=only)
    if result.stopped:
        raise HeldElsewhere(f"DMs {post_time} {timezone}: {result.stopped} not started (shutting down)")
    plan = await ctx.jobs.slot_plan(post_time, timezone, now)
    held = await _held(ctx.jobs, [t.key for t in plan.targets
                                  if (t.subscription.platform, t.subscription.user_id) in only])
    if held:
        raise HeldElsewhere(f"DMs {post_time} {timezone}: {len(held)} claimed elsewhere")
    return {"sent": result.sent, "skipped": result.skipped, "failed": result.failed, "busy": result.busy}


async def run_alert_batch(ctx: WorkerContext) -> int:
    if ctx.alerts is None:
        return 0
    return (await ctx.alerts.run()).sent


async def run_apply_webhooks(ctx: WorkerContext) -> object:
    if ctx.webhooks is None:
        return None
    return await asyncio.to_thread(ctx.webhooks.retry)


async def run_resume_posts(ctx: WorkerContext) -> int:
    return (await ctx.jobs.resume_posts(ctx.grace)).sent


# --- registration ---


def register(app: procrastinate.App, settings: EngineSettings) -> None:
    """Register every task on ``app``, each with the same retry strategy."""
    from procrastinate import RetryStrategy

    retry = RetryStrategy(max_attempts=settings.max_attempts, exponential_wait=settings.retry_wait_seconds)

    def task(name: str, queue: str) -> Callable[[Callable[..., Awaitable[Any]]], Any]:
        return app.task(name=name, queue=queue, retry=retry, pass_context=True)

    @task("sync_repo", "sync")
    async def sync_repo(context: JobContext, repo: str, at: str | None = None) -> bool:
        return await run_sync_repo(worker_context(context), repo, at)

    @task("deliver_channel", "deliver")
    async def deliver_channel(context: JobContext, platform: str, channel_id: str, window_start: str,
                              at: str) -> str:
        return await run_deliver_channel(worker_context(context), platform, channel_id, window_start, at)

    @task("deliver_slot", "deliver")
    async def deliver_slot(context: JobContext, post_time: str, timezone: str, window_start: str, at: str) -> int:
        return await run_deliver_slot(app, worker_context(context), post_time, timezone, window_start, at)

    @task("deliver_dms", "deliver")
    async def deliver_dms(context: JobContext, post_time: str, timezone: str, window_start: str, at: str,
                          batch: list[list[str]]) -> dict[str, int]:
        return await run_deliver_dms(worker_context(context), post_time, timezone, window_start, at, batch)

    @task("alert_batch", "background")
    async def alert_batch(context: JobContext) -> int:
        return await run_alert_batch(worker_context(context))

    @task("apply_webhooks", "background")
    async def apply_webhooks(context: JobContext) -> object:
        return await run_apply_webhooks(worker_context(context))

    @task("resume_posts", "deliver")
    async def resume_posts(context: JobContext) -> int:
        return await run_resume_posts(worker_context(context))


async def record_errors(call_next: Callable[[], Awaitable[Any]], context: JobContext, worker: Any) -> Any:
    """Worker middleware: keep the last error of a run that raised (``digest-bot status`` shows it)."""
    try:
        return await call_next()
    except Exception as err:
        try:
            await context.app.connector.execute_query_async(
                f"INSERT INTO {ERRORS_TABLE} (job_id, task_name, error) VALUES (%(job_id)s, %(task)s, %(error)s) "
                "ON CONFLICT (job_id) DO UPDATE SET error = EXCLUDED.error, at = now()",
                job_id=context.job.id, task=context.job.task_name,
                error=redact(f"{type(err).__name__}: {err}")[:2000])
        except Exception as store_err:  # the error is in the log either way
            _log.warning("could not record the error of job %s: %s", context.job.id, store_err)
        raise
