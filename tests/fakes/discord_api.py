"""A fake Discord on 127.0.0.1: the REST API (``/api/v10``) and a gateway (``/gateway``) on one aiohttp server.

Point the real discord.py at it with ``DigestBot(api_url=fake.api_url, gateway_url=fake.gateway_url)``.

REST: records every request (``fake.requests``, with the route template, body and what was answered) and
answers like Discord: messages, threads on messages, DM channels, interaction callbacks (``with_response``),
webhook follow-ups (only after the interaction's callback, as on Discord: else 404/10015; a second callback
is 400/40060), command syncs. Unknown channels are 404 with code 10003. ``fail()`` makes a route answer an
error with a Discord JSON error code; ``rate_limit()`` answers 429 with ``retry_after`` in the body and the
``Retry-After``/``X-RateLimit-*``/``Via`` headers Discord sends (discord.py treats a 429 without ``Via`` as a
Cloudflare ban and does not retry it); ``closed_dms`` makes sends to a user's DM channel 403/50007.
``server_error(..., acted=True)`` creates the message and then answers 5xx. A message sent with a ``nonce`` and
``enforce_nonce`` is remembered: the same nonce in the same channel within ``nonce_window`` seconds gets the
first message back (200) instead of a new one, as on Discord. ``stored(channel)`` is what exists.

Gateway: plain JSON text frames. HELLO; heartbeat -> ACK; IDENTIFY -> READY (with a deliberately useless
``resume_gateway_url``) and one GUILD_CREATE; RESUME -> RESUMED. ``dispatch()`` sends an event (e.g.
INTERACTION_CREATE), ``reconnect()`` sends op 7. Each connection's query (``v``, ``encoding``, …) is kept in
``gateway_connections``.

Waiting is event-driven: ``wait_for(predicate)`` blocks on an ``asyncio.Condition`` notified by every request
and gateway frame, with a timeout; never on a sleep. Run it in the test's event loop (``async with``).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web
from aiohttp.test_utils import TestServer

PREFIX = "/api/v10"
APP_ID = 1100000000000000001
BOT_ID = 1100000000000000002
GUILD_ID = 1100000000000000003
CHANNEL_ID = 1100000000000000004  # a text channel in GUILD_ID
OWNER_ID = 1100000000000000005
TIMESTAMP = "2025-12-02T04:00:00.000000+00:00"

BOT_USER = {"id": str(BOT_ID), "username": "digest-bot", "discriminator": "0", "global_name": None,
            "avatar": None, "bot": True}


def user(user_id: int | str, name: str = "alice") -> dict[str, Any]:
    return {"id": str(user_id), "username": name, "discriminator": "0", "global_name": name, "avatar": None}


def text_channel(channel_id: int, guild_id: int = GUILD_ID, name: str = "general") -> dict[str, Any]:
    return {"id": str(channel_id), "type": 0, "guild_id": str(guild_id), "name": name, "position": 0,
            "permission_overwrites": [], "nsfw": False, "parent_id": None, "topic": None,
            "rate_limit_per_user": 0, "last_message_id": None}


def role(role_id: int, name: str, permissions: int = 0) -> dict[str, Any]:
    return {"id": str(role_id), "name": name, "permissions": str(permissions), "position": 0, "color": 0,
            "hoist": False, "managed": False, "mentionable": False, "flags": 0}


def guild_payload(guild_id: int = GUILD_ID, roles: list[dict[str, Any]] | None = None,
                  channels: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    everyone = role(guild_id, "@everyone", 0)
    return {"id": str(guild_id), "name": "Test server", "icon": None, "owner_id": str(OWNER_ID),
            "roles": [everyone, *(roles or [])], "channels": channels or [text_channel(CHANNEL_ID, guild_id)],
            "members": [], "threads": [], "emojis": [], "stickers": [], "features": [], "member_count": 2,
            "large": False, "unavailable": False, "premium_tier": 0, "preferred_locale": "en-US",
            "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
            "mfa_level": 0, "afk_timeout": 300, "system_channel_flags": 0, "nsfw_level": 0}


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # Exactly "application/json", as Discord sends it: discord.py's json_or_text() parses nothing else
    # (aiohttp's json_response would add "; charset=utf-8" and discord.py would see a string).
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json", **(headers or {})})


@dataclass
class Request:
    method: str
    route: str  # "POST /channels/{channel_id}/messages": the template, without /api/v10
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    headers: dict[str, str]
    status: int = 0  # what the fake answered

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300


RECORD = web.RequestKey("record", Request)


@dataclass
class Fault:
    status: int
    body: dict[str, Any]
    headers: dict[str, str]
    times: int
    when: Callable[[Request], bool] | None
    acted: bool = False  # do the work first, then answer the fault


@dataclass
class FakeDiscord:
    guild: dict[str, Any] = field(default_factory=guild_payload)
    closed_dms: set[str] = field(default_factory=set)  # user ids whose DMs refuse the bot (50007)
    nonce_window: float = 300.0  # seconds a nonce sent with enforce_nonce returns its first message

    def __post_init__(self) -> None:
        self.requests: list[Request] = []
        self.frames: list[dict[str, Any]] = []  # what the client sent on the gateway
        self.gateway_connections: list[dict[str, str]] = []  # each gateway connection's query (v, encoding, …)
        self.channels: dict[str, dict[str, Any]] = {c["id"]: dict(c, guild_id=self.guild["id"])
                                                    for c in self.guild["channels"]}
        self.messages: dict[str, dict[str, Any]] = {}
        self._nonces: dict[tuple[str, str], tuple[str, float]] = {}  # (channel, nonce) -> (message id, when)
        self.acknowledged: set[str] = set()  # interaction tokens that got their callback
        self._faults: dict[str, list[Fault]] = {}
        self._ids = itertools.count(1300000000000000000)
        self._seq = itertools.count(1)
        self._cond: asyncio.Condition | None = None
        self._ws: web.WebSocketResponse | None = None
        self._open: set[web.WebSocketResponse] = set()  # every gateway connection still open
        self._server: TestServer | None = None

    # --- lifecycle ---

    async def __aenter__(self) -> FakeDiscord:
        self._cond = asyncio.Condition()
        app = web.Application(middlewares=[self._middleware])
        app.on_shutdown.append(self._close_gateway)
        app.add_routes([
            web.get(PREFIX + "/users/@me", self._me),
            web.get(PREFIX + "/oauth2/applications/@me", self._application),
            web.get(PREFIX + "/gateway/bot", self._gateway_bot),
            web.put(PREFIX + "/applications/{application_id}/commands", self._sync),
            web.put(PREFIX + "/applications/{application_id}/guilds/{guild_id}/commands", self._sync),
            web.get(PREFIX + "/channels/{channel_id}", self._get_channel),
            web.post(PREFIX + "/channels/{channel_id}/messages", self._post_message),
            web.post(PREFIX + "/channels/{channel_id}/messages/{message_id}/threads", self._start_thread),
            web.post(PREFIX + "/users/@me/channels", self._open_dm),
            web.post(PREFIX + "/interactions/{interaction_id}/{token}/callback", self._callback),
            web.post(PREFIX + "/webhooks/{application_id}/{token}", self._follow_up),
            web.get("/gateway", self._gateway),
        ])
        self._server = TestServer(app, host="127.0.0.1")
        await self._server.start_server()
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        await self._server.close()

    async def _close_gateway(self, app: web.Application) -> None:
        # aiohttp's shutdown waits up to 60 s for running handlers, and an open websocket's handler runs until
        # the client hangs up: a client that reconnected just before the port closed used to hold it that long.
        for ws in list(self._open):
            await ws.close()

    @property
    def base_url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.port}"

    @property
    def api_url(self) -> str:
        return self.base_url + PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self._server.port if self._server else 0}/gateway"

    # --- control ---

    def fail(self, route: str, status: int, code: int, *, message: str = "error", times: int = 1,
             when: Callable[[Request], bool] | None = None) -> None:
        """Answer ``route`` (e.g. ``"POST /channels/{channel_id}/messages"``) with a Discord JSON error."""
        self._faults.setdefault(route, []).append(Fault(status, {"message": message, "code": code}, {}, times, when))

    def rate_limit(self, route: str, *, retry_after: float = 0.05, times: int = 1, is_global: bool = False) -> None:
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global}
        headers = {"Retry-After": str(max(1, round(retry_after))), "X-RateLimit-Limit": "5",
                   "X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": str(retry_after),
                   "X-RateLimit-Bucket": "fakebucket", "X-RateLimit-Scope": "user", "Via": "1.1 google"}
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        self._faults.setdefault(route, []).append(Fault(429, body, headers, times, None))

    def server_error(self, route: str, *, status: int = 502, times: int = 1, acted: bool = False,
                     when: Callable[[Request], bool] | None = None) -> None:
        """Answer ``status``; with ``acted`` after doing the work (the message exists all the same)."""
        self._faults.setdefault(route, []).append(
            Fault(status, {"message": "upstream error", "code": 0}, {}, times, when, acted=acted))

    async def wait_for(self, predicate: Callable[[FakeDiscord], Any], within: float = 60) -> Any:
        """The first truthy ``predicate(self)``, re-checked after every request and gateway frame."""
        assert self._cond is not None
        async with self._cond:
            return await asyncio.wait_for(self._cond.wait_for(lambda: predicate(self)), within)

    async def wait_request(self, route: str, *, count: int = 1, within: float = 60) -> Request:
        """The ``count``-th answered request to ``route``."""
        def found(fake: FakeDiscord) -> Request | None:
            done = fake.calls(route, ok=None)
            return done[count - 1] if len(done) >= count else None

        return await self.wait_for(found, within)

    async def _notify(self) -> None:
        assert self._cond is not None
        async with self._cond:
            self._cond.notify_all()

    # --- what arrived ---

    def calls(self, route: str, *, ok: bool | None = True) -> list[Request]:
        return [r for r in self.requests if r.route == route and r.status and (ok is None or r.ok == ok)]

    def posted(self, channel_id: int | str) -> list[dict[str, Any]]:
        """Bodies of the messages that arrived in a channel (or thread, or DM channel)."""
        return [r.body for r in self.calls("POST /channels/{channel_id}/messages")
                if r.params["channel_id"] == str(channel_id)]

    @property
    def threads(self) -> list[Request]:
        return self.calls("POST /channels/{channel_id}/messages/{message_id}/threads")

    @property
    def callbacks(self) -> list[dict[str, Any]]:
        return [r.body for r in self.calls("POST /interactions/{interaction_id}/{token}/callback")]

    @property
    def follow_ups(self) -> list[dict[str, Any]]:
        return [r.body for r in self.calls("POST /webhooks/{application_id}/{token}")]

    def stored(self, channel_id: int | str) -> list[dict[str, Any]]:
        """Messages that exist in a channel (created, whatever the sender was told), oldest first."""
        return [m for m in self.messages.values() if m["channel_id"] == str(channel_id)]

    def dm_channel(self, user_id: int | str) -> str | None:
        return next((cid for cid, c in self.channels.items()
                     if c["type"] == 1 and c["recipients"][0]["id"] == str(user_id)), None)

    # --- REST ---

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Callable[..., Any]) -> web.StreamResponse:
        if request.path == "/gateway":
            return await handler(request)
        info = request.match_info
        template = info.route.resource.canonical if info.route.resource is not None else request.path
        raw = await request.read()
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        record = Request(request.method, f"{request.method} {template.removeprefix(PREFIX)}", dict(info),
                         dict(request.query), body, dict(request.headers))
        self.requests.append(record)
        request[RECORD] = record
        try:
            fault = self._fault(record)
            if fault is None:
                response = await handler(request)
            else:
                if fault.acted:
                    await handler(request)
                response = _json(fault.body, status=fault.status, headers=fault.headers)
            record.status = response.status
            return response
        finally:
            if not record.status:
                record.status = 500
            await self._notify()

    def _fault(self, record: Request) -> Fault | None:
        for fault in self._faults.get(record.route, []):
            if fault.times > 0 and (fault.when is None or fault.when(record)):
                fault.times -= 1
                return fault
        return None

    @staticmethod
    def _body(request: web.Request) -> Any:
        return request[RECORD].body

    @staticmethod
    def _error(status: int, code: int, message: str) -> web.Response:
        return _json({"message": message, "code": code}, status=status)

    async def _me(self, request: web.Request) -> web.Response:
        return _json(BOT_USER)

    async def _application(self, request: web.Request) -> web.Response:
        return _json({
            "id": str(APP_ID), "name": "digest-bot", "description": "", "icon": None, "bot_public": False,
            "bot_require_code_grant": False, "owner": user(OWNER_ID, "owner"), "verify_key": "0" * 64,
            "flags": 0, "interactions_endpoint_url": None, "summary": "", "team": None,
        })

    async def _gateway_bot(self, request: web.Request) -> web.Response:
        return _json({"url": self.gateway_url, "shards": 1, "session_start_limit": {
            "total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}})

    async def _sync(self, request: web.Request) -> web.Response:
        commands = [dict(command, id=str(next(self._ids)), application_id=str(APP_ID), version="1",
                         default_member_permissions=command.get("default_member_permissions"))
                    for command in self._body(request) or []]
        return _json(commands)

    async def _get_channel(self, request: web.Request) -> web.Response:
        channel = self.channels.get(request.match_info["channel_id"])
        if channel is None:
            return self._error(404, 10003, "Unknown Channel")
        return _json(channel)

    async def _post_message(self, request: web.Request) -> web.Response:
        channel_id = request.match_info["channel_id"]
        channel = self.channels.get(channel_id)
        if channel is None:
            return self._error(404, 10003, "Unknown Channel")
        if channel["type"] == 1 and channel["recipients"][0]["id"] in self.closed_dms:
            return self._error(403, 50007, "Cannot send messages to this user")
        body = self._body(request) or {}
        nonce = str(body["nonce"]) if body.get("nonce") is not None else None
        if nonce is not None and body.get("enforce_nonce"):
            # As Discord: the same nonce in the same channel within a few minutes gets the first message back.
            seen = self._nonces.get((channel_id, nonce))
            if seen is not None and time.monotonic() - seen[1] < self.nonce_window:
                return _json(self.messages[seen[0]])
        message = self._message(channel_id, body, channel.get("guild_id"))
        if nonce is not None:
            message["nonce"] = nonce
            self._nonces[(channel_id, nonce)] = (message["id"], time.monotonic())
        self.messages[message["id"]] = message
        return _json(message)

    async def _start_thread(self, request: web.Request) -> web.Response:
        channel_id, message_id = request.match_info["channel_id"], request.match_info["message_id"]
        channel = self.channels.get(channel_id)
        if channel is None:
            return self._error(404, 10003, "Unknown Channel")
        if channel["type"] not in (0, 5):
            return self._error(400, 50024, "Cannot execute action on this channel type")
        if message_id not in self.messages:
            return self._error(404, 10008, "Unknown Message")
        body = self._body(request) or {}
        thread = {"id": message_id, "type": 11, "guild_id": channel["guild_id"], "parent_id": channel_id,
                  "name": body.get("name", ""), "owner_id": str(BOT_ID), "message_count": 0, "member_count": 1,
                  "rate_limit_per_user": 0, "last_message_id": None, "flags": 0,
                  "thread_metadata": {"archived": False, "auto_archive_duration": body.get("auto_archive_duration",
                                                                                            1440),
                                      "archive_timestamp": TIMESTAMP, "locked": False}}
        self.channels[message_id] = thread  # Discord gives the thread the id of its starter message
        return _json(thread, status=201)

    async def _open_dm(self, request: web.Request) -> web.Response:
        user_id = str((self._body(request) or {}).get("recipient_id"))
        channel_id = self.dm_channel(user_id)
        if channel_id is None:
            channel_id = str(next(self._ids))
            self.channels[channel_id] = {"id": channel_id, "type": 1, "last_message_id": None,
                                         "recipients": [user(user_id)]}
        return _json(self.channels[channel_id])

    async def _callback(self, request: web.Request) -> web.Response:
        token = request.match_info["token"]
        if token in self.acknowledged:
            return self._error(400, 40060, "Interaction has already been acknowledged.")
        self.acknowledged.add(token)
        body = self._body(request) or {}
        data = body.get("data") or {}
        return _json({
            "interaction": {"id": request.match_info["interaction_id"], "type": 2,
                            "response_message_loading": body.get("type") == 5,
                            "response_message_ephemeral": bool((data.get("flags") or 0) & 64)},
            "resource": {"type": body.get("type")},
        })

    async def _follow_up(self, request: web.Request) -> web.Response:
        if request.match_info["token"] not in self.acknowledged:  # no initial response: no webhook yet
            return self._error(404, 10015, "Unknown Webhook")
        message = self._message(str(CHANNEL_ID), self._body(request) or {}, None)
        message.update(webhook_id=request.match_info["application_id"], application_id=str(APP_ID))
        return _json(message)

    def _message(self, channel_id: str, body: dict[str, Any], guild_id: str | None) -> dict[str, Any]:
        message = {"id": str(next(self._ids)), "channel_id": channel_id, "author": BOT_USER, "type": 0,
                   "content": body.get("content") or "", "embeds": body.get("embeds") or [],
                   "timestamp": TIMESTAMP, "edited_timestamp": None, "tts": False, "mention_everyone": False,
                   "mentions": [], "mention_roles": [], "attachments": [], "pinned": False,
                   "flags": body.get("flags") or 0, "components": []}
        if guild_id:
            message["guild_id"] = guild_id
        return message

    # --- gateway ---

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._ws = ws
        self._open.add(ws)
        try:
            self.gateway_connections.append(dict(request.query))
            await ws.send_json({"op": 10, "d": {"heartbeat_interval": 45000}, "s": None, "t": None})
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                self.frames.append(frame)
                op = frame.get("op")
                if op == 1:
                    await ws.send_json({"op": 11, "d": None, "s": None, "t": None})
                elif op == 2:
                    await self._send(ws, "READY", {
                        "v": 10, "user": BOT_USER, "session_id": "fake-session", "guilds": [
                            {"id": self.guild["id"], "unavailable": True}],
                        # a resume URL nothing listens on: resuming must still go to the configured gateway
                        "resume_gateway_url": "ws://127.0.0.1:9/nowhere",
                        "application": {"id": str(APP_ID), "flags": 0},
                    })
                    await self._send(ws, "GUILD_CREATE", self.guild)
                elif op == 6:
                    await self._send(ws, "RESUMED", {})
                await self._notify()
        finally:
            self._open.discard(ws)
        return ws

    async def _send(self, ws: web.WebSocketResponse, event: str, data: Any) -> None:
        await ws.send_json({"op": 0, "t": event, "s": next(self._seq), "d": data})

    def gateway_ops(self, op: int) -> list[dict[str, Any]]:
        return [frame for frame in self.frames if frame.get("op") == op]

    async def dispatch(self, event: str, data: Any) -> None:
        assert self._ws is not None, "no gateway connection"
        await self._send(self._ws, event, data)

    async def reconnect(self) -> None:
        """Op 7: the client closes this connection and resumes on a new one."""
        assert self._ws is not None, "no gateway connection"
        await self._ws.send_json({"op": 7, "d": None, "s": None, "t": None})


# --- interaction payloads, as the gateway delivers them (INTERACTION_CREATE's "d") ---

USER_ID = 1100000000000000010
COMMAND_ID = 1100000000000000011
MANAGE_CHANNELS = 1 << 4
BOT_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 35) | (1 << 38)
_interaction_ids = itertools.count(1200000000000000000)


def interaction_payload(
    subcommand: str,
    options: dict[str, str] | None = None,
    *,
    focused: str | None = None,
    user_id: int = USER_ID,
    permissions: int = 0,
    roles: tuple[int, ...] = (),
    dm: bool = False,
    channel: dict[str, Any] | None = None,
    guild_id: int = GUILD_ID,
) -> dict[str, Any]:
    """``/digest <subcommand> option:value…``; with ``focused`` an autocomplete request for that option;
    ``guild_id``: the server it comes from (the bot may be in many)."""
    interaction_id = next(_interaction_ids)
    values = [{"type": 3, "name": name, "value": value, **({"focused": True} if name == focused else {})}
              for name, value in (options or {}).items()]
    data: dict[str, Any] = {"id": str(COMMAND_ID), "name": "digest", "type": 1,
                            "options": [{"type": 1, "name": subcommand, "options": values}]}
    payload: dict[str, Any] = {
        "id": str(interaction_id), "application_id": str(APP_ID), "type": 4 if focused else 2,
        "token": f"token-{interaction_id}", "version": 1, "data": data, "locale": "en-US",
        "app_permissions": str(BOT_PERMISSIONS), "attachment_size_limit": 10485760, "entitlements": [],
        "authorizing_integration_owners": {"0": str(guild_id)},
    }
    if dm:
        dm_channel = channel or {"id": str(CHANNEL_ID + 100), "type": 1, "recipients": [user(user_id)]}
        payload.update(channel_id=dm_channel["id"], channel=dm_channel, user=user(user_id), context=1)
        return payload
    chosen = channel or text_channel(CHANNEL_ID, guild_id)
    data["guild_id"] = str(guild_id)  # the commands are synced to this server
    payload.update(
        guild_id=str(guild_id), channel_id=chosen["id"], channel=chosen, context=0, guild_locale="en-US",
        guild={"id": str(guild_id), "locale": "en-US", "features": []},
        member={"user": user(user_id), "roles": [str(r) for r in roles], "permissions": str(permissions),
                "joined_at": TIMESTAMP, "deaf": False, "mute": False, "flags": 0, "pending": False,
                "nick": None, "avatar": None},
    )
    return payload
