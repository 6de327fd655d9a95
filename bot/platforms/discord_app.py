"""Discord: the ``/digest`` slash commands on discord.py 2, and the REST Messenger for the scheduler.

Public API (``bot.platforms.registry`` assembles it for ``digest-bot run``)::

    async with DigestBot(service, guild_id=None, api_url=None, gateway_url=None) as bot:
        await bot.login(token)      # REST only: enough for bot.messenger (the scheduler's Messenger)
        ...                         # e.g. hand bot.messenger to the scheduler
        await bot.connect()         # the gateway: interactions arrive until bot.close()

    bot.messenger: DiscordMessenger  # deliver(channel_or_user_id, answer, dm=…, locale=, timezone=)

Environment the CLI maps onto the arguments: ``DISCORD_TOKEN`` (token), ``DISCORD_GUILD_ID`` (sync the
commands to that one server only: instant, for development; unset: global, which Discord propagates within
about an hour), ``DISCORD_API_URL`` (REST base, default ``https://discord.com/api/v10``) and
``DISCORD_GATEWAY_URL`` (default ``wss://gateway.discord.gg/``) for proxies and tests: per client, see
``bot.platforms.discord_endpoints``.

Commands (one group; Discord does not let a command with subcommands be invoked on its own, so the digest
itself is ``/digest show``): ``show [query]``, ``post [query]``, ``subscribe <query> [time] [timezone]``,
``unsubscribe <query|all>``, ``subscriptions``, ``channel [repo] [time] [timezone] [locale] [topics] [thread]``,
``mute [topic] [duration] [for_me]`` (no topic: the list), ``unmute <topic|all> [for_me]``, ``why <item>``,
``help``.
Each builds the shared grammar's command (``bot.commands.grammar``: ``Subscribe``, ``Mute``, …) straight from its
typed options, checked with the grammar's own validators (a bad value is the grammar's ``Invalid``), and calls
``Commands.handle_command``, so the semantics are those of Slack and the CLI; option values (quotes, spaces)
reach the command as typed. The interaction is deferred (ephemeral, "thinking") before any
other work, which answers Discord's 3 s deadline; the answer follows as webhook follow-ups (valid 15 min),
sent by ``bot.app.replies.send_reply`` through ``DiscordReplies``.

Intents: ``Intents.none()`` plus ``guilds`` (the server's roles and channels, to match
``chat.discord_manager_role`` by name); no privileged intent. Interactions need none.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import zoneinfo
from collections import OrderedDict
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from functools import cache

import discord
from discord import app_commands

from bot.app.context import Context, PostRequest
from bot.app.notices import SETTING_PROBLEMS, Busy, Invalid, Notice, Sorry, is_refusal
from bot.app.replies import send_reply
from bot.app.service import DigestService, RenderSpec
from bot.commands.grammar import (
    CHANNEL_USAGE,
    MUTE_USAGE,
    SUBSCRIBE_USAGE,
    UNMUTE_USAGE,
    UNSUBSCRIBE_USAGE,
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
    channel_setting,
    check_duration,
    check_hhmm,
    check_timezone,
    live_suffix,
    subcommand_word,
    why_command,
)
from bot.commands.handlers import Commands
from bot.delivery.jobs import DeliveryJobs
from bot.model import THREAD_MODES, Digest, QueryResult
from bot.platforms.discord_endpoints import DEFAULT_API_URL as DEFAULT_API_URL
from bot.platforms.discord_endpoints import DEFAULT_GATEWAY_URL as DEFAULT_GATEWAY_URL
from bot.platforms.discord_endpoints import Endpoints, install
from bot.platforms.discord_messenger import (
    PLATFORM,
    DiscordMessenger,
    SendKwargs,
    TextKwargs,
    render_payloads,
    send_kwargs,
)
from bot.settings import LOCALES
from bot.timeutil import utcnow
from bot.topics.query import clean_text
from formatters.discord_embeds import DiscordMessage
from formatters.notices import render_notice, render_notices
from formatters.safety import discord_markdown

_log = logging.getLogger(__name__)

MAX_CHOICES = 25  # Discord's limit for autocomplete results
CHOICE_TEXT = 100  # a choice's name and value: 1..100 characters
CONTENT = 2000
MAX_EPHEMERAL_MESSAGES = 5  # an ephemeral digest: the first parts, then a pointer to /digest post

Query = app_commands.Range[str, 1, 500]
Short = app_commands.Range[str, 1, 100]
Repo = app_commands.Range[str, 1, 200]



def sorry_text(locale: str = "en") -> str:
    return render_notice(Sorry(), locale=locale, escape=discord_markdown, platform="discord")


# ------------------------------------------------------------------------------------------- autocomplete


class RecentQueries:
    """Each user's last queries, in memory (an LRU over users): autocomplete never scans the store."""

    def __init__(self, users: int = 2048, per_user: int = 10) -> None:
        self.users, self.per_user = users, per_user
        self._recent: OrderedDict[str, list[str]] = OrderedDict()

    def add(self, user_id: str, query: str) -> None:
        query = " ".join(query.split())
        if not query or len(query) > CHOICE_TEXT:
            return
        queries = [q for q in self._recent.pop(user_id, []) if q.lower() != query.lower()]
        self._recent[user_id] = [query, *queries][: self.per_user]
        while len(self._recent) > self.users:
            self._recent.popitem(last=False)

    def get(self, user_id: str) -> list[str]:
        return list(self._recent.get(user_id, ()))


def rank_choices(current: str, candidates: list[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    """(name, value) pairs matching what is typed: prefix matches first, then substring; at most 25."""
    typed = " ".join(current.split()).lower()
    prefix: list[tuple[str, str]] = []
    inside: list[tuple[str, str]] = []
    seen: set[str] = set()
    for name, value in candidates:
        if not value or len(value) > CHOICE_TEXT or value.lower() in seen:
            continue
        seen.add(value.lower())
        haystack = f"{value} {name}".lower()
        if not typed or value.lower().startswith(typed):
            prefix.append((name, value))
        elif typed in haystack:
            inside.append((name, value))
    picked = (prefix + inside)[:MAX_CHOICES]
    return [app_commands.Choice(name=(name or value)[:CHOICE_TEXT], value=value) for name, value in picked]


@cache
def _timezones() -> tuple[str, ...]:
    return tuple(sorted(zone for zone in zoneinfo.available_timezones() if "/" in zone or zone == "UTC"))


def _bot(interaction: discord.Interaction) -> DigestBot:
    client = interaction.client
    assert isinstance(client, DigestBot)
    return client


async def complete_query(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    bot = _bot(interaction)
    recent = [(f"↺ {query}", query) for query in bot.recent.get(str(interaction.user.id))]
    return rank_choices(current, recent + bot.topic_choices())


async def complete_subscription(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """``all`` and the user's subscriptions: one small query on (platform, user_id), the unique index's prefix."""
    bot = _bot(interaction)
    subscriptions = await asyncio.to_thread(bot.service.chat.subscriptions, PLATFORM, str(interaction.user.id))
    return rank_choices(current, [("all", "all"), *((s.query, s.query) for s in subscriptions)])


async def complete_timezone(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return rank_choices(current, [(zone, zone) for zone in _timezones()])


async def complete_repo(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return rank_choices(current, [(repo.name, repo.name) for repo in _bot(interaction).settings.repos])


DURATIONS = ("24h", "3d", "7d", "2w", "30d")


async def complete_topic(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """One topic id (mute)."""
    return rank_choices(current, _bot(interaction).topic_choices())


async def complete_unmute(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return rank_choices(current, [("all", "all"), *_bot(interaction).topic_choices()])


async def complete_duration(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return rank_choices(current, [(duration, duration) for duration in DURATIONS])


async def complete_topics(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Comma-separated topic ids: completes the last one, keeps those before it."""
    head, _, last = current.rpartition(",")
    chosen = [part.strip() for part in head.split(",") if part.strip()]
    prefix = ",".join(chosen) + ("," if chosen else "")
    topics = [(name, f"{prefix}{value}") for name, value in _bot(interaction).topic_choices()
              if value not in chosen]
    extra = [] if chosen else [("all", "all")]
    return rank_choices(prefix + last.strip(), extra + topics)


# ----------------------------------------------------------------------------------------------- commands


def _text(value: str | None) -> str:
    """An option's text as the grammar reads text (``clean_text``: no zero-width or control characters, curly
    quotes straightened), trimmed, runs of spaces as one. Quotes and the spaces between words stay."""
    return " ".join(clean_text(value or "").split())


def show_command(query: str | None) -> Command:
    text = _text(query)
    word = subcommand_word(text)
    if word is not None:
        return Invalid("subcommand", f"/digest {word}", word)
    return Ask(text)


def post_command(query: str | None) -> Command:
    return Post(_text(query))


def subscribe_command(query: str, time: str | None = None, timezone: str | None = None) -> Command:
    at, tz = _text(time), _text(timezone)
    try:
        at_value = check_hhmm(at) if at else None
    except ValueError:
        return Invalid("bad_time", SUBSCRIBE_USAGE, at, "at")
    try:
        tz_value = check_timezone(tz) if tz else None
    except ValueError:
        return Invalid("bad_timezone", SUBSCRIBE_USAGE, tz, "tz")
    text = _text(query)
    if not text:
        return Invalid("say_subscribe", SUBSCRIBE_USAGE)
    words, live = live_suffix(text)  # "rocm live" in the query option: a live alert, as in the text grammar
    return Subscribe(words, at=at_value, tz=tz_value, live=live)


def unsubscribe_command(query: str) -> Command:
    text = _text(query)
    if not text:
        return Invalid("say_unsubscribe", UNSUBSCRIBE_USAGE)
    words, live = live_suffix(text)
    return Unsubscribe(None if text.lower() == "all" else words, live=live)


def channel_command(repo: str | None = None, time: str | None = None, timezone: str | None = None,
                    locale: str | None = None, topics: str | None = None, thread: str | None = None) -> Command:
    """No option: the settings; else the changes, each checked as ``/digest channel <name> <value>`` is."""
    given = [(name, key, _text(value)) for name, key, value in (
        ("repo", "repo", repo), ("time", "post_time", time), ("tz", "timezone", timezone),
        ("locale", "locale", locale), ("topics", "topics", topics), ("thread", "thread", thread)) if _text(value)]
    if not given:
        return ShowChannel()
    changes: dict[str, object] = {}
    for name, key, value in given:
        try:
            changes[key] = channel_setting(key, value)
        except ValueError:
            return Invalid(SETTING_PROBLEMS[key], CHANNEL_USAGE, value, name)
    return ConfigureChannel(changes)


def alert_command(query: str | None = None, off: bool = False) -> Command:
    """``/digest alert``: as ``/digest channel alert [off] [<query>]`` on Slack (no query: list, or all off)."""
    text = _text(query)
    return ChannelAlert(None if not text or (off and text.lower() == "all") else text, off=off)


def mute_command(topic: str | None = None, duration: str | None = None, for_me: bool = False) -> Command:
    """No topic and no duration: the list of mutes."""
    text, length = _text(topic), _text(duration)
    if not text and not length:
        return ListMutes(for_me)
    span: timedelta | None = None
    if length:
        try:
            span = check_duration(length)
        except ValueError:
            return Invalid("not_a_duration", MUTE_USAGE, length)
    if not text:
        return Invalid("say_mute", MUTE_USAGE)
    return Mute(text, span, for_me)


def unmute_command(topic: str, for_me: bool = False) -> Command:
    text = _text(topic)
    if not text:
        return Invalid("say_unmute", UNMUTE_USAGE)
    return Unmute(None if text.lower() == "all" else text, for_me)


class DigestGroup(app_commands.Group):
    """``/digest …``: every subcommand builds the grammar's command from its options for ``handle_command``."""

    def __init__(self) -> None:
        super().__init__(name="digest", description="Daily digest of the repository's GitHub activity")

    @app_commands.command(name="show", description="Today's digest (only you see it), or an answer to a query")
    @app_commands.describe(query="A topic or search, e.g. rocm · qwen hangs 7d · label:bug 3d")
    @app_commands.autocomplete(query=complete_query)
    async def show(self, interaction: discord.Interaction, query: Query | None = None) -> None:
        await _bot(interaction).handle_interaction(interaction, show_command(query), remember=query)

    @app_commands.command(name="post", description="Post the digest (or a query's answer) in this channel")
    @app_commands.describe(query="Optional topic or search instead of the whole digest")
    @app_commands.autocomplete(query=complete_query)
    async def post(self, interaction: discord.Interaction, query: Query | None = None) -> None:
        await _bot(interaction).handle_interaction(interaction, post_command(query), remember=query)

    @app_commands.command(name="subscribe", description="Get a topic or query by direct message every day")
    @app_commands.describe(query="Topic or query, e.g. rocm", time="HH:MM, default: the channel's time",
                           timezone="IANA zone, e.g. Asia/Shanghai; default: the channel's")
    @app_commands.autocomplete(query=complete_query, timezone=complete_timezone)
    async def subscribe(self, interaction: discord.Interaction, query: Query, time: Short | None = None,
                        timezone: Short | None = None) -> None:
        await _bot(interaction).handle_interaction(interaction, subscribe_command(query, time, timezone),
                                                   remember=query)

    @app_commands.command(name="unsubscribe", description="Stop a daily digest, or all of them")
    @app_commands.describe(query="The subscription's query, or all")
    @app_commands.autocomplete(query=complete_subscription)
    async def unsubscribe(self, interaction: discord.Interaction, query: Query) -> None:
        await _bot(interaction).handle_interaction(interaction, unsubscribe_command(query))

    @app_commands.command(name="subscriptions", description="Your daily digests")
    async def subscriptions(self, interaction: discord.Interaction) -> None:
        await _bot(interaction).handle_interaction(interaction, ListSubscriptions())

    @app_commands.command(name="channel", description="Show this channel's settings, or change them")
    @app_commands.describe(repo="owner/name", time="Daily post time HH:MM", timezone="IANA zone, e.g. Asia/Shanghai",
                           locale="Language of the digest", topics="Topic ids to follow, separated by commas, or all",
                           thread="What a posted digest's thread carries: short, or full (the whole appendix)")
    @app_commands.choices(locale=[app_commands.Choice(name=name, value=name) for name in LOCALES],
                          thread=[app_commands.Choice(name=name, value=name) for name in THREAD_MODES])
    @app_commands.autocomplete(repo=complete_repo, timezone=complete_timezone, topics=complete_topics)
    async def channel(self, interaction: discord.Interaction, repo: Repo | None = None, time: Short | None = None,
                      timezone: Short | None = None, locale: app_commands.Choice[str] | None = None,
                      topics: Query | None = None, thread: app_commands.Choice[str] | None = None) -> None:
        command = channel_command(repo, time, timezone, locale.value if locale else None, topics,
                                  thread.value if thread else None)
        await _bot(interaction).handle_interaction(interaction, command)

    @app_commands.command(name="alert", description="Live alerts in this channel: new matching issues and PRs")
    @app_commands.describe(query="A topic or query to alert on; leave empty to list this channel's alerts",
                           off="Turn the alert off (with no query: all of this channel's)")
    @app_commands.autocomplete(query=complete_query)
    async def alert(self, interaction: discord.Interaction, query: Query | None = None, off: bool = False) -> None:
        await _bot(interaction).handle_interaction(interaction, alert_command(query, off))

    @app_commands.command(name="mute", description="Leave a topic out of this channel's digests (or your DMs)")
    @app_commands.describe(topic="The topic; leave empty to list what is muted",
                           duration="For how long, e.g. 24h, 3d, 7d, 2w; default: until unmuted",
                           for_me="Mute it in your daily DMs instead of this channel's digests")
    @app_commands.autocomplete(topic=complete_topic, duration=complete_duration)
    async def mute(self, interaction: discord.Interaction, topic: Short | None = None, duration: Short | None = None,
                   for_me: bool = False) -> None:
        await _bot(interaction).handle_interaction(interaction, mute_command(topic, duration, for_me))

    @app_commands.command(name="unmute", description="Show a muted topic again, or all of them")
    @app_commands.describe(topic="The muted topic, or all",
                           for_me="Unmute it in your daily DMs instead of this channel's digests")
    @app_commands.autocomplete(topic=complete_unmute)
    async def unmute(self, interaction: discord.Interaction, topic: Short, for_me: bool = False) -> None:
        await _bot(interaction).handle_interaction(interaction, unmute_command(topic, for_me))

    @app_commands.command(name="why", description="Why an issue or PR is where it is in today's digest")
    @app_commands.describe(item="Its number, e.g. 123 or #123")
    async def why(self, interaction: discord.Interaction, item: Short) -> None:
        await _bot(interaction).handle_interaction(interaction, why_command(_text(item)))

    @app_commands.command(name="help", description="How to use /digest, and the topics")
    async def help(self, interaction: discord.Interaction) -> None:
        await _bot(interaction).handle_interaction(interaction, Help())


class DigestTree(app_commands.CommandTree):
    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        # The first thing discord.py awaits for an interaction, in the task that handles it: from here on that
        # task's callback and follow-ups go to the client's endpoints (bot/platforms/discord_endpoints.py).
        _bot(interaction).endpoint_http.use_for_webhooks()
        return True

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError, /) -> None:
        # Only errors before our callback runs land here (a stale command signature, a failed transform).
        _log.error("/digest failed before it ran: %s", error, exc_info=error)
        if interaction.type is discord.InteractionType.application_command and not interaction.response.is_done():
            try:
                await interaction.response.send_message(sorry_text(), ephemeral=True,
                                                        allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as err:
                _log.warning("could not answer the failed interaction: %s", err)


# ---------------------------------------------------------------------------------------------------- bot


class DigestBot(discord.Client):
    """The Discord client: slash commands, and ``messenger`` for the scheduler. Use with ``async with``."""

    def __init__(
        self,
        service: DigestService,
        *,
        guild_id: int | str | None = None,
        api_url: str | None = None,
        gateway_url: str | None = None,
        sync_commands: bool = True,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        endpoints = Endpoints.parse(api_url, gateway_url)  # a bad URL fails here, before anything starts
        intents = discord.Intents.none()
        intents.guilds = True  # roles (discord_manager_role by name) and channels; not privileged
        super().__init__(
            intents=intents,
            allowed_mentions=discord.AllowedMentions.none(),  # the default under every send, too
            max_messages=None,
            chunk_guilds_at_startup=False,
            member_cache_flags=discord.MemberCacheFlags.none(),
        )
        self.service = service
        self.settings = service.settings
        self.store = service.store
        self.guild_id = int(guild_id) if guild_id else None
        self.endpoints = endpoints
        self.endpoint_http = install(self, endpoints)  # before the tree below takes self.http
        self.sync_commands = sync_commands
        self.clock = clock
        self.commands = Commands(service)
        self.messenger = DiscordMessenger(self)
        self.recent = RecentQueries()
        self.tree = DigestTree(self)
        self.tree.add_command(DigestGroup())
        self._topics: list[tuple[str, str]] | None = None

    # --- lifecycle ---

    async def setup_hook(self) -> None:
        """After login, before the gateway: register the commands (one server when ``guild_id`` is set)."""
        if not self.sync_commands:
            return
        guild = discord.Object(id=self.guild_id) if self.guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        try:
            synced = await self.tree.sync(guild=guild)
        except discord.HTTPException as err:  # the commands registered last time still work
            _log.warning("could not sync the Discord commands (%s %s); keeping the registered ones",
                         err.status, err.text)
            return
        _log.info("synced %d Discord command(s) %s", len(synced),
                  f"to server {self.guild_id}" if guild else "globally (may take up to an hour to show)")

    async def on_ready(self) -> None:
        _log.info("Discord: connected as %s to %d server(s)", self.user, len(self.guilds))

    # --- servers (many guilds: each channel's settings carry its guild id) ---

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """Added to a server (again): what leaving it paused resumes; global commands show there by themselves."""
        await asyncio.to_thread(self.service.resume_workspace, PLATFORM, str(guild.id))
        _log.info("Discord: joined server %s (%s)", guild.id, guild.name)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server (kicked, banned, the server deleted): its channels' posts pause, logged once.
        Daily DMs are the user's, not the server's: Discord refuses them itself when no server is shared
        (the subscription is paused then, as before)."""
        await asyncio.to_thread(functools.partial(self.service.pause_workspace, PLATFORM, str(guild.id),
                                                  subscriptions=False))

    # --- commands ---

    def topic_choices(self) -> list[tuple[str, str]]:
        if self._topics is None:
            try:
                taxonomy = self.service.taxonomy(None, restrict=True)
                self._topics = [(f"{topic.id} · {topic.display_name()}", topic.id) for topic in taxonomy.topics]
            except Exception:
                _log.exception("cannot load the topics for autocomplete")
                self._topics = []
        return self._topics

    def can_manage(self, interaction: discord.Interaction) -> bool:
        """Manage Channels here (the member's permissions in this channel, from the interaction) or the role."""
        if interaction.guild_id is None:
            return False
        if interaction.permissions.manage_channels:
            return True
        role = self.settings.file.chat.discord_manager_role
        user = interaction.user
        if role and isinstance(user, discord.Member):
            return any(r.name == role or str(r.id) == role for r in user.roles)
        return False

    def context(self, interaction: discord.Interaction) -> Context:
        return Context(platform=PLATFORM, channel_id=str(interaction.channel_id or ""),
                       user_id=str(interaction.user.id), now=self.clock(),
                       can_manage=self.can_manage(interaction), is_dm=interaction.guild_id is None,
                       team_id=str(interaction.guild_id) if interaction.guild_id else None)

    async def handle_interaction(self, interaction: discord.Interaction, command: Command, *,
                                 remember: str | None = None) -> None:
        """Defer first (Discord's 3 s), then handle ``command`` and follow up; ``remember``: a query for the
        user's autocomplete once it worked. Never raises. Over a fair-use limit, the refusal is the interaction's
        response itself: nothing deferred, nothing left to run."""
        ctx = self.context(interaction)
        admitted = self.commands.admit(ctx, command)
        try:
            if isinstance(admitted, Busy):
                refusal = self.commands.refusal(ctx, admitted)
                await interaction.response.send_message(
                    render_notices([admitted], locale=refusal.locale, escape=discord_markdown, platform="discord"),
                    ephemeral=True, allowed_mentions=discord.AllowedMentions.none())
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
        except discord.HTTPException as err:  # expired (10062) or already answered, e.g. by another process
            _log.warning("could not acknowledge /digest: %s %s", err.status, err.text)
            if admitted is not None and not isinstance(admitted, Busy):
                admitted.release()
            return
        locale = "en"
        try:
            render = RenderSpec(functools.partial(render_payloads, section_limit=self.messenger.section_limit),
                                MAX_EPHEMERAL_MESSAGES)
            reply = await self.commands.handle_command(ctx, command, render=render, permit=admitted)
            locale = reply.locale
            if remember and not is_refusal(reply.notice):
                self.recent.add(ctx.user_id, remember)
            await send_reply(reply, DiscordReplies(interaction, self.messenger, service=self.service),
                             offload=self.service.in_heavy_pool)
        except Exception:
            name = interaction.command.qualified_name if interaction.command else "digest"
            _log.exception("/%s failed", name)
            await _follow_up_text(interaction, sorry_text(locale))
        finally:
            if admitted is not None and not isinstance(admitted, Busy):
                admitted.release()  # once, whichever path took it


class DiscordReplies:
    """``ReplySink`` over an interaction's follow-up webhook (valid 15 minutes), all ephemeral."""

    max_parts = MAX_EPHEMERAL_MESSAGES

    def __init__(self, interaction: discord.Interaction, messenger: DiscordMessenger, *,
                 service: DigestService | None = None) -> None:
        self.interaction = interaction
        self.messenger = messenger
        self.service = service  # with it, a post goes through the delivery ledger (resumable, never doubled)
        # module-level, so a worker process can run it
        self.render = functools.partial(render_payloads, section_limit=messenger.section_limit)

    async def send_part(self, part: DiscordMessage) -> bool:
        return await _follow_up(self.interaction, send_kwargs(part))

    async def say(self, notices: Sequence[Notice], *, locale: str) -> None:
        if notices:
            text = render_notices(notices, locale=locale, escape=discord_markdown, platform="discord")
            await _follow_up_text(self.interaction, text)

    async def post(self, answer: Digest | QueryResult, *, locale: str, timezone: str,
                   request: PostRequest | None = None) -> None:
        channel_id = str(self.interaction.channel_id)
        if self.service is None:
            await self.messenger.deliver(channel_id, answer, dm=False, locale=locale, timezone=timezone)
            return
        jobs = DeliveryJobs(self.service, {self.messenger.platform: self.messenger})
        await jobs.post(self.messenger.platform, channel_id, answer, locale=locale, timezone=timezone,
                        request=request)


async def _follow_up_text(interaction: discord.Interaction, text: str) -> None:
    for chunk in split_text(text):
        if not await _follow_up(interaction, {"content": chunk, "allowed_mentions": discord.AllowedMentions.none()}):
            return


async def _follow_up(interaction: discord.Interaction, kwargs: SendKwargs | TextKwargs) -> bool:
    try:
        await interaction.followup.send(**kwargs, ephemeral=True, wait=True)
    except discord.HTTPException as err:  # e.g. the 15-minute token expired
        _log.warning("could not send a /digest follow-up: %s %s", err.status, err.text)
        return False
    return True


def split_text(text: str, limit: int = CONTENT) -> list[str]:
    """Message-sized chunks, cut between lines where possible."""
    chunks: list[str] = []
    current = ""
    for line in (text or " ").split("\n"):
        while len(line) > limit:
            if current:
                chunks.append(current)
                current = ""
            chunks.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            chunks.append(current)
            candidate = line
        current = candidate
    if current or not chunks:
        chunks.append(current or " ")
    return chunks
