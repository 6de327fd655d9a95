"""A channel's settings and alerts (``channel ...``), and what happens to channels and DMs a platform refuses:
a workspace that removed the app (paused, resumed when it comes back), a target refused for good."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace

from bot.app.context import ChannelContext, Context
from bot.app.mutes import MuteCommands, may_change_channel
from bot.app.notices import (
    Alerts,
    AlertsRemoved,
    AlertView,
    ChannelSaved,
    ChannelShown,
    NotAllowed,
    Notice,
    SettingsInChannel,
    SubscriptionWindow,
    UnknownTopics,
    query_refusal,
)
from bot.app.subscriptions import SubscriptionCommands
from bot.settings import Settings
from bot.store.alerts import AlertState
from bot.store.chat import WORKSPACE_GONE, ChannelSettings, ChatState
from bot.store.store import Store
from bot.topics.catalog import load_taxonomy
from bot.topics.query import Query, parse_query

_log = logging.getLogger(__name__)

ChannelContextOf = Callable[..., ChannelContext]  # (platform, channel_id, *, mutes_at=None): stored over configured


class ChannelCommands:
    def __init__(self, settings: Settings, store: Store, chat: ChatState, muting: MuteCommands,
                 subscriptions: SubscriptionCommands, admit: Callable[[str], str],
                 channel_context: ChannelContextOf) -> None:
        self.settings = settings  # the service keeps it current (a reload)
        self.store = store
        self.chat = chat
        self.muting = muting
        self.subscriptions = subscriptions
        self._admit = admit
        self._channel_context = channel_context

    # --- channel settings ---

    def show_channel(self, caller: Context, channel: ChannelContext) -> Notice:
        return ChannelShown(channel, channel.timezone, self.muting.channel_views(caller, channel))

    def configure_channel(self, caller: Context, channel: ChannelContext, changes: dict[str, object]) -> Notice:
        if caller.is_dm:
            return SettingsInChannel()
        if not may_change_channel(self.settings, caller):
            return NotAllowed()
        if isinstance(changes.get("repo"), str):
            changes = {**changes, "repo": self._admit(str(changes["repo"]))}
        topics = changes.get("topics")
        if isinstance(topics, tuple):
            known = set(load_taxonomy(self.settings).ids())
            unknown = tuple(topic for topic in topics if topic not in known)
            if unknown:
                return UnknownTopics(unknown, tuple(sorted(known)))
        base = (self.chat.channel(caller.platform, caller.channel_id)
                or ChannelSettings(platform=caller.platform, channel_id=caller.channel_id))
        updated = replace(base, **changes, enabled=True, status=None)  # type: ignore[arg-type]
        if caller.team_id:
            updated = replace(updated, team_id=caller.team_id)
        saved = self.chat.save_channel(updated, by=caller.user_id)
        _log.info("%s channel %s settings changed by %s: %s", caller.platform, caller.channel_id, caller.user_id,
                  sorted(changes))
        shown = self._channel_context(saved.platform, saved.channel_id)
        return ChannelSaved(shown, tuple(sorted(changes)), shown.timezone, self.muting.channel_views(caller, shown))

    # --- live alerts in a channel ---

    def channel_alert(self, caller: Context, channel: ChannelContext, text: str | None, *, off: bool,
                      parsed: Query | None = None) -> Notice:
        """``channel alert <query>`` / ``channel alert`` / ``channel alert off [<query>]``: with the permission
        of channel settings. ``parsed``: ``text`` as the command parsed it (``ChannelAlert.parsed``)."""
        if caller.is_dm:
            return SettingsInChannel()
        alerts = AlertState(self.store)
        if text is None and not off:
            return Alerts(tuple(map(AlertView.of, alerts.of(caller.platform, caller.channel_id, dm=False))))
        if not may_change_channel(self.settings, caller):
            return NotAllowed()
        if off:
            return AlertsRemoved(text, alerts.remove(caller.platform, caller.channel_id, dm=False, query=text),
                                 dm=False)
        assert text is not None
        query = parsed if parsed is not None and parsed.text == text else parse_query(text)
        if query.problems:
            raise query_refusal(query.problems)
        if query.window is not None:
            return SubscriptionWindow()
        return self.subscriptions.add_alert(caller, channel, text, query, dm=False)

    # --- targets a platform refuses ---

    def pause_workspace(self, platform: str, team_id: str, *, subscriptions: bool = True) -> None:
        """The app was removed from a workspace (Slack uninstall or revoked tokens, Discord guild left): its
        channels (and, with ``subscriptions``, the DMs subscribed from it) stop until it is installed again.
        Logged once, never an error."""
        channels, paused = self.chat.pause_workspace(platform, team_id, subscriptions=subscriptions)
        if subscriptions:
            paused += AlertState(self.store).pause_team(platform, team_id, WORKSPACE_GONE)
        _log.warning("%s workspace %s removed the app: %d channel(s) and %d subscription(s) paused", platform,
                     team_id, channels, paused)

    def resume_workspace(self, platform: str, team_id: str) -> None:
        """The workspace installed the app again: what ``pause_workspace`` stopped resumes."""
        channels, subscriptions = self.chat.resume_workspace(platform, team_id)
        subscriptions += AlertState(self.store).resume_team(platform, team_id, WORKSPACE_GONE)
        if channels or subscriptions:
            _log.warning("%s workspace %s is back: %d channel(s) and %d subscription(s) resumed", platform, team_id,
                         channels, subscriptions)

    def mark_unreachable(self, platform: str, target: str, *, dm: bool, reason: str) -> None:
        """The platform refused a target for good: pause the user's DMs (daily digests and live alerts: the user
        is told once, at their next command), or stop the channel's posts."""
        if dm:
            self.chat.pause_subscriptions(platform, target, reason)
            AlertState(self.store).pause(platform, target, reason)
        else:
            self.chat.mark_channel(platform, target, reason)
        _log.warning("%s %s %s: %s; marked and skipped from now on", platform, "user" if dm else "channel", target,
                     reason)
