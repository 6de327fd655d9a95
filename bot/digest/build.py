"""Store -> Digest for one repository and window. Deterministic: same store, same window, same digest."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime

from msgspec import structs

from bot.digest.facts import with_facts
from bot.digest.heat import MAX_HOT, heat, is_hot
from bot.digest.narrative import narrate
from bot.digest.rank import (
    HARDWARE_TOPICS,
    IN_REVIEW_PENALTY,
    MAX_KEY_CHANGES,
    MAX_NOTABLE,
    MIN_SCORE,
    areas_touched,
    bug_kind,
    bug_reach,
    key_change_score,
    may_be_significant,
    notable_score,
    peripheral,
    significant_in_review,
)
from bot.digest.series import activity_series
from bot.digest.topic_rank import Standing, importance, standing
from bot.model import (
    BUG_KINDS,
    Digest,
    DigestItem,
    InReview,
    InTopic,
    Listed,
    ListedEvent,
    Merged,
    NewBug,
    Section,
    Stats,
    Window,
)
from bot.model.edition import edit
from bot.model.views import ItemViewer
from bot.store.history import History
from bot.store.records import ItemRecord, WindowActivity
from bot.store.store import Store
from bot.topics.items import item_topics
from bot.topics.kinds import KINDS_KEY
from bot.topics.taxonomy import Taxonomy, TopicMatch


@dataclass(frozen=True)
class BuildOptions:
    hot_min_comments: int = 3  # human comments in the window a hot discussion needs at least (config)
    locale: str = "en"  # topic sections' names and the summary; the formatters word everything else
    narrative: bool = True  # summary, trends, activity and hot streaks (a few more reads of earlier days)
    bots_key: str = ""  # fingerprint of the configured bot logins: cached topic counts depend on it
    series: bool = False  # the report page's chart data (``Digest.activity_series``): a few more reads
    series_topics: tuple[str, ...] = ()  # the topics whose daily counts it draws (the followed ones)
    # The topics the reader follows (the channel's, else the repository's defaults): their sections lead the
    # edition, and one with nothing in the window has an empty section that says so.
    followed: tuple[str, ...] = ()


class DigestBuilder:
    def __init__(
        self,
        store: Store,
        taxonomy: Taxonomy,
        options: BuildOptions | None = None,
        *,
        is_bot: Callable[[str], bool] | None = None,
        muted: Taxonomy | None = None,
    ) -> None:
        self.store = store
        self.taxonomy = taxonomy
        self.options = options or BuildOptions()
        self._is_bot = is_bot
        self.muted = muted  # topics left out: no section, and their items out of hot / key changes / notable

    def build(self, repo: str, window: Window) -> Digest:
        # Stored text facts need no raw body: only items stored under older rules bring theirs.
        activity = self.store.window_activity(repo, window.start, window.end, kinds_key=KINDS_KEY)
        digest = build_digest(repo, window, activity, self.taxonomy, self.options, self._is_bot, self.muted)
        digest = with_facts(digest, activity)  # what each section item's text says beyond its title
        day = window.end - window.start
        starts = [window.start - day * back for back in range(6, -1, -1)]
        daily = self.store.daily_counts(repo, starts, window.end)
        digest = structs.replace(digest, daily_activity=tuple(daily))
        if self.options.series:
            digest = structs.replace(digest, activity_series=activity_series(
                self.store, digest, self.taxonomy, self.options.series_topics,
                is_bot=self._is_bot or (lambda _login: False), synced_from=self.store.synced_from(repo),
                complete_until=self.store.last_synced(repo), bots_key=self.options.bots_key))
        if not self.options.narrative:
            return digest
        return narrate(
            digest,
            activity,
            History(self.store),
            self.taxonomy,
            hot_min_comments=self.options.hot_min_comments,
            is_bot=self._is_bot or (lambda _login: False),
            synced_from=self.store.synced_from(repo),
            # Cached whole-day counts never change: only a completed poll vouches for a day (a lost webhook
            # delivery would leave a hole the reconciling poll fills later).
            complete_until=self.store.last_polled(repo),
            bots_key=self.options.bots_key,
        )


def build_digest(
    repo: str,
    window: Window,
    activity: WindowActivity,
    taxonomy: Taxonomy,
    options: BuildOptions,
    is_bot: Callable[[str], bool] | None = None,
    muted: Taxonomy | None = None,
) -> Digest:
    """``muted`` topics get no section, and their items stay out of the highlights (hot, key changes,
    notable) and so out of the summary; the stats and the appendix still count every item."""
    items = sorted(activity.items.values(), key=lambda item: item.number)
    view = ItemViewer(window, activity, is_bot)
    bot = view.is_bot
    shown = items
    if muted is not None and muted.topics:
        shown = [item for item in items if not item_topics(muted, item)]

    appendix = _appendix(items, window, view)
    stats = Stats(**{key: len(value) for key, value in appendix.items()})

    matches: dict[int, list[TopicMatch]] = {
        item.number: item_topics(taxonomy, item) for item in items if not bot(item)
    }
    standings: dict[str, list[Standing]] = {}
    sections = [*_topic_sections(items, matches, taxonomy, activity, options, view, standings)]
    sections.append(Section.builtin("hot", tuple(_hot(shown, activity, options, view))))
    sections.append(
        Section.builtin("key_changes", tuple(_key_changes(shown, window, matches, activity, bot, view)))
    )
    sections.append(
        Section.builtin("notable", tuple(_notable(shown, window, activity, matches, taxonomy, bot, view)))
    )
    digest = Digest(
        repo=repo,
        window=window,
        stats=stats,
        sections=tuple(sections),
        appendix=appendix,
        locale=options.locale,
        followed=options.followed,
    )
    weights = {topic: importance(found) for topic, found in standings.items()}
    return structs.replace(digest, edition=edit(digest, importance=weights))


# --- sections ---

View = ItemViewer


def _appendix(items: list[ItemRecord], window: Window, view: View) -> dict[str, tuple[DigestItem, ...]]:
    def listed(selected: Iterable[tuple[ItemRecord, datetime | None]], event: ListedEvent) -> tuple[DigestItem, ...]:
        """The items whose event happened in the window, by its time."""
        dated = [(moment, item) for item, moment in selected if moment is not None and moment in window]
        dated.sort(key=lambda pair: (pair[0], pair[1].number))
        return tuple(view(item, Listed(event), moment) for moment, item in dated)

    issues = [item for item in items if not item.is_pr]
    prs = [item for item in items if item.is_pr]
    return {
        "new_issues": listed(((i, i.created_at) for i in issues), "opened"),
        "closed_issues": listed(((i, i.closed_at) for i in issues), "closed"),
        "new_prs": listed(((p, p.created_at) for p in prs), "opened"),
        "merged_prs": listed(((p, p.merged_at) for p in prs), "merged"),
        "closed_unmerged_prs": listed(((p, p.closed_at) for p in prs if p.merged_at is None), "closed_unmerged"),
    }


def _topic_sections(
    items: list[ItemRecord],
    matches: dict[int, list[TopicMatch]],
    taxonomy: Taxonomy,
    activity: WindowActivity,
    options: BuildOptions,
    view: View,
    standings: dict[str, list[Standing]],
) -> Iterable[Section]:
    """Each topic's items ranked by what they are, then by heat and impact (``bot.digest.topic_rank``); a
    followed topic with none has an empty section. ``standings`` receives each topic's ranked standings."""
    by_number = {item.number: item for item in items}
    by_topic: dict[str, list[tuple[int, TopicMatch]]] = {}
    for number, found in matches.items():
        for match in found:
            by_topic.setdefault(match.topic_id, []).append((number, match))
    followed = set(options.followed)
    memo: dict[int, Standing] = {}  # what an item is, its heat and impact: the same in each of its topics
    for topic in taxonomy.topics:
        hits = by_topic.get(topic.id, [])
        if not hits:
            if topic.id in followed:
                yield Section.for_topic(topic.id, topic.display_name(options.locale), ())
            continue
        ranked = sorted(
            ((standing(by_number[number], match, activity, view.window, memo), number, match)
             for number, match in hits),
            key=lambda entry: entry[0].key(entry[1]),
        )
        standings[topic.id] = [entry[0] for entry in ranked]
        yield Section.for_topic(
            topic.id,
            topic.display_name(options.locale),
            tuple(view(by_number[number], InTopic(match.evidence)) for _, number, match in ranked),
        )


def _hot(
    items: list[ItemRecord], activity: WindowActivity, options: BuildOptions, view: View
) -> Iterable[DigestItem]:
    """Conversations in the window (``bot.digest.heat``), hottest first, at most ``MAX_HOT``."""
    found = []
    for item in items:
        discussion = activity.discussions.get(item.number)
        comments = view.comments(item)
        if discussion is None or not is_hot(comments, discussion.participants, options.hot_min_comments):
            continue
        found.append((heat(item, discussion, comments, view.reactions(item), view.window), item))
    found.sort(key=lambda pair: (-pair[0].score, -pair[0].why.comments, -pair[1].number))
    for result, item in found[:MAX_HOT]:
        yield view(item, result.why)


def _key_changes(
    items: list[ItemRecord],
    window: Window,
    matches: dict[int, list[TopicMatch]],
    activity: WindowActivity,
    bot: Callable[[ItemRecord], bool],
    view: View,
) -> Iterable[DigestItem]:
    """Merged PRs, and significant open PRs in review (opened or commented in the window), by impact
    (``bot.digest.rank``); a PR in review ranks below a merged one of the same weight. A merged change users
    feel (any user-facing kind, or a bug fix) is always a candidate, however small: ``MIN_SCORE`` keeps out only
    internal changes and those of no known kind, so a day with five user-facing merges lists five."""
    scored: list[tuple[float, ItemRecord, Merged | InReview]] = []
    for item in items:
        if not item.is_pr or bot(item):
            continue
        merged = item.merged_at in window
        # Open at the window's end (a digest of an earlier day sees the PR as it was then), not draft.
        open_then = item.closed_at is None or item.closed_at >= window.end
        in_review = (
            open_then and not item.draft and item.created_at < window.end
            and (item.created_at in window or activity.comments_in_window.get(item.number, 0) > 0)
        )
        if not merged and not (in_review and may_be_significant(item)):
            continue
        result = key_change_score(item, areas=areas_touched(matches.get(item.number, [])))
        if merged and (result.listed_merged or result.score >= MIN_SCORE):
            scored.append((result.score, item, Merged(result.signals)))
        elif in_review and significant_in_review(item, result):
            scored.append((result.score - IN_REVIEW_PENALTY, item, InReview(result.signals)))
    scored.sort(key=lambda entry: (-entry[0], -entry[1].number))
    for _, item, why in scored[:MAX_KEY_CHANGES]:
        yield view(item, why)


def _notable(
    items: list[ItemRecord],
    window: Window,
    activity: WindowActivity,
    matches: dict[int, list[TopicMatch]],
    taxonomy: Taxonomy,
    bot: Callable[[ItemRecord], bool],
    view: View,
) -> Iterable[DigestItem]:
    """New human bug reports by severity x reach (``bot.digest.rank``), at most ``MAX_NOTABLE``."""
    families = {topic.id for topic in taxonomy.topics if topic.definition.lead_subject}
    found = []
    for item in items:
        if item.created_at not in window or bot(item):
            continue
        kind = bug_kind(item)
        if kind is None:
            continue
        topics = {match.topic_id for match in matches.get(item.number, ())}
        discussion = activity.discussions.get(item.number)
        confirmations = discussion.confirmations if discussion is not None else 0
        comments = view.comments(item)
        reach = bug_reach(
            item,
            family=bool(topics & families),
            hardware=bool(topics & HARDWARE_TOPICS),
            comments=comments,
            confirmations=confirmations,
        )
        found.append((notable_score(kind, reach, side_tool=peripheral(item)), kind, comments, confirmations, item))
    found.sort(key=lambda entry: (-entry[0], BUG_KINDS.index(entry[1]), -entry[4].number))
    for _, kind, comments, confirmations, item in found[:MAX_NOTABLE]:
        yield view(item, NewBug(kind, comments, confirmations))
