"""The digest as JSON: a stable contract (keys are only ever added, never renamed)."""

from __future__ import annotations

import json
from typing import Any

from bot.digest.model import Digest, DigestItem, QueryResult
from bot.timeutil import iso_z


def item_to_dict(item: DigestItem) -> dict[str, Any]:
    data: dict[str, Any] = {
        "number": item.number,
        "kind": item.kind,
        "title": item.title,
        "url": item.url,
        "author": item.author,
        "labels": list(item.labels),
        "summary": item.summary,
        "reason": item.reason,
        "state": item.state,
        "comments_in_window": item.comments_in_window,
        "reactions": item.reactions,
    }
    if item.event_time is not None:
        data["event_time"] = iso_z(item.event_time)
    return data


def digest_to_dict(digest: Digest) -> dict[str, Any]:
    return {
        "repo": digest.repo,
        "window": {
            "start": iso_z(digest.window.start),
            "end": iso_z(digest.window.end),
            "timezone": digest.window.timezone,
        },
        "stats": digest.stats.as_dict(),
        "sections": [
            {"id": section.id, "title": section.title, "items": [item_to_dict(i) for i in section.items]}
            for section in digest.sections
        ],
        "appendix": {key: [item_to_dict(i) for i in items] for key, items in digest.appendix.items()},
    }


def query_to_dict(result: QueryResult) -> dict[str, Any]:
    data: dict[str, Any] = {
        "query": result.query,
        "parsed": result.parsed,
        "repo": result.repo,
        "window": {
            "start": iso_z(result.window.start),
            "end": iso_z(result.window.end),
            "timezone": result.window.timezone,
        },
        "items": [item_to_dict(item) for item in result.items],
    }
    if result.topic:
        data["topic"] = result.topic
    if result.suggestions:
        data["suggestions"] = list(result.suggestions)
    return data


def render_json(answer: Digest | QueryResult) -> str:
    data = query_to_dict(answer) if isinstance(answer, QueryResult) else digest_to_dict(answer)
    return json.dumps(data, ensure_ascii=False, indent=2)
