"""``DigestService``: every use case of digest-bot, called alike by the CLI, the chat commands and delivery.

Reads and writes of the store are synchronous (SQLAlchemy); the async entry points run them in the service's
own bounded build pool (``[chat] build_threads``), so heavy digests queue there and never starve the event loop's
default executor (acks, ledger writes, lease renewals). Cheap store calls of commands (help, settings,
subscriptions, mutes, request dedupe) run in a small light pool of their own (``in_light_pool``), so they never
wait behind builds. Results are typed: ``Digest``, ``QueryResult`` or a ``Notice``.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from bot.app.access import GitHubFactory, RepoAccess
from bot.app.context import ChannelContext, Context
from bot.app.links import ReportLinks
from bot.app.notices import (
    Alerts,
    AlertSet,
    AlertsRemoved,
    AlertView,
    ChannelSaved,
    ChannelShown,
    Help,
    ItemNotFound,
    Muted,
    Mutes,
    MuteView,
    NoRepo,
    NotAllowed,
    Notice,
    NotSynced,
    Paused,
    PostNeedsChannel,
    QueryAdjusted,
    Refused,
    RepoNeedsAdmin,
    RepoNotAllowed,
    RepoNotSynced,
    SettingsInChannel,
    Subscribed,
    SubscriptionView,
    SubscriptionWindow,
    TooManySubscriptions,
    UnknownTopic,
    UnknownTopics,
    Unmuted,
    Unsubscribed,
    Why,
    WhyPlacement,
    WhyTopic,
    query_refusal,
)
from bot.app.notices import (
    Subscriptions as SubscriptionsNotice,
)
from bot.digest.window import default_window, is_daily
from bot.errors import UserError
from bot.model import Answer, AnswerNote, Digest, Listed, QueryResult, Suggestion, Window
from bot.model.views import ItemViewer
from bot.settings import Settings
from bot.store.alerts import Alert, AlertState
from bot.store.chat import WORKSPACE_GONE, ChannelSettings, ChatState, Subscription
from bot.store.mutes import CHANNEL, USER
from bot.store.mutes import Mutes as MuteStore
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
    suggest,
    suggestions,
    topic_named,
    window_event,
)
from bot.topics.taxonomy import Taxonomy, Topic

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

    from bot.analysis.analyst import Analyst
    from bot.app.replies import Rendered
    from bot.github.client import GitHubClient

_log = logging.getLogger(__name__)

T = TypeVar("T")
BUILD_THREADS = 4  # digests built at once per process; more wait their turn (their windows are fixed already)
LIGHT_THREADS = 2  # cheap command reads and writes (milliseconds each): enough, and few SQLite connections
DEFAULT_SEARCH_WINDOW = WindowSpec("relative", amount=timedelta(days=7), text="7d")
MUTED = "muted"  # why a daily DM was skipped: its query names a topic its user muted
QUERY_PROBLEM = "query_problem"  # why a daily DM was skipped: its query does not say what it means (labe:bug)


@dataclass(frozen=True)
class RenderSpec:
    """How a platform renders a private answer (a picklable renderer) and how many messages it may take."""

    render: Callable[..., Sequence[Any]]
    limit: int


@dataclass(frozen=True)
class Skip:
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
        self.chat = ChatState(store)
        self.mutes = MuteStore(store)
        threads = settings.file.chat.build_threads if build_threads is None else build_threads
        self.build_threads = max(1, threads)
        self._builds = ThreadPoolExecutor(max_workers=self.build_threads, thread_name_prefix="digest-build")
        self._light = ThreadPoolExecutor(max_workers=LIGHT_THREADS, thread_name_prefix="digest-light")
        # The bookkeeping of heavy commands (claim, channel, limits) queues here, not ahead of light commands': a
        # burst of 40 digests would otherwise put 40 store round trips in front of a `help`.
        self._intake = ThreadPoolExecutor(max_workers=1, thread_name_prefix="digest-intake")
        processes = settings.file.chat.build_processes if build_processes is None else build_processes
        self.build_processes = processes if store.shareable_url is not None else 0
        self._procs: ProcessPoolExecutor | None = None  # started on first use: the CLI and tests never pay for it
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
        self.access.settings = settings  # the allow-list always follows the settings in use
        self.links = ReportLinks(settings)

    def close(self) -> None:
        # Queued work is dropped; running work finishes first, so nothing reads a store its owner then closes.
        self._builds.shutdown(wait=True, cancel_futures=True)
        self._light.shutdown(wait=True, cancel_futures=True)
        self._intake.shutdown(wait=True, cancel_futures=True)
        if self._procs is not None:
            # wait: the workers exit now, not as orphans holding database connections after the web process
            self._procs.shutdown(wait=True, cancel_futures=True)
            self._procs = None

    async def in_heavy_pool(self, fn: Callable[..., T], *args: Any) -> T:
        """Run CPU-heavy chat work in a worker process (``[chat] build_processes``), else in the build pool.
        ``fn`` and ``args`` must pickle: a module-level function (or a partial of one) and model values."""
        if self.build_processes <= 0:
            return await self.in_pool(fn, *args)
        from concurrent.futures.process import BrokenProcessPool  # multiprocessing: not a one-shot command's

        pool = self._process_pool()
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, functools.partial(fn, *args))
        except BrokenProcessPool:  # a worker died (killed, out of memory): the next call starts a fresh pool
            if self._procs is pool:
                self._procs = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise

    def _process_pool(self) -> ProcessPoolExecutor:
        if self._procs is None:
            from bot.app.workers import build_pool

            url = self.store.shareable_url
            assert url is not None
            self._procs = build_pool(self.build_processes, url, self.settings)
        return self._procs

    async def in_pool(self, fn: Callable[..., T], *args: Any) -> T:
        """Run blocking store work in the build pool (bounded: heavy work queues, the loop stays free)."""
        return await asyncio.get_running_loop().run_in_executor(self._builds, functools.partial(fn, *args))

    async def in_light_pool(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a cheap blocking store call (a settings read, a subscription write) beside the build pool, so
        commands that need no build are answered while every build thread is busy."""
        return await asyncio.get_running_loop().run_in_executor(self._light, functools.partial(fn, *args))

    async def in_intake_pool(self, fn: Callable[..., T], *args: Any) -> T:
        """Run the store bookkeeping of a heavy command (before its build) apart from the light pool."""
        return await asyncio.get_running_loop().run_in_executor(self._intake, functools.partial(fn, *args))

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
        return {key: tuple(topics) for key, topics in self.mutes.active_all(USER, now).items()}

    def pause_workspace(self, platform: str, team_id: str, *, subscriptions: bool = True) -> None:
        """The app was removed from a workspace (Slack uninstall or revoked tokens, Discord guild left): its
        channels (and, with ``subscriptions``, the DMs subscribed from it) stop until it is installed again.
        Logged once, never an error."""
        channels, paused = self.chat.pause_workspace(platform, team_id, subscriptions=subscriptions)
        if subscriptions:
            paused += AlertState(self.store).pause_team(platform, team_id, WORKSPACE_GONE)
        _log.warning("%s workspace %s removed the app: %d channel(s) and %d subscription(s) paused", platform,
                     team_id, channels, paused)

    def resume_workspace(self, platform: str, team_id: str) -> None:
        """The workspace installed the app again: what ``pause_workspace`` stopped resumes."""
        channels, subscriptions = self.chat.resume_workspace(platform, team_id)
        subscriptions += AlertState(self.store).resume_team(platform, team_id, WORKSPACE_GONE)
        if channels or subscriptions:
            _log.warning("%s workspace %s is back: %d channel(s) and %d subscription(s) resumed", platform, team_id,
                         channels, subscriptions)

    def mark_unreachable(self, platform: str, target: str, *, dm: bool, reason: str) -> None:
        """The platform refused a target for good: pause the user's DMs (daily digests and live alerts: the user
        is told once, at their next command), or stop the channel's posts."""
        if dm:
            self.chat.pause_subscriptions(platform, target, reason)
            AlertState(self.store).pause(platform, target, reason)
        else:
            self.chat.mark_channel(platform, target, reason)
        _log.warning("%s %s %s: %s; marked and skipped from now on", platform, "user" if dm else "channel", target,
                     reason)

    # --- which repositories (docs/access.md) ---

    def admit(self, repo: str) -> str:
        """``repo`` as followed, or ``Refused(RepoNotAllowed)``. Blocking and from memory: an async caller
        runs ``look_up`` first when ``allow_public`` may need GitHub's answer."""
        admitted = self.access.admitted(repo)
        if admitted is None:
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
            raise Refused(NoRepo())
        return self._build_digest(replace(context, repo=self.admit(context.repo)), window, analyse=analyse,
                                  series=series)

    def _build_digest(self, context: ChannelContext, window: Window, *, analyse: bool = True,
                      series: bool = False) -> Digest:
        """``build_digest`` for a context whose repository was admitted already (checked once per command)."""
        repo = context.repo
        assert repo is not None
        if self.store.last_synced(repo) is None:
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
        query = as_query(text)
        if query.problems:
            raise query_refusal(query.problems)
        repo = query.repo or context.repo
        if repo is None:
            raise Refused(NoRepo())
        repo = self.admit(repo)
        if not self.store.has_items(repo):
            raise Refused(RepoNotSynced(repo))
        context = replace(context, repo=repo)
        window, window_notes = self.window_noted(context, query, now)
        if query.is_empty:
            digest = self._build_digest(context, window, analyse=analyse)
            return digest, tuple(QueryAdjusted.of(note) for note in dict.fromkeys([*query.adjustments,
                                                                                    *window_notes]))
        asked: list[ItemRecord] | None = None
        number_notes: list[QueryAdjusted] = []
        if query.numbers:
            asked, number_notes = self._asked_items(context, query, window)
        result = self.search(context, query, window, notes=window_notes, asked=asked, asked_notes=number_notes,
                             strict=strict)
        return result, tuple(QueryAdjusted.of_answer(note) for note in result.notes)

    def _asked_items(self, context: ChannelContext, query: Query,
                     window: Window) -> tuple[list[ItemRecord], list[QueryAdjusted]]:
        """The items a query asks for by number (``#123``), whatever the window, and what to say about them: a
        number the store does not hold, an item with no activity in the window (and its last). Refuses
        (``ItemNotFound``) when the store holds none of them."""
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
        said = [*_reading_notes(found, context.locale),
                *(QueryAdjusted.of(note).as_note() for note in adjustments)]
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

    # --- subscriptions ---

    def subscribe(self, caller: Context, channel: ChannelContext, text: str | Query, *, at: str | None,
                  tz: str | None, live: bool = False) -> Notice:
        """``text``: the query as typed, or as the command parsed it (``Subscribe.parsed``): parsed once."""
        query = as_query(text)
        text = query.text
        if query.problems:
            raise query_refusal(query.problems)
        if query.window is not None:
            return SubscriptionWindow()
        if live:
            return self._add_alert(caller, channel, text, query, dm=True)
        limit = self.settings.file.chat.max_subscriptions_per_user
        existing = self.chat.subscriptions(caller.platform, caller.user_id)
        if len(existing) >= limit and all(s.query.lower() != text.lower() for s in existing):
            return TooManySubscriptions(limit)
        repo = query.repo or channel.repo
        if repo is not None:
            repo = self.admit(repo)
            # In admins mode a repository beyond [[repos]] and this channel's own is an admin's to add.
            configured = {entry.name for entry in self.settings.repos}
            if (query.repo is not None and repo != channel.repo and repo not in configured
                    and not self._may_change_channel(caller)):
                return RepoNeedsAdmin(repo)
        subscription, created = self.chat.subscribe(
            caller.platform, caller.user_id, text, repo=repo,
            post_time=at or channel.post_time, timezone=tz or channel.timezone, locale=channel.locale,
            team_id=caller.team_id,
        )
        return Subscribed(SubscriptionView.of(subscription), created,
                          tuple(QueryAdjusted.of(note) for note in query.adjustments))

    def unsubscribe(self, caller: Context, text: str | None, *, live: bool = False) -> Notice:
        alerts = AlertState(self.store)
        if live:
            return AlertsRemoved(text, alerts.remove(caller.platform, caller.user_id, dm=True, query=text), dm=True)
        removed = self.chat.unsubscribe(caller.platform, caller.user_id, text)
        if text is None:  # all: the live alerts too
            removed += alerts.remove(caller.platform, caller.user_id, dm=True, query=None)
        remaining = tuple(map(SubscriptionView.of, self.chat.subscriptions(caller.platform, caller.user_id)))
        return Unsubscribed(text, removed, remaining)

    def subscriptions(self, caller: Context, channel: ChannelContext) -> Notice:
        subscriptions = self.chat.subscriptions(caller.platform, caller.user_id)
        timezone = _user_timezone(subscriptions, channel)
        alerts = AlertState(self.store).of(caller.platform, caller.user_id, dm=True)
        return SubscriptionsNotice(tuple(map(SubscriptionView.of, subscriptions)), timezone,
                                   self._mute_views(caller, USER, caller.user_id, channel, timezone),
                                   alerts=tuple(map(AlertView.of, alerts)))

    # --- live alerts ---

    def channel_alert(self, caller: Context, channel: ChannelContext, text: str | None, *, off: bool,
                      parsed: Query | None = None) -> Notice:
        """``channel alert <query>`` / ``channel alert`` / ``channel alert off [<query>]``: with the permission
        of channel settings. ``parsed``: ``text`` as the command parsed it (``ChannelAlert.parsed``)."""
        if caller.is_dm:
            return SettingsInChannel()
        alerts = AlertState(self.store)
        if text is None and not off:
            return Alerts(tuple(map(AlertView.of, alerts.of(caller.platform, caller.channel_id, dm=False))))
        if not self._may_change_channel(caller):
            return NotAllowed()
        if off:
            return AlertsRemoved(text, alerts.remove(caller.platform, caller.channel_id, dm=False, query=text),
                                 dm=False)
        assert text is not None
        query = parsed if parsed is not None and parsed.text == text else parse_query(text)
        if query.problems:
            raise query_refusal(query.problems)
        if query.window is not None:
            return SubscriptionWindow()
        return self._add_alert(caller, channel, text, query, dm=False)

    def _add_alert(self, caller: Context, channel: ChannelContext, text: str, query: Query, *, dm: bool) -> Notice:
        alerts = AlertState(self.store)
        target = caller.user_id if dm else caller.channel_id
        limit = self.settings.file.chat.max_subscriptions_per_user
        existing = alerts.of(caller.platform, target, dm=dm)
        if len(existing) >= limit and all(a.query.lower() != text.lower() for a in existing):
            return TooManySubscriptions(limit)
        repo = query.repo or channel.repo
        if repo is None:
            raise Refused(NoRepo())
        repo = self.admit(repo)
        configured = {entry.name for entry in self.settings.repos}
        if (query.repo is not None and repo != channel.repo and repo not in configured
                and not self._may_change_channel(caller)):
            return RepoNeedsAdmin(repo)
        alert, created = alerts.add(caller.platform, target, dm=dm, query=text, repo=repo, locale=channel.locale,
                                    timezone=channel.timezone, by=caller.user_id, team_id=caller.team_id)
        return AlertSet(AlertView.of(alert), dm, created, tuple(QueryAdjusted.of(note) for note in query.adjustments))

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
        daily = self.chat.take_pause_notice(caller.platform, caller.user_id)
        live = AlertState(self.store).take_pause_notice(caller.platform, caller.user_id)
        reason = daily or live
        return Paused(reason) if reason else None

    # --- channel settings ---

    def show_channel(self, caller: Context, channel: ChannelContext) -> Notice:
        return ChannelShown(channel, channel.timezone, self._channel_mute_views(caller, channel))

    def configure_channel(self, caller: Context, channel: ChannelContext, changes: dict[str, object]) -> Notice:
        if caller.is_dm:
            return SettingsInChannel()
        if not self._may_change_channel(caller):
            return NotAllowed()
        if isinstance(changes.get("repo"), str):
            changes = {**changes, "repo": self.admit(str(changes["repo"]))}
        topics = changes.get("topics")
        if isinstance(topics, tuple):
            known = set(load_taxonomy(self.settings).ids())
            unknown = tuple(topic for topic in topics if topic not in known)
            if unknown:
                return UnknownTopics(unknown, tuple(sorted(known)))
        base = (self.chat.channel(caller.platform, caller.channel_id)
                or ChannelSettings(platform=caller.platform, channel_id=caller.channel_id))
        updated = replace(base, **changes, enabled=True, status=None)  # type: ignore[arg-type]
        if caller.team_id:
            updated = replace(updated, team_id=caller.team_id)
        saved = self.chat.save_channel(updated, by=caller.user_id)
        _log.info("%s channel %s settings changed by %s: %s", caller.platform, caller.channel_id, caller.user_id,
                  sorted(changes))
        shown = self.channel_context(saved.platform, saved.channel_id)
        return ChannelSaved(shown, tuple(sorted(changes)), shown.timezone, self._channel_mute_views(caller, shown))

    def help(self) -> Help:
        return Help(tuple(load_taxonomy(self.settings).ids()))

    # --- mutes ---

    def list_mutes(self, caller: Context, channel: ChannelContext, *, personal: bool) -> Notice:
        personal = personal or caller.is_dm
        scope, target, timezone = self._mute_scope(caller, channel, personal)
        return Mutes(personal, timezone, self._mute_views(caller, scope, target, channel, timezone))

    def mute(self, caller: Context, channel: ChannelContext, text: str, duration: timedelta | None, *,
             personal: bool) -> Notice:
        personal = personal or caller.is_dm
        if not personal and not self._may_change_channel(caller):
            return NotAllowed()
        scope, target, timezone = self._mute_scope(caller, channel, personal)
        found = self._topic(text, channel)
        if found is None:
            taxonomy = load_taxonomy(self.settings, channel.repo, restrict=False)
            close = suggest(taxonomy, parse_query(text))
            return UnknownTopic(text, close[0] if close else None)
        until = caller.now + duration if duration is not None else None
        self.mutes.mute(caller.platform, scope, target, found.id, until, caller.user_id, now=caller.now)
        _log.info("%s %s %s: muted %s until %s (by %s)", caller.platform, scope, target, found.id, until,
                  caller.user_id)
        return Muted(personal, timezone, MuteView(found.id, found.display_name(channel.locale),
                                                  _local(until, timezone)))

    def unmute(self, caller: Context, channel: ChannelContext, text: str | None, *, personal: bool) -> Notice:
        personal = personal or caller.is_dm
        if not personal and not self._may_change_channel(caller):
            return NotAllowed()
        scope, target, timezone = self._mute_scope(caller, channel, personal)
        topic = None
        if text is not None:
            found = self._topic(text, channel)
            topic = found.id if found else text.lower()  # a topic since removed from the file
        removed = self.mutes.unmute(caller.platform, scope, target, topic, now=caller.now)
        _log.info("%s %s %s: unmuted %s (%d)", caller.platform, scope, target, topic or "all", removed)
        return Unmuted(personal, timezone, topic, removed,
                       self._mute_views(caller, scope, target, channel, timezone))

    def _may_change_channel(self, caller: Context) -> bool:
        return self.settings.file.chat.channel_settings != "admins" or caller.can_manage

    def _mute_scope(self, caller: Context, channel: ChannelContext, personal: bool) -> tuple[str, str, str]:
        if personal:
            timezone = _user_timezone(self.chat.subscriptions(caller.platform, caller.user_id), channel)
            return USER, caller.user_id, timezone
        return CHANNEL, caller.channel_id, channel.timezone

    def _topic(self, text: str, channel: ChannelContext) -> Topic | None:
        """A topic by id, alias or query word, among every topic the channel's repository knows."""
        taxonomy = load_taxonomy(self.settings, channel.repo, restrict=False)
        return taxonomy.get(text.strip().lower()) or topic_named(taxonomy, text)

    def _channel_mute_views(self, caller: Context, channel: ChannelContext) -> tuple[MuteView, ...]:
        if caller.is_dm:
            return ()
        return self._mute_views(caller, CHANNEL, caller.channel_id, channel, channel.timezone)

    def _mute_views(self, caller: Context, scope: str, target: str, channel: ChannelContext,
                    timezone: str) -> tuple[MuteView, ...]:
        active = self.mutes.active(caller.platform, scope, target, caller.now)
        if not active:
            return ()
        taxonomy = load_taxonomy(self.settings, channel.repo, restrict=False)
        views = []
        for topic_id, until in active.items():
            topic = taxonomy.get(topic_id)
            views.append(MuteView(topic_id, topic.display_name(channel.locale) if topic else topic_id,
                                  _local(until, timezone)))
        return tuple(views)


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


def _user_timezone(subscriptions: Sequence[Subscription], channel: ChannelContext) -> str:
    """Where a user's times are shown: their (first) daily DM's zone, else the channel's."""
    return subscriptions[0].timezone if subscriptions else channel.timezone


def _local(moment: datetime | None, timezone: str) -> str | None:
    from zoneinfo import ZoneInfo

    return None if moment is None else moment.astimezone(ZoneInfo(timezone)).strftime("%Y-%m-%d %H:%M")

