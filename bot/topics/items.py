"""Topic membership of stored items, using the prose cleaned once at sync time."""

from __future__ import annotations

from bot.store.records import ItemRecord
from bot.topics.taxonomy import Taxonomy, TopicMatch


def item_topics(taxonomy: Taxonomy, item: ItemRecord) -> list[TopicMatch]:
    found = (topic.match(item.title, item.labels, item.prose) for topic in taxonomy.topics)
    return [match for match in found if match is not None]
