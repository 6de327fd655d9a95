"""Platform-neutral command handling: a command in, a ``Reply`` (data) out. Adapters only render and send."""

from __future__ import annotations

import logging
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from datetime import datetime
from zoneinfo import ZoneInfo

from bot.commands.grammar import (
    Ask,
    Command,
    ConfigureChannel,
    Help,
    Invalid,
    ListSubscriptions,
    Post,
    ShowChannel,
    Subscribe,
    Unsubscribe,
    parse_command,
)
from bot.digest.model import Digest, QueryResult
from bot.digest.window import default_window
from bot.errors import UserError
from bot.service import answer_query, build_digest_for, load_taxonomy
from bot.settings import Settings
from bot.store.chat import ChannelSettings, ChatState
from bot.store.store import Store
from bot.topics.query import parse_query

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Context:
    platform: str  # slack | discord
    channel_id: str
    user_id: str
    now: datetime
    can_manage: bool = False  # the platform says this user administers the channel
    is_dm: bool = False


@dataclass(frozen=True)
class Reply:
    """What to say. ``notice`` names a message template; ``answer`` is a digest or query answer to render."""

    notice: str | None = None
    params: dict[str, object] = field(default_factory=dict)
    answer: Digest | QueryResult | None = None
    ephemeral: bool = True
    post_to_channel: bool = False
    locale: str = "en"
    timezone: str = "UTC"
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class EffectiveChannel:
    repo: str | None
    post_time: str
    timezone: str
    locale: str
    topics: tuple[str, ...] | None
    stored: ChannelSettings | None


class Commands:
    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.chat = ChatState(store)

    # --- entry point ---

    def handle(self, ctx: Context, text: str) -> Reply:
        command = parse_command(text)
        channel = self.effective_channel(ctx.platform, ctx.channel_id)
        try:
            reply = self._dispatch(ctx, command, channel)
        except UserError as err:
            reply = Reply("error", {"message": str(err)})
        notice = self.chat.take_pause_notice(ctx.platform, ctx.user_id)
        if notice:
            reply = replace(reply, notes=(*reply.notes, f"paused:{notice}"))
        return replace(reply, locale=reply.locale if reply.answer else channel.locale, timezone=channel.timezone)

    def effective_channel(self, platform: str, channel_id: str) -> EffectiveChannel:
        stored = self.chat.channel(platform, channel_id)
        digest = self.settings.digest
        default_repo = self.settings.repos[0].name if self.settings.repos else None
        return EffectiveChannel(
            repo=(stored.repo if stored else None) or default_repo,
            post_time=(stored.post_time if stored else None) or digest.post_time,
            timezone=(stored.timezone if stored else None) or digest.timezone,
            locale=(stored.locale if stored else None) or digest.locale,
            topics=stored.topics if stored else None,
            stored=stored,
        )

    def _dispatch(self, ctx: Context, command: Command, channel: EffectiveChannel) -> Reply:
        if isinstance(command, Ask | Post):
            return self._answer(ctx, command.text, channel, post=isinstance(command, Post))
        if isinstance(command, Subscribe):
            return self._subscribe(ctx, command, channel)
        if isinstance(command, Unsubscribe):
            return self._unsubscribe(ctx, command)
        if isinstance(command, ListSubscriptions):
            return Reply("subscriptions", {"subscriptions": self.chat.subscriptions(ctx.platform, ctx.user_id)})
        if isinstance(command, ShowChannel):
            return Reply("channel", {"channel": channel})
        if isinstance(command, ConfigureChannel):
            return self._configure(ctx, command, channel)
        if isinstance(command, Help):
            return Reply("help", {"topics": load_taxonomy(self.settings).ids()})
        assert isinstance(command, Invalid)
        return Reply("invalid", {"message": command.message, "usage": command.usage})

    # --- digest and queries ---

    def _answer(self, ctx: Context, text: str, channel: EffectiveChannel, *, post: bool) -> Reply:
        if channel.repo is None and "repo:" not in text:
            return Reply("no_repo", {})
        if post and ctx.is_dm:
            return Reply("error", {"message": "post works in a channel, not in a direct message"})
        answer = self.answer(text, repo=channel.repo, now=ctx.now, channel=channel)
        return Reply(answer=answer, ephemeral=not post, post_to_channel=post, locale=answer.locale,
                     timezone=channel.timezone)

    def answer(
        self, text: str, *, repo: str | None, now: datetime, channel: EffectiveChannel,
        hide_topics: Collection[str] = (),
    ) -> Digest | QueryResult:
        """The digest (empty text, channel's post time and zone) or a query answer. ``hide_topics``: muted."""
        settings = self._settings_for(channel)
        if not parse_query(text).is_empty:
            return answer_query(self.store, settings, text, repo=repo, now=now, locale=channel.locale)
        query = parse_query(text)
        repo = query.repo or repo
        if repo is None:
            raise UserError("this channel has no repository yet: /digest channel repo owner/name")
        zone = ZoneInfo(channel.timezone)
        window = query.window.resolve(now, zone) if query.window else default_window(now, zone, channel.post_time)
        digest, _ = build_digest_for(self.store, settings, repo, window, locale=channel.locale,
                                     topics=channel.topics, hide_topics=hide_topics)
        return digest

    def _settings_for(self, channel: EffectiveChannel) -> Settings:
        digest = self.settings.file.digest.model_copy(
            update={"timezone": channel.timezone, "post_time": channel.post_time, "locale": channel.locale}
        )
        return self.settings.model_copy(update={"file": self.settings.file.model_copy(update={"digest": digest})})

    # --- subscriptions ---

    def _subscribe(self, ctx: Context, command: Subscribe, channel: EffectiveChannel) -> Reply:
        query = parse_query(command.query)
        if query.window is not None:
            return Reply("invalid", {"message": "a daily subscription covers the last day; leave out the window",
                                     "usage": "/digest subscribe rocm at 09:00"})
        limit = self.settings.file.chat.max_subscriptions_per_user
        existing = self.chat.subscriptions(ctx.platform, ctx.user_id)
        if len(existing) >= limit and all(s.query.lower() != command.query.lower() for s in existing):
            return Reply("error", {"message": f"you already have {limit} subscriptions; unsubscribe from one first"})
        subscription, created = self.chat.subscribe(
            ctx.platform, ctx.user_id, command.query, repo=query.repo or channel.repo,
            post_time=command.at or channel.post_time, timezone=command.tz or channel.timezone,
            locale=channel.locale,
        )
        return Reply("subscribed", {"subscription": subscription, "created": created, "notes": list(query.notes)})

    def _unsubscribe(self, ctx: Context, command: Unsubscribe) -> Reply:
        removed = self.chat.unsubscribe(ctx.platform, ctx.user_id, command.query)
        remaining = self.chat.subscriptions(ctx.platform, ctx.user_id)
        return Reply("unsubscribed", {"query": command.query, "removed": removed, "subscriptions": remaining})

    # --- channel settings ---

    def _configure(self, ctx: Context, command: ConfigureChannel, channel: EffectiveChannel) -> Reply:
        if ctx.is_dm:
            return Reply("error", {"message": "channel settings are set in the channel itself"})
        if self.settings.file.chat.channel_settings == "admins" and not ctx.can_manage:
            return Reply("not_allowed", {})
        topics = command.changes.get("topics")
        if isinstance(topics, tuple):
            known = set(load_taxonomy(self.settings).ids())
            unknown = [topic for topic in topics if topic not in known]
            if unknown:
                return Reply("invalid", {"message": f"unknown topic(s): {', '.join(unknown)}",
                                         "usage": f"known topics: {', '.join(sorted(known))}"})
        base = channel.stored or ChannelSettings(platform=ctx.platform, channel_id=ctx.channel_id)
        updated = replace(base, **command.changes, enabled=True, status=None)  # type: ignore[arg-type]
        saved = self.chat.save_channel(updated, by=ctx.user_id)
        _log.info("%s channel %s settings changed by %s: %s", ctx.platform, ctx.channel_id, ctx.user_id,
                  sorted(command.changes))
        return Reply("channel_saved", {"channel": self.effective_channel(saved.platform, saved.channel_id),
                                       "changed": sorted(command.changes)})
