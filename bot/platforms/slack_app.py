"""Slack: the `/digest` slash command on slack-bolt, and the Messenger that posts digests and DMs.

Thin by design: commands go to ``bot.commands.handlers.Commands``, answers go out through
``bot.app.replies.send_reply``; payloads come from ``formatters``. HTTP mode (``digest-bot serve``) adds
``/slack/events`` to the one web application (``bot.platforms.web``); Socket Mode (``digest-bot run`` with
``SLACK_APP_TOKEN``) needs no public URL. Signatures are verified by bolt.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import aiohttp
from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.async_app import AsyncAck, AsyncApp, AsyncRespond
from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
    AsyncServerErrorRetryHandler,
)
from slack_sdk.web.async_client import AsyncWebClient

from bot.app.context import Context
from bot.app.messenger import DeliveryError, OnPart, Pace
from bot.app.notices import Notice, Sorry
from bot.app.replies import Offload, send_reply
from bot.app.service import DigestService
from bot.commands.grammar import Command, ConfigureChannel, Mute, Unmute, parse_command
from bot.commands.handlers import Commands
from bot.model import Digest, QueryResult
from bot.settings import Settings
from bot.timeutil import utcnow
from formatters.notices import render_notice, render_notices
from formatters.safety import slack_mrkdwn
from formatters.slack_blocks import SlackMessage, render_slack_digest, render_slack_query

_log = logging.getLogger(__name__)

DEFAULT_API_URL = "https://slack.com/api/"
ACK_FLUSH_SECONDS = 0.02
MAX_RESPONSES = 5
RENDER_CACHE = 64
DM_CHANNEL_CACHE = 50_000  # response_url accepts five posts within 30 minutes
# Errors that retrying cannot fix: the target is marked and skipped until someone changes it.
CHANNEL_GONE = frozenset({"channel_not_found", "not_in_channel", "is_archived", "restricted_action",
                          "team_access_not_granted", "no_permission", "ekm_access_denied"})
USER_GONE = frozenset({"account_inactive", "cannot_dm_bot", "user_not_found", "user_disabled",
                       "user_not_visible", "not_allowed_token_type"})


def build_client(token: str | None, api_url: str | None = None) -> AsyncWebClient:
    """A Web API client that waits out 429s (Retry-After), retries 5xx and connection errors."""
    client = AsyncWebClient(token=token, base_url=api_url or DEFAULT_API_URL)
    client.retry_handlers.extend([
        AsyncRateLimitErrorRetryHandler(max_retry_count=5),
        AsyncServerErrorRetryHandler(max_retry_count=2),
    ])
    if not any(isinstance(h, AsyncConnectionErrorRetryHandler) for h in client.retry_handlers):
        client.retry_handlers.append(AsyncConnectionErrorRetryHandler())
    return client


def _message_kwargs(payload: SlackMessage) -> dict[str, Any]:
    # GitHub links would unfurl into big previews; the digest is the preview.
    return {"text": payload.get("text", ""), "blocks": payload.get("blocks"), "unfurl_links": False,
            "unfurl_media": False}


class SlackMessenger:
    """Digests and DMs, one ``chat.postMessage`` at a time: the first part in the channel, the rest in its thread.

    ``deliver`` resumes after parts already sent (``sent``) and reports each accepted one (``on_part``), which
    is what the delivery ledger records. Rendered payloads are cached per answer (a slot's thousands of DMs
    share a handful) and DM channel ids per user."""

    platform = "slack"

    def __init__(self, client: AsyncWebClient) -> None:
        self.client = client
        self._rendered: OrderedDict[tuple[int, str, str], tuple[object, list[SlackMessage]]] = OrderedDict()
        self._render_lock = threading.Lock()  # commands render in the build pool, deliveries on the loop
        self._dm_channels: OrderedDict[str, str] = OrderedDict()

    def render(self, answer: Digest | QueryResult, *, locale: str, timezone: str,
               cache: bool = True) -> list[SlackMessage]:
        """``cache=False``: a private answer, rendered once; caching it would keep a year-long digest's hundreds
        of parts alive for every such command (40 of them held 1.2 GiB in bench_fair)."""
        if not cache:
            return _render(answer, locale, timezone)
        key = (id(answer), locale, timezone)
        with self._render_lock:
            cached = self._rendered.get(key)
            if cached is not None and cached[0] is answer:
                self._rendered.move_to_end(key)
                return cached[1]
        payloads = _render(answer, locale, timezone)
        with self._render_lock:
            self._rendered[key] = (answer, payloads)  # holding the answer keeps its id() from being reused
            while len(self._rendered) > RENDER_CACHE:
                self._rendered.popitem(last=False)
        return payloads

    async def deliver(
        self, target: str, answer: Digest | QueryResult, *, dm: bool, locale: str, timezone: str,
        sent: Sequence[str] = (), on_part: OnPart | None = None, pace: Pace | None = None,
    ) -> list[str]:
        payloads = self.render(answer, locale=locale, timezone=timezone)
        ids = [str(message_id) for message_id in sent]
        if len(ids) >= len(payloads):
            return ids
        channel = await self._dm_channel(target) if dm else target
        thread = ids[0] if ids else None
        for payload in payloads[len(ids):]:
            if pace is not None:
                await pace()
            try:
                response = await self.client.chat_postMessage(channel=channel, thread_ts=thread,
                                                              **_message_kwargs(payload))
            except SlackApiError as err:
                if dm:
                    self._dm_channels.pop(target, None)
                raise _failure(err, user=target) if dm else _failure(err, channel=target) from None
            except (TimeoutError, SlackClientError, aiohttp.ClientError, OSError) as err:
                where = f"user {target}" if dm else f"channel {target}"
                raise DeliveryError(f"network: {type(err).__name__}", permanent=False, target=where) from None
            ts = str(response["ts"])
            ids.append(ts)
            thread = thread or ts
            if on_part is not None:
                await on_part(ts)
        return ids

    async def _dm_channel(self, user: str) -> str:
        known = self._dm_channels.get(user)
        if known is not None:
            self._dm_channels.move_to_end(user)
            return known
        try:
            opened = await self.client.conversations_open(users=user)
        except SlackApiError as err:
            self._dm_channels.pop(user, None)
            raise _failure(err, user=user) from None
        except (TimeoutError, SlackClientError, aiohttp.ClientError, OSError) as err:
            raise DeliveryError(f"network: {type(err).__name__}", permanent=False, target=f"user {user}") from None
        channel = str(opened["channel"]["id"])
        self._dm_channels[user] = channel
        while len(self._dm_channels) > DM_CHANNEL_CACHE:
            self._dm_channels.popitem(last=False)
        return channel



def _render(answer: Digest | QueryResult, locale: str, timezone: str) -> list[SlackMessage]:
    if isinstance(answer, Digest):
        return render_slack_digest(answer, locale=locale, timezone=timezone)
    return render_slack_query(answer, locale=locale, timezone=timezone)


def _failure(err: SlackApiError, *, channel: str | None = None, user: str | None = None) -> DeliveryError:
    reason = str(err.response.get("error", "unknown_error")) if err.response is not None else "unknown_error"
    target = f"user {user}" if user else f"channel {channel}"
    return DeliveryError(reason, permanent=reason in CHANNEL_GONE or reason in USER_GONE, target=target)


@dataclass
class SlackDeps:
    commands: Commands
    messenger: SlackMessenger
    settings: Settings


def build_app(
    deps_factory: Callable[[AsyncWebClient], SlackDeps],
    *,
    token: str,
    signing_secret: str | None,
    api_url: str | None = None,
) -> tuple[AsyncApp, SlackDeps]:
    client = build_client(token, api_url)
    app = AsyncApp(client=client, signing_secret=signing_secret, process_before_response=False)
    deps = deps_factory(client)
    register(app, deps)
    return app, deps


def default_deps(service: DigestService) -> Callable[[AsyncWebClient], SlackDeps]:
    def make(client: AsyncWebClient) -> SlackDeps:
        return SlackDeps(Commands(service), SlackMessenger(client), service.settings)

    return make


def register(app: AsyncApp, deps: SlackDeps) -> None:
    async def on_digest(ack: AsyncAck, command: dict[str, Any], respond: AsyncRespond,
                        client: AsyncWebClient) -> None:
        await ack()  # within Slack's 3 s, before any store or network work
        # bolt returns the HTTP ack from a loop that polls every 10 ms; let it see the ack before the work
        # below (CPU-bound, in a thread that still holds the GIL) competes with it.
        await asyncio.sleep(ACK_FLUSH_SECONDS)
        await handle_command(command, respond, client, deps)

    app.command("/digest")(on_digest)


async def handle_command(command: dict[str, Any], respond: AsyncRespond, client: AsyncWebClient,
                         deps: SlackDeps) -> None:
    """Everything after the ack: dedupe, handle, answer. Never raises."""
    key = f"slack:{command.get('trigger_id') or command.get('response_url')}"
    try:
        service = deps.commands.service
        if not await service.in_light_pool(service.chat.claim_request, key):
            _log.info("ignoring a repeated Slack request %s", key)
            return
        text = str(command.get("text") or "")
        channel_id = str(command.get("channel_id") or "")
        user_id = str(command.get("user_id") or "")
        parsed = parse_command(text)
        can_manage = await _can_manage(client, user_id, deps.settings, parsed, dm=channel_id.startswith("D"))
        ctx = Context(platform="slack", channel_id=channel_id, user_id=user_id, now=utcnow(),
                      can_manage=can_manage, is_dm=channel_id.startswith("D"))
        reply = await deps.commands.handle_command(ctx, parsed)
        await send_reply(reply, SlackReplies(respond, deps.messenger, channel_id, offload=service.in_pool),
                         offload=service.in_pool)
    except Exception:
        _log.exception("the /digest command failed")
        await _safe_respond(respond, notice_payload(render_notice(Sorry(), locale="en", escape=slack_mrkdwn)))


async def _can_manage(client: AsyncWebClient, user_id: str, settings: Settings, command: Command, *,
                      dm: bool) -> bool:
    if settings.file.chat.channel_settings != "admins" or dm or not changes_channel(command):
        return False
    try:
        info = await client.users_info(user=user_id)
    except SlackApiError as err:
        _log.warning("users.info failed (%s): treating %s as not an admin", err.response.get("error"), user_id)
        return False
    user = info.get("user") or {}
    return bool(user.get("is_admin") or user.get("is_owner"))


def changes_channel(command: Command) -> bool:
    """Commands that change a channel (its settings, its mutes): only these need to know who is an admin."""
    return isinstance(command, ConfigureChannel) or (isinstance(command, Mute | Unmute) and not command.personal)


class SlackReplies:
    """``ReplySink`` over a slash command's ``response_url`` (five posts within 30 minutes)."""

    max_parts = MAX_RESPONSES

    def __init__(self, respond: AsyncRespond, messenger: SlackMessenger, channel_id: str, *,
                 offload: Offload | None = None) -> None:
        self.respond = respond
        self.messenger = messenger
        self.channel_id = channel_id
        self.offload = offload

    def render(self, answer: Digest | QueryResult, *, locale: str, timezone: str) -> list[SlackMessage]:
        return self.messenger.render(answer, locale=locale, timezone=timezone, cache=False)

    async def send_part(self, part: SlackMessage) -> bool:
        return await _safe_respond(self.respond, {"response_type": "ephemeral", **part})

    async def say(self, notices: Sequence[Notice], *, locale: str) -> None:
        if notices:
            text = render_notices(notices, locale=locale, escape=slack_mrkdwn, platform="slack")
            await _safe_respond(self.respond, notice_payload(text))

    async def post(self, answer: Digest | QueryResult, *, locale: str, timezone: str) -> None:
        if self.offload is not None:  # render off the loop; deliver then finds it in the messenger's cache
            await self.offload(lambda: self.messenger.render(answer, locale=locale, timezone=timezone))
        await self.messenger.deliver(self.channel_id, answer, dm=False, locale=locale, timezone=timezone)


def notice_payload(text: str) -> Mapping[str, Any]:
    chunks = [text[i:i + 2900] for i in range(0, len(text), 2900)] or [" "]
    return {"response_type": "ephemeral", "text": chunks[0][:300],
            "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": chunk, "verbatim": True}}
                       for chunk in chunks[:40]]}


async def _safe_respond(respond: AsyncRespond, payload: Mapping[str, Any]) -> bool:
    try:
        await respond(**{key: value for key, value in payload.items() if key != "response_type"},
                      response_type=payload.get("response_type", "ephemeral"))
    except Exception as err:  # the user already got nothing better; log and keep running
        _log.warning("could not answer through response_url: %s", err)
        return False
    return True


def slack_routes(app: AsyncApp) -> list[web.RouteDef]:
    """The HTTP route Slack calls (bolt verifies each request's signature)."""

    async def events(request: web.Request) -> web.Response:
        bolt_response = await app.async_dispatch(await to_bolt_request(request))
        return await to_aiohttp_response(bolt_response)

    return [web.post("/slack/events", events)]
