"""Discord in many servers: each channel's settings carry its server (guild) id; leaving a server (GUILD_DELETE)
pauses that server's channels and nobody else's; joining it again (GUILD_CREATE) resumes them. Real discord.py
objects from raw gateway and interaction payloads, against the fake Discord REST API."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.delivery.jobs import DeliveryJobs
from bot.platforms.discord_app import DigestBot
from bot.store.chat import WORKSPACE_GONE, ChatState
from bot.store.store import Store
from tests.fakes.discord_api import (
    GUILD_ID,
    MANAGE_CHANNELS,
    FakeDiscord,
    guild_payload,
    interaction_payload,
    text_channel,
)
from tests.logwait import LogWaiter
from tests.test_discord_app import MESSAGES, NOW, invoke, make_settings, seed, start_bot

OTHER_GUILD = 1100000000000000900
CHANNEL_A = 1100000000000000004  # the fake's channel in GUILD_ID
CHANNEL_B = 1100000000000000901


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(guild=guild_payload()) as running:
        yield running


@pytest.fixture
async def bot(fake: FakeDiscord, store: Store, tmp_path: Path) -> AsyncIterator[DigestBot]:
    seed(store)
    running = await start_bot(fake, store, make_settings(tmp_path), guild_id=None)  # global commands
    # Joined a second server at runtime: GUILD_CREATE (no "unavailable": a join, not a reconnect).
    with LogWaiter("bot.platforms.discord_app", f"joined server {OTHER_GUILD}") as joined:
        running._connection.parse_guild_create(joined_payload(OTHER_GUILD, CHANNEL_B))
        assert await asyncio.to_thread(joined.seen.wait, 10)
    yield running
    await running.close()


def joined_payload(guild: int, channel: int) -> dict[str, object]:
    """GUILD_CREATE for a server the bot was just added to: no ``unavailable`` key (with it, a reconnect)."""
    payload = guild_payload(guild, channels=[text_channel(channel, guild)])
    del payload["unavailable"]
    return payload


async def configure(bot: DigestBot, guild: int, channel: int) -> None:
    await invoke(bot, interaction_payload("channel", {"time": "09:00"}, permissions=MANAGE_CHANNELS,
                                          guild_id=guild, channel=text_channel(channel, guild)))


def posted_to(fake: FakeDiscord, channel: int) -> int:
    return sum(1 for call in fake.calls(MESSAGES) if call.params.get("channel_id") == str(channel))


async def test_each_server_keeps_its_own_settings_and_leaving_one_pauses_only_its_channels(
        fake: FakeDiscord, bot: DigestBot, store: Store) -> None:
    assert fake.calls("PUT /applications/{application_id}/commands")  # global: every server sees them
    await configure(bot, GUILD_ID, CHANNEL_A)
    await configure(bot, OTHER_GUILD, CHANNEL_B)
    chat = ChatState(store)
    a, b = chat.channel("discord", str(CHANNEL_A)), chat.channel("discord", str(CHANNEL_B))
    assert a is not None and a.team_id == str(GUILD_ID)
    assert b is not None and b.team_id == str(OTHER_GUILD)

    with LogWaiter("bot.app.channels", f"workspace {OTHER_GUILD} removed the app") as left:
        bot._connection.parse_guild_delete({"id": str(OTHER_GUILD)})  # kicked: GUILD_DELETE, not unavailable
        assert await asyncio.to_thread(left.seen.wait, 10)
    gone = chat.channel("discord", str(CHANNEL_B))
    assert gone is not None and gone.status == WORKSPACE_GONE and not gone.enabled
    assert [c.channel_id for c in bot.service.channels()] == [str(CHANNEL_A)]

    jobs = DeliveryJobs(bot.service, {"discord": bot.messenger}, clock=lambda: NOW)
    assert await jobs.post_channel("discord", str(CHANNEL_B)) == "skipped"  # asked anyway: skipped, no request
    assert await jobs.post_channel("discord", str(CHANNEL_A)) == "sent"
    assert posted_to(fake, CHANNEL_B) == 0 and posted_to(fake, CHANNEL_A) >= 1

    with LogWaiter("bot.platforms.discord_app", f"joined server {OTHER_GUILD}") as back:
        bot._connection.parse_guild_create(joined_payload(OTHER_GUILD, CHANNEL_B))
        assert await asyncio.to_thread(back.seen.wait, 10)
    resumed = chat.channel("discord", str(CHANNEL_B))
    assert resumed is not None and resumed.status is None and resumed.enabled
