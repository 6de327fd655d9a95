"""The digest as JSON: a stable contract (keys are only ever added, never renamed)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from bot.digest.model import Digest, DigestItem, Narrative, QueryResult
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
    if item.streak_days is not None:
        data["streak_days"] = item.streak_days
    if item.analysis is not None:
        data["analysis"] = {key: value for key, value in dataclasses.asdict(item.analysis).items() if value}
    return data


def narrative_to_dict(narrative: Narrative) -> dict[str, Any]:
    activity = narrative.activity
    return {
        "summary": narrative.summary,
        "summary_source": narrative.summary_source,
        "trends": [
            {"topic": t.topic, "title": t.title, "count": t.count, "baseline": t.baseline, "items": list(t.items)}
            for t in narrative.trends
        ],
        "activity": {
            "contributors": activity.contributors,
            "first_time_contributors": activity.first_time_contributors,
            "merge_rate": activity.merge_rate,
            "median_hours_to_merge": activity.median_hours_to_merge,
            "busiest_areas": [{"title": title, "count": count} for title, count in activity.busiest_areas],
        },
    }


def digest_to_dict(digest: Digest) -> dict[str, Any]:
    data: dict[str, Any] = {
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
    if digest.narrative is not None:
        data["narrative"] = narrative_to_dict(digest.narrative)
    return data


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
