"""Muted topics: ``mute`` / ``unmute`` / the list, for a channel (with the permission of its settings) or for
oneself (``for_me``, or in a DM), and the views other notices show them with (docs/topics.md)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

from bot.app.context import ChannelContext, Context
from bot.app.notices import Muted, Mutes, MuteView, NotAllowed, Notice, UnknownTopic, Unmuted
from bot.settings import Settings
from bot.store.chat import ChatState, Subscription
from bot.store.mutes import CHANNEL, USER
from bot.store.mutes import Mutes as MuteStore
from bot.topics.catalog import load_taxonomy
from bot.topics.query import parse_query
from bot.topics.search import suggest, topic_named
from bot.topics.taxonomy import Topic

_log = logging.getLogger(__name__)


def may_change_channel(settings: Settings, caller: Context) -> bool:
    """Whether ``caller`` may change the channel's settings, mutes and alerts (``[chat] channel_settings``)."""
    return settings.file.chat.channel_settings != "admins" or caller.can_manage


def user_timezone(subscriptions: Sequence[Subscription], channel: ChannelContext) -> str:
    """Where a user's times are shown: their (first) daily DM's zone, else the channel's."""
    return subscriptions[0].timezone if subscriptions else channel.timezone


def local(moment: datetime | None, timezone: str) -> str | None:
    from zoneinfo import ZoneInfo

    return None if moment is None else moment.astimezone(ZoneInfo(timezone)).strftime("%Y-%m-%d %H:%M")


class MuteCommands:
    def __init__(self, settings: Settings, chat: ChatState, mutes: MuteStore) -> None:
        self.settings = settings  # the service keeps it current (a reload)
        self.chat = chat
        self.mutes = mutes

    def list_mutes(self, caller: Context, channel: ChannelContext, *, personal: bool) -> Notice:
        personal = personal or caller.is_dm
        scope, target, timezone = self._scope(caller, channel, personal)
        return Mutes(personal, timezone, self.views(caller, scope, target, channel, timezone))

    def mute(self, caller: Context, channel: ChannelContext, text: str, duration: timedelta | None, *,
             personal: bool) -> Notice:
        personal = personal or caller.is_dm
        if not personal and not may_change_channel(self.settings, caller):
            return NotAllowed()
        scope, target, timezone = self._scope(caller, channel, personal)
        found = self._topic(text, channel)
        if found is None:
            taxonomy = load_taxonomy(self.settings, channel.repo, restrict=False)
            close = suggest(taxonomy, parse_query(text))
            return UnknownTopic(text, close[0] if close else None)
        until = caller.now + duration if duration is not None else None
        self.mutes.mute(caller.platform, scope, target, found.id, until, caller.user_id, now=caller.now)
        _log.info("%s %s %s: muted %s until %s (by %s)", caller.platform, scope, target, found.id, until,
                  caller.user_id)
        return Muted(personal, timezone, MuteView(found.id, found.display_name(channel.locale),
                                                  local(until, timezone)))

    def unmute(self, caller: Context, channel: ChannelContext, text: str | None, *, personal: bool) -> Notice:
        personal = personal or caller.is_dm
        if not personal and not may_change_channel(self.settings, caller):
            return NotAllowed()
        scope, target, timezone = self._scope(caller, channel, personal)
        topic = None
        if text is not None:
            found = self._topic(text, channel)
            topic = found.id if found else text.lower()  # a topic since removed from the file
        removed = self.mutes.unmute(caller.platform, scope, target, topic, now=caller.now)
        _log.info("%s %s %s: unmuted %s (%d)", caller.platform, scope, target, topic or "all", removed)
        return Unmuted(personal, timezone, topic, removed,
                       self.views(caller, scope, target, channel, timezone))

    def channel_views(self, caller: Context, channel: ChannelContext) -> tuple[MuteView, ...]:
        """The channel's mutes in force, as its settings notices show them (none in a DM)."""
        if caller.is_dm:
            return ()
        return self.views(caller, CHANNEL, caller.channel_id, channel, channel.timezone)

    def views(self, caller: Context, scope: str, target: str, channel: ChannelContext,
              timezone: str) -> tuple[MuteView, ...]:
        active = self.mutes.active(caller.platform, scope, target, caller.now)
        if not active:
            return ()
        taxonomy = load_taxonomy(self.settings, channel.repo, restrict=False)
        views = []
        for topic_id, until in active.items():
            topic = taxonomy.get(topic_id)
            views.append(MuteView(topic_id, topic.display_name(channel.locale) if topic else topic_id,
                                  local(until, timezone)))
        return tuple(views)

    def _scope(self, caller: Context, channel: ChannelContext, personal: bool) -> tuple[str, str, str]:
        if personal:
            timezone = user_timezone(self.chat.subscriptions(caller.platform, caller.user_id), channel)
            return USER, caller.user_id, timezone
        return CHANNEL, caller.channel_id, channel.timezone

    def _topic(self, text: str, channel: ChannelContext) -> Topic | None:
        """A topic by id, alias or query word, among every topic the channel's repository knows."""
        taxonomy = load_taxonomy(self.settings, channel.repo, restrict=False)
        return taxonomy.get(text.strip().lower()) or topic_named(taxonomy, text)
