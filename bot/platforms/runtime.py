"""Process entry points: `digest-bot serve` (the web process) and `digest-bot run` (the worker).

Both assemble themselves from the platform registry (``bot.platforms.registry``). Secrets come from the
environment only; missing ones are one clear sentence, not a traceback.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections.abc import Callable, Mapping
from contextlib import AsyncExitStack
from datetime import timedelta
from typing import TYPE_CHECKING

from aiohttp import web

from bot.app.service import DigestService
from bot.errors import UserError
from bot.platforms.registry import Connection, connect
from bot.platforms.reports import report_routes
from bot.platforms.shutdown import Shutdown, cancel_until_done
from bot.platforms.web import store_health, web_app
from bot.runtime.engine import conninfo_for, engine_unavailable
from bot.settings import Settings
from bot.store.store import Store

if TYPE_CHECKING:
    from bot.app.messenger import Messenger
    from bot.delivery.jobs import SyncFn

_log = logging.getLogger(__name__)


# Signs that this process runs in a container or on a PaaS, where the platform's router must reach it.
CONTAINER_FILES = ("/.dockerenv", "/run/.containerenv")  # Docker, Podman
CONTAINER_ENV = ("container", "KUBERNETES_SERVICE_HOST", "DYNO", "PORT")  # systemd-nspawn/Podman, k8s, Heroku, PaaS


def default_host(env: Mapping[str, str] = os.environ, exists: Callable[[str], bool] = os.path.exists) -> str:
    """Where ``serve`` listens without ``--host``: ``$HOST``; else every interface in a container or on a PaaS
    (``PORT`` set: Heroku, Render, Railway, Cloud Run, Dokku all set it); else loopback only, so a laptop or a
    VM does not expose the bot by accident."""
    if env.get("HOST"):
        return env["HOST"]
    if any(env.get(name) for name in CONTAINER_ENV) or any(exists(path) for path in CONTAINER_FILES):
        return "0.0.0.0"
    return "127.0.0.1"


def _open_service(stack: AsyncExitStack, settings: Settings) -> DigestService:
    """The store and the service on it, closed with ``stack`` (the service first: it waits for its work)."""
    store = Store.open(settings.database_url)
    stack.callback(store.close)
    service = DigestService(store, settings)
    stack.callback(service.close)
    return service


async def serve_http(settings: Settings, *, host: str, port: int, env: Mapping[str, str] = os.environ,
                     shutdown: Shutdown | None = None) -> None:
    """The web process: every platform's HTTP routes and ``/healthz`` in one aiohttp application. SIGTERM or
    SIGINT: requests in progress get ``drain_seconds``, and the process is gone within the deadline."""
    own = shutdown is None
    shutdown = shutdown or Shutdown()
    stack = AsyncExitStack()
    try:
        service = _open_service(stack, settings)
        store = service.store
        connections = await connect(service, env, stack, "serve")
        routes = [route for connection in connections for route in connection.routes]
        routes += report_routes(service)
        runner = web.AppRunner(web_app(routes, store_health(store), health_token=env.get("HEALTH_TOKEN") or None),
                               shutdown_timeout=shutdown.drain_seconds)
        await runner.setup()
        stack.push_async_callback(runner.cleanup)
        await web.TCPSite(runner, host, port).start()
        paths = ", ".join(str(getattr(route, "path", "")) for route in routes)
        shutdown.install()
        _log.warning("digest-bot serving on http://%s:%d (%s; health: /healthz)", host, port, paths)
        await shutdown.requested.wait()
    finally:
        shutdown.begin()
        await _close(stack, shutdown)
        _settle(shutdown, own)


async def run_worker(settings: Settings, env: Mapping[str, str] = os.environ, role: str = "all", *,
                     shutdown: Shutdown | None = None) -> None:
    """``digest-bot run``. On PostgreSQL with procrastinate installed: the task engine's ``role``
    (``run_engine``). Otherwise one process: sync every followed repository, post channel digests and DMs on
    schedule, and host the chat connections (Slack Socket Mode and/or Discord). Run exactly one (APScheduler's
    rule); the delivery ledger keeps a second one started by mistake from double-posting.

    SIGTERM or SIGINT stops it within ``shutdown``'s deadline (25 s), whatever its endpoints do: during start-up
    at once; running, in-flight jobs get ``drain_seconds``, then everything left is cancelled and closed within
    what remains, and the watchdog ends the process at the deadline. A second signal exits at once."""
    own = shutdown is None  # called as a library: no hard exit once this returns (see Shutdown.disarm)
    why = engine_unavailable(settings.database_url)
    if why is None and settings.file.engine.enabled:
        shutdown = shutdown or Shutdown()
        shutdown.install()
        try:
            await run_engine(settings, env, role, stop=shutdown.requested)
        finally:
            _settle(shutdown, own)
        return
    if role != "all":
        raise UserError(f"--role {role} needs the task engine, and {why or 'engine.enabled is false'}: "
                        "run `digest-bot run` alone (one process does everything), or see docs/scaling.md")
    shutdown = shutdown or Shutdown()
    shutdown.install()
    running = asyncio.Event()  # start-up is over: the worker stops itself from here on
    body = asyncio.create_task(_worker(settings, env, shutdown, running), name="worker")
    signalled = asyncio.create_task(shutdown.requested.wait(), name="signals")
    try:
        await asyncio.wait([body, signalled], return_when=asyncio.FIRST_COMPLETED)
        if not body.done() and not running.is_set():  # a signal during start-up: nothing to finish yet
            body.cancel()  # once: its clean-up (stopping the scheduler, closing clients) must not be cut short
        await asyncio.wait([body])  # bounded by the watchdog
    except asyncio.CancelledError:  # our caller's own cancel (a test, an embedding program): stop the worker too
        body.cancel()
        await asyncio.wait([body])
        raise
    finally:
        signalled.cancel()
        _settle(shutdown, own)
    if not body.cancelled():
        body.result()  # the worker's own failure (a connection that died), raised here


def _settle(shutdown: Shutdown, own: bool) -> None:
    shutdown.uninstall()
    if own:
        shutdown.disarm()
    else:
        shutdown.begin()  # the process's own exit (asyncio.run's clean-up, thread joins) is bounded too


async def _worker(settings: Settings, env: Mapping[str, str], shutdown: Shutdown, running: asyncio.Event) -> None:
    from bot.app.webhooks import build_applier
    from bot.delivery.alerts import AlertJobs
    from bot.delivery.jobs import DeliveryJobs
    from bot.delivery.ledger import Ledger
    from bot.scheduler import DigestScheduler

    tasks: list[asyncio.Task[None]] = []
    stack = AsyncExitStack()
    try:
        service = _open_service(stack, settings)
        store = service.store
        connections, messengers, sync = await _connect_worker(stack, service, env, shutdown.requested)
        delivery = settings.file.delivery
        ledger = Ledger(store, lease=timedelta(seconds=delivery.lease_seconds))
        jobs = DeliveryJobs(service, messengers, ledger=ledger, sync=sync)
        scheduler = DigestScheduler(service, messengers, jobs=jobs, grace=timedelta(hours=delivery.grace_hours),
                                    webhooks=build_applier(service), alerts=AlertJobs(jobs),
                                    stop_timeout=shutdown.drain_seconds)
        try:
            await scheduler.start()
            for connection in connections:
                if connection.run is not None:
                    tasks.append(asyncio.create_task(connection.run(), name=connection.name))
            running.set()
            stopper = asyncio.create_task(shutdown.requested.wait(), name="stop")
            try:
                done, _ = await asyncio.wait([*tasks, stopper], return_when=asyncio.FIRST_COMPLETED)
            finally:
                stopper.cancel()
            shutdown.begin()
            for task in done:
                if task is not stopper and task.exception():
                    raise task.exception()  # type: ignore[misc]
        finally:
            # No new runs; in-flight ones get drain_seconds, then are cancelled (their rows handed back). Also
            # when start-up was cancelled half-way: the runs its first refresh started are stopped too.
            await scheduler.stop()
    finally:
        shutdown.begin()
        # The gateway and Socket Mode first; each is cancelled until it is gone (bounded by the deadline).
        await cancel_until_done(tasks, shutdown.until(reserve=3.0))
        await _close(stack, shutdown)


async def _connect_worker(stack: AsyncExitStack, service: DigestService, env: Mapping[str, str],
                          stop: asyncio.Event | None) -> tuple[list[Connection], dict[str, Messenger], SyncFn]:
    """What a worker needs from the outside, closed with ``stack``: the chat connections, their messengers, and
    the GitHub sync (a GitHub App: a token per installation, each its own budget). A rate-limit wait (a reset up
    to sync.max_rate_limit_wait_seconds away) ends when ``stop`` is set."""
    from bot.github.client import stoppable_sleep
    from bot.github.factory import AppSync, build_syncer, github_client

    settings, store = service.settings, service.store
    connections = await connect(service, env, stack, "worker")
    messengers = {c.name: c.messenger for c in connections if c.messenger is not None}
    if not messengers:
        raise UserError("nothing to run: set SLACK_BOT_TOKEN and SLACK_APP_TOKEN (Socket Mode), or "
                        "SLACK_CLIENT_ID and SLACK_CLIENT_SECRET (many workspaces), and/or DISCORD_TOKEN")
    sleep = stoppable_sleep(stop) if stop is not None else None
    if settings.github_app_id is not None:
        app = AppSync(store, settings, sleep=sleep)
        stack.push_async_callback(app.aclose)
        return connections, messengers, app.sync
    github = await stack.enter_async_context(github_client(settings, sleep=sleep))
    return connections, messengers, build_syncer(store, settings, github).sync


async def _close(stack: AsyncExitStack, shutdown: Shutdown) -> None:
    """Close what the process opened (clients, the service, the store) within what is left of the deadline."""
    try:
        async with asyncio.timeout(max(0.5, shutdown.remaining() - 1.0)):
            await stack.aclose()
    except TimeoutError:
        _log.warning("closing the connections took too long; exiting without them")


async def run_engine(settings: Settings, env: Mapping[str, str] = os.environ, role: str = "all", *,
                     stop: asyncio.Event | None = None) -> None:
    """``digest-bot run --role …`` with the task engine (``bot/runtime/roles.py``, docs/scaling.md): the same
    collaborators as the single process, with the ledger's shorter engine lease (a killed worker's claim frees
    before its task runs again elsewhere)."""
    from bot.app.webhooks import build_applier
    from bot.delivery.alerts import AlertJobs
    from bot.delivery.jobs import DeliveryJobs
    from bot.delivery.ledger import Ledger
    from bot.runtime.locks import ClusterSync
    from bot.runtime.planner import EngineRunner
    from bot.runtime.roles import Assembly, run_roles
    from bot.runtime.tasks import WorkerContext
    from bot.scheduler import DigestScheduler

    conninfo = conninfo_for(settings.database_url)
    assert conninfo is not None
    engine = settings.file.engine
    async with AsyncExitStack() as stack:
        service = _open_service(stack, settings)
        store = service.store
        connections, messengers, sync = await _connect_worker(stack, service, env, stop)
        shared = ClusterSync(conninfo, sync, store.last_polled)  # one poll per repository at a time, cluster-wide
        delivery = settings.file.delivery
        grace = timedelta(hours=delivery.grace_hours)
        jobs = DeliveryJobs(service, messengers, ledger=Ledger(store, lease=timedelta(seconds=engine.lease_seconds)),
                            sync=shared)
        applier = build_applier(service)
        context = WorkerContext(jobs, alerts=AlertJobs(jobs), webhooks=applier, grace=grace, dm_batch=engine.dm_batch)

        def scheduler(runner: EngineRunner) -> DigestScheduler:
            # Its own DeliveryJobs: a planner that stops (lock lost) must not stop this process's tasks' fan-outs.
            planning = DeliveryJobs(service, messengers, ledger=jobs.ledger, sync=shared)
            return DigestScheduler(service, messengers, jobs=planning, grace=grace, webhooks=applier, runner=runner,
                                   refresh_seconds=min(60.0, engine.tick_seconds * 6))

        gateways = [c.run for c in connections if c.run is not None]
        if stop is not None:  # the caller's Shutdown owns the signals (and its watchdog bounds the exit)
            await run_roles(Assembly(conninfo, engine, context, scheduler, gateways), role, stop)
            return
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        try:
            await run_roles(Assembly(conninfo, engine, context, scheduler, gateways), role, stop)
        finally:
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.remove_signal_handler(sig)
