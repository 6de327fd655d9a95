"""A topic section ranks by what an item is (bot/digest/topic_rank.py): breakage first, housekeeping last."""

from __future__ import annotations

import itertools
from datetime import timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.digest.topic_rank import BREAKAGE, tier
from bot.github.payloads import item_from_payload
from bot.store.store import Store
from bot.topics.kinds import with_kinds
from tests.factories import comment_payload, issue_payload
from tests.test_build import INSIDE, build, is_bot, save

EXAMPLES = itertools.count(1)
CHORES = ("[CI/Build] Fix the ROCm nightly image", "[Misc] Clean up unused imports in ROCm attention",
          "[Doc] Update the ROCm install guide", "[Test] Add tests for the AITER MoE path")
BREAKING = ("[Bug]: ROCm 7.0 docker image crashes at startup on MI300X",
            "[Bug]: vLLM hangs at RCCL init with TP=8 on MI325X",
            "[Bug]: garbage output on MI355X after upgrading to 0.11.1")
WORK = ("[ROCm] Add AITER MLA decode for DeepSeek-R1", "[ROCm][Bugfix] Fix LDS overflow in paged attention")


def record(title: str, *, pr: bool) -> object:
    payload = issue_payload(1, INSIDE, title=title, pr=pr, labels=("rocm",) if pr else ("bug", "rocm"))
    return with_kinds(item_from_payload("o/r", payload, is_bot))


def test_tiers_say_what_an_item_is() -> None:
    assert all(tier(record(title, pr=True)) == 2 for title in CHORES)  # type: ignore[arg-type]
    assert all(tier(record(title, pr=False)) == 0 for title in BREAKING)  # type: ignore[arg-type]
    assert all(tier(record(title, pr=True)) == 1 for title in WORK)  # type: ignore[arg-type]
    assert "crash" in BREAKAGE and "oom" not in BREAKAGE


def test_a_chore_never_ranks_above_a_bug_report_however_busy_its_thread(store: Store) -> None:
    items = [issue_payload(n, INSIDE, title=title, pr=True, labels=("rocm", "ci/build"))
             for n, title in enumerate(CHORES, start=1)]
    items += [issue_payload(n, INSIDE, title=title, labels=("bug", "rocm"))
              for n, title in enumerate(BREAKING, start=10)]
    items += [issue_payload(n, INSIDE, title=title, pr=True, labels=("rocm",))
              for n, title in enumerate(WORK, start=20)]
    # the chores have the busiest threads of the day: eight people each
    comments = [comment_payload(1000 * n + k, n, INSIDE + timedelta(minutes=k), user=f"dev{k}")
                for n in range(1, 5) for k in range(8)]
    save(store, items, comments)
    rocm = build(store).section("topic:rocm")
    assert rocm is not None
    order = [item.number for item in rocm.items]
    assert order[:3] == [10, 11, 12]  # the crash, then the hang, then the wrong output
    assert set(order[3:5]) == {20, 21} and set(order[5:]) == {1, 2, 3, 4}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from((*CHORES, *BREAKING, *WORK)), st.integers(0, 12)), min_size=1,
                max_size=12))
def test_any_topic_section_keeps_the_tiers_in_order(store: Store, drawn: list[tuple[str, int]]) -> None:
    base = 1000 * next(EXAMPLES)  # one store for every example: fresh numbers each time
    items, comments = [], []
    for k, (title, busy) in enumerate(drawn):
        number = base + k
        pr = title in CHORES or title in WORK
        items.append(issue_payload(number, INSIDE, title=title, pr=pr, labels=("rocm",) if pr else ("bug", "rocm")))
        comments += [comment_payload(number * 100 + j, number, INSIDE + timedelta(minutes=j), user=f"u{j}")
                     for j in range(busy)]
    save(store, items, comments)
    digest = build(store)
    rocm = digest.section("topic:rocm")
    assert rocm is not None
    mine = [item.number for item in rocm.items if base <= item.number < base + 1000]
    tiers = [tier(store.item("o/r", number)) for number in mine]  # type: ignore[arg-type]
    assert tiers == sorted(tiers)
