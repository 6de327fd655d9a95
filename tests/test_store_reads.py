"""The store's lean reads for the query path (issue 27): repositories without scanning items, a window's items
without raw bodies, and a query's column filters applied by the database, answering exactly as before."""

from __future__ import annotations

import functools
from datetime import UTC, datetime, timedelta

import pytest
from msgspec import structs

from bot.github.payloads import comment_from_payload, item_from_payload
from bot.model import Window
from bot.model.views import ItemViewer
from bot.settings import load_settings
from bot.store.records import ItemFilter, ItemRecord, WindowActivity
from bot.store.store import SEARCH_FIELDS, Store
from bot.topics.catalog import load_taxonomy
from bot.topics.items import classify
from bot.topics.query import parse_query
from bot.topics.search import find, find_window, prefilter
from tests.factories import comment_payload, issue_payload

NOW = datetime(2026, 3, 2, 3, 5, tzinfo=UTC)
WINDOW = Window(NOW - timedelta(days=7), NOW, "UTC")


TAXONOMY = load_taxonomy(load_settings(env={}), "o/r")


def _is_bot(login: str) -> bool:
    return login.endswith("[bot]") or login == "mergify"


def _fill(store: Store, repo: str = "o/r") -> list[ItemRecord]:
    day = timedelta(days=1)
    payloads = [
        issue_payload(1, NOW - 2 * day, repo=repo, title="[ROCm] hang on MI300", body="It hangs. " * 50,
                      labels=("bug", "rocm")),
        issue_payload(2, NOW - 3 * day, repo=repo, title="Qwen crash with fp8", user="Bob", labels=("bug",)),
        issue_payload(3, NOW - 20 * day, repo=repo, title="Fix rocm hang", pr=True, merged=NOW - day, user="carol"),
        issue_payload(4, NOW - 4 * day, repo=repo, title="Bump torch", pr=True, user="dependabot[bot]", bot=True),
        issue_payload(5, NOW - 5 * day, repo=repo, title="rocm docs", pr=True, closed=NOW - day, user="mergify"),
        issue_payload(6, NOW - 30 * day, repo=repo, title="Old rocm hang"),  # opened before the window
        issue_payload(7, NOW - day, repo=repo, title="Stuck on rocm", user="ALICE", body="the server is stuck"),
        issue_payload(8, NOW - day, repo=repo, title="Server problem", body="The model hangs after warmup on MI300."),
        issue_payload(9, NOW - day, repo=repo, title="Slow start", body="Warmup takes long with ROCm 6.2."),
    ]
    # Synced before mergify was configured a bot: only the view (settings) knows it is one.
    records = [item_from_payload(repo, p, lambda login: login.endswith("[bot]")) for p in payloads]
    # Topics matched as the sync does, but item 9's are left stale (not the taxonomy's): matched again from prose.
    records = [classify(TAXONOMY, r) if r.number != 9 else r for r in records]
    comments = [  # item 6 is in the window by a comment alone; bots' comments count for nothing
        comment_payload(1, 6, NOW - timedelta(hours=5), repo=repo, reactions=2),
        comment_payload(2, 6, NOW - timedelta(hours=4), repo=repo, user="carol", body="Still stuck on GFX942"),
        comment_payload(3, 2, NOW - timedelta(hours=3), repo=repo, user="ci[bot]", bot=True, reactions=5),
        comment_payload(4, 1, NOW - 10 * day, repo=repo),  # before the window
    ]
    store.save_page(records, [comment_from_payload(repo, p, lambda login: login.endswith("[bot]"))
                              for p in comments])
    return records


def test_repos_are_listed_in_order_and_has_items_says_whether_any_is_held(store: Store) -> None:
    assert store.repos() == [] and not store.has_items("o/r")
    for repo in ("z/last", "a/first", "m/middle"):
        _fill(store, repo)
    assert store.repos() == ["a/first", "m/middle", "z/last"]
    assert store.has_items("m/middle") and not store.has_items("m/middl") and not store.has_items("o/r")


def test_a_search_reads_the_window_items_columns_it_uses_and_the_human_comments_counts(store: Store) -> None:
    _fill(store)
    full = store.window_activity("o/r", WINDOW.start, WINDOW.end)
    lean = store.search_window("o/r", WINDOW.start, WINDOW.end, ItemFilter())
    assert sorted(full.items) == sorted(lean.items) == [1, 2, 3, 4, 5, 6, 7, 8, 9]
    assert full.items[1].body.startswith("It hangs.") and lean.items[1].body == ""
    for number, item in full.items.items():
        assert all(getattr(lean.items[number], name) == getattr(item, name) for name in SEARCH_FIELDS)
    assert lean.comments_in_window == full.comments_in_window == {6: 2}
    assert lean.comment_reactions_in_window == full.comment_reactions_in_window == {6: 2}
    only_prs = store.search_window("o/r", WINDOW.start, WINDOW.end, ItemFilter(kinds=frozenset({"pr"})))
    assert only_prs.comments_in_window == {}  # counted for the items read only (6 is an issue)


@pytest.mark.parametrize(("only", "expected"), [
    (ItemFilter(), [1, 2, 3, 4, 5, 6, 7, 8, 9]),
    (ItemFilter(kinds=frozenset({"pr"})), [3, 4, 5]),
    (ItemFilter(states=frozenset({"merged"})), [3]),
    (ItemFilter(states=frozenset({"closed", "open"})), [1, 2, 3, 4, 5, 6, 7, 8, 9]),
    (ItemFilter(states=frozenset({"open"})), [1, 2, 4, 6, 7, 8, 9]),
    (ItemFilter(authors=frozenset({"bob", "alice"})), [1, 2, 6, 7, 8, 9]),
    (ItemFilter(excluded_authors=frozenset({"alice"})), [2, 3, 4, 5]),
    (ItemFilter(humans=True), [1, 2, 3, 5, 6, 7, 8, 9]),  # mergify is a bot by configuration only: find drops it
    (ItemFilter(kinds=frozenset({"issue"}), authors=frozenset({"alice"})), [1, 6, 7, 8, 9]),
])
def test_the_database_applies_a_filter_exactly(store: Store, only: ItemFilter, expected: list[int]) -> None:
    _fill(store)
    assert sorted(store.search_window("o/r", WINDOW.start, WINDOW.end, only).items) == expected


QUERIES = ["rocm", "rocm hang", "hang", "is:pr", "is:merged rocm", "is:open", "is:closed", "author:bob",
           "author:ALICE hang", "-author:alice", "-author:alice rocm", "is:bot", "author:dependabot[bot]",
           "author:mergify", "is:issue -label:bug", "label:bug", "rocm hang mi999", "flibbertigibbet", "qwen",
           "warmup", "hangs -model", "rocm -warmup", "mi300", "server hangs", "-stuck", "gfx942", "rocm gfx942",
           "stuck gfx942 mi300", "is:closed rocm", "label:rocm hang"]


@pytest.mark.parametrize("text", QUERIES)
def test_a_search_reading_less_finds_what_it_found_over_the_whole_window(store: Store, text: str) -> None:
    """The answer over the lean, pre-filtered reads (``find_window``) is the answer over every item of the window,
    read whole, as before."""
    _fill(store)
    query = parse_query(text)
    comments = functools.partial(store.comments_containing, "o/r", WINDOW.start, WINDOW.end)
    whole = store.window_activity("o/r", WINDOW.start, WINDOW.end)
    before = find(query, whole.items.values(), WINDOW, TAXONOMY, ItemViewer(WINDOW, whole, _is_bot),
                  comments=comments)
    read = functools.partial(store.search_window, "o/r", WINDOW.start, WINDOW.end)
    after = find_window(query, WINDOW, TAXONOMY, read, _is_bot, comments=comments)
    if before.items:  # then ``labels`` (said only when nothing is found) are the labels of the items read
        assert structs.replace(after, labels=before.labels) == before
    else:
        assert after == before


def test_the_strict_reading_reads_only_the_items_every_word_could_match(store: Store) -> None:
    _fill(store)
    taxonomy = TAXONOMY
    seen: list[list[int]] = []

    def read(only: ItemFilter) -> WindowActivity:
        activity = store.search_window("o/r", WINDOW.start, WINDOW.end, only)
        seen.append(sorted(activity.items))
        return activity

    found = find_window(parse_query("gfx942"), WINDOW, taxonomy, read, _is_bot,
                        comments=functools.partial(store.comments_containing, "o/r", WINDOW.start, WINDOW.end))
    assert [item.number for item in found.items] == [6] and seen == [[6]]  # its comment says GFX942
    seen.clear()
    found = find_window(parse_query("rocm warmup"), WINDOW, taxonomy, read, _is_bot)
    assert [item.number for item in found.items] == [9] and seen == [[9]]  # 8 says warmup, but nothing of rocm
    seen.clear()
    found = find_window(parse_query("rocm flibbertigibbet"), WINDOW, taxonomy, read, _is_bot)
    assert found.reading == "topic" and seen == [[], [1, 2, 3, 5, 6, 7, 8, 9]]  # nothing has both: the window


def test_prose_comes_only_where_a_word_could_match_it_or_the_topics_are_stale(store: Store) -> None:
    _fill(store)
    lean = store.search_window("o/r", WINDOW.start, WINDOW.end, prefilter(parse_query("warmup"), TAXONOMY))
    with_prose = {number for number, item in lean.items.items() if item.prose}
    assert with_prose == {8, 9}  # 8 says "warmup"; 9 says "Warmup" and its topics are stale
    hangs = prefilter(parse_query("hangs"), TAXONOMY)
    assert hangs.prose_fragments is not None and "stuck" in hangs.prose_fragments  # its synonyms' too
    lean = store.search_window("o/r", WINDOW.start, WINDOW.end, hangs)
    assert {n for n, item in lean.items.items() if item.prose} == {1, 7, 8, 9}
    # A letter with case beyond ASCII: SQLite's lower() would not fold it, so every prose comes.
    assert prefilter(parse_query("über"), TAXONOMY).prose_fragments is None
    assert prefilter(parse_query("卡住"), TAXONOMY).prose_fragments is not None  # no case: compared as it is


def test_a_sqlite_store_reads_through_a_memory_map(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Every connection of a file store maps up to ``MMAP_BYTES`` of it (reads skip a copy per page), and the
    store still writes and reads back through it."""
    from bot.store.db import MMAP_BYTES

    with Store.open(f"sqlite:///{tmp_path / 'store.sqlite3'}") as store:
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA mmap_size").scalar() == MMAP_BYTES
        store.save_page([item_from_payload("o/r", issue_payload(1, NOW - timedelta(hours=1)), lambda _login: False)])
        assert store.has_items("o/r")


@pytest.mark.parametrize("text", QUERIES)
def test_comment_evidence_read_for_the_items_lacking_a_word_is_that_of_the_whole_window(store: Store,
                                                                                         text: str) -> None:
    """A search reads the comments of only the items whose own text lacks a word; its answer is the one a pass
    over every comment of the window gives."""
    _fill(store)
    query = parse_query(text)
    whole = store.window_activity("o/r", WINDOW.start, WINDOW.end)
    read = functools.partial(store.comments_containing, "o/r", WINDOW.start, WINDOW.end)

    def every_comment(fragments, numbers):  # type: ignore[no-untyped-def]
        return read(fragments)

    def answer(comments):  # type: ignore[no-untyped-def]
        return find(query, whole.items.values(), WINDOW, TAXONOMY, ItemViewer(WINDOW, whole, _is_bot),
                    comments=comments)

    assert answer(read) == answer(every_comment)


def test_comments_containing_reads_the_items_asked_for(store: Store) -> None:
    _fill(store)
    read = functools.partial(store.comments_containing, "o/r", WINDOW.start, WINDOW.end, ["gfx942"])
    assert read() == read([6]) == {6: "Still stuck on GFX942"}
    assert read([1, 2]) == {} and read([]) == {}
