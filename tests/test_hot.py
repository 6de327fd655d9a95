"""Hot discussions (docs/editorial.md): who may make a thread hot, the heat score that ranks them, and the store's
per-item facts behind it (distinct people, a maintainer, the last word, confirmations) read without a query per
item."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import event

from bot.digest.heat import MAX_HOT, PER_PERSON, heat, is_hot, item_weight
from bot.github.payloads import confirms
from bot.model import Hot
from bot.store.records import Discussion
from bot.store.store import Store
from tests.factories import comment_payload, issue_payload, item_record
from tests.test_build import BEFORE, END, INSIDE, START, WINDOW, build, numbers, save

OLD = BEFORE - timedelta(days=3)


def talk(first_id: int, number: int, who: list[str], *, association: str = "NONE", at=INSIDE) -> list[dict]:  # type: ignore[no-untyped-def]
    """One comment per name in ``who``, a minute apart, in that order."""
    return [comment_payload(first_id + k, number, at + timedelta(minutes=k), user=name, association=association)
            for k, name in enumerate(who)]


def discussion(people: int, *, maintainer: bool = False, last: str = "NONE") -> Discussion:
    return Discussion(frozenset(f"p{k}" for k in range(people)), maintainer, "p0", last)


# --- entry and heat, on hand-built records ---


def test_a_thread_is_hot_with_enough_comments_from_two_people_at_least() -> None:
    assert is_hot(comments=3, people=2, min_comments=3)
    assert not is_hot(comments=9, people=1, min_comments=3)  # one person writing nine times: no discussion
    assert not is_hot(comments=2, people=2, min_comments=3)
    assert is_hot(comments=2, people=2, min_comments=2)  # digest.hot_min_comments is the comment floor


def test_five_people_are_hotter_than_two_writing_many_times() -> None:
    item = item_record(1, OLD)
    crowd = heat(item, discussion(5), comments=5, reactions=0, window=WINDOW)
    pair = heat(item, discussion(2), comments=12, reactions=0, window=WINDOW)
    assert crowd.score > pair.score


def test_a_maintainer_and_an_open_question_add_heat_and_a_closed_thread_loses_some() -> None:
    open_item = item_record(1, OLD)
    closed_item = item_record(2, OLD, closed=INSIDE)
    closed_later = item_record(3, OLD, closed=END + timedelta(hours=1))  # open when the window ended

    def score(item, found: Discussion) -> float:  # type: ignore[no-untyped-def]
        return heat(item, found, comments=6, reactions=2, window=WINDOW).score

    unanswered = score(open_item, discussion(3, last="CONTRIBUTOR"))
    answered_last = score(open_item, discussion(3, maintainer=True, last="MEMBER"))
    answered_then_asked = score(open_item, discussion(3, maintainer=True, last="NONE"))
    assert answered_then_asked > answered_last and answered_then_asked > unanswered
    assert score(closed_item, discussion(3, maintainer=True, last="MEMBER")) < answered_last
    assert score(closed_later, discussion(3, last="NONE")) == unanswered
    assert heat(open_item, discussion(3, maintainer=True, last="NONE"), 6, 2, WINDOW).why == Hot(
        comments=6, reactions=2, participants=3, maintainer=True, open_question=True)
    assert heat(closed_item, discussion(3, last="NONE"), 6, 2, WINDOW).why.open_question is False


def test_reactions_and_comments_add_heat_with_diminishing_returns() -> None:
    item = item_record(1, OLD)
    base = heat(item, discussion(3), 4, 0, WINDOW).score
    assert heat(item, discussion(3), 4, 8, WINDOW).score > base
    assert heat(item, discussion(3), 8, 0, WINDOW).score - base < heat(item, discussion(4), 4, 0, WINDOW).score - base


# --- the store's facts per item ---


def test_window_activity_says_who_discussed_each_item(store: Store) -> None:
    save(store, [issue_payload(1, OLD, user="alice"), issue_payload(2, OLD, user="alice")], [
        *talk(10, 1, ["alice", "bob", "alice"]),
        comment_payload(20, 1, INSIDE + timedelta(hours=1), user="maint", association="MEMBER"),
        comment_payload(21, 1, INSIDE + timedelta(hours=2), user="ci[bot]", bot=True, association="NONE"),
        comment_payload(22, 1, BEFORE, user="earlier", association="OWNER"),  # before the window: not counted
        *talk(30, 2, ["bob", "carol"]),
        comment_payload(32, 2, INSIDE + timedelta(hours=3), user="alice", association="COLLABORATOR"),
    ])
    activity = store.window_activity("o/r", START, END)
    first, second = activity.discussions[1], activity.discussions[2]
    assert first.people == {"alice", "bob", "maint"} and first.participants == 3
    assert first.maintainer and (first.last_author, first.last_association) == ("maint", "MEMBER")
    assert first.maintainer_spoke_last  # the bot that spoke after is no one's word
    assert activity.comments_in_window == {1: 4, 2: 3}
    assert second.people == {"bob", "carol", "alice"} and second.maintainer  # alice collaborates on the project
    assert (second.last_author, second.maintainer_spoke_last) == ("alice", True)


def test_confirmations_are_short_comments_by_others_saying_me_too(store: Store) -> None:
    save(store, [issue_payload(1, INSIDE, user="alice")], [
        comment_payload(1, 1, INSIDE + timedelta(minutes=1), user="bob", body="+1"),
        comment_payload(2, 1, INSIDE + timedelta(minutes=2), user="carol", body="Same here on 8xH100, TP=8."),
        comment_payload(3, 1, INSIDE + timedelta(minutes=3), user="dave", body="I'm also seeing this with v0.11"),
        comment_payload(4, 1, INSIDE + timedelta(minutes=4), user="erin", body="同样遇到这个问题"),
        comment_payload(5, 1, INSIDE + timedelta(minutes=5), user="alice", body="+1, still broken"),  # the author
        comment_payload(6, 1, INSIDE + timedelta(minutes=6), user="stale[bot]", bot=True, body="+1"),
        comment_payload(7, 1, INSIDE + timedelta(minutes=7), user="frank", body="Can you share the full log?"),
        comment_payload(8, 1, INSIDE + timedelta(minutes=8), user="gina",
                        body="Same here. " + "Here is a long analysis of the scheduler. " * 10),  # a discussion
        comment_payload(9, 1, BEFORE, user="hugo", body="+1"),  # not in the window
        comment_payload(10, 1, INSIDE + timedelta(minutes=9), user="bob", body="me too, after the upgrade"),
    ])
    assert store.window_activity("o/r", START, END).discussions[1].confirmations == 5  # bob x2, carol, dave, erin


def test_a_confirmation_is_a_short_me_too_read_once_at_sync_time() -> None:
    for body in ("+1", "+1 🙏", "Same here, 8xH100", "I'm also seeing this on v0.11.2", "Can confirm on main.",
                 "same issue with Qwen3", "Still seeing this with v0.12.0rc1 😢", "同样遇到这个问题", "同问，+1",
                 "我这边在 H100 上也复现了", "同じ問題が発生しています。", "me too"):
        assert confirms(body), body
    for body in ("Can you share the full log?", "TP+1 ranks hang", "+10 tokens/s with this PR",
                 "I can't reproduce this on main.", "Looks good", "Same here. " + "A long analysis. " * 20):
        assert not confirms(body), body


def test_window_activity_reads_a_fixed_number_of_queries_whatever_the_items(sqlite_store: Store) -> None:
    def queries_for(n_items: int, first: int) -> int:
        save(sqlite_store, [issue_payload(first + k, OLD) for k in range(n_items)],
             [c for k in range(n_items) for c in talk(10 * (first + k), first + k, ["bob", "carol", "dave"])])
        seen: list[str] = []

        def count(*args: object) -> None:
            seen.append(str(args[2]))

        event.listen(sqlite_store.engine, "before_cursor_execute", count)
        try:
            activity = sqlite_store.window_activity("o/r", START, END)
        finally:
            event.remove(sqlite_store.engine, "before_cursor_execute", count)
        assert len(activity.discussions) >= n_items
        return len(seen)

    assert queries_for(3, 1) == queries_for(60, 1000) == 3


# --- the section ---


def test_the_author_alone_and_bots_never_make_a_thread_hot(store: Store) -> None:
    save(store, [issue_payload(n, OLD, user="alice") for n in range(1, 5)], [
        *talk(100, 1, ["alice"] * 6),  # the author talking to themself
        *talk(200, 2, ["ci[bot]", "mergify[bot]", "ci[bot]", "alice"]),  # bots and the author: one person
        *talk(300, 3, ["alice", "bob", "alice"]),  # a conversation: the author and one more person
        *[comment_payload(400 + k, 4, INSIDE, user=f"bot{k}[bot]", bot=True) for k in range(5)],
    ])
    hot = build(store).section("hot").items
    assert numbers(hot) == [3]
    assert hot[0].why == Hot(comments=3, participants=2, open_question=True)


def test_hot_ranks_by_heat_at_most_ten_and_counts_prs_too(store: Store) -> None:
    crowd = ["p1", "p2", "p3", "p4", "p5"]
    save(store, [
        issue_payload(1, OLD),  # two people, many comments
        issue_payload(2, OLD),  # five people, once each
        issue_payload(3, OLD, pr=True),  # a PR under review: three people and a maintainer
        *(issue_payload(n, OLD) for n in range(10, 22)),  # twelve quiet threads that just qualify
    ], [
        *talk(100, 1, ["bob", "carol"] * 6),
        *talk(200, 2, crowd),
        *talk(300, 3, ["bob", "carol"]), *talk(302, 3, ["maint"], association="MEMBER", at=INSIDE + timedelta(hours=1)),
        *(c for n in range(10, 22) for c in talk(1000 * n, n, ["x", "y", "x"])),
    ])
    hot = build(store).section("hot").items
    assert len(hot) == MAX_HOT == 10
    assert numbers(hot[:3]) == [2, 1, 3]
    assert hot[2].kind == "pr" and hot[2].why == Hot(comments=3, participants=3, maintainer=True)
    # Ties among the quiet ones: newer first.
    assert numbers(hot[3:]) == list(range(21, 14, -1))


def test_hot_min_comments_is_the_comment_floor(store: Store) -> None:
    save(store, [issue_payload(1, OLD), issue_payload(2, OLD)],
         [*talk(10, 1, ["bob", "carol"]), *talk(20, 2, ["bob", "carol", "dave", "erin"])])
    assert numbers(build(store).section("hot").items) == [2]
    assert numbers(build(store, hot_min_comments=2).section("hot").items) == [2, 1]
    assert numbers(build(store, hot_min_comments=5).section("hot").items) == []


def test_what_the_item_is_counts_half_a_person() -> None:
    crash = item_record(1, OLD, title="[Bug]: Engine core died with Qwen3 on TP=8", labels=("bug",))
    usage = item_record(2, OLD, title="[Usage]: How do I run Qwen3 on 8 GPUs?", labels=("usage",))
    idea = item_record(3, OLD, title="[RFC]: Async scheduling by default", labels=("RFC",))
    ci_pr = item_record(4, OLD, title="[CI/Build] Update PyTorch to 2.9.0", pr=True)
    model_pr = item_record(5, OLD, title="[Model] Add Olmo-3", pr=True)
    assert [item_weight(item) for item in (crash, usage, idea, ci_pr, model_pr)] == [1.0, -1.0, 0.0, -1.0, 0.0]

    def score(item, people: int) -> float:  # type: ignore[no-untyped-def]
        return heat(item, discussion(people), comments=6, reactions=2, window=WINDOW).score

    assert score(crash, 4) > score(idea, 4) > score(usage, 4)  # same people, same comments
    assert score(usage, 6) > score(crash, 4)  # two more people still win
    assert item_weight(crash) - item_weight(usage) == PER_PERSON
