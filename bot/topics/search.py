"""Answer a parsed query over one window of the store: filter, match every word, rank, explain.

A word is a word (docs/topics.md, "Queries"): it matches its own forms and close synonyms (hang ~ hangs, hung,
stuck, freeze, deadlock) in the title, the labels and the body; it means a whole topic only when it names one
(``Taxonomy.named``: "rocm", "qwen", never a symptom such as "hang"). Results rank by match strength (every
word in the title first, then title > labels > body per word) and then by the latest activity in the window.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.model import Active, DigestItem, QueryMatch, Reason, TermHit, Window
from bot.model.views import ItemViewer
from bot.store.records import ItemRecord, WindowActivity
from bot.topics.items import topic_match
from bot.topics.query import Query
from bot.topics.taxonomy import Taxonomy, Topic, compile_phrases

# Close synonyms: words people use for the *same* thing. A query word in a group matches every member; groups
# stay narrow on purpose ("regression" is not "slow", "hang" is not "timeout", "wrong" is not "garbage").
SYNONYMS: tuple[tuple[str, ...], ...] = (
    ("hang", "hangs", "hanging", "hung", "stuck", "freeze", "freezes", "freezing", "frozen", "deadlock",
     "deadlocks", "deadlocked", "卡住", "卡死", "死锁"),
    ("crash", "crashes", "crashed", "crashing", "segfault", "segfaults", "segmentation fault",
     "illegal memory access", "core dump", "core dumped", "sigsegv", "崩溃"),
    ("regression", "regressions", "regressed", "regresses", "回归"),
    ("slow", "slower", "slowdown", "slowdowns", "slowness", "变慢"),
    ("oom", "ooms", "out of memory", "outofmemoryerror", "显存不足"),
    ("wrong", "incorrect", "wrong output", "wrong outputs"),
    ("garbage", "gibberish", "garbled", "乱码"),
    ("leak", "leaks", "leaking", "leaked", "memory leak", "内存泄漏"),
)
_SUFFIXES = ("ing", "ed", "es", "s")
# Where a word matched, strongest first: the title says what an item is about, labels are a maintainer's
# filing, the body mentions much in passing.
TITLE_WEIGHT, LABEL_WEIGHT, BODY_WEIGHT = 3, 2, 1
# A topic match is as strong as its strongest evidence: a tag or the title like the title, a label or the
# author like a label, the body like the body.
_EVIDENCE_WEIGHT = {"tag": TITLE_WEIGHT, "title": TITLE_WEIGHT, "label": LABEL_WEIGHT, "author": LABEL_WEIGHT,
                    "body": BODY_WEIGHT, "body_lead": BODY_WEIGHT}


def stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and word.isascii():
            return word[: -len(suffix)]
    return word


def _variants(word: str, *, synonyms: bool = True) -> list[str]:
    root = stem(word)
    forms = {word, root}
    if word.isascii() and word.isalpha():
        forms.update(root + suffix for suffix in ("s", "es", "ed", "ing", "er", "ers"))
        if root.endswith("e"):
            forms.add(root[:-1] + "ing")
    for group in SYNONYMS if synonyms else ():
        if word in group or root in group or any(stem(member) == root for member in group if " " not in member):
            forms.update(group)
    return sorted(forms)


@dataclass(frozen=True)
class Term:
    word: str
    pattern: re.Pattern[str] | None
    topic: Topic | None  # the word names this topic: its members match too


def topic_named(taxonomy: Taxonomy, word: str) -> Topic | None:
    """The topic a query word names: its id, its name, an alias, a query word ("cpu") or a tag, never a plain
    word ("hang", "build"; ``Topic.names_word``)."""
    return taxonomy.named(word)


def compile_terms(taxonomy: Taxonomy, words: Sequence[str]) -> list[Term]:
    return [Term(word, compile_phrases(_variants(word)), topic_named(taxonomy, word)) for word in words]


@dataclass(frozen=True)
class Hit:
    item: ItemRecord
    strength: tuple[int, int]  # (words found in the title, summed weights): greater is stronger
    latest: datetime  # the item's latest activity in the window
    why: Reason


def _best_hit(term: Term, item: ItemRecord, labels_text: str, taxonomy: Taxonomy) -> tuple[int, TermHit] | None:
    """The strongest place ``term`` matches ``item``: the title, then the topic it names (as strong as the
    topic's evidence), then labels, then the body."""
    if term.pattern is not None:
        found = term.pattern.search(item.title)
        if found:
            return TITLE_WEIGHT, TermHit("title", found.group(0))
    if term.topic is not None:
        match = topic_match(taxonomy, term.topic, item)
        if match is not None:
            weight = max((_EVIDENCE_WEIGHT[e.source] for e in match.evidence), default=BODY_WEIGHT)
            return weight, TermHit("topic", topic=term.topic.ref(), evidence=match.evidence)
    if term.pattern is not None:
        found = term.pattern.search(labels_text)
        if found:
            return LABEL_WEIGHT, TermHit("label", found.group(0))
        found = term.pattern.search(item.prose)
        if found:
            return BODY_WEIGHT, TermHit("body", found.group(0))
    return None


def _passes_filters(query: Query, item: ItemRecord, window: Window, is_bot: bool) -> bool:
    if query.kinds and item.kind not in query.kinds:
        return False
    if query.states:
        state_ok = (
            ("merged" in query.states and item.merged_at is not None)
            or ("closed" in query.states and item.state == "closed")
            or ("open" in query.states and item.state == "open")
        )
        if not state_ok:
            return False
    labels = {label.lower() for label in item.labels}
    if any(label not in labels for label in query.labels) or labels & set(query.excluded_labels):
        return False
    author = item.author.lower()
    if query.authors and author not in query.authors:
        return False
    if author in query.excluded_authors:
        return False
    if query.bots_only:
        return is_bot
    # Bots are hidden unless asked for by name.
    return not is_bot or bool(query.authors)


def search(
    query: Query,
    activity: WindowActivity,
    window: Window,
    taxonomy: Taxonomy,
    is_bot: Callable[[str], bool] | None = None,
) -> list[DigestItem]:
    """Every item of the window that passes the filters and matches every word, best first."""
    return search_items(query, activity.items.values(), window, taxonomy, ItemViewer(window, activity, is_bot))


def search_items(query: Query, items: Iterable[ItemRecord], window: Window, taxonomy: Taxonomy,
                 view: ItemViewer) -> list[DigestItem]:
    """``search`` over given items: the window's, or the items a query asks for by number (``#123``), which
    are answered whatever the window (their reason starts with the number)."""
    terms = compile_terms(taxonomy, query.words)
    # Exclusions take word forms but not synonyms: "-stuck" should not also hide "hangs".
    excluded = compile_phrases(v for word in query.excluded_words for v in _variants(word, synonyms=False))
    by_number = bool(query.numbers)
    hits: list[Hit] = []
    for item in items:
        if by_number and item.number not in query.numbers:
            continue
        # Asked for by number, an item is named like an author: a bot's shows too.
        if not _passes_filters(query, item, window, view.is_bot(item) and not by_number):
            continue
        labels_text = " ".join(item.labels)
        if excluded is not None and (
            excluded.search(item.title) or excluded.search(labels_text) or excluded.search(item.prose)
        ):
            continue
        in_title = score = 0
        found = [TermHit("number", str(item.number))] if by_number else []
        for term in terms:
            best = _best_hit(term, item, labels_text, taxonomy)
            if best is None:
                break
            in_title += best[0] == TITLE_WEIGHT  # the title, or a topic the title names ("[ROCm]", "Qwen3")
            score += best[0]
            found.append(best[1])
        else:
            why = QueryMatch(tuple(found)) if found else window_event(item, window, view.comments(item))
            hits.append(Hit(item, (in_title, score), latest_activity(item, window), why))
    # Strongest match first; among equals, the latest activity in the window, then the newest item.
    hits.sort(key=lambda hit: (hit.strength, hit.latest, hit.item.number), reverse=True)
    return [view(hit.item, hit.why) for hit in hits]


def latest_activity(item: ItemRecord, window: Window | None = None) -> datetime:
    """The item's latest activity (opened, closed, merged or updated: a comment updates it) inside ``window``
    when it has one there, else its last of all."""
    moments = [m for m in (item.created_at, item.closed_at, item.merged_at, item.updated_at) if m is not None]
    inside = [m for m in moments if m in window] if window is not None else []
    return max(inside or moments)


def window_event(item: ItemRecord, window: Window, comments: int) -> Active:
    """What happened to an item active in ``window``, most decisive first (``comments``: its comments there)."""
    if item.merged_at in window:
        return Active("merged")
    if item.closed_at in window:
        return Active("closed")
    if item.created_at in window:
        return Active("opened")
    return Active("commented", comments)


def suggest(taxonomy: Taxonomy, query: Query) -> list[str]:
    """Nearest topic names for words that matched nothing (``rcom`` -> ``rocm``)."""
    names: dict[str, str] = {}
    for topic in taxonomy.topics:
        names[topic.id] = topic.id
        for name in sorted(topic.query_names):
            names.setdefault(name, topic.id)
    suggestions: list[str] = []
    for word in query.words:
        if word in names:
            continue
        for close in difflib.get_close_matches(word, list(names), n=2, cutoff=0.6):
            if close not in suggestions:
                suggestions.append(close)
    return suggestions
