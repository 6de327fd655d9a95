"""A user whose DMs refuse the bot (Slack ``cannot_dm_bot`` / ``messages_tab_disabled``, Discord 50007 "Cannot
send messages to this user"): the first refusal pauses that user's daily DMs and live alerts, nothing is retried
(not within the run, not by the ledger, not batch after batch), ``digest-bot status`` shows it, and the user is
told once at their next command. Through the real Slack client against the fake Slack, and discord.py against
the fake Discord."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.app.context import Context
from bot.app.notices import Paused, Subscriptions
from bot.app.service import DigestService
from bot.commands.handlers import Commands
from bot.delivery.alerts import AlertJobs
from bot.delivery.jobs import DeliveryJobs
from bot.github.payloads import item_from_payload
from bot.platforms.discord_app import DigestBot
from bot.platforms.slack_app import SlackMessenger, build_client
from bot.scheduler import delivery_status
from bot.settings import Settings
from bot.store.alerts import AlertState
from bot.store.store import Store
from bot.timeutil import utcnow
from formatters.notices import render_notice
from tests.factories import issue_payload, slot_before
from tests.fakes.discord_api import CHANNEL_ID, USER_ID, FakeDiscord
from tests.fakes.slack_api import FakeSlack
from tests.test_scheduler import make_settings, set_last_sync

REPO = "o/r"
DM_SLOT = slot_before(utcnow() - timedelta(hours=4))  # the daily DMs' time: their window holds the test's items
DM_MESSAGES = "POST /channels/{channel_id}/messages"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path)


@pytest.fixture
def service(store: Store, settings: Settings) -> Iterator[DigestService]:
    set_last_sync(store, utcnow() - timedelta(minutes=5))
    arrive(store, settings, 1, "[ROCm] MI300X hangs at start", age=timedelta(hours=3))
    made = DigestService(store, settings, build_threads=1, build_processes=0)
    yield made
    made.close()


def arrive(store: Store, settings: Settings, number: int, title: str, *, age: timedelta = timedelta(minutes=1)) -> None:
    store.save_page([item_from_payload(REPO, issue_payload(number, utcnow() - age, title=title), settings.is_bot)])


def ctx(platform: str = "slack", user: str = "U1", channel: str = "D1") -> Context:
    return Context(platform=platform, channel_id=channel, user_id=user, now=utcnow(), is_dm=channel.startswith("D"))


def dm_posts(fake: FakeSlack, user: str = "U1") -> int:
    """chat.postMessage calls made to the user's DM, answered or refused."""
    return sum(1 for call in fake.of("chat.postMessage", ok_only=False) if call.data.get("channel") == "D" + user)


@pytest.mark.parametrize("error", ["messages_tab_disabled", "cannot_dm_bot"])
async def test_slack_refusing_a_users_dms_pauses_their_digests_and_alerts_once(
        service: DigestService, settings: Settings, error: str) -> None:
    store = service.store
    commands = Commands(service)
    await commands.handle(ctx(), f"subscribe rocm at {DM_SLOT} tz UTC")
    await commands.handle(ctx(), "subscribe rocm live")
    fake = FakeSlack()
    fake.fail("chat.postMessage", error, times=1000)  # every DM, for as long as the test runs
    with fake.serve() as base_url:
        messenger = SlackMessenger(build_client("xoxb-test", base_url + "/api/"))
        jobs = DeliveryJobs(service, {"slack": messenger})
        alerts = AlertJobs(jobs)

        # The daily DM: one try, refused, skipped (never "failed": the ledger would retry it), paused.
        result = await jobs.send_slot(DM_SLOT, "UTC", now=utcnow() + timedelta(days=1))
        assert (result.sent, result.skipped, result.failed) == (0, 1, 0)
        assert dm_posts(fake) == 1
        (subscription,) = service.chat.subscriptions("slack", "U1")
        assert subscription.paused == error
        (alert,) = AlertState(store).of("slack", "U1", dm=True)
        assert alert.paused == error  # the live alert of the same user too: their DMs are what is closed

        # New matching items arrive, tick after tick, and tomorrow comes: nothing more is tried.
        arrive(store, settings, 50, "[ROCm] segfault in the MI300X kernel")
        await alerts.run()
        arrive(store, settings, 51, "[ROCm] another hang on MI300X")
        await alerts.run(utcnow() + timedelta(minutes=2))
        assert (await jobs.send_slot(DM_SLOT, "UTC", now=utcnow() + timedelta(days=2))).total == 0
        assert dm_posts(fake) == 1

    # digest-bot status shows who is paused and why, and whether they have been told.
    status = delivery_status(store, settings)
    assert status["paused_dms_count"] == 2
    assert {(row["kind"], row["query"], row["reason"], row["told"]) for row in status["paused_dms"]} == {
        ("daily", "rocm", error, False), ("live", "rocm", error, False)}
    assert not status["pending"]  # nothing left for the ledger to retry

    # The user hears it at their next command, once, in their language, with what to do.
    reply = await commands.handle(ctx(channel="C1"), "help")
    assert reply.notes == (Paused(error),)
    text = render_notice(Paused(error), locale="en", escape=str)
    assert error in text and "daily digests and live alerts" in text and "/digest subscribe" in text
    if error == "messages_tab_disabled":
        assert "Messages Tab" in text and "Messages Tab" in render_notice(Paused(error), locale="zh-CN", escape=str)
    assert (await commands.handle(ctx(channel="C1"), "help")).notes == ()
    assert {row["told"] for row in delivery_status(store, settings)["paused_dms"]} == {True}

    # /digest subscriptions says what is paused; subscribing again resumes exactly that one.
    listed = await commands.handle(ctx(), "subscriptions")
    assert isinstance(listed.notice, Subscriptions)
    shown = render_notice(listed.notice, locale="en", escape=str)
    assert shown.count(f"paused: {error}") == 2
    await commands.handle(ctx(), "subscribe rocm live")
    assert AlertState(store).of("slack", "U1", dm=True)[0].paused is None
    assert service.chat.subscriptions("slack", "U1")[0].paused == error
    assert delivery_status(store, settings)["paused_dms_count"] == 1


async def test_a_slack_alert_only_user_is_paused_after_one_refused_batch(service: DigestService,
                                                                        settings: Settings) -> None:
    store = service.store
    await Commands(service).handle(ctx(user="U7", channel="D7"), "subscribe rocm live")
    fake = FakeSlack()
    fake.fail("conversations.open", "cannot_dm_bot", times=1000)
    with fake.serve() as base_url:
        alerts = AlertJobs(DeliveryJobs(service, {"slack": SlackMessenger(build_client("xoxb-test",
                                                                                       base_url + "/api/"))}))
        arrive(store, settings, 60, "[ROCm] crash on MI300X")
        assert (await alerts.run()).skipped == 1
        for n in range(61, 64):  # more arrivals, later ticks
            arrive(store, settings, n, f"[ROCm] crash {n} on MI300X")
            assert (await alerts.run(utcnow() + timedelta(minutes=n - 59))).total == 0
        assert len(fake.of("conversations.open")) == 1 and dm_posts(fake, "U7") == 0
    assert AlertState(store).of("slack", "U7", dm=True)[0].paused == "cannot_dm_bot"
    reply = await Commands(service).handle(ctx(user="U7", channel="C1"), "help")
    assert reply.notes == (Paused("cannot_dm_bot"),)


async def test_discord_50007_pauses_a_users_live_alerts_and_daily_dms_once(store: Store, settings: Settings) -> None:
    set_last_sync(store, utcnow() - timedelta(minutes=5))
    async with FakeDiscord() as fake:
        fake.closed_dms.add(str(USER_ID))  # 403, 50007 "Cannot send messages to this user"
        bot = DigestBot(DigestService(store, settings, build_threads=1, build_processes=0), api_url=fake.api_url,
                        gateway_url=fake.gateway_url, sync_commands=False)
        await bot.__aenter__()
        await bot.login("fake-token")  # REST only
        try:
            service = bot.service
            commands = Commands(service)
            where = Context("discord", str(CHANNEL_ID), str(USER_ID), utcnow())
            await commands.handle(where, "subscribe rocm live")
            await commands.handle(where, f"subscribe rocm at {DM_SLOT} tz UTC")
            jobs = DeliveryJobs(service, {"discord": bot.messenger})
            alerts = AlertJobs(jobs)
            arrive(store, settings, 80, "[ROCm] MI300X hangs")
            assert (await alerts.run()).skipped == 1
            refused = len(fake.calls(DM_MESSAGES, ok=False))
            assert refused == 1  # one message refused: discord.py does not retry a 403, nor do we
            arrive(store, settings, 81, "[ROCm] MI300X hangs again")
            assert (await alerts.run(utcnow() + timedelta(minutes=2))).total == 0
            assert (await jobs.send_slot(DM_SLOT, "UTC", now=utcnow() + timedelta(days=1))).total == 0
            assert len(fake.calls(DM_MESSAGES, ok=None)) == refused
            assert AlertState(store).of("discord", str(USER_ID), dm=True)[0].paused == "dms_closed"
            assert service.chat.subscriptions("discord", str(USER_ID))[0].paused == "dms_closed"
            reply = await commands.handle(where, "help")
            assert reply.notes == (Paused("dms_closed"),)
            assert "Privacy Settings" in render_notice(Paused("dms_closed"), locale="en", escape=str,
                                                       platform="discord")
        finally:
            await bot.close()
