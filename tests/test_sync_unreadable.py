"""No item lost: a malformed item in a GitHub page is reported and read later, never skipped for good.

The real client, syncer and store against the fake GitHub, which serves a damaged payload in an item's
place (``FakeGitHub.damage``) while the item's real fields still order the listing, as on GitHub.
"""

from __future__ import annotations

import asyncio
import math
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from bot.demo.fake_github import FakeGitHub
from bot.github.client import GitHubClient
from bot.github.payloads import comment_from_payload, item_from_payload
from bot.github.sync import Syncer, SyncReport
from bot.scheduler import delivery_status
from bot.store import schema
from bot.store.store import Store
from bot.timeutil import iso_z
from tests.factories import COMMENT_FIELDS, DAMAGES, ISSUE_FIELDS, comment_payload, damaged, issue_payload

T0 = datetime(2025, 11, 20, tzinfo=UTC)
NOW = datetime(2025, 12, 2, tzinfo=UTC)
OVERLAP = timedelta(seconds=120)


def dataset(n_items: int, n_comments: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    issues = [issue_payload(n, T0 + timedelta(minutes=30 * n), pr=n % 3 == 0) for n in range(1, n_items + 1)]
    comments = [
        comment_payload(cid, 1 + cid % n_items, T0 + timedelta(minutes=30 * n_items + 7 * cid))
        for cid in range(1, n_comments + 1)
    ]
    return issues, comments


def make_fake(n_items: int, n_comments: int) -> FakeGitHub:
    fake = FakeGitHub()
    fake.add_repo("o/r", *dataset(n_items, n_comments))
    return fake


async def run_sync(store: Store, fake: FakeGitHub) -> SyncReport:
    async with GitHubClient(transport=httpx.MockTransport(fake.handler), max_retries=0) as client:
        syncer = Syncer(store, client, lookback=timedelta(days=30), overlap=OVERLAP, clock=lambda: NOW)
        return await syncer.sync("o/r")


def stored_keys(store: Store) -> tuple[set[int], set[int]]:
    with store.engine.connect() as conn:
        numbers = set(conn.execute(select(schema.items.c.number)).scalars())
        ids = set(conn.execute(select(schema.comments.c.id)).scalars())
    return numbers, ids


def reported(store: Store) -> list[tuple[str, int | None]]:
    return [(u.resource, u.key) for u in store.unreadable("o/r")]


def broken_issue(fake: FakeGitHub, number: int) -> dict[str, Any]:
    payload = dict(issue_payload(number, T0 + timedelta(minutes=30 * number), pr=number % 3 == 0))
    payload["created_at"] = "the day before yesterday"
    return payload


async def test_a_malformed_issue_and_comment_are_reported_and_the_rest_of_their_pages_stored(store: Store) -> None:
    fake = make_fake(150, 250)
    issues, comments = dataset(150, 250)
    fake.damage("o/r", "issues", 7, broken_issue(fake, 7))
    fake.damage("o/r", "comments", 120, {**comments[119], "reactions": {"total_count": "lots"}})

    report = await run_sync(store, fake)

    assert stored_keys(store) == (set(range(1, 151)) - {7}, set(range(1, 251)) - {120})
    assert report.skipped == 2 and reported(store) == [("comments", 120), ("issues", 7)]
    assert report.requests == math.ceil(150 / 100) + math.ceil(250 / 100)  # no request of their own yet
    assert report.line().endswith("; 2 items could not be read (comment 120, issue #7)")
    status = delivery_status(store)["unreadable"]["o/r"]
    assert (status["count"], status["issues"], status["comments"], status["unnumbered"]) == (2, [7], [120], 0)
    assert "created_at" in " ".join(status["errors"])

    # Still broken: the next sync asks for each alone (the listings, from the moved cursors, no longer list
    # them) and keeps reporting them.
    before = len(fake.requests)
    again = await run_sync(store, fake)
    asked = {r.path for r in fake.requests[before:]}
    assert {"/repos/o/r/issues/7", "/repos/o/r/issues/comments/120"} <= asked
    assert again.requests == 2 + 2 and reported(store) == [("comments", 120), ("issues", 7)]
    assert [u.attempts for u in store.unreadable("o/r")] == [2, 2]

    # Fixed on GitHub without a new updated_at: only fetching them alone can find that out.
    fake.repair("o/r", "issues", 7)
    fake.repair("o/r", "comments", 120)
    fixed = await run_sync(store, fake)
    assert stored_keys(store) == (set(range(1, 151)), set(range(1, 251)))
    assert store.item("o/r", 7) == item_from_payload("o/r", issues[6], lambda login: False)
    assert fixed.recovered == 2 and fixed.unreadable == [] and reported(store) == []
    assert "could not be read" not in fixed.line() and delivery_status(store)["unreadable"] == {}

    # Nothing left to re-fetch: the sync is back at its floor of one request per listing.
    assert (await run_sync(store, fake)).requests == 2


async def test_an_item_fixed_with_a_new_update_is_read_by_the_listing_itself(store: Store) -> None:
    fake = make_fake(20, 30)
    fake.damage("o/r", "issues", 4, broken_issue(fake, 4))
    await run_sync(store, fake)
    assert reported(store) == [("issues", 4)]
    fake.repair("o/r", "issues", 4)
    fake.update_issue("o/r", 4, title="Fixed", updated_at=iso_z(NOW - timedelta(hours=1)))
    before = len(fake.requests)
    report = await run_sync(store, fake)
    assert [r.path for r in fake.requests[before:]] == ["/repos/o/r/issues", "/repos/o/r/issues/comments"]
    assert store.item("o/r", 4).title == "Fixed" and reported(store) == [] and report.recovered == 0


async def test_an_item_refused_stays_reported_and_one_gone_from_github_is_cleared(store: Store) -> None:
    fake = make_fake(20, 30)
    fake.damage("o/r", "issues", 4, broken_issue(fake, 4))
    await run_sync(store, fake)
    # A refusal for this one item is its own trouble: reported, the sync carries on.
    fake.inject(403, body={"message": "Resource not accessible"}, when=lambda r: r.path == "/repos/o/r/issues/4")
    refused = await run_sync(store, fake)
    assert reported(store) == [("issues", 4)] and "403" in store.unreadable("o/r")[0].error
    assert refused.line().endswith("; 1 item could not be read (issue #4)")
    fake.inject(404, body={"message": "Not Found"}, when=lambda r: r.path == "/repos/o/r/issues/4")
    report = await run_sync(store, fake)
    assert reported(store) == [] and report.recovered == 1 and store.item("o/r", 4) is None


async def test_an_unreadable_issue_transferred_to_another_repository_is_gone_from_this_one(store: Store) -> None:
    fake = make_fake(20, 30)
    fake.add_repo("x/elsewhere", [issue_payload(4, T0, repo="x/elsewhere", title="Not ours")], [])
    fake.damage("o/r", "issues", 4, broken_issue(fake, 4))
    fake.damage("o/r", "issues", 5, broken_issue(fake, 5))
    await run_sync(store, fake)
    assert sorted(reported(store)) == [("issues", 4), ("issues", 5)]
    # GitHub answers a transferred issue with a 301 to it in its new repository: under another number, not
    # followed (gone, as before); under the same number, followed, and the payload names the other repository.
    fake.inject(301, headers={"location": "https://api.github.com/repositories/1000002/issues/4"},
                when=lambda r: r.path == "/repos/o/r/issues/4")
    fake.inject(301, headers={"location": "https://api.github.com/repositories/1000002/issues/9"},
                when=lambda r: r.path == "/repos/o/r/issues/5")
    report = await run_sync(store, fake)
    assert reported(store) == [] and report.recovered == 2
    assert store.item("o/r", 4) is None and store.item("o/r", 5) is None and report.moved_to is None


async def test_an_item_without_a_readable_number_holds_its_listings_cursor(store: Store) -> None:
    fake = make_fake(150, 40)
    issues, _ = dataset(150, 40)
    damaged_at = datetime.fromisoformat(issues[59]["updated_at"])
    fake.damage("o/r", "issues", 60, "not an issue at all")

    first = await run_sync(store, fake)
    assert stored_keys(store)[0] == set(range(1, 151)) - {60}
    assert reported(store) == [("issues", None)]
    assert first.line().endswith("; 1 item could not be read (an unnumbered issue)")
    assert delivery_status(store)["unreadable"]["o/r"]["unnumbered"] == 1
    cursor = store.cursor("o/r", "issues")
    assert cursor is not None and cursor - OVERLAP <= damaged_at  # the next listing lists it again
    assert store.cursor("o/r", "comments") == datetime.fromisoformat(dataset(150, 40)[1][-1]["updated_at"])

    # Still broken: listed again (no 304 can hide it), still one report, the cursor does not creep back.
    await run_sync(store, fake)
    assert reported(store) == [("issues", None)] and store.cursor("o/r", "issues") == cursor

    fake.repair("o/r", "issues", 60)
    await run_sync(store, fake)
    assert stored_keys(store)[0] == set(range(1, 151)) and reported(store) == []
    assert store.cursor("o/r", "issues") == datetime.fromisoformat(issues[-1]["updated_at"])


# --- property: one damaged field of one payload never loses an item -----------------------------------------

N_ITEMS, N_COMMENTS = 130, 60  # two pages of issues, so the damage can sit on either side of a page boundary
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    resource=st.sampled_from(["issues", "comments"]),
    index=st.integers(min_value=0, max_value=N_ITEMS - 1),
    field_pick=st.integers(min_value=0, max_value=100),
    value=st.sampled_from(DAMAGES),
)
def test_damage_to_one_field_of_one_payload_never_loses_an_item(
    resource: str, index: int, field_pick: int, value: Any
) -> None:
    issues, comments = dataset(N_ITEMS, N_COMMENTS)
    if resource == "issues":
        original = issues[index]
        key, fields = original["number"], ISSUE_FIELDS
    else:
        original = comments[index % N_COMMENTS]
        key, fields = original["id"], COMMENT_FIELDS
    served = damaged(original, fields[field_pick % len(fields)], value)
    with tempfile.TemporaryDirectory() as tmp, Store.open(f"sqlite:///{Path(tmp) / 'store.sqlite3'}") as store:
        asyncio.run(check_no_loss(store, resource, key, original, served))


async def check_no_loss(store: Store, resource: str, key: int, original: dict[str, Any], served: Any) -> None:
    fake = make_fake(N_ITEMS, N_COMMENTS)
    fake.damage("o/r", resource, key, served)
    await run_sync(store, fake)

    numbers, ids = stored_keys(store)
    others = (set(range(1, N_ITEMS + 1)), set(range(1, N_COMMENTS + 1)))
    if resource == "issues":
        assert numbers - {key} >= others[0] - {key} and ids == others[1]
        stored = key in numbers
    else:
        assert ids - {key} >= others[1] - {key} and numbers == others[0]
        stored = key in ids
    # Every item is stored, or reported by its key (re-fetched alone), or reported without one while its
    # listing's cursor stays where the next listing (from cursor - overlap) lists it again.
    entries = reported(store)
    if not stored:
        cursor = store.cursor("o/r", resource)
        assert cursor is not None
        held = cursor - OVERLAP <= datetime.fromisoformat(original["updated_at"])
        assert (resource, key) in entries or ((resource, None) in entries and held), (entries, cursor)
    assert len(entries) <= 1

    # Once GitHub serves it well-formed again (its updated_at unchanged), the next sync stores it as it is.
    # (Damage that still parsed, a title of "" say, looks like real data: it was stored as served.)
    fake.repair("o/r", resource, key)
    await run_sync(store, fake)
    assert reported(store) == []
    assert stored_keys(store) == others
    if stored:
        return
    if resource == "issues":
        assert store.item("o/r", key) == item_from_payload("o/r", original, lambda login: False)
    else:
        with store.engine.connect() as conn:
            row = conn.execute(select(schema.comments).where(schema.comments.c.id == key)).one()
        clean = comment_from_payload("o/r", original, lambda login: False)
        assert (row.number, row.body, row.created_at) == (clean.number, clean.body, clean.created_at)
