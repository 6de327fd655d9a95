"""DiscordMessenger over REST only (what the scheduler uses): threads, DMs, and every failure Discord answers."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from bot.app.context import Context
from bot.app.messenger import DeliveryError
from bot.app.notices import Paused
from bot.app.service import DigestService
from bot.commands.handlers import Commands
from bot.delivery.jobs import DeliveryJobs
from bot.delivery.ledger import DeliveryKey
from bot.model import Digest, QueryResult
from bot.platforms.discord_app import DigestBot
from bot.platforms.discord_messenger import DiscordMessenger, message_payload, send_kwargs
from bot.settings import Settings
from bot.store.chat import ChannelSettings, ChatState
from bot.store.store import Store
from formatters.discord_embeds import render_discord_digest
from tests.fakes.discord_api import CHANNEL_ID, GUILD_ID, USER_ID, FakeDiscord
from tests.test_discord_app import NOW, assert_quiet, make_settings, seed, texts

MESSAGES = "POST /channels/{channel_id}/messages"
THREADS = "POST /channels/{channel_id}/messages/{message_id}/threads"
OPEN_DM = "POST /users/@me/channels"
THREAD_CHANNEL = 1100000000000000050


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as running:
        running.channels[str(THREAD_CHANNEL)] = {
            "id": str(THREAD_CHANNEL), "type": 11, "guild_id": str(GUILD_ID), "parent_id": str(CHANNEL_ID),
            "name": "an existing thread", "owner_id": "1", "message_count": 0, "member_count": 1,
            "rate_limit_per_user": 0, "last_message_id": None, "flags": 0,
            "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                "archive_timestamp": "2025-12-02T04:00:00+00:00", "locked": False}}
        yield running


async def rest_only(fake: FakeDiscord, store: Store, settings: Settings) -> DigestBot:
    bot = DigestBot(DigestService(store, settings), api_url=fake.api_url, gateway_url=fake.gateway_url,
                    sync_commands=False)
    await bot.__aenter__()
    await bot.login("fake-token")  # REST only: no connect(), no gateway
    return bot


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path)


@pytest.fixture
async def bot(fake: FakeDiscord, sqlite_store: Store, settings: Settings) -> AsyncIterator[DigestBot]:
    seed(sqlite_store)
    running = await rest_only(fake, sqlite_store, settings)
    yield running
    await running.close()


def digest_of(store: Store, settings: Settings) -> Digest:
    service = DigestService(store, settings)
    answer = service.answer_now(service.channel_context("discord", str(CHANNEL_ID)), "", now=NOW)
    assert isinstance(answer, Digest)
    return answer


async def deliver_once(bot: DigestBot, target: str, answer: Digest, *, dm: bool) -> str:
    """One delivery through the delivery layer (ledger, marking), as the scheduler makes it."""
    jobs = DeliveryJobs(bot.service, {"discord": bot.messenger})
    key = DeliveryKey("discord", target, "o/r", "dm:test" if dm else "channel", answer.window.start)

    async def build() -> Digest:
        return answer

    return await jobs.deliver(key, answer.window, bot.messenger, dm=dm, locale="en", timezone="UTC", build=build)


async def test_the_scheduler_path_posts_a_headline_and_a_thread(fake: FakeDiscord, store: Store,
                                                                 settings: Settings) -> None:
    seed(store)
    bot = await rest_only(fake, store, settings)
    try:
        digest = digest_of(store, settings)
        ids = await bot.messenger.deliver(str(CHANNEL_ID), digest, dm=False, locale="en", timezone="Asia/Shanghai")
    finally:
        await bot.close()
    expected = render_discord_digest(digest, locale="en", timezone="Asia/Shanghai")
    assert len(expected) >= 2 and len(ids) == len(expected)
    assert not fake.frames and not fake.calls("PUT /applications/{application_id}/commands")
    (headline,) = fake.posted(CHANNEL_ID)
    (thread,) = fake.threads
    assert thread.params == {"channel_id": str(CHANNEL_ID), "message_id": ids[0]}
    assert thread.body["auto_archive_duration"] == 1440
    in_thread = fake.posted(ids[0])  # a thread's id is its starter message's id
    assert [texts(body) for body in [headline, *in_thread]] == [texts(m) for m in expected]  # all, in order
    for body in [headline, *in_thread]:
        assert_quiet(body)
    assert ids == list(fake.messages)  # the ids Discord gave the messages, in order


async def test_in_a_thread_channel_everything_follows_the_headline(fake: FakeDiscord, settings: Settings,
                                                                   bot: DigestBot) -> None:
    digest = digest_of(bot.store, settings)
    ids = await bot.messenger.deliver(str(THREAD_CHANNEL), digest, dm=False, locale="en", timezone="UTC")
    assert not fake.calls(THREADS, ok=None)
    assert len(fake.posted(THREAD_CHANNEL)) == len(ids) >= 2


async def test_a_posted_query_answer_is_one_message(fake: FakeDiscord, settings: Settings,
                                                    bot: DigestBot) -> None:
    reply = await Commands(bot.service).handle(Context("discord", str(CHANNEL_ID), "U", NOW), "post rocm 3d")
    assert isinstance(reply.answer, QueryResult) and reply.post
    ids = await bot.messenger.deliver(str(CHANNEL_ID), reply.answer, dm=False, locale="en", timezone="UTC")
    assert len(ids) == 1 and not fake.calls(THREADS, ok=None)
    assert_quiet(fake.posted(CHANNEL_ID)[0])


async def test_rate_limits_and_server_errors_are_retried_by_discord_py(fake: FakeDiscord, settings: Settings,
                                                                       bot: DigestBot) -> None:
    fake.server_error(MESSAGES, status=502)  # discord.py waits 1 s before its second try
    fake.rate_limit(MESSAGES, retry_after=0.05)
    digest = digest_of(bot.store, settings)
    ids = await bot.messenger.deliver(str(CHANNEL_ID), digest, dm=False, locale="en", timezone="UTC")
    refused = fake.calls(MESSAGES, ok=False)
    assert [r.status for r in refused] == [502, 429]
    assert refused[0].body == refused[1].body == fake.posted(CHANNEL_ID)[0]  # the same headline, sent again
    assert len(fake.calls(MESSAGES)) == len(ids)  # nothing doubled


@pytest.mark.parametrize(
    ("route", "status", "code", "reason"),
    [
        ("GET /channels/{channel_id}", 404, 10003, "unknown_channel"),
        ("GET /channels/{channel_id}", 403, 50001, "missing_access"),
        (MESSAGES, 403, 50013, "missing_permissions"),
        (MESSAGES, 403, 50001, "missing_access"),
    ],
)
async def test_a_channel_we_cannot_use_is_marked_and_logged_once(
    fake: FakeDiscord, store: Store, settings: Settings, caplog: pytest.LogCaptureFixture,
    route: str, status: int, code: int, reason: str,
) -> None:
    seed(store)
    chat = ChatState(store)
    chat.save_channel(ChannelSettings("discord", str(CHANNEL_ID), post_time="09:00"))
    bot = await rest_only(fake, store, settings)
    digest = digest_of(store, settings)
    fake.fail(route, status, code, times=3)
    try:
        with caplog.at_level(logging.WARNING, logger="bot.platforms.discord_messenger"):
            for _ in range(2):
                with pytest.raises(DeliveryError) as failure:
                    await bot.messenger.deliver(str(CHANNEL_ID), digest, dm=False, locale="en", timezone="UTC")
                assert (failure.value.reason, failure.value.permanent) == (reason, True)
                assert failure.value.target == f"channel {CHANNEL_ID}"
        assert chat.channel("discord", str(CHANNEL_ID)).enabled  # the messenger only says why; delivery marks
        assert await deliver_once(bot, str(CHANNEL_ID), digest, dm=False) == "skipped"
    finally:
        await bot.close()
    marked = chat.channel("discord", str(CHANNEL_ID))
    assert (marked.status, marked.enabled) == (reason, False)
    assert [r.getMessage() for r in caplog.records].count(f"Discord channel {CHANNEL_ID}: {reason}; permanent") == 1


async def test_an_unknown_channel_id_is_refused_by_the_fake_itself(bot: DigestBot,
                                                                   settings: Settings) -> None:
    digest = digest_of(bot.store, settings)
    with pytest.raises(DeliveryError, match="unknown_channel"):
        await bot.messenger.deliver("1234", digest, dm=False, locale="en", timezone="UTC")


async def test_without_permission_in_the_thread_the_rest_goes_to_the_channel(
    fake: FakeDiscord, settings: Settings, bot: DigestBot
) -> None:
    fake.fail(MESSAGES, 403, 50001, when=lambda r: r.params["channel_id"] != str(CHANNEL_ID))
    digest = digest_of(bot.store, settings)
    ids = await bot.messenger.deliver(str(CHANNEL_ID), digest, dm=False, locale="en", timezone="UTC")
    (thread,) = fake.threads
    assert fake.posted(thread.params["message_id"]) == []
    assert len(fake.posted(CHANNEL_ID)) == len(ids) >= 2


async def test_other_errors_are_not_permanent_and_mark_nothing(fake: FakeDiscord, store: Store,
                                                               settings: Settings) -> None:
    seed(store)
    chat = ChatState(store)
    chat.save_channel(ChannelSettings("discord", str(CHANNEL_ID)))
    bot = await rest_only(fake, store, settings)
    fake.fail(MESSAGES, 400, 50035, message="Invalid Form Body")
    try:
        with pytest.raises(DeliveryError) as failure:
            await bot.messenger.deliver(str(CHANNEL_ID), digest_of(store, settings), dm=False, locale="en",
                                        timezone="UTC")
    finally:
        await bot.close()
    assert (failure.value.reason, failure.value.permanent) == ("http_400_50035", False)
    assert chat.channel("discord", str(CHANNEL_ID)).enabled


async def test_a_network_failure_is_not_permanent(fake: FakeDiscord, settings: Settings,
                                                  bot: DigestBot) -> None:
    digest = digest_of(bot.store, settings)
    await fake.__aexit__(None, None, None)  # Discord unreachable after login
    with pytest.raises(DeliveryError) as failure:
        await bot.messenger.deliver(str(CHANNEL_ID), digest, dm=False, locale="en", timezone="UTC")
    assert not failure.value.permanent and failure.value.reason.startswith("network")


# ------------------------------------------------------------------------------------------------- DMs


async def test_send_dm_opens_the_dm_channel_and_sends_there(fake: FakeDiscord, store: Store,
                                                            settings: Settings) -> None:
    seed(store)
    bot = await rest_only(fake, store, settings)
    try:
        reply = await Commands(bot.service).handle(Context("discord", "D", str(USER_ID), NOW), "rocm 3d")
        ids = await bot.messenger.deliver(str(USER_ID), reply.answer, dm=True, locale="en", timezone="UTC")
        digest_ids = await bot.messenger.deliver(str(USER_ID), digest_of(store, settings), dm=True, locale="en",
                                                 timezone="UTC")
    finally:
        await bot.close()
    opened = fake.calls(OPEN_DM)
    assert opened[0].body == {"recipient_id": USER_ID}
    channel = fake.dm_channel(USER_ID)
    assert channel is not None and len(fake.posted(channel)) == len(ids) + len(digest_ids)
    assert len(ids) == 1 and len(digest_ids) >= 2
    assert not fake.calls(THREADS, ok=None)  # no threads in a DM
    for body in fake.posted(channel):
        assert_quiet(body)


@pytest.mark.parametrize("where", ["send", "open"])
async def test_closed_dms_pause_the_subscriptions_and_the_user_hears_once(
    fake: FakeDiscord, store: Store, settings: Settings, where: str
) -> None:
    seed(store)
    commands = Commands(DigestService(store, settings))
    ctx = Context("discord", str(CHANNEL_ID), str(USER_ID), NOW)
    await commands.handle(ctx, "subscribe rocm")
    if where == "send":
        fake.closed_dms.add(str(USER_ID))  # 403, 50007 on the message
    else:
        fake.fail(OPEN_DM, 400, 50007, message="Cannot send messages to this user", times=2)
    bot = await rest_only(fake, store, settings)
    try:
        with pytest.raises(DeliveryError) as failure:
            await bot.messenger.deliver(str(USER_ID), digest_of(store, settings), dm=True, locale="en", timezone="UTC")
        assert await deliver_once(bot, str(USER_ID), digest_of(store, settings), dm=True) == "skipped"
    finally:
        await bot.close()
    assert (failure.value.reason, failure.value.permanent, failure.value.target) == (
        "dms_closed", True, f"user {USER_ID}")
    (subscription,) = ChatState(store).subscriptions("discord", str(USER_ID))
    assert subscription.paused == "dms_closed"
    assert (await commands.handle(ctx, "help")).notes == (Paused("dms_closed"),)
    assert (await commands.handle(ctx, "help")).notes == ()


def test_formatter_messages_become_rest_payloads_with_mentions_off(settings: Settings, sqlite_store: Store) -> None:
    seed(sqlite_store)
    digest = digest_of(sqlite_store, settings)
    formatted = render_discord_digest(digest, locale="en", timezone="UTC")
    payloads = DiscordMessenger(discord.Client(intents=discord.Intents.none())).render(digest, locale="en",
                                                                                       timezone="UTC")
    assert [texts(p) for p in payloads] == [texts(m) for m in formatted]
    assert all(set(p) == {"content", "embeds", "allowed_mentions"} and p["allowed_mentions"] == {"parse": []}
               for p in payloads)
    kwargs = send_kwargs(payloads[0])
    assert kwargs["allowed_mentions"].to_dict() == {"parse": []}
    assert [embed.to_dict()["title"] for embed in kwargs["embeds"]] == [e["title"] for e in payloads[0]["embeds"]]
    with pytest.raises(ValueError, match="allowed_mentions"):  # the formatters' contract, enforced
        message_payload({"content": "@everyone", "embeds": [], "allowed_mentions": {"parse": ["everyone"]}})


# --- ambiguous failures: the nonce makes a repeated send return the first message ---


async def test_a_5xx_after_discord_created_the_message_does_not_duplicate_it(fake: FakeDiscord, settings: Settings,
                                                                            bot: DigestBot) -> None:
    fake.server_error(MESSAGES, status=500, acted=True)  # created, then 500: discord.py sends it again
    digest = digest_of(bot.store, settings)
    assert await deliver_once(bot, str(CHANNEL_ID), digest, dm=False) == "sent"
    [refused] = fake.calls(MESSAGES, ok=False)
    assert refused.body["enforce_nonce"] is True and len(refused.body["nonce"]) <= 25
    [headline] = fake.stored(CHANNEL_ID)  # one headline, though it was sent twice
    assert headline["nonce"] == refused.body["nonce"]
    row = DeliveryJobs(bot.service, {"discord": bot.messenger}).ledger.get(
        DeliveryKey("discord", str(CHANNEL_ID), "o/r", "channel", digest.window.start))
    assert row is not None and row.message_ids[0] == headline["id"]
    assert len(fake.stored(headline["id"])) == len(row.message_ids) - 1  # the thread: each section once


async def test_resending_unrecorded_parts_with_the_same_key_returns_the_same_messages(
        fake: FakeDiscord, settings: Settings, bot: DigestBot) -> None:
    """A takeover after a crash between accepted and recorded sends the part again, within the nonce window."""
    digest = digest_of(bot.store, settings)
    first = await bot.messenger.deliver(str(CHANNEL_ID), digest, dm=False, locale="en", timezone="UTC", key="k1")
    again = await bot.messenger.deliver(str(CHANNEL_ID), digest, dm=False, locale="en", timezone="UTC", key="k1",
                                        sent=first[:1], check_first=True)
    assert again == first and len(fake.messages) == len(first)
    other = await bot.messenger.deliver(str(CHANNEL_ID), digest, dm=False, locale="en", timezone="UTC", key="k2")
    assert set(other).isdisjoint(first)  # another delivery's key: new messages


async def test_a_dm_resent_with_the_same_key_is_not_doubled(fake: FakeDiscord, settings: Settings,
                                                           bot: DigestBot) -> None:
    digest = digest_of(bot.store, settings)
    first = await bot.messenger.deliver(str(USER_ID), digest, dm=True, locale="en", timezone="UTC", key="k1")
    again = await bot.messenger.deliver(str(USER_ID), digest, dm=True, locale="en", timezone="UTC", key="k1")
    assert again == first and len(fake.stored(fake.dm_channel(USER_ID) or "")) == len(first)
