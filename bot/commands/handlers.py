"""Chat commands: parse the text (or take a command a platform built from typed options), call the service.

Nothing here decides anything: ``DigestService`` does, and returns typed results; ``Reply`` carries them to
``bot.app.replies.send_reply``, which every platform uses to answer. Answers and digests (``Ask``, ``Post``) are
heavy: they pass the fair-use limiter (``bot.app.limits``) and are built in the service's build pool; every
other command is a few cheap store calls in its light pool, so it never waits behind builds.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from bot.app.context import ChannelContext, Context, PostRequest
from bot.app.limits import HeavyLimiter, LimitRules, Permit
from bot.app.notices import Busy, Failed, Invalid, Paused, Refused, Sorry
from bot.app.replies import Reply
from bot.app.service import DigestService, RenderSpec
from bot.commands.grammar import (
    Ask,
    ChannelAlert,
    Command,
    ConfigureChannel,
    Help,
    ListMutes,
    ListSubscriptions,
    Mute,
    Post,
    ShowChannel,
    Subscribe,
    Unmute,
    Unsubscribe,
    Why,
    parse_command,
)
from bot.errors import UserError
from bot.redact import redact

_log = logging.getLogger(__name__)

__all__ = ["Commands", "Context", "Reply"]


class Commands:
    def __init__(self, service: DigestService, *, limiter: HeavyLimiter | None = None) -> None:
        """``limiter``: fair use of heavy work; by default one with the ``[chat]`` limits."""
        self.service = service
        self.limiter = limiter or HeavyLimiter(LimitRules.of(service.settings.file.chat))

    async def handle(self, ctx: Context, text: str) -> Reply:
        return await self.handle_command(ctx, parse_command(text))

    async def handle_command(self, ctx: Context, command: Command, *, render: RenderSpec | None = None,
                             permit: Permit | None = None) -> Reply:
        """``render``: the platform's renderer, so a private answer can be rendered where it is built;
        ``permit``: a heavy command's fair-use permit when the platform asked ``admit`` already (released
        here, whatever happens)."""
        try:
            opened = await self._opening_pool(command)(self.service.open_command, ctx)
            return await self._handle(ctx, command, render, *opened, permit=permit)
        finally:
            if permit is not None:
                permit.release()

    async def handle_claimed(self, ctx: Context, command: Command, claim: str, *,
                             render: RenderSpec | None = None, permit: Permit | None = None) -> Reply | None:
        """``handle_command`` for a platform request with key ``claim``; None (nothing to do) when another
        process already took it. The claim, the channel and the pause notice are one pool call: under a burst,
        each request's bookkeeping queues once, not three times ahead of a light command's. A heavy command
        over a fair-use limit is refused before any of it: a burst of 40 from one person costs 38 refusals
        and no store work (such a refusal is not claimed: a platform's retry of it, rare, is refused again)."""
        admitted = permit or self.admit(ctx, command)
        if isinstance(admitted, Busy):
            return self.refusal(ctx, admitted)
        permit = admitted
        try:
            opened = await self._opening_pool(command)(self.service.claim_and_open, ctx, claim)
            return None if opened is None else await self._handle(ctx, command, render, *opened, permit=permit)
        finally:
            if permit is not None:
                permit.release()  # a retry's, or one the answer did not take; released once either way

    def refusal(self, ctx: Context, busy: Busy) -> Reply:
        """A fair-use refusal, in the channel's language as known without a store call."""
        return Reply(busy, locale=self.service.known_locale(ctx))

    def admit(self, ctx: Context, command: Command) -> Permit | Busy | None:
        """The fair-use limiter's word on a heavy command (answers, digests, why); None for a light one. A
        platform may ask before it acknowledges the request, so a refusal is the acknowledgement itself."""
        if not isinstance(command, Ask | Post | Why):
            return None
        permit = self.limiter.try_start(ctx.platform, ctx.user_id, ctx.channel_id)
        if isinstance(permit, Busy):  # over a fair-use limit: said at once, never queued without bound
            _log.info("%s user %s in %s is over a fair-use limit (%s, %s)", ctx.platform, ctx.user_id,
                      ctx.channel_id, permit.scope, permit.reason)
        return permit

    def _opening_pool(self, command: Command) -> Callable[..., Awaitable[Any]]:
        """Where a command's opening store call runs: heavy commands' apart, so a burst of them never queues
        ahead of a light command's."""
        return self.service.in_intake_pool if isinstance(command, Ask | Post) else self.service.in_light_pool

    async def _handle(self, ctx: Context, command: Command, render: RenderSpec | None, channel: ChannelContext,
                      paused: Paused | None, *, permit: Permit | None = None) -> Reply:
        try:
            reply = await self._dispatch(ctx, command, channel, render, permit)
        except Refused as refused:
            reply = Reply(refused.notice, notes=refused.notes)
        except UserError as err:
            reply = Reply(Failed(redact(str(err))))  # a chat reply: no URL credentials
        except Exception:  # a bug: logged; the person hears it in their channel's language, never a traceback
            _log.exception("/digest %s failed", type(command).__name__)
            reply = Reply(Sorry())
        if paused is not None:
            reply = replace(reply, notes=(*reply.notes, paused))
        locale = (reply.answer.locale if reply.answer is not None
                  else reply.rendered.locale if reply.rendered is not None else channel.locale)
        return replace(reply, locale=locale, timezone=channel.timezone)

    async def _dispatch(self, ctx: Context, command: Command, channel: ChannelContext,
                        render: RenderSpec | None = None, admitted: Permit | None = None) -> Reply:
        service = self.service
        light = service.in_light_pool
        if isinstance(command, Ask | Post | Why):
            permit = admitted or self.admit(ctx, command)
            if isinstance(permit, Busy):
                return Reply(permit)
            assert permit is not None  # a heavy command always gets a permit or Busy
            if isinstance(command, Why):  # it builds the day's digest: heavy, like an answer
                with permit:
                    await service.look_up(channel.repo)
                    why = await service.in_pool(lambda: service.why(channel, command.number, now=ctx.now))
                return Reply(why)
            post = isinstance(command, Post)
            with permit:
                if render is not None and not post:
                    done = await service.ask_rendered(ctx, channel, command.query, render)
                    if done is not None:
                        rendered, rendered_notes = done
                        return Reply(rendered=rendered, locale=rendered.locale, timezone=channel.timezone,
                                     notes=rendered_notes)
                answer, notes = await service.ask(ctx, channel, command.query, post=post)
            request = PostRequest(command.text, channel, ctx.now) if post else None
            return Reply(answer=answer, post=post, locale=answer.locale, timezone=channel.timezone, notes=notes,
                         request=request)
        if isinstance(command, Subscribe):
            await service.look_up(command.parsed.repo)  # GitHub's word first, when only it can tell
            notice = await light(lambda: service.subscribe(ctx, channel, command.parsed, at=command.at,
                                                           tz=command.tz, live=command.live))
        elif isinstance(command, Unsubscribe):
            notice = await light(lambda: service.unsubscribe(ctx, command.query, live=command.live))
        elif isinstance(command, ChannelAlert):
            parsed = command.parsed if not command.off else None
            if parsed is not None:
                await service.look_up(parsed.repo)
            notice = await light(lambda: service.channel_alert(ctx, channel, command.query, off=command.off,
                                                               parsed=parsed))
        elif isinstance(command, ListSubscriptions):
            notice = await light(service.subscriptions, ctx, channel)
        elif isinstance(command, ShowChannel):
            notice = await light(service.show_channel, ctx, channel)
        elif isinstance(command, ConfigureChannel):
            repo = command.changes.get("repo")
            await service.look_up(repo if isinstance(repo, str) else None)
            notice = await light(service.configure_channel, ctx, channel, dict(command.changes))
        elif isinstance(command, ListMutes):
            notice = await light(lambda: service.list_mutes(ctx, channel, personal=command.personal))
        elif isinstance(command, Mute):
            notice = await light(lambda: service.mute(ctx, channel, command.topic, command.duration,
                                                      personal=command.personal))
        elif isinstance(command, Unmute):
            notice = await light(lambda: service.unmute(ctx, channel, command.topic, personal=command.personal))
        elif isinstance(command, Help):
            notice = await light(service.help)
        else:
            assert isinstance(command, Invalid)
            notice = command
        return Reply(notice)
