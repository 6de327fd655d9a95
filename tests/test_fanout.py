"""DM fan-out: bounded concurrency, stopping, progress, backoff and pacing, retries of transient errors, what
a daily DM contains, and 1,000 DMs through the real Slack client against a fake Slack that answers 429s."""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest

from bench.bench_fanout import RateLimitedSlack
from bot.app.messenger import DeliveryError
from bot.app.service import DigestService
from bot.delivery.fanout import (
    BUSY,
    FAILED,
    SENT,
    SKIPPED,
    Backoff,
    FanoutOptions,
    RatePacer,
    fan_out,
)
from bot.delivery.jobs import DeliveryJobs, JobOptions, dm_kind, dm_text
from bot.delivery.ledger import DeliveryKey, Ledger
from bot.model import Digest, QueryResult
from bot.settings import Settings
from bot.store.chat import ChatState
from bot.store.store import Store
from tests.test_scheduler import NOW, WAIT, Clock, FakeMessenger, add_subscribers, fill, make_settings

WINDOW_START = NOW - timedelta(days=1)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path)


@pytest.fixture
def filled_sqlite(sqlite_store: Store) -> Store:
    return fill(sqlite_store)


def dm_key(user: str, query: str = "rocm") -> DeliveryKey:
    return DeliveryKey("slack", user, "o/r", dm_kind(query), WINDOW_START)


# --- fan_out ---


async def test_fan_out_bounds_concurrency_and_counts_outcomes() -> None:
    active = peak = 0
    full, release = asyncio.Event(), asyncio.Event()
    outcomes = [SENT, SKIPPED, FAILED, BUSY]

    async def worker(n: int) -> str:
        nonlocal active, peak
        active += 1
        peak = max(peak, active)
        if active == 3:
            full.set()
        try:
            await release.wait()
            if n == 9:
                raise RuntimeError("a bug in one delivery")
            return outcomes[n % 4]
        finally:
            active -= 1

    task = asyncio.create_task(fan_out(range(10), worker, options=FanoutOptions(concurrency=3), total=10))
    await asyncio.wait_for(full.wait(), WAIT)
    assert peak == 3  # three started, the fourth waits for a slot
    release.set()
    result = await asyncio.wait_for(task, WAIT)
    assert peak == 3
    assert (result.sent, result.skipped, result.failed, result.busy) == (3, 2, 3, 2)  # n=9 raised: failed
    assert result.total == result.done == 10 and result.stopped == 0


async def test_fan_out_starts_nothing_new_once_stopping(caplog: pytest.LogCaptureFixture) -> None:
    stop = asyncio.Event()
    started: list[int] = []

    async def worker(n: int) -> str:
        started.append(n)
        if n == 4:
            stop.set()
        return SENT

    caplog.set_level(logging.INFO, logger="bot.delivery.fanout")
    result = await fan_out(list(range(20)), worker, options=FanoutOptions(concurrency=2, progress_every=2),
                           stop=stop, label="test slot")
    assert result.sent == len(started) and 5 <= len(started) <= 6  # at most one more was already admitted
    assert result.stopped == 20 - len(started)
    progress = [r.getMessage() for r in caplog.records if r.getMessage().startswith("test slot:")]
    assert len(progress) >= 3 and "not started (stopping)" in progress[-1]


def test_backoff_grows_exponentially_with_jitter_up_to_its_cap() -> None:
    policy = Backoff(attempts=8, base=1.0, factor=2.0, cap=8.0)
    rng = random.Random(7)
    for retry, ceiling in enumerate([1, 2, 4, 8, 8, 8]):
        delays = [policy.delay(retry, rng) for _ in range(200)]
        assert all(ceiling / 2 <= d <= ceiling for d in delays)
        assert max(delays) - min(delays) > ceiling / 4  # jittered, not fixed


async def test_rate_pacer_holds_the_average_rate_after_a_burst() -> None:
    now = [0.0]
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        now[0] += seconds

    pacer = RatePacer(10.0, burst=2, clock=lambda: now[0], sleep=sleep)
    for _ in range(12):
        await pacer.wait()
    assert now[0] == pytest.approx(1.0)  # 2 at once, then 10 more at 10/s
    assert len(waits) == 10


# --- retries and outcomes of one delivery ---


def _jobs(store: Store, settings: Settings, messenger: object, clock: Clock, sleeps: list[float],
          **options: object) -> DeliveryJobs:
    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)

    return DeliveryJobs(DigestService(store, settings), {"slack": messenger},
                        ledger=Ledger(store, clock=clock), clock=clock,
                        sleep=sleep, rng=random.Random(1),
                        options=JobOptions(retry=Backoff(attempts=3, base=1.0, cap=10.0), **options))  # type: ignore[arg-type]


async def test_transient_errors_are_retried_with_backoff_and_resume(filled_sqlite: Store,
                                                                    settings: Settings) -> None:
    add_subscribers(filled_sqlite, ["U1"], query="")  # the digest by DM: three parts
    resumes: list[int] = []
    raised: list[str] = []

    def hook(point: str, target: str, index: int) -> None:
        if point == "before_send":
            resumes.append(index)
        if (point, index) == ("recorded", 0) and not raised:
            raised.append("ratelimited")  # the platform refuses the second part, after the first went out
            raise DeliveryError("ratelimited", permanent=False, target=target)

    fake = FakeMessenger(hook=hook)
    fake.failures = [DeliveryError("fatal_error", permanent=False)]  # the first try fails outright
    sleeps: list[float] = []
    jobs = _jobs(filled_sqlite, settings, fake, Clock(NOW + timedelta(seconds=5)), sleeps)
    result = await jobs.send_slot("11:05", "Asia/Shanghai")
    assert result.sent == 1
    assert len(sleeps) == 2 and 0.5 <= sleeps[0] <= 1.0 and 1.0 <= sleeps[1] <= 2.0
    assert resumes == [0, 1, 2]  # the retry resumed after the recorded first part
    assert [p.index for p in fake.accepted] == [0, 1, 2]


async def test_permanent_errors_skip_and_exhausted_retries_fail_for_later(filled_sqlite: Store,
                                                                          settings: Settings) -> None:
    add_subscribers(filled_sqlite, ["U1", "U2"])
    fake = FakeMessenger()
    clock = Clock(NOW + timedelta(seconds=5))
    sleeps: list[float] = []
    jobs = _jobs(filled_sqlite, settings, fake, clock, sleeps, fanout=FanoutOptions(concurrency=1))
    fake.failures = [DeliveryError("cannot_dm_bot", permanent=True, target="user U1")] + [
        DeliveryError("fatal_error", permanent=False)] * 3
    result = await jobs.send_slot("11:05", "Asia/Shanghai")
    assert (result.sent, result.skipped, result.failed) == (0, 1, 1)
    assert fake.calls == 1 + 3 and len(sleeps) == 2
    skipped, failed = jobs.ledger.get(dm_key("U1")), jobs.ledger.get(dm_key("U2"))
    assert skipped is not None and skipped.status == "skipped" and skipped.last_error == "cannot_dm_bot"
    assert failed is not None and failed.status == "failed" and failed.lease_until == clock.now + timedelta(minutes=5)
    # The next run (a refresh catch-up) before that: nothing; after it: U2 only, and it arrives.
    assert (await jobs.send_slot("11:05", "Asia/Shanghai")).sent == 0
    clock.now += timedelta(minutes=5)
    again = await jobs.send_slot("11:05", "Asia/Shanghai")
    # U1's DMs were paused by the permanent failure (marked once, by delivery): only U2 is left.
    assert again.sent == 1 and again.total == 1
    assert [s.paused for s in ChatState(filled_sqlite).subscriptions("slack", "U1")] == ["cannot_dm_bot"]
    assert [p.target for p in fake.accepted] == ["U2"]


async def test_a_saved_subscription_whose_query_is_refused_is_skipped_not_failed_every_day(
        filled_sqlite: Store, settings: Settings) -> None:
    # Saved before queries were checked: it used to be the whole digest every day; now it has no answer.
    add_subscribers(filled_sqlite, ["U1"], query="labe:bug")
    add_subscribers(filled_sqlite, ["U2"], query="rocm")
    fake = FakeMessenger()
    jobs = _jobs(filled_sqlite, settings, fake, Clock(NOW + timedelta(seconds=5)), [])
    result = await jobs.send_slot("11:05", "Asia/Shanghai")
    assert (result.sent, result.skipped, result.failed) == (1, 1, 0)
    skipped = jobs.ledger.get(dm_key("U1", "labe:bug"))
    assert skipped is not None and skipped.status == "skipped" and skipped.last_error == "query_problem"
    assert [p.target for p in fake.accepted] == ["U2"]


async def test_what_a_daily_dm_contains(filled_sqlite: Store, settings: Settings) -> None:
    store = filled_sqlite
    add_subscribers(store, ["U1"], query="rocm")
    add_subscribers(store, ["U2"], query="")
    add_subscribers(store, ["U3"], query="zzznothingmatches")
    add_subscribers(store, ["U4"], query="rocm")
    ChatState(store).pause_subscriptions("slack", "U4", "dms_closed")
    fake = FakeMessenger()
    jobs = _jobs(store, settings, fake, Clock(NOW + timedelta(seconds=5)), [])
    result = await jobs.send_slot("11:05", "Asia/Shanghai")
    assert (result.sent, result.skipped, result.total) == (2, 1, 3)  # U4 is paused: not a target at all
    by_user = {p.target: p.answer for p in fake.accepted}
    search = by_user["U1"]
    assert isinstance(search, QueryResult) and search.items
    assert (search.window.start, search.window.end) == (NOW - timedelta(hours=24), NOW)  # the last day only
    assert isinstance(by_user["U2"], Digest) and by_user["U2"].window.end == NOW
    assert jobs.ledger.get(dm_key("U3", "zzznothingmatches")).last_error == "no_matches"  # type: ignore[union-attr]
    assert dm_text("rocm") == "rocm 24h" and dm_text("rocm 3d") == "rocm 3d" and dm_text("") == ""
    assert dm_kind("ROCm  is:pr") == dm_kind("rocm is:pr") != dm_kind("rocm")


# --- 1,000 DMs through the real Slack client ---


async def test_a_thousand_dms_through_a_rate_limiting_fake_slack_arrive_once_each(
        filled_sqlite: Store, settings: Settings) -> None:
    """The real ``SlackMessenger`` and slack_sdk client (its 429 handler waits ``Retry-After`` - 0 here - plus
    its own jitter under a second). The fake answers the first 10 posts with 429 and enforces Slack's
    1 message/s per channel, which refuses the second part of a digest sent right after the first (20
    subscribers get the digest, two parts) unless the client happened to be slower than that.
    (PostgreSQL: the two-worker test in test_scheduler.py fans out there.)"""
    from bot.platforms.slack_app import SlackMessenger, build_client

    store = filled_sqlite
    users = [f"U{n:04d}" for n in range(1000)]
    digest_users, search_users = users[::50], [u for n, u in enumerate(users) if n % 50]
    add_subscribers(store, digest_users, query="")
    add_subscribers(store, search_users, query="rocm")
    fake = RateLimitedSlack(channel_rate=1, channel_burst=1, retry_after=0)
    fake.rate_limit("chat.postMessage", retry_after=0, times=10)
    with fake.serve() as base_url:
        messenger = SlackMessenger(build_client("xoxb-test", base_url + "/api/"))
        jobs = DeliveryJobs(DigestService(store, settings), {"slack": messenger},
                            clock=Clock(NOW + timedelta(seconds=30)),
                            options=JobOptions(fanout=FanoutOptions(concurrency=64),
                                               retry=Backoff(attempts=6, base=0.05, cap=0.5)))
        result = await jobs.send_slot("11:05", "Asia/Shanghai")
        again = await jobs.send_slot("11:05", "Asia/Shanghai")
        posts = fake.of("chat.postMessage")
        refused = [call for call in fake.of("chat.postMessage", ok_only=False) if call.status == 429]
    assert result.sent == 1000 and result.failed == result.skipped == 0
    assert again.sent == 0 and again.other == {"done before": 1000}
    assert len(refused) >= 10  # the fake did push back (and the client waited and retried)
    digest_parts = len(jobs.ledger.get(dm_key(digest_users[0], "")).message_ids)  # type: ignore[union-attr]
    assert digest_parts >= 2
    per_user = Counter(str(call.data["channel"]).removeprefix("D") for call in posts)
    assert per_user == {user: digest_parts if user in set(digest_users) else 1 for user in users}
    unique = {(call.data["channel"], json.dumps(call.data.get("blocks"), sort_keys=True)) for call in posts}
    assert len(unique) == len(posts)  # nobody got a part twice
