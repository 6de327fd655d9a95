"""What every chat platform adapter offers the scheduler and the command handlers.

Adapters (Slack, Discord) implement ``Messenger``; failures that retrying cannot fix (a deleted channel,
a user who closed DMs) raise ``DeliveryError(permanent=True)`` so the caller marks the target once and moves on.
"""

from __future__ import annotations

from typing import Protocol

from bot.digest.model import Digest, QueryResult


class DeliveryError(Exception):
    def __init__(self, reason: str, *, permanent: bool, target: str = "") -> None:
        super().__init__(f"{target}: {reason}" if target else reason)
        self.reason = reason
        self.permanent = permanent
        self.target = target


class Messenger(Protocol):
    platform: str

    async def post_digest(self, channel_id: str, digest: Digest, *, locale: str, timezone: str) -> list[str]:
        """Headline in the channel, sections in its thread; returns the platform's message ids."""
        ...

    async def send_dm(
        self, user_id: str, answer: Digest | QueryResult, *, locale: str, timezone: str
    ) -> list[str]:
        """One user's daily digest or query answer by direct message."""
        ...
