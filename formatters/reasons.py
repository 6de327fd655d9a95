"""Why an item is listed, in words: the one place a typed ``bot.model.Reason`` becomes text for a reader.

The words are in ``formatters.locale`` (``reasons``); the values put into them (labels, tags, the words a
topic or a query matched) are GitHub's own text, unescaped: callers escape the whole result for their output,
like any other GitHub text. The JSON contract has its own, frozen English (``formatters.json_format``).
"""

from __future__ import annotations

from typing import Any, assert_never

from bot.locales import normalise_locale
from bot.model import (
    Active,
    DigestItem,
    Evidence,
    Hot,
    InReview,
    InTopic,
    Listed,
    Merged,
    NewBug,
    QueryMatch,
    Reason,
    Signal,
    TermHit,
    TopicRef,
)
from formatters.locale import strings


def reason_text(why: Reason, locale: str | None) -> str:
    """``why`` in the words of ``locale`` (normalised: ``zh`` reads ``zh-CN``)."""
    words: dict[str, Any] = strings(locale)["reasons"]
    sep = words["sep"]
    match why:
        case Hot(comments=comments, reactions=reactions, participants=people, maintainer=maintainer,
                 open_question=open_question):
            # The contract's facts first (comments, reactions), then the heat's: who took part, and how.
            parts = [counted(words["hot"], comments).format(comments=comments)]
            if reactions:
                parts.append(counted(words["reactions"], reactions).format(n=reactions))
            if people:
                parts.append(counted(words["participants"], people).format(n=people))
            if maintainer:
                parts.append(words["maintainer"])
            if open_question:  # the project has not spoken last: never yet, or not since someone answered it
                parts.append(words["open_question_followup" if maintainer else "open_question"])
            return str(sep.join(parts))
        case Merged(signals=signals):
            if not signals:
                return str(words["merged"])
            return str(words["merged_for"].format(signals=sep.join(_signal(s, words) for s in signals)))
        case InReview(signals=signals):
            if not signals:
                return str(words["in_review"])
            return str(words["in_review_for"].format(signals=sep.join(_signal(s, words) for s in signals)))
        case NewBug(bug=bug, comments=comments, confirmations=confirmations):
            parts = [words["new_bug"].format(bug=words["bugs"][bug])]
            if comments:
                parts.append(counted(words["comments"], comments).format(n=comments))
            if confirmations:
                parts.append(counted(words["confirmations"], confirmations).format(n=confirmations))
            return str(sep.join(parts))
        case InTopic(evidence=evidence):
            return _evidence(evidence, words)
        case Listed(event=event):
            return str(words["listed"][event])
        case QueryMatch(terms=terms):
            return str(words["term_sep"]).join(_term(term, words, locale) for term in terms)
        case Active(event=event, comments=comments):
            return counted(words["active"][event], comments).format(comments=comments)
        case _:
            assert_never(why)


def item_reason(item: DigestItem, locale: str | None) -> str:
    """The item's reason for a reader of ``locale`` (unescaped); the legacy free text when it has no typed one."""
    return reason_text(item.why, locale) if item.why is not None else ""


def hot_reason(item: DigestItem, locale: str | None) -> str:
    """Why a hot discussion is hot (its typed ``Hot`` reason in words), or "" for any other reason."""
    return reason_text(item.why, locale) if isinstance(item.why, Hot) else ""


def bug_kind(item: DigestItem, locale: str | None) -> str:
    """What a notable new bug describes ("crash", "hang", …), or "" when its reason is not a ``NewBug``."""
    return str(strings(locale)["reasons"]["bugs"][item.why.bug]) if isinstance(item.why, NewBug) else ""


def topic_name(topic: TopicRef, locale: str | None) -> str:
    """The topic's name for a reader of ``locale``: its Chinese name when it has one, else its name."""
    return topic.name_zh if normalise_locale(locale) == "zh-CN" and topic.name_zh else topic.name


def counted(entry: str | dict[str, str], n: int) -> str:
    """The form of ``entry`` for ``n`` of something: a locale gives one string, or (English) a ``one`` and an
    ``other`` form ("1 comment", "2 comments")."""
    if isinstance(entry, str):
        return entry
    return entry["one"] if n == 1 else entry["other"]


def _signal(signal: Signal, words: dict[str, Any]) -> str:
    key: str = signal.kind
    value = signal.value
    if key == "speedup" and value:
        key = "speedup_by"
    elif key == "fix":
        value = words["bugs"].get(value, value)
    return str(counted(words["signals"][key], signal.count).format(value=value, count=signal.count))


def evidence_text(evidence: tuple[Evidence, ...], locale: str | None) -> str:
    """Why an item belongs to a topic, in the words of ``locale`` (unescaped)."""
    return _evidence(evidence, strings(locale)["reasons"])


def _evidence(evidence: tuple[Evidence, ...], words: dict[str, Any]) -> str:
    texts = []
    for found in evidence:
        key = "body_sentences" if found.source == "body" and found.sentences else found.source
        entry = counted(words["evidence"][key], found.sentences)
        texts.append(entry.format(value=found.value, sentences=found.sentences))
    return str(words["sep"]).join(texts)


def _term(term: TermHit, words: dict[str, Any], locale: str | None) -> str:
    if term.source != "topic":
        return str(words["terms"][term.source].format(value=term.value))
    topic = term.topic
    return str(words["terms"]["topic"].format(
        name=topic_name(topic, locale) if topic else "",
        evidence=_evidence(term.evidence, words),
    ))
