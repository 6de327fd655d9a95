"""Which chat platforms a process runs, from the environment: each gives a messenger, web routes and/or a
long-lived connection. ``digest-bot serve`` and ``digest-bot run`` assemble themselves from this list.

Adding a platform is one factory here; the processes, the scheduler and the web application do not change.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from typing import Any, Literal

from aiohttp import web

from bot.app.messenger import Messenger
from bot.app.service import DigestService
from bot.errors import UserError

_log = logging.getLogger(__name__)

Mode = Literal["serve", "worker"]  # the web process | the worker (scheduler, sockets)


@dataclass
class Connection:
    """One platform as this process uses it."""

    name: str
    messenger: Messenger | None = None  # posts digests and DMs (the scheduler's)
    routes: list[web.RouteDef] = field(default_factory=list)  # served by the one web application
    run: Callable[[], Coroutine[Any, Any, None]] | None = None  # a long-lived connection (Socket Mode, the gateway)


PlatformFactory = Callable[[DigestService, Mapping[str, str], AsyncExitStack, Mode], Awaitable[Connection | None]]


def require(env: Mapping[str, str], *names: str) -> list[str]:
    missing = [name for name in names if not env.get(name)]
    if missing:
        raise UserError(f"set {' and '.join(missing)} in the environment (see README: Slack app)")
    return [env[name] for name in names]


async def slack(service: DigestService, env: Mapping[str, str], stack: AsyncExitStack,
                mode: Mode) -> Connection | None:
    """HTTP mode in the web process (token + signing secret); in the worker, posting with the bot token and,
    with ``SLACK_APP_TOKEN``, the commands over Socket Mode (no public URL)."""
    import aiohttp

    from bot.platforms.slack_app import SlackMessenger, build_app, build_client, default_deps, slack_routes

    if oauth_mode(env):
        return await _slack_oauth(service, env, stack, mode)
    if mode == "serve":
        if not env.get("SLACK_BOT_TOKEN") and not env.get("SLACK_SIGNING_SECRET") and (
                env.get("GITHUB_WEBHOOK_SECRET") or env.get("REPORTS_SECRET") or service.settings.file.reports.public):
            return None  # a web process for GitHub webhooks or report pages only (a Discord-only deployment)
        token, secret = require(env, "SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET")
        app, deps = build_app(default_deps(service), token=token, signing_secret=secret,
                              api_url=env.get("SLACK_API_URL"))
        return Connection("slack", messenger=deps.messenger, routes=slack_routes(app))
    if not env.get("SLACK_BOT_TOKEN"):
        return None
    client = build_client(env["SLACK_BOT_TOKEN"], env.get("SLACK_API_URL"))
    client.session = aiohttp.ClientSession()  # one connection pool, not one per message
    stack.push_async_callback(client.session.close)
    connection = Connection("slack", messenger=SlackMessenger(client))
    if env.get("SLACK_APP_TOKEN"):
        connection.run = lambda: _slack_socket_mode(service, env)
    return connection


def oauth_mode(env: Mapping[str, str]) -> bool:
    """Many workspaces (the OAuth install flow) rather than one ``SLACK_BOT_TOKEN``."""
    return bool(env.get("SLACK_CLIENT_ID") and env.get("SLACK_CLIENT_SECRET"))


async def _slack_oauth(service: DigestService, env: Mapping[str, str], stack: AsyncExitStack,
                       mode: Mode) -> Connection:
    """Web: bolt's install flow and the commands of every installed workspace. Worker: posts and DMs with
    each workspace's own token (no Socket Mode: commands come over HTTP)."""
    import aiohttp

    from bot.platforms.slack_app import slack_routes
    from bot.platforms.slack_oauth import SlackTeamsMessenger, build_oauth_app, oauth_routes, open_stores, store_team_of

    client_id, client_secret = require(env, "SLACK_CLIENT_ID", "SLACK_CLIENT_SECRET")
    if env.get("SLACK_BOT_TOKEN"):
        _log.warning("SLACK_CLIENT_ID is set: serving every installed workspace; SLACK_BOT_TOKEN is not used")
    if mode == "serve":
        (secret,) = require(env, "SLACK_SIGNING_SECRET")
        app, deps = build_oauth_app(service, client_id=client_id, client_secret=client_secret, signing_secret=secret,
                                    encryption_key=env.get("TOKEN_ENCRYPTION_KEY"), api_url=env.get("SLACK_API_URL"))
        return Connection("slack", messenger=deps.messenger, routes=[*slack_routes(app), *oauth_routes(app)])
    if env.get("SLACK_APP_TOKEN"):
        _log.warning("SLACK_APP_TOKEN is not used with SLACK_CLIENT_ID: commands come to `digest-bot serve`")
    installations, _ = open_stores(service.store.engine, client_id, env.get("TOKEN_ENCRYPTION_KEY"))
    session = aiohttp.ClientSession()  # one connection pool for every workspace's client
    stack.push_async_callback(session.close)
    return Connection("slack", messenger=SlackTeamsMessenger(installations, store_team_of(service),
                                                             api_url=env.get("SLACK_API_URL"), session=session))


async def _slack_socket_mode(service: DigestService, env: Mapping[str, str]) -> None:
    from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

    from bot.platforms.slack_app import build_app, default_deps

    token, app_token = require(env, "SLACK_BOT_TOKEN", "SLACK_APP_TOKEN")
    # Socket Mode requests are not signed (the socket is authenticated by the app token).
    app, _ = build_app(default_deps(service), token=token, signing_secret=None, api_url=env.get("SLACK_API_URL"))
    handler = AsyncSocketModeHandler(app, app_token)
    try:
        await handler.start_async()
    finally:
        await handler.close_async()


async def discord(service: DigestService, env: Mapping[str, str], stack: AsyncExitStack,
                  mode: Mode) -> Connection | None:
    """The worker logs in over REST (the scheduler's messenger) and keeps the gateway open for the commands."""
    if mode != "worker" or not env.get("DISCORD_TOKEN"):
        return None
    from bot.platforms.discord_app import DigestBot

    bot = await stack.enter_async_context(DigestBot(
        service, guild_id=env.get("DISCORD_GUILD_ID"), api_url=env.get("DISCORD_API_URL"),
        gateway_url=env.get("DISCORD_GATEWAY_URL")))
    await bot.login(env["DISCORD_TOKEN"])
    return Connection("discord", messenger=bot.messenger, run=bot.connect)


async def github(service: DigestService, env: Mapping[str, str], stack: AsyncExitStack,
                 mode: Mode) -> Connection | None:
    """``POST /github/webhook`` in the web process, only with ``GITHUB_WEBHOOK_SECRET`` (the worker retries
    deliveries that failed to apply: ``bot/scheduler.py``)."""
    secret = env.get("GITHUB_WEBHOOK_SECRET")
    if mode != "serve" or not secret:
        return None
    from bot.app.webhooks import build_applier
    from bot.platforms.github_webhooks import webhook_routes

    return Connection("github", routes=webhook_routes(build_applier(service), secret))


PLATFORMS: dict[str, PlatformFactory] = {"slack": slack, "discord": discord, "github": github}


async def connect(service: DigestService, env: Mapping[str, str], stack: AsyncExitStack,
                  mode: Mode) -> list[Connection]:
    """Every platform the environment configures for this process; its resources close with ``stack``."""
    connections = []
    for factory in PLATFORMS.values():
        connection = await factory(service, env, stack, mode)
        if connection is not None:
            connections.append(connection)
    return connections
