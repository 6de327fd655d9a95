"""Topic membership of stored items: the matches the sync stored, or computed now from the cleaned prose."""

from __future__ import annotations

import dataclasses

from bot.store.records import ItemRecord
from bot.topics.taxonomy import Taxonomy, Topic, TopicMatch


def item_topics(taxonomy: Taxonomy, item: ItemRecord) -> list[TopicMatch]:
    if item.topics is not None and item.topics_key == taxonomy.fingerprint:
        return [TopicMatch(topic_id, score, reasons) for topic_id, score, reasons in item.topics
                if taxonomy.get(topic_id) is not None]
    found = (topic.match(item.title, item.labels, item.prose) for topic in taxonomy.topics)
    return [match for match in found if match is not None]


def topic_match(taxonomy: Taxonomy, topic: Topic, item: ItemRecord) -> TopicMatch | None:
    """One topic's match of an item, from the stored matches when they are current."""
    if item.topics is not None and item.topics_key == taxonomy.fingerprint:
        return next((TopicMatch(t, s, r) for t, s, r in item.topics if t == topic.id), None)
    return topic.match(item.title, item.labels, item.prose)


def classify(taxonomy: Taxonomy, item: ItemRecord) -> ItemRecord:
    """The item with its topic matches stored, as the sync saves it."""
    found = [topic.match(item.title, item.labels, item.prose) for topic in taxonomy.topics]
    topics = tuple((m.topic_id, m.score, m.reasons) for m in found if m is not None)
    return dataclasses.replace(item, topics=topics, topics_key=taxonomy.fingerprint)
