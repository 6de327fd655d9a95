"""The scheduler and its jobs: triggers and windows in non-UTC zones and across DST, sync-first, catch-up
after downtime, crashes at every step taken over by a successor, two workers on one store, shutdown.

Time is injected (``Clock``) wherever a window is computed; one short test lets APScheduler fire a real
``CronTrigger``. Waits are on events with timeouts, never on sleeps.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import shutil
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from apscheduler.triggers.cron import CronTrigger
from sqlalchemy import insert, update

from bot.app.messenger import DeliveryError
from bot.app.service import DigestService
from bot.delivery.fanout import BUSY, FAILED, SENT, FanoutOptions
from bot.delivery.jobs import CHANNEL, DeliveryJobs, JobOptions, dm_kind, plan_channel
from bot.delivery.ledger import CLAIMED, DeliveryKey, Ledger
from bot.github.payloads import item_from_payload
from bot.model import Digest, QueryResult
from bot.scheduler import DigestScheduler, daily_trigger, delivery_status
from bot.settings import AccessSettings, Settings, load_settings
from bot.store import schema
from bot.store.chat import ChannelSettings, ChatState
from bot.store.db import upsert
from bot.store.mutes import USER, Mutes
from bot.store.store import Store
from bot.topics.catalog import load_taxonomy
from bot.topics.items import classify
from tests.factories import issue_payload

ROOT = Path(__file__).resolve().parents[1]
NOW = datetime(2025, 6, 2, 3, 5, tzinfo=UTC)  # 11:05 in Asia/Shanghai
SHANGHAI, BERLIN = ZoneInfo("Asia/Shanghai"), ZoneInfo("Europe/Berlin")
LEASE = timedelta(minutes=2)
WAIT = 30.0  # seconds: the bound of every event wait, only reached by a failing test (a loaded machine, -n)


class Clock:
    def __init__(self, now: datetime = NOW) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


class Crash(BaseException):
    """A simulated process death: no ``except Exception`` on the way catches it."""


@dataclass
class Part:
    target: str
    index: int
    message_id: str
    thread: str | None
    dm: bool
    answer: Digest | QueryResult


class FakeMessenger:
    """A part-wise messenger: ``parts`` messages per digest, one per query answer.

    ``hook(point, target, index)`` runs at ``before_send``, ``accepted`` (the platform has it, the ledger not
    yet) and ``recorded``; it may raise ``Crash``. ``failures`` are raised, in order, before anything is sent.
    ``gate`` (when set) holds every delivery until it is set: a delivery in flight."""

    platform = "slack"

    def __init__(self, parts: int = 3, *, name: str = "fake", ids: itertools.count[int] | None = None,
                 hook: Callable[[str, str, int], None] | None = None) -> None:
        self.parts = parts
        self.name = name
        self.ids = ids or itertools.count(1)
        self.hook = hook
        self.accepted: list[Part] = []
        self.failures: list[DeliveryError] = []
        self.gate: asyncio.Event | None = None
        self.entered = asyncio.Event()
        self.posted = asyncio.Event()
        self.calls = 0
        self.checks: list[bool] = []  # check_first of each call

    async def deliver(self, target: str, answer: Digest | QueryResult, *, dm: bool, locale: str, timezone: str,
                      sent: Sequence[str] = (), on_part: Callable[[str], Awaitable[None]] | None = None,
                      pace: Callable[[], Awaitable[None]] | None = None, key: str | None = None,
                      check_first: bool = False) -> list[str]:
        self.calls += 1
        self.checks.append(check_first)
        self.entered.set()
        if self.gate is not None:
            await self.gate.wait()
        if self.failures:
            raise self.failures.pop(0)
        ids = list(sent)
        thread = ids[0] if ids else None
        for index in range(len(ids), self.parts if isinstance(answer, Digest) else 1):
            self._hook("before_send", target, index)
            message_id = f"{self.name}-{next(self.ids)}"
            self.accepted.append(Part(target, index, message_id, thread, dm, answer))
            self.posted.set()
            self._hook("accepted", target, index)
            if on_part is not None:
                await on_part(message_id)
            self._hook("recorded", target, index)
            ids.append(message_id)
            thread = thread or message_id
        return ids

    def _hook(self, point: str, target: str, index: int) -> None:
        if self.hook is not None:
            self.hook(point, target, index)

    def parts_of(self, target: str) -> Counter[int]:
        return Counter(part.index for part in self.accepted if part.target == target)


# --- fixtures and helpers ---


def make_settings(config_dir: Path) -> Settings:
    shutil.copy(ROOT / "config" / "topics.toml", config_dir)
    (config_dir / "digest.toml").write_text(
        '[digest]\ntimezone = "Asia/Shanghai"\npost_time = "11:05"\n\n[[repos]]\nname = "o/r"\n')
    return load_settings(config_dir, env={})


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path)


def with_access(settings: Settings, patterns: list[str], *, allow_public: bool = False) -> Settings:
    access = AccessSettings(repos=patterns, allow_public=allow_public)
    return settings.model_copy(update={"file": settings.file.model_copy(update={"access": access})})


def fill(store: Store, end: datetime = NOW) -> Store:
    """Items in the day before ``end``; the listings completed (now, in real time: after ``end``)."""
    items = [issue_payload(n, end - timedelta(hours=n % 23 + 0.5), title=f"[Bugfix][ROCm] fix MI300X case {n}",
                           pr=n % 2 == 0, merged=end - timedelta(hours=n % 20 + 0.2) if n % 4 == 0 else None,
                           labels=("bug",) if n % 3 == 0 else ()) for n in range(1, 30)]
    store.save_page([item_from_payload("o/r", p, lambda login: False) for p in items])
    for resource in ("issues", "comments"):
        store.complete_listing("o/r", resource, end, [], synced_from=end - timedelta(days=30))
    return store


@pytest.fixture
def filled(store: Store) -> Store:
    return fill(store)


@pytest.fixture
def filled_sqlite(sqlite_store: Store) -> Store:
    return fill(sqlite_store)


def add_channel(store: Store, channel_id: str = "C1", *, post_time: str = "11:05", timezone: str = "Asia/Shanghai",
                repo: str | None = "o/r", updated_at: datetime = NOW - timedelta(days=7),
                topics: tuple[str, ...] | None = None) -> None:
    """A channel configured (``updated_at``) well before the post times the tests look at."""
    ChatState(store).save_channel(ChannelSettings("slack", channel_id, repo=repo, post_time=post_time,
                                                  timezone=timezone, topics=topics))
    c = schema.channels.c
    with store.engine.begin() as conn:
        conn.execute(update(schema.channels).where(c.channel_id == channel_id).values(updated_at=updated_at))


def add_subscribers(store: Store, users: Sequence[str], *, query: str = "rocm", post_time: str = "11:05",
                    timezone: str = "Asia/Shanghai", created_at: datetime = NOW - timedelta(days=7)) -> None:
    rows = [dict(platform="slack", user_id=user, query=query, repo="o/r", post_time=post_time, timezone=timezone,
                 locale="en", paused=None, notice_pending=False, created_at=created_at) for user in users]
    with store.engine.begin() as conn:
        conn.execute(insert(schema.subscriptions), rows)


def set_last_sync(store: Store, at: datetime, repo: str = "o/r") -> None:
    with store.engine.begin() as conn:
        upsert(conn, schema.sync_state, [dict(repo=repo, resource=r, cursor=at, synced_from=at - timedelta(days=30),
                                              last_success_at=at, last_error=None) for r in ("issues", "comments")],
               ("repo", "resource"))


def make_jobs(store: Store, settings: Settings, messenger: Any, clock: Clock, *, owner: str = "worker-a",
              sync: Any = None) -> DeliveryJobs:
    ledger = Ledger(store, owner=owner, lease=LEASE, clock=clock)
    return DeliveryJobs(DigestService(store, settings), {"slack": messenger}, ledger=ledger, clock=clock, sync=sync)


def channel_key(channel_id: str = "C1", window_start: datetime = NOW - timedelta(days=1)) -> DeliveryKey:
    return DeliveryKey("slack", channel_id, "o/r", CHANNEL, window_start)


# --- triggers and windows ---


def test_daily_trigger_fires_at_local_post_time_across_dst() -> None:
    shanghai = daily_trigger("11:05", SHANGHAI)
    first = shanghai.get_next_fire_time(None, datetime(2025, 6, 1, 0, 0, tzinfo=UTC))
    assert first == datetime(2025, 6, 1, 3, 5, tzinfo=UTC)
    assert shanghai.get_next_fire_time(first, first + timedelta(seconds=1)) == datetime(2025, 6, 2, 3, 5, tzinfo=UTC)

    berlin = daily_trigger("11:05", BERLIN)  # CET -> CEST on 2025-03-30: 10:05 UTC, then 09:05 UTC
    before = berlin.get_next_fire_time(None, datetime(2025, 3, 29, 0, 0, tzinfo=UTC))
    after = berlin.get_next_fire_time(before, before + timedelta(seconds=1))
    assert (before, after) == (datetime(2025, 3, 29, 10, 5, tzinfo=UTC), datetime(2025, 3, 30, 9, 5, tzinfo=UTC))

    # 02:30 does not exist on 2025-03-30 (fires at 03:30 CEST) and exists twice on 2025-10-26 (fires twice:
    # the ledger keeps that to one post, see test_dst_windows_and_a_repeated_wall_clock_time_posts_once).
    # (Compared in UTC: Python never calls a gap or fold time equal to a time in another zone.)
    night = daily_trigger("02:30", BERLIN)
    spring = night.get_next_fire_time(None, datetime(2025, 3, 30, 0, 0, tzinfo=UTC))
    assert spring.astimezone(UTC) == datetime(2025, 3, 30, 1, 30, tzinfo=UTC)
    autumn = night.get_next_fire_time(None, datetime(2025, 10, 26, 0, 0, tzinfo=UTC))
    again = night.get_next_fire_time(autumn, autumn + timedelta(seconds=1))
    assert (autumn.astimezone(UTC), again.astimezone(UTC)) == (datetime(2025, 10, 26, 0, 30, tzinfo=UTC),
                                                               datetime(2025, 10, 26, 1, 30, tzinfo=UTC))


async def test_channel_digest_at_1105_shanghai_reaches_the_platform_once(filled: Store, settings: Settings) -> None:
    add_channel(filled)
    fake = FakeMessenger()
    clock = Clock(NOW)
    jobs = make_jobs(filled, settings, fake, clock)
    assert await jobs.post_channel("slack", "C1") == SENT
    assert await jobs.post_channel("slack", "C1") == BUSY  # a second fire, a retry: nothing
    clock.now = NOW + timedelta(hours=5)
    assert await jobs.post_channel("slack", "C1") == BUSY  # same day, later: still that window
    assert fake.parts_of("C1") == Counter({0: 1, 1: 1, 2: 1})
    digest = fake.accepted[0].answer
    assert isinstance(digest, Digest) and digest.repo == "o/r"
    assert (digest.window.start, digest.window.end) == (NOW - timedelta(days=1), NOW)
    assert sum(digest.stats.as_dict().values()) > 0  # built from the store's items in that window
    row = jobs.ledger.get(channel_key())
    assert row is not None and row.status == SENT and row.message_ids == tuple(p.message_id for p in fake.accepted)


async def test_dst_windows_and_a_repeated_wall_clock_time_posts_once(filled_sqlite: Store, settings: Settings) -> None:
    add_channel(filled_sqlite, "C1", post_time="11:05", timezone="Europe/Berlin")
    add_channel(filled_sqlite, "C2", post_time="02:30", timezone="Europe/Berlin")
    fake = FakeMessenger(parts=1)
    clock = Clock(datetime(2025, 3, 30, 9, 5, tzinfo=UTC))  # 11:05 CEST, the first day of summer time
    jobs = make_jobs(filled_sqlite, settings, fake, clock)
    assert await jobs.post_channel("slack", "C1") == SENT
    window = fake.accepted[-1].answer.window
    assert (window.start, window.end) == (datetime(2025, 3, 29, 10, 5, tzinfo=UTC),
                                          datetime(2025, 3, 30, 9, 5, tzinfo=UTC))  # a 23-hour day

    clock.now = datetime(2025, 3, 30, 1, 30, tzinfo=UTC)  # when the trigger fires for the missing 02:30
    assert await jobs.post_channel("slack", "C2") == SENT
    assert fake.accepted[-1].answer.window.end == clock.now

    clock.now = datetime(2025, 10, 26, 0, 30, tzinfo=UTC)  # 02:30 CEST, the first of two 02:30s
    assert await jobs.post_channel("slack", "C2") == SENT
    clock.now = datetime(2025, 10, 26, 1, 30, tzinfo=UTC)  # 02:30 CET: the trigger fires again
    assert await jobs.post_channel("slack", "C2") == BUSY
    assert [p.target for p in fake.accepted] == ["C1", "C2", "C2"]


async def test_apscheduler_fires_the_cron_trigger(filled_sqlite: Store, settings: Settings) -> None:
    """Real time, real APScheduler: a trigger every second runs the channel job, which posts once."""
    add_channel(filled_sqlite)
    fake = FakeMessenger()
    runs: list[str] = []
    second_run = asyncio.Event()
    scheduler = DigestScheduler(DigestService(filled_sqlite, settings), {"slack": fake}, grace=timedelta(0),
                                trigger=lambda post_time, zone: CronTrigger(second="*", timezone=zone))
    post_channel = scheduler.jobs.post_channel

    async def counted(platform: str, channel_id: str) -> str:
        outcome = await post_channel(platform, channel_id)
        runs.append(outcome)
        if len(runs) >= 2:
            second_run.set()
        return outcome

    scheduler.jobs.post_channel = counted  # type: ignore[method-assign]
    async with scheduler:
        assert scheduler.last_results["refresh"].caught_up == []  # type: ignore[attr-defined]
        await asyncio.wait_for(fake.posted.wait(), 3)
        await asyncio.wait_for(second_run.wait(), 3)
    assert runs[:2] == [SENT, BUSY]
    assert fake.parts_of("C1") == Counter({0: 1, 1: 1, 2: 1})


# --- sync first ---


async def test_a_digest_job_syncs_first_when_the_store_is_behind(filled_sqlite: Store, settings: Settings) -> None:
    store = filled_sqlite
    add_channel(store, "C1")
    add_channel(store, "C2")
    set_last_sync(store, NOW - timedelta(hours=1))  # before the window's end
    order: list[str] = []

    async def sync(repo: str) -> None:
        order.append(f"sync {repo}")
        set_last_sync(store, NOW + timedelta(seconds=20))

    def hook(point: str, target: str, index: int) -> None:
        if point == "before_send" and index == 0:
            order.append(f"post {target}")

    jobs = make_jobs(store, settings, FakeMessenger(hook=hook), Clock(NOW + timedelta(seconds=10)), sync=sync)
    assert await jobs.post_channel("slack", "C1") == SENT
    assert await jobs.post_channel("slack", "C2") == SENT
    assert order == ["sync o/r", "post C1", "post C2"]  # synced once, before building


async def test_a_failed_sync_is_retried_later_and_posts_nothing_meanwhile(filled_sqlite: Store,
                                                                          settings: Settings) -> None:
    store = filled_sqlite
    add_channel(store)
    set_last_sync(store, NOW - timedelta(hours=1))
    broken = [True]

    async def sync(repo: str) -> None:
        if broken[0]:
            raise RuntimeError("GitHub is down")
        set_last_sync(store, NOW + timedelta(minutes=7))

    fake = FakeMessenger()
    clock = Clock(NOW + timedelta(seconds=5))
    jobs = make_jobs(store, settings, fake, clock, sync=sync)
    assert await jobs.post_channel("slack", "C1") == FAILED
    row = jobs.ledger.get(channel_key())
    assert row is not None and row.status == "failed" and "GitHub is down" in (row.last_error or "")
    assert row.lease_until == clock.now + timedelta(minutes=5)  # retry not before
    assert await jobs.post_channel("slack", "C1") == BUSY
    broken[0] = False
    clock.now += timedelta(minutes=6)
    assert await jobs.post_channel("slack", "C1") == SENT
    assert fake.parts_of("C1") == Counter({0: 1, 1: 1, 2: 1})
    assert jobs.ledger.get(channel_key()).attempts == 2  # type: ignore[union-attr]


# --- downtime ---


async def test_catch_up_after_downtime_posts_once_and_never_replays_old_days(filled: Store,
                                                                           settings: Settings) -> None:
    add_channel(filled, "C1")
    add_channel(filled, "C2", updated_at=NOW + timedelta(hours=1))  # configured after today's post time
    add_subscribers(filled, ["U1", "U2"])
    add_subscribers(filled, ["U3"], created_at=NOW + timedelta(minutes=10))  # subscribed after it
    fake = FakeMessenger()
    clock = Clock(NOW + timedelta(hours=3))  # the worker was down at 11:05, back at 14:05
    scheduler = DigestScheduler(DigestService(filled, settings), {"slack": fake},
                                clock=clock, ledger=Ledger(filled, clock=clock))
    async with scheduler:
        await scheduler.drain()
        report = scheduler.last_results["refresh"]
        assert sorted(report.caught_up) == ["channel:slack:C1", "dm:11:05:Asia/Shanghai"]  # type: ignore[attr-defined]
        assert fake.parts_of("C1") == Counter({0: 1, 1: 1, 2: 1})
        assert sorted(p.target for p in fake.accepted if p.dm) == ["U1", "U2"]
        assert not fake.parts_of("C2") and not fake.parts_of("U3")
        # The next refreshes find everything in the ledger.
        assert (await scheduler.refresh()).caught_up == []
        clock.now = NOW + timedelta(hours=5, minutes=59)
        assert (await scheduler.refresh()).caught_up == []
        # Down across the next day's post time by more than the grace: that day is not replayed.
        clock.now = NOW + timedelta(days=1, hours=6, minutes=1)
        assert (await scheduler.refresh()).caught_up == []
        await scheduler.drain()
    assert len(fake.accepted) == 3 + 2


# --- crashes ---

CRASH_POINTS = ["sync", "build", "before_first_part", "in_flight", "after_recorded", "before_complete"]


@pytest.mark.parametrize("point", CRASH_POINTS)
async def test_a_crash_at_any_step_is_taken_over_after_the_lease(filled: Store, settings: Settings,
                                                                 point: str) -> None:
    """Worker A dies at ``point``; worker B (same store) waits out the lease, then finishes the delivery:
    each part arrives once, except the one message in flight at ``in_flight`` (accepted, not recorded)."""
    add_channel(filled)
    ids = itertools.count(1)

    def crash_at(where: str, index: int) -> Callable[[str, str, int], None]:
        def hook(at: str, target: str, i: int) -> None:
            if (at, i) == (where, index):
                raise Crash(point)
        return hook

    hooks = {"before_first_part": crash_at("before_send", 0), "in_flight": crash_at("accepted", 1),
             "after_recorded": crash_at("recorded", 1)}
    a_fake = FakeMessenger(name="a", ids=ids, hook=hooks.get(point))
    clock_a = Clock(NOW + timedelta(seconds=5))

    async def crashing_sync(repo: str) -> None:
        raise Crash(point)

    if point == "sync":
        set_last_sync(filled, NOW - timedelta(hours=1))
    a = make_jobs(filled, settings, a_fake, clock_a, owner="A", sync=crashing_sync if point == "sync" else None)
    if point == "build":
        def crashing_answer(*args: object, **kwargs: object) -> None:
            raise Crash(point)
        a.service.build_digest = crashing_answer  # type: ignore[method-assign,assignment]
    if point == "before_complete":
        def crashing_complete(claim: object) -> None:
            raise Crash(point)
        a.ledger.complete = crashing_complete  # type: ignore[method-assign,assignment]
    with pytest.raises(Crash):
        await a.post_channel("slack", "C1")
    assert a.ledger.get(channel_key()).status == CLAIMED  # type: ignore[union-attr]

    async def fine_sync(repo: str) -> None:
        set_last_sync(filled, NOW + timedelta(minutes=5))

    b_fake = FakeMessenger(name="b", ids=ids)
    clock_b = Clock(NOW + timedelta(seconds=30))
    b = make_jobs(filled, settings, b_fake, clock_b, owner="B", sync=fine_sync)
    assert await b.post_channel("slack", "C1") == BUSY  # A's lease still holds: B cannot know A is dead
    clock_b.now = clock_a.now + LEASE + timedelta(seconds=1)
    assert await b.post_channel("slack", "C1") == SENT

    parts = a_fake.accepted + b_fake.accepted
    counts = Counter(p.index for p in parts)
    expected_repeats = {"in_flight": 1}.get(point, 0)
    assert set(counts) == {0, 1, 2}  # never: every part arrived
    assert sum(counts.values()) - 3 == expected_repeats  # twice: only the documented in-flight message
    first = parts[0].message_id
    assert all(p.thread == first for p in parts if p.index > 0)  # resumed parts stay in the first one's thread
    row = b.ledger.get(channel_key())
    assert row is not None and row.status == SENT and row.claimed_by == "B" and len(row.message_ids) == 3


@pytest.mark.parametrize("crash_on", ["recording_part_2", "before_part_2"])
async def test_real_slack_messenger_resumes_in_the_thread_after_a_crash(filled_sqlite: Store, settings: Settings,
                                                                        crash_on: str) -> None:
    from bot.platforms.slack_app import SlackMessenger, build_client
    from tests.fakes.slack_api import FakeSlack

    store = filled_sqlite
    add_channel(store)
    fake = FakeSlack()
    with fake.serve() as base_url:
        messenger = SlackMessenger(build_client("xoxb-test", base_url + "/api/"))
        clock = Clock(NOW + timedelta(seconds=5))
        a = make_jobs(store, settings, messenger, clock, owner="A")
        record_part = a.ledger.record_part

        def crashing_record(claim: Any, message_id: str) -> None:
            if crash_on == "recording_part_2" and claim.parts_sent == 1:
                raise Crash("accepted by Slack, not recorded")
            record_part(claim, message_id)
            if crash_on == "before_part_2" and claim.parts_sent == 1:
                raise Crash("recorded part 1, died before part 2")

        a.ledger.record_part = crashing_record  # type: ignore[method-assign]
        with pytest.raises(Crash):
            await a.post_channel("slack", "C1")
        b = make_jobs(store, settings, messenger, Clock(clock.now + LEASE + timedelta(seconds=1)), owner="B")
        assert await b.post_channel("slack", "C1") == SENT
        posts = fake.of("chat.postMessage")
    texts = Counter(json.dumps(call.data.get("blocks"), sort_keys=True) for call in posts)  # one per part
    root = posts[0]
    root_ts = b.ledger.get(channel_key()).message_ids[0]  # type: ignore[union-attr]
    assert "thread_ts" not in root.data or not root.data["thread_ts"]
    assert all(call.data.get("thread_ts") == root_ts for call in posts[1:])
    payloads = len(b.ledger.get(channel_key()).message_ids)  # type: ignore[union-attr]
    assert payloads >= 2 and len(texts) == payloads
    repeated = [text for text, n in texts.items() if n > 1]
    # The part accepted but never recorded is not the one duplicate any more: the takeover finds it in the
    # thread by its metadata (conversations.replies) and records its ts instead of posting it again.
    assert len(posts) - payloads == 0 == len(repeated)
    assert len(fake.of("conversations.replies")) == 1  # the takeover looked, once


# --- several workers ---


async def test_two_workers_on_one_store_post_once(filled: Store, settings: Settings) -> None:
    """Two scheduler instances (two processes: two engines) start together after the post time: the channel
    digest and each of 120 DMs arrive exactly once between them."""
    other = Store.open(filled.engine.url.render_as_string(hide_password=False))
    try:
        add_channel(filled)
        users = [f"U{n:03d}" for n in range(120)]
        add_subscribers(filled, users)
        ids = itertools.count(1)
        fakes = [FakeMessenger(name="a", ids=ids), FakeMessenger(name="b", ids=ids)]
        clock = Clock(NOW + timedelta(minutes=1))
        workers = [DigestScheduler(DigestService(store, settings), {"slack": fake}, clock=clock,
                                   ledger=Ledger(store, owner=fake.name, clock=clock))
                   for store, fake in zip((filled, other), fakes, strict=True)]
        await asyncio.gather(*(worker.start() for worker in workers))
        try:
            await asyncio.gather(*(worker.drain() for worker in workers))
        finally:
            await asyncio.gather(*(worker.stop() for worker in workers))
        parts = fakes[0].accepted + fakes[1].accepted
        assert Counter(p.index for p in parts if p.target == "C1") == Counter({0: 1, 1: 1, 2: 1})
        assert Counter(p.target for p in parts if p.dm) == Counter(users)
    finally:
        other.close()


# --- shutdown ---


async def test_stop_waits_for_the_delivery_in_flight_then_closes_clients(filled_sqlite: Store,
                                                                         settings: Settings) -> None:
    add_channel(filled_sqlite)
    fake = FakeMessenger()
    fake.gate = asyncio.Event()
    events: list[str] = []

    async def close_client() -> None:
        events.append(f"closed after {len(fake.accepted)} part(s)")

    clock = Clock(NOW + timedelta(minutes=1))
    scheduler = DigestScheduler(DigestService(filled_sqlite, settings), {"slack": fake},
                                clock=clock, on_stop=[close_client])
    await scheduler.start()  # catches up C1: the delivery waits at the gate
    await asyncio.wait_for(fake.entered.wait(), WAIT)
    stopping = asyncio.create_task(scheduler.stop(wait_seconds=WAIT))
    await asyncio.sleep(0)  # one turn of the loop: stop() begins and marks the scheduler stopping
    assert not scheduler.running
    await scheduler._run("channel:slack:C1")  # a run asked for now is refused
    assert fake.calls == 1 and events == []
    fake.gate.set()
    await asyncio.wait_for(stopping, WAIT)
    assert events == ["closed after 3 part(s)"]
    assert scheduler.jobs.ledger.get(channel_key()).status == SENT  # type: ignore[union-attr]


async def test_stop_gives_up_after_its_bound_and_hands_the_delivery_back(filled_sqlite: Store,
                                                                         settings: Settings) -> None:
    add_channel(filled_sqlite)
    fake = FakeMessenger()
    fake.gate = asyncio.Event()  # never opened: a hung platform call
    clock = Clock(NOW + timedelta(minutes=1))
    scheduler = DigestScheduler(DigestService(filled_sqlite, settings), {"slack": fake}, clock=clock,
                                ledger=Ledger(filled_sqlite, owner="A", clock=clock))
    await scheduler.start()
    await asyncio.wait_for(fake.entered.wait(), WAIT)
    await asyncio.wait_for(scheduler.stop(wait_seconds=0.05), WAIT)
    row = scheduler.jobs.ledger.get(channel_key())
    assert row is not None and row.status == "failed" and row.lease_until == clock.now  # claimable at once
    successor = Ledger(filled_sqlite, owner="B", clock=clock).claim(channel_key(), NOW)
    assert successor is not None and successor.takeover


async def test_stop_lets_a_fan_out_finish_its_targets_in_flight_and_start_no_more(filled_sqlite: Store,
                                                                                 settings: Settings) -> None:
    users = [f"U{n:02d}" for n in range(30)]
    add_subscribers(filled_sqlite, users)
    fake = FakeMessenger()
    fake.gate = asyncio.Event()
    clock = Clock(NOW + timedelta(minutes=1))
    jobs = make_jobs(filled_sqlite, settings, fake, clock)
    jobs.options = JobOptions(fanout=FanoutOptions(concurrency=4))
    slot = asyncio.create_task(jobs.send_slot("11:05", "Asia/Shanghai"))
    await asyncio.wait_for(fake.entered.wait(), WAIT)
    jobs.stopping.set()
    fake.gate.set()
    result = await asyncio.wait_for(slot, WAIT)
    assert result.sent == len(fake.accepted) == 4  # the four in flight finished
    assert result.stopped == len(users) - result.sent
    # The rest is left for the next start (no ledger rows: the catch-up finds them due).
    assert len(jobs.ledger.outlook(NOW - timedelta(days=1), kind_prefix="dm:")) == result.sent


# --- reconciliation and status ---


async def test_refresh_follows_settings_written_by_another_process(filled_sqlite: Store,
                                                                   settings: Settings) -> None:
    store = filled_sqlite
    elsewhere = ChatState(Store.open(store.engine.url.render_as_string(hide_password=False)))  # the web process

    async def sync(repo: str) -> None:
        return None

    settings = with_access(settings, ["x/*"])
    scheduler = DigestScheduler(DigestService(store, settings), {"slack": FakeMessenger()},
                                sync=sync, sync_on_start=False,
                                clock=Clock(NOW - timedelta(hours=8)))
    async with scheduler:
        assert scheduler.job_ids() == ["refresh", "sync:o/r"]
        elsewhere.save_channel(ChannelSettings("slack", "C1", repo="o/r", post_time="11:05",
                                               timezone="Asia/Shanghai"))
        elsewhere.subscribe("slack", "U1", "rocm", repo="x/y", post_time="08:00", timezone="UTC", locale="en")
        report = await scheduler.refresh()
        assert sorted(report.added) == ["channel:slack:C1", "dm:08:00:UTC", "sync:x/y"]
        fire = scheduler.next_run("channel:slack:C1")
        assert fire is not None and fire.astimezone(SHANGHAI).strftime("%H:%M") == "11:05"
        assert timedelta(0) < fire - datetime.now(UTC) <= timedelta(days=1)
        elsewhere.save_channel(ChannelSettings("slack", "C1", repo="o/r", post_time="09:30",
                                               timezone="Europe/Berlin"))
        assert (await scheduler.refresh()).changed == ["channel:slack:C1"]
        assert scheduler.next_run("channel:slack:C1").astimezone(BERLIN).strftime("%H:%M") == "09:30"  # type: ignore[union-attr]
        assert (await scheduler.refresh()).changed == []  # nothing changed: nothing rescheduled
        elsewhere.mark_channel("slack", "C1", "channel_not_found")
        elsewhere.unsubscribe("slack", "U1", None)
        report = await scheduler.refresh()
        assert sorted(report.removed) == ["channel:slack:C1", "dm:08:00:UTC", "sync:x/y"]
        assert scheduler.job_ids() == ["refresh", "sync:o/r"]
    assert scheduler.job_ids() == []


async def test_status_reports_syncs_posts_and_pending_deliveries(filled_sqlite: Store, settings: Settings) -> None:
    store = filled_sqlite
    add_channel(store, "C1")
    clock = Clock(NOW + timedelta(seconds=5))
    jobs = make_jobs(store, settings, FakeMessenger(), clock)
    assert await jobs.post_channel("slack", "C1") == SENT
    stuck = jobs.ledger.claim(channel_key("C9"), NOW)
    assert stuck is not None
    clock.now += LEASE + timedelta(seconds=1)
    status = delivery_status(store, settings, ledger=jobs.ledger, now=clock.now)
    assert set(status["last_sync"]) == {"o/r"} and status["last_sync"]["o/r"] is not None
    assert status["last_post"] == {"slack:C1": "2025-06-02T03:05:05Z"}
    assert status["pending_count"] == 1
    assert status["pending"][0]["target"] == "C9" and status["pending"][0]["lease_expired"] is True
    assert status["llm"] == {"enabled": False}
    with_llm = settings.model_copy(update={"llm_base_url": "http://user:secret@gpu:8000/v1", "llm_model": "m",
                                           "llm_api_key": "sk-secret"})
    shown = delivery_status(store, with_llm, ledger=jobs.ledger, now=clock.now)["llm"]
    assert shown == {"enabled": True, "model": "m", "base_url": "http://gpu:8000/v1",  # no credentials
                     "last_analysis": []}  # none yet (tests/test_analysis_grounded.py fills it)
    scheduler = DigestScheduler(DigestService(store, settings), {"slack": FakeMessenger()}, clock=clock, jobs=jobs)
    async with scheduler:
        full = await scheduler.status()
    assert full["scheduler"]["running"] is True and "channel:slack:C1" in full["scheduler"]["jobs"]


# --- mutes ---


def add_cuda(store: Store, end: datetime = NOW, *, classified_with: Settings | None = None) -> None:
    """NVIDIA items next to ``fill``'s ROCm ones; ``classified_with``: with the sync's stored topic matches."""
    payloads = [issue_payload(n, end - timedelta(hours=n - 99), title=f"[Bugfix][CUDA] fix H100 case {n}", pr=True)
                for n in range(100, 106)]
    items = [item_from_payload("o/r", p, lambda login: False) for p in payloads]
    if classified_with is not None:
        taxonomy = load_taxonomy(classified_with, "o/r", restrict=False)
        items = [classify(taxonomy, item) for item in items]
    store.save_page(items)


def header_texts(posts: Sequence[Any]) -> list[str]:
    """Headers, and the bold headings of rich text blocks (a section's name in a post)."""
    found = []
    for call in posts:
        for block in call.data.get("blocks") or []:
            if block.get("type") == "header":
                found.append(block["text"]["text"])
            for part in block.get("elements", ()) if block.get("type") == "rich_text" else ():
                found += [e["text"] for e in part["elements"] if e.get("style", {}).get("bold")]
    return found


async def test_a_scheduled_channel_digest_leaves_out_the_channels_muted_topics(filled_sqlite: Store,
                                                                               settings: Settings) -> None:
    from bot.platforms.slack_app import SlackMessenger, build_client
    from tests.fakes.slack_api import FakeSlack

    store = filled_sqlite
    add_cuda(store)
    add_channel(store, "C1", topics=("rocm", "cuda"))  # followed: their sections are in the post
    add_channel(store, "C2", topics=("rocm", "cuda"))
    mutes = Mutes(store)
    mutes.mute("slack", "channel", "C1", "rocm", NOW + timedelta(days=7), "U1", now=NOW - timedelta(hours=1))
    mutes.mute("slack", "channel", "C1", "cuda", NOW - timedelta(minutes=1), "U1",  # over before the post
               now=NOW - timedelta(days=1))
    mutes.mute("slack", USER, "C2", "cuda", None, "U1", now=NOW)  # a user's mute: not a channel's
    fake = FakeSlack()
    with fake.serve() as base_url:
        messenger = SlackMessenger(build_client("xoxb-test", base_url + "/api/"))
        jobs = make_jobs(store, settings, messenger, Clock(NOW + timedelta(seconds=5)))
        assert await jobs.post_channel("slack", "C1") == SENT
        assert await jobs.post_channel("slack", "C2") == SENT
        posts = fake.of("chat.postMessage")
    muted = header_texts([call for call in posts if call.data["channel"] == "C1"])
    other = header_texts([call for call in posts if call.data["channel"] == "C2"])
    assert any("NVIDIA / CUDA" in text for text in muted)  # the other sections remain
    assert not any("AMD / ROCm" in text for text in muted)
    assert any("AMD / ROCm" in text for text in other) and any("NVIDIA / CUDA" in text for text in other)


async def test_daily_dms_leave_out_what_their_user_muted(filled_sqlite: Store, settings: Settings) -> None:
    store = filled_sqlite
    add_cuda(store, classified_with=settings)  # the ROCm items have no stored matches: matched again when filtered
    add_subscribers(store, ["U1"], query="amd")  # names rocm (an alias), which U1 muted: skipped
    add_subscribers(store, ["U2", "U3"], query="fix")  # a search over both topics
    add_subscribers(store, ["U4"], query="")  # the digest by DM
    add_subscribers(store, ["U5"], query="rocm")  # muted, but that mute is over
    mutes = Mutes(store)
    for user in ("U1", "U2", "U4"):
        mutes.mute("slack", USER, user, "rocm", None, user, now=NOW - timedelta(days=1))
    mutes.mute("slack", USER, "U5", "rocm", NOW - timedelta(hours=1), "U5", now=NOW - timedelta(days=1))
    mutes.mute("slack", "channel", "U3", "cuda", None, "U3", now=NOW)  # a channel's mute: not U3's
    fake = FakeMessenger()
    jobs = make_jobs(store, settings, fake, Clock(NOW + timedelta(seconds=5)))
    result = await jobs.send_slot("11:05", "Asia/Shanghai")
    assert (result.sent, result.skipped) == (4, 1)
    by_user = {p.target: p.answer for p in fake.accepted}
    assert "U1" not in by_user
    skipped = jobs.ledger.get(DeliveryKey("slack", "U1", "o/r", dm_kind("amd"), NOW - timedelta(days=1)))
    assert skipped is not None and skipped.status == "skipped" and skipped.last_error == "muted"
    filtered, full = by_user["U2"], by_user["U3"]
    assert isinstance(filtered, QueryResult) and isinstance(full, QueryResult)
    assert {i.number for i in full.items} >= {1, 2, 100, 101}  # both topics match "fix"
    assert {i.number for i in filtered.items} == {i.number for i in full.items if i.number >= 100}  # CUDA only
    digest = by_user["U4"]
    assert isinstance(digest, Digest)
    assert {s.id for s in digest.sections if s.id.startswith("topic:")} == {"topic:cuda"}
    expired = by_user["U5"]
    assert isinstance(expired, QueryResult) and expired.items and expired.topic == "rocm"


# --- which repositories (docs/access.md) ---


def add_subscription(store: Store, user: str, repo: str, *, post_time: str = "11:05") -> None:
    with store.engine.begin() as conn:
        conn.execute(insert(schema.subscriptions), [dict(
            platform="slack", user_id=user, query="rocm", repo=repo, post_time=post_time, timezone="Asia/Shanghai",
            locale="en", paused=None, notice_pending=False, created_at=NOW - timedelta(days=7))])


async def test_a_stored_repository_that_is_not_allowed_is_never_synced_nor_posted(
        filled_sqlite: Store, settings: Settings, caplog: pytest.LogCaptureFixture) -> None:
    store = filled_sqlite
    add_channel(store, "C1")
    add_channel(store, "C2", repo="acme/secret", post_time="09:00")  # stored before the allow-list, or by hand
    add_subscription(store, "U1", "acme/secret", post_time="08:00")
    synced: list[str] = []

    async def sync(repo: str) -> None:
        synced.append(repo)

    fake = FakeMessenger()
    scheduler = DigestScheduler(DigestService(store, settings), {"slack": fake}, sync=sync, sync_on_start=False,
                                clock=Clock(NOW - timedelta(hours=8)))
    async with scheduler:
        assert scheduler.job_ids() == ["channel:slack:C1", "refresh", "sync:o/r"]
        await scheduler.refresh()
        refusals = [r.getMessage() for r in caplog.records if "acme/secret is not an allowed" in r.getMessage()]
        assert len(refusals) == 1  # logged once, not every minute
        # Run directly, the jobs refuse too: no sync, no post, the ledger says why.
        assert await scheduler.jobs.sync_repo("acme/secret") is False
        assert await scheduler.jobs.post_channel("slack", "C2", now=NOW) == "skipped"
        assert (await scheduler.jobs.send_slot("08:00", "Asia/Shanghai", now=NOW)).total == 0
    assert synced == [] and fake.accepted == []
    planned = plan_channel(scheduler.service.channel_context("slack", "C2"), NOW)
    assert planned is not None and planned.key.repo == "acme/secret"
    row = scheduler.jobs.ledger.get(planned.key)
    assert row is not None and (row.status, row.last_error) == ("skipped", "repo_not_allowed")
    # Allowed again (a pattern added to the config): followed again.
    allowed = with_access(settings, ["acme/*"])
    scheduler = DigestScheduler(DigestService(store, allowed), {"slack": fake}, sync=sync, sync_on_start=False,
                                clock=Clock(NOW - timedelta(hours=8)))
    async with scheduler:
        assert "sync:acme/secret" in scheduler.job_ids() and "channel:slack:C2" in scheduler.job_ids()
        assert "dm:08:00:Asia/Shanghai" in scheduler.job_ids()


async def test_allow_public_checks_githubs_private_flag_before_the_first_sync(filled_sqlite: Store,
                                                                               settings: Settings) -> None:
    import httpx

    from bot.demo.fake_github import FakeGitHub
    from bot.github.factory import github_client

    store = filled_sqlite
    github = FakeGitHub(base_url="https://api.github.invalid")
    github.add_repo("acme/public", [], [])
    github.add_repo("acme/private", [], [], repo_fields={"private": True, "visibility": "private"})
    add_channel(store, "C3", repo="acme/public")
    add_channel(store, "C4", repo="acme/private")
    settings = with_access(settings, [], allow_public=True)
    service = DigestService(store, settings, github=lambda: github_client(
        settings, api_url="https://api.github.invalid", transport=httpx.MockTransport(github.handler)))
    synced: list[str] = []

    async def sync(repo: str) -> None:
        synced.append(repo)

    scheduler = DigestScheduler(service, {"slack": FakeMessenger()}, sync=sync, sync_on_start=False,
                                clock=Clock(NOW - timedelta(hours=8)))
    async with scheduler:
        assert {"sync:acme/public", "sync:acme/private"} <= set(scheduler.job_ids())  # only GitHub can tell
        assert github.requests == []  # planning asks nobody
        assert await scheduler.jobs.sync_repo("acme/private") is False
        assert await scheduler.jobs.sync_repo("acme/public") is True
        assert await scheduler.jobs.sync_repo("acme/public") is True
        assert synced == ["acme/public", "acme/public"]
        assert [r.path for r in github.requests] == ["/repos/acme/private", "/repos/acme/public"]  # once each
        report = await scheduler.refresh()
        assert sorted(report.removed) == ["channel:slack:C4", "sync:acme/private"]
