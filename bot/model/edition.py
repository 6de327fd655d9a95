"""The edited digest: where each item's one full entry goes, decided once for every surface.

A built digest has candidate lists (every topic's items, ten hot discussions, ten key changes, ten notable
bugs) in which one item can sit in four places. ``edit`` turns them into the page a person reads
(docs/editorial.md, "One page, every surface"): the followed topics (at most ``MAX_TOPICS``, the most important
first), hot discussions, key changes and notable issues, each showing at most ``ENTRIES`` full entries; an item
that belongs to several of them has its full entry where it ranks best and a short reference (``Ref``)
elsewhere; the topics the reader does not follow become one line each (``TopicIndexEntry``). Slack, Discord,
Markdown, the terminal, the report page and JSON all render this one structure: the chat post shows its top
part, the page and Markdown the whole of it.

Pure and deterministic: the same digest gives the same edition, so the builder computes it once and any
renderer can recompute it for a digest made by hand.
"""

from __future__ import annotations

from collections.abc import Mapping

from msgspec import Struct

from bot.model import BUILTIN_SECTIONS, TOPIC_PREFIX, Digest, Section

ENTRIES = 5  # full entries a section shows on the page and in Markdown
TOPIC_ENTRIES = 10  # full entries the followed topics share (five each for one or two; two each for five)
MIN_TOPIC_ENTRIES = 2
MAX_TOPICS = 5  # followed topics with a section of their own; the rest join the topic index
# On a tie in rank, the more specific place keeps the entry: the reader's own topic, then what broke, what
# changed, what people argue about.
PRIORITY = ("topic", "notable", "key_changes", "hot")


class Ref(Struct, frozen=True):
    """A candidate of a section whose full entry is in ``home`` (a section id): shown here as a short link."""

    number: int
    home: str


class EditedSection(Struct, frozen=True):
    """One section as every surface shows it: ``entries``, the items whose full entry is here (best first);
    ``refs``, candidates ranked among them whose entry is elsewhere; ``rest``, the other candidates, best first
    (the page and Markdown link them, to their entry where they have one; a chat post counts them); ``total``,
    every candidate."""

    id: str
    entries: tuple[int, ...]
    refs: tuple[Ref, ...] = ()
    rest: tuple[int, ...] = ()
    total: int = 0

    @property
    def topic(self) -> str | None:
        return self.id.removeprefix(TOPIC_PREFIX) if self.id.startswith(TOPIC_PREFIX) else None

    @property
    def shown(self) -> int:
        """Candidates the page shows here, as an entry or a reference (the header's "n of total")."""
        return len(self.entries) + len(self.refs)


class TopicIndexEntry(Struct, frozen=True):
    """A topic with items in the window that has no section of its own: its name and how many items."""

    topic: str
    title: str
    count: int


class Edition(Struct, frozen=True):
    topics: tuple[EditedSection, ...] = ()  # followed topics with items, most important first
    hot: EditedSection | None = None
    key_changes: EditedSection | None = None
    notable: EditedSection | None = None
    quiet: tuple[str, ...] = ()  # followed topic ids with nothing in the window, in the order followed
    index: tuple[TopicIndexEntry, ...] = ()  # every other topic with items, busiest first

    def sections(self) -> tuple[EditedSection, ...]:
        """Every edited section in reading order: followed topics, hot, key changes, notable."""
        builtin = (self.hot, self.key_changes, self.notable)
        return (*self.topics, *(section for section in builtin if section is not None))

    def section(self, section_id: str) -> EditedSection | None:
        return next((s for s in self.sections() if s.id == section_id), None)

    def home(self) -> dict[int, str]:
        """Item number -> the section id holding its full entry."""
        return {number: section.id for section in self.sections() for number in section.entries}


def edit(
    digest: Digest,
    *,
    importance: Mapping[str, float] | None = None,
    entries: int = ENTRIES,
    max_topics: int = MAX_TOPICS,
) -> Edition:
    """The edition of ``digest``. ``importance``: a score per followed topic (the builder's: what its items
    are); the followed topics with items are ordered by it (highest first, then the order followed), else kept
    in the order followed.

    Placement is a draft: round by round, each section in turn (followed topics, notable, key changes, hot)
    takes its best candidate not yet placed, so an item's full entry goes where it ranks best, the more specific
    place winning a tie, and a section that loses an item to another fills up from its next candidate."""
    followed = list(dict.fromkeys(digest.followed))
    found = {topic: digest.section(TOPIC_PREFIX + topic) for topic in followed}
    with_items = [topic for topic in followed if (s := found[topic]) is not None and s.items]
    quiet = tuple(topic for topic in followed if (s := found[topic]) is not None and not s.items)
    if importance:
        order = {topic: k for k, topic in enumerate(with_items)}
        with_items.sort(key=lambda topic: (-importance.get(topic, 0.0), order[topic]))
    chosen: list[Section] = [found[topic] for topic in with_items[: max(max_topics, 0)]]  # type: ignore[misc]
    builtin: dict[str, Section | None] = {kind: digest.section(kind) for kind in BUILTIN_SECTIONS}
    by_priority = [*chosen, *(s for kind in PRIORITY[1:] if (s := builtin[kind]) is not None)]

    # A page that follows five topics stays one page: the topics share their entries (their other items are
    # short links), the built-in sections keep theirs.
    per_topic = max(min(entries, MIN_TOPIC_ENTRIES), min(entries, TOPIC_ENTRIES // max(len(chosen), 1)))
    room = {section.id: per_topic if section.kind == "topic" else entries for section in by_priority}
    placed: dict[int, str] = {}
    taken: dict[str, list[int]] = {section.id: [] for section in by_priority}
    cursor = dict.fromkeys(taken, 0)
    for _ in range(max(entries, 0)):
        for section in by_priority:
            if len(taken[section.id]) >= room[section.id]:
                continue
            items = section.items
            k = cursor[section.id]
            while k < len(items) and items[k].number in placed:
                k += 1
            if k < len(items):
                placed[items[k].number] = section.id
                taken[section.id].append(items[k].number)
                k += 1
            cursor[section.id] = k

    def edited(section: Section) -> EditedSection:
        seen = cursor[section.id]  # the candidates the draft reached: entries and, among them, references
        numbers = list(dict.fromkeys(item.number for item in section.items))
        head = numbers[:seen]
        refs = tuple(Ref(n, placed[n]) for n in head if placed.get(n, section.id) != section.id)
        rest = tuple(numbers[seen:])
        return EditedSection(section.id, tuple(taken[section.id]), refs, rest, max(len(numbers), section.candidates))

    topics = tuple(edited(section) for section in chosen)
    shown = {section.id for section in chosen}
    others = [
        TopicIndexEntry(s.topic or "", s.title, len({item.number for item in s.items}))
        for s in digest.sections
        if s.kind == "topic" and s.items and s.id not in shown
    ]
    others.sort(key=lambda entry: (-entry.count, entry.topic))
    return Edition(
        topics=topics,
        hot=edited(builtin["hot"]) if builtin["hot"] is not None else None,
        key_changes=edited(builtin["key_changes"]) if builtin["key_changes"] is not None else None,
        notable=edited(builtin["notable"]) if builtin["notable"] is not None else None,
        quiet=quiet,
        index=tuple(others),
    )


def edition_of(digest: Digest) -> Edition:
    """The digest's edition as its builder made it, or worked out now (a digest made by hand, in tests)."""
    return digest.edition if digest.edition is not None else edit(digest)


__all__ = ["ENTRIES", "MAX_TOPICS", "EditedSection", "Edition", "Ref", "TopicIndexEntry", "edit", "edition_of"]
