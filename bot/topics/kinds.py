"""What an item is, from its own words: the failure a bug report describes (``bug_kind``) and the kind of change
a PR makes (``change_kind``). The rules are documented where they are used, in ``bot.digest.rank``.

Both read only an item's title, labels and prose, so the sync works them out once, when it stores the item
(``with_kinds``, with the item's text facts: ``bot.topics.text_facts``), keyed by ``KINDS_KEY``, a fingerprint of
the rules: a digest reads them from the store, and
works them out again only for an item stored before these rules changed (the sync re-does such items a batch at
a time). They used to cost a digest build a quarter of its time, for every channel and every day again. The
rules themselves are in ``bot.topics.kind_rules``, imported only where they run (their patterns compile at
import: ~10 ms of every digest's start-up)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import cast

from msgspec import structs

from bot.model import BugKind, SignalKind
from bot.store.records import ItemRecord
from bot.topics.taxonomy import title_tags

# Any edit of the rules (this module's, kind_rules' or text_facts') gives stored kinds and text facts another key:
# stale ones are never read.
KINDS_KEY = hashlib.sha256(b"".join(Path(__file__).with_name(name).read_bytes()
                                    for name in ("kinds.py", "kind_rules.py", "text_facts.py"))).hexdigest()[:16]


def bug_kind(item: ItemRecord) -> BugKind | None:
    """The failure a new issue reports (``is_bug_report``), or None when it is not a bug report of one."""
    if item.kinds_key == KINDS_KEY:
        return cast("BugKind | None", item.bug_kind)
    from bot.topics.kind_rules import bug_kind_of

    return bug_kind_of(item)


def change_kind(item: ItemRecord) -> tuple[SignalKind | None, str]:
    """What kind of change a PR is, from its title tags, labels and title words, and a value for its signal
    (the figure a speed-up quotes, the failure a fix ends); None when nothing says."""
    if item.kinds_key == KINDS_KEY:
        return cast("SignalKind | None", item.change_kind), item.change_value
    from bot.topics.kind_rules import change_kind_of

    return change_kind_of(item)


def with_kinds(item: ItemRecord) -> ItemRecord:
    """The item with its kinds and its text facts (``bot.topics.text_facts``) worked out, as the sync stores it."""
    from bot.topics.kind_rules import bug_kind_of, change_kind_of
    from bot.topics.text_facts import text_facts_of

    change, value = change_kind_of(item) if item.is_pr else (None, "")
    facts = tuple(text_facts_of(item).items())
    return structs.replace(item, bug_kind=bug_kind_of(item), change_kind=change, change_value=value,
                               text_facts=facts, kinds_key=KINDS_KEY)


def severity(item: ItemRecord) -> BugKind | None:
    """The most severe failure the title describes, else the most severe the body's own prose does."""
    from bot.topics.kind_rules import severity as rule

    return rule(item)


def is_bug_report(item: ItemRecord) -> bool:
    """Whether a new issue reports a failure: labelled bug or titled [Bug], or a title that describes one (or
    that says something fails and a body that says what). Feature requests, RFCs and docs never are; usage
    questions and installation help only when their title describes a crash or a hang."""
    return bug_kind(item) is not None


def is_help_request(item: ItemRecord) -> bool:
    """Whether an issue asks for help rather than reports a failure: a usage or installation question (tag or
    label), or a title that asks ("How do I ...?") and describes no failure of the notable kinds."""
    if item.is_pr:
        return False
    tags = set(title_tags(item.title))
    labels = {label.lower() for label in item.labels}
    if tags & HELP_TAGS or labels & HELP_LABELS:
        return bug_kind(item) is None
    return bug_kind(item) is None and QUESTION.search(strip_tags(item.title)) is not None


# Shared with the rules (a change here is a change of KINDS_KEY too).
BUGFIX_TAGS = frozenset({"bugfix", "bug fix", "fix", "bug"})
HELP_TAGS = frozenset({"usage", "installation", "install", "question", "help", "help wanted", "how to"})
HELP_LABELS = frozenset({"usage", "installation", "question"})
# A title that asks: "How do I ...", "Why is ...", or a yes/no question that ends in "?" ("Can vLLM ...?"). "When
# using X, the server crashes" and "Can't load Y" report.
QUESTION = re.compile(
    r"^\W*(?:how|what|why|which|where|who)\b|^\W*(?:when|is there|are there|can|could|does|do|should|would|any|"
    r"is it)\b(?!'|\s+not\b)(?=.*[?？]\s*$)|如何|怎么|怎样|是否",
    re.IGNORECASE,
)


def strip_tags(title: str) -> str:
    return re.sub(r"\[[^\]]*\]", " ", title)
