"""PR details at sync time (``GET /pulls/{n}``): key-change candidates only, bounded, conditional, never fatal.

The real client and store against the fake GitHub, on SQLite and PostgreSQL."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from bot.demo.fake_github import FakeGitHub
from bot.errors import RepoNotFound
from bot.github.client import GitHubClient
from bot.github.payloads import MalformedPayload, item_from_payload, pull_details_from_payload
from bot.github.sync import Syncer, SyncReport
from bot.store.store import Store
from bot.timeutil import iso_z
from tests.factories import comment_payload, issue_payload

NOW = datetime(2025, 12, 2, tzinfo=UTC)
T0 = NOW - timedelta(days=3)
MERGED, OPEN, DRAFT, CLOSED, BOT, ISSUE, OLD_MERGED = 1, 2, 3, 4, 5, 6, 7
CANDIDATES = (MERGED, OPEN)


def items() -> list[dict]:
    at = [T0 + timedelta(hours=n) for n in range(10)]
    return [
        issue_payload(MERGED, at[1], pr=True, merged=at[2], title="[Model] Add GLM-4.6V"),
        issue_payload(OPEN, at[2], pr=True, title="[Feature] Add an API"),
        issue_payload(DRAFT, at[3], pr=True, draft=True, title="[WIP] a draft"),
        issue_payload(CLOSED, at[4], pr=True, closed=at[5], title="Closed without merging"),
        issue_payload(BOT, at[5], pr=True, merged=at[6], title="Bump torch", user="dependabot[bot]", bot=True),
        issue_payload(ISSUE, at[6], title="[Bug]: a crash"),
        # merged long before the sync's reach, listed again for a late comment: not a candidate
        issue_payload(OLD_MERGED, T0 - timedelta(days=90), pr=True, merged=T0 - timedelta(days=89), updated=at[7]),
    ]


def pulls() -> list[dict]:
    return [{"number": n, "additions": 100 * n, "deletions": n, "changed_files": n + 1, "commits": 2,
             "review_comments": n} for n in (MERGED, OPEN, DRAFT, CLOSED, BOT, OLD_MERGED)]


@pytest.fixture
def fake() -> FakeGitHub:
    fake = FakeGitHub()
    fake.add_repo("o/r", items(), [])
    fake.add_pulls("o/r", pulls())
    return fake


async def run_sync(store: Store, fake: FakeGitHub, *, pr_details_max: int = 200, lookback_days: int = 30,
                   retries: int = 1) -> SyncReport:
    async def no_sleep(_: float) -> None:
        return None

    async with GitHubClient(transport=httpx.MockTransport(fake.handler), sleep=no_sleep, max_retries=retries) as client:
        syncer = Syncer(store, client, lookback=timedelta(days=lookback_days), clock=lambda: NOW,
                        pr_details_max=pr_details_max)
        return await syncer.sync("o/r")


def detail_paths(fake: FakeGitHub, since: int = 0) -> list[str]:
    return [r.path for r in fake.requests[since:] if "/pulls/" in r.path]


def sizes(store: Store) -> dict[int, int | None]:
    return {n: store.item("o/r", n).additions for n in (MERGED, OPEN, DRAFT, CLOSED, BOT, OLD_MERGED)}  # type: ignore[union-attr]


async def test_only_candidates_get_details_one_request_each_on_top_of_the_listings(store: Store,
                                                                                   fake: FakeGitHub) -> None:
    report = await run_sync(store, fake)
    assert sorted(detail_paths(fake)) == [f"/repos/o/r/pulls/{n}" for n in CANDIDATES]
    floor = math.ceil(len(items()) / 100) + 1  # one page of items, one (empty) of comments
    assert (report.requests, report.detail_requests, report.detail_candidates) == (floor + 2, 2, 2)
    assert sizes(store) == {MERGED: 100, OPEN: 200, DRAFT: None, CLOSED: None, BOT: None, OLD_MERGED: None}
    merged = store.item("o/r", MERGED)
    assert merged is not None and (merged.deletions, merged.changed_files, merged.review_comments) == (1, 2, 1)
    assert not merged.details_due and merged.details_updated_at == merged.updated_at
    assert "(of which 2 for PR details)" in report.line()


async def test_no_details_without_the_setting(store: Store, fake: FakeGitHub) -> None:
    report = await run_sync(store, fake, pr_details_max=0)
    assert detail_paths(fake) == [] and report.detail_requests == 0 and report.line().count("PR details") == 0


async def test_at_most_the_configured_number_newest_first(store: Store, fake: FakeGitHub) -> None:
    report = await run_sync(store, fake, pr_details_max=1)
    assert detail_paths(fake) == [f"/repos/o/r/pulls/{OPEN}"]  # updated last
    assert report.detail_candidates == 2 and report.detail_requests == 1
    skipped = store.item("o/r", MERGED)
    assert skipped is not None and skipped.additions is None and not skipped.details_due  # left, not retried


async def test_an_unchanged_repeat_asks_for_no_details_and_a_listing_keeps_them(store: Store,
                                                                                fake: FakeGitHub) -> None:
    await run_sync(store, fake)
    before = len(fake.requests)
    report = await run_sync(store, fake)  # re-lists from cursor - overlap: the last items again, unchanged
    assert detail_paths(fake, before) == [] and report.detail_requests == 0
    assert sizes(store)[OPEN] == 200  # re-stored by the listing, details kept


async def test_a_pr_that_changed_is_read_again_with_its_etag(store: Store, fake: FakeGitHub) -> None:
    await run_sync(store, fake)
    etag = next(r for r in fake.requests if r.path == f"/repos/o/r/pulls/{OPEN}" and r.status == 200)
    later = NOW - timedelta(minutes=5)
    fake.add_comment("o/r", comment_payload(1, OPEN, later))  # moves updated_at
    fake.add_pulls("o/r", [{"number": OPEN, "additions": 900, "deletions": 0, "changed_files": 9}])
    before = len(fake.requests)
    report = await run_sync(store, fake)
    asked = [r for r in fake.requests[before:] if "/pulls/" in r.path]
    assert [r.path for r in asked] == [f"/repos/o/r/pulls/{OPEN}"] and asked[0].status == 200
    assert asked[0].headers.get("if-none-match")  # the ETag stored by the first sync
    assert etag.status == 200 and report.details_not_modified == 0
    item = store.item("o/r", OPEN)
    assert item is not None and (item.additions, item.changed_files) == (900, 9)
    assert item.details_updated_at == item.updated_at == later


async def test_a_pr_due_again_but_unchanged_costs_a_free_304_and_keeps_its_details(store: Store,
                                                                                  fake: FakeGitHub) -> None:
    await run_sync(store, fake)
    store.mark_details_due("o/r", [MERGED])  # as a sync that picked it and died before fetching leaves it
    used = fake._authed.used
    before = len(fake.requests)
    report = await run_sync(store, fake)
    asked = [r for r in fake.requests[before:] if "/pulls/" in r.path]
    assert [(r.path, r.status) for r in asked] == [(f"/repos/o/r/pulls/{MERGED}", 304)]
    assert report.details_not_modified == 1 and report.detail_requests == 1
    assert fake._authed.used - used == report.requests - 1  # the 304 did not count against the rate limit
    item = store.item("o/r", MERGED)
    assert item is not None and item.additions == 100 and not item.details_due


async def test_a_failed_fetch_never_fails_the_sync_nor_loses_the_item_and_is_retried(store: Store,
                                                                                      fake: FakeGitHub) -> None:
    fake.inject(502, times=100, when=lambda r: "/pulls/" in r.path)
    report = await run_sync(store, fake)
    assert report.items == len(items()) and report.details_failed == 1  # stopped at the first: GitHub is down
    for number in CANDIDATES:
        item = store.item("o/r", number)
        assert item is not None and item.additions is None and item.details_due
    fake.clear_faults()
    before = len(fake.requests)
    retried = await run_sync(store, fake)  # the listing does not list them again: they are due
    assert sorted(detail_paths(fake, before)) == [f"/repos/o/r/pulls/{n}" for n in CANDIDATES]
    assert retried.details_failed == 0 and sizes(store)[MERGED] == 100 and sizes(store)[OPEN] == 200
    assert not any(store.item("o/r", n).details_due for n in CANDIDATES)  # type: ignore[union-attr]


async def test_a_pr_with_nothing_to_read_is_settled_until_it_changes(store: Store, fake: FakeGitHub) -> None:
    fake.inject(404, times=5, when=lambda r: r.path.endswith(f"/pulls/{MERGED}"))
    fake.inject(body={"number": OPEN, "additions": "many"}, times=5, when=lambda r: r.path.endswith(f"/pulls/{OPEN}"))
    report = await run_sync(store, fake)
    assert report.details_failed == 2 and report.items == len(items())
    for number in CANDIDATES:
        item = store.item("o/r", number)
        assert item is not None and item.additions is None and not item.details_due
    before = len(fake.requests)
    await run_sync(store, fake)
    assert detail_paths(fake, before) == []  # not asked again while the PR stays as it is


async def test_the_fake_serves_a_pull_with_its_details_an_etag_and_free_304s(fake: FakeGitHub) -> None:
    transport = httpx.MockTransport(fake.handler)
    async with httpx.AsyncClient(transport=transport, base_url="https://api.github.com") as http:
        first = await http.get(f"/repos/o/r/pulls/{MERGED}")
        body = first.json()
        assert first.status_code == 200 and first.headers["etag"]
        assert (body["number"], body["additions"], body["changed_files"], body["merged"]) == (MERGED, 100, 2, True)
        assert body["title"] == "[Model] Add GLM-4.6V" and body["merged_at"] and body["draft"] is False
        used = fake._authed.used
        again = await http.get(f"/repos/o/r/pulls/{MERGED}", headers={"If-None-Match": first.headers["etag"]})
        assert again.status_code == 304 and fake._authed.used == used
        assert (await http.get(f"/repos/o/r/pulls/{ISSUE}")).status_code == 404  # an issue is no pull request
        fake.add_issue("o/r", issue_payload(99, T0, pr=True))
        bare = (await http.get("/repos/o/r/pulls/99")).json()  # a PR without details: no counts
        assert bare["number"] == 99 and "additions" not in bare


async def test_the_client_reads_one_object_conditionally_with_typed_errors(fake: FakeGitHub) -> None:
    async with GitHubClient(transport=httpx.MockTransport(fake.handler)) as client:
        first = await client.get_object(f"repos/o/r/pulls/{OPEN}")
        assert first.status == 200 and first.data is not None and first.data["additions"] == 200 and first.etag
        again = await client.get_object(f"repos/o/r/pulls/{OPEN}", etag=first.etag)
        assert (again.status, again.data, again.etag) == (304, None, first.etag)
        with pytest.raises(RepoNotFound):
            await client.get_object("repos/o/r/pulls/12345")


def test_pull_details_payloads() -> None:
    found = pull_details_from_payload(3, {"number": 3, "additions": 10, "deletions": 2, "changed_files": 1,
                                          "review_comments": 4, "commits": 2, "updated_at": iso_z(NOW)})
    assert (found.additions, found.deletions, found.changed_files, found.review_comments, found.commits) == (
        10, 2, 1, 4, 2)
    assert found.updated_at == NOW
    unknown = pull_details_from_payload(3, {"number": 3})
    assert (unknown.additions, unknown.changed_files, unknown.updated_at) == (None, None, None)
    for bad in ({"number": 4}, {"number": 3, "additions": True}, {"number": 3, "deletions": -1},
                {"number": 3, "changed_files": 1.5}, [], {"number": 3, "updated_at": "soon"}):
        with pytest.raises(MalformedPayload):
            pull_details_from_payload(3, bad)


def test_a_listing_never_overwrites_details_and_details_never_touch_the_listing(store: Store) -> None:
    listed = item_from_payload("o/r", issue_payload(1, T0, pr=True, title="v1"), lambda _: False)
    store.save_page([listed])
    from bot.store.records import PullDetails

    store.save_pr_details("o/r", [(PullDetails(1, None, additions=5, deletions=1, changed_files=1), listed.updated_at)])
    store.save_page([item_from_payload("o/r", issue_payload(1, T0, pr=True, title="v2"), lambda _: False)])
    item = store.item("o/r", 1)
    assert item is not None and (item.title, item.additions, item.deletions) == ("v2", 5, 1)
