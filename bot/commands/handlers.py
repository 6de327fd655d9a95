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
    ListMutes,
    ListSubscriptions,
    Mute,
    Post,
    ShowChannel,
    Subscribe,
    Unmute,
    Unsubscribe,
    parse_command,
)
from bot.digest.model import Digest, QueryResult
from bot.digest.window import default_window
from bot.errors import UserError
from bot.service import answer_query, build_digest_for, load_taxonomy
from bot.settings import Settings
from bot.store.chat import ChannelSettings, ChatState, Subscription
from bot.store.mutes import CHANNEL, USER, Mutes
from bot.store.store import Store
from bot.topics.query import parse_query
from bot.topics.search import suggest, topic_named
from bot.topics.taxonomy import Topic

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
class MuteView:
    """One active mute as a notice shows it: ``until`` is local time ("2025-12-09 11:05"), None for good."""

    topic: str
    title: str
    until: str | None


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
        self.mutes = Mutes(store)

    # --- entry point ---

    def handle(self, ctx: Context, text: str) -> Reply:
        return self.handle_command(ctx, parse_command(text))

    def handle_command(self, ctx: Context, command: Command) -> Reply:
        """``handle`` for a command already built (e.g. from Discord's typed options)."""
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
            subscriptions = self.chat.subscriptions(ctx.platform, ctx.user_id)
            timezone = self._user_timezone(subscriptions, channel)
            return Reply("subscriptions", {"subscriptions": subscriptions, "timezone": timezone,
                                           "mutes": self._mute_views(ctx, USER, ctx.user_id, channel, timezone)})
        if isinstance(command, ShowChannel):
            return Reply("channel", {"channel": channel, "timezone": channel.timezone,
                                     "mutes": self._channel_mute_views(ctx, channel)})
        if isinstance(command, ConfigureChannel):
            return self._configure(ctx, command, channel)
        if isinstance(command, Mute | Unmute | ListMutes):
            return self._mute_command(ctx, command, channel)
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
        hidden = () if ctx.is_dm else self.channel_mutes(ctx.platform, ctx.channel_id, ctx.now)
        answer = self.answer(text, repo=channel.repo, now=ctx.now, channel=channel, hide_topics=hidden)
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
        shown = self.effective_channel(saved.platform, saved.channel_id)
        return Reply("channel_saved", {"channel": shown, "changed": sorted(command.changes),
                                       "timezone": shown.timezone, "mutes": self._channel_mute_views(ctx, shown)})

    # --- mutes ---

    def channel_mutes(self, platform: str, channel_id: str, now: datetime) -> tuple[str, ...]:
        """The topics muted in a channel at ``now``: its digests leave them out."""
        return tuple(self.mutes.active(platform, CHANNEL, channel_id, now))

    def user_mutes(self, platform: str, user_id: str, now: datetime) -> tuple[str, ...]:
        """The topics a user muted for their daily DMs, at ``now``."""
        return tuple(self.mutes.active(platform, USER, user_id, now))

    def _mute_command(self, ctx: Context, command: Mute | Unmute | ListMutes, channel: EffectiveChannel) -> Reply:
        personal = command.personal or ctx.is_dm
        scope, target = (USER, ctx.user_id) if personal else (CHANNEL, ctx.channel_id)
        timezone = (self._user_timezone(self.chat.subscriptions(ctx.platform, ctx.user_id), channel) if personal
                    else channel.timezone)
        base = {"personal": personal, "timezone": timezone}
        if isinstance(command, ListMutes):
            return Reply("mutes", {**base, "mutes": self._mute_views(ctx, scope, target, channel, timezone)})
        if not personal and self.settings.file.chat.channel_settings == "admins" and not ctx.can_manage:
            return Reply("not_allowed", {})
        if isinstance(command, Unmute):
            topic = None
            if command.topic is not None:
                found = self._topic(command.topic, channel)
                topic = found.id if found else command.topic.lower()  # a topic since removed from the file
            removed = self.mutes.unmute(ctx.platform, scope, target, topic, now=ctx.now)
            _log.info("%s %s %s: unmuted %s (%d)", ctx.platform, scope, target, topic or "all", removed)
            return Reply("unmuted", {**base, "topic": topic, "removed": removed,
                                     "mutes": self._mute_views(ctx, scope, target, channel, timezone)})
        found = self._topic(command.topic, channel)
        if found is None:
            return self._unknown_topic(command.topic, channel)
        until = ctx.now + command.duration if command.duration is not None else None
        self.mutes.mute(ctx.platform, scope, target, found.id, until, ctx.user_id, now=ctx.now)
        _log.info("%s %s %s: muted %s until %s (by %s)", ctx.platform, scope, target, found.id, until, ctx.user_id)
        return Reply("muted", {**base, "mute": MuteView(found.id, found.display_name(channel.locale),
                                                         _local(until, timezone))})

    def _topic(self, text: str, channel: EffectiveChannel) -> Topic | None:
        """A topic by id, alias or query word, among every topic the channel's repository knows."""
        taxonomy = load_taxonomy(self.settings, channel.repo, restrict=False)
        return taxonomy.get(text.strip().lower()) or topic_named(taxonomy, text)

    def _unknown_topic(self, text: str, channel: EffectiveChannel) -> Reply:
        taxonomy = load_taxonomy(self.settings, channel.repo, restrict=False)
        close = suggest(taxonomy, parse_query(text))
        if close:
            return Reply("invalid", {"message": f"unknown topic “{text}” (did you mean {close[0]}?)",
                                     "usage": f"/digest mute {close[0]}"})
        return Reply("invalid", {"message": f"unknown topic “{text}” (/digest help lists them)",
                                 "usage": "/digest mute rocm 7d"})

    def _channel_mute_views(self, ctx: Context, channel: EffectiveChannel) -> list[MuteView]:
        if ctx.is_dm:
            return []
        return self._mute_views(ctx, CHANNEL, ctx.channel_id, channel, channel.timezone)

    def _mute_views(self, ctx: Context, scope: str, target: str, channel: EffectiveChannel,
                    timezone: str) -> list[MuteView]:
        active = self.mutes.active(ctx.platform, scope, target, ctx.now)
        if not active:
            return []
        taxonomy = load_taxonomy(self.settings, channel.repo, restrict=False)
        views = []
        for topic_id, until in active.items():
            topic = taxonomy.get(topic_id)
            views.append(MuteView(topic_id, topic.display_name(channel.locale) if topic else topic_id,
                                  _local(until, timezone)))
        return views

    @staticmethod
    def _user_timezone(subscriptions: list[Subscription], channel: EffectiveChannel) -> str:
        """Where a user's times are shown: their (first) daily DM's zone, else the channel's."""
        return subscriptions[0].timezone if subscriptions else channel.timezone


def _local(moment: datetime | None, timezone: str) -> str | None:
    return None if moment is None else moment.astimezone(ZoneInfo(timezone)).strftime("%Y-%m-%d %H:%M")
