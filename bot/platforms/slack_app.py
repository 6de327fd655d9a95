"""Slack: the `/digest` slash command on slack-bolt, and the Messenger that posts digests and DMs.

Thin by design: commands go to ``bot.commands.handlers.Commands``; payloads come from ``formatters``.
HTTP mode (``digest-bot serve``) serves ``/slack/events`` and ``/healthz`` with aiohttp; Socket Mode
(``digest-bot run`` with ``SLACK_APP_TOKEN``) needs no public URL. Signatures are verified by bolt.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
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

from bot.commands.grammar import Command, ConfigureChannel, Mute, Unmute, parse_command
from bot.commands.handlers import Commands, Context, Reply
from bot.delivery.messenger import DeliveryError
from bot.digest.model import Digest, QueryResult
from bot.settings import Settings
from bot.store.chat import ChatState
from bot.store.store import Store
from bot.timeutil import utcnow
from formatters.notices import render_notice
from formatters.safety import slack_mrkdwn
from formatters.slack_blocks import render_slack_digest, render_slack_query

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


def _message_kwargs(payload: dict[str, Any]) -> dict[str, Any]:
    # GitHub links would unfurl into big previews; the digest is the preview.
    return {"text": payload.get("text", ""), "blocks": payload.get("blocks"), "unfurl_links": False,
            "unfurl_media": False}


class SlackMessenger:
    """Digests and DMs, one ``chat.postMessage`` at a time: the first part in the channel, the rest in its thread.

    ``deliver`` resumes after parts already sent (``sent``) and reports each accepted one (``on_part``), which
    is what the delivery ledger records; ``post_digest`` and ``send_dm`` are the one-shot forms. Rendered
    payloads are cached per answer (a slot's thousands of DMs share a handful) and DM channel ids per user."""

    platform = "slack"

    def __init__(self, client: AsyncWebClient, chat: ChatState | None = None, *,
                 pace: Callable[[], Awaitable[None]] | None = None) -> None:
        self.client = client
        self.chat = chat
        self.pace = pace  # optional client-side pacing, set by the scheduler's fan-out
        self._rendered: OrderedDict[tuple[int, str, str], tuple[object, list[dict[str, Any]]]] = OrderedDict()
        self._dm_channels: OrderedDict[str, str] = OrderedDict()

    async def post_digest(self, channel_id: str, digest: Digest, *, locale: str, timezone: str) -> list[str]:
        return await self.deliver(channel_id, digest, dm=False, locale=locale, timezone=timezone)

    async def send_dm(
        self, user_id: str, answer: Digest | QueryResult, *, locale: str, timezone: str
    ) -> list[str]:
        return await self.deliver(user_id, answer, dm=True, locale=locale, timezone=timezone)

    def render(self, answer: Digest | QueryResult, *, locale: str, timezone: str) -> list[dict[str, Any]]:
        key = (id(answer), locale, timezone)
        cached = self._rendered.get(key)
        if cached is not None and cached[0] is answer:
            self._rendered.move_to_end(key)
            return cached[1]
        if isinstance(answer, Digest):
            payloads = render_slack_digest(answer, locale=locale, timezone=timezone)
        else:
            payloads = render_slack_query(answer, locale=locale, timezone=timezone)
        self._rendered[key] = (answer, payloads)  # holding the answer keeps its id() from being reused
        while len(self._rendered) > RENDER_CACHE:
            self._rendered.popitem(last=False)
        return payloads

    async def deliver(
        self, target: str, answer: Digest | QueryResult, *, dm: bool, locale: str, timezone: str,
        sent: Sequence[str] = (), on_part: Callable[[str], Awaitable[None]] | None = None,
    ) -> list[str]:
        payloads = self.render(answer, locale=locale, timezone=timezone)
        ids = [str(message_id) for message_id in sent]
        if len(ids) >= len(payloads):
            return ids
        channel = await self._dm_channel(target) if dm else target
        thread = ids[0] if ids else None
        for payload in payloads[len(ids):]:
            if self.pace is not None:
                await self.pace()
            try:
                response = await self.client.chat_postMessage(channel=channel, thread_ts=thread,
                                                              **_message_kwargs(payload))
            except SlackApiError as err:
                raise await (self._failure(err, user=target) if dm else self._failure(err, channel=target)) from None
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
            raise await self._failure(err, user=user) from None
        except (TimeoutError, SlackClientError, aiohttp.ClientError, OSError) as err:
            raise DeliveryError(f"network: {type(err).__name__}", permanent=False, target=f"user {user}") from None
        channel = str(opened["channel"]["id"])
        self._dm_channels[user] = channel
        while len(self._dm_channels) > DM_CHANNEL_CACHE:
            self._dm_channels.popitem(last=False)
        return channel

    async def _failure(
        self, err: SlackApiError, *, channel: str | None = None, user: str | None = None
    ) -> DeliveryError:
        reason = str(err.response.get("error", "unknown_error")) if err.response is not None else "unknown_error"
        target = f"user {user}" if user else f"channel {channel}"
        permanent = reason in CHANNEL_GONE or reason in USER_GONE
        if user:
            self._dm_channels.pop(user, None)
        if permanent and self.chat is not None:
            # Database writes off the event loop, which keeps serving other deliveries.
            if user:
                await asyncio.to_thread(self.chat.pause_subscriptions, "slack", user, reason)
            elif channel:
                await asyncio.to_thread(self.chat.mark_channel, "slack", channel, reason)
            _log.warning("Slack %s: %s; marked and skipped from now on", target, reason)
        return DeliveryError(reason, permanent=permanent, target=target)


@dataclass
class SlackDeps:
    commands: Commands
    messenger: SlackMessenger
    chat: ChatState
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


def default_deps(store: Store, settings: Settings) -> Callable[[AsyncWebClient], SlackDeps]:
    def make(client: AsyncWebClient) -> SlackDeps:
        chat = ChatState(store)
        return SlackDeps(Commands(store, settings), SlackMessenger(client, chat), chat, settings)

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
    """Everything after the ack: dedupe, handle, render, answer. Never raises."""
    key = f"slack:{command.get('trigger_id') or command.get('response_url')}"
    try:
        if not await asyncio.to_thread(deps.chat.claim_request, key):
            _log.info("ignoring a repeated Slack request %s", key)
            return
        text = str(command.get("text") or "")
        channel_id = str(command.get("channel_id") or "")
        user_id = str(command.get("user_id") or "")
        can_manage = await _can_manage(client, user_id, deps.settings, text, dm=channel_id.startswith("D"))
        ctx = Context(platform="slack", channel_id=channel_id, user_id=user_id, now=utcnow(),
                      can_manage=can_manage, is_dm=channel_id.startswith("D"))
        reply = await asyncio.to_thread(deps.commands.handle, ctx, text)
        await send_reply(reply, respond=respond, messenger=deps.messenger, channel_id=channel_id)
    except Exception:
        _log.exception("the /digest command failed")
        await _safe_respond(respond, {"response_type": "ephemeral",
                                      "text": "Sorry, something went wrong on my side; it has been logged."})


async def _can_manage(client: AsyncWebClient, user_id: str, settings: Settings, text: str, *, dm: bool) -> bool:
    if settings.file.chat.channel_settings != "admins" or dm or not changes_channel(parse_command(text)):
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


async def send_reply(reply: Reply, *, respond: AsyncRespond, messenger: SlackMessenger, channel_id: str) -> None:
    if reply.answer is None:
        text = render_notice(reply.notice or "error", reply.params, locale=reply.locale, escape=slack_mrkdwn,
                             notes=reply.notes)
        await _safe_respond(respond, notice_payload(text))
        return
    if reply.post_to_channel and isinstance(reply.answer, Digest):
        try:
            await messenger.post_digest(channel_id, reply.answer, locale=reply.locale, timezone=reply.timezone)
        except DeliveryError as err:
            hint = " Invite me first: /invite @digest-bot" if err.reason == "not_in_channel" else ""
            await _safe_respond(respond, notice_payload(f"I could not post here ({err.reason}).{hint}"))
        return
    if isinstance(reply.answer, Digest):
        payloads = render_slack_digest(reply.answer, locale=reply.locale, timezone=reply.timezone)
    else:
        payloads = render_slack_query(reply.answer, locale=reply.locale, timezone=reply.timezone)
    if reply.notes:
        extra = render_notice("busy", {}, locale=reply.locale, escape=slack_mrkdwn, notes=reply.notes)
        payloads = [*payloads, notice_payload(extra.split("\n\n", 1)[-1])]
    for payload in _within_response_budget(payloads):
        await _safe_respond(respond, {"response_type": "ephemeral", **payload})


def notice_payload(text: str) -> dict[str, Any]:
    chunks = [text[i:i + 2900] for i in range(0, len(text), 2900)] or [" "]
    return {"response_type": "ephemeral", "text": chunks[0][:300],
            "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": chunk, "verbatim": True}}
                       for chunk in chunks[:40]]}


def _within_response_budget(payloads: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """response_url takes five posts: the first four parts, then a note on how to see the rest."""
    if len(payloads) <= MAX_RESPONSES:
        return payloads
    more = len(payloads) - (MAX_RESPONSES - 1)
    note = notice_payload(f"…{more} more part(s). `/digest post` posts the full digest in a thread here, "
                          "or ask for one topic, e.g. `/digest rocm`.")
    return [*payloads[: MAX_RESPONSES - 1], note]


async def _safe_respond(respond: AsyncRespond, payload: dict[str, Any]) -> None:
    try:
        await respond(**{key: value for key, value in payload.items() if key != "response_type"},
                      response_type=payload.get("response_type", "ephemeral"))
    except Exception as err:  # the user already got nothing better; log and keep running
        _log.warning("could not answer through response_url: %s", err)


def web_app(app: AsyncApp, health: Callable[[], Awaitable[dict[str, Any]]]) -> web.Application:
    async def events(request: web.Request) -> web.Response:
        bolt_response = await app.async_dispatch(await to_bolt_request(request))
        return await to_aiohttp_response(bolt_response)

    async def healthz(_: web.Request) -> web.Response:
        return web.json_response(await health())

    application = web.Application()
    application.add_routes([web.post("/slack/events", events), web.get("/healthz", healthz)])
    return application
