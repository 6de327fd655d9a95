"""/digest on Discord: real discord.py (CommandTree, Interaction, HTTP client) against the fake Discord REST API.

Interactions are built from raw payload dicts and run through ``bot.tree._call`` (what INTERACTION_CREATE does,
minus the task); what we assert is what reached the fake: callbacks, webhook follow-ups, messages, threads.
The last tests drive the whole client over the fake gateway.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import discord
import discord.webhook.async_
import pytest
from discord.gateway import DiscordWebSocket
from sqlalchemy import event

from bot.app.notices import Help as HelpNotice
from bot.app.notices import Invalid as InvalidNotice
from bot.app.service import DigestService
from bot.commands.grammar import (
    Ask,
    ChannelAlert,
    Command,
    ConfigureChannel,
    Help,
    ListMutes,
    ListSubscriptions,
    Mute,
    Post,
    ShowChannel,
    Subscribe,
    Unmute,
    Unsubscribe,
    parse_command,
)
from bot.delivery.jobs import DeliveryJobs
from bot.github.payloads import item_from_payload
from bot.platforms import discord_app
from bot.platforms.discord_app import (
    DigestBot,
    alert_command,
    channel_command,
    mute_command,
    post_command,
    rank_choices,
    show_command,
    split_text,
    subscribe_command,
    unmute_command,
    unsubscribe_command,
)
from bot.platforms.discord_endpoints import Endpoints, check_internals
from bot.settings import Settings, load_settings
from bot.store import schema
from bot.store.chat import ChannelSettings, ChatState
from bot.store.mutes import CHANNEL as CHANNEL_SCOPE
from bot.store.mutes import USER as USER_SCOPE
from bot.store.mutes import Mutes
from bot.store.store import Store
from tests.factories import issue_payload
from tests.fakes.discord_api import (
    APP_ID,
    CHANNEL_ID,
    GUILD_ID,
    MANAGE_CHANNELS,
    USER_ID,
    FakeDiscord,
    guild_payload,
    interaction_payload,
    role,
)

NOW = datetime(2025, 12, 2, 4, 0, tzinfo=UTC)
CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"
FOLLOW_UP = "POST /webhooks/{application_id}/{token}"
MESSAGES = "POST /channels/{channel_id}/messages"
THREADS = "POST /channels/{channel_id}/messages/{message_id}/threads"
HOSTILE = "@everyone <@123> <@&456> [x](https://evil.example) fix ROCm"
MANAGER_ROLE = 1100000000000000777


TOPICS = """
[[topic]]
id = "rocm"
name = "AMD / ROCm"
tags = ["rocm"]
keywords = ["rocm", "hip"]
aliases = ["amd"]

[[topic]]
id = "cuda"
name = "NVIDIA / CUDA"
keywords = ["cuda", "nvidia"]
""" + "".join(f'\n[[topic]]\nid = "area_{n:02d}"\nname = "Area {n}"\nkeywords = ["area{n:02d}"]\n' for n in range(30))


def make_settings(tmp_path: Path, chat: str = "") -> Settings:
    """Our own small topics file (32 topics: more than Discord's 25 choices), independent of config/."""
    (tmp_path / "topics.toml").write_text(TOPICS)
    (tmp_path / "digest.toml").write_text(f'[chat]\n{chat}\n[access]\nrepos = ["acme/*"]\n[[repos]]\nname = "o/r"\n')
    return load_settings(tmp_path, env={})


def seed(store: Store, count: int = 5, title_size: int = 0) -> None:
    items = [issue_payload(n, NOW - timedelta(hours=n % 20 + 1),
                           title=f"[Bugfix][ROCm] fix {n} " + "x" * title_size, pr=True) for n in range(1, count + 1)]
    items.append(issue_payload(count + 1, NOW - timedelta(hours=2), title=HOSTILE))
    store.save_page([item_from_payload("o/r", p, lambda login: False) for p in items])
    store.complete_listing("o/r", "issues", NOW, [], synced_from=NOW - timedelta(days=30))
    store.complete_listing("o/r", "comments", NOW, [], synced_from=NOW - timedelta(days=30))


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    guild = guild_payload(roles=[role(MANAGER_ROLE, "digest-admins")])
    async with FakeDiscord(guild=guild) as running:
        yield running


async def start_bot(fake: FakeDiscord, store: Store, settings: Settings, **kwargs: Any) -> DigestBot:
    bot = DigestBot(DigestService(store, settings), api_url=fake.api_url, gateway_url=fake.gateway_url,
                    clock=lambda: NOW, **{"guild_id": GUILD_ID, **kwargs})
    await bot.__aenter__()
    await bot.login("fake-token")
    # What GUILD_CREATE on the gateway fills in (roles for discord_manager_role); these tests skip the gateway.
    bot._connection.parse_guild_create(fake.guild)
    return bot


@pytest.fixture
async def bot(fake: FakeDiscord, sqlite_store: Store, tmp_path: Path) -> AsyncIterator[DigestBot]:
    seed(sqlite_store)
    running = await start_bot(fake, sqlite_store, make_settings(tmp_path))
    yield running
    await running.close()


async def invoke(bot: DigestBot, payload: dict[str, Any]) -> None:
    await bot.tree._call(discord.Interaction(data=payload, state=bot._connection))


def texts(message: dict[str, Any]) -> list[str]:
    found = [message.get("content") or ""]
    for embed in message.get("embeds") or []:
        found += [embed.get("title", ""), embed.get("description", ""), embed.get("footer", {}).get("text", "")]
        found += [text for f in embed.get("fields", []) for text in (f["name"], f["value"])]
    return found


def assert_quiet(message: dict[str, Any]) -> None:
    """Nobody can be notified: mentions are off in the payload and none is left live in the text."""
    assert message["allowed_mentions"] == {"parse": []}
    for text in texts(message):
        assert "@everyone" not in text and "@here" not in text
        assert "<@123>" not in text and "<@&456>" not in text


def follow_up_text(fake: FakeDiscord) -> str:
    return "\n".join(text for body in fake.follow_ups for text in texts(body))


# ------------------------------------------------------------------------------------------ registration


async def test_login_syncs_the_digest_group_to_the_development_server(fake: FakeDiscord, bot: DigestBot) -> None:
    assert [r.route for r in fake.requests[:3]] == [
        "GET /users/@me", "GET /oauth2/applications/@me",
        "PUT /applications/{application_id}/guilds/{guild_id}/commands"]
    assert fake.requests[0].headers["Authorization"] == "Bot fake-token"
    (sync,) = fake.calls("PUT /applications/{application_id}/guilds/{guild_id}/commands")
    assert sync.params == {"application_id": str(APP_ID), "guild_id": str(GUILD_ID)}
    (group,) = sync.body
    assert group["name"] == "digest"
    options = {sub["name"]: {o["name"]: o for o in sub["options"]} for sub in group["options"]}
    assert set(options) == {"show", "post", "subscribe", "unsubscribe", "subscriptions", "channel", "mute", "unmute",
                            "why", "help", "alert"}
    assert not options["alert"]["query"]["required"] and options["alert"]["off"]["type"] == 5  # boolean
    assert options["why"]["item"]["required"]
    assert options["mute"]["topic"]["autocomplete"] and not options["mute"]["topic"]["required"]
    assert options["mute"]["duration"]["autocomplete"] and options["mute"]["for_me"]["type"] == 5  # boolean
    assert options["unmute"]["topic"]["required"] and options["unmute"]["for_me"]["type"] == 5
    assert options["show"]["query"]["autocomplete"] and not options["show"]["query"]["required"]
    assert options["subscribe"]["query"]["required"] and options["subscribe"]["timezone"]["autocomplete"]
    assert set(options["channel"]) == {"repo", "time", "timezone", "locale", "topics", "thread"}
    assert [c["value"] for c in options["channel"]["locale"]["choices"]] == ["en", "zh-CN"]
    assert [c["value"] for c in options["channel"]["thread"]["choices"]] == ["short", "full"]
    assert not fake.calls("PUT /applications/{application_id}/commands")


async def test_without_a_server_the_commands_sync_globally(fake: FakeDiscord, sqlite_store: Store,
                                                           tmp_path: Path) -> None:
    bot = await start_bot(fake, sqlite_store, make_settings(tmp_path), guild_id=None)
    await bot.close()
    (sync,) = fake.calls("PUT /applications/{application_id}/commands")
    assert [command["name"] for command in sync.body] == ["digest"]


def assert_discord_untouched() -> None:
    """The endpoint overrides are per client: discord.py's own defaults never change."""
    assert discord.http.Route.BASE == discord_app.DEFAULT_API_URL
    assert str(DiscordWebSocket.DEFAULT_GATEWAY) == discord_app.DEFAULT_GATEWAY_URL


async def test_each_client_has_its_own_endpoints(fake: FakeDiscord, sqlite_store: Store, tmp_path: Path) -> None:
    """Two clients in one process, each on its own fake Discord: REST, interaction callbacks and follow-ups
    each reach their own; nothing process-wide is patched."""
    seed(sqlite_store)
    async with FakeDiscord(guild=guild_payload()) as other_fake:
        first = await start_bot(fake, sqlite_store, make_settings(tmp_path))
        second = await start_bot(other_fake, sqlite_store, make_settings(tmp_path), guild_id=None)
        try:
            assert_discord_untouched()
            await invoke(first, interaction_payload("help"))
            await invoke(second, interaction_payload("subscriptions"))
            await invoke(first, interaction_payload("show", {"query": "ro"}, focused="query"))
        finally:
            await first.close()
            await second.close()
        assert fake.calls("PUT /applications/{application_id}/guilds/{guild_id}/commands")
        assert other_fake.calls("PUT /applications/{application_id}/commands")  # global sync, on its own fake
        assert "/digest post" in follow_up_text(fake) and "/digest post" not in follow_up_text(other_fake)
        assert "no subscriptions" in follow_up_text(other_fake) and "no subscriptions" not in follow_up_text(fake)
        assert [body["type"] for body in fake.callbacks] == [5, 8]  # deferred, then autocomplete
        assert [body["type"] for body in other_fake.callbacks] == [5]
    assert_discord_untouched()
    with pytest.raises(ValueError, match="DISCORD_GATEWAY_URL"):
        DigestBot(DigestService(sqlite_store, make_settings(tmp_path)), gateway_url="https://example.invalid")
    with pytest.raises(ValueError, match="DISCORD_API_URL"):
        DigestBot(DigestService(sqlite_store, make_settings(tmp_path)), api_url="discord.com/api/v10")


def test_endpoint_urls() -> None:
    proxy = Endpoints.parse("http://proxy.internal:8080/discord/api/v10/", "ws://proxy.internal:8080/gateway")
    assert proxy.api == "http://proxy.internal:8080/discord/api/v10"
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=5)
    assert proxy.rest_url(route.url) == "http://proxy.internal:8080/discord/api/v10/channels/5/messages"
    assert proxy.rest_url("https://cdn.discordapp.com/x.png") == "https://cdn.discordapp.com/x.png"  # not a Route
    # the first connection and a resume at READY's resume_gateway_url: both to the configured gateway, same query
    for opened in ("wss://gateway.discord.gg/?v=10&encoding=json&compress=zlib-stream",
                   "wss://gateway-us-east1-b.discord.gg?v=10&encoding=json&compress=zlib-stream"):
        assert proxy.gateway_url(opened) == "ws://proxy.internal:8080/gateway?v=10&encoding=json&compress=zlib-stream"
    default = Endpoints.parse(None, "")
    assert (default.api, default.gateway) == (discord_app.DEFAULT_API_URL, discord_app.DEFAULT_GATEWAY_URL)
    assert default.rest_url(route.url) == route.url
    resume = "wss://gateway-us-east1-b.discord.gg?v=10&encoding=json"
    assert default.gateway_url(resume) == resume  # Discord's resume URL, as Discord asks


def test_a_moved_discord_internal_fails_at_startup(sqlite_store: Store, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    check_internals()  # discord.py as installed: what the overrides rely on is there
    monkeypatch.setattr(discord.webhook.async_, "async_context", None)
    with pytest.raises(RuntimeError, match=r"async_context.*DISCORD_API_URL / DISCORD_GATEWAY_URL overrides need"):
        DigestBot(DigestService(sqlite_store, make_settings(tmp_path)))
    monkeypatch.undo()
    monkeypatch.setattr(discord.http.Route, "BASE", None)
    with pytest.raises(RuntimeError, match=r"Route\.url"):
        check_internals()


# ------------------------------------------------------------------------------ defer, follow-up, notices


async def test_help_defers_ephemerally_then_follows_up(fake: FakeDiscord, bot: DigestBot) -> None:
    await invoke(bot, interaction_payload("help"))
    callback = fake.calls(CALLBACK)[0]
    assert callback.body == {"type": 5, "data": {"flags": 64}}  # deferred, "thinking", ephemeral
    (follow_up,) = fake.calls(FOLLOW_UP)
    assert fake.requests.index(callback) < fake.requests.index(follow_up)
    assert follow_up.params["application_id"] == str(APP_ID)
    assert follow_up.params["token"] == callback.params["token"]
    assert follow_up.body["flags"] == 64
    assert follow_up.body["allowed_mentions"] == {"parse": []}
    assert "/digest post" in follow_up.body["content"] and "rocm" in follow_up.body["content"]


async def test_a_rate_limited_follow_up_is_retried(fake: FakeDiscord, bot: DigestBot) -> None:
    fake.rate_limit(FOLLOW_UP, retry_after=0.05)  # the webhook adapter's own 429 handling
    await invoke(bot, interaction_payload("help"))
    refused, delivered = fake.calls(FOLLOW_UP, ok=None)
    assert (refused.status, delivered.status) == (429, 200)
    assert refused.body == delivered.body


async def test_the_defer_is_sent_before_any_store_work(fake: FakeDiscord, bot: DigestBot,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    entered, release = threading.Event(), threading.Event()
    real = bot.commands.handle_command

    async def slow(ctx: Any, command: Any, **kwargs: Any) -> Any:
        entered.set()
        assert await asyncio.to_thread(release.wait, 10)
        return await real(ctx, command, **kwargs)

    monkeypatch.setattr(bot.commands, "handle_command", slow)
    task = asyncio.create_task(invoke(bot, interaction_payload("subscriptions")))
    await fake.wait_request(CALLBACK)
    assert not fake.calls(FOLLOW_UP, ok=None)  # acknowledged while the handler has not answered yet
    assert await asyncio.to_thread(entered.wait, 10)
    release.set()
    await asyncio.wait_for(task, 10)
    assert "no subscriptions" in follow_up_text(fake)


def full_thread(store: Store) -> None:
    """The channel asks for the whole appendix in a post's thread: every item, the hostile one too, is shown."""
    ChatState(store).save_channel(ChannelSettings("discord", str(CHANNEL_ID), thread="full"))


async def test_show_answers_ephemerally_with_embeds_and_no_live_mentions(fake: FakeDiscord, bot: DigestBot) -> None:
    full_thread(bot.service.store)
    await invoke(bot, interaction_payload("show"))
    bodies = fake.follow_ups
    assert len(bodies) >= 2  # the digest, then its thread as more ephemeral messages
    assert all(body["flags"] == 64 for body in bodies)
    assert "o/r" in bodies[0]["embeds"][0]["title"]
    for body in bodies:
        assert_quiet(body)
    assert "everyone" in follow_up_text(fake)  # the hostile title is there, defused
    assert "](https://evil" not in follow_up_text(fake)  # no masked link formed from a GitHub title
    assert not fake.calls(MESSAGES)  # nothing in the channel


async def test_a_long_digest_is_cut_to_five_ephemeral_messages(fake: FakeDiscord, sqlite_store: Store,
                                                               tmp_path: Path) -> None:
    seed(sqlite_store, count=300, title_size=180)  # with the full appendix, far more than five messages
    full_thread(sqlite_store)
    bot = await start_bot(fake, sqlite_store, make_settings(tmp_path))
    try:
        await invoke(bot, interaction_payload("show"))
    finally:
        await bot.close()
    bodies = fake.follow_ups
    assert len(bodies) == 5
    assert "more part(s)" in bodies[-1]["content"] and "/digest post" in bodies[-1]["content"]


async def test_queries_answer_and_feed_autocomplete(fake: FakeDiscord, bot: DigestBot) -> None:
    await invoke(bot, interaction_payload("show", {"query": "rocm 3d"}))
    (answer,) = fake.follow_ups
    assert "ROCm" in answer["embeds"][0]["title"] or "rocm" in answer["embeds"][0]["title"].lower()
    statements: list[str] = []
    event.listen(bot.store.engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    await invoke(bot, interaction_payload("show", {"query": "ro"}, focused="query"))
    await invoke(bot, interaction_payload("show", {"query": ""}, focused="query", user_id=USER_ID + 1))
    assert statements == []  # autocomplete of queries never touches the store
    mine, theirs = (body["data"]["choices"] for body in fake.callbacks[-2:])
    assert [c["value"] for c in mine][:2] == ["rocm 3d", "rocm"]
    assert all(c["value"].lower().startswith("ro") or "ro" in c["name"].lower() for c in mine)
    assert "rocm 3d" not in [c["value"] for c in theirs]  # recent queries are per user
    assert len(theirs) == 25  # 32 topics, capped at Discord's 25
    assert fake.callbacks[-1]["type"] == 8


async def test_autocomplete_never_offers_more_than_25(fake: FakeDiscord, bot: DigestBot) -> None:
    await invoke(bot, interaction_payload("subscribe", {"query": "rocm", "timezone": "a"}, focused="timezone"))
    await invoke(bot, interaction_payload("subscribe", {"query": "rocm", "timezone": "Asia/Sh"}, focused="timezone"))
    await invoke(bot, interaction_payload("channel", {"topics": "rocm,"}, focused="topics"))
    await invoke(bot, interaction_payload("channel", {"repo": ""}, focused="repo"))
    zones_a, zones_sh, topics, repos = (body["data"]["choices"] for body in fake.callbacks)
    assert len(zones_a) == 25
    assert zones_sh[0]["value"] == "Asia/Shanghai"
    assert topics and all(c["value"].startswith("rocm,") and c["value"] != "rocm,rocm" for c in topics)
    assert len(topics) <= 25
    assert repos == [{"name": "o/r", "value": "o/r"}]
    many = [(f"t{n}", f"t{n}") for n in range(100)]
    assert len(rank_choices("", many)) == 25
    assert all(len(c.value) <= 100 for c in rank_choices("", [("x" * 300, "y" * 101), ("ok", "ok")]))


async def test_show_refuses_a_query_that_is_a_subcommand(fake: FakeDiscord, bot: DigestBot) -> None:
    await invoke(bot, interaction_payload("show", {"query": "post"}))
    assert "“post” is a subcommand" in follow_up_text(fake) and "/digest post" in follow_up_text(fake)
    assert not fake.calls(MESSAGES)


# ----------------------------------------------------------------------------------------------- post


async def test_post_puts_the_headline_in_the_channel_and_the_sections_in_its_thread(
    fake: FakeDiscord, bot: DigestBot
) -> None:
    await invoke(bot, interaction_payload("post"))
    headline = fake.posted(CHANNEL_ID)
    assert len(headline) == 1
    (thread,) = fake.threads
    assert thread.params["channel_id"] == str(CHANNEL_ID)
    first_id = next(r for r in fake.calls(MESSAGES) if r.params["channel_id"] == str(CHANNEL_ID))
    headline_id = [mid for mid, m in fake.messages.items() if m["channel_id"] == str(CHANNEL_ID)]
    assert thread.params["message_id"] == headline_id[0]
    assert 0 < len(thread.body["name"]) <= 100 and "o/r" in thread.body["name"]
    in_thread = fake.posted(thread.params["message_id"])
    assert in_thread and first_id.body == headline[0]
    for body in headline + in_thread:
        assert_quiet(body)
        assert "flags" not in body or not body["flags"] & 64  # public messages
    assert "Posted in this channel." in follow_up_text(fake)


async def test_post_without_thread_permission_continues_in_the_channel(fake: FakeDiscord, bot: DigestBot) -> None:
    fake.fail(THREADS, 403, 50013, message="Missing Permissions")
    await invoke(bot, interaction_payload("post"))
    in_channel = fake.posted(CHANNEL_ID)
    assert len(in_channel) >= 2  # headline and the sections after it
    assert not fake.threads and fake.calls(THREADS, ok=False)[0].status == 403
    assert "Posted in this channel." in follow_up_text(fake)


async def test_post_without_send_permission_is_explained_and_the_scheduled_post_marks_the_channel(
        fake: FakeDiscord, store: Store, tmp_path: Path) -> None:
    seed(store)
    bot = await start_bot(fake, store, make_settings(tmp_path))
    try:
        await invoke(bot, interaction_payload("channel", {"time": "09:00"}))
        fake.fail(MESSAGES, 403, 50013, message="Missing Permissions")
        await invoke(bot, interaction_payload("post"))
        assert "could not post here (missing_permissions)" in follow_up_text(fake)
        assert ChatState(store).channel("discord", str(CHANNEL_ID)).enabled  # the person was told; nothing marked
        # The daily post meets the same refusal: delivery marks the channel (once, in one place) and skips it.
        fake.fail(MESSAGES, 403, 50013, message="Missing Permissions")
        jobs = DeliveryJobs(bot.service, {"discord": bot.messenger}, clock=lambda: NOW)
        assert await jobs.post_channel("discord", str(CHANNEL_ID)) == "skipped"
    finally:
        await bot.close()
    saved = ChatState(store).channel("discord", str(CHANNEL_ID))
    assert saved is not None and saved.status == "missing_permissions" and not saved.enabled


# -------------------------------------------------------------------------------------- subscriptions


async def test_subscribe_list_and_unsubscribe(fake: FakeDiscord, store: Store, tmp_path: Path) -> None:
    seed(store)
    bot = await start_bot(fake, store, make_settings(tmp_path))
    try:
        await invoke(bot, interaction_payload("subscribe", {"query": "rocm", "time": "9:00",
                                                            "timezone": "Europe/Berlin"}))
        await invoke(bot, interaction_payload("subscribe", {"query": "qwen hangs"}))
        (sub, other) = ChatState(store).subscriptions("discord", str(USER_ID))
        assert (sub.query, sub.post_time, sub.timezone, sub.repo) == ("rocm", "09:00", "Europe/Berlin", "o/r")
        assert other.query == "qwen hangs"
        await invoke(bot, interaction_payload("subscriptions"))
        await invoke(bot, interaction_payload("unsubscribe", {"query": "q"}, focused="query"))
        await invoke(bot, interaction_payload("unsubscribe", {"query": "rocm"}))
        await invoke(bot, interaction_payload("unsubscribe", {"query": "all"}))
    finally:
        await bot.close()
    replies = [body["content"] for body in fake.follow_ups]
    assert replies[0].startswith("Subscribed") and "09:00 (Europe/Berlin)" in replies[0]
    assert "“rocm”" in replies[2] and "“qwen hangs”" in replies[2]
    assert [c["value"] for c in fake.callbacks[-3]["data"]["choices"]] == ["qwen hangs"]
    assert replies[3].startswith("Unsubscribed from “rocm”")
    assert replies[4].startswith("Unsubscribed from all 1")
    assert ChatState(store).subscriptions("discord", str(USER_ID)) == []


@pytest.mark.parametrize(
    ("subcommand", "options", "expected"),
    [
        ("subscribe", {"query": "rocm", "time": "25:00"}, "at 25:00: must be a time of day"),
        ("subscribe", {"query": "rocm", "timezone": "Mars/Base"}, "unknown time zone"),
        ("subscribe", {"query": "rocm 7d"}, "leave out the window"),
        ("channel", {"repo": "not-a-repo"}, "must look like OWNER/NAME"),
        # an option value cannot smuggle in another setting: it stays one (quoted) token
        ("channel", {"repo": "o/r time 10:00"}, "must look like OWNER/NAME"),
        ("channel", {"topics": "rocm,nope"}, "unknown topic(s): nope"),
        ("channel", {"time": "9am"}, "time 9am: must be a time of day HH:MM"),
        ("channel", {"timezone": "Mars/Base"}, "tz Mars/Base: unknown time zone"),
        ("channel", {"topics": " , "}, "topics: list topic ids separated by commas, or all"),
        ("mute", {"topic": "rocm", "duration": "0d"}, "“0d” is not a duration (24h, 3d, 7d, 2w)"),
        ("mute", {"topic": "rocm", "duration": "3 days"}, "“3 days” is not a duration"),
        ("mute", {"duration": "3d"}, "say which topic to mute"),
        ("unmute", {"topic": " "}, "say which topic to unmute"),
    ],
)
async def test_bad_input_gets_the_grammar_hint(fake: FakeDiscord, bot: DigestBot, subcommand: str,
                                               options: dict[str, str], expected: str) -> None:
    await invoke(bot, interaction_payload(subcommand, options))
    text = follow_up_text(fake).replace("\\", "")
    assert expected in text and "Try:" in text  # the invalid notice: what is wrong, then the usage
    assert ChatState(bot.store).channel("discord", str(CHANNEL_ID)) is None
    assert not Mutes(bot.store).active("discord", CHANNEL_SCOPE, str(CHANNEL_ID), NOW)
    assert not ChatState(bot.store).subscriptions("discord", str(USER_ID))


QUOTED = 'qwen "hang"  on  ROCm'  # quotes, and runs of spaces (collapsed, as the text grammar collapses them)


async def test_option_values_reach_the_command_as_typed(fake: FakeDiscord, bot: DigestBot,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    received: list[Command] = []
    real = bot.commands.handle_command

    def spy(ctx: Any, command: Command, **kwargs: Any) -> Any:
        received.append(command)
        return real(ctx, command, **kwargs)

    monkeypatch.setattr(bot.commands, "handle_command", spy)
    typed = " ".join(QUOTED.split())
    await invoke(bot, interaction_payload("show", {"query": QUOTED}))
    await invoke(bot, interaction_payload("post", {"query": QUOTED + " 3d"}))
    await invoke(bot, interaction_payload("subscribe", {"query": QUOTED, "time": "9:05", "timezone": "UTC"}))
    await invoke(bot, interaction_payload("unsubscribe", {"query": QUOTED}))
    await invoke(bot, with_flag(interaction_payload("mute", {"topic": 'say "rocm"', "duration": "2w"}), "for_me", True))
    await invoke(bot, interaction_payload("unmute", {"topic": "it's “rocm”"}))
    await invoke(bot, interaction_payload("channel", {"repo": "acme/widgets", "topics": " rocm , cuda,rocm"}))
    await invoke(bot, interaction_payload("mute"))
    await invoke(bot, interaction_payload("subscriptions"))
    await invoke(bot, interaction_payload("channel"))
    await invoke(bot, interaction_payload("help"))
    assert received == [
        Ask(typed),
        Post(typed + " 3d"),
        Subscribe(typed, at="09:05", tz="UTC"),
        Unsubscribe(typed),
        Mute('say "rocm"', timedelta(weeks=2), personal=True),
        Unmute("it's \"rocm\""),  # curly quotes straightened, as the grammar reads all text
        ConfigureChannel({"repo": "acme/widgets", "topics": ("rocm", "cuda")}),
        ListMutes(),
        ListSubscriptions(),
        ShowChannel(),
        Help(),
    ]
    replies = [texts(body)[0] for body in fake.follow_ups if not body.get("embeds")]
    subscribed = next(reply for reply in replies if reply.startswith("Subscribed"))
    assert "qwen \"hang\" on ROCm" in subscribed.replace("\\", "")  # stored as typed, then removed again
    assert any(reply.startswith("Unsubscribed from “qwen") for reply in replies)
    assert ChatState(bot.store).subscriptions("discord", str(USER_ID)) == []
    assert bot.recent.get(str(USER_ID))[:2] == [typed, f"{typed} 3d"]  # autocomplete remembers them as typed


@pytest.mark.parametrize(
    ("built", "text"),
    [
        (show_command("rocm 3d"), "rocm 3d"),
        (show_command(None), ""),
        (post_command("label:bug 3d"), "post label:bug 3d"),
        (post_command(None), "post"),
        (subscribe_command("qwen hangs", "9:00", "Europe/Berlin"), "subscribe qwen hangs at 9:00 tz Europe/Berlin"),
        (subscribe_command("rocm", "25:00"), "subscribe rocm at 25:00"),
        (subscribe_command("rocm", None, "Mars/Base"), "subscribe rocm tz Mars/Base"),
        (subscribe_command(" ", "09:00"), "subscribe at 09:00"),
        (unsubscribe_command("ALL"), "unsubscribe all"),
        (unsubscribe_command("qwen hangs"), "unsubscribe qwen hangs"),
        (channel_command(), "channel"),
        (channel_command("o/r", "9:30", "UTC", "zh", "rocm, cuda"),
         'channel repo o/r time 9:30 tz UTC locale zh topics "rocm, cuda"'),
        (channel_command(topics="all"), "channel topics all"),
        (channel_command(thread="full"), "channel thread full"),
        (channel_command(repo="not-a-repo"), "channel repo not-a-repo"),
        (channel_command(time="9am"), "channel time 9am"),
        (channel_command(timezone="Mars/Base"), "channel tz Mars/Base"),
        (channel_command(locale="fr"), "channel locale fr"),
        (mute_command(), "mute"),
        (mute_command(for_me=True), "mute for me"),
        (mute_command("rocm", "3d", True), "mute rocm 3d for me"),
        (mute_command("rocm", "400d"), "mute rocm 400d"),  # a year at most, as the query grammar caps windows
        (mute_command("rocm", "0d"), "mute rocm 0d"),
        (mute_command(None, "7d"), "mute 7d"),
        (unmute_command("all", True), "unmute all for me"),
        (unmute_command("cuda"), "unmute cuda"),
    ],
)
def test_options_build_what_the_text_grammar_parses(built: Command, text: str) -> None:
    """Where the text grammar can say the same thing, the typed options give the same command (or Invalid)."""
    assert built == parse_command(text)


def test_a_query_that_is_a_subcommand_is_refused() -> None:
    refused = show_command("  Post rocm")
    assert refused == InvalidNotice("subcommand", "/digest post", "post")
    assert show_command("posts about rocm") == Ask("posts about rocm")


# -------------------------------------------------------------------------------------------- mutes


def with_flag(payload: dict[str, Any], name: str, value: bool) -> dict[str, Any]:
    """Add a boolean option (type 5) to a ``/digest <subcommand>`` payload."""
    payload["data"]["options"][0]["options"].append({"type": 5, "name": name, "value": value})
    return payload


async def test_mute_list_and_unmute_through_the_tree(fake: FakeDiscord, store: Store, tmp_path: Path) -> None:
    seed(store)
    bot = await start_bot(fake, store, make_settings(tmp_path))
    mutes = Mutes(store)
    try:
        await invoke(bot, interaction_payload("mute", {"topic": "rocm", "duration": "3d"}))
        assert mutes.active("discord", CHANNEL_SCOPE, str(CHANNEL_ID), NOW) == {"rocm": NOW + timedelta(days=3)}
        await invoke(bot, interaction_payload("show"))  # the channel's digest without the muted topic
        digest_text = "\n".join(text for body in fake.follow_ups[1:] for text in texts(body))
        await invoke(bot, with_flag(interaction_payload("mute", {"topic": "cuda"}), "for_me", True))
        assert mutes.active("discord", USER_SCOPE, str(USER_ID), NOW) == {"cuda": None}
        await invoke(bot, interaction_payload("mute", {"topic": "amd"}, dm=True))  # a DM: the user's own
        assert set(mutes.active("discord", USER_SCOPE, str(USER_ID), NOW)) == {"cuda", "rocm"}
        await invoke(bot, interaction_payload("mute"))  # no topic: the list
        await invoke(bot, interaction_payload("mute", {"topic": "rcom"}))
        await invoke(bot, interaction_payload("mute", {"topic": "rocm", "duration": "tomorrow-ish"}))
        await invoke(bot, interaction_payload("mute", {"topic": "r"}, focused="topic"))
        await invoke(bot, interaction_payload("mute", {"topic": "rocm", "duration": "2"}, focused="duration"))
        await invoke(bot, interaction_payload("unmute", {"topic": "a"}, focused="topic"))
        await invoke(bot, interaction_payload("unmute", {"topic": "all"}))
        await invoke(bot, with_flag(interaction_payload("unmute", {"topic": "cuda"}), "for_me", True))
    finally:
        await bot.close()
    assert "AMD / ROCm" not in digest_text
    replies = [(body.get("content") or "").replace("\\", "") for body in fake.follow_ups if not body.get("embeds")]
    assert replies[0].startswith("Muted in this channel's digests: rocm (AMD / ROCm) until 2025-12-05 12:00 "
                                 "(Asia/Shanghai)")  # NOW + 3 days in the default zone
    assert replies[1].startswith("Muted in your daily DMs: cuda (NVIDIA / CUDA) until unmuted")
    assert replies[2].startswith("Muted in your daily DMs: rocm")
    assert replies[3].startswith("Muted in this channel's digests:\n• rocm")
    assert "unknown topic “rcom” (did you mean rocm?)" in replies[4]
    assert "“tomorrow-ish” is not a duration (24h, 3d, 7d, 2w)" in replies[5]  # a typed option: not the topic
    assert replies[6].startswith("Unmuted all 1 topic in this channel's digests")
    assert replies[7].startswith("Unmuted cuda in your daily DMs") and "Still muted: rocm" in replies[7]
    topics, durations, unmute = (body["data"]["choices"] for body in fake.callbacks if body["type"] == 8)
    assert topics[0]["value"] == "rocm" and len(topics) <= 25
    assert [c["value"] for c in durations] == ["24h", "2w"]
    assert unmute[0]["value"] == "all"
    assert mutes.active("discord", CHANNEL_SCOPE, str(CHANNEL_ID), NOW) == {}
    assert mutes.active("discord", USER_SCOPE, str(USER_ID), NOW) == {"rocm": None}


async def test_channel_mutes_need_manage_channels_when_admins_only(fake: FakeDiscord, store: Store,
                                                                  tmp_path: Path) -> None:
    seed(store)
    settings = make_settings(tmp_path, 'channel_settings = "admins"\ndiscord_manager_role = "digest-admins"')
    bot = await start_bot(fake, store, settings)
    mutes = Mutes(store)
    try:
        await invoke(bot, interaction_payload("mute", {"topic": "rocm"}))
        assert mutes.active("discord", CHANNEL_SCOPE, str(CHANNEL_ID), NOW) == {}
        await invoke(bot, with_flag(interaction_payload("mute", {"topic": "rocm"}), "for_me", True))
        await invoke(bot, interaction_payload("mute", {"topic": "cuda"}, roles=(MANAGER_ROLE,)))
        await invoke(bot, interaction_payload("unmute", {"topic": "cuda"}))
    finally:
        await bot.close()
    replies = [body["content"] for body in fake.follow_ups]
    assert replies[0].startswith("Only members who can manage this channel")
    assert replies[1].startswith("Muted in your daily DMs")  # one's own DMs: anyone
    assert replies[2].startswith("Muted in this channel's digests: cuda")  # the role is enough
    assert replies[3].startswith("Only members who can manage this channel")
    assert mutes.active("discord", CHANNEL_SCOPE, str(CHANNEL_ID), NOW) == {"cuda": None}
    assert mutes.active("discord", USER_SCOPE, str(USER_ID), NOW) == {"rocm": None}


# ------------------------------------------------------------------------------------ channel settings


async def test_channel_settings_need_manage_channels_or_the_role_when_admins_only(
    fake: FakeDiscord, store: Store, tmp_path: Path
) -> None:
    seed(store)
    settings = make_settings(tmp_path, 'channel_settings = "admins"\ndiscord_manager_role = "digest-admins"')
    bot = await start_bot(fake, store, settings)
    chat = ChatState(store)
    try:
        await invoke(bot, interaction_payload("channel", {"time": "09:00"}))
        assert chat.channel("discord", str(CHANNEL_ID)) is None
        await invoke(bot, interaction_payload("channel", {"time": "09:30"}, permissions=MANAGE_CHANNELS))
        assert chat.channel("discord", str(CHANNEL_ID)).post_time == "09:30"
        await invoke(bot, interaction_payload("channel", {"locale": "zh-CN", "topics": "rocm, cuda"},
                                              roles=(MANAGER_ROLE,)))
        await invoke(bot, interaction_payload("channel"))  # show: anyone
    finally:
        await bot.close()
    replies = [body["content"] for body in fake.follow_ups]
    assert replies[0].startswith("Only members who can manage this channel")
    assert replies[1].startswith("Saved (post_time)")
    assert replies[2].startswith("Saved (locale, topics)")  # the role alone was enough
    saved = chat.channel("discord", str(CHANNEL_ID))
    assert (saved.locale, saved.topics, saved.updated_by) == ("zh-CN", ("rocm", "cuda"), str(USER_ID))
    assert replies[3].startswith("本频道设置") and "09:30" in replies[3]  # shown to anyone, now in zh-CN


async def test_anyone_may_change_settings_by_default(fake: FakeDiscord, bot: DigestBot) -> None:
    await invoke(bot, interaction_payload("channel", {"repo": "acme/widgets", "timezone": "UTC"}))
    saved = ChatState(bot.store).channel("discord", str(CHANNEL_ID))
    assert (saved.repo, saved.timezone) == ("acme/widgets", "UTC")
    assert follow_up_text(fake).startswith("Saved (repo, timezone)")


async def test_repositories_outside_the_allow_list_are_refused_naming_nothing_else(fake: FakeDiscord,
                                                                                  bot: DigestBot) -> None:
    await invoke(bot, interaction_payload("channel", {"repo": "evil/secret"}))
    await invoke(bot, interaction_payload("subscribe", {"query": "rocm repo:evil/secret"}))
    await invoke(bot, interaction_payload("show", {"query": "rocm repo:evil/secret"}))
    await invoke(bot, interaction_payload("show", {"query": "repo:evil/secret"}, dm=True))
    await invoke(bot, interaction_payload("show", {"query": "rocm repo:acme/widgets"}))  # allowed, never synced
    replies = [" ".join(texts(body)) for body in fake.follow_ups]
    assert len(replies) == 5
    for reply in replies[:4]:
        assert "does not follow evil/secret" in reply and "o/r" not in reply and "acme" not in reply
    assert "acme/widgets has not been synced yet" in replies[4] and "o/r" not in replies[4]
    assert ChatState(bot.store).channel("discord", str(CHANNEL_ID)) is None
    assert ChatState(bot.store).subscriptions("discord", str(USER_ID)) == []


async def test_direct_messages_cannot_post_or_configure(fake: FakeDiscord, bot: DigestBot) -> None:
    await invoke(bot, interaction_payload("post", dm=True))
    await invoke(bot, interaction_payload("channel", {"time": "10:00"}, dm=True, permissions=MANAGE_CHANNELS))
    await invoke(bot, interaction_payload("show", {"query": "rocm"}, dm=True))
    replies = [texts(body) for body in fake.follow_ups]
    assert "post works in a channel" in replies[0][0]
    assert "set in the channel itself" in replies[1][0]
    assert replies[2][1]  # the query answer's embed title
    assert not fake.calls(MESSAGES)


# ----------------------------------------------------------------------------------------- failures


async def test_a_store_error_is_reported_and_the_bot_keeps_going(fake: FakeDiscord, store: Store,
                                                                 tmp_path: Path,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    seed(store)
    bot = await start_bot(fake, store, make_settings(tmp_path))
    try:
        schema.channels.drop(store.engine)
        await invoke(bot, interaction_payload("help"))
        assert fake.calls(CALLBACK)  # deferred before the store failed
        assert "something went wrong on my side" in fake.follow_ups[-1]["content"]
        assert "/digest help failed" in caplog.text
        schema.channels.create(store.engine)
        await invoke(bot, interaction_payload("help"))
        assert "/digest post" in fake.follow_ups[-1]["content"]
    finally:
        await bot.close()


async def test_paused_dms_are_mentioned_once(fake: FakeDiscord, bot: DigestBot) -> None:
    await invoke(bot, interaction_payload("subscribe", {"query": "rocm"}))
    ChatState(bot.store).pause_subscriptions("discord", str(USER_ID), "dms_closed")
    await invoke(bot, interaction_payload("show", {"query": "rocm"}))
    await invoke(bot, interaction_payload("help"))
    note = [body for body in fake.follow_ups if "paused" in (body.get("content") or "")]
    assert len(note) == 1 and "dms\\_closed" in note[0]["content"]


async def test_an_expired_interaction_is_dropped_quietly(fake: FakeDiscord, bot: DigestBot) -> None:
    fake.fail(CALLBACK, 404, 10062, message="Unknown interaction")
    await invoke(bot, interaction_payload("help"))
    assert not fake.calls(FOLLOW_UP, ok=None)


def test_split_text_keeps_lines_whole_and_under_the_limit() -> None:
    text = "\n".join(f"line {n} " + "y" * 300 for n in range(20))
    chunks = split_text(text)
    assert all(len(chunk) <= 2000 for chunk in chunks) and "\n".join(chunks) == text
    assert split_text("z" * 4500) == ["z" * 2000, "z" * 2000, "z" * 500]


# -------------------------------------------------------------------------------------- end to end


async def test_end_to_end_over_the_gateway(fake: FakeDiscord, sqlite_store: Store, tmp_path: Path) -> None:
    """login -> sync -> gateway (HELLO, IDENTIFY, READY, GUILD_CREATE) -> INTERACTION_CREATE -> follow-up;
    then op 7 RECONNECT: the resume goes back through the configured gateway, not READY's resume URL."""
    seed(sqlite_store)
    settings = make_settings(tmp_path, 'channel_settings = "admins"\ndiscord_manager_role = "digest-admins"')
    bot = DigestBot(DigestService(sqlite_store, settings), guild_id=GUILD_ID, api_url=fake.api_url,
                    gateway_url=fake.gateway_url, clock=lambda: NOW)
    async with bot:
        runner = asyncio.create_task(bot.start("fake-token"))
        try:
            await fake.wait_for(lambda f: f.gateway_ops(2))
            (identify,) = fake.gateway_ops(2)
            assert identify["d"]["token"] == "fake-token"
            assert identify["d"]["intents"] == discord.Intents(guilds=True).value == 1  # nothing privileged
            # Frames are handled in order: GUILD_CREATE (the roles) before this interaction; no need to wait
            # for on_ready (discord.py holds it back 2 s for more guilds).
            await fake.dispatch("INTERACTION_CREATE", interaction_payload(
                "channel", {"time": "08:15"}, roles=(MANAGER_ROLE,)))
            await fake.wait_request(FOLLOW_UP)
            assert fake.follow_ups[0]["content"].startswith("Saved (post_time)")  # the role counted
            assert bot.get_guild(GUILD_ID) is not None
            assert ChatState(sqlite_store).channel("discord", str(CHANNEL_ID)).post_time == "08:15"

            await fake.reconnect()
            resume = await fake.wait_for(lambda f: f.gateway_ops(6))
            assert resume[0]["d"]["session_id"] == "fake-session"  # here, not at READY's resume_gateway_url
            assert len(fake.gateway_connections) == 2
            assert all(query["v"] == "10" and query["encoding"] == "json" for query in fake.gateway_connections)
            await fake.dispatch("INTERACTION_CREATE", interaction_payload("post"))
            await fake.wait_request(FOLLOW_UP, count=2)
            assert fake.threads and fake.posted(CHANNEL_ID)
        finally:
            await bot.close()
            await asyncio.wait_for(runner, 10)
    assert_discord_untouched()


async def test_the_worker_connection_stops_cleanly_when_cancelled(fake: FakeDiscord, sqlite_store: Store,
                                                                  tmp_path: Path) -> None:
    """As ``digest-bot run`` assembles it (``bot.platforms.registry``): login, gateway, then shutdown."""
    from bot.platforms.registry import connect

    env = {"DISCORD_TOKEN": "fake-token", "DISCORD_GUILD_ID": str(GUILD_ID), "DISCORD_API_URL": fake.api_url,
           "DISCORD_GATEWAY_URL": fake.gateway_url}
    async with AsyncExitStack() as stack:
        [connection] = await connect(DigestService(sqlite_store, make_settings(tmp_path)), env, stack, "worker")
        assert connection.name == "discord" and connection.messenger is not None and connection.run is not None
        task = asyncio.create_task(connection.run())
        await fake.wait_for(lambda f: f.gateway_ops(2))
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    assert fake.gateway_connections and fake.calls("GET /users/@me")  # both through the overrides
    assert_discord_untouched()


async def test_a_stale_command_still_gets_an_answer(fake: FakeDiscord, bot: DigestBot) -> None:
    # A subcommand Discord still shows but this version no longer has: discord.py fails before our callback
    # runs; the tree's on_error answers instead of leaving the user with "The application did not respond".
    # Through INTERACTION_CREATE's own path (parse_interaction_create -> a task), waiting on the fake.
    bot._connection.parse_interaction_create(interaction_payload("retired"))
    callback = await fake.wait_request(CALLBACK)
    assert callback.body["type"] == 4 and callback.body["data"]["flags"] == 64
    assert "something went wrong" in callback.body["data"]["content"]
    assert callback.body["data"]["allowed_mentions"] == {"parse": []}


def test_help_names_discord_commands() -> None:
    from formatters.notices import render_notice
    from formatters.safety import discord_markdown

    text = render_notice(HelpNotice(("rocm",)), locale="en", escape=discord_markdown, platform="discord")
    assert "`/digest show rocm`" in text
    assert "`/digest rocm`" not in text


async def test_over_a_fair_use_limit_the_interaction_response_itself_says_busy(fake: FakeDiscord,
                                                                               bot: DigestBot) -> None:
    from bot.app.limits import HeavyLimiter, LimitRules

    bot.commands.limiter = HeavyLimiter(LimitRules(per_user_per_minute=1))
    await invoke(bot, interaction_payload("show", {"query": "rocm 3d"}))
    answered = len(fake.follow_ups)
    await invoke(bot, interaction_payload("show", {"query": "rocm 3d"}))
    refusal = fake.calls(CALLBACK)[-1]
    assert refusal.body["type"] == 4 and refusal.body["data"]["flags"] == 64  # a message, not a defer
    assert "try again in" in refusal.body["data"]["content"]
    assert refusal.body["data"]["allowed_mentions"] == {"parse": []}
    assert len(fake.follow_ups) == answered  # nothing deferred, nothing followed up


@pytest.mark.parametrize(
    ("built", "command"),
    [
        (alert_command("rocm"), ChannelAlert("rocm")),
        (alert_command(None), ChannelAlert(None)),
        (alert_command("  "), ChannelAlert(None)),
        (alert_command(None, off=True), ChannelAlert(None, off=True)),
        (alert_command("all", off=True), ChannelAlert(None, off=True)),
        (alert_command("rocm", off=True), ChannelAlert("rocm", off=True)),
        (subscribe_command("rocm live"), Subscribe("rocm", live=True)),
        (unsubscribe_command("rocm live"), Unsubscribe("rocm", live=True)),
    ],
)
def test_discord_live_alert_options_build_the_text_grammars_commands(built: Command, command: Command) -> None:
    assert built == command
