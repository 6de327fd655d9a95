"""Key changes by impact (docs/editorial.md, "Key changes"): the kind of change, breadth, size, review attention;
merged PRs and significant PRs in review; what the JSON says about them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from msgspec import structs

from bot.digest.rank import (
    IN_REVIEW_PENALTY,
    MAX_KEY_CHANGES,
    MIN_SCORE,
    change_kind,
    key_change_score,
    significant_in_review,
)
from bot.github.payloads import comment_from_payload, item_from_payload
from bot.model import InReview, Merged, Signal
from bot.store.records import ItemRecord
from bot.store.store import Store
from formatters.json_format import digest_to_dict
from tests.factories import comment_payload, issue_payload
from tests.test_build import BEFORE, INSIDE, build, is_bot, numbers


def pr(title: str, *, lines: int | None = None, files: int | None = None, body: str = "", comments: int = 0,
       labels: tuple[str, ...] = ()) -> ItemRecord:
    item = item_from_payload("o/r", issue_payload(1, BEFORE, pr=True, merged=INSIDE, title=title, labels=labels,
                                                  comments=comments), is_bot)
    return structs.replace(item, prose=body, additions=lines, deletions=0 if lines is not None else None,
                               changed_files=files)


def save(store: Store, issues: list[dict], comments: list[dict] = (), sizes: dict[int, int] | None = None,  # type: ignore[assignment]
         ) -> None:
    """Stored as the sync stores them, with a PR's lines (additions) where ``sizes`` gives them."""
    items = [item_from_payload("o/r", p, is_bot) for p in issues]
    items = [structs.replace(i, additions=sizes[i.number], deletions=0, changed_files=max(1, sizes[i.number] // 80))
             if sizes and i.number in sizes else i for i in items]
    store.save_page(items, [comment_from_payload("o/r", c, is_bot) for c in comments])


# --- the kind of change -------------------------------------------------------------------------------------


def test_removing_useless_code_in_a_refactor_is_internal_not_breaking() -> None:
    assert change_kind(pr("[Refactor] Remove useless syncwarp")) == ("internal", "")
    assert change_kind(pr("[Misc] Remove unused code in vllm/utils/__init__.py")) == ("internal", "")
    # Removing deprecated code is housekeeping; taking away something users call breaks them.
    assert change_kind(pr("[Hardware][Neuron] Remove deprecated Neuron worker")) == ("internal", "")
    assert change_kind(pr("[Frontend] Drop support for the legacy guided_json field")) == ("breaking", "")
    scored = key_change_score(pr("[Refactor] Remove useless syncwarp", lines=6, files=1))
    assert scored.score < MIN_SCORE and Signal("breaking") not in scored.signals


@pytest.mark.parametrize(("title", "kind"), [
    # Deprecations and removals of old code are housekeeping for readers (vLLM's "[V0 Deprecation]" series)...
    ("[V0 Deprecation] Remove V0 MLA backends", "internal"),
    ("[V0 Deprecation] Remove LLMEngine", "internal"),
    ("[Chore][1/2] Drop `v0.14` deprecations", "internal"),
    ("[Core] Remove the legacy block manager (take 4)", "internal"),
    ("[Frontend] Guided decoding: deprecate guided_json in favor of structured_outputs", "internal"),
    ("[V1] Deprecate `--num-scheduler-steps`", "internal"),
    # ... unless they take away what users call: a flag, an argument, an endpoint, support for something.
    ("[Core] Remove the deprecated `--task` flag (use `--runner` and `--convert`)", "breaking"),
    ("[Deprecation] Remove the `--disable-log-requests` option", "breaking"),
    ("[Misc] Drop support for Python 3.9", "breaking"),
    ("[Frontend] Breaking: rename the reasoning_content field", "breaking"),  # it says so itself
    # User-visible fixes and speed-ups are user-facing even when their titles also say "remove" or "refactor".
    ("[Perf] Remove redundant CPU-GPU sync in the sampler", "speedup"),
    ("[Bugfix] Fix illegal memory access in FA3 and add a regression test", "fix"),
    ("[Bugfix] Remove the stale block table that corrupts outputs for large batches", "fix"),
    ("[Model][Bugfix] Fix garbage output for DeepSeek-V3 with FP8 KV cache", "fix"),
    ("[Model] Fix the Qwen3 tool parser for parallel calls", "bugfix"),  # a fix, not a new model
    # "unified" names a kernel; "unify" is moving code around.
    ("[Kernel][Triton] Speed up unified triton attention kernel [5/N]", "speedup"),
    ("[Core] Unify the KV cache managers", "internal"),
    ("[Bugfix] Fix hang when logging is enabled", "fix"),
    ("[Test] Add tests for the Qwen3 tool parser", "internal"),
    ("Add FlashInfer MLA backend [4/N]", "feature"),  # a part tag is not a kind tag
    # A new kernel named as a noun says no kind (it weighs OTHER_WEIGHT: editors often pick them, not always).
    ("[Kernel] Triton MoE kernel for gfx950", None),
])
def test_housekeeping_is_internal_and_what_users_feel_is_not(title: str, kind: str) -> None:
    assert change_kind(pr(title))[0] == kind


def test_user_facing_kinds_are_told_apart() -> None:
    cases = {
        "[Model] Add support for Qwen3-Omni": ("new_model", ""),
        "[Frontend] Support Responses API background mode": ("feature", ""),
        "[ROCm] Enable AITER fused MoE on MI355X": ("hardware", ""),
        "[NVIDIA] Enable FlashInfer by default on Blackwell": ("default", ""),
        "[Bugfix] Fix deadlock in shared memory broadcast": ("fix", "hang"),
        "[Bugfix] Fix engine crash on malformed tool call": ("fix", "crash"),
        "[Bugfix] Fix http 400 on /v1/completions with echo=True": ("bugfix", ""),
        "[Perf] Fused MoE routing: 1.8x faster decode for DeepSeek-V3": ("speedup", "1.8x"),
        "[Doc] Fix typo in quantization docs": ("internal", ""),
        "[CI/Build] Fix Docker build for arm64": ("internal", ""),
        "[Misc] Log an efficient warmup summary": ("internal", ""),
        "[Core] Step-level timing in the engine core loop": (None, ""),
    }
    assert {title: change_kind(pr(title)) for title in cases} == cases


def test_a_speed_up_counts_more_with_a_figure_from_the_title_or_the_prose() -> None:
    plain = key_change_score(pr("[Perf] Overlap detokenization with the forward pass", lines=150, files=3))
    quoted = pr("[Perf] Overlap detokenization with the forward pass", lines=150, files=3,
                body="This gives 30% lower TTFT on H100 in our runs.")
    assert change_kind(quoted) == ("speedup", "30%")
    assert key_change_score(quoted).score > plain.score
    assert Signal("speedup", "30%") in key_change_score(quoted).signals


# --- breadth, size, review ------------------------------------------------------------------------------------


def test_a_refactor_across_four_model_families_outranks_one_on_a_helper() -> None:
    wide = key_change_score(pr("[Refactor] Unify rotary embedding across Llama, Qwen, DeepSeek and Gemma models",
                               lines=900, files=28), areas=4)
    helper = key_change_score(pr("[Refactor] Move the sampling helper", lines=900, files=28), areas=1)
    assert wide.kind == helper.kind == "internal"
    assert wide.score >= helper.score + 3  # the breadth bonus, at its cap (MAX_AREA_BONUS)
    assert Signal("areas", count=4) in wide.signals
    # ... and weighs with a small user-facing change, though user-facing still wins at equal breadth and size.
    small_feature = key_change_score(pr("[Frontend] Add a flag for the prompt-cache salt", lines=40, files=2), areas=1)
    assert wide.score > small_feature.score
    same_size_feature = key_change_score(pr("[Frontend] Add a flag", lines=900, files=28), areas=4)
    assert same_size_feature.score > wide.score


def test_size_has_diminishing_returns_and_an_unknown_size_counts_as_typical() -> None:
    def size_part(lines: int | None, files: int | None) -> float:
        return key_change_score(pr("[Core] Step-level timing", lines=lines, files=files)).score

    small, big = size_part(20, 1), size_part(2000, 1)
    assert big > small and big - small < 5  # 100x the lines is worth less than a kind of change (6), not 100x
    assert size_part(20, 1) < size_part(None, None) < size_part(2000, 30)
    assert Signal("lines", count=2000) in key_change_score(pr("x", lines=2000, files=9)).signals
    assert not any(s.kind in ("lines", "files") for s in key_change_score(pr("x")).signals)


def test_review_attention_breaks_ties() -> None:
    quiet = key_change_score(pr("[Frontend] Add an API", lines=200, files=4))
    discussed = key_change_score(structs.replace(pr("[Frontend] Add an API", lines=200, files=4, comments=9),
                                                     review_comments=14, reactions=5))
    assert discussed.score > quiet.score
    assert Signal("review_comments", count=14) in discussed.signals


def test_what_makes_a_pr_in_review_significant() -> None:
    def significant(title: str, lines: int | None, comments: int = 0) -> bool:
        item = pr(title, lines=lines, comments=comments)
        return significant_in_review(item, key_change_score(item))

    assert significant("[Model] Add support for GLM-4.6V", 2400)
    assert not significant("[Model] Add support for GLM-4.6V", 30)  # user-facing but small
    assert significant("[Refactor] Split the model runner", 3000)  # large whatever it is
    assert not significant("[Refactor] Split the model runner", 400)
    assert not significant("[WIP] [Model] Add support for GLM-4.6V", 2400)
    assert significant("[Model] Add support for GLM-4.6V", None, comments=4)  # size unknown, being reviewed
    assert not significant("[Model] Add support for GLM-4.6V", None, comments=0)


# --- the section ------------------------------------------------------------------------------------------------


def test_a_big_open_model_pr_in_review_is_listed_below_a_merged_one_of_equal_weight(store: Store) -> None:
    title = "[Model] Add support for GLM-4.6V"
    save(store, [
        issue_payload(1, BEFORE, pr=True, merged=INSIDE, title=title, comments=3),
        issue_payload(2, BEFORE, pr=True, title=title + " (take 2)", comments=3),  # open, discussed today
        issue_payload(3, INSIDE, pr=True, title="[Model] Add support for Olmo-3", draft=True),  # draft: not yet
        issue_payload(4, INSIDE, pr=True, title="[Model] Add support for Apertus", user="bot[bot]", bot=True),
        issue_payload(5, BEFORE - timedelta(days=3), pr=True, title="[Model] Add support for Ling-1T"),  # quiet
        issue_payload(6, INSIDE, pr=True, title="[Misc] Tidy the model runner"),  # open, small, internal
        issue_payload(7, BEFORE, pr=True, merged=INSIDE, title="[Doc] Fix typo in README"),
        issue_payload(8, BEFORE, pr=True, merged=INSIDE, title="[Misc] Rename a helper"),
    ], [comment_payload(10, 2, INSIDE)], sizes={1: 2400, 2: 2400, 3: 2400, 4: 2400, 5: 2400, 6: 20, 7: 2, 8: 30})
    digest = build(store)
    key = digest.section("key_changes").items
    assert numbers(key) == [1, 2]
    assert isinstance(key[0].why, Merged) and isinstance(key[1].why, InReview)
    assert Signal("new_model") in key[1].why.signals and Signal("lines", count=2400) in key[1].why.signals
    data = digest_to_dict(digest)
    listed = next(s for s in data["sections"] if s["id"] == "key_changes")["items"]
    assert listed[0]["reason"] == "merged: [model], 3 comments"  # the contract's form, as before
    assert listed[1]["reason"].startswith("in review: [model], new model")
    assert listed[1]["why"]["kind"] == "in_review" and listed[1]["state"] == "open"


def test_a_large_user_facing_pr_in_review_outranks_a_merged_internal_one(store: Store) -> None:
    save(store, [
        issue_payload(1, BEFORE, pr=True, merged=INSIDE, title="[Refactor] Split the scheduler into two files"),
        issue_payload(2, INSIDE, pr=True, title="[Feature] Add the Responses API streaming mode"),
    ], sizes={1: 800, 2: 1800})
    key = build(store).section("key_changes").items
    assert numbers(key) == [2, 1]
    merged, in_review = (key_change_score(store.item("o/r", n)) for n in (1, 2))  # type: ignore[arg-type]
    assert in_review.score - IN_REVIEW_PENALTY > merged.score


def test_an_earlier_window_sees_a_pr_as_it_was_then(store: Store) -> None:
    # Merged after the window: that day it was in review.
    save(store, [issue_payload(1, INSIDE, pr=True, merged=INSIDE + timedelta(days=2), title="[Model] Add Olmo-3")],
         sizes={1: 1500})
    key = build(store).section("key_changes").items
    assert numbers(key) == [1] and isinstance(key[0].why, InReview)


def test_at_most_ten_key_changes_are_listed(store: Store) -> None:
    save(store, [issue_payload(n, BEFORE, pr=True, merged=INSIDE, title=f"[Feature] Add option {n}")
                 for n in range(1, 16)], sizes={n: 100 * n for n in range(1, 16)})
    key = build(store).section("key_changes").items
    assert len(key) == MAX_KEY_CHANGES
    assert numbers(key) == list(range(15, 5, -1))  # the larger, the higher


def test_a_day_with_five_small_merges_users_feel_lists_all_five(store: Store) -> None:
    # Small merged fixes and features used to fall under MIN_SCORE (a 6-line [Bugfix]: 3.5 + 0.6); a fix or a
    # change users feel is always listed, and housekeeping stays out however the title is worded.
    save(store, [
        issue_payload(1, BEFORE, pr=True, merged=INSIDE, title="[Bugfix] Fix the tool-call loop with gpt-oss"),
        issue_payload(2, BEFORE, pr=True, merged=INSIDE, title="[Bugfix] Fix http 400 on /v1/completions"),
        issue_payload(3, BEFORE, pr=True, merged=INSIDE, title="[Frontend] Support `reasoning_effort` for Qwen3"),
        issue_payload(4, BEFORE, pr=True, merged=INSIDE, title="[Perf] Remove a redundant sync in the sampler"),
        issue_payload(5, BEFORE, pr=True, merged=INSIDE, title="[Model] Add Olmo-3"),
        issue_payload(6, BEFORE, pr=True, merged=INSIDE, title="[V0 Deprecation] Remove V0 tests"),
        issue_payload(7, BEFORE, pr=True, merged=INSIDE, title="[Core] Remove the legacy block manager"),
        issue_payload(8, BEFORE, pr=True, merged=INSIDE, title="[Doc] Fix typo in README"),
    ], sizes={1: 6, 2: 4, 3: 12, 4: 8, 5: 40, 6: 30, 7: 60, 8: 2})
    key = build(store).section("key_changes").items
    assert sorted(numbers(key)) == [1, 2, 3, 4, 5]
    assert numbers(key)[:2] == [1, 5]  # the fix of a loop users hit and the new model lead
    assert all(key_change_score(store.item("o/r", n)).score < MIN_SCORE  # type: ignore[arg-type]
               for n in (2, 6, 7, 8))
