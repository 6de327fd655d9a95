"""Hot discussions: which conversations earn a place, and how hot each is (docs/editorial.md, "Hot discussions").

Entry: at least ``min_comments`` human comments in the window (``digest.hot_min_comments``, 3 by default) from at
least ``MIN_PEOPLE`` different people: the author talking to themself is not a discussion, and bots never count.

Heat, the sum of:
  2.0 per distinct human participant in the window    the strongest signal: five people > one person x5
  1.5 x log2(1 + human comments in the window)         diminishing: the 30th comment adds little
  0.75 x log2(1 + reactions)                           on the item, and on its comments in the window
  1.5 when a maintainer took part                      OWNER, MEMBER or COLLABORATOR: the project engages
  1.5 when still open and the last word is not a maintainer's    it needs attention
  -1  when closed by the window's end                  a "thanks, works now" thread ranks lower
and what the item is, worth about half a participant (``item_weight``):
  +1  a report of a crash, hang or wrong output          people arguing about what broke
  -1  a usage or installation question, or an internal PR (CI, docs, dependencies, refactors)
so a crash thread outranks a usage question with the same people and comments, never one with two more people.
Listed best first (then more comments, then the newer item), at most ``MAX_HOT``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.model import Hot, Window
from bot.store.records import Discussion, ItemRecord
from bot.topics.kinds import bug_kind, change_kind, is_help_request

MIN_PEOPLE = 2
MAX_HOT = 10

PER_PERSON = 2.0
PER_LOG_COMMENT = 1.5
PER_LOG_REACTION = 0.75
MAINTAINER = 1.5
OPEN_QUESTION = 1.5
CLOSED = -1.0
SEVERE_BUG = 1.0
HELP_OR_HOUSEKEEPING = -1.0


def is_hot(comments: int, people: int, min_comments: int) -> bool:
    """Whether a day's human comments on an item make it a hot discussion (the same rule on every day)."""
    return comments >= min_comments and people >= MIN_PEOPLE


@dataclass(frozen=True, slots=True)
class Heat:
    score: float
    why: Hot


def heat(item: ItemRecord, discussion: Discussion, comments: int, reactions: int, window: Window) -> Heat:
    """How hot ``item``'s discussion in ``window`` is: ``comments`` human comments there, ``reactions`` on the
    item and on those comments."""
    open_at_end = item.closed_at is None or item.closed_at >= window.end
    open_question = open_at_end and not discussion.maintainer_spoke_last
    score = (
        PER_PERSON * discussion.participants
        + PER_LOG_COMMENT * math.log2(1 + comments)
        + PER_LOG_REACTION * math.log2(1 + reactions)
        + (MAINTAINER if discussion.maintainer else 0.0)
        + (OPEN_QUESTION if open_question else 0.0)
        + (0.0 if open_at_end else CLOSED)
        + item_weight(item)
    )
    why = Hot(
        comments=comments,
        reactions=reactions,
        participants=discussion.participants,
        maintainer=discussion.maintainer,
        open_question=open_question,
    )
    return Heat(round(score, 3), why)


def item_weight(item: ItemRecord) -> float:
    """What the discussed item is, in heat: a serious bug report counts more, a question or housekeeping less."""
    if item.is_pr:
        return HELP_OR_HOUSEKEEPING if change_kind(item)[0] == "internal" else 0.0
    if bug_kind(item) in ("crash", "hang", "wrong_output"):
        return SEVERE_BUG
    return HELP_OR_HOUSEKEEPING if is_help_request(item) else 0.0
