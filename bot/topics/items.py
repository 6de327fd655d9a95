"""Topic membership of stored items: the matches the sync stored, or computed now from the cleaned prose."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from msgspec import structs

from bot.store.history import History
from bot.store.records import ItemRecord
from bot.store.store import Store
from bot.topics.taxonomy import Taxonomy, Topic, TopicMatch


def item_topics(taxonomy: Taxonomy, item: ItemRecord) -> list[TopicMatch]:
    if item.topics is not None and item.topics_key == taxonomy.fingerprint:
        return [TopicMatch.from_stored(topic_id, score, evidence) for topic_id, score, evidence in item.topics
                if taxonomy.get(topic_id) is not None]
    found = (topic.match(item.title, item.labels, item.prose, item.author) for topic in taxonomy.topics)
    return [match for match in found if match is not None]


def topic_match(taxonomy: Taxonomy, topic: Topic, item: ItemRecord) -> TopicMatch | None:
    """One topic's match of an item, from the stored matches when they are current."""
    if item.topics is not None and item.topics_key == taxonomy.fingerprint:
        return next((TopicMatch.from_stored(t, s, e) for t, s, e in item.topics if t == topic.id), None)
    return topic.match(item.title, item.labels, item.prose, item.author)


def classify(taxonomy: Taxonomy, item: ItemRecord) -> ItemRecord:
    """The item with its topic matches and its kinds (``bot.topics.kinds``) worked out, as the sync saves it."""
    from bot.topics.kinds import with_kinds  # the sync's: a search or a digest reads the stored kinds

    found = [topic.match(item.title, item.labels, item.prose, item.author) for topic in taxonomy.topics]
    topics = tuple(m.stored() for m in found if m is not None)
    return with_kinds(structs.replace(item, topics=topics, topics_key=taxonomy.fingerprint))


def stored_topic_ids(
    store: Store,
    taxonomy: Taxonomy,
    repo: str,
    numbers: Iterable[int],
    *,
    skip_author: Callable[[str, bool], bool] | None = None,
) -> tuple[dict[int, tuple[str, ...]], bool]:
    """Topic ids of many stored items, read in bulk: the sync's stored matches (every topic of the sync's
    taxonomy) when their fingerprint is ``taxonomy``'s, else ``taxonomy``'s topics matched now. The flag says
    whether every item had current stored matches. ``skip_author(login, is_bot)`` leaves items out."""
    history = History(store)
    found: dict[int, tuple[str, ...]] = {}
    stale: dict[int, str] = {}  # number -> author: topics may list authors, and the matchable rows lack them
    for row in history.lean_items(repo, list(numbers)):
        if skip_author is not None and skip_author(row.author, row.author_is_bot):
            continue
        if row.topics is not None and row.topics_key == taxonomy.fingerprint:
            found[row.number] = tuple(topic for topic, _, _ in row.topics)
        else:
            stale[row.number] = row.author
    for row in history.lean_items(repo, list(stale), matchable=True) if stale else ():
        labels = tuple(row.labels or ())
        author = stale[row.number]
        found[row.number] = tuple(topic.id for topic in taxonomy.topics
                                  if topic.match(row.title, labels, row.prose or "", author) is not None)
    return found, not stale
