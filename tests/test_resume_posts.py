"""The worker finishes an interrupted ``/digest post`` by itself: the request stored with the ledger row rebuilds
the same answer, and the parts not recorded yet go to the first part's thread, each once (real ``SlackMessenger``
and slack_sdk client against the fake Slack)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.app.context import PostRequest
from bot.app.messenger import DeliveryError
from bot.app.service import DigestService
from bot.delivery.jobs import REQUEST_MISMATCH, UNREADABLE_REQUEST, DeliveryJobs, post_kind
from bot.delivery.ledger import DeliveryKey, Ledger
from bot.model import Answer
from bot.platforms.slack_app import SlackMessenger, build_client
from bot.scheduler import RESUME_POSTS, DigestScheduler
from bot.settings import Settings, load_settings
from bot.store.store import Store
from tests.fakes.slack_api import Call, FakeSlack
from tests.test_exactly_once import recording_client
from tests.test_scheduler import LEASE, NOW, Clock, Crash, fill, make_settings

POST = "chat.postMessage"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path)


@pytest.fixture
def filled_sqlite(sqlite_store: Store) -> Store:
    return fill(sqlite_store)


@pytest.fixture
def slack() -> Iterator[tuple[FakeSlack, str]]:
    fake = FakeSlack()
    with fake.serve() as base_url:
        yield fake, base_url + "/api/"


async def no_wait(seconds: float) -> None:
    """Delivery's backoff between its own retries: not waited in tests."""


def thread_part(call: Call) -> bool:
    return bool(call.data.get("thread_ts"))


def asked(store: Store, settings: Settings, text: str = "") -> tuple[Answer, PostRequest]:
    """What ``/digest post <text>`` in C1 builds (C1 has no stored settings: no scheduled post competes)."""
    service = DigestService(store, settings)
    context = service.channel_context("slack", "C1", mutes_at=NOW)
    return service.answer_now(context, text, now=NOW), PostRequest(text, context, NOW)


def key_of(answer: Answer) -> DeliveryKey:
    return DeliveryKey("slack", "C1", answer.repo, post_kind(answer), answer.window.start)


def jobs(store: Store, settings: Settings, api: str, clock: Clock, owner: str) -> DeliveryJobs:
    ledger = Ledger(store, owner=owner, lease=LEASE, clock=clock)
    messenger = SlackMessenger(recording_client(api, []))  # slack_sdk's 429 waits recorded, not waited
    return DeliveryJobs(DigestService(store, settings), {"slack": messenger}, ledger=ledger, clock=clock,
                        sleep=no_wait)


async def worker_refresh(store: Store, settings: Settings, api: str, clock: Clock, owner: str = "worker") -> Any:
    """One worker start: its first refresh, and every run it started, to the end."""
    scheduler = DigestScheduler(DigestService(store, settings), {}, clock=clock, sync_on_start=False,
                                jobs=jobs(store, settings, api, clock, owner))
    async with scheduler:
        await scheduler.drain()
        return await scheduler.refresh(), scheduler


def assert_each_part_once(fake: FakeSlack, answer: Answer) -> list[dict[str, Any]]:
    posted = fake.posted("C1")
    parts = [m["metadata"]["event_payload"]["part"] for m in posted]
    expected = len(SlackMessenger(build_client("xoxb-test", "http://127.0.0.1:9/")).render(
        answer, locale="en", timezone="Asia/Shanghai"))
    assert parts == list(range(expected)) and expected >= 2  # every part, each once, in order
    assert {m["thread_ts"] for m in posted[1:]} == {posted[0]["ts"]}  # continued in the first thread
    return posted


async def test_a_429_storm_leaves_a_partial_thread_the_worker_finishes(
        filled_sqlite: Store, settings: Settings, slack: tuple[FakeSlack, str]) -> None:
    fake, api = slack
    answer, request = asked(filled_sqlite, settings)
    fake.rate_limit(POST, retry_after="0", times=10_000, when=thread_part)  # outlasts every retry
    person = jobs(filled_sqlite, settings, api, Clock(NOW + timedelta(seconds=5)), "web")
    with pytest.raises(DeliveryError):
        await person.post("slack", "C1", answer, locale="en", timezone="Asia/Shanghai", request=request)
    row = Ledger(filled_sqlite).get(key_of(answer))
    assert row is not None and row.status == "failed" and len(row.message_ids) == 1
    assert row.request == request.to_json()
    fake.calm(POST)

    # A minute later the retry is not due yet for the worker (backoff), so it leaves the row alone.
    report, _ = await worker_refresh(filled_sqlite, settings, api, Clock(NOW + timedelta(minutes=1)))
    assert RESUME_POSTS not in report.caught_up and len(fake.posted("C1")) == 1

    report, scheduler = await worker_refresh(filled_sqlite, settings, api, Clock(NOW + timedelta(minutes=6)))
    posted = assert_each_part_once(fake, answer)
    row = Ledger(filled_sqlite).get(key_of(answer))
    assert row is not None and row.status == "sent" and list(row.message_ids) == [m["ts"] for m in posted]
    assert scheduler.last_results[RESUME_POSTS].sent == 1  # type: ignore[attr-defined]

    # Sent: later refreshes leave it alone.
    report, _ = await worker_refresh(filled_sqlite, settings, api, Clock(NOW + timedelta(minutes=20)))
    assert RESUME_POSTS not in report.caught_up and fake.posted("C1") == posted
    again = Ledger(filled_sqlite).get(key_of(answer))
    assert again is not None and again.attempts == row.attempts


async def test_a_crashed_post_is_taken_over_after_the_lease_and_finished_without_a_repeat(
        filled_sqlite: Store, settings: Settings, slack: tuple[FakeSlack, str]) -> None:
    fake, api = slack
    answer, request = asked(filled_sqlite, settings)
    clock = Clock(NOW + timedelta(seconds=5))
    ledger = Ledger(filled_sqlite, owner="dead", lease=LEASE, clock=clock)
    claim = ledger.claim(key_of(answer), answer.window.end, request=request.to_json())
    assert claim is not None
    messenger = SlackMessenger(build_client("xoxb-test", api))
    recorded = 0

    async def record_then_die(message_id: str) -> None:
        nonlocal recorded
        if recorded == 1:
            raise Crash  # the second part was accepted by Slack, and the process died before recording it
        ledger.record_part(claim, message_id)
        recorded += 1

    with pytest.raises(Crash):
        await messenger.deliver("C1", answer, dm=False, locale="en", timezone="Asia/Shanghai",
                                on_part=record_then_die, key=claim.key.token())
    assert len(fake.posted("C1")) == 2

    # While the dead claimer's lease runs, nobody touches it.
    report, _ = await worker_refresh(filled_sqlite, settings, api, Clock(NOW + timedelta(minutes=1)))
    assert RESUME_POSTS not in report.caught_up and len(fake.posted("C1")) == 2

    await worker_refresh(filled_sqlite, settings, api, Clock(NOW + timedelta(minutes=3)))
    posted = assert_each_part_once(fake, answer)
    row = Ledger(filled_sqlite).get(key_of(answer))
    assert row is not None and row.status == "sent" and row.attempts == 2
    assert list(row.message_ids) == [m["ts"] for m in posted]  # the part in doubt was found, not re-posted


async def test_two_workers_finish_an_interrupted_post_once(
        filled_sqlite: Store, settings: Settings, slack: tuple[FakeSlack, str]) -> None:
    fake, api = slack
    answer, request = asked(filled_sqlite, settings)
    fake.rate_limit(POST, retry_after="0", times=10_000, when=thread_part)
    with pytest.raises(DeliveryError):
        await jobs(filled_sqlite, settings, api, Clock(NOW), "web").post(
            "slack", "C1", answer, locale="en", timezone="Asia/Shanghai", request=request)
    fake.calm(POST)
    clock = Clock(NOW + timedelta(minutes=6))
    first, second = (jobs(filled_sqlite, settings, api, clock, owner) for owner in ("w1", "w2"))
    results = [await first.resume_posts(timedelta(hours=6)), await second.resume_posts(timedelta(hours=6))]
    assert [r.sent for r in results] == [1, 0]
    assert_each_part_once(fake, answer)


async def test_a_post_whose_repository_is_no_longer_allowed_is_skipped_with_the_reason(
        filled_sqlite: Store, settings: Settings, slack: tuple[FakeSlack, str], tmp_path: Path) -> None:
    fake, api = slack
    answer, request = asked(filled_sqlite, settings)
    fake.rate_limit(POST, retry_after="0", times=10_000, when=thread_part)
    with pytest.raises(DeliveryError):
        await jobs(filled_sqlite, settings, api, Clock(NOW), "web").post(
            "slack", "C1", answer, locale="en", timezone="Asia/Shanghai", request=request)
    fake.calm(POST)
    (tmp_path / "later").mkdir()  # meanwhile o/r was taken out of the configuration
    (tmp_path / "later" / "digest.toml").write_text(
        '[digest]\ntimezone = "Asia/Shanghai"\n\n[[repos]]\nname = "acme/x"\n')
    later = load_settings(tmp_path / "later", env={})
    assert DigestService(filled_sqlite, later).refused("o/r")
    await worker_refresh(filled_sqlite, later, api, Clock(NOW + timedelta(minutes=6)))
    assert len(fake.posted("C1")) == 1
    row = Ledger(filled_sqlite).get(key_of(answer))
    assert row is not None and (row.status, row.last_error) == ("skipped", "repo_not_allowed")


async def test_posts_asked_longer_ago_than_the_grace_are_not_replayed(
        filled_sqlite: Store, settings: Settings, slack: tuple[FakeSlack, str]) -> None:
    fake, api = slack
    answer, request = asked(filled_sqlite, settings)
    fake.rate_limit(POST, retry_after="0", times=10_000, when=thread_part)
    with pytest.raises(DeliveryError):
        await jobs(filled_sqlite, settings, api, Clock(NOW), "web").post(
            "slack", "C1", answer, locale="en", timezone="Asia/Shanghai", request=request)
    fake.calm(POST)
    report, _ = await worker_refresh(filled_sqlite, settings, api, Clock(NOW + timedelta(hours=6, minutes=1)))
    assert RESUME_POSTS not in report.caught_up and len(fake.posted("C1")) == 1
    row = Ledger(filled_sqlite).get(key_of(answer))
    assert row is not None and row.status == "failed"


@pytest.mark.parametrize(("stored", "reason"), [({"v": 99}, UNREADABLE_REQUEST), (None, REQUEST_MISMATCH)])
async def test_a_request_that_cannot_rebuild_the_same_answer_is_skipped(
        filled_sqlite: Store, settings: Settings, slack: tuple[FakeSlack, str], stored: dict[str, Any] | None,
        reason: str) -> None:
    fake, api = slack
    answer, request = asked(filled_sqlite, settings)
    if stored is None:  # a request that builds another question than the row's key
        stored = PostRequest("rocm", request.context, request.now).to_json()
    ledger = Ledger(filled_sqlite, owner="dead", lease=LEASE, clock=Clock(NOW))
    assert ledger.claim(key_of(answer), answer.window.end, request=stored) is not None
    result = await jobs(filled_sqlite, settings, api, Clock(NOW + timedelta(minutes=3)), "w").resume_posts(
        timedelta(hours=6))
    assert result.skipped == 1 and fake.posted("C1") == []
    row = Ledger(filled_sqlite).get(key_of(answer))
    assert row is not None and row.status == "skipped" and (row.last_error or "").startswith(reason)


def test_a_post_request_survives_its_json() -> None:
    from bot.app.context import ChannelContext

    request = PostRequest("rocm 7d", ChannelContext("o/r", "09:30", "Europe/Berlin", "zh-CN", topics=("rocm",),
                                                    mutes=frozenset({"cuda", "docs"})), NOW)
    assert PostRequest.from_json(request.to_json()) == request
