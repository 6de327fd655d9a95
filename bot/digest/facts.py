"""What an item's own text and the window say beyond its title: ``bot.model.ItemFacts``, values without words.

From the stored record and the window's ``WindowActivity``: what the item's text says (the error a report quotes,
the accelerators and version it runs, the issues a PR closes, the figure it quotes, its first sentence that says
more than the title: ``bot.topics.text_facts``, worked out by the sync and stored with the item), a PR's size
and first-time author, and what the window's comments say (who replied first, who confirmed). ``formatters.facts``
puts them into words in each locale.

An item stored before the text rules changed (another ``KINDS_KEY``) has its text facts worked out here, once per
text (``text_facts`` remembers them by the text's hash), until the sync re-does it.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from msgspec import structs

from bot.model import Digest, ItemFacts
from bot.store.records import FIRST_TIMER_ASSOCIATIONS, ItemRecord, WindowActivity
from bot.topics.kinds import KINDS_KEY, bug_kind


def item_facts(item: ItemRecord, activity: WindowActivity | None = None) -> ItemFacts | None:
    """Everything known about ``item`` beyond its title, or None when nothing is: what its text says
    (``text_facts``), its size and author (a PR's), the failure it reports (an issue's), and what the window's
    comments say (who replied first, who confirmed)."""
    discussion = activity.discussions.get(item.number) if activity is not None else None
    known: dict[str, Any] = dict(text_facts(item))
    if item.is_pr:
        for name, value in (("additions", item.additions), ("deletions", item.deletions),
                            ("files", item.changed_files)):
            if value is not None:
                known[name] = value
        if item.author_association in FIRST_TIMER_ASSOCIATIONS:
            known["first_time"] = True
    elif (failure := bug_kind(item)) is not None:
        known["failure"] = failure
    if discussion is not None:
        if discussion.first_maintainer:
            known["first_reply"] = discussion.first_maintainer
        if discussion.confirmations:
            known["confirmations"] = discussion.confirmations
    return ItemFacts(**known) if known else None


def text_facts(item: ItemRecord) -> Mapping[str, object]:
    """What the item's title, body and prose say, as ``ItemFacts`` fields (those not at their default): as the
    sync stored them, else worked out (``bot.topics.text_facts``) and remembered by the text, for the digests of
    one day for every channel, locale and report page."""
    if item.text_facts is not None and item.kinds_key == KINDS_KEY:
        return dict(item.text_facts)
    key = _text_key(item)
    known = _TEXT.get(key)
    if known is None:
        from bot.topics.text_facts import text_facts_of  # its patterns compile at import: stale items only

        known = MappingProxyType(text_facts_of(item))
        _TEXT.put(key, known)
    return known


def _text_key(item: ItemRecord) -> tuple[str, int, str, int, int, int]:
    """The item's text, by its hashes: two texts of one item colliding on all three is not a concern."""
    return (item.repo, item.number, item.kind, hash(item.title), hash(item.body), hash(item.prose))


class _Memo:
    """A bounded map shared by the threads that build digests: past ``size`` entries the oldest half goes."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: dict[Any, Any] = {}
        self._lock = threading.Lock()

    def get(self, key: object, default: object = None) -> Any:
        return self._entries.get(key, default)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def put(self, key: object, value: object) -> None:
        with self._lock:
            if len(self._entries) >= self.size:
                for old in list(itertools.islice(self._entries, self.size // 2)):
                    self._entries.pop(old, None)
            self._entries[key] = value


def forget() -> None:
    """Forget every item's remembered facts (bench_digest times a day's first build with it)."""
    _TEXT.clear()


# Items remembered: a busy repository's day is ~800 items, a week of them ~5,600; ~1.2 KB each, ~10 MB at most.
MEMO_SIZE = 8_192
_TEXT = _Memo(MEMO_SIZE)  # what each item's text says


def with_facts(digest: Digest, activity: WindowActivity) -> Digest:
    """``digest`` with ``facts`` on every item of its sections (the appendix lists stay bare), each item's facts
    worked out once however many sections show it."""
    known: dict[int, ItemFacts | None] = {}
    sections = []
    for section in digest.sections:
        items = []
        for item in section.items:
            number = item.number
            if number in known:
                facts = known[number]
            else:
                record = activity.items.get(number)
                facts = known[number] = item_facts(record, activity) if record is not None else None
            if facts is not None and facts != item.facts:
                item = structs.replace(item, facts=facts)
            items.append(item)
        sections.append(structs.replace(section, items=tuple(items)) if items else section)
    return structs.replace(digest, sections=tuple(sections))
