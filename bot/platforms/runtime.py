"""Process entry points: `digest-bot serve` (Slack over HTTP) and `digest-bot run` (the worker).

Secrets come from the environment only. Missing ones are one clear sentence, not a traceback.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections.abc import Mapping
from typing import Any

from aiohttp import web

from bot.errors import UserError
from bot.settings import Settings
from bot.store.store import Store
from bot.timeutil import iso_z

_log = logging.getLogger(__name__)


def _require(env: Mapping[str, str], *names: str) -> list[str]:
    missing = [name for name in names if not env.get(name)]
    if missing:
        raise UserError(f"set {' and '.join(missing)} in the environment (see README: Slack app)")
    return [env[name] for name in names]


async def health_report(store: Store) -> dict[str, Any]:
    def read() -> dict[str, Any]:
        repos = {repo: store.last_synced(repo) for repo in store.repos()}
        return {"ok": True, "last_sync": {repo: iso_z(when) if when else None for repo, when in repos.items()}}

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
    slack = bool(env.get("SLACK_BOT_TOKEN") and env.get("SLACK_APP_TOKEN"))
    discord = bool(env.get("DISCORD_TOKEN"))
    if not (slack or discord):
        raise UserError("nothing to run: set SLACK_BOT_TOKEN and SLACK_APP_TOKEN (Socket Mode) and/or DISCORD_TOKEN")
    store = Store.open(settings.database_url)
    tasks: list[asyncio.Task[None]] = []
    try:
        if slack:
            tasks.append(asyncio.create_task(_slack_socket_mode(settings, store, env), name="slack"))
        if discord:
            from bot.platforms import discord_app

            tasks.append(asyncio.create_task(
                discord_app.run_discord(settings, store, token=env["DISCORD_TOKEN"],
                                        guild_id=env.get("DISCORD_GUILD_ID"), api_url=env.get("DISCORD_API_URL"),
                                        gateway_url=env.get("DISCORD_GATEWAY_URL")),
                name="discord"))
        stopper = asyncio.create_task(_wait_for_signal(), name="signals")
        done, _ = await asyncio.wait([*tasks, stopper], return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            if task is not stopper and task.exception():
                raise task.exception()  # type: ignore[misc]
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        store.close()


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
