"""Where an answer goes and how it is read there: the explicit input of every use case."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo


@dataclass(frozen=True)
class ChannelContext:
    """A channel's (or a DM's, or the terminal's) effective settings: stored values over the configured ones.

    ``topics`` narrows the repository's topics (None: the repository's own list); ``mutes`` are the topic ids
    left out of digests at the moment the context was made. A channel's context also says where it is and
    whether it gets daily posts: ``configured`` (someone saved its settings), ``enabled``, ``status`` (why
    delivery stopped, e.g. the bot was removed) and ``updated_at`` (a post time before it is not owed)."""

    repo: str | None
    post_time: str
    timezone: str
    locale: str
    topics: tuple[str, ...] | None = None
    mutes: frozenset[str] = frozenset()
    platform: str = ""
    channel_id: str = ""
    configured: bool = False
    enabled: bool = True
    status: str | None = None
    updated_at: datetime | None = None

    @property
    def posts_daily(self) -> bool:
        return self.configured and self.enabled and not self.status and self.repo is not None

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)


@dataclass(frozen=True)
class Context:
    """Who asks, from where, when: what a chat platform knows about one command."""

    platform: str  # slack | discord
    channel_id: str
    user_id: str
    now: datetime
    can_manage: bool = False  # the platform says this user administers the channel
    is_dm: bool = False
