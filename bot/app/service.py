"""``DigestService``: every use case of digest-bot, called alike by the CLI, the chat commands and delivery.

The service builds digests and answers queries itself; the chat settings' use cases live beside it, each in its
own module (``bot.app.subscriptions``, ``bot.app.mutes``, ``bot.app.channels``), and it delegates to them. Where
blocking work runs (a bounded build pool, a light pool, worker processes for chat answers) is
``bot.app.pools``. Results are typed: ``Digest``, ``QueryResult`` or a ``Notice``.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Collection, Sequence
from datetime import datetime, timedelta
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar

from msgspec import Struct
from msgspec.structs import replace

from bot.app.access import GitHubFactory, RepoAccess
from bot.app.context import ChannelContext, Context
from bot.app.links import ReportLinks
from bot.app.pools import Pools
from bot.digest.window import default_window, is_daily
from bot.errors import UserError
from bot.model import Answer, AnswerNote, Digest, Listed, QueryResult, Suggestion, Window
from bot.model.views import ItemViewer
from bot.settings import Settings
from bot.store.records import ItemRecord
from bot.store.store import Store
from bot.timeutil import utcnow
from bot.topics.catalog import load_taxonomy
from bot.topics.items import item_topics, stored_topic_ids
from bot.topics.query import Query, QueryNote, WindowSpec, as_query, parse_query
from bot.topics.search import (
    Found,
    find_window,
    latest_activity,
    suggestions,
    topic_named,
    window_event,
)
from bot.topics.taxonomy import Taxonomy, Topic

# The notices are imported where one is said: a digest says none, and their 43 dataclasses are ~18 ms of a
# one-shot command's start-up.
if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

    from bot.analysis.analyst import Analyst
    from bot.app.channels import ChannelCommands
    from bot.app.mutes import MuteCommands
    from bot.app.notices import Help, ItemNotFound, Notice, Paused, QueryAdjusted, Why
    from bot.app.replies import Rendered
    from bot.app.subscriptions import SubscriptionCommands
    from bot.github.client import GitHubClient
    from bot.store.alerts import Alert
    from bot.store.chat import ChatState, Subscription
    from bot.store.mutes import Mutes as MuteStore

_log = logging.getLogger(__name__)

T = TypeVar("T")
DEFAULT_SEARCH_WINDOW = WindowSpec("relative", amount=timedelta(days=7), text="7d")
MUTED = "muted"  # why a daily DM was skipped: its query names a topic its user muted
QUERY_PROBLEM = "query_problem"  # why a daily DM was skipped: its query does not say what it means (labe:bug)


class RenderSpec(Struct, frozen=True):
    """How a platform renders a private answer (a picklable renderer) and how many messages it may take."""

    render: Callable[..., Sequence[Any]]
    limit: int


class Skip(Struct, frozen=True):
    """A delivery that must not be sent: recorded as skipped with ``reason``."""

    reason: str


class DigestService:
    def __init__(self, store: Store, settings: Settings, *, build_threads: int | None = None,
                 build_processes: int | None = None, github: GitHubFactory | None = None) -> None:
        """``build_threads``: the build pool's size; None takes ``[chat] build_threads``. ``build_processes``:
        worker processes for chat answers (``in_heavy_pool``); None takes ``[chat] build_processes``; 0, or a
        store only this process can open (in-memory SQLite), keeps them on threads. ``github`` makes the
        client that asks whether a repository is public (``[access] allow_public``); by default one from the
        settings, made only when asked."""
        self.store = store
        self.access = RepoAccess(settings, github=github or self._github_client)
        self.settings = settings
        threads = settings.file.chat.build_threads if build_threads is None else build_threads
        processes = settings.file.chat.build_processes if build_processes is None else build_processes
        self.pools = Pools(build_threads=threads,
                           build_processes=processes if store.shareable_url is not None else 0,
                           spawn=self._spawn_workers)
        self._analyst: tuple[asyncio.AbstractEventLoop, Analyst] | None = None  # made on first use, per loop
        # Each channel's language as this process last read it: what a busy notice is said in before any store
        # work (``known_locale``). Another process's change shows here on this process's next command there.
        self._locales: dict[tuple[str, str], str] = {}

    @property
    def settings(self) -> Settings:
        return self._settings

    @settings.setter
    def settings(self, settings: Settings) -> None:
        self._settings = settings
        # The allow-list and the use cases always follow the settings in use (a reload); those not made yet
        # will be made with them.
        made = (self.__dict__.get(name) for name in ("muting", "subscribing", "channel_admin"))
        for part in (self.access, *(part for part in made if part is not None)):
            part.settings = settings
        self.links = ReportLinks(settings)

    # The chat-settings use cases, made on first use: a digest or a query from the terminal needs none of them
    # (nor the notices they say).

    @cached_property
    def chat(self) -> ChatState:
        """Channels, subscriptions and handled requests (made on first use: a one-shot digest needs none)."""
        from bot.store.chat import ChatState

        return ChatState(self.store)

    @cached_property
    def mutes(self) -> MuteStore:
        from bot.store.mutes import Mutes as MuteStore

        return MuteStore(self.store)

    @cached_property
    def muting(self) -> MuteCommands:
        from bot.app.mutes import MuteCommands

        return MuteCommands(self.settings, self.chat, self.mutes)

    @cached_property
    def subscribing(self) -> SubscriptionCommands:
        from bot.app.subscriptions import SubscriptionCommands

        return SubscriptionCommands(self.settings, self.store, self.chat, self.muting, self.admit)

    @cached_property
    def channel_admin(self) -> ChannelCommands:
        from bot.app.channels import ChannelCommands

        return ChannelCommands(self.settings, self.store, self.chat, self.muting, self.subscribing, self.admit,
                               self.channel_context)

    # --- where blocking work runs (bot.app.pools) ---

    @property
    def build_threads(self) -> int:
        return self.pools.build_threads

    @property
    def build_processes(self) -> int:
        return self.pools.build_processes

    def _spawn_workers(self, processes: int) -> ProcessPoolExecutor:
        from bot.app.workers import build_pool  # multiprocessing: not a one-shot command's start-up

        url = self.store.shareable_url
        assert url is not None
        return build_pool(processes, url, self.settings, worker_service)

    def close(self) -> None:
        self.pools.close()

    async def in_heavy_pool(self, fn: Callable[..., T], *args: Any) -> T:
        return await self.pools.in_heavy_pool(fn, *args)

    async def in_pool(self, fn: Callable[..., T], *args: Any) -> T:
        return await self.pools.in_pool(fn, *args)

    async def in_light_pool(self, fn: Callable[..., T], *args: Any) -> T:
        return await self.pools.in_light_pool(fn, *args)

    async def in_intake_pool(self, fn: Callable[..., T], *args: Any) -> T:
        return await self.pools.in_intake_pool(fn, *args)

    # --- contexts ---

    @property
    def default_repo(self) -> str | None:
        return self.settings.default_repo

    def default_context(self, *, repo: str | None = None, locale: str | None = None) -> ChannelContext:
        """The configured defaults (the terminal, a channel nobody configured)."""
        digest = self.settings.digest
        return ChannelContext(repo=repo or self.default_repo, post_time=digest.post_time,
                              timezone=digest.timezone, locale=locale or digest.locale)

    def channel_context(self, platform: str, channel_id: str, *, mutes_at: datetime | None = None) -> ChannelContext:
        """A channel's stored settings over the configured ones; with ``mutes_at``, its mutes in force then."""
        stored = self.chat.channel(platform, channel_id)
        base = self.default_context()
        from bot.store.mutes import CHANNEL
        mutes = (frozenset(self.mutes.active(platform, CHANNEL, channel_id, mutes_at)) if mutes_at is not None
                 else frozenset())
        return ChannelContext(
            repo=(stored.repo if stored else None) or base.repo,
            post_time=(stored.post_time if stored else None) or base.post_time,
            timezone=(stored.timezone if stored else None) or base.timezone,
            locale=(stored.locale if stored else None) or base.locale,
            topics=stored.topics if stored else None,
            mutes=mutes,
            platform=platform,
            channel_id=channel_id,
            configured=stored is not None,
            enabled=stored.enabled if stored else True,
            status=stored.status if stored else None,
            updated_at=stored.updated_at if stored else None,
            thread="full" if stored and stored.thread == "full" else "short",
            team_id=stored.team_id if stored else None,
        )

    def caller_context(self, caller: Context) -> ChannelContext:
        """Where a command is answered: the channel's settings and, in a channel, its mutes in force now (a
        channel's digests leave out what it muted; a DM keeps everything). The workspace is the caller's."""
        context = self.channel_context(caller.platform, caller.channel_id,
                                       mutes_at=None if caller.is_dm else caller.now)
        self._locales[(caller.platform, caller.channel_id)] = context.locale
        return replace(context, team_id=caller.team_id) if caller.team_id else context

    def known_locale(self, caller: Context) -> str:
        """The caller's channel's language without a store call: as this process last read it, else the
        configured one. For what is said before any store work: a fair-use refusal under a burst."""
        return self._locales.get((caller.platform, caller.channel_id)) or self.default_context().locale

    async def ask(self, caller: Context, channel: ChannelContext, text: str | Query, *,
                  post: bool) -> tuple[Answer, tuple[QueryAdjusted, ...]]:
        """``/digest <text>`` (or ``/digest post <text>``) from a chat command, and what to say with it; ``text``
        as the command parsed it (``Ask.query``), never parsed again."""
        if post and caller.is_dm:
            from bot.app.notices import PostNeedsChannel, Refused
            raise Refused(PostNeedsChannel())
        return await self.answer_with_notes(channel, text, now=caller.now)

    def subscription_context(self, sub: Subscription, *, mutes: Collection[str] = ()) -> ChannelContext:
        """A daily DM's context: its repository, time, zone and language, every topic, its user's mutes."""
        return ChannelContext(repo=sub.repo or self.default_repo, post_time=sub.post_time, timezone=sub.timezone,
                              locale=sub.locale, mutes=frozenset(mutes))

    def channels(self) -> list[ChannelContext]:
        """Every channel that gets daily posts: enabled, not marked unreachable, with a repository."""
        contexts = (self.channel_context(stored.platform, stored.channel_id) for stored in self.chat.channels()
                    if stored.enabled and not stored.status)
        return [context for context in contexts if context.posts_daily]

    def active_subscriptions(self, platforms: Collection[str]) -> list[Subscription]:
        return [s for s in self.chat.all_subscriptions() if s.platform in platforms and not s.paused]

    def user_mutes(self, now: datetime) -> dict[tuple[str, str], tuple[str, ...]]:
        """Every user's mutes in force at ``now``, in one read: (platform, user) -> topic ids."""
        from bot.store.mutes import USER
        return {key: tuple(topics) for key, topics in self.mutes.active_all(USER, now).items()}

    # --- targets a platform refuses (bot.app.channels) ---

    def pause_workspace(self, platform: str, team_id: str, *, subscriptions: bool = True) -> None:
        self.channel_admin.pause_workspace(platform, team_id, subscriptions=subscriptions)

    def resume_workspace(self, platform: str, team_id: str) -> None:
        self.channel_admin.resume_workspace(platform, team_id)

    def mark_unreachable(self, platform: str, target: str, *, dm: bool, reason: str) -> None:
        self.channel_admin.mark_unreachable(platform, target, dm=dm, reason=reason)

    # --- which repositories (docs/access.md) ---

    def admit(self, repo: str) -> str:
        """``repo`` as followed, or ``Refused(RepoNotAllowed)``. Blocking and from memory: an async caller
        runs ``look_up`` first when ``allow_public`` may need GitHub's answer."""
        admitted = self.access.admitted(repo)
        if admitted is None:
            from bot.app.notices import Refused, RepoNotAllowed
            raise Refused(RepoNotAllowed(repo))
        return admitted

    async def look_up(self, repo: str | None) -> None:
        """Ask GitHub whether ``repo`` is public when only it can tell (once a day at most); decides nothing."""
        if repo is not None and self.access.undecided(repo):
            await self.access.admit(repo)

    async def vet(self, repo: str) -> str:
        """``admit`` after ``look_up``: for the worker, before it syncs or posts anything of ``repo``."""
        await self.look_up(repo)
        return self.admit(repo)

    def refused(self, repo: str | None) -> bool:
        """Known not to be allowed now (the scheduler plans no job for it)."""
        return repo is not None and self.access.refused(repo)

    # --- digests and answers ---

    def _github_client(self) -> GitHubClient:
        # Lazily: a digest or a query never calls GitHub, and the client's stack (httpx, JWT, cryptography)
        # is most of a command's start-up.
        from bot.github.factory import github_client

        return github_client(self.settings)

    def taxonomy(self, repo: str | None, *, restrict: bool = False) -> Taxonomy:
        return load_taxonomy(self.settings, repo, restrict=restrict)

    def last_synced(self, repo: str) -> datetime | None:
        return self.store.last_synced(repo)

    def sync_marks(self, repo: str) -> tuple[datetime | None, datetime | None]:
        return self.store.sync_marks(repo)

    def build_digest(self, context: ChannelContext, window: Window, *, analyse: bool = True,
                     series: bool = False) -> Digest:
        """Blocking: the digest of ``window`` for ``context``: every topic's section but its muted ones, the
        topics it follows marked (``Digest.followed``: they lead the chat post) and its thread setting.

        Mutes act on the taxonomy, so topic sections, trends and the summary agree on what a topic's items are.
        ``analyse=False`` never asks the LLM, even when one is configured (the demo). ``series``: the report
        page's chart data too (``Digest.activity_series``); chat posts never ask for it. With ``PUBLIC_URL`` set
        and report pages on, a day's digest links to its report page (``Digest.report_url``)."""
        if context.repo is None:
            from bot.app.notices import NoRepo, Refused
            raise Refused(NoRepo())
        return self._build_digest(replace(context, repo=self.admit(context.repo)), window, analyse=analyse,
                                  series=series)

    def _build_digest(self, context: ChannelContext, window: Window, *, analyse: bool = True,
                      series: bool = False) -> Digest:
        """``build_digest`` for a context whose repository was admitted already (checked once per command)."""
        repo = context.repo
        assert repo is not None
        if self.store.last_synced(repo) is None:
            from bot.app.notices import NotSynced, Refused
            raise Refused(NotSynced(repo))
        taxonomy = load_taxonomy(self.settings, repo)
        followed = self.followed_topics(context, repo, taxonomy)
        muted = None
        if context.mutes:
            muted = load_taxonomy(self.settings, repo, restrict=False).restricted(sorted(context.mutes))
            taxonomy = taxonomy.restricted([topic for topic in taxonomy.ids() if topic not in context.mutes])
        from bot.digest.build import BuildOptions, DigestBuilder  # the digest's modules: not a search's start-up

        builder = DigestBuilder(
            self.store,
            taxonomy,
            BuildOptions(hot_min_comments=self.settings.digest.hot_min_comments, locale=context.locale,
                         bots_key=self.settings.bots_key, series=series,
                         series_topics=tuple(topic for topic in followed if topic not in context.mutes),
                         followed=tuple(topic for topic in followed if topic not in context.mutes)),
            is_bot=self.settings.is_bot,
            muted=muted,
        )
        digest = replace(builder.build(repo, window), thread=context.thread,
                         report_url=self.report_day_url(repo, window, context))
        if analyse and self.settings.llm_enabled:
            from bot.analysis.analyst import analyse_digest_blocking  # only deployments with an LLM load it

            digest = analyse_digest_blocking(self.store, self.settings, digest)  # no loop here: the CLI
        return digest

    def report_day_url(self, repo: str, window: Window, context: ChannelContext) -> str | None:
        """The signed link to the report page of a day's digest (None: not a day, no PUBLIC_URL, reports off)."""
        if not is_daily(window):
            return None
        return self.links.day_url(repo, window.end.astimezone(context.zone).date(), now=utcnow(), day_end=window.end)

    def followed_topics(self, context: ChannelContext, repo: str, taxonomy: Taxonomy) -> tuple[str, ...]:
        """The topics ``context`` follows: its own ``topics``, else the repository's ``default_topics``; those the
        taxonomy has, in that order. A default naming no topic is a configuration error, said as such."""
        if context.topics is not None:
            return tuple(topic for topic in context.topics if topic in taxonomy.ids())
        configured = next((r for r in self.settings.repos if r.name == repo), None)
        defaults = tuple(configured.default_topics) if configured is not None else ()
        unknown = sorted(set(defaults) - set(taxonomy.ids()))
        if unknown:
            raise UserError(f"{self.settings.digest_path}: repos.default_topics: unknown topic(s) "
                            f"{', '.join(unknown)}")
        return defaults

    async def digest(self, context: ChannelContext, window: Window, *, analyse: bool = True) -> Digest:
        """The digest built in the pool, then analysed on this event loop (the process' one ``Analyst``)."""
        await self.look_up(context.repo)
        digest = await self.in_pool(functools.partial(self.build_digest, analyse=False), context, window)
        return await self.analyse(digest) if analyse else digest

    async def analyse(self, digest: Digest) -> Digest:
        """The LLM's analysis of ``digest`` when one is configured. Every digest analysed at once on this loop
        shares one ``Analyst``: its limit on calls in flight, and each prompt asked once."""
        if not self.settings.llm_enabled:
            return digest
        from bot.analysis.analyst import Analyst, analyse_digest

        loop = asyncio.get_running_loop()
        if self._analyst is None or self._analyst[0] is not loop:
            self._analyst = (loop, Analyst(self.store, self.settings))
        return await analyse_digest(self.store, self.settings, digest, analyst=self._analyst[1])

    def window_for(self, context: ChannelContext, query: Query, now: datetime) -> Window:
        """The window a query asks for, or the digest's: the day up to the context's latest post time."""
        return self.window_noted(context, query, now)[0]

    def window_noted(self, context: ChannelContext, query: Query,
                     now: datetime) -> tuple[Window, tuple[QueryNote, ...]]:
        """``window_for``, and what had to change to make the query's window one (clamped dates, the cap)."""
        if query.window is not None:
            return query.window.resolve_noted(now, context.zone)
        if query.is_empty:
            return default_window(now, context.zone, context.post_time), ()
        return DEFAULT_SEARCH_WINDOW.resolve_noted(now, context.zone)

    def answer_now(self, context: ChannelContext, text: str | Query, *, now: datetime,
                   analyse: bool = True) -> Answer:
        """Blocking ``/digest <text>``: the digest when the text has no words or filters, else the matches.
        Raises ``Refused`` (``QueryProblem``s) for text that does not say what it means."""
        return self.answer_noted(context, text, now=now, analyse=analyse)[0]

    def answer_noted(self, context: ChannelContext, text: str | Query, *, now: datetime, analyse: bool = True,
                     strict: bool = False) -> tuple[Answer, tuple[QueryAdjusted, ...]]:
        """``answer_now``, and what to say with the answer: limits applied, dates clamped, unsynced history, a
        looser reading (a query answer carries the same notes: ``QueryResult.notes``). ``text`` is parsed here
        unless a command parsed it already; the repository is admitted here, once. ``strict``: every word must
        match (a standing query: daily DMs), no looser reading."""
        # The notices load only when there is something to say (see the imports above).
        query = as_query(text)
        if query.problems:
            from bot.app.notices import query_refusal
            raise query_refusal(query.problems)
        repo = query.repo or context.repo
        if repo is None:
            from bot.app.notices import NoRepo, Refused
            raise Refused(NoRepo())
        repo = self.admit(repo)
        if not self.store.has_items(repo):
            from bot.app.notices import Refused, RepoNotSynced
            raise Refused(RepoNotSynced(repo))
        context = replace(context, repo=repo)
        window, window_notes = self.window_noted(context, query, now)
        if query.is_empty:
            digest = self._build_digest(context, window, analyse=analyse)
            said = list(dict.fromkeys([*query.adjustments, *window_notes]))
            if not said:
                return digest, ()
            from bot.app.notices import QueryAdjusted
            return digest, tuple(QueryAdjusted.of(note) for note in said)
        asked: list[ItemRecord] | None = None
        number_notes: list[QueryAdjusted] = []
        if query.numbers:
            asked, number_notes = self._asked_items(context, query, window)
        result = self.search(context, query, window, notes=window_notes, asked=asked, asked_notes=number_notes,
                             strict=strict)
        if not result.notes:
            return result, ()
        from bot.app.notices import QueryAdjusted
        return result, tuple(QueryAdjusted.of_answer(note) for note in result.notes)

    def _asked_items(self, context: ChannelContext, query: Query,
                     window: Window) -> tuple[list[ItemRecord], list[QueryAdjusted]]:
        """The items a query asks for by number (``#123``), whatever the window, and what to say about them: a
        number the store does not hold, an item with no activity in the window (and its last). Refuses
        (``ItemNotFound``) when the store holds none of them."""
        from bot.app.notices import QueryAdjusted, Refused
        repo = context.repo
        assert repo is not None
        found = {number: record for number in query.numbers
                 if (record := self.store.item(repo, number)) is not None}
        if not found:
            raise Refused(self._not_found(repo, query.numbers[0], context))
        notes = [QueryAdjusted("not_in_store", str(number)) for number in query.numbers if number not in found]
        active = self.store.window_activity(repo, window.start, window.end).items if found else {}
        for number, record in found.items():
            if number not in active:
                last = latest_activity(record).astimezone(context.zone)
                notes.append(QueryAdjusted("outside_window", str(number), f"{last:%Y-%m-%d %H:%M}"))
        return list(found.values()), notes

    def _not_found(self, repo: str, number: int, context: ChannelContext) -> ItemNotFound:
        from bot.app.notices import ItemNotFound
        synced_from = self.store.synced_from(repo)
        return ItemNotFound(repo, number, f"{synced_from.astimezone(context.zone):%Y-%m-%d}" if synced_from else "")

    async def answer(self, context: ChannelContext, text: str | Query, *, now: datetime,
                     strict: bool = False) -> Answer:
        return (await self.answer_with_notes(context, text, now=now, strict=strict))[0]

    async def answer_with_notes(self, context: ChannelContext, text: str | Query, *, now: datetime,
                                strict: bool = False) -> tuple[Answer, tuple[QueryAdjusted, ...]]:
        query = as_query(text)  # parsed once, here or by the command: the worker gets the parsed query
        repo = query.repo or context.repo
        await self.look_up(repo)  # a public repository: asked on GitHub once
        if self.build_processes > 0:
            from bot.app import workers

            verdicts = self.access.verdicts([repo])  # the worker admits as this process would
            answer, notes = await self.in_heavy_pool(workers.answer_noted, self.settings, verdicts, context, query,
                                                     now, strict)
        else:
            noted = functools.partial(self.answer_noted, now=now, analyse=False)
            if strict:
                noted = functools.partial(noted, strict=True)
            answer, notes = await self.in_pool(noted, context, query)
        return (await self.analyse(answer) if isinstance(answer, Digest) else answer), notes

    async def ask_rendered(self, caller: Context, channel: ChannelContext, text: str | Query, render: RenderSpec
                           ) -> tuple[Rendered, tuple[QueryAdjusted, ...]] | None:
        """A private ``/digest <text>`` built and rendered in one worker call; None where that cannot be (threads
        only, or an LLM analysis must run on this loop between the build and the render)."""
        if self.build_processes <= 0 or self.settings.llm_enabled:
            return None
        from bot.app import workers

        query = as_query(text)
        repo = query.repo or channel.repo
        await self.look_up(repo)
        verdicts = self.access.verdicts([repo])
        return await self.in_heavy_pool(workers.answer_rendered, self.settings, verdicts, channel, query, caller.now,
                                        render.render, render.limit)

    def _unsynced_before(self, repo: str, window: Window) -> datetime | None:
        """When the store's history of ``repo`` starts, if ``window`` reaches before it."""
        synced_from = self.store.synced_from(repo)
        return synced_from if synced_from is not None and window.start < synced_from else None

    def search(self, context: ChannelContext, query: Query, window: Window, *, text: str | None = None,
               notes: tuple[QueryNote, ...] = (), asked: list[ItemRecord] | None = None,
               asked_notes: Sequence[QueryAdjusted] = (), strict: bool = False) -> QueryResult:
        """The matches of ``query`` (``bot.topics.search.find``: every word, else a looser reading unless
        ``strict``) with what to say with them (``QueryResult.notes``); ``notes``: what resolving its window
        changed. ``asked``: the items the query asks for by number, searched instead of the window's
        (``asked_notes``: what was said about them). ``text``: the query as shown (default: as typed)."""
        repo = context.repo
        assert repo is not None
        taxonomy = load_taxonomy(self.settings, repo, restrict=False)
        # The columns a search reads, of the items it can match first, with the filters a column answers in SQL.
        read = functools.partial(self.store.search_window, repo, window.start, window.end)
        comments = functools.partial(self.store.comments_containing, repo, window.start, window.end)
        found = find_window(query, window, taxonomy, read, self.settings.is_bot, comments=comments,
                            loose=not strict, asked=asked)
        adjustments = list(dict.fromkeys([*query.adjustments, *notes]))
        said = _reading_notes(found, context.locale)
        if adjustments:
            from bot.app.notices import QueryAdjusted
            said += [QueryAdjusted.of(note).as_note() for note in adjustments]
        parsed_notes = [note.english() for note in adjustments]
        parsed_notes += [_asked_note(note) for note in asked_notes]
        if asked is None and (synced_from := self._unsynced_before(repo, window)) is not None:
            local = synced_from.astimezone(context.zone)
            parsed_notes.append(f"activity before {local:%Y-%m-%d %H:%M} was never synced")
            said.append(AnswerNote("never_synced", f"{local:%Y-%m-%d %H:%M}"))
        said += [note.as_note() for note in asked_notes]
        parsed_notes += [_reading_english(note) for note in _reading_notes(found, context.locale)]
        if found.reading == "topic" and len(found.topics) == 1:
            topic: Topic | None = found.topics[0]
        else:
            topic = topic_named(taxonomy, query.words[0]) if len(query.words) == 1 else None
        advice: list[Suggestion] = []
        if not found.items and asked is None:
            advice = suggestions(taxonomy, found.unmatched or query.words, found.labels)
            if query.window is None or (window.end - window.start) < timedelta(days=30):
                advice.append(Suggestion("wider_window", "30d"))
        parsed = query.as_dict()
        if parsed_notes:
            parsed["notes"] = parsed_notes
        return QueryResult(
            repo=repo,
            query=query.text if text is None else text,
            window=window,
            items=tuple(found.items),
            topic=topic.id if topic else None,
            topic_title=topic.display_name(context.locale) if topic else None,
            parsed=parsed,
            suggestions=tuple(advice),
            locale=context.locale,
            report_url=self.links.search_url(repo, query.text if text is None else text, now=utcnow()),
            reading=found.reading,
            notes=tuple(dict.fromkeys(said)),
        )

    def without_muted(self, answer: Answer, query: str | Query, repo: str, hidden: Collection[str]) -> Answer | Skip:
        """A daily search without the items of muted topics; skipped whole when the query names one of them."""
        if not isinstance(answer, QueryResult) or not hidden:
            return answer
        taxonomy = load_taxonomy(self.settings, repo, restrict=False)
        named = {topic.id for word in as_query(query).words if (topic := topic_named(taxonomy, word)) is not None}
        if answer.topic is not None:
            named.add(answer.topic)
        if named & set(hidden):
            return Skip(MUTED)
        topics, _ = stored_topic_ids(self.store, taxonomy, repo, (item.number for item in answer.items))
        kept = tuple(item for item in answer.items if not set(hidden).intersection(topics.get(item.number, ())))
        return answer if len(kept) == len(answer.items) else replace(answer, items=kept)

    # --- why an item is where it is ---

    def why(self, context: ChannelContext, number: int, *, now: datetime) -> Why:
        """Blocking ``/digest why 123``: where item ``number`` is in the context's digest of the day up to
        ``now`` (every section it is in, with the typed reason), or that it is not there and what happened to
        it in the window. Raises ``Refused`` (no repository, not synced, no such item in the store)."""
        from bot.app.notices import NoRepo, NotSynced, Refused, Why, WhyPlacement, WhyTopic
        if context.repo is None:
            raise Refused(NoRepo())
        repo = self.admit(context.repo)
        if self.store.last_synced(repo) is None:
            raise Refused(NotSynced(repo))
        record = self.store.item(repo, number)
        if record is None:
            raise Refused(self._not_found(repo, number, context))
        context = replace(context, repo=repo)
        window = default_window(now, context.zone, context.post_time)
        digest = self._build_digest(context, window, analyse=False)  # admitted above: once per command
        taxonomy = load_taxonomy(self.settings, repo, restrict=False)
        placements = tuple(
            WhyPlacement(section.kind, position, len(section.items), item.why,
                         topic.ref() if section.topic and (topic := taxonomy.get(section.topic)) else None)
            for section in digest.sections for position, item in enumerate(section.items, 1)
            if item.number == number
        )
        listed = tuple(item.why.event for items in digest.appendix.values() for item in items
                       if item.number == number and isinstance(item.why, Listed))
        shown = {section.topic for section in digest.sections if section.topic}
        topics = tuple(WhyTopic(topic.ref(), match.evidence, match.topic_id in shown)
                       for match in item_topics(taxonomy, record) if (topic := taxonomy.get(match.topic_id)))
        activity = self.store.window_activity(repo, window.start, window.end)
        view = ItemViewer(window, activity, self.settings.is_bot)
        zone = context.zone
        return Why(
            repo=repo, number=number, item_kind=record.kind, title=record.title, url=record.url,
            author=record.author, state="merged" if record.merged_at is not None else record.state,
            window_start=f"{window.start.astimezone(zone):%Y-%m-%d %H:%M}",
            window_end=f"{window.end.astimezone(zone):%Y-%m-%d %H:%M}", timezone=context.timezone,
            placements=placements, listed=listed,
            activity=window_event(record, window, view.comments(record)) if number in activity.items else None,
            topics=topics,
            last_activity=f"{latest_activity(record).astimezone(zone):%Y-%m-%d %H:%M}",
            bot=view.is_bot(record),
        )

    # --- subscriptions and alerts (bot.app.subscriptions, bot.app.channels) ---

    def subscribe(self, caller: Context, channel: ChannelContext, text: str | Query, *, at: str | None,
                  tz: str | None, live: bool = False) -> Notice:
        return self.subscribing.subscribe(caller, channel, text, at=at, tz=tz, live=live)

    def unsubscribe(self, caller: Context, text: str | None, *, live: bool = False) -> Notice:
        return self.subscribing.unsubscribe(caller, text, live=live)

    def subscriptions(self, caller: Context, channel: ChannelContext) -> Notice:
        return self.subscribing.subscriptions(caller, channel)

    def channel_alert(self, caller: Context, channel: ChannelContext, text: str | None, *, off: bool,
                      parsed: Query | None = None) -> Notice:
        return self.channel_admin.channel_alert(caller, channel, text, off=off, parsed=parsed)

    def alert_answer(self, alerts: Sequence[Alert], repo: str, window: Window, arrived: Collection[int],
                     hidden: Collection[str], *, locale: str, timezone: str) -> QueryResult | Skip:
        """One batch of live alerts for one target (blocking): the ``arrived`` items (new ones first seen in the
        batch's ``window``) that match any of its ``alerts``' queries, leaving out muted topics (an alert that
        names a muted topic says nothing). ``Skip`` when nothing is left."""
        created = [record.created_at for number in arrived if (record := self.store.item(repo, number)) is not None]
        if not created:
            return Skip("no_matches")
        searched = Window(min(min(created), window.start), window.end)
        context = ChannelContext(repo=repo, post_time=self.settings.digest.post_time, timezone=timezone,
                                 locale=locale, mutes=frozenset(hidden))
        found: dict[int, Any] = {}
        asked: list[str] = []
        first: QueryResult | None = None
        for alert in alerts:
            query = parse_query(alert.query)
            if query.problems or query.window is not None:
                continue
            result = self.search(context, query, searched, text=alert.query, strict=True)
            kept = self.without_muted(result, query, repo, hidden)
            if not isinstance(kept, QueryResult):
                continue
            matched = [item for item in kept.items if item.number in arrived and item.number not in found]
            if matched:
                first = first or kept
                asked.append(alert.query)
                found.update((item.number, item) for item in matched)
        if first is None:
            return Skip("no_matches")
        return replace(first, query=" · ".join(asked), window=window, items=tuple(found.values()), suggestions=(),
                       topic=first.topic if len(asked) == 1 else None,
                       topic_title=first.topic_title if len(asked) == 1 else None, alert=True)

    def open_command(self, caller: Context) -> tuple[ChannelContext, Paused | None]:
        """The start of a chat command, in one call: where it is answered, and the DM pause notice it carries."""
        return self.caller_context(caller), self.take_pause_notice(caller)

    def claim_and_open(self, caller: Context, claim: str) -> tuple[ChannelContext, Paused | None] | None:
        """``open_command`` once per platform request key; None for a retry another process already handled."""
        return self.open_command(caller) if self.chat.claim_request(claim) else None

    def take_pause_notice(self, caller: Context) -> Paused | None:
        """Why the caller's DMs (daily digests, live alerts) were paused, said once."""
        from bot.app.notices import Paused
        daily = self.chat.take_pause_notice(caller.platform, caller.user_id)
        from bot.store.alerts import AlertState
        live = AlertState(self.store).take_pause_notice(caller.platform, caller.user_id)
        reason = daily or live
        return Paused(reason) if reason else None

    # --- channel settings and mutes (bot.app.channels, bot.app.mutes) ---

    def show_channel(self, caller: Context, channel: ChannelContext) -> Notice:
        return self.channel_admin.show_channel(caller, channel)

    def configure_channel(self, caller: Context, channel: ChannelContext, changes: dict[str, object]) -> Notice:
        return self.channel_admin.configure_channel(caller, channel, changes)

    def help(self) -> Help:
        from bot.app.notices import Help
        return Help(tuple(load_taxonomy(self.settings).ids()))

    def list_mutes(self, caller: Context, channel: ChannelContext, *, personal: bool) -> Notice:
        return self.muting.list_mutes(caller, channel, personal=personal)

    def mute(self, caller: Context, channel: ChannelContext, text: str, duration: timedelta | None, *,
             personal: bool) -> Notice:
        return self.muting.mute(caller, channel, text, duration, personal=personal)

    def unmute(self, caller: Context, channel: ChannelContext, text: str | None, *, personal: bool) -> Notice:
        return self.muting.unmute(caller, channel, text, personal=personal)


def worker_service(store: Store, settings: Settings) -> DigestService:
    """A chat-answer worker process's own service (``bot.app.workers``): threads only, one build at a time."""
    return DigestService(store, settings, build_threads=1, build_processes=0)


def _asked_note(note: QueryAdjusted) -> str:
    """An item-number note as ``parsed.notes`` says it (English, like every JSON note)."""
    if note.adjustment == "not_in_store":
        return f"#{note.value} is not in the store"
    return f"#{note.value} had no activity in the window; its last activity was {note.hint}"


def _reading_notes(found: Found, locale: str) -> list[AnswerNote]:
    """The note of a looser reading (none for the strict one): how many words the items shown have, or the
    topics read alone (their names in ``locale``)."""
    if found.reading == "most_words":
        return [AnswerNote("most_words", str(found.least), str(found.words))]
    if found.reading == "topic":
        names = " + ".join(topic.display_name(locale) for topic in found.topics)
        return [AnswerNote("topic_alone", names, ",".join(topic.id for topic in found.topics))]
    return []


def _reading_english(note: AnswerNote) -> str:
    """A looser reading as ``parsed.notes`` says it (English, like every JSON note)."""
    if note.kind == "most_words":
        return f"no item matched all {note.hint} words; showing items with at least {note.value} of them"
    return f"no item matched every word; showing the topic {note.hint} alone"
