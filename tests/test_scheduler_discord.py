"""The scheduler end to end with the real platform adapters: one channel digest job per platform, driven by
the real ``DigestScheduler`` into the real ``SlackMessenger`` (slack_sdk against ``FakeSlack``) and the real
``DigestBot(...).messenger`` (discord.py over REST against ``FakeDiscord``).

The windows come from an injected clock (11:05 Asia/Shanghai is 03:05 UTC); a cron firing is
``run_now(job_id)``, the very path APScheduler takes (``_run``); a restart is ``start()``'s catch-up.
Every wait is on a task or an event, bounded by ``WAIT``; assertions are on what arrived at the fakes.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update

from bot.app.service import DigestService
from bot.delivery.fanout import BUSY, SENT, SKIPPED, Backoff
from bot.delivery.jobs import CHANNEL, JobOptions
from bot.delivery.ledger import DeliveryKey, Ledger
from bot.model import Digest
from bot.platforms.discord_app import DigestBot
from bot.platforms.slack_app import SlackMessenger, build_client
from bot.scheduler import DigestScheduler
from bot.settings import Settings
from bot.store import schema
from bot.store.chat import ChannelSettings, ChatState
from bot.store.store import Store
from formatters.discord_embeds import render_discord_digest
from formatters.slack_blocks import render_slack_digest
from tests.fakes.discord_api import CHANNEL_ID, FakeDiscord, text_channel
from tests.fakes.slack_api import FakeSlack
from tests.test_discord_app import texts
from tests.test_scheduler import NOW, SHANGHAI, WAIT, Clock, fill, make_settings

SLACK_CHANNEL = "C1"
DISCORD_CHANNEL = str(CHANNEL_ID)  # a text channel in the fake's server
GONE = "1100000000000000060"  # a Discord channel deleted after it was configured
SLACK_JOB = f"channel:slack:{SLACK_CHANNEL}"
DISCORD_JOB = f"channel:discord:{DISCORD_CHANNEL}"
GONE_JOB = f"channel:discord:{GONE}"
GET_CHANNEL = "GET /channels/{channel_id}"
MESSAGES = "POST /channels/{channel_id}/messages"
THREADS = "POST /channels/{channel_id}/messages/{message_id}/threads"
WINDOW_START = NOW - timedelta(days=1)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path)  # Asia/Shanghai, 11:05, repo o/r


def add_channel(store: Store, platform: str, channel_id: str, *, post_time: str = "11:05") -> None:
    """A channel configured a week before the post times looked at (so its first post is not the next one)."""
    ChatState(store).save_channel(ChannelSettings(platform, channel_id, repo="o/r", post_time=post_time,
                                                  timezone="Asia/Shanghai"))
    c = schema.channels.c
    with store.engine.begin() as conn:
        conn.execute(update(schema.channels).where(c.platform == platform, c.channel_id == channel_id)
                     .values(updated_at=NOW - timedelta(days=7)))


def key(platform: str, channel_id: str, window_start: datetime = WINDOW_START) -> DeliveryKey:
    return DeliveryKey(platform, channel_id, "o/r", CHANNEL, window_start)


@asynccontextmanager
async def discord_bot(fake: FakeDiscord, store: Store, settings: Settings) -> AsyncIterator[DigestBot]:
    """What a scheduler-only worker runs: REST login, no gateway, no command sync."""
    async with DigestBot(DigestService(store, settings), api_url=fake.api_url, gateway_url=fake.gateway_url,
                         sync_commands=False) as bot:
        await bot.login("fake-token")
        yield bot


def slack_messenger(base_url: str, store: Store) -> SlackMessenger:
    return SlackMessenger(build_client("xoxb-test", base_url + "/api/"))


async def fire(scheduler: DigestScheduler, *job_ids: str) -> dict[str, object]:
    """The cron triggers of ``job_ids`` fire together; returns each run's outcome once all finished."""
    await asyncio.wait_for(asyncio.gather(*(scheduler.run_now(job_id) for job_id in job_ids)), WAIT)
    return {job_id: scheduler.last_results.get(job_id) for job_id in job_ids}


def expected_digest(store: Store, settings: Settings, platform: str, channel_id: str) -> Digest:
    """The digest the job must build: the channel's window ending at 11:05 Shanghai on the day of ``NOW``."""
    service = DigestService(store, settings)
    digest = service.answer_now(service.channel_context(platform, channel_id), "", now=NOW)
    assert isinstance(digest, Digest)
    assert (digest.window.start, digest.window.end) == (WINDOW_START, NOW)
    return digest


def blocks(payload: dict[str, Any]) -> str:
    return json.dumps(payload.get("blocks"), sort_keys=True)


# --- exactly once, on both platforms ---


async def test_a_channel_digest_reaches_slack_and_discord_exactly_once(store: Store, settings: Settings) -> None:
    """The 11:05 Asia/Shanghai job of a Slack channel and of a Discord channel: headline in the channel,
    sections in its thread, once; a second firing and a second scheduler instance on the same database
    (another worker, a restart) send nothing more."""
    fill(store)
    add_channel(store, "slack", SLACK_CHANNEL)
    add_channel(store, "discord", DISCORD_CHANNEL)
    clock = Clock(NOW - timedelta(seconds=10))  # 11:04:50 in Shanghai: yesterday's post is long past
    slack = FakeSlack()
    with slack.serve() as slack_url:
        async with FakeDiscord() as discord_api:
            async with discord_bot(discord_api, store, settings) as bot:
                scheduler = DigestScheduler(DigestService(store, settings),
                                            {"slack": slack_messenger(slack_url, store), "discord": bot.messenger},
                                            clock=clock, ledger=Ledger(store, owner="A", clock=clock))
                async with scheduler:
                    assert scheduler.last_results["refresh"].caught_up == []  # type: ignore[attr-defined]
                    assert {SLACK_JOB, DISCORD_JOB} <= set(scheduler.job_ids())
                    for job_id in (SLACK_JOB, DISCORD_JOB):  # the real daily trigger: 11:05 local time
                        fire_at = scheduler.next_run(job_id)
                        assert fire_at is not None and fire_at.astimezone(SHANGHAI).strftime("%H:%M") == "11:05"
                    assert slack.of("chat.postMessage", ok_only=False) == []
                    assert discord_api.calls(GET_CHANNEL, ok=None) == []  # only the login so far

                    clock.now = NOW + timedelta(seconds=20)  # the triggers fire just after 11:05
                    assert await fire(scheduler, SLACK_JOB, DISCORD_JOB) == {SLACK_JOB: SENT, DISCORD_JOB: SENT}
                    slack_calls, discord_requests = len(slack.calls), len(discord_api.requests)

                    clock.now = NOW + timedelta(hours=2)  # fired again (a DST repeat, a manual rerun): same window
                    assert await fire(scheduler, SLACK_JOB, DISCORD_JOB) == {SLACK_JOB: BUSY, DISCORD_JOB: BUSY}
                    assert (len(slack.calls), len(discord_api.requests)) == (slack_calls, discord_requests)
                    assert scheduler.running

            # A second instance on the same database, through its own engine and its own clients.
            other = Store.open(store.engine.url.render_as_string(hide_password=False))
            try:
                async with discord_bot(discord_api, other, settings) as bot_b:
                    clock_b = Clock(NOW + timedelta(minutes=1))
                    messengers = {"slack": slack_messenger(slack_url, other), "discord": bot_b.messenger}
                    second = DigestScheduler(DigestService(other, settings), messengers,
                                             clock=clock_b, ledger=Ledger(other, owner="B", clock=clock_b))
                    logged_in = len(discord_api.requests)
                    async with second:  # its start-up catch-up finds both posts in the ledger
                        assert second.last_results["refresh"].caught_up == []  # type: ignore[attr-defined]
                        assert await fire(second, SLACK_JOB, DISCORD_JOB) == {SLACK_JOB: BUSY, DISCORD_JOB: BUSY}
                    assert len(slack.calls) == slack_calls
                    assert discord_api.requests[logged_in:] == []  # the ledger answered before any platform call
                    assert not [r for r in discord_api.requests[discord_requests:] if "channel_id" in r.params]
            finally:
                other.close()
        posts = slack.of("chat.postMessage", ok_only=False)

    ledger = Ledger(store)
    slack_row, discord_row = ledger.get(key("slack", SLACK_CHANNEL)), ledger.get(key("discord", DISCORD_CHANNEL))
    assert slack_row is not None and slack_row.status == SENT and slack_row.claimed_by == "A"
    assert discord_row is not None and discord_row.status == SENT and discord_row.claimed_by == "A"

    # Slack: the headline in the channel, every other part in its thread, each payload once, in order.
    expected = render_slack_digest(expected_digest(store, settings, "slack", SLACK_CHANNEL), locale="en",
                                   timezone="Asia/Shanghai")
    assert len(expected) >= 2
    assert all(call.status == 200 and call.data["channel"] == SLACK_CHANNEL for call in posts)
    assert [blocks(call.data) for call in posts] == [blocks(payload) for payload in expected]
    assert [call.data["text"] for call in posts] == [payload["text"] for payload in expected]
    headline_ts = slack_row.message_ids[0]
    assert not posts[0].data.get("thread_ts")
    assert [call.data.get("thread_ts") for call in posts[1:]] == [headline_ts] * (len(posts) - 1)
    assert len(slack_row.message_ids) == len(posts)

    # Discord: the headline in the channel, a thread started on it, the sections in that thread, once.
    expected_discord = render_discord_digest(expected_digest(store, settings, "discord", DISCORD_CHANNEL),
                                             locale="en", timezone="Asia/Shanghai")
    assert len(expected_discord) >= 2
    headline_id = discord_row.message_ids[0]
    (headline,) = discord_api.posted(DISCORD_CHANNEL)
    (thread,) = discord_api.calls(THREADS, ok=None)
    assert thread.ok and thread.params == {"channel_id": DISCORD_CHANNEL, "message_id": headline_id}
    in_thread = discord_api.posted(headline_id)  # a thread's id is its starter message's id
    assert [texts(body) for body in [headline, *in_thread]] == [texts(message) for message in expected_discord]
    assert all(body["allowed_mentions"] == {"parse": []} for body in [headline, *in_thread])
    assert list(discord_row.message_ids) == list(discord_api.messages)  # every message Discord has, recorded
    assert len(discord_api.calls(MESSAGES, ok=None)) == len(expected_discord)  # nothing refused, nothing doubled
    assert len(discord_api.calls(GET_CHANNEL, ok=None)) == 1


# --- a deleted Discord channel ---


@pytest.mark.parametrize("deleted", ["before_the_post", "while_posting"])
async def test_a_deleted_discord_channel_is_marked_and_the_scheduler_keeps_posting(
    store: Store, settings: Settings, deleted: str
) -> None:
    """Discord answers 404/10003 for a channel due at 11:05 (at the channel lookup, or at the headline):
    the channel is marked, its delivery is final (no retry, no further request), its job goes away at the
    next refresh, and the 11:10 job of another channel still posts."""
    fill(store)
    add_channel(store, "discord", GONE, post_time="11:05")
    add_channel(store, "discord", DISCORD_CHANNEL, post_time="11:10")
    clock = Clock(NOW + timedelta(seconds=30))  # 11:05:30: the worker (re)starts just after GONE's post time
    async with FakeDiscord() as discord_api:
        if deleted == "while_posting":  # it still resolves, then the message is refused
            discord_api.channels[GONE] = text_channel(int(GONE), name="old")
            discord_api.fail(MESSAGES, 404, 10003, message="Unknown Channel", times=10,
                             when=lambda request: request.params["channel_id"] == GONE)
        async with discord_bot(discord_api, store, settings) as bot:
            scheduler = DigestScheduler(DigestService(store, settings), {"discord": bot.messenger}, clock=clock,
                                        ledger=Ledger(store, owner="A", clock=clock))
            async with scheduler:
                assert scheduler.last_results["refresh"].caught_up == [GONE_JOB]  # type: ignore[attr-defined]
                await asyncio.wait_for(scheduler.drain(), WAIT)
                assert scheduler.last_results[GONE_JOB] == SKIPPED  # not an exception: the run ended cleanly
                assert scheduler.running and "refresh" in scheduler.job_ids()

                marked = ChatState(store).channel("discord", GONE)
                assert marked is not None and (marked.status, marked.enabled) == ("unknown_channel", False)
                row = scheduler.jobs.ledger.get(key("discord", GONE))
                assert row is not None and (row.status, row.last_error) == ("skipped", "unknown_channel")
                to_gone = [r for r in discord_api.requests if r.params.get("channel_id") == GONE]
                refused = [r for r in to_gone if not r.ok]
                assert len(refused) == 1 and refused[0].status == 404  # one try: permanent errors are not retried
                assert refused[0].route == (GET_CHANNEL if deleted == "before_the_post" else MESSAGES)
                assert discord_api.messages == {}

                clock.now = NOW + timedelta(minutes=5, seconds=30)  # 11:10:30
                report = await scheduler.refresh()  # the every-minute reconcile
                assert report.removed == [GONE_JOB] and report.caught_up == [DISCORD_JOB]
                await asyncio.wait_for(scheduler.drain(), WAIT)
                assert scheduler.last_results[DISCORD_JOB] == SENT
                assert GONE_JOB not in scheduler.job_ids() and DISCORD_JOB in scheduler.job_ids()

                assert await fire(scheduler, GONE_JOB) == {GONE_JOB: None}  # a stale firing does nothing
                clock.now = NOW + timedelta(days=1, seconds=30)  # the next day: still skipped, never retried
                assert (await scheduler.refresh()).caught_up == []
                assert GONE_JOB not in scheduler.job_ids()

    assert [r for r in discord_api.requests if r.params.get("channel_id") == GONE] == to_gone
    (_headline,) = discord_api.posted(DISCORD_CHANNEL)
    (thread,) = discord_api.calls(THREADS)
    assert thread.params["channel_id"] == DISCORD_CHANNEL
    live = scheduler.jobs.ledger.get(key("discord", DISCORD_CHANNEL, NOW + timedelta(minutes=5) - timedelta(days=1)))
    assert live is not None and live.status == SENT
    assert list(live.message_ids) == list(discord_api.messages)
    assert thread.params["message_id"] == live.message_ids[0]
    assert len(discord_api.posted(live.message_ids[0])) == len(live.message_ids) - 1 >= 1


# --- resuming inside the thread ---


async def test_a_transient_error_in_the_thread_does_not_post_the_discord_digest_twice(sqlite_store: Store,
                                                                                      settings: Settings) -> None:
    """One refused section (400/50035: not permanent) after the headline and thread were made: the job's retry
    should finish the thread it started, not post a second headline with a second thread."""
    fill(sqlite_store)
    add_channel(sqlite_store, "discord", DISCORD_CHANNEL)
    clock = Clock(NOW - timedelta(seconds=10))
    async with FakeDiscord() as discord_api:
        discord_api.fail(MESSAGES, 400, 50035, message="Invalid Form Body",
                         when=lambda request: request.params["channel_id"] != DISCORD_CHANNEL)  # in the thread
        async with discord_bot(discord_api, sqlite_store, settings) as bot:
            scheduler = DigestScheduler(DigestService(sqlite_store, settings), {"discord": bot.messenger}, clock=clock,
                                        ledger=Ledger(sqlite_store, owner="A", clock=clock),
                                        options=JobOptions(retry=Backoff(base=0.01)))
            async with scheduler:
                clock.now = NOW + timedelta(seconds=20)
                assert await fire(scheduler, DISCORD_JOB) == {DISCORD_JOB: SENT}
    assert len(discord_api.posted(DISCORD_CHANNEL)) == 1  # one headline
    assert len(discord_api.calls(THREADS)) == 1  # one thread, completed by the retry
