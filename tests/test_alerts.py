"""Live alerts: the grammar, the commands, and new matching items reaching a person's DMs (and a channel) through
the real Slack client and a fake Slack on 127.0.0.1, within a minute, once, batched, muted topics respected;
items arriving by webhook (the real aiohttp route) or by poll alike."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.app.context import Context
from bot.app.notices import Alerts, AlertSet, AlertsRemoved, NotAllowed, Subscribed, Subscriptions
from bot.app.service import DigestService
from bot.commands.grammar import ChannelAlert, Subscribe, Unsubscribe, parse_command
from bot.commands.handlers import Commands
from bot.delivery.alerts import ALERT, QUIET, WAIT, AlertJobs
from bot.delivery.fanout import SENT, Backoff
from bot.delivery.jobs import DeliveryJobs, JobOptions
from bot.delivery.ledger import DeliveryKey, Ledger
from bot.github.payloads import item_from_payload
from bot.model import QueryResult
from bot.platforms.slack_app import SlackMessenger, build_client
from bot.settings import Settings
from bot.store.alerts import AlertState
from bot.store.store import Store
from bot.timeutil import utcnow
from formatters.notices import render_notice
from tests.factories import issue_payload
from tests.fakes.slack_api import FakeSlack
from tests.test_scheduler import Clock, FakeMessenger, make_settings, set_last_sync
from tests.test_webhooks import event_body, post, webhook_server

REPO = "o/r"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path)


@pytest.fixture
def service(store: Store, settings: Settings) -> Iterator[DigestService]:
    set_last_sync(store, utcnow() - timedelta(minutes=5))
    store.save_page([item_from_payload(REPO, issue_payload(1, utcnow() - timedelta(days=3)), settings.is_bot)])
    made = DigestService(store, settings, build_threads=1, build_processes=0)
    yield made
    made.close()


def ctx(*, dm: bool = True, user: str = "U1", channel: str = "D1", admin: bool = False) -> Context:
    return Context(platform="slack", channel_id=channel, user_id=user, now=utcnow(), is_dm=dm, can_manage=admin)


def arrive(store: Store, settings: Settings, number: int, title: str, *, age: timedelta = timedelta(minutes=1)) -> None:
    """An item stored as the sync stores it (a poll)."""
    store.save_page([item_from_payload(REPO, issue_payload(number, utcnow() - age, title=title), settings.is_bot)])


# --- grammar ---


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("subscribe rocm live", Subscribe("rocm", live=True)),
        ("subscribe qwen hangs live", Subscribe("qwen hangs", live=True)),
        ("subscribe live", Subscribe("live")),  # a query of one word "live": a daily DM, as before
        ("subscribe rocm at 09:00", Subscribe("rocm", at="09:00")),
        ("unsubscribe rocm live", Unsubscribe("rocm", live=True)),
        ("unsubscribe all", Unsubscribe(None)),
        ("unsubscribe rocm", Unsubscribe("rocm")),
        ("channel alert rocm", ChannelAlert("rocm")),
        ("channel alert label:bug is:issue", ChannelAlert("label:bug is:issue")),
        ("channel alert", ChannelAlert(None)),
        ("channel alert off", ChannelAlert(None, off=True)),
        ("channel alert off all", ChannelAlert(None, off=True)),
        ("channel alert off rocm", ChannelAlert("rocm", off=True)),
    ],
)
def test_live_alert_grammar_extends_the_existing_forms(text: str, command: object) -> None:
    assert parse_command(text) == command


# --- commands ---


async def test_subscribing_live_lists_and_unsubscribes(service: DigestService) -> None:
    commands = Commands(service)
    reply = await commands.handle(ctx(), "subscribe rocm live")
    assert isinstance(reply.notice, AlertSet) and reply.notice.created and reply.notice.dm
    assert reply.notice.alert.repo == REPO
    text = render_notice(reply.notice, locale="en", escape=str)
    assert "rocm" in text and "within a minute" in text
    assert "实时提醒" in render_notice(reply.notice, locale="zh-CN", escape=str)
    daily = await commands.handle(ctx(), "subscribe rocm")  # the daily DM of the same query is another thing
    assert isinstance(daily.notice, Subscribed)
    listed = await commands.handle(ctx(), "subscriptions")
    assert isinstance(listed.notice, Subscriptions) and [a.query for a in listed.notice.alerts] == ["rocm"]
    assert "Your live alerts" in render_notice(listed.notice, locale="en", escape=str)
    off = await commands.handle(ctx(), "unsubscribe rocm live")
    assert isinstance(off.notice, AlertsRemoved) and off.notice.removed == 1
    assert AlertState(service.store).of("slack", "U1", dm=True) == []
    assert len(service.chat.subscriptions("slack", "U1")) == 1  # the daily DM stays


async def test_channel_alerts_follow_the_channel_settings_permission(service: DigestService,
                                                                    settings: Settings) -> None:
    admins = settings.model_copy(update={"file": settings.file.model_copy(update={
        "chat": settings.file.chat.model_copy(update={"channel_settings": "admins"})})})
    service.settings = admins
    commands = Commands(service)
    refused = await commands.handle(ctx(dm=False, channel="C1"), "channel alert rocm")
    assert isinstance(refused.notice, NotAllowed)
    added = await commands.handle(ctx(dm=False, channel="C1", admin=True), "channel alert rocm")
    assert isinstance(added.notice, AlertSet) and not added.notice.dm
    shown = await commands.handle(ctx(dm=False, channel="C1"), "channel alert")  # anyone may look
    assert isinstance(shown.notice, Alerts) and [a.query for a in shown.notice.alerts] == ["rocm"]
    removed = await commands.handle(ctx(dm=False, channel="C1", admin=True), "channel alert off")
    assert isinstance(removed.notice, AlertsRemoved) and removed.notice.removed == 1


# --- delivery ---


def jobs_for(service: DigestService, messenger: Any) -> AlertJobs:
    return AlertJobs(DeliveryJobs(service, {"slack": messenger}))


async def test_a_webhook_arrival_reaches_the_subscriber_once_within_a_minute(service: DigestService,
                                                                             settings: Settings) -> None:
    store = service.store
    await Commands(service).handle(ctx(), "subscribe rocm live")
    fake = FakeSlack()
    with fake.serve() as base_url:
        alerts = jobs_for(service, SlackMessenger(build_client("xoxb-test", base_url + "/api/")))
        assert (await alerts.run()).total == 1  # nothing arrived yet: quiet
        assert fake.of("chat.postMessage") == []
        body = event_body("opened", issue=issue_payload(40, utcnow(), title="[ROCm] MI300X hangs on start"))
        async with webhook_server(store, settings) as client:
            assert await post(client, "issues", body) == (200, {"status": "applied"})
            # GitHub sends it again: stored once, and alerted once.
            await post(client, "issues", body)
        arrived = utcnow()
        await alerts.run()
        await alerts.run()  # the next tick: nothing new, and the message was sent already
        posts = fake.of("chat.postMessage")
        assert len(posts) == 1 and posts[0].data["channel"].startswith("D")  # a DM
        assert "MI300X hangs on start" in str(posts[0].data.get("blocks"))
        assert "🔔" in str(posts[0].data.get("blocks"))
        assert utcnow() - arrived < timedelta(minutes=1)
        sent = alerts.jobs.ledger.latest("slack", "U1", REPO, ALERT)
        assert sent is not None and sent.status == SENT
        assert sent.key.window_start <= arrived <= sent.window_end + timedelta(seconds=5)


async def test_arrivals_are_batched_at_most_one_message_a_minute(service: DigestService, settings: Settings) -> None:
    store = service.store
    await Commands(service).handle(ctx(), "subscribe rocm live")
    messenger = FakeMessenger()
    alerts = jobs_for(service, messenger)
    arrive(store, settings, 41, "[ROCm] first crash")
    await alerts.run()
    assert len(messenger.accepted) == 1
    arrive(store, settings, 42, "[ROCm] second crash")
    arrive(store, settings, 43, "[ROCm] third crash")
    group = ("slack", "U1", True, REPO)
    assert await alerts._target(group, AlertState(store).all(), utcnow(), frozenset()) == WAIT  # within the minute
    assert len(messenger.accepted) == 1
    later = utcnow() + timedelta(seconds=61)
    assert await alerts._target(group, AlertState(store).all(), later, frozenset()) == SENT
    assert len(messenger.accepted) == 2
    batch = messenger.accepted[1].answer
    assert isinstance(batch, QueryResult) and batch.alert
    assert sorted(item.number for item in batch.items) == [42, 43]  # both in one message
    assert await alerts._target(group, AlertState(store).all(), later + timedelta(seconds=70), frozenset()) == QUIET


async def test_poll_arrivals_alert_too_but_history_and_other_queries_do_not(service: DigestService,
                                                                            settings: Settings) -> None:
    store = service.store
    await Commands(service).handle(ctx(), "subscribe rocm live")
    messenger = FakeMessenger()
    alerts = jobs_for(service, messenger)
    arrive(store, settings, 50, "[ROCm] old report first seen now", age=timedelta(days=3))  # a first sync's history
    arrive(store, settings, 51, "Docs: fix a typo")  # matches no alert
    await alerts.run()
    assert messenger.accepted == []
    store.save_page([item_from_payload(REPO, issue_payload(1, utcnow() - timedelta(days=3), title="[ROCm] edited",
                                                           updated=utcnow()), settings.is_bot)])
    await alerts.run(utcnow() + timedelta(seconds=5))
    assert messenger.accepted == []  # an old item seen again is not new


async def test_a_muted_topic_keeps_its_alerts_quiet(service: DigestService, settings: Settings) -> None:
    store = service.store
    commands = Commands(service)
    await commands.handle(ctx(), "subscribe rocm live")
    await commands.handle(ctx(), "mute rocm for me")
    messenger = FakeMessenger()
    arrive(store, settings, 60, "[ROCm] crash on MI300X")
    await jobs_for(service, messenger).run()
    assert messenger.accepted == []


async def test_a_failed_batch_is_sent_again_with_the_same_items_once(service: DigestService,
                                                                    settings: Settings) -> None:
    from bot.app.messenger import DeliveryError

    store = service.store
    await Commands(service).handle(ctx(dm=False, channel="C9"), "channel alert rocm")
    messenger = FakeMessenger()
    messenger.failures = [DeliveryError("ratelimited", permanent=False)]
    clock = Clock(utcnow())
    ledger = Ledger(store, clock=clock)
    alerts = AlertJobs(DeliveryJobs(service, {"slack": messenger}, ledger=ledger, clock=clock,
                                    options=JobOptions(retry=Backoff(attempts=1))))
    arrive(store, settings, 70, "[ROCm] segfault")
    await alerts.run(utcnow())
    first = ledger.latest("slack", "C9", REPO, ALERT)
    assert messenger.accepted == [] and first is not None and first.status == "failed"
    arrive(store, settings, 71, "[ROCm] another one, after the failed batch")
    group = ("slack", "C9", False, REPO)
    assert await alerts._target(group, AlertState(store).all(), utcnow(), frozenset()) == WAIT  # retry not due
    clock.now = utcnow() + timedelta(minutes=6)  # the ledger's retry is due
    assert await alerts._target(group, AlertState(store).all(), clock.now, frozenset()) == SENT
    again = alerts.jobs.ledger.get(DeliveryKey("slack", "C9", REPO, ALERT, first.key.window_start))
    assert again is not None and again.status == SENT
    sent = messenger.accepted[0].answer
    assert isinstance(sent, QueryResult) and [item.number for item in sent.items] == [70]  # the same batch
    assert not messenger.accepted[0].dm


async def test_a_batch_due_before_the_next_tick_goes_out_when_its_minute_ends(
        service: DigestService, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    store = service.store
    await Commands(service).handle(ctx(), "subscribe rocm live")
    messenger = FakeMessenger()
    # Scaled down: at most one message every 2 s, ticks every 1 s.
    alerts = AlertJobs(DeliveryJobs(service, {"slack": messenger}), tick_seconds=1.0, every=timedelta(seconds=2))
    arrive(store, settings, 80, "[ROCm] first")
    await alerts.run()
    first = alerts.jobs.ledger.latest("slack", "U1", REPO, ALERT)
    assert first is not None and len(messenger.accepted) == 1
    # The second item is first seen half a second into the next interval, however long the first run took on
    # a loaded machine (the store stamps what a poll saves with its clock).
    with monkeypatch.context() as clock:
        clock.setattr("bot.store.store.utcnow", lambda: first.window_end + timedelta(seconds=0.5))
        arrive(store, settings, 81, "[ROCm] second")
    group = ("slack", "U1", True, REPO)
    almost = first.window_end + timedelta(seconds=1.5)  # half a second before the 2 s are over: within a tick
    assert await alerts._target(group, AlertState(store).all(), almost, frozenset()) == SENT
    second = alerts.jobs.ledger.latest("slack", "U1", REPO, ALERT)
    assert second is not None and second.key.window_start == first.window_end
    assert second.window_end == first.window_end + timedelta(seconds=2)  # sent when the interval ended, not later
    assert [item.number for item in messenger.accepted[1].answer.items] == [81]
