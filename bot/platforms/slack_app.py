"""Slack: the `/digest` slash command on slack-bolt, and the Messenger that posts digests and DMs.

Thin by design: commands go to ``bot.commands.handlers.Commands``, answers go out through
``bot.app.replies.send_reply``; payloads come from ``formatters``. HTTP mode (``digest-bot serve``) adds
``/slack/events`` to the one web application (``bot.platforms.web``); Socket Mode (``digest-bot run`` with
``SLACK_APP_TOKEN``) needs no public URL. Signatures are verified by bolt.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

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
from slack_sdk.http_retry.request import HttpRequest
from slack_sdk.http_retry.response import HttpResponse
from slack_sdk.http_retry.state import RetryState
from slack_sdk.web.async_client import AsyncWebClient

from bot.app.context import Context, PostRequest
from bot.app.limits import Permit
from bot.app.messenger import DeliveryError, OnPart, Pace
from bot.app.notices import Busy, Notice, Sorry
from bot.app.replies import Offload, Reply, send_reply
from bot.app.service import DigestService, RenderSpec
from bot.commands.grammar import Command, ConfigureChannel, Mute, Unmute, parse_command
from bot.commands.handlers import Commands
from bot.delivery.jobs import DeliveryJobs
from bot.model import Digest, QueryResult
from bot.settings import Settings
from bot.timeutil import parse_retry_after, utcnow
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
# chat.postMessage errors Slack documents as "some aspect of the operation may have succeeded".
MAYBE_DONE = frozenset({"internal_error", "fatal_error", "service_unavailable", "request_timeout"})
PART_EVENT = "digest_part"  # message metadata event type: {"key": delivery key, "part": n}
# Errors that mean this user cannot be messaged (DMs closed to the bot): their DMs pause, never retried. Slack's
# ``messages_tab_disabled`` ("Messages tab for the app is disabled") is the app's App Home setting, not the user's:
# every DM fails the same way until someone turns the tab on, so retrying one is as futile.
USER_GONE = frozenset({"account_inactive", "cannot_dm_bot", "messages_tab_disabled", "user_not_found",
                       "user_disabled", "user_not_visible", "not_allowed_token_type"})


# Methods that create something each time they are called: never re-sent blindly after an answer we did not
# read (a 5xx, a dropped connection) because Slack may have acted on it. ``SlackMessenger`` finds out instead.
NON_IDEMPOTENT = frozenset({"chat.postMessage"})
MAX_RETRY_AFTER = 60.0  # a longer Retry-After is not waited out in the client: delivery retries later


def _method(request: HttpRequest) -> str:
    return urlsplit(request.url).path.rsplit("/", 1)[-1]


class RetryAfterHandler(AsyncRateLimitErrorRetryHandler):
    """slack_sdk's 429 handler reads ``int(header[0])`` (the first character): "120" waits 1 s and "1.5",
    "-1" or an HTTP-date raise ValueError. Same policy, with ``parse_retry_after``; a wait longer than
    ``max_wait`` is not taken here (the 429 reaches delivery, which retries later)."""

    def __init__(self, max_retry_count: int = 5, *, max_wait: float = MAX_RETRY_AFTER,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        super().__init__(max_retry_count)
        self.max_wait = max_wait
        self.sleep = sleep

    def _wait(self, response: HttpResponse) -> float:
        header = next((values for name, values in response.headers.items() if name.lower() == "retry-after"), None)
        raw = header[0] if isinstance(header, list) and header else header
        seconds = parse_retry_after(str(raw) if raw is not None else None)
        return 1.0 if seconds is None else seconds  # unreadable or absent: slack_sdk's own default, 1 s

    async def _can_retry_async(self, *, state: RetryState, request: HttpRequest,
                               response: HttpResponse | None = None, error: Exception | None = None) -> bool:
        return response is not None and response.status_code == 429 and self._wait(response) <= self.max_wait

    async def prepare_for_next_attempt_async(self, *, state: RetryState, request: HttpRequest,
                                             response: HttpResponse | None = None,
                                             error: Exception | None = None) -> None:
        assert response is not None  # _can_retry_async said yes
        state.next_attempt_requested = True
        await self.sleep(self._wait(response) + random.random())
        state.increment_current_attempt()


class IdempotentServerErrorRetryHandler(AsyncServerErrorRetryHandler):
    """500/503 retries, except for ``NON_IDEMPOTENT`` methods (Slack may have posted before failing)."""

    async def _can_retry_async(self, *, state: RetryState, request: HttpRequest,
                               response: HttpResponse | None = None, error: Exception | None = None) -> bool:
        return _method(request) not in NON_IDEMPOTENT and await super()._can_retry_async(
            state=state, request=request, response=response, error=error)


class SafeConnectionErrorRetryHandler(AsyncConnectionErrorRetryHandler):
    """Connection errors: a failed connect sent nothing and is always retried; a reset or disconnect after the
    request went out is retried only for idempotent methods."""

    async def _can_retry_async(self, *, state: RetryState, request: HttpRequest,
                               response: HttpResponse | None = None, error: Exception | None = None) -> bool:
        if isinstance(error, aiohttp.ClientConnectorError):
            return True
        return _method(request) not in NON_IDEMPOTENT and await super()._can_retry_async(
            state=state, request=request, response=response, error=error)


def build_client(token: str | None, api_url: str | None = None, *, timeout: int = 30) -> AsyncWebClient:
    """A Web API client that waits out 429s (any ``Retry-After`` up to a minute), retries connection errors and
    5xx, but never re-sends a ``chat.postMessage`` Slack may have acted on (see ``NON_IDEMPOTENT``)."""
    client = AsyncWebClient(token=token, base_url=api_url or DEFAULT_API_URL, timeout=timeout)
    client.retry_handlers[:] = [  # replaces slack_sdk's default connection handler too
        SafeConnectionErrorRetryHandler(),
        RetryAfterHandler(max_retry_count=5),
        IdempotentServerErrorRetryHandler(max_retry_count=2),
    ]
    return client


def _message_kwargs(payload: SlackMessage) -> dict[str, Any]:
    # GitHub links would unfurl into big previews; the digest is the preview.
    return {"text": payload.get("text", ""), "blocks": payload.get("blocks"), "unfurl_links": False,
            "unfurl_media": False}


class SlackMessenger:
    """Digests and DMs, one ``chat.postMessage`` at a time: the first part in the channel, the rest in its thread.

    ``deliver`` resumes after parts already sent (``sent``) and reports each accepted one (``on_part``), which
    is what the delivery ledger records. With a ``key`` each part carries message metadata (``PART_EVENT``:
    key, part), so after an ambiguous failure (``check_first``) the part is looked up in the channel's history
    or the thread's replies instead of being posted twice. Rendered payloads are cached per answer (a slot's
    thousands of DMs share a handful) and DM channel ids per user."""

    platform = "slack"

    def __init__(self, client: AsyncWebClient, *, lookback: timedelta = timedelta(hours=24),
                 lookup_pages: int = 5, shared: SlackMessenger | None = None) -> None:
        """``shared``: another messenger whose render cache this one uses (one per workspace, one cache)."""
        self.client = client
        self.lookback = lookback  # how far back a part that may have landed is looked for…
        self.lookup_pages = lookup_pages  # …in at most this many pages of 200 messages
        self._rendered: OrderedDict[tuple[int, str, str], tuple[object, list[SlackMessage]]] = (
            shared._rendered if shared is not None else OrderedDict())
        # commands render in the build pool, deliveries on the loop
        self._render_lock: threading.Lock = shared._render_lock if shared is not None else threading.Lock()
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
        key: str | None = None, check_first: bool = False,
    ) -> list[str]:
        payloads = self.render(answer, locale=locale, timezone=timezone)
        ids = [str(message_id) for message_id in sent]
        if len(ids) >= len(payloads):
            return ids
        channel = await self._dm_channel(target) if dm else target
        where = f"user {target}" if dm else f"channel {target}"
        thread = ids[0] if ids else None
        for part in range(len(ids), len(payloads)):
            found = None
            if check_first and key is not None and part == len(sent):  # later parts were posted by this call
                found = await self._find_part(channel, key, part, thread, where)
            if found is None:
                if pace is not None:
                    await pace()
                ts = await self._post(channel, thread, payloads[part], key, part, dm=dm, target=target)
            else:
                _log.info("%s: part %d of %s had landed before the failure (ts %s): not posting it again",
                          where, part, key, found)
                ts = found
            ids.append(ts)
            thread = thread or ts
            if on_part is not None:
                await on_part(ts)
        return ids

    async def _post(self, channel: str, thread: str | None, payload: SlackMessage, key: str | None, part: int, *,
                    dm: bool, target: str) -> str:
        extra: dict[str, Any] = {}
        if key is not None:
            extra["metadata"] = {"event_type": PART_EVENT, "event_payload": {"key": key, "part": part}}
        where = f"user {target}" if dm else f"channel {target}"
        try:
            response = await self.client.chat_postMessage(channel=channel, thread_ts=thread, **extra,
                                                          **_message_kwargs(payload))
        except SlackApiError as err:
            if dm:
                self._dm_channels.pop(target, None)
            failure = _failure(err, user=target) if dm else _failure(err, channel=target)
            status = err.response.status_code if err.response is not None else 0
            failure.ambiguous = status >= 500 or failure.reason in MAYBE_DONE
            raise failure from None
        except (TimeoutError, SlackClientError, aiohttp.ClientError, OSError) as err:
            # A failed connect sent nothing; a timeout or a dropped connection may have been acted on.
            raise DeliveryError(f"network: {type(err).__name__}", permanent=False, target=where,
                                ambiguous=not isinstance(err, aiohttp.ClientConnectorError)) from None
        return str(response["ts"])

    async def _find_part(self, channel: str, key: str, part: int, thread: str | None, where: str) -> str | None:
        """The ts of the message marked (``key``, ``part``) in the channel (part 0) or the thread, posted in the
        last ``lookback``; None if it is not there (or history cannot be read: then it is posted again)."""
        oldest = f"{time.time() - self.lookback.total_seconds():.6f}"
        cursor: str | None = None
        try:
            for _ in range(self.lookup_pages):
                if thread is None:
                    page = await self.client.conversations_history(channel=channel, oldest=oldest, limit=200,
                                                                   include_all_metadata=True, cursor=cursor)
                else:
                    page = await self.client.conversations_replies(channel=channel, ts=thread, oldest=oldest,
                                                                   limit=200, include_all_metadata=True,
                                                                   cursor=cursor)
                for message in page.get("messages") or ():
                    metadata = message.get("metadata") or {}
                    payload = metadata.get("event_payload") or {}
                    if (metadata.get("event_type") == PART_EVENT and payload.get("key") == key
                            and str(payload.get("part")) == str(part)):
                        return str(message["ts"])
                cursor = (page.get("response_metadata") or {}).get("next_cursor") or None
                if not page.get("has_more") or cursor is None:
                    return None
        except SlackApiError as err:
            reason = str(err.response.get("error", "unknown_error")) if err.response is not None else "unknown_error"
            status = err.response.status_code if err.response is not None else 0
            if status >= 500 or status == 429 or reason in MAYBE_DONE:
                raise DeliveryError(f"lookup: {reason}", permanent=False, target=where, ambiguous=True) from None
            # missing_scope (channels:history, groups:history, im:history), …: we cannot know; post again.
            _log.warning("%s: cannot read history to look for part %d (%s): posting it again", where, part, reason)
            return None
        except (TimeoutError, SlackClientError, aiohttp.ClientError, OSError) as err:
            raise DeliveryError(f"lookup network: {type(err).__name__}", permanent=False, target=where,
                                ambiguous=True) from None
        _log.warning("%s: part %d of %s not found in the last %d pages of history", where, part, key,
                     self.lookup_pages)
        return None

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



def render_private(answer: Digest | QueryResult, *, locale: str, timezone: str) -> list[SlackMessage]:
    return _render(answer, locale, timezone)


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
    register_removal(app, deps)
    return app, deps


def default_deps(service: DigestService) -> Callable[[AsyncWebClient], SlackDeps]:
    def make(client: AsyncWebClient) -> SlackDeps:
        return SlackDeps(Commands(service), SlackMessenger(client), service.settings)

    return make


def register(app: AsyncApp, deps: SlackDeps) -> None:
    async def on_digest(ack: AsyncAck, command: dict[str, Any], respond: AsyncRespond,
                        client: AsyncWebClient) -> None:
        # Over a fair-use limit, the refusal is the ack itself: no claim, no response_url post, nothing left to
        # run after a burst (the limiter is in memory; the language is the one this process last read).
        admitted = _admit(command, deps)
        if isinstance(admitted, Reply):
            await ack(**_ephemeral(notice_payload(render_notices(
                [admitted.notice] if admitted.notice else [], locale=admitted.locale, escape=slack_mrkdwn,
                platform="slack"))))
            return
        await ack()  # within Slack's 3 s, before any store or network work
        # bolt returns the HTTP ack from a loop that polls every 10 ms; let it see the ack before the work
        # below (CPU-bound, in a thread that still holds the GIL) competes with it.
        await asyncio.sleep(ACK_FLUSH_SECONDS)
        await handle_command(command, respond, client, deps, permit=admitted)

    app.command("/digest")(on_digest)


def register_removal(app: AsyncApp, deps: SlackDeps) -> None:
    """Single-workspace mode: the manifest subscribes to ``app_uninstalled`` / ``tokens_revoked``; SLACK_BOT_TOKEN
    is then dead, so the workspace's deliveries pause (logged once) instead of failing every day."""

    async def removed(body: dict[str, Any], event: dict[str, Any]) -> None:
        if event.get("type") == "tokens_revoked" and not (event.get("tokens") or {}).get("bot"):
            return  # only user tokens: the bot still works
        team = str(body.get("team_id") or "")
        _log.warning("Slack says the app was removed from workspace %s (%s): SLACK_BOT_TOKEN no longer works",
                     team or "?", event.get("type"))
        if team:
            await asyncio.to_thread(deps.commands.service.pause_workspace, "slack", team)

    app.event("app_uninstalled")(removed)
    app.event("tokens_revoked")(removed)


def _admit(command: dict[str, Any], deps: SlackDeps) -> Permit | Reply | None:
    """A heavy command's fair-use permit, or the refusal to acknowledge it with; None for a light command (or
    text that does not parse: the full path answers it)."""
    try:
        parsed = parse_command(str(command.get("text") or ""))
    except Exception:  # never in the way of the ack: the full path answers it
        return None
    ctx = _light_context(command)
    admitted = deps.commands.admit(ctx, parsed)
    return deps.commands.refusal(ctx, admitted) if isinstance(admitted, Busy) else admitted


def _light_context(command: dict[str, Any]) -> Context:
    channel_id = str(command.get("channel_id") or "")
    return Context(platform="slack", channel_id=channel_id, user_id=str(command.get("user_id") or ""),
                   now=utcnow(), is_dm=channel_id.startswith("D"), team_id=str(command.get("team_id") or "") or None)


def _ephemeral(payload: Mapping[str, Any]) -> dict[str, Any]:
    return {**{key: value for key, value in payload.items() if key != "response_type"}, "response_type": "ephemeral"}


async def handle_command(command: dict[str, Any], respond: AsyncRespond, client: AsyncWebClient,
                         deps: SlackDeps, *, permit: Permit | None = None) -> None:
    """Everything after the ack: dedupe, handle, answer. Never raises. ``permit``: the fair-use permit the ack
    was given with (released here, whatever happens)."""
    key = f"slack:{command.get('trigger_id') or command.get('response_url')}"
    try:
        service = deps.commands.service
        text = str(command.get("text") or "")
        channel_id = str(command.get("channel_id") or "")
        user_id = str(command.get("user_id") or "")
        parsed = parse_command(text)
        can_manage = await _can_manage(client, user_id, deps.settings, parsed, dm=channel_id.startswith("D"))
        ctx = Context(platform="slack", channel_id=channel_id, user_id=user_id, now=utcnow(),
                      can_manage=can_manage, is_dm=channel_id.startswith("D"),
                      team_id=str(command.get("team_id") or "") or None)
        reply = await deps.commands.handle_claimed(ctx, parsed, key, render=RenderSpec(render_private, MAX_RESPONSES),
                                                   permit=permit)
        if reply is None:
            _log.info("ignoring a repeated Slack request %s", key)
            return
        await send_reply(reply, SlackReplies(respond, deps.messenger, channel_id, service=service,
                                             offload=service.in_pool), offload=service.in_heavy_pool)
    except Exception:
        _log.exception("the /digest command failed")
        await _safe_respond(respond, notice_payload(render_notice(Sorry(), locale="en", escape=slack_mrkdwn)))
    finally:
        if permit is not None:
            permit.release()  # once, whichever path took it


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
                 service: DigestService | None = None, offload: Offload | None = None) -> None:
        self.respond = respond
        self.messenger = messenger
        self.channel_id = channel_id
        self.service = service  # with it, a post goes through the delivery ledger (resumable, never doubled)
        self.offload = offload
        # a private answer, never cached (see SlackMessenger.render); module-level, so a worker process can run it
        self.render = functools.partial(render_private)

    async def send_part(self, part: SlackMessage) -> bool:
        return await _safe_respond(self.respond, {"response_type": "ephemeral", **part})

    async def say(self, notices: Sequence[Notice], *, locale: str) -> None:
        if notices:
            text = render_notices(notices, locale=locale, escape=slack_mrkdwn, platform="slack")
            await _safe_respond(self.respond, notice_payload(text))

    async def post(self, answer: Digest | QueryResult, *, locale: str, timezone: str,
                   request: PostRequest | None = None) -> None:
        if self.offload is not None:  # render off the loop; deliver then finds it in the messenger's cache
            await self.offload(lambda: self.messenger.render(answer, locale=locale, timezone=timezone))
        if self.service is None:
            await self.messenger.deliver(self.channel_id, answer, dm=False, locale=locale, timezone=timezone)
            return
        jobs = DeliveryJobs(self.service, {SlackMessenger.platform: self.messenger})
        await jobs.post(SlackMessenger.platform, self.channel_id, answer, locale=locale, timezone=timezone,
                        request=request)


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
