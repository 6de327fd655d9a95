"""Sync: the real client and store against the fake GitHub; on SQLite and PostgreSQL."""

from __future__ import annotations

import logging
import math
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from sqlalchemy import func, select

from bot.demo.fake_github import FakeGitHub
from bot.errors import GitHubUnavailable
from bot.github.client import GitHubClient
from bot.github.sync import Syncer
from bot.store import schema
from bot.store.store import Store
from bot.timeutil import iso_z
from tests.factories import comment_payload, issue_payload

T0 = datetime(2025, 11, 20, tzinfo=UTC)
NOW = datetime(2025, 12, 2, tzinfo=UTC)
N_ITEMS, N_COMMENTS = 260, 430


def dataset() -> tuple[list[dict], list[dict]]:
    issues, comments = [], []
    for number in range(1, N_ITEMS + 1):
        created = T0 + timedelta(minutes=30 * number)
        issues.append(issue_payload(number, created, pr=number % 3 == 0, merged=created + timedelta(hours=1)
                                    if number % 6 == 0 else None, comments=0))
    for cid in range(1, N_COMMENTS + 1):
        number = 1 + (cid * 7) % N_ITEMS
        created = datetime.fromisoformat(issues[number - 1]["created_at"]) + timedelta(minutes=cid % 50 + 1)
        comments.append(comment_payload(cid, number, created))
        issues[number - 1]["comments"] += 1
        issues[number - 1]["updated_at"] = max(issues[number - 1]["updated_at"], iso_z(created))
    return issues, comments


class NoSleep:
    def __init__(self) -> None:
        self.sleeps: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.sleeps.append(seconds)


@pytest.fixture
def fake() -> FakeGitHub:
    fake = FakeGitHub()
    fake.add_repo("o/r", *dataset())
    return fake


async def run_sync(store: Store, fake: FakeGitHub, **kwargs: object):  # type: ignore[no-untyped-def]
    async with GitHubClient(transport=httpx.MockTransport(fake.handler), sleep=NoSleep(), max_retries=2) as client:
        syncer = Syncer(store, client, lookback=timedelta(days=30), clock=lambda: NOW)
        return await syncer.sync("o/r", **kwargs)


def table_count(store: Store, table) -> int:  # type: ignore[no-untyped-def]
    with store.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(table)).scalar_one()


async def test_full_sync_uses_the_fewest_requests(store: Store, fake: FakeGitHub) -> None:
    report = await run_sync(store, fake)
    assert (report.items, report.comments) == (N_ITEMS, N_COMMENTS)
    assert store.counts("o/r") == (N_ITEMS, N_COMMENTS)
    assert report.requests == math.ceil(N_ITEMS / 100) + math.ceil(N_COMMENTS / 100)
    first = fake.requests[0]
    assert first.path == "/repos/o/r/issues"
    assert first.params == {"since": iso_z(NOW - timedelta(days=30)), "sort": "updated", "direction": "asc",
                            "per_page": "100", "state": "all"}
    item = store.item("o/r", 6)
    assert item is not None and item.kind == "pr" and item.merged_at is not None
    assert item.url == "https://github.com/o/r/pull/6"


async def test_unchanged_repeat_costs_only_304s(store: Store, fake: FakeGitHub) -> None:
    await run_sync(store, fake)
    # The first incremental sync asks from the new cursor (a new URL): one page per listing.
    assert (await run_sync(store, fake)).requests == 2
    before = len(fake.requests)
    report = await run_sync(store, fake)
    repeat = fake.requests[before:]
    assert [r.status for r in repeat] == [304, 304]
    assert report.requests == 2 and report.not_modified == 2 and report.items == 0
    assert store.counts("o/r") == (N_ITEMS, N_COMMENTS)


async def test_incremental_sync_reads_from_the_cursor_with_overlap(store: Store, fake: FakeGitHub) -> None:
    await run_sync(store, fake)
    cursor = store.cursor("o/r", "issues")
    changed_at = cursor + timedelta(minutes=5)
    fake.update_issue("o/r", 10, title="Renamed", updated_at=iso_z(changed_at))
    fake.add_comment("o/r", comment_payload(9999, 10, changed_at))
    before = len(fake.requests)
    report = await run_sync(store, fake)
    first = fake.requests[before]
    assert first.params["since"] == iso_z(cursor - timedelta(seconds=120))
    assert (report.items, report.comments) >= (1, 1)
    assert store.item("o/r", 10).title == "Renamed"
    assert store.item("o/r", 10).comment_count == fake_count(fake, 10)
    assert store.counts("o/r") == (N_ITEMS, N_COMMENTS + 1)
    assert store.cursor("o/r", "issues") == changed_at


def fake_count(fake: FakeGitHub, number: int) -> int:
    with httpx.Client(transport=httpx.MockTransport(fake.handler)) as client:
        return client.get("https://api.github.com/repos/o/r/issues", params={"state": "all", "per_page": 100,
                          "since": "2000-01-01T00:00:00Z", "sort": "created", "direction": "asc", "page": 1}
                          ).json()[number - 1]["comments"]


async def test_failed_sync_keeps_cursor_and_resumes_without_loss_or_duplicates(
    store: Store, fake: FakeGitHub
) -> None:
    fake.inject(500, times=100, when=lambda r: r.params.get("page") == "3")
    with pytest.raises(GitHubUnavailable):
        await run_sync(store, fake)
    assert store.cursor("o/r", "issues") is None
    assert store.counts("o/r") == (200, 0)  # two whole pages landed, each in its own transaction
    fake.clear_faults()
    report = await run_sync(store, fake)
    assert store.counts("o/r") == (N_ITEMS, N_COMMENTS)
    assert table_count(store, schema.items) == N_ITEMS and table_count(store, schema.comments) == N_COMMENTS
    assert report.items == N_ITEMS
    with store.engine.connect() as conn:
        error = conn.execute(select(schema.sync_state.c.last_error)).scalars().all()
    assert error == [None, None]


async def test_items_moving_while_paging_are_not_lost(store: Store, fake: FakeGitHub) -> None:
    """Updating an item of page 1 mid-listing shifts the later pages; plain paging would skip one item."""

    def touch(request, n: int) -> None:  # type: ignore[no-untyped-def]
        if n == 2:
            fake.update_issue("o/r", 5, updated_at=iso_z(NOW - timedelta(minutes=1)), title="moved")

    fake.on_request = touch
    await run_sync(store, fake)
    assert store.counts("o/r")[0] == N_ITEMS
    assert store.item("o/r", 5).title == "moved"


async def test_malformed_payloads_are_skipped_not_fatal(store: Store) -> None:
    fake = FakeGitHub()
    good = issue_payload(1, T0)
    bad = issue_payload(2, T0 + timedelta(minutes=1))
    bad["created_at"] = None
    fake.add_repo("o/r", [good, bad], [])
    report = await run_sync(store, fake)
    assert report.skipped == 1 and store.counts("o/r") == (1, 0)


async def test_explicit_since_later_than_cursor_does_not_skip_ahead(store: Store, fake: FakeGitHub) -> None:
    await run_sync(store, fake)
    cursor = store.cursor("o/r", "issues")
    await run_sync(store, fake, since=cursor + timedelta(days=3))
    assert store.cursor("o/r", "issues") == cursor


async def test_untrusted_text_round_trips_unchanged(store: Store) -> None:
    nasty = "[Bug]: 卡住 🚀 <!channel> @everyone '; DROP TABLE items; -- \u202e\x00"
    fake = FakeGitHub()
    fake.add_repo("o/r", [issue_payload(1, T0, title=nasty.replace("\x00", ""), body=nasty.replace("\x00", ""))],
                  [])
    await run_sync(store, fake)
    assert store.item("o/r", 1).title == nasty.replace("\x00", "")


async def test_a_renamed_repository_keeps_syncing_and_says_its_new_name_once(
    store: Store, fake: FakeGitHub, caplog: pytest.LogCaptureFixture
) -> None:
    await run_sync(store, fake)
    await run_sync(store, fake)  # from the settled cursor: the next unchanged sync is all 304s
    fake.rename("o/r", "o/new")  # GitHub's items now name o/new: new bodies, new ETags
    fake.update_issue("o/new", 7, title="Changed after the rename", updated_at=iso_z(NOW - timedelta(minutes=1)))
    caplog.set_level(logging.WARNING, logger="bot.github.sync")
    before = len(fake.requests)
    report = await run_sync(store, fake)
    repository = "/repositories/1000001"
    assert [(r.path, r.status) for r in fake.requests[before:]] == [
        ("/repos/o/r/issues", 301), (f"{repository}/issues", 200),
        ("/repos/o/r/issues/comments", 301), (f"{repository}/issues/comments", 200)]
    assert report.moved_to == "o/new" and store.item("o/r", 7).title == "Changed after the rename"
    assert report.line().endswith("; o/r moved to o/new: update digest.toml")
    assert [r.getMessage() for r in caplog.records] == ["o/r moved to o/new: update digest.toml"]
    assert store.counts("o/r") == (N_ITEMS, N_COMMENTS) and store.counts("o/new") == (0, 0)

    caplog.clear()
    await run_sync(store, fake)  # the cursor moved with the changed item
    before = len(fake.requests)
    unchanged = await run_sync(store, fake)
    # All 304s, their ETags sent after the 301s; the name comes from the repository itself, asked once.
    assert [(r.path, r.status) for r in fake.requests[before:]] == [
        ("/repos/o/r/issues", 301), (f"{repository}/issues", 304), (repository, 200),
        ("/repos/o/r/issues/comments", 301), (f"{repository}/issues/comments", 304)]
    assert (unchanged.moved_to, unchanged.not_modified, unchanged.requests) == ("o/new", 2, 5)
    assert [r.getMessage() for r in caplog.records].count("o/r moved to o/new: update digest.toml") == 2
