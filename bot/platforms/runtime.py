"""Process entry points: `digest-bot serve` (Slack over HTTP) and `digest-bot run` (the worker).

Secrets come from the environment only. Missing ones are one clear sentence, not a traceback.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AsyncExitStack
from datetime import timedelta
from typing import Any

from aiohttp import web

from bot.errors import UserError
from bot.settings import Settings
from bot.store.store import Store

_log = logging.getLogger(__name__)


def _require(env: Mapping[str, str], *names: str) -> list[str]:
    missing = [name for name in names if not env.get(name)]
    if missing:
        raise UserError(f"set {' and '.join(missing)} in the environment (see README: Slack app)")
    return [env[name] for name in names]


async def health_report(store: Store) -> dict[str, Any]:
    from bot.scheduler import delivery_status

    def read() -> dict[str, Any]:
        return {"ok": True, **delivery_status(store)}

    return await asyncio.to_thread(read)


async def _wait_for_signal() -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()


async def serve_http(settings: Settings, *, host: str, port: int, env: Mapping[str, str] = os.environ) -> None:
    from bot.platforms.slack_app import build_app, default_deps, web_app

    token, secret = _require(env, "SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET")
    store = Store.open(settings.database_url)
    try:
        app, _ = build_app(default_deps(store, settings), token=token, signing_secret=secret,
                           api_url=env.get("SLACK_API_URL"))
        runner = web.AppRunner(web_app(app, lambda: health_report(store)))
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        await site.start()
        _log.warning("digest-bot serving Slack on http://%s:%d/slack/events (health: /healthz)", host, port)
        try:
            await _wait_for_signal()
        finally:
            await runner.cleanup()
    finally:
        store.close()


async def run_worker(settings: Settings, env: Mapping[str, str] = os.environ) -> None:
    """One process: sync every followed repository, post channel digests and DMs on schedule, and host the
    chat connections (Slack Socket Mode and/or Discord). Run exactly one (APScheduler's rule); the delivery
    ledger keeps a second one started by mistake from double-posting."""
    from bot.delivery.ledger import Ledger
    from bot.github.client import GitHubClient
    from bot.github.sync import Syncer
    from bot.scheduler import DigestScheduler
    from bot.service import taxonomy_for_sync
    from bot.store.chat import ChatState

    slack_posting = bool(env.get("SLACK_BOT_TOKEN"))
    slack_socket = slack_posting and bool(env.get("SLACK_APP_TOKEN"))
    discord = bool(env.get("DISCORD_TOKEN"))
    if not (slack_posting or discord):
        raise UserError("nothing to run: set SLACK_BOT_TOKEN and SLACK_APP_TOKEN (Socket Mode) and/or DISCORD_TOKEN")
    store = Store.open(settings.database_url)
    tasks: list[asyncio.Task[None]] = []
    async with AsyncExitStack() as stack:
        stack.callback(store.close)
        messengers: dict[str, Any] = {}
        closers: list[Callable[[], Awaitable[object]]] = []
        if slack_posting:
            # Posting needs only the bot token; Socket Mode (commands) also needs the app token. With
            # `digest-bot serve` elsewhere, this worker posts through the Web API alone.
            import aiohttp

            from bot.platforms.slack_app import SlackMessenger, build_client

            slack_client = build_client(env["SLACK_BOT_TOKEN"], env.get("SLACK_API_URL"))
            slack_client.session = aiohttp.ClientSession()  # one connection pool, not one per message
            closers.append(slack_client.session.close)
            messengers["slack"] = SlackMessenger(slack_client, ChatState(store))
        bot = None
        if discord:
            from bot.platforms.discord_app import DigestBot

            bot = await stack.enter_async_context(DigestBot(
                settings, store, guild_id=env.get("DISCORD_GUILD_ID"), api_url=env.get("DISCORD_API_URL"),
                gateway_url=env.get("DISCORD_GATEWAY_URL")))
            await bot.login(env["DISCORD_TOKEN"])
            messengers["discord"] = bot.messenger
        github = GitHubClient(api_url=settings.github_api_url, token=settings.github_token,
                              timeout=settings.sync.timeout_seconds, max_retries=settings.sync.max_retries,
                              max_rate_limit_wait=settings.sync.max_rate_limit_wait_seconds)
        closers.append(github.aclose)
        syncer = Syncer(store, github, is_bot=settings.is_bot,
                        lookback=timedelta(days=settings.sync.lookback_days),
                        overlap=timedelta(seconds=settings.sync.overlap_seconds),
                        taxonomy=taxonomy_for_sync(settings))
        delivery = settings.file.delivery
        ledger = Ledger(store, lease=timedelta(seconds=delivery.lease_seconds))
        try:
            async with DigestScheduler(store, settings, messengers, sync=syncer.sync, on_stop=closers,
                                       ledger=ledger, grace=timedelta(hours=delivery.grace_hours)):
                if slack_socket:
                    tasks.append(asyncio.create_task(_slack_socket_mode(settings, store, env), name="slack"))
                if bot is not None:
                    tasks.append(asyncio.create_task(bot.connect(), name="discord"))
                stopper = asyncio.create_task(_wait_for_signal(), name="signals")
                done, _ = await asyncio.wait([*tasks, stopper], return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    if task is not stopper and task.exception():
                        raise task.exception()  # type: ignore[misc]
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


async def _slack_socket_mode(settings: Settings, store: Store, env: Mapping[str, str]) -> None:
    from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

    from bot.platforms.slack_app import build_app, default_deps

    token, app_token = _require(env, "SLACK_BOT_TOKEN", "SLACK_APP_TOKEN")
    # Socket Mode requests are not signed (the socket is authenticated by the app token).
    app, _ = build_app(default_deps(store, settings), token=token, signing_secret=None,
                       api_url=env.get("SLACK_API_URL"))
    handler = AsyncSocketModeHandler(app, app_token)
    try:
        await handler.start_async()
    finally:
        await handler.close_async()
