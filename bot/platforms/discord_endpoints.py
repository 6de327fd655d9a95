"""Where one Discord client sends its REST calls and opens its gateway (``DISCORD_API_URL``/``DISCORD_GATEWAY_URL``,
for proxies and the tests' fake Discord), per client: nothing process-wide is changed.

discord.py has no setting for either, so this module is the one place that knows how it builds them
(checked by ``check_internals`` when a client is set up; re-read this when upgrading discord.py):

- REST: every URL is ``Route(...).url``, which ``Route.__init__`` builds as ``Route.BASE + path``, and the
  client's ``HTTPClient.request(route)`` sends it. ``EndpointHTTPClient.request`` sends a copy of the route
  with the configured base instead. ``install(client, endpoints)`` puts one in place of the client's
  ``HTTPClient`` (``Client.http``, shared with ``Client._connection.http``) before anything has used it.
- Gateway: ``Client.connect()`` opens every gateway connection through ``client.http.ws_connect(url)`` with
  ``DiscordWebSocket.DEFAULT_GATEWAY`` (first connection, after INVALID_SESSION) or READY's
  ``resume_gateway_url`` (resumes). ``EndpointHTTPClient.ws_connect`` opens the configured gateway with the
  same query (``v``, ``encoding``, ``compress``), so a proxy stays in the path on resumes too. A DigestBot
  never joins voice (whose websockets would come through here as well).
- Interaction callbacks and webhook follow-ups do not go through ``HTTPClient.request``: discord.py sends them
  with the webhook adapter held by the context variable ``discord.webhook.async_.async_context`` (its way to
  choose one), on the client's aiohttp session, again to ``Route(...).url``. ``http.use_for_webhooks()`` sets
  that variable to the client's ``EndpointWebhookAdapter`` in the current context (the asyncio task, and the
  tasks it starts later). DigestTree calls it in ``interaction_check``, which discord.py awaits first in the
  task that handles an interaction, before anything answers it.

Several clients in one process may use different endpoints.
"""

from __future__ import annotations

import asyncio
import copy
import inspect
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import discord.interactions
import discord.webhook.async_
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import HTTPClient, Route
from discord.webhook.async_ import AsyncWebhookAdapter

DEFAULT_API_URL = "https://discord.com/api/v10"
DEFAULT_GATEWAY_URL = "wss://gateway.discord.gg/"


@dataclass(frozen=True)
class Endpoints:
    api: str = DEFAULT_API_URL  # REST base, with the API version: https://discord.com/api/v10
    gateway: str = DEFAULT_GATEWAY_URL

    @classmethod
    def parse(cls, api_url: str | None, gateway_url: str | None) -> Endpoints:
        api = (api_url or DEFAULT_API_URL).strip().rstrip("/")
        gateway = (gateway_url or DEFAULT_GATEWAY_URL).strip()
        if not api.startswith(("https://", "http://")):
            raise ValueError(f"DISCORD_API_URL must be an http(s) URL such as {DEFAULT_API_URL}, got {api!r}")
        if not gateway.startswith(("wss://", "ws://")):
            raise ValueError(f"DISCORD_GATEWAY_URL must be a ws(s) URL such as {DEFAULT_GATEWAY_URL}, "
                             f"got {gateway!r}")
        return cls(api, gateway)

    def rest_url(self, url: str) -> str:
        """A URL built by ``Route`` (``Route.BASE`` + path), on this REST base."""
        base = Route.BASE
        if self.api == base or not url.startswith(base):
            return url
        return self.api + url[len(base):]

    def gateway_url(self, url: str) -> str:
        """Where to open a gateway connection discord.py opens at ``url``: the configured gateway, with the
        query discord.py chose (version, encoding, compression). Unchanged when no gateway is configured, so
        resumes use Discord's ``resume_gateway_url`` as Discord asks."""
        if self.gateway == DEFAULT_GATEWAY_URL:
            return url
        return str(yarl.URL(self.gateway).update_query(yarl.URL(url).query))


class EndpointWebhookAdapter(AsyncWebhookAdapter):
    """discord.py's webhook adapter (interaction callbacks, follow-ups) sending to ``endpoints``."""

    def __init__(self, endpoints: Endpoints) -> None:
        super().__init__()
        self.endpoints = endpoints

    async def request(self, route: Route, session: aiohttp.ClientSession, **kwargs: Any) -> Any:
        return await super().request(_on(self.endpoints, route), session, **kwargs)


class EndpointHTTPClient(HTTPClient):
    """discord.py's HTTP client sending to ``endpoints``: REST (``request``) and the gateway (``ws_connect``);
    ``use_for_webhooks()`` points the interaction callbacks and follow-ups of the current task there too."""

    def __init__(self, loop: asyncio.AbstractEventLoop, endpoints: Endpoints, **options: Any) -> None:
        super().__init__(loop, **options)
        self.endpoints = endpoints
        self.webhooks = EndpointWebhookAdapter(endpoints)

    async def request(self, route: Route, **kwargs: Any) -> Any:
        return await super().request(_on(self.endpoints, route), **kwargs)

    async def ws_connect(self, url: str, *, compress: int = 0) -> aiohttp.ClientWebSocketResponse:
        return await super().ws_connect(self.endpoints.gateway_url(url), compress=compress)

    def use_for_webhooks(self) -> None:
        """Interaction callbacks and follow-ups sent from the current context (the asyncio task, and the tasks
        it starts from now on) go to these endpoints. Nothing else is affected."""
        _webhook_context().set(self.webhooks)


def _on(endpoints: Endpoints, route: Route) -> Route:
    url = endpoints.rest_url(route.url)
    if url == route.url:
        return route
    moved = copy.copy(route)  # discord.py's own object stays as it built it
    moved.url = url
    return moved


def install(client: discord.Client, endpoints: Endpoints) -> EndpointHTTPClient:
    """Give ``client`` an ``EndpointHTTPClient`` with the same options: call right after
    ``discord.Client.__init__``, before anything (a command tree, a login) has used ``client.http``.
    Raises RuntimeError if discord.py's internals moved."""
    check_internals()
    old = client.http
    if type(old) is not HTTPClient or getattr(client._connection, "http", None) is not old or old.token:
        raise RuntimeError(_moved("a fresh Client's http (Client.http is Client._connection.http)"))
    http = EndpointHTTPClient(old.loop, endpoints, connector=old.connector or None, proxy=old.proxy,
                              proxy_auth=old.proxy_auth, unsync_clock=not old.use_clock, http_trace=old.http_trace,
                              max_ratelimit_timeout=old.max_ratelimit_timeout)
    client.http = client._connection.http = http
    return http


def _webhook_context() -> ContextVar[AsyncWebhookAdapter]:
    return discord.webhook.async_.async_context


def _moved(what: str) -> str:
    return (f"discord.py {discord.__version__}: {what} is not as bot/platforms/discord_endpoints.py expects; "
            "the DISCORD_API_URL / DISCORD_GATEWAY_URL overrides need updating for this version")


def check_internals() -> None:
    """What this module relies on, checked when a client is set up: a clear error instead of requests going
    to discord.com (or nowhere) after a discord.py upgrade."""
    try:
        url = Route("GET", "/channels/{channel_id}", channel_id=1).url
    except (AttributeError, TypeError):
        url = None
    if not isinstance(Route.__dict__.get("BASE"), str) or url != Route.BASE + "/channels/1":
        raise RuntimeError(_moved("Route.url (Route.BASE + path)"))
    for owner, name, first in ((HTTPClient, "request", "route"), (HTTPClient, "ws_connect", "url"),
                               (AsyncWebhookAdapter, "request", "route")):
        method = getattr(owner, name, None)
        parameters = list(inspect.signature(method).parameters) if inspect.iscoroutinefunction(method) else []
        if parameters[1:2] != [first]:
            raise RuntimeError(_moved(f"{owner.__name__}.{name}({first}, …)"))
    context = getattr(discord.webhook.async_, "async_context", None)
    try:
        adapter = context.get() if isinstance(context, ContextVar) else None
    except LookupError:  # no default adapter
        adapter = None
    if not isinstance(adapter, AsyncWebhookAdapter) or getattr(discord.interactions, "async_context", None) is not (
        context
    ):
        raise RuntimeError(_moved("the webhook adapter's context variable (discord.webhook.async_.async_context)"))
    try:
        source = inspect.getsource(DiscordWebSocket.from_client)
    except (OSError, TypeError):  # no source installed: the tests against the fake gateway are the check
        return
    if "client.http.ws_connect(" not in source:
        raise RuntimeError(_moved("DiscordWebSocket.from_client opening the gateway with client.http.ws_connect"))
