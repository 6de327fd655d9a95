"""Store records -> the DigestItems every section and query answer shows."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from bot.model import DigestItem, Reason, Window
from bot.store.records import ItemRecord, WindowActivity


def item_state(item: ItemRecord, window: Window) -> str:
    """What happened to the item in the window, most decisive first."""
    if item.merged_at in window:
        return "merged"
    if item.closed_at in window:
        return "closed"
    if item.created_at in window:
        return "new"
    return item.state


class ItemViewer:
    def __init__(self, window: Window, activity: WindowActivity, is_bot: Callable[[str], bool] | None = None):
        self.window = window
        self.activity = activity
        self._is_bot = is_bot
        self._bots: dict[str, bool] = {}  # by login: every section asks again for the same few hundred authors
        # by item: an item is shown in several sections (appendix, topics, highlights), its state once
        self._states: dict[int, str] = {}

    def is_bot(self, item: ItemRecord) -> bool:
        if item.author_is_bot or self._is_bot is None:
            return item.author_is_bot
        known = self._bots.get(item.author)
        if known is None:
            known = self._bots[item.author] = self._is_bot(item.author)
        return known

    def comments(self, item: ItemRecord) -> int:
        return self.activity.comments_in_window.get(item.number, 0)

    def reactions(self, item: ItemRecord) -> int:
        return item.reactions + self.activity.comment_reactions_in_window.get(item.number, 0)

    def _state(self, item: ItemRecord) -> str:
        state = self._states.get(item.number)
        if state is None:
            state = self._states[item.number] = item_state(item, self.window)
        return state

    def __call__(self, item: ItemRecord, why: Reason, event_time: datetime | None = None) -> DigestItem:
        return DigestItem(
            number=item.number,
            kind=item.kind,
            title=item.title,
            url=item.url,
            author=item.author,
            labels=item.labels,
            summary=item.summary,
            state=self._state(item),
            event_time=event_time,
            comments_in_window=self.comments(item),
            reactions=self.reactions(item),
            author_is_bot=self.is_bot(item),
            why=why,
        )
