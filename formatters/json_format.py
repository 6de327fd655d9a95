"""The digest as JSON: a stable contract (keys are only ever added, never renamed).

An item's ``reason`` is frozen English, written here from its typed reason exactly as the builder wrote it
before reasons were typed (``contract_reason``; tests pin every kind): display wording may change, this may
not. ``why`` (added) is the typed reason itself: ``{"kind": ..., ...}``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, assert_never

import orjson
from msgspec import structs, to_builtins

from bot.model import (
    LEGACY_SIGNALS,
    Active,
    Digest,
    DigestItem,
    Evidence,
    Hot,
    InReview,
    InTopic,
    Listed,
    Merged,
    Narrative,
    NewBug,
    QueryMatch,
    QueryResult,
    Reason,
    Signal,
    TermHit,
    Theme,
)
from bot.timeutil import iso_z
from formatters.locale import strings
from formatters.sections import section_title

if TYPE_CHECKING:  # a query's answer has no edition: its module loads for a digest only
    from bot.model.edition import EditedSection, Edition

_SIGNALS = {
    "bugfix": "bugfix", "breaking": "breaking/removal", "new_model": "new model", "feature": "feature",
    "hardware": "hardware support", "default": "changed default", "internal": "internal",
}
_COUNTED = {"comments": "comments", "reactions": "reactions", "areas": "areas", "lines": "lines", "files": "files",
            "review_comments": "review comments"}
_BUGS = {"wrong_output": "wrong output", "null_output": "null output", "config_failure": "config failure"}
_LISTED = {"closed_unmerged": "closed unmerged"}


def contract_reason(why: Reason) -> str:
    """The JSON ``reason`` of a typed reason: the contract's English, never translated or reworded."""
    match why:
        case Hot(comments=comments, reactions=reactions):
            return f"{comments} comments in window" + (f", {reactions} reactions" if reactions else "")
        case Merged(signals=signals):
            # Frozen as it was before PR sizes and kinds of change: those are in ``why`` only.
            shown = [s for s in signals if s.kind in LEGACY_SIGNALS]
            return "merged" + (": " + ", ".join(_contract_signal(s) for s in shown) if shown else "")
        case InReview(signals=signals):
            return "in review" + (": " + ", ".join(_contract_signal(s) for s in signals) if signals else "")
        case NewBug(bug=bug, comments=comments):
            return f"new bug: {_BUGS.get(bug, bug)}" + (f", {comments} comments" if comments else "")
        case InTopic(evidence=evidence):
            return _contract_evidence(evidence)
        case Listed(event=event):
            return _LISTED.get(event, event)
        case QueryMatch(terms=terms):
            return "; ".join(_contract_term(term) for term in terms)
        case Active(event=event, comments=comments):
            return f"{comments} comments in window" if event == "commented" else f"{event} in window"
        case _:
            assert_never(why)


def _contract_signal(signal: Signal) -> str:
    if signal.kind == "tag":
        return f"[{signal.value}]"
    if signal.kind == "label":
        return f"label {signal.value}"
    if signal.kind in _COUNTED:
        return f"{signal.count} {_COUNTED[signal.kind]}"
    if signal.kind == "speedup":
        return f"speed-up {signal.value}" if signal.value else "speed-up"
    if signal.kind == "fix":
        return f"fixes {_BUGS.get(signal.value, signal.value)}"
    return _SIGNALS[signal.kind]


def _contract_evidence(evidence: tuple[Evidence, ...]) -> str:
    texts = []
    for found in evidence:
        if found.source == "label":
            texts.append(f"label {found.value}")
        elif found.source == "tag":
            texts.append(f"tag [{found.value}]")
        elif found.source == "title":
            texts.append(f"title: {found.value}")
        elif found.source == "body_lead":
            texts.append(f"body opens with: {found.value}")
        elif found.source == "author":
            texts.append(f"by @{found.value}")
        else:
            texts.append(f"body: {found.value}" + (f" ({found.sentences}x)" if found.sentences else ""))
    return ", ".join(texts)


def _contract_term(term: TermHit) -> str:
    if term.source == "topic":
        return f"{term.topic.id if term.topic else ''}: {_contract_evidence(term.evidence)}"
    if term.source == "label":
        return f"label {term.value}"
    return f"{term.source}: {term.value}"


def why_to_dict(why: Reason) -> dict[str, Any]:
    """The typed reason as JSON: ``kind`` (hot, merged, in_review, new_bug, topic, listed, query, active) and
    every field of it; inside, evidence, signals, query terms and topics are objects without the fields left at their
    default (``{"source": "tag", "value": "rocm"}``, ``{"kind": "comments", "count": 12}``). Arrays may be tuples:
    the dict is only ever written as JSON."""
    data: dict[str, Any] = {"kind": why.kind}
    for name in why.__struct_fields__:
        data[name] = to_builtins(getattr(why, name))  # inner values: their classes omit_defaults
    return data


def item_to_dict(item: DigestItem) -> dict[str, Any]:
    data: dict[str, Any] = {
        "number": item.number,
        "kind": item.kind,
        "title": item.title,
        "url": item.url,
        "author": item.author,
        "labels": list(item.labels),
        "summary": item.summary,
        "reason": contract_reason(item.why) if item.why is not None else "",
        "state": item.state,
        "comments_in_window": item.comments_in_window,
        "reactions": item.reactions,
    }
    if item.event_time is not None:
        data["event_time"] = iso_z(item.event_time)
    if item.streak_days is not None:
        data["streak_days"] = item.streak_days
    if item.analysis is not None:
        data["analysis"] = {key: value for key, value in structs.asdict(item.analysis).items() if value}
    if item.why is not None:
        data["why"] = why_to_dict(item.why)
    if item.facts is not None:
        data["facts"] = to_builtins(item.facts)  # added: what its text says, fields at their default left out
    return data


def edition_to_dict(edition: Edition) -> dict[str, Any]:
    """What every surface shows (``bot.model.edition``): per section the item numbers with their full entry
    there, the references to entries elsewhere, the rest, and how many candidates it had; the followed topics
    without items; the other topics' index. ``sections`` beside it keeps every candidate, for tools."""

    def section(edited: EditedSection) -> dict[str, Any]:
        return {"id": edited.id, "total": edited.total, "entries": list(edited.entries),
                "refs": [{"number": ref.number, "home": ref.home} for ref in edited.refs], "rest": list(edited.rest)}

    return {
        "topics": [section(edited) for edited in edition.topics],
        "hot": section(edition.hot) if edition.hot else None,
        "key_changes": section(edition.key_changes) if edition.key_changes else None,
        "notable": section(edition.notable) if edition.notable else None,
        "quiet": list(edition.quiet),
        "topic_index": [{"topic": e.topic, "title": e.title, "count": e.count} for e in edition.index],
    }


def theme_to_dict(theme: Theme) -> dict[str, Any]:
    data: dict[str, Any] = {
        "topics": [topic.id for topic in theme.topics],
        "title": " + ".join(topic.name for topic in theme.topics),
        "count": theme.count,
        "items": list(theme.items),
        "facets": dict(theme.facets),
    }
    if theme.ratio is not None:
        data["ratio"] = theme.ratio
    if theme.new:
        data["new"] = True
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
        "themes": [theme_to_dict(theme) for theme in narrative.themes],  # added: 3-5 themes of the window
    }


def digest_to_dict(digest: Digest) -> dict[str, Any]:
    t = strings(digest.locale)
    data: dict[str, Any] = {
        "repo": digest.repo,
        "window": {
            "start": iso_z(digest.window.start),
            "end": iso_z(digest.window.end),
            "timezone": digest.window.timezone,
        },
        "stats": digest.stats.as_dict(),
        "sections": [
            {"id": section.id, "title": section_title(section, t), "items": [item_to_dict(i) for i in section.items]}
            for section in digest.sections
        ],
        "appendix": {key: [item_to_dict(i) for i in items] for key, items in digest.appendix.items()},
        "followed": list(digest.followed),  # topic ids the reader follows (added): their sections lead the post
        # added: what every surface shows; ``sections`` keeps every candidate (for tools)
        "edition": edition_to_dict(_edition_of(digest)),
    }
    if digest.narrative is not None:
        data["narrative"] = narrative_to_dict(digest.narrative)
    if digest.report_url:
        data["report_url"] = digest.report_url  # added: the day's web report (PUBLIC_URL set)
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
    if result.report_url:
        data["report_url"] = result.report_url  # added: the report's search page for this query
    if result.alert:
        data["alert"] = True  # a live alert's batch (only then: the existing shape is unchanged)
    if result.suggestions:
        words = strings("en")["suggest"]  # the contract's English strings ("topic rocm", "a wider window, e.g. 30d")
        data["suggestions"] = [words[s.kind].format(value=s.value) for s in result.suggestions]
    if result.reading != "all_words":
        data["reading"] = result.reading  # added: a looser reading than every word (most_words, topic)
    if result.notes:
        # added: the notes typed ("kind", "value", "hint"; parsed.notes keeps their English sentences)
        data["notes"] = [{"kind": note.kind, "value": note.value, "hint": note.hint} for note in result.notes]
    return data


def render_json(answer: Digest | QueryResult, *, pretty: bool = False) -> str:
    """Compact by default; ``pretty`` indents for a person reading it. orjson writes a day's digest (~900 KB)
    in a fifth of the standard library's time (bench_cli: ~27 ms of a one-shot digest, ~18 ms of a month's
    query); text it refuses (a lone surrogate, which valid UTF-8 cannot hold) goes through ``json`` instead."""
    data = query_to_dict(answer) if isinstance(answer, QueryResult) else digest_to_dict(answer)
    try:
        return orjson.dumps(data, option=orjson.OPT_INDENT_2 if pretty else 0).decode()
    except orjson.JSONEncodeError:
        if pretty:
            return json.dumps(data, ensure_ascii=False, indent=2)
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _edition_of(digest: Digest) -> Edition:
    from bot.model.edition import edition_of

    return edition_of(digest)
