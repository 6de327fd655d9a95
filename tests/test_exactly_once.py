"""Exactly-once under ambiguous failures: a post the platform acted on but answered 5xx, or never answered.

The real ``SlackMessenger`` + slack_sdk client and the real ``DiscordMessenger`` + discord.py, against fakes that
post the message and then fail (``acted``) or hang until the client times out. What counts is what exists in
the fake afterwards (``posted``/``stored``), not what the client was told.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path
from typing import Any

import pytest
from slack_sdk.errors import SlackApiError

from bot.app.messenger import DeliveryError
from bot.app.service import DigestService
from bot.delivery.fanout import SENT
from bot.delivery.jobs import DeliveryJobs, post_kind
from bot.delivery.ledger import Ledger
from bot.platforms.slack_app import RetryAfterHandler, SlackMessenger, build_client
from bot.settings import Settings
from bot.store.store import Store
from bot.timeutil import parse_retry_after
from tests.fakes.slack_api import Call, FakeSlack
from tests.test_scheduler import LEASE, NOW, Clock, add_channel, channel_key, fill, make_settings

POST = "chat.postMessage"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path)


@pytest.fixture
def filled_sqlite(sqlite_store: Store) -> Store:
    return fill(sqlite_store)


def thread_part(call: Call) -> bool:
    return bool(call.data.get("thread_ts"))


@pytest.fixture
def slack() -> Iterator[tuple[FakeSlack, str]]:
    fake = FakeSlack()
    with fake.serve() as base_url:
        yield fake, base_url + "/api/"


async def no_wait(seconds: float) -> None:
    """Delivery's backoff between its own retries: not waited in tests (nothing here depends on time)."""


def jobs_for(store: Store, settings: Settings, messenger: Any, *, owner: str = "A",
             clock: Clock | None = None) -> DeliveryJobs:
    clock = clock or Clock(NOW + timedelta(seconds=5))
    ledger = Ledger(store, owner=owner, lease=LEASE, clock=clock)
    return DeliveryJobs(DigestService(store, settings), {"slack": messenger}, ledger=ledger, clock=clock,
                        sleep=no_wait)


def assert_each_part_once(fake: FakeSlack, store: Store, channel: str = "C1") -> list[dict[str, Any]]:
    posted = fake.posted(channel)
    row = Ledger(store).get(channel_key(channel))
    assert row is not None and row.status == SENT
    assert [m["ts"] for m in posted] == list(row.message_ids)  # every message that exists is recorded, once
    parts = [m["metadata"]["event_payload"]["part"] for m in posted]
    assert parts == list(range(len(posted))) and len(posted) >= 2
    assert {m["thread_ts"] for m in posted[1:]} == {posted[0]["ts"]}
    return posted


# --- Slack ---


@pytest.mark.parametrize("where", ["headline", "thread"])
async def test_slack_5xx_after_posting_is_found_not_reposted(filled_sqlite: Store, settings: Settings,
                                                             slack: tuple[FakeSlack, str], where: str) -> None:
    fake, api = slack
    add_channel(filled_sqlite)
    fake.server_error(POST, status=500, acted=True,
                      when=thread_part if where == "thread" else lambda call: not thread_part(call))
    messenger = SlackMessenger(build_client("xoxb-test", api))
    assert await jobs_for(filled_sqlite, settings, messenger).post_channel("slack", "C1") == SENT
    posted = assert_each_part_once(fake, filled_sqlite)
    assert len(fake.of(POST, ok_only=False)) == len(posted)  # the 500 was not re-sent by slack_sdk: found instead
    lookup = "conversations.replies" if where == "thread" else "conversations.history"
    [looked] = fake.of(lookup)
    assert looked.data["include_all_metadata"] in ("1", "true", True)


async def test_slack_5xx_that_did_not_post_is_posted_after_looking(filled_sqlite: Store, settings: Settings,
                                                                   slack: tuple[FakeSlack, str]) -> None:
    fake, api = slack
    add_channel(filled_sqlite)
    fake.server_error(POST, status=503, when=thread_part)  # refused before acting: nothing to find
    messenger = SlackMessenger(build_client("xoxb-test", api))
    assert await jobs_for(filled_sqlite, settings, messenger).post_channel("slack", "C1") == SENT
    posted = assert_each_part_once(fake, filled_sqlite)
    assert len(fake.of(POST, ok_only=False)) == len(posted) + 1
    assert len(fake.of("conversations.replies")) == 1


async def test_slack_timeout_after_posting_is_found_not_reposted(filled_sqlite: Store, settings: Settings,
                                                                 slack: tuple[FakeSlack, str]) -> None:
    fake, api = slack
    add_channel(filled_sqlite)
    release = fake.time_out(POST, when=thread_part)
    try:
        messenger = SlackMessenger(build_client("xoxb-test", api, timeout=1))  # the client gives up after 1 s
        assert await jobs_for(filled_sqlite, settings, messenger).post_channel("slack", "C1") == SENT
    finally:
        release.set()
    posted = assert_each_part_once(fake, filled_sqlite)
    assert len(fake.of(POST, ok_only=False)) == len(posted)
    assert len(fake.of("conversations.replies")) == 1


async def test_slack_lookup_without_history_scope_posts_again(filled_sqlite: Store, settings: Settings,
                                                              slack: tuple[FakeSlack, str]) -> None:
    """Documented degradation: without channels:history the bot cannot know, and posts (at least once)."""
    fake, api = slack
    add_channel(filled_sqlite)
    fake.server_error(POST, status=500, acted=True, when=thread_part)
    fake.fail("conversations.replies", "missing_scope")
    messenger = SlackMessenger(build_client("xoxb-test", api))
    assert await jobs_for(filled_sqlite, settings, messenger).post_channel("slack", "C1") == SENT
    assert len(fake.posted("C1")) == len(Ledger(filled_sqlite).get(channel_key()).message_ids) + 1  # type: ignore[union-attr]


async def test_idempotent_calls_keep_their_5xx_retry(slack: tuple[FakeSlack, str]) -> None:
    fake, api = slack
    fake.server_error("conversations.open", status=503)
    fake.server_error(POST, status=503)
    client = build_client("xoxb-test", api)
    assert (await client.conversations_open(users="U1"))["channel"]["id"] == "DU1"
    assert [c.status for c in fake.of("conversations.open", ok_only=False)] == [503, 200]
    with pytest.raises(SlackApiError):
        await client.chat_postMessage(channel="C1", text="hi")
    assert [c.status for c in fake.of(POST, ok_only=False)] == [503]


# --- Retry-After ---


def test_parse_retry_after_reads_what_servers_send() -> None:
    now = datetime(2025, 6, 2, 3, 5, tzinfo=UTC)
    assert parse_retry_after("7") == 7.0
    assert parse_retry_after(" 1.5 ") == 1.5
    assert parse_retry_after("-3") == 0.0
    assert parse_retry_after("86400") == 86400.0  # huge: the caller decides
    assert parse_retry_after(format_datetime(now + timedelta(seconds=30), usegmt=True), now=now) == 30.0
    assert parse_retry_after(format_datetime(now - timedelta(hours=1), usegmt=True), now=now) == 0.0
    for junk in (None, "", "soon", "nan", "inf", "1e999", "Wed, 99 Foo 2025"):
        assert parse_retry_after(junk, now=now) is None, junk


@pytest.fixture
def waits() -> list[float]:
    return []


def recording_client(api: str, waits: list[float]) -> Any:
    client = build_client("xoxb-test", api)

    async def record(seconds: float) -> None:
        waits.append(seconds)

    [handler] = [h for h in client.retry_handlers if isinstance(h, RetryAfterHandler)]
    handler.sleep = record
    return client


@pytest.mark.parametrize(("header", "wait"), [("2", 2.0), ("1.5", 1.5), ("-1", 0.0), ("soon", 1.0),
                                              ("120", None), ("Wed, 21 Oct 2015 07:28:00 GMT", 0.0)])
async def test_slack_429_with_any_retry_after_is_waited_or_handed_up(slack: tuple[FakeSlack, str],
                                                                    waits: list[float], header: str,
                                                                    wait: float | None) -> None:
    fake, api = slack
    fake.rate_limit(POST, retry_after=header)
    client = recording_client(api, waits)
    if wait is None:  # longer than a client should sit on: delivery gets the 429 and retries later
        with pytest.raises(SlackApiError) as raised:
            await client.chat_postMessage(channel="C1", text="hi")
        assert raised.value.response["error"] == "ratelimited" and waits == []
        return
    assert (await client.chat_postMessage(channel="C1", text="hi"))["ok"]
    assert len(waits) == 1 and wait <= waits[0] < wait + 1  # plus up to 1 s of jitter, as slack_sdk does


async def test_a_long_429_storm_reaches_delivery_as_transient(slack: tuple[FakeSlack, str],
                                                             waits: list[float]) -> None:
    fake, api = slack
    fake.rate_limit(POST, retry_after="0", times=100)
    with pytest.raises(SlackApiError):
        await recording_client(api, waits).chat_postMessage(channel="C1", text="hi")
    assert len(waits) == 5  # the handler's retries, then the 429 is the caller's


# --- /digest post through the ledger ---


async def test_a_429_storm_during_digest_post_then_the_same_post_resumes_in_the_thread(
        filled_sqlite: Store, settings: Settings, slack: tuple[FakeSlack, str], waits: list[float]) -> None:
    fake, api = slack
    add_channel(filled_sqlite)
    service = DigestService(filled_sqlite, settings)
    answer = service.answer_now(service.channel_context("slack", "C1"), "", now=NOW)
    messenger = SlackMessenger(recording_client(api, waits))
    # Longer than slack_sdk's 5 retries times delivery's 4 tries: the thread parts never get through.
    fake.rate_limit(POST, retry_after="0", times=10_000, when=thread_part)
    with pytest.raises(DeliveryError) as failed:
        await jobs_for(filled_sqlite, settings, messenger).post("slack", "C1", answer, locale="en", timezone="UTC")
    assert failed.value.reason == "ratelimited" and not failed.value.permanent
    [row] = Ledger(filled_sqlite).pending()
    assert row.key.kind == post_kind(answer) and row.status == "failed" and len(row.message_ids) == 1
    [headline] = fake.posted("C1")
    fake.calm(POST)  # the storm is over; the person runs the same /digest post again
    await jobs_for(filled_sqlite, settings, messenger, owner="B").post("slack", "C1", answer, locale="en",
                                                                       timezone="UTC")
    posted = fake.posted("C1")
    assert posted[0] == headline and len(posted) == len(messenger.render(answer, locale="en", timezone="UTC"))
    assert {m["thread_ts"] for m in posted[1:]} == {headline["ts"]}  # continued in the first thread
    parts = [m["metadata"]["event_payload"]["part"] for m in posted]
    assert parts == list(range(len(posted)))  # each part once
    assert Ledger(filled_sqlite).pending() == []
    # Asked once more: it is there already; nothing is posted again.
    await jobs_for(filled_sqlite, settings, messenger, owner="C").post("slack", "C1", answer, locale="en",
                                                                       timezone="UTC")
    assert fake.posted("C1") == posted


async def test_a_refused_digest_post_marks_nothing(filled_sqlite: Store, settings: Settings,
                                                   slack: tuple[FakeSlack, str]) -> None:
    fake, api = slack
    add_channel(filled_sqlite)
    service = DigestService(filled_sqlite, settings)
    answer = service.answer_now(service.channel_context("slack", "C1"), "", now=NOW)
    fake.fail(POST, "not_in_channel")
    with pytest.raises(DeliveryError) as refused:
        await jobs_for(filled_sqlite, settings, SlackMessenger(build_client("xoxb-test", api))).post(
            "slack", "C1", answer, locale="en", timezone="UTC")
    assert refused.value.reason == "not_in_channel" and refused.value.permanent
    assert service.channel_context("slack", "C1").posts_daily  # the channel is not marked
