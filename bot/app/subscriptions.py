"""Daily DMs and live alerts a user subscribes to: ``subscribe`` / ``unsubscribe`` / ``subscriptions``, and
adding an alert (a user's, or a channel's through ``bot.app.channels``)."""

from __future__ import annotations

from collections.abc import Callable

from bot.app.context import ChannelContext, Context
from bot.app.mutes import MuteCommands, may_change_channel, user_timezone
from bot.app.notices import (
    AlertSet,
    AlertsRemoved,
    AlertView,
    NoRepo,
    Notice,
    QueryAdjusted,
    Refused,
    RepoNeedsAdmin,
    Subscribed,
    SubscriptionView,
    SubscriptionWindow,
    TooManySubscriptions,
    Unsubscribed,
    query_refusal,
)
from bot.app.notices import Subscriptions as SubscriptionsNotice
from bot.settings import Settings
from bot.store.alerts import AlertState
from bot.store.chat import ChatState
from bot.store.mutes import USER
from bot.store.store import Store
from bot.topics.query import Query, as_query


class SubscriptionCommands:
    def __init__(self, settings: Settings, store: Store, chat: ChatState, muting: MuteCommands,
                 admit: Callable[[str], str]) -> None:
        """``admit``: a repository as followed, or ``Refused(RepoNotAllowed)`` (``DigestService.admit``)."""
        self.settings = settings  # the service keeps it current (a reload)
        self.store = store
        self.chat = chat
        self.muting = muting
        self._admit = admit

    def subscribe(self, caller: Context, channel: ChannelContext, text: str | Query, *, at: str | None,
                  tz: str | None, live: bool = False) -> Notice:
        """``text``: the query as typed, or as the command parsed it (``Subscribe.parsed``): parsed once."""
        query = as_query(text)
        text = query.text
        if query.problems:
            raise query_refusal(query.problems)
        if query.window is not None:
            return SubscriptionWindow()
        if live:
            return self.add_alert(caller, channel, text, query, dm=True)
        limit = self.settings.file.chat.max_subscriptions_per_user
        existing = self.chat.subscriptions(caller.platform, caller.user_id)
        if len(existing) >= limit and all(s.query.lower() != text.lower() for s in existing):
            return TooManySubscriptions(limit)
        repo = query.repo or channel.repo
        if repo is not None:
            repo = self._admit(repo)
            # In admins mode a repository beyond [[repos]] and this channel's own is an admin's to add.
            configured = {entry.name for entry in self.settings.repos}
            if (query.repo is not None and repo != channel.repo and repo not in configured
                    and not may_change_channel(self.settings, caller)):
                return RepoNeedsAdmin(repo)
        subscription, created = self.chat.subscribe(
            caller.platform, caller.user_id, text, repo=repo,
            post_time=at or channel.post_time, timezone=tz or channel.timezone, locale=channel.locale,
            team_id=caller.team_id,
        )
        return Subscribed(SubscriptionView.of(subscription), created,
                          tuple(QueryAdjusted.of(note) for note in query.adjustments))

    def unsubscribe(self, caller: Context, text: str | None, *, live: bool = False) -> Notice:
        alerts = AlertState(self.store)
        if live:
            return AlertsRemoved(text, alerts.remove(caller.platform, caller.user_id, dm=True, query=text), dm=True)
        removed = self.chat.unsubscribe(caller.platform, caller.user_id, text)
        if text is None:  # all: the live alerts too
            removed += alerts.remove(caller.platform, caller.user_id, dm=True, query=None)
        remaining = tuple(map(SubscriptionView.of, self.chat.subscriptions(caller.platform, caller.user_id)))
        return Unsubscribed(text, removed, remaining)

    def subscriptions(self, caller: Context, channel: ChannelContext) -> Notice:
        subscriptions = self.chat.subscriptions(caller.platform, caller.user_id)
        timezone = user_timezone(subscriptions, channel)
        alerts = AlertState(self.store).of(caller.platform, caller.user_id, dm=True)
        return SubscriptionsNotice(tuple(map(SubscriptionView.of, subscriptions)), timezone,
                                   self.muting.views(caller, USER, caller.user_id, channel, timezone),
                                   alerts=tuple(map(AlertView.of, alerts)))

    def add_alert(self, caller: Context, channel: ChannelContext, text: str, query: Query, *, dm: bool) -> Notice:
        """A live alert on ``query`` for the caller's DMs (``dm``) or the channel; its permission checked before."""
        alerts = AlertState(self.store)
        target = caller.user_id if dm else caller.channel_id
        limit = self.settings.file.chat.max_subscriptions_per_user
        existing = alerts.of(caller.platform, target, dm=dm)
        if len(existing) >= limit and all(a.query.lower() != text.lower() for a in existing):
            return TooManySubscriptions(limit)
        repo = query.repo or channel.repo
        if repo is None:
            raise Refused(NoRepo())
        repo = self._admit(repo)
        configured = {entry.name for entry in self.settings.repos}
        if (query.repo is not None and repo != channel.repo and repo not in configured
                and not may_change_channel(self.settings, caller)):
            return RepoNeedsAdmin(repo)
        alert, created = alerts.add(caller.platform, target, dm=dm, query=text, repo=repo, locale=channel.locale,
                                    timezone=channel.timezone, by=caller.user_id, team_id=caller.team_id)
        return AlertSet(AlertView.of(alert), dm, created, tuple(QueryAdjusted.of(note) for note in query.adjustments))
