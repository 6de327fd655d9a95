"""Where an answer goes and how it is read there: the explicit input of every use case."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from msgspec import Struct

from bot.model import THREAD_MODES, ThreadMode


class ChannelContext(Struct, frozen=True):
    """A channel's (or a DM's, or the terminal's) effective settings: stored values over the configured ones.

    ``topics`` are the topics it follows (None: the repository's ``default_topics``): every topic keeps its
    section, these lead the chat post; ``mutes`` are the topic ids left out of digests at the moment the context
    was made; ``thread`` what a posted digest's thread carries (``short``: the counts linked to GitHub's
    searches; ``full``: the complete appendix too). A channel's context also says where it is and
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
    thread: ThreadMode = "short"
    team_id: str | None = None  # the workspace (Slack team, Discord guild) the channel belongs to, when known

    @property
    def posts_daily(self) -> bool:
        return self.configured and self.enabled and not self.status and self.repo is not None

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)


class Context(Struct, frozen=True):
    """Who asks, from where, when: what a chat platform knows about one command."""

    platform: str  # slack | discord
    channel_id: str
    user_id: str
    now: datetime
    can_manage: bool = False  # the platform says this user administers the channel
    is_dm: bool = False
    team_id: str | None = None  # the workspace the command came from (Slack team, Discord guild)


class PostRequest(Struct, frozen=True):
    """What a ``/digest post`` was built from: the text, the channel's context as used (topics and mutes then)
    and the ``now`` it was answered for. Stored with the post's ledger row (``deliveries.request``), so the
    worker can rebuild the same answer and finish an interrupted post by itself."""

    text: str
    context: ChannelContext
    now: datetime

    def to_json(self) -> dict[str, Any]:
        c = self.context
        return {"v": 1, "text": self.text, "now": self.now.astimezone(UTC).isoformat(), "repo": c.repo,
                "post_time": c.post_time, "timezone": c.timezone, "locale": c.locale,
                "topics": list(c.topics) if c.topics is not None else None, "mutes": sorted(c.mutes),
                "thread": c.thread, **({"team": c.team_id} if c.team_id else {})}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PostRequest:
        """Raises ``ValueError`` (or ``KeyError``/``TypeError``) for a row it cannot read."""
        if data.get("v") != 1:
            raise ValueError(f"unknown post request version {data.get('v')!r}")
        topics = data["topics"]
        thread = data.get("thread") or "short"  # rows stored before the setting existed: the default
        if thread not in THREAD_MODES:
            raise ValueError(f"unknown thread setting {thread!r}")
        context = ChannelContext(repo=data["repo"], post_time=str(data["post_time"]), timezone=str(data["timezone"]),
                                 locale=str(data["locale"]),
                                 topics=tuple(str(t) for t in topics) if topics is not None else None,
                                 mutes=frozenset(str(m) for m in data["mutes"]), thread=thread,
                                 team_id=str(data["team"]) if data.get("team") else None)
        now = datetime.fromisoformat(str(data["now"]))
        if now.tzinfo is None:
            raise ValueError("a post request's now must carry its offset")
        return cls(text=str(data["text"]), context=context, now=now)
