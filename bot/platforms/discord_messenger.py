"""Discord delivery over REST: channel digests (headline + thread) and DMs, for the scheduler and ``/digest post``.

``DiscordMessenger(client)`` implements ``bot.app.messenger.Messenger``. It needs only a logged-in
``discord.Client`` (``await client.login(token)``: REST, no gateway), so the scheduler can use it on its own.

- ``deliver(channel_id, digest, dm=False, …)``: the headline message in the channel, then a thread started from it
  (``Message.create_thread``) holding the section messages. Where a thread cannot be made (a DM, a thread or
  voice channel, no Create Public Threads / Send Messages in Threads permission: 403 with 50001/50013, or
  50024) the sections follow in the channel itself. A query answer is one message.
- ``deliver(user_id, answer, dm=True, …)``: opens the DM channel (``Client.create_dm``) and sends the messages.
- Every message goes out with ``allowed_mentions=AllowedMentions.none()`` (the formatter's ``{"parse": []}``):
  GitHub text can hold ``@everyone`` or ``<@id>``; nobody is ever notified.

Failures: a closed DM (50007) or unknown user (10013), a missing channel (10003), missing access (50001) or
permission (50013) raise ``DeliveryError(permanent=True)``, logged once per target; delivery pauses the user's
DMs or marks the channel (``DigestService.mark_unreachable``). 429s and 500/502/504 are retried by
discord.py itself (``HTTPClient.request``: up to 5 tries, honouring ``retry_after``), safely: each part's
nonce (stable per delivery key and part, sent with ``enforce_nonce``) makes Discord return the message it
already created. What is left after that, and network errors, raise ``DeliveryError(permanent=False)``.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

import aiohttp
import discord

from bot.app.messenger import DeliveryError, OnPart, Pace
from bot.model import Digest, QueryResult
from formatters.discord_embeds import DiscordMessage, render_discord_digest, render_discord_query

_log = logging.getLogger(__name__)

PLATFORM = "discord"
# Discord JSON error codes (discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes)
UNKNOWN_CHANNEL = 10003
UNKNOWN_USER = 10013
MISSING_ACCESS = 50001
CANNOT_DM = 50007
MISSING_PERMISSIONS = 50013
WRONG_CHANNEL_TYPE = 50024
CHANNEL_GONE = {UNKNOWN_CHANNEL: "unknown_channel", MISSING_ACCESS: "missing_access",
                MISSING_PERMISSIONS: "missing_permissions"}
USER_GONE = {CANNOT_DM: "dms_closed", UNKNOWN_USER: "unknown_user"}
NO_THREAD = frozenset({MISSING_ACCESS, MISSING_PERMISSIONS, WRONG_CHANNEL_TYPE})
THREAD_NAME = 100  # Discord's limit for a thread name
ARCHIVE_MINUTES = 1440
THREAD_EXISTS = 160004  # "A thread has already been created for this message"
NONCE_CHARS = 25  # Discord's limit for a string nonce
TRANSIENT = (aiohttp.ClientError, OSError, asyncio.TimeoutError)



class SendKwargs(TypedDict):
    """A formatter's ``DiscordMessage`` as ``Messageable.send``/``Webhook.send`` keyword arguments."""

    content: str | None
    embeds: list[discord.Embed]
    allowed_mentions: discord.AllowedMentions


class TextKwargs(TypedDict):
    """A plain text follow-up's keyword arguments (no embeds)."""

    content: str
    allowed_mentions: discord.AllowedMentions


def message_payload(message: Mapping[str, Any]) -> DiscordMessage:
    """A formatter's message, checked again at the edge against the formatters' contract: mentions off."""
    if message.get("allowed_mentions", {"parse": []}) != {"parse": []}:
        raise ValueError("formatter message without allowed_mentions {'parse': []}")
    return {"content": message.get("content") or "", "embeds": list(message.get("embeds") or ()),
            "allowed_mentions": {"parse": []}}


def send_kwargs(message: DiscordMessage) -> SendKwargs:
    return {
        "content": message["content"] or None,
        "embeds": [discord.Embed.from_dict(embed) for embed in message["embeds"]],
        "allowed_mentions": discord.AllowedMentions.none(),
    }


def _nonce(key: str | None, part: int) -> str | int:
    """A part's nonce: stable across retries and processes (Discord allows 25 characters). Without a key, a
    random one, as discord.py draws by default: it still dedupes discord.py's own retries of that one send."""
    if key is None:
        return secrets.randbits(64)
    return hashlib.sha1(f"{key}:{part}".encode()).hexdigest()[:NONCE_CHARS]


def error_code(err: discord.HTTPException) -> int:
    return int(getattr(err, "code", 0) or 0)


def _thread_name(messages: list[DiscordMessage], fallback: str) -> str:
    embeds = messages[0]["embeds"]
    name = " ".join(str((embeds[0]["title"] if embeds else "") or fallback).split())
    return name if len(name) <= THREAD_NAME else name[: THREAD_NAME - 1] + "…"


def _can_thread(channel: object) -> bool:
    """Text and announcement channels take a thread on a message; DMs, threads and voice chats do not."""
    return isinstance(channel, discord.TextChannel)


def render_payloads(answer: Digest | QueryResult, *, locale: str, timezone: str,
                    section_limit: int) -> list[DiscordMessage]:
    """Pure and module-level: a worker process may render a chat answer (``DiscordReplies``)."""
    if isinstance(answer, Digest):
        messages = render_discord_digest(answer, locale=locale, timezone=timezone, section_limit=section_limit)
    else:
        messages = render_discord_query(answer, locale=locale, timezone=timezone)
    return [message_payload(message) for message in messages]


class DiscordMessenger:
    platform = PLATFORM

    def __init__(self, client: discord.Client, *, section_limit: int = 10) -> None:
        self.client = client
        self.section_limit = section_limit
        self._logged: set[tuple[str, str]] = set()

    # --- Messenger ---

    async def deliver(
        self, target: str, answer: Digest | QueryResult, *, dm: bool, locale: str, timezone: str,
        sent: Sequence[str] = (), on_part: OnPart | None = None, pace: Pace | None = None,
        key: str | None = None, check_first: bool = False,
    ) -> list[str]:
        """The parts of ``answer`` not yet in ``sent``, awaiting ``on_part(id)`` after each accepted one, so the
        delivery ledger can resume after them (a retry or a takeover never repeats an accepted part). In a
        channel a digest is a headline with its sections in a thread on it; a query answer is one message.

        With ``key`` each part is sent with the nonce ``part_nonce(key, n)`` (discord.py sends it with
        ``enforce_nonce``): a send repeated within Discord's nonce window, after a 5xx or a timeout, by
        discord.py's own retries or ours, gets the message created the first time instead of a second one.
        ``check_first`` needs nothing more here: the nonce is the check."""
        messages = self.render(answer, locale=locale, timezone=timezone)
        if not dm:
            name = _thread_name(messages, answer.repo) if isinstance(answer, Digest) else None
            return await self._post_channel(target, messages, thread_name=name, sent=sent, on_part=on_part,
                                            pace=pace, key=key)
        ids = [str(message_id) for message_id in sent]
        try:
            channel = await self.client.create_dm(discord.Object(id=int(target)))
            for message in messages[len(ids):]:
                if pace is not None:
                    await pace()
                ids.append(str((await channel.send(**send_kwargs(message), nonce=_nonce(key, len(ids)))).id))
                if on_part is not None:
                    await on_part(ids[-1])
        except discord.HTTPException as err:
            raise self._user_failure(err, target) from None
        except TRANSIENT as err:
            raise DeliveryError(f"network: {type(err).__name__}", permanent=False, target=f"user {target}",
                                ambiguous=True) from None
        return ids

    # --- more ---

    def render(self, answer: Digest | QueryResult, *, locale: str, timezone: str) -> list[DiscordMessage]:
        return render_payloads(answer, locale=locale, timezone=timezone, section_limit=self.section_limit)

    async def _post_channel(
        self, channel_id: str, messages: list[DiscordMessage], *, thread_name: str | None, sent: Sequence[str] = (),
        on_part: OnPart | None = None, pace: Pace | None = None, key: str | None = None,
    ) -> list[str]:
        ids = [str(message_id) for message_id in sent]
        if len(ids) >= len(messages):
            return ids
        target = f"channel {channel_id}"
        try:
            channel = await self.client.fetch_channel(int(channel_id))
        except discord.HTTPException as err:
            raise self._channel_failure(err, channel_id) from None
        except discord.InvalidData:  # a channel type this discord.py does not know
            raise self._mark(channel_id, "unsupported_channel") from None
        except TRANSIENT as err:
            raise DeliveryError(f"network: {type(err).__name__}", permanent=False, target=target) from None
        if not isinstance(channel, discord.abc.Messageable):  # forum, category, …: nothing to post into
            raise self._mark(channel_id, "not_a_text_channel")
        if not ids:
            if pace is not None:
                await pace()
            ids.append(str((await self._send(channel, messages[0], channel_id, nonce=_nonce(key, 0))).id))
            if on_part is not None:
                await on_part(ids[0])
        where: discord.abc.Messageable = channel
        if len(messages) > len(ids) and thread_name and _can_thread(channel):
            resumed = await self._existing_thread(int(ids[0])) if sent else None
            where = resumed or await self._thread_on(channel, int(ids[0]), thread_name, channel_id) or channel
        for message in messages[len(ids):]:
            if pace is not None:
                await pace()
            nonce = _nonce(key, len(ids))
            try:
                posted = await where.send(**send_kwargs(message), nonce=nonce)
            except discord.HTTPException as err:
                if where is channel or err.status != 403 or error_code(err) not in NO_THREAD:
                    raise self._channel_failure(err, channel_id) from None
                self._log_once(target, "thread_send", "cannot post in the thread on %s (%s): posting in the channel",
                               target, error_code(err))
                where = channel
                posted = await self._send(channel, message, channel_id, nonce=nonce)
            except TRANSIENT as err:
                raise DeliveryError(f"network: {type(err).__name__}", permanent=False, target=target,
                                    ambiguous=True) from None
            ids.append(str(posted.id))
            if on_part is not None:
                await on_part(ids[-1])
        return ids

    async def _send(self, channel: discord.abc.Messageable, message: DiscordMessage,
                    channel_id: str, *, nonce: str | int) -> discord.Message:
        try:
            return await channel.send(**send_kwargs(message), nonce=nonce)
        except discord.HTTPException as err:
            raise self._channel_failure(err, channel_id) from None
        except TRANSIENT as err:
            raise DeliveryError(f"network: {type(err).__name__}", permanent=False,
                                target=f"channel {channel_id}", ambiguous=True) from None

    async def _thread_on(
        self, channel: discord.abc.Messageable, headline_id: int, name: str, channel_id: str
    ) -> discord.Thread | None:
        """The thread on the headline: started now, or found again when a resumed delivery started it before
        (a thread's id is its starter message's id)."""
        try:
            headline = channel.get_partial_message(headline_id)  # type: ignore[attr-defined]
            return await headline.create_thread(name=name, auto_archive_duration=ARCHIVE_MINUTES)
        except discord.HTTPException as err:
            existing = await self._existing_thread(headline_id) if error_code(err) == THREAD_EXISTS else None
            if existing is None:
                self._no_thread(err, channel_id)
            return existing
        except TRANSIENT as err:
            self._no_thread(err, channel_id)
            return None

    async def _existing_thread(self, headline_id: int) -> discord.Thread | None:
        try:
            found = await self.client.fetch_channel(headline_id)
        except (discord.HTTPException, *TRANSIENT):
            return None
        return found if isinstance(found, discord.Thread) else None

    def _no_thread(self, err: Exception, channel_id: str) -> None:
        # No Create Public Threads permission (50001/50013), wrong channel type (50024), or a failure that
        # outlasted discord.py's retries: the digest still arrives, as messages after the headline.
        code = error_code(err) if isinstance(err, discord.HTTPException) else type(err).__name__
        self._log_once(f"channel {channel_id}", "no_thread",
                       "cannot start a thread in channel %s (%s): the sections follow in the channel",
                       channel_id, code)

    # --- failures ---

    def _channel_failure(self, err: discord.HTTPException, channel_id: str) -> DeliveryError:
        reason = CHANNEL_GONE.get(error_code(err))
        if reason is not None:
            return self._mark(channel_id, reason)
        return DeliveryError(_describe(err), permanent=False, target=f"channel {channel_id}")

    def _mark(self, channel_id: str, reason: str) -> DeliveryError:
        target = f"channel {channel_id}"
        self._log_once(target, reason, "Discord %s: %s; permanent", target, reason)
        return DeliveryError(reason, permanent=True, target=target)

    def _user_failure(self, err: discord.HTTPException, user_id: str) -> DeliveryError:
        target = f"user {user_id}"
        reason = USER_GONE.get(error_code(err))
        if reason is None:
            return DeliveryError(_describe(err), permanent=False, target=target)
        self._log_once(target, reason, "Discord %s: %s; permanent", target, reason)
        return DeliveryError(reason, permanent=True, target=target)

    def _log_once(self, target: str, reason: str, message: str, *args: object) -> None:
        if (target, reason) in self._logged:
            _log.debug(message, *args)
            return
        self._logged.add((target, reason))
        _log.warning(message, *args)


def _describe(err: discord.HTTPException) -> str:
    code = error_code(err)
    return f"http_{err.status}" + (f"_{code}" if code else "")
