"""Fair use: the limiter's rules on a clock the test moves, the busy notice through ``Commands``, and light
commands answered while every build thread is taken by heavy work."""

from __future__ import annotations

import asyncio
import shutil
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import insert, select

from bot.app.context import ChannelContext, Context
from bot.app.limits import HeavyLimiter, LimitRules, Permit
from bot.app.notices import Busy, ChannelShown, Help, Mutes, QueryAdjusted, Subscribed, Subscriptions
from bot.app.service import Answer, DigestService
from bot.commands.grammar import Ask
from bot.commands.grammar import Help as HelpCommand
from bot.commands.handlers import Commands
from bot.model import QueryResult
from bot.settings import Settings, load_settings
from bot.store import schema
from bot.store.chat import ChannelSettings, ChatState
from bot.store.store import Store
from formatters.notices import render_notice
from formatters.safety import slack_mrkdwn
from tests.factories import fill_rocm_prs

ROOT = Path(__file__).resolve().parents[1]
NOW = datetime(2025, 12, 2, 4, 0, tzinfo=UTC)
WAIT = 30  # seconds: only a broken build would take this long; a bound so a failing test cannot hang


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def limiter(clock: Clock, **rules: int) -> HeavyLimiter:
    return HeavyLimiter(LimitRules(**rules), clock=clock)


def permit(result: Permit | Busy) -> Permit:
    assert isinstance(result, Permit), result
    return result


def busy(result: Permit | Busy) -> Busy:
    assert isinstance(result, Busy), result
    return result


# --- the rules -----------------------------------------------------------------------------------------------


def test_a_user_may_have_two_in_flight_and_a_third_waits_for_one_to_finish() -> None:
    clock = Clock()
    limits = limiter(clock)
    first, second = permit(limits.try_start("slack", "U1", "C1")), permit(limits.try_start("slack", "U1", "C1"))
    clock.now += 1
    refused = busy(limits.try_start("slack", "U1", "C1"))
    assert (refused.scope, refused.reason) == ("user", "in_flight")
    assert refused.retry_after == 4  # the first started 1 s ago and work is assumed to take 5 s
    permit(limits.try_start("slack", "U2", "C1")).release()  # someone else is not held up
    permit(limits.try_start("discord", "U1", "C1")).release()  # nor the same id on another platform
    first.release()
    first.release()  # releasing twice frees one slot, once
    third = permit(limits.try_start("slack", "U1", "C1"))
    assert isinstance(limits.try_start("slack", "U1", "C1"), Busy)
    second.release()
    third.release()


def test_the_wait_follows_how_long_heavy_work_has_been_taking() -> None:
    clock = Clock()
    limits = limiter(clock, per_user_in_flight=1)
    for _ in range(20):  # builds take 30 s each: the estimate moves towards 30 s
        with permit(limits.try_start("slack", "U1", "C1")):
            clock.now += 30
    assert 29 < limits.typical_seconds <= 30
    held = permit(limits.try_start("slack", "U1", "C1"))
    clock.now += 10
    assert 19 <= busy(limits.try_start("slack", "U1", "C1")).retry_after <= 20
    clock.now += 100  # running far longer than usual: still a short, positive wait, never 0
    assert busy(limits.try_start("slack", "U1", "C1")).retry_after == 2
    held.release()


def test_a_channel_holds_six_in_flight_whoever_asks() -> None:
    clock = Clock()
    limits = limiter(clock)
    held = [permit(limits.try_start("slack", f"U{n}", "C1")) for n in range(6)]
    refused = busy(limits.try_start("slack", "U9", "C1"))
    assert (refused.scope, refused.reason) == ("channel", "in_flight")
    permit(limits.try_start("slack", "U9", "C2")).release()  # another channel is not held up
    held.pop().release()
    permit(limits.try_start("slack", "U9", "C1")).release()
    for each in held:
        each.release()


def test_ten_a_minute_per_user_in_a_sliding_window_and_refusals_do_not_count() -> None:
    clock = Clock()
    limits = limiter(clock)
    for _ in range(10):
        permit(limits.try_start("slack", "U1", "C1")).release()
        clock.now += 3  # the n-th started at 1000 + 3n
    refused = busy(limits.try_start("slack", "U1", "C1"))
    assert (refused.scope, refused.reason) == ("user", "per_minute")
    assert refused.retry_after == 30  # the oldest (t=1000) leaves the window at 1060; now is 1030
    for _ in range(5):
        assert isinstance(limits.try_start("slack", "U1", "C1"), Busy)  # asking again does not push it back
    clock.now = 1060
    permit(limits.try_start("slack", "U1", "C1")).release()  # exactly a minute later one slot is free again
    assert isinstance(limits.try_start("slack", "U1", "C1"), Busy)  # ... and only one (t=1003 is still inside)
    clock.now = 1063
    permit(limits.try_start("slack", "U1", "C1")).release()


def test_thirty_a_minute_per_channel() -> None:
    clock = Clock()
    limits = limiter(clock)
    for n in range(30):
        permit(limits.try_start("slack", f"U{n}", "C1")).release()
    refused = busy(limits.try_start("slack", "U99", "C1"))
    assert (refused.scope, refused.reason, refused.retry_after) == ("channel", "per_minute", 60)


def test_over_two_limits_the_longer_wait_is_told() -> None:
    clock = Clock()
    limits = limiter(clock, per_user_in_flight=1, per_user_per_minute=1)
    held = permit(limits.try_start("slack", "U1", "C1"))
    clock.now += 4  # in flight: ~1 s left of the assumed 5; per minute: 56 s left
    refused = busy(limits.try_start("slack", "U1", "C1"))
    assert (refused.reason, refused.retry_after) == ("per_minute", 56)
    held.release()


def test_the_whole_bot_holds_a_bounded_number_in_flight_whoever_asks() -> None:
    # Forty people in forty channels, each within their own limits, must not hold forty year-long answers.
    clock = Clock()
    limits = limiter(clock, total_in_flight=3)
    held = [permit(limits.try_start("slack", f"U{n}", f"C{n}")) for n in range(3)]
    refused = busy(limits.try_start("discord", "U9", "C9"))
    assert (refused.scope, refused.reason) == ("bot", "in_flight")
    held.pop().release()
    permit(limits.try_start("discord", "U9", "C9")).release()
    for each in held:
        each.release()


def test_idle_users_and_channels_are_forgotten() -> None:
    clock = Clock()
    limits = limiter(clock)
    for n in range(50):
        permit(limits.try_start("slack", f"U{n}", f"C{n}")).release()
    assert limits.tracked() == 101  # each user and channel, and the whole bot
    held = permit(limits.try_start("slack", "U1", "C1"))
    clock.now += 61
    permit(limits.try_start("slack", "U2", "C2")).release()
    assert limits.tracked() == 5  # U1, C1 and the bot still have work in flight; U2 and C2 just started one
    held.release()


def test_limits_come_from_the_chat_settings(tmp_path: Path) -> None:
    (tmp_path / "digest.toml").write_text("[chat]\nbuild_threads = 3\nheavy_in_flight_per_user = 1\n"
                                          "heavy_in_flight_per_channel = 4\nheavy_per_minute_per_user = 5\n"
                                          "heavy_per_minute_per_channel = 7\n")
    settings = load_settings(tmp_path, env={})
    assert LimitRules.of(settings.file.chat) == LimitRules(1, 4, 5, 7)
    with Store.open(f"sqlite:///{tmp_path / 's.sqlite3'}") as store:
        service = DigestService(store, settings)
        assert service.build_threads == 3
        assert Commands(service).limiter.rules == LimitRules(1, 4, 5, 7)
        service.close()


# --- through Commands ----------------------------------------------------------------------------------------


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    shutil.copy(ROOT / "config" / "topics.toml", tmp_path)
    (tmp_path / "digest.toml").write_text('[[repos]]\nname = "o/r"\n')
    return load_settings(tmp_path, env={})


@pytest.fixture
def filled(sqlite_store: Store) -> Store:
    return fill_rocm_prs(sqlite_store, NOW)


def ctx(user: str = "U1", channel: str = "C1") -> Context:
    return Context(platform="slack", channel_id=channel, user_id=user, now=NOW)


async def test_over_the_limit_a_user_is_told_to_wait_in_their_language(filled: Store, settings: Settings) -> None:
    clock = Clock()
    service = DigestService(filled, settings)
    commands = Commands(service, limiter=limiter(clock, per_user_per_minute=2))
    try:
        for _ in range(2):
            assert isinstance((await commands.handle(ctx(), "rocm 3d")).answer, QueryResult)
        clock.now += 20
        refused = await commands.handle(ctx(), "post")
        assert refused.answer is None and not refused.post
        assert refused.notice == Busy("user", "per_minute", 40)
        assert "try again in 40 s" in render_notice(refused.notice, locale="en", escape=slack_mrkdwn)
        assert "40 秒后再试" in render_notice(refused.notice, locale="zh-CN", escape=slack_mrkdwn)
        assert isinstance((await commands.handle(ctx(user="U2"), "rocm 3d")).answer, QueryResult)
        assert isinstance((await commands.handle(ctx(), "help")).notice, Help)  # light commands are not limited
        clock.now += 40
        assert isinstance((await commands.handle(ctx(), "rocm 3d")).answer, QueryResult)
    finally:
        service.close()


class HeldBuilds(DigestService):
    """The real service whose answers wait, inside the build pool, until the test lets them finish."""

    def __init__(self, store: Store, settings: Settings, *, threads: int = 1) -> None:
        super().__init__(store, settings, build_threads=threads, build_processes=0)  # held in this process
        self.release = threading.Event()
        self.started = threading.Semaphore(0)

    def answer_noted(self, context: ChannelContext, text: str, *, now: datetime,
                     analyse: bool = True) -> tuple[Answer, tuple[QueryAdjusted, ...]]:
        self.started.release()
        if not self.release.wait(WAIT):
            raise TimeoutError("the test never released the build")
        return super().answer_noted(context, text, now=now, analyse=analyse)


async def started(service: HeldBuilds) -> None:
    assert await asyncio.to_thread(service.started.acquire, True, WAIT), "the build never started"


async def test_light_commands_are_answered_while_every_build_thread_is_busy(filled: Store,
                                                                            settings: Settings) -> None:
    service = HeldBuilds(filled, settings)
    commands = Commands(service)
    try:
        heavy = [asyncio.create_task(commands.handle(ctx(user="U1"), "rocm 3d")),
                 asyncio.create_task(commands.handle(ctx(user="U2"), ""))]
        await started(service)  # the one build thread is held; the second answer queues behind it
        # Each of these needs the store (settings, subscriptions, mutes): none may wait for the build pool.
        answered = await asyncio.wait_for(asyncio.gather(
            commands.handle(ctx(user="U3"), "help"),
            commands.handle(ctx(user="U3"), "subscribe rocm at 09:00"),
            commands.handle(ctx(user="U3"), "subscriptions"),
            commands.handle(ctx(user="U3"), "channel"),
            commands.handle(ctx(user="U3"), "mute"),
        ), WAIT)
        assert [type(reply.notice) for reply in answered] == [Help, Subscribed, Subscriptions, ChannelShown, Mutes]
        assert not any(task.done() for task in heavy)  # they really were in flight all along
        service.release.set()
        first, second = await asyncio.wait_for(asyncio.gather(*heavy), WAIT)
        assert isinstance(first.answer, QueryResult) and second.answer is not None
    finally:
        service.release.set()
        service.close()


async def test_a_third_heavy_request_in_flight_is_refused_not_queued(filled: Store, settings: Settings) -> None:
    service = HeldBuilds(filled, settings, threads=2)
    commands = Commands(service)
    try:
        heavy = [asyncio.create_task(commands.handle(ctx(), "rocm 3d")) for _ in range(2)]
        await started(service)
        await started(service)  # both admitted and building: the user's two slots are taken
        refused = await asyncio.wait_for(commands.handle(ctx(), "label:bug 366d"), WAIT)
        assert isinstance(refused.notice, Busy) and (refused.notice.scope, refused.notice.reason) == ("user",
                                                                                                       "in_flight")
        assert refused.notice.retry_after >= 2
        service.release.set()
        assert all(isinstance(reply.answer, QueryResult)
                   for reply in await asyncio.wait_for(asyncio.gather(*heavy), WAIT))
        assert isinstance((await commands.handle(ctx(), "rocm 3d")).answer, QueryResult)  # the slots are free again
    finally:
        service.release.set()
        service.close()


def handled_keys(store: Store) -> list[str]:
    with store.engine.connect() as conn:
        return list(conn.execute(select(schema.handled_requests.c.key)).scalars())


async def test_over_the_limit_a_request_is_refused_before_any_store_work_in_the_channels_language(
    filled: Store, settings: Settings
) -> None:
    ChatState(filled).save_channel(ChannelSettings("slack", "C1", repo="o/r", locale="zh-CN"))
    clock = Clock()
    service = DigestService(filled, settings)
    commands = Commands(service, limiter=limiter(clock, per_user_per_minute=1))
    try:
        assert service.known_locale(ctx()) == "en"  # nothing read yet: the configured language
        assert isinstance((await commands.handle_claimed(ctx(), HelpCommand(), "k-help")).notice, Help)
        first = await commands.handle_claimed(ctx(), Ask("rocm 3d"), "k-1")
        assert first is not None and isinstance(first.answer, QueryResult)
        refused = await commands.handle_claimed(ctx(), Ask("rocm 3d"), "k-2")
        assert refused is not None and isinstance(refused.notice, Busy) and refused.locale == "zh-CN"
        assert sorted(handled_keys(filled)) == ["k-1", "k-help"]  # the refusal claimed nothing
    finally:
        service.close()


async def test_a_retry_of_a_claimed_request_gives_its_permit_back(filled: Store, settings: Settings) -> None:
    clock = Clock()
    service = DigestService(filled, settings)
    commands = Commands(service, limiter=limiter(clock, per_user_in_flight=1))
    try:
        assert ChatState(filled).claim_request("k-taken")  # another process handled it
        assert await commands.handle_claimed(ctx(), Ask("rocm 3d"), "k-taken") is None
        again = await commands.handle_claimed(ctx(), Ask("rocm 3d"), "k-new")  # the one slot is free
        assert again is not None and isinstance(again.answer, QueryResult)
    finally:
        service.close()


def test_request_keys_older_than_a_day_are_dropped(filled: Store) -> None:
    with filled.engine.begin() as conn:
        old = datetime.now(UTC) - timedelta(days=2)
        conn.execute(insert(schema.handled_requests).values(key="old", created_at=old))
    chat = ChatState(filled)
    assert chat.claim_request("new") and not chat.claim_request("new")
    assert handled_keys(filled) == ["new"]
