"""Process roles with the task engine (``digest-bot run --role all|worker|planner|gateway``, docs/scaling.md):

* ``worker``: runs tasks (any number of processes); SIGTERM stops fetching, lets running tasks finish for
  ``shutdown_seconds`` and hands back the rest (their ledger rows are released, the jobs re-queued);
* ``planner``: plans (any number; one holds the planner lock, the others stand by);
* ``gateway``: holds the inbound chat connections (the Discord gateway, Slack Socket Mode): one process
  cluster-wide under an advisory lock; every other process posts through the platforms' REST APIs;
* ``all``: the three in one process (each worker then also stands by for the planner and the gateway).
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import Callable, Coroutine, Sequence
from contextlib import AbstractAsyncContextManager, suppress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.errors import UserError
from bot.runtime.engine import build_app, ensure_schema
from bot.runtime.locks import while_holding
from bot.runtime.planner import EngineRunner, plan
from bot.runtime.tasks import CONTEXT_KEY, WorkerContext, record_errors
from bot.settings import EngineSettings

if TYPE_CHECKING:
    import procrastinate

_log = logging.getLogger(__name__)

ROLES = ("all", "worker", "planner", "gateway")
GATEWAY_LOCK = "gateway"


@dataclass
class Assembly:
    """What a process built for the engine: the pieces each role needs."""

    conninfo: str
    engine: EngineSettings
    context: WorkerContext
    scheduler: Callable[[EngineRunner], AbstractAsyncContextManager[object]]  # a planning DigestScheduler
    gateways: Sequence[Callable[[], Coroutine[Any, Any, None]]] = field(default_factory=list)


async def run_roles(assembly: Assembly, role: str, stop: asyncio.Event) -> None:
    """Run ``role`` until ``stop`` is set (or one of its parts fails: then the others stop too)."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}")
    try:
        await asyncio.to_thread(ensure_schema, assembly.conninfo)
    except Exception as err:  # no CREATE right, the database away: one sentence, not a traceback
        said = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise UserError(f"cannot set up the task engine's tables: {said}. Grant CREATE on the schema, or set "
                        "[engine] enabled = false to run one process without it (docs/scaling.md)") from None
    app = build_app(assembly.conninfo, assembly.engine)
    async with app.open_async():
        parts: list[Coroutine[Any, Any, None]] = []
        if role in ("all", "worker"):
            parts.append(work(app, assembly.context, assembly.engine, stop))
        if role in ("all", "planner"):
            parts.append(plan(assembly.conninfo, app, assembly.engine,
                              lambda: assembly.scheduler(EngineRunner(app)), stop))
        if role in ("all", "gateway"):
            parts.append(hold_gateway(assembly.conninfo, assembly.gateways, assembly.engine, stop))
        tasks = [asyncio.create_task(part) for part in parts]
        try:
            pending = set(tasks)
            while pending:
                done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    if task.exception() is not None:
                        stop.set()
                        raise task.exception()  # type: ignore[misc]
        finally:
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)


async def work(app: procrastinate.App, context: WorkerContext, engine: EngineSettings, stop: asyncio.Event) -> None:
    """A procrastinate worker with the bot's context, until ``stop``: then no new task is fetched, fan-outs
    start no new target, running tasks get ``shutdown_seconds`` and the rest are cancelled (handed back)."""
    worker = asyncio.create_task(app.run_worker_async(
        name=f"{socket.gethostname()}:{os.getpid()}", concurrency=engine.concurrency,
        install_signal_handlers=False, update_heartbeat_interval=engine.heartbeat_seconds,
        stalled_worker_timeout=engine.stalled_seconds, shutdown_graceful_timeout=engine.shutdown_seconds,
        additional_context={CONTEXT_KEY: context}, worker_middleware=[record_errors],
        fetch_job_polling_interval=min(5.0, engine.tick_seconds)), name="engine worker")
    stopper = asyncio.create_task(stop.wait())
    done, _ = await asyncio.wait([worker, stopper], return_when=asyncio.FIRST_COMPLETED)
    if worker in done:
        stopper.cancel()
        worker.result()
        return
    _log.warning("stopping: no new tasks; running ones get %.0fs", engine.shutdown_seconds)
    context.jobs.stopping.set()
    worker.cancel()  # procrastinate: stop fetching, wait shutdown_graceful_timeout, then abort (re-queued)
    with suppress(asyncio.CancelledError):
        await worker


async def hold_gateway(conninfo: str, gateways: Sequence[Callable[[], Coroutine[Any, Any, None]]],
                       engine: EngineSettings, stop: asyncio.Event) -> None:
    """Hold the inbound chat connections while this process holds the gateway lock; stand by otherwise."""
    if not gateways:
        return
    async def hold(conn: object) -> None:
        _log.warning("this process holds the chat gateway")
        runs = [asyncio.create_task(make()) for make in gateways]
        stopper = asyncio.create_task(stop.wait())
        done, _ = await asyncio.wait([*runs, stopper], return_when=asyncio.FIRST_COMPLETED)
        for task in [*runs, stopper]:
            task.cancel()
        await asyncio.gather(*runs, stopper, return_exceptions=True)
        for task in done:
            if task is not stopper and not task.cancelled() and task.exception() is not None:
                raise task.exception()  # type: ignore[misc]

    await while_holding(conninfo, GATEWAY_LOCK, hold, retry_seconds=engine.planner_retry_seconds, stop=stop)
