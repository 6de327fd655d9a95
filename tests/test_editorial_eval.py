"""The editorial evaluation (issue #13, docs/editorial.md): the digest's picks against people's, per section.

Days: tests/data/editorial/days/<day-id>.json (built by bench/editorial_days.py). Labels:
tests/data/editorial/labels/<labeller>/<day-id>.json, written from the policy and the day's labelling view
(tests/data/editorial/views/) by people who have not seen the ranking code. Agreement per section and day =
|bot top-k ∩ label top-k| / min(k, len(label list)) with k = 3 (hot), 5 (key changes), 5 (notable bugs);
the means over (labeller, day) must hold the floors below, separately for the days the ranking was tuned on
(tuned.txt) and the others. ``python -m bench.editorial_eval`` prints the full table.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bench.editorial_eval import (
    DATA,
    DAYS_DIR,
    LABELS_DIR,
    SECTIONS,
    TOP_K,
    agreement,
    between_labellers,
    bot_picks,
    eval_settings,
    load_day,
    load_days,
    load_labels,
    load_tuned,
    mean,
    read_label_file,
    score,
    section_means,
)
from bot.github.payloads import comment_from_payload, item_from_payload

# Floors for the mean agreement over (labeller, day), per section. 0.0 until the first measurement with real
# labels; then raised to what the ranking holds (the issue aims for >= 0.6 on held-out days).
# Measured (docs/editorial.md, "Evaluation results"): held out hot 0.95 over fourteen days; key changes 0.74 and
# notable 0.77, both now tuned on all fourteen days (tuned.txt), so their held-out floors wait for new days. The
# floors sit a little under, so a change that makes the picks worse fails.
HELD_OUT_FLOORS: dict[str, float] = {"hot": 0.85, "key_changes": 0.6, "notable": 0.6}
TUNED_FLOORS: dict[str, float] = {"hot": 0.0, "key_changes": 0.65, "notable": 0.7}

HARNESS_FIXTURE = DATA / "harness_fixture"
FIXTURE_DAY = "gen-s52-2025-11-16"
MIN_DAYS = 8  # the issue asks for at least 8 realistic days
MAX_DAY_BYTES = 1_600_000  # "below ~1.5 MB"


def _day_paths() -> list[Path]:
    return sorted(DAYS_DIR.glob("*.json"))


def _iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _window(day: dict[str, Any]) -> tuple[str, str]:
    end = datetime.fromisoformat(day["end"].replace("Z", "+00:00")).astimezone(UTC)
    return _iso(end - timedelta(days=1)), _iso(end)


def _number_of(comment: dict[str, Any]) -> int:
    return int(comment["issue_url"].rsplit("/", 1)[1])


# --- the days ------------------------------------------------------------------------------------------------


def test_there_are_enough_days_from_both_sources() -> None:
    days = load_days()
    sources = {day["source"] for day in days}
    assert len(days) >= MIN_DAYS, f"{len(days)} days; run `python bench/editorial_days.py build`"
    assert sources == {"generator", "hand"}


@pytest.mark.parametrize("path", _day_paths(), ids=lambda p: p.stem)
def test_a_day_is_one_window_of_payloads_the_sync_reads(path: Path) -> None:
    assert path.stat().st_size <= MAX_DAY_BYTES
    day = load_day(path)
    start, end = _window(day)
    assert day["repo"] == "vllm-project/vllm" and day["timezone"] == "Asia/Shanghai"
    assert day["end"].endswith("T03:05:00Z"), "the window ends at 11:05 Asia/Shanghai"
    settings = eval_settings()
    numbers = set()
    for payload in day["issues"]:
        item = item_from_payload(day["repo"], payload, settings.is_bot)  # raises on a malformed payload
        numbers.add(item.number)
        assert payload["updated_at"] < end and payload["created_at"] <= payload["updated_at"]
    for payload in day["comments"]:
        comment = comment_from_payload(day["repo"], payload, settings.is_bot)
        assert comment.number in numbers, f"comment {comment.id} on #{comment.number}, not in the day"
        assert payload["created_at"] < end
    prs = {p["number"] for p in day["issues"] if "pull_request" in p}
    assert {p["number"] for p in day["pulls"]} == prs, "every PR has its details"
    for pull in day["pulls"]:
        assert pull["additions"] >= 0 and pull["deletions"] >= 0 and pull["changed_files"] >= 1
    opened = [p for p in day["issues"] if start <= p["created_at"] < end]
    commented = {_number_of(c) for c in day["comments"] if start <= c["created_at"] < end}
    earlier_and_busy = {p["number"] for p in day["issues"] if p["created_at"] < start} & commented
    assert len(opened) >= 20, "even a quiet weekend day opens a few dozen items"
    assert earlier_and_busy, "history: items opened before the window are commented in it"


def test_the_labelling_views_match_the_days() -> None:
    views = DATA / "views"
    assert {p.stem for p in views.glob("*.md")} == {p.stem for p in _day_paths()}, (
        "run `python bench/editorial_days.py views`")


# --- the arithmetic ------------------------------------------------------------------------------------------


def test_agreement_is_the_overlap_of_the_top_k_over_the_smaller_size() -> None:
    assert agreement([1, 2, 3], [3, 2, 9], 3) == pytest.approx(2 / 3)
    assert agreement([1, 2, 3, 4, 5, 6], [6, 7], 5) == 0.0  # the bot's 6th pick is outside its top 5
    assert agreement([1, 2], [1, 2, 3, 4, 5], 5) == pytest.approx(2 / 5)  # the bot listing fewer costs it
    assert agreement([4], [4], 5) == 1.0  # the labeller picked one: min(k, 1)
    assert agreement([1, 2, 3], [], 3) is None  # nobody picked anything: no basis
    assert agreement([], [7], 3) == 0.0
    assert mean([None, 0.5, 1.0]) == 0.75 and mean([None]) is None


def test_a_label_file_must_say_what_it_means(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"hot": [3, 1], "notable": []}))
    assert read_label_file(good) == {"hot": [3, 1], "key_changes": [], "notable": []}
    for bad in ({"hott": [1]}, {"hot": "1, 2"}, {"hot": [1, 1]}, {"hot": [True]}, [1, 2]):
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(bad))
        with pytest.raises(ValueError, match="bad.json"):
            read_label_file(path)


def test_means_keep_tuned_and_held_out_days_apart() -> None:
    picks = {"d1": {"hot": [1, 2, 3], "key_changes": [], "notable": [5]},
             "d2": {"hot": [7, 8, 9], "key_changes": [4], "notable": []}}
    labels = {"ann": {"d1": {"hot": [1, 2, 3], "key_changes": [], "notable": [6]},
                      "d2": {"hot": [9], "key_changes": [4, 5], "notable": [1]}},
              "bob": {"d1": {"hot": [2], "key_changes": [], "notable": []}, "unknown-day": {"hot": [1]}}}
    scores = score(picks, labels, tuned={"d2"})
    assert {(s.labeller, s.day) for s in scores} == {("ann", "d1"), ("ann", "d2"), ("bob", "d1")}
    held_out = section_means(scores, tuned=False)
    assert held_out == {"hot": 1.0, "key_changes": None, "notable": 0.0}
    assert section_means(scores, tuned=True) == {"hot": 1.0, "key_changes": 0.5, "notable": 0.0}
    rows = {(r[2], r[3]): r[4] for r in between_labellers(labels)}
    assert rows == {("d1", "hot"): 1.0, ("d1", "key_changes"): None, ("d1", "notable"): None}
    # A day and a section: only that section of that day counts as tuned.
    by_section = score(picks, labels, tuned={"d2:key_changes"})
    assert section_means(by_section, tuned=True) == {"hot": None, "key_changes": 0.5, "notable": None}
    assert section_means(by_section, tuned=False) == {"hot": 1.0, "key_changes": None, "notable": 0.0}


def test_tuned_lines_name_a_day_or_a_day_and_a_section(tmp_path: Path) -> None:
    path = tmp_path / "tuned.txt"
    path.write_text("# comment\nday-a\nday-b key_changes  # only its key changes\n\n")
    assert load_tuned(path) == {"day-a", "day-b:key_changes"}


# --- the harness end to end ------------------------------------------------------------------------------------


def test_the_harness_measures_a_day_against_two_labellers() -> None:
    """The harness's own fixture (two made-up labellers on one day, under harness_fixture/, not labels/):
    real sync, real digest, the bot's picks are items of the right kind, and the table's numbers follow."""
    day = load_day(DAYS_DIR / f"{FIXTURE_DAY}.json")
    start, end = _window(day)
    picks = bot_picks(day)
    kinds = {p["number"]: "pr" if "pull_request" in p else "issue" for p in day["issues"]}
    opened = {p["number"] for p in day["issues"] if start <= p["created_at"] < end}
    human = {_number_of(c) for c in day["comments"]
             if start <= c["created_at"] < end and c["user"]["type"] != "Bot"}
    assert set(picks) == set(SECTIONS)
    assert all(len(picks[s]) <= k for s, k in TOP_K.items())
    assert picks["hot"] and set(picks["hot"]) <= human, "hot discussions are discussed in the window"
    assert picks["key_changes"] and all(kinds[n] == "pr" for n in picks["key_changes"])
    assert picks["notable"] and all(kinds[n] == "issue" and n in opened for n in picks["notable"])

    labels = load_labels(HARNESS_FIXTURE)
    assert sorted(labels) == ["fixture-a", "fixture-b"]
    scores = score({FIXTURE_DAY: picks}, labels, tuned=set())
    assert len(scores) == 2 * len(SECTIONS)
    for s in scores:
        expected = agreement(picks[s.section], labels[s.labeller][FIXTURE_DAY][s.section], TOP_K[s.section])
        assert s.value == expected and (s.value is None or 0.0 <= s.value <= 1.0)
    between = {r[3]: r[4] for r in between_labellers(labels)}
    assert between == {"hot": pytest.approx(2 / 3), "key_changes": pytest.approx(3 / 5), "notable": 1.0}


@pytest.mark.parametrize("folder", [LABELS_DIR, HARNESS_FIXTURE], ids=["labels", "harness_fixture"])
def test_labels_name_days_and_items_that_exist(folder: Path) -> None:
    labels = load_labels(folder)
    if not labels:
        pytest.skip(f"no label files under {folder.relative_to(DATA)} yet")
    for labeller, days in labels.items():
        for day_id, picks in days.items():
            path = DAYS_DIR / f"{day_id}.json"
            assert path.exists(), f"{labeller}/{day_id}.json names no day"
            numbers = {p["number"] for p in load_day(path)["issues"]}
            for section, listed in picks.items():
                assert set(listed) <= numbers, f"{labeller}/{day_id}: {section} names items not in the day"


def test_the_digest_agrees_with_the_labellers() -> None:
    labels = load_labels()
    if not labels:
        pytest.skip("no labels yet: people who have not seen the ranking code write "
                    "tests/data/editorial/labels/<labeller>/<day-id>.json from the views (docs/editorial.md)")
    labelled = sorted({day_id for days in labels.values() for day_id in days})
    settings = eval_settings()
    picks = {str(day["id"]): bot_picks(day, settings) for day in load_days(only=labelled)}
    scores = score(picks, labels, load_tuned())
    failures = []
    for tuned, floors in ((False, HELD_OUT_FLOORS), (True, TUNED_FLOORS)):
        for section, value in section_means(scores, tuned=tuned).items():
            if value is not None and value < floors[section]:
                failures.append(f"{'tuned' if tuned else 'held-out'} {section}: {value:.2f} < {floors[section]}")
    assert not failures, "; ".join(failures) + " (python -m bench.editorial_eval --picks for the table)"
