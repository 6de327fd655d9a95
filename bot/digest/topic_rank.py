"""The order of a topic section: by what an item is first, then by how much it matters (docs/editorial.md,
"Followed topic sections").

Tiers, highest first: a report of breakage (crash, hang, wrong or empty output, regression); then features,
fixes, other bug reports and the rest of the work; then housekeeping (CI, tests, docs, refactors, chores,
dependency bumps) and support questions. A chore never ranks above a bug report, however busy its thread.
Breakage goes by its kind first (a crash before a hang before a regression); a report closed by the window's
end (fixed, a duplicate) is news among the work, not open breakage.

Within a tier (and a kind of breakage), the sum of:
  heat     2.0 per person discussing it in the window, 1.5 x log2(1 + comments there), 0.75 x log2(1 +
           reactions), 1.5 when a maintainer took part
  impact   a report's severity (crash 2.5 ... regression 1); a PR merged in the window +1.5, user-facing +1,
           its size 0.5 x log2(1 + lines / 10) at most 3, review comments 0.5 x log2(1 + n) at most 1.5
  evidence -3 when only the body names the topic (a passing mention is not the topic's news)
Ties: the newer item.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.digest.rank import SEVERITY_WEIGHTS, bug_kind, change_kind
from bot.model import BUG_KINDS, Window
from bot.store.records import ItemRecord, WindowActivity
from bot.topics.taxonomy import TopicMatch, title_tags

BREAKAGE = frozenset({"crash", "hang", "wrong_output", "null_output", "regression"})
_HOUSEKEEPING_LABELS = frozenset({"ci/build", "documentation", "dependencies", "ci-failure", "stale"})
_SUPPORT_TAGS = frozenset({"usage", "installation", "doc", "docs", "documentation", "misc", "question"})
_SUPPORT_LABELS = frozenset({"usage", "installation", "documentation", "question"})
_USER_FACING = frozenset({"new_model", "feature", "hardware", "default", "speedup", "fix"})
_STRONG_EVIDENCE = frozenset({"label", "tag", "title", "author"})

# A topic's importance (the order of followed sections): its best items' tiers, weighed.
TIER_WEIGHTS = (3.0, 1.0, 0.2)
IMPORTANCE_TOP = 3


@dataclass(frozen=True, slots=True)
class Standing:
    tier: int  # 0 breakage, 1 the work, 2 housekeeping and support
    score: float
    severity: int = 0  # breakage only: its kind, most severe first (a crash before a hang before a regression)

    def key(self, number: int) -> tuple[int, int, float, int]:
        return (self.tier, self.severity, -self.score, -number)


def tier(item: ItemRecord) -> int:
    """0: a report of breakage; 1: features, fixes, other reports and the rest; 2: housekeeping and support."""
    labels = {label.lower() for label in item.labels}
    if item.is_pr:
        kind, _ = change_kind(item)
        if kind == "internal" or labels & _HOUSEKEEPING_LABELS:
            return 2
        return 1
    failure = bug_kind(item)
    if failure in BREAKAGE:
        return 0
    if failure is not None:
        return 1
    tags = set(title_tags(item.title))
    if tags & _SUPPORT_TAGS or labels & _SUPPORT_LABELS:
        return 2
    return 1


def standing(item: ItemRecord, match: TopicMatch, activity: WindowActivity, window: Window,
             memo: dict[int, Standing] | None = None) -> Standing:
    """The item's standing in one topic: what it is, its heat and impact (the same in every topic, kept in
    ``memo`` by number when given), less when only the body ties it to this topic."""
    base = memo.get(item.number) if memo is not None else None
    if base is None:
        base = _standing(item, activity, window)
        if memo is not None:
            memo[item.number] = base
    if any(found.source in _STRONG_EVIDENCE for found in match.evidence):
        return base
    return Standing(base.tier, round(base.score - 3.0, 3), base.severity)


def _standing(item: ItemRecord, activity: WindowActivity, window: Window) -> Standing:
    discussion = activity.discussions.get(item.number)
    comments = activity.comments_in_window.get(item.number, 0)
    reactions = item.reactions + activity.comment_reactions_in_window.get(item.number, 0)
    score = 1.5 * math.log2(1 + comments) + 0.75 * math.log2(1 + reactions)
    if discussion is not None:
        score += 2.0 * discussion.participants + (1.5 if discussion.maintainer else 0.0)
    level = tier(item)
    severity = 0
    if item.is_pr:
        kind, _ = change_kind(item)
        if item.merged_at in window:
            score += 1.5
        if kind in _USER_FACING:
            score += 1.0
        lines = (item.additions or 0) + (item.deletions or 0)
        score += min(3.0, 0.5 * math.log2(1 + lines / 10))
        score += min(1.5, 0.5 * math.log2(1 + (item.review_comments or 0)))
    else:
        failure = bug_kind(item)
        if failure is not None:
            score += SEVERITY_WEIGHTS[failure] / 4
            if level == 0:
                severity = BUG_KINDS.index(failure)
        if item.closed_at is not None and item.closed_at < window.end and level == 0:
            level, severity = 1, 0  # fixed (or a duplicate) by the window's end: news, not open breakage
    return Standing(level, round(score, 3), severity)


def importance(standings: list[Standing]) -> float:
    """How much a topic's section matters today, from its best items (ranked): tiers first, then how many."""
    best = sorted(standings, key=lambda s: (s.tier, -s.score))[:IMPORTANCE_TOP]
    return round(sum(TIER_WEIGHTS[s.tier] for s in best) + 0.1 * math.log2(1 + len(standings)), 3)
