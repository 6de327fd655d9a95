"""What every chat platform adapter offers delivery and command replies: the ``Messenger`` port.

Adapters (Slack, Discord) implement it. Failures that retrying cannot fix (a deleted channel, a user who
closed DMs) raise ``DeliveryError(permanent=True)``; the delivery layer marks the target once
(``DigestService.mark_unreachable``) and moves on. Adapters never write chat state themselves.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from bot.model import Answer

OnPart = Callable[[str], Awaitable[None]]
Pace = Callable[[], Awaitable[None]]


class DeliveryError(Exception):
    """``ambiguous``: the platform may have accepted the message before the failure (a 5xx, a timeout, a
    dropped connection): whoever sends that part again must first look whether it landed (``check_first``)."""

    def __init__(self, reason: str, *, permanent: bool, target: str = "", ambiguous: bool = False) -> None:
        super().__init__(f"{target}: {reason}" if target else reason)
        self.reason = reason
        self.permanent = permanent
        self.target = target
        self.ambiguous = ambiguous


class Messenger(Protocol):
    platform: str

    async def deliver(self, target: str, answer: Answer, *, dm: bool, locale: str, timezone: str,
                      sent: Sequence[str] = (), on_part: OnPart | None = None, pace: Pace | None = None,
                      key: str | None = None, check_first: bool = False) -> list[str]:
        """Send the parts of ``answer`` after the first ``len(sent)`` (same rendering, same order; in a channel,
        later parts go in the thread of ``sent[0]``), awaiting ``on_part(id)`` after each accepted one, so the
        delivery ledger records it before the next is sent, and ``pace()`` before each (a fan-out's client-side
        rate limit). Returns every part's message id.

        ``key`` (a delivery's stable id) marks each part as (key, part number) where the platform allows it, so
        a part can be recognised after an ambiguous failure: Slack message metadata, a Discord nonce. With
        ``check_first`` the first unsent part may already have landed (a retry after an ambiguous failure, a
        takeover): the messenger looks for it and reports the found message instead of posting it again."""
        ...
