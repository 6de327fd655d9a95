"""Digest builder: exact stat definitions at the window's edges, sections, determinism, JSON contract."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from msgspec import structs

from bot.digest.build import BuildOptions, DigestBuilder
from bot.github.payloads import comment_from_payload, item_from_payload
from bot.model import Evidence, Hot, InTopic, Listed, Merged, NewBug, Signal, Window
from bot.store.store import Store
from bot.topics.taxonomy import Taxonomy
from formatters.json_format import digest_to_dict
from formatters.markdown import render_markdown
from tests.factories import comment_payload, issue_payload

START = datetime(2025, 12, 1, 3, 5, tzinfo=UTC)
END = START + timedelta(days=1)
WINDOW = Window(START, END, "Asia/Shanghai")
BEFORE, INSIDE, JUST_OUT = START - timedelta(seconds=1), START + timedelta(hours=2), END
TAXONOMY = Taxonomy.load(Path(__file__).resolve().parents[1] / "config" / "topics.toml")


def is_bot(login: str) -> bool:
    return login.endswith("[bot]")


def save(store: Store, issues: list[dict], comments: list[dict] = ()) -> None:  # type: ignore[assignment]
    store.save_page([item_from_payload("o/r", p, is_bot) for p in issues],
                    [comment_from_payload("o/r", c, is_bot) for c in comments])


def build(store: Store, **options: object):  # type: ignore[no-untyped-def]
    return DigestBuilder(store, TAXONOMY, BuildOptions(**options)).build("o/r", WINDOW)  # type: ignore[arg-type]


def numbers(items) -> list[int]:  # type: ignore[no-untyped-def]
    return [item.number for item in items]


def test_stats_follow_the_exact_definitions_at_window_edges(store: Store) -> None:
    save(store, [
        issue_payload(1, START),                                   # new issue, at start: in
        issue_payload(2, BEFORE),                                  # before: out
        issue_payload(3, JUST_OUT - timedelta(seconds=1)),         # last second: in
        issue_payload(4, BEFORE - timedelta(days=3), closed=INSIDE),    # closed issue (old)
        issue_payload(5, BEFORE, closed=END),                      # closed at end: out
        issue_payload(6, INSIDE, pr=True),                         # new PR
        issue_payload(7, BEFORE, pr=True, merged=INSIDE),          # merged PR
        issue_payload(8, INSIDE, pr=True, merged=INSIDE + timedelta(hours=1)),  # new and merged
        issue_payload(9, BEFORE, pr=True, closed=INSIDE),          # closed unmerged
        issue_payload(10, BEFORE, pr=True, merged=BEFORE),         # merged before: out
        issue_payload(11, INSIDE, closed=INSIDE + timedelta(minutes=5)),  # new and closed issue
    ])
    digest = build(store)
    assert digest.stats.as_dict() == {
        "new_issues": 3, "closed_issues": 2, "new_prs": 2, "merged_prs": 2, "closed_unmerged_prs": 1,
    }
    assert numbers(digest.appendix["new_issues"]) == [1, 11, 3]  # by event time
    assert numbers(digest.appendix["closed_issues"]) == [4, 11]
    assert numbers(digest.appendix["merged_prs"]) == [7, 8]
    assert numbers(digest.appendix["closed_unmerged_prs"]) == [9]
    assert digest.appendix["merged_prs"][0].event_time == INSIDE
    assert digest.appendix["closed_unmerged_prs"][0].why == Listed("closed_unmerged")
    assert {i.number: i.state for i in digest.appendix["new_prs"]} == {6: "new", 8: "merged"}


def test_hot_counts_human_comments_inside_the_window_only(store: Store) -> None:
    old = BEFORE - timedelta(days=2)
    people = ("bob", "carol", "bob")
    save(
        store,
        [issue_payload(1, old, reactions=1), issue_payload(2, old, reactions=9), issue_payload(3, old),
         issue_payload(4, old)],
        [
            *(comment_payload(100 + i, 1, INSIDE + timedelta(minutes=i), user=people[i]) for i in range(3)),
            *(comment_payload(200 + i, 2, INSIDE + timedelta(minutes=i), user=people[i]) for i in range(3)),
            comment_payload(300, 3, START), comment_payload(301, 3, START, user="carol"),
            comment_payload(302, 3, BEFORE, user="dave"), comment_payload(303, 3, END, user="erin"),
            *(comment_payload(400 + i, 4, INSIDE, user=f"ci{i}[bot]", bot=True) for i in range(5)),
        ],
    )
    digest = build(store, hot_min_comments=2)
    hot = digest.section("hot").items
    assert numbers(hot) == [2, 1, 3]  # #2 and #1 alike but for reactions; #4 has only bot comments
    assert hot[0].why == Hot(comments=3, reactions=9, participants=2, maintainer=True)
    assert hot[2].comments_in_window == 2
    assert numbers(build(store).section("hot").items) == [2, 1]  # the default floor: 3 human comments


def test_notable_picks_new_human_bug_reports_about_serious_failures(store: Store) -> None:
    save(store, [
        issue_payload(1, INSIDE, title="[Bug]: Qwen3 server hangs after 200 requests", labels=("bug",)),
        issue_payload(2, INSIDE, title="[Bug]: segfault in fused_moe on MI300X", labels=("bug",), comments=1),
        issue_payload(3, INSIDE, title="[Feature]: hang detection for workers", labels=("feature request",)),
        issue_payload(4, BEFORE, title="[Bug]: crash on startup", labels=("bug",)),
        issue_payload(5, INSIDE, title="[Bug]: typo in docs", labels=("bug",)),
        issue_payload(6, INSIDE, title="[Bug]: wrong output", labels=("bug",), user="x[bot]", bot=True),
        issue_payload(7, INSIDE, title="[Bug]: 推理结果不对", labels=("bug",),
                      body="### 🐛 Describe the bug\n\nThe model produces garbage output after upgrade."),
    ], [comment_payload(50, 2, INSIDE + timedelta(minutes=3))])
    notable = build(store).section("notable").items
    assert numbers(notable) == [2, 1, 7]  # engagement first, then severity (crash, hang, wrong output, ...)
    assert notable[0].why == NewBug("crash", comments=1)
    assert notable[2].why == NewBug("wrong_output")


def test_key_changes_rank_merged_human_prs_by_documented_signals(store: Store) -> None:
    save(store, [
        issue_payload(1, BEFORE, pr=True, merged=INSIDE, title="[Feature] Add the responses API", comments=12),
        issue_payload(2, BEFORE, pr=True, merged=INSIDE, title="[Doc] Fix typo in README"),
        issue_payload(3, BEFORE, pr=True, merged=INSIDE, title="[Bugfix][ROCm] Fix fp8 on MI300X", comments=2),
        issue_payload(4, BEFORE, pr=True, merged=INSIDE, title="Bump torch", user="dependabot[bot]", bot=True),
        issue_payload(5, BEFORE, pr=True, title="[Feature] Not merged", comments=40),
    ])
    key = build(store).section("key_changes").items
    assert numbers(key) == [1, 3]  # the typo fix is internal and too small; bots' PRs and unmerged ones are out
    assert key[0].why == Merged((Signal("tag", "feature"), Signal("feature"), Signal("comments", count=12)))
    assert key[1].why == Merged((Signal("tag", "rocm"), Signal("bugfix"), Signal("areas", count=2),
                                 Signal("comments", count=2)))  # ROCm and quantization (fp8)


def test_topic_sections_list_every_active_match_with_its_reason(store: Store) -> None:
    save(store, [
        issue_payload(1, INSIDE, title="[Bugfix][ROCm] Fix fp8 scaled_mm", pr=True),
        issue_payload(2, BEFORE - timedelta(days=5), title="[ROCm] Old quiet item", pr=True),
        issue_payload(3, BEFORE - timedelta(days=5), title="MI300X perf is low", labels=("performance",)),
        issue_payload(4, INSIDE, title="Improve the command line", pr=True),
    ], [comment_payload(1, 3, INSIDE)])
    digest = build(store)
    rocm = digest.section("topic:rocm")
    assert rocm is not None and sorted(numbers(rocm.items)) == [1, 3]
    why = {item.number: item.why for item in rocm.items}
    assert why[1] == InTopic((Evidence("tag", "rocm"),))
    assert why[3] == InTopic((Evidence("title", "MI300X"),))
    assert digest.section("topic:performance") is not None


def test_digest_is_deterministic_and_json_follows_the_contract(store: Store) -> None:
    save(store, [issue_payload(n, INSIDE + timedelta(minutes=n), title=f"[Bug]: crash {n}", labels=("bug",),
                               body="PLEASE FILL IN THE PR DESCRIPTION HERE\n\nThe engine crashes on load.")
                 for n in range(1, 30)])
    first, second = build(store), build(store)
    assert first == second
    data = json.loads(json.dumps(digest_to_dict(first)))
    assert set(data) >= {"repo", "window", "stats", "sections", "appendix"}
    assert data["window"] == {"start": "2025-12-01T03:05:00Z", "end": "2025-12-02T03:05:00Z",
                              "timezone": "Asia/Shanghai"}
    assert set(data["appendix"]) == set(data["stats"])
    item = data["sections"][0]["items"][0]
    assert set(item) >= {"number", "kind", "title", "url", "author", "labels", "summary", "reason"}
    assert item["summary"] == "The engine crashes on load."
    assert {s["id"] for s in data["sections"]} >= {"hot", "key_changes", "notable", "topic:stability"}


@pytest.mark.parametrize("locale", ["en", "zh-CN"])
def test_markdown_shows_counts_sections_with_more_and_escapes_titles(store: Store, locale: str) -> None:
    save(store, [issue_payload(n, INSIDE, title=f"[Bug]: crash *{n}* [x](http://evil) <b>", labels=("bug",))
                 for n in range(1, 15)])
    digest = build(store, locale=locale)
    text = render_markdown(digest)
    assert "| 14 |" in text
    # five full entries, the other candidates as short links: each shown once, the header counting them all
    head, _, _ = text.partition("## 📎")
    notable = digest.section("notable")
    assert notable is not None and len(notable.items) == 10
    for item in notable.items:  # a full entry ("[#n](…) **title**") or a link in the section's "more" line
        entries = head.count(f"[#{item.number}]({item.url}) **")
        more = text.partition("_more:_" if locale == "en" else "其余：")[2].split("\n")[0]
        assert entries + more.count(f"[#{item.number}](") == 1, item.number
    assert ("Notable issues (10)" if locale == "en" else "值得关注的问题（10）") in text
    assert ("_more:_ " if locale == "en" else "其余：") in text
    assert "[x](http://evil)" not in text and "\\[x\\]\\(http://evil)" in text
    assert ("Appendix" if locale == "en" else "附录") in text


@pytest.mark.parametrize("locale", ["en", "zh-CN"])
def test_json_reasons_are_the_contracts_english_in_every_locale(store: Store, locale: str) -> None:
    """The builder's typed reasons come out of the JSON as the exact strings the contract has always had."""
    save(store, [
        issue_payload(1, INSIDE, title="[Bug]: segfault in fused_moe on MI300X", labels=("bug",), reactions=2),
        issue_payload(2, BEFORE, pr=True, merged=INSIDE, title="[Feature][ROCm] Add the responses API", comments=12),
        issue_payload(3, BEFORE, pr=True, closed=INSIDE, title="[Doc] Fix typo"),
    ], [comment_payload(10 + n, 1, INSIDE + timedelta(minutes=n), user=f"user{n}") for n in range(3)])
    data = digest_to_dict(build(store, locale=locale))
    reasons = {s["id"]: {i["number"]: i["reason"] for i in s["items"]} for s in data["sections"]}
    assert reasons["hot"] == {1: "3 comments in window, 2 reactions"}
    assert reasons["notable"] == {1: "new bug: crash, 3 comments"}
    assert reasons["key_changes"] == {2: "merged: [feature], 12 comments"}
    assert reasons["topic:rocm"] == {1: "title: MI300X", 2: "tag [rocm]"}
    appendix = {key: [(i["number"], i["reason"]) for i in items] for key, items in data["appendix"].items()}
    assert appendix["new_issues"] == [(1, "opened")] and appendix["merged_prs"] == [(2, "merged")]
    assert appendix["closed_unmerged_prs"] == [(3, "closed unmerged")]
    assert data["sections"][-3]["title"] == ("Hot discussions" if locale == "en" else "高热度讨论")
    hot = next(s for s in data["sections"] if s["id"] == "hot")["items"][0]
    # The heat's new facts are in the typed ``why`` only: the ``reason`` above is the contract's, unchanged.
    assert hot["why"] == {"kind": "hot", "comments": 3, "reactions": 2, "participants": 3, "maintainer": True,
                          "open_question": False}


def test_json_rendering_says_what_the_standard_library_would(store: Store) -> None:
    """orjson writes the answer (fast); what it writes reads back as the standard library's would, compact or
    pretty, CJK and emoji unescaped; a title orjson refuses (a lone surrogate) is written by ``json`` instead."""
    from formatters.json_format import render_json

    save(store, [issue_payload(n, INSIDE + timedelta(minutes=n), title=f"[Bug]: 推理卡住 🚀 {n}", labels=("bug",))
                 for n in range(1, 8)])
    digest = build(store)
    compact, pretty = render_json(digest), render_json(digest, pretty=True)
    expected = json.loads(json.dumps(digest_to_dict(digest), ensure_ascii=False))
    assert json.loads(compact) == json.loads(pretty) == expected
    assert "\n" not in compact and '\n  "repo": ' in pretty and "推理卡住 🚀" in compact
    item = digest.appendix["new_issues"][0]
    odd = structs.replace(digest, appendix={**digest.appendix, "new_issues": (
        structs.replace(item, title="bad \ud800 title"), *digest.appendix["new_issues"][1:])})
    assert "bad \ud800 title" in render_json(odd)
