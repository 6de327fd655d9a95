"""Answer a parsed query over one window of the store: filter, match the words, rank, explain.

A word is a word (docs/topics.md, "Queries"): it matches its own forms and close synonyms (hang ~ hangs, hung,
stuck, freeze, deadlock) in the title, the labels, the body and the window's comments; it means a whole topic
only when it names one (``Taxonomy.named``: "rocm", "qwen", never a symptom such as "hang"). Results rank by
match strength (more words first, every word in the title first, then title > labels > body > comments per
word) and then by the latest activity in the window.

Never a silent zero when a looser reading finds something (``find``): the strict reading (every word) comes
first; when no item has every word, the items with most of them (more than half), else the topic a word names
alone; ``Found.reading`` says which was used. Standing queries (daily DMs, live alerts) stay strict.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from datetime import datetime

from msgspec import Struct, field, structs

from bot.model import Active, DigestItem, QueryMatch, Reading, Reason, Suggestion, TermHit, Window
from bot.model.views import ItemViewer
from bot.store.records import ItemFilter, ItemRecord, WindowActivity
from bot.topics.items import topic_match
from bot.topics.query import Query
from bot.topics.taxonomy import Taxonomy, Topic, compile_phrases
from bot.topics.words import SYNONYMS

__all__ = [
    "SYNONYMS", "CommentSource", "Found", "Term", "closest", "compile_terms", "edit_distance", "find", "find_window",
    "latest_activity", "narrowed", "prefilter", "search", "search_items", "stem", "suggest", "suggestions",
    "topic_named", "window_event",
]

_SUFFIXES = ("ing", "ed", "es", "s")
# Where a word matched, strongest first: the title says what an item is about, labels are a maintainer's
# filing, the body mentions much in passing, and a comment in the window is someone else's word on it.
TITLE_WEIGHT, LABEL_WEIGHT, BODY_WEIGHT, COMMENT_WEIGHT = 6, 4, 2, 1
# A topic match is as strong as its strongest evidence: a tag or the title like the title, a label or the
# author like a label, the body like the body.
_EVIDENCE_WEIGHT = {"tag": TITLE_WEIGHT, "title": TITLE_WEIGHT, "label": LABEL_WEIGHT, "author": LABEL_WEIGHT,
                    "body": BODY_WEIGHT, "body_lead": BODY_WEIGHT}
# The window's human comments of the items (of these numbers) that have one containing any of these fragments
# (lower-case), joined per item number: ``DigestService`` reads them from the store (``Store.comments_containing``).
CommentSource = Callable[[Sequence[str], Sequence[int]], Mapping[int, str]]


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


def _fragments(forms: Iterable[str]) -> tuple[str, ...]:
    """Plain text every match of ``forms`` contains one of (each form's first piece before a space, hyphen or
    wildcard), the fewest: what the store looks for in comments before the pattern decides. Empty when a
    form starts with a wildcard or a separator (nothing to look for)."""
    pieces = {re.split(r"[\s_*-]+", form.lower(), maxsplit=1)[0] for form in forms}
    if "" in pieces:
        return ()
    return tuple(sorted(p for p in pieces if not any(q != p and q in p for q in pieces)))


class Term(Struct, frozen=True):
    word: str
    pattern: re.Pattern[str] | None
    topic: Topic | None  # the word names this topic: its members match too
    fragments: tuple[str, ...] = ()  # what a comment must contain to be worth the pattern (``_fragments``)


def topic_named(taxonomy: Taxonomy, word: str) -> Topic | None:
    """The topic a query word names: its id, its name, an alias, a query word ("cpu") or a tag, never a plain
    word ("hang", "build"; ``Topic.names_word``)."""
    return taxonomy.named(word)


def compile_terms(taxonomy: Taxonomy, words: Sequence[str]) -> list[Term]:
    terms = []
    for word in words:
        forms = _variants(word)
        terms.append(Term(word, compile_phrases(forms), topic_named(taxonomy, word), _fragments(forms)))
    return terms


class Hit(Struct, frozen=True):
    item: ItemRecord
    strength: tuple[int, int, int]  # (words found, words found in the title, summed weights): greater is stronger
    latest: datetime  # the item's latest activity in the window
    why: Reason


def _best_hit(term: Term, item: ItemRecord, labels_text: str, taxonomy: Taxonomy) -> tuple[int, TermHit] | None:
    """The strongest place ``term`` matches ``item``'s own text: the title, then the topic it names (as strong
    as the topic's evidence), then labels, then the body."""
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


def prefilter(query: Query, taxonomy: Taxonomy) -> ItemFilter:
    """The part of ``query``'s filters the database applies when it reads the window (``find`` applies them all
    again, so this may keep more, never less): kinds, states, authors, excluded authors (ASCII logins only:
    SQLite's lower() folds no other letter), and the items of accounts GitHub marks as bots unless the query
    asks for bots or names authors (a bot named is shown). The prose, the longest text a search reads, comes
    only for the items it can matter to (``_prose_fragments``)."""
    def ascii_logins(logins: Collection[str]) -> frozenset[str]:
        return frozenset(logins) if all(login.isascii() for login in logins) else frozenset()

    return ItemFilter(kinds=query.kinds, states=query.states, authors=ascii_logins(query.authors),
                      excluded_authors=frozenset(a for a in query.excluded_authors if a.isascii()),
                      humans=not (query.bots_only or query.authors or query.numbers),
                      prose_fragments=_prose_fragments(query), topics_key=taxonomy.fingerprint)


def _prose_fragments(query: Query) -> tuple[str, ...] | None:
    """What every match of a query word (or an excluded word) in a prose contains (``_fragments``): a prose
    containing none of them cannot change the answer, so the database leaves it out. None (every prose) when a
    word has no such fragment, or one has a letter with case beyond ASCII (SQLite's lower() would not fold
    it). Like the comments' (``Store.comments_containing``), the fragments are compared lower-cased: a match
    only through Unicode's folding of an ASCII letter (the Kelvin sign for k) is not looked for."""
    found: set[str] = set()
    for forms in [*(_variants(word) for word in query.words),
                  *(_variants(word, synonyms=False) for word in query.excluded_words)]:
        pieces = _fragments(forms)
        if not pieces:
            return None
        found.update(pieces)
    if any(not char.isascii() and char.lower() != char.upper() for piece in found for char in piece):
        return None
    return tuple(sorted(found))


def narrowed(query: Query, taxonomy: Taxonomy, only: ItemFilter) -> ItemFilter | None:
    """``only``, narrowed to the items every word of ``query`` could match (``ItemFilter.mentions``): enough for
    the strict reading, which needs an item to match every word. None when the database cannot tell: no words,
    items asked for by number, or a word without fragments or with other than plain ASCII ones (labels and
    topics are compared as their JSON text, which escapes the rest)."""
    if query.numbers or not query.words:
        return None
    mentions: list[tuple[str, tuple[str, ...]]] = []
    for word in query.words:
        pieces = _fragments(_variants(word))
        topic = topic_named(taxonomy, word)
        if not pieces or not all(p.isascii() and '"' not in p and "\\" not in p for p in pieces):
            return None
        if topic is not None and not topic.id.isascii():
            return None
        mentions.append((topic.id if topic else "", pieces))
    return structs.replace(only, mentions=tuple(mentions))


def find_window(query: Query, window: Window, taxonomy: Taxonomy, read: Callable[[ItemFilter], WindowActivity],
                is_bot: Callable[[str], bool] | None, *, comments: CommentSource | None = None, loose: bool = True,
                asked: Sequence[ItemRecord] | None = None) -> Found:
    """``find`` over the window's items as ``read`` gives them (``Store.search_window``), reading as few as it
    can: first only those every word could match (``narrowed``), which answer the strict reading whenever it
    finds anything; the window's items (past the filters) when it finds nothing, for the looser readings and
    the suggestions. ``asked``: the items asked for by number, searched instead of the window's."""
    only = prefilter(query, taxonomy)
    narrow = narrowed(query, taxonomy, only) if asked is None else None
    if narrow is not None:
        activity = read(narrow)
        found = find(query, activity.items.values(), window, taxonomy, ItemViewer(window, activity, is_bot),
                     comments=comments, loose=False)
        if found.items:
            return found  # ``labels`` are those of the items read: said only when nothing is found
    activity = read(only)
    return find(query, activity.items.values() if asked is None else asked, window, taxonomy,
                ItemViewer(window, activity, is_bot), comments=comments, loose=loose)


class Found(Struct, frozen=True):
    """A query's matches, best first, and how its words were read: ``reading`` all_words (every item has every
    word), most_words (none had; each item shown has at least ``least`` of them), or topic (none had, and
    fewer than most: ``topics``, the topics the words name, alone). ``unmatched``: the words no item of the
    window (past the filters) matched anywhere, for suggestions; known only when the strict reading found
    nothing."""

    items: list[DigestItem]
    reading: Reading = "all_words"
    least: int = 0
    topics: tuple[Topic, ...] = ()
    unmatched: tuple[str, ...] = ()
    words: int = 0  # how many words the query had
    labels: frozenset[str] = field(default_factory=frozenset)  # the labels of the items searched


class _Matcher:
    """Where each term matches each item, worked out once: the item's own text first, the window's comments
    (one store read per term, on first need, of the candidates whose own text lacks it) only where the text has
    no match."""

    def __init__(self, terms: Sequence[Term], taxonomy: Taxonomy, comments: CommentSource | None,
                 candidates: Sequence[tuple[ItemRecord, str]]) -> None:
        self.terms = terms
        self.taxonomy = taxonomy
        self.comments = comments
        self.candidates = candidates
        self._own: dict[tuple[int, int], tuple[int, TermHit] | None] = {}
        self._comment_text: dict[int, Mapping[int, str]] = {}

    def own(self, index: int, item: ItemRecord, labels_text: str) -> tuple[int, TermHit] | None:
        key = (index, item.number)
        if key not in self._own:
            self._own[key] = _best_hit(self.terms[index], item, labels_text, self.taxonomy)
        return self._own[key]

    def hit(self, index: int, item: ItemRecord, labels_text: str) -> tuple[int, TermHit] | None:
        term = self.terms[index]
        best = self.own(index, item, labels_text)
        if best is not None or term.pattern is None or self.comments is None or not term.fragments:
            return best
        if index not in self._comment_text:
            # Only the comments of items the term is not in already: a month of a busy repository's comments is
            # ~18,000 bodies to look through, those of the few hundred items that need them a tenth of it.
            lacking = [other.number for other, text in self.candidates if self.own(index, other, text) is None]
            self._comment_text[index] = self.comments(term.fragments, lacking)
        text = self._comment_text[index].get(item.number)
        found = term.pattern.search(text) if text else None
        return (COMMENT_WEIGHT, TermHit("comment", found.group(0))) if found else None


def find(query: Query, items: Iterable[ItemRecord], window: Window, taxonomy: Taxonomy, view: ItemViewer, *,
         comments: CommentSource | None = None, loose: bool = True) -> Found:
    """Every item of ``items`` that passes the filters and matches the query's words, best first, and the
    reading used. ``items``: the window's, or the items a query asks for by number (``#123``: answered whatever
    the window, their reason starting with the number; no looser reading). ``comments``: the window's comments
    (None: titles, labels and bodies only). ``loose``: try the looser readings when no item has every word."""
    terms = compile_terms(taxonomy, query.words)
    # Exclusions take word forms but not synonyms: "-stuck" should not also hide "hangs".
    excluded = compile_phrases(v for word in query.excluded_words for v in _variants(word, synonyms=False))
    by_number = bool(query.numbers)
    candidates: list[tuple[ItemRecord, str]] = []
    labels: set[str] = set()
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
        candidates.append((item, labels_text))
        labels.update(label.lower() for label in item.labels)
    matcher = _Matcher(terms, taxonomy, comments, candidates)
    prefix = (lambda item: [TermHit("number", str(item.number))]) if by_number else (lambda item: [])

    def hit_of(item: ItemRecord, found: list[tuple[int, TermHit]]) -> Hit:
        hits = [*prefix(item), *(hit for _, hit in found)]
        why = QueryMatch(tuple(hits)) if hits else window_event(item, window, view.comments(item))
        strength = (len(found), sum(weight == TITLE_WEIGHT for weight, _ in found), sum(w for w, _ in found))
        return Hit(item, strength, latest_activity(item, window), why)

    def ranked(hits: list[Hit]) -> list[DigestItem]:
        # Strongest match first; among equals, the latest activity in the window, then the newest item.
        hits.sort(key=lambda hit: (hit.strength, hit.latest, hit.item.number), reverse=True)
        return [view(hit.item, hit.why) for hit in hits]

    strict: list[Hit] = []
    for item, labels_text in candidates:
        found = []
        for index in range(len(terms)):
            best = matcher.hit(index, item, labels_text)
            if best is None:
                break
            found.append(best)
        else:
            strict.append(hit_of(item, found))
    outcome = Found(ranked(strict), words=len(terms), labels=frozenset(labels))
    if strict or not terms:
        return outcome
    # No item has every word: where each word matches, item by item (the words found in no item are said).
    table = [[matcher.hit(index, item, text) for index in range(len(terms))] for item, text in candidates]
    unmatched = tuple(term.word for index, term in enumerate(terms) if all(row[index] is None for row in table))
    outcome = Found([], words=len(terms), unmatched=unmatched, labels=frozenset(labels))
    if not loose or by_number or len(terms) < 2:
        return outcome
    most = len(terms) // 2 + 1  # more than half
    if len(terms) >= 3:
        loose_hits = [hit_of(item, [h for h in row if h is not None])
                      for (item, _), row in zip(candidates, table, strict=True)
                      if sum(h is not None for h in row) >= most]
        if loose_hits:
            least = min(hit.strength[0] for hit in loose_hits)
            return Found(ranked(loose_hits), "most_words", least, (), unmatched, len(terms), frozenset(labels))
    named = [index for index, term in enumerate(terms) if term.topic is not None]
    if not named:
        return outcome
    topic_hits = [hit_of(item, [h for h in row if h is not None])
                  for (item, _), row in zip(candidates, table, strict=True)
                  if all(row[index] is not None for index in named)]
    if not topic_hits:
        return outcome
    topics = tuple({term.topic.id: term.topic for term in terms if term.topic is not None}.values())
    return Found(ranked(topic_hits), "topic", 0, topics, unmatched, len(terms), frozenset(labels))


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
    are answered whatever the window (their reason starts with the number). The strict reading only."""
    return find(query, items, window, taxonomy, view, loose=False).items


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


def edit_distance(a: str, b: str, limit: int = 2) -> int:
    """The optimal string alignment distance of ``a`` and ``b`` (insertions, deletions, substitutions and
    swaps of two neighbours: "rcom" is one from "rocm"), or ``limit + 1`` once it is beyond ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    before: list[int] | None = None
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + cost)
            if before is not None and i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], before[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
        before, row = row, current
    return min(row[-1], limit + 1)


PREFIX_CLOSE = 4  # a shared prefix this long is close whatever follows ("quantized" ~ "quant", "deepseekv4")
MIN_SUGGESTED = 3  # shorter words are close to too much ("tq" to "tp", "ep", "dp")


def closest(word: str, names: Iterable[str]) -> str | None:
    """The name closest to ``word`` when one is close: at most two edits away (one for a word of four
    characters or fewer, where two edits make "when" out of "wheel"), or sharing its first ``PREFIX_CLOSE``
    characters; None otherwise, and for ``word`` itself or a word shorter than ``MIN_SUGGESTED``."""
    word = word.lower()
    if len(word) < MIN_SUGGESTED:
        return None
    limit = 1 if len(word) <= 4 else 2
    best: tuple[int, int, str] | None = None
    for name in names:
        if name == word:
            return None  # the word is a name: nothing to suggest
        distance = edit_distance(word, name, limit)
        shared = len(_common_prefix(word, name))
        if distance <= limit or shared >= PREFIX_CLOSE:
            key = (min(distance, limit + 1), -shared, name)
            best = key if best is None or key < best else best
    return best[2] if best is not None else None


def _common_prefix(a: str, b: str) -> str:
    k = 0
    while k < min(len(a), len(b)) and a[k] == b[k]:
        k += 1
    return a[:k]


def _topic_names(taxonomy: Taxonomy) -> list[str]:
    names: dict[str, str] = {}
    for topic in taxonomy.topics:
        names[topic.id] = topic.id
        for name in sorted(topic.query_names):
            names.setdefault(name, topic.id)
    return list(names)


def suggest(taxonomy: Taxonomy, query: Query) -> list[str]:
    """Topic names close to the query's words that name no topic (``rcom`` -> ``rocm``; ``closest``): at most
    one per word, none when no name is close."""
    names = _topic_names(taxonomy)
    suggestions: list[str] = []
    for word in query.words:
        if topic_named(taxonomy, word) is not None:
            continue
        close = closest(word, names)
        if close is not None and close not in suggestions:
            suggestions.append(close)
    return suggestions


def suggestions(taxonomy: Taxonomy, words: Sequence[str], labels: Collection[str]) -> list[Suggestion]:
    """What to try for ``words`` that matched nothing: the topic name and the label (of the window's items)
    closest to each, when one is close (``closest``); nothing otherwise."""
    names = _topic_names(taxonomy)
    known = sorted(labels)
    topics: list[Suggestion] = []
    found: list[Suggestion] = []
    for word in words:
        if topic_named(taxonomy, word) is None and (name := closest(word, names)) is not None:
            topics.append(Suggestion("topic", name))
        if (label := closest(word, known)) is not None:
            found.append(Suggestion("label", label))
    return list(dict.fromkeys([*topics, *found]))
