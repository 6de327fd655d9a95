"""The scheduler's job bodies: sync a repository, post a channel's digest, send one time slot's DMs.

Every delivery goes through ``DeliveryJobs.deliver``:

1. claim the ledger row for (platform, target, repo, kind, window start) — lost claims do nothing;
2. make sure the store covers the window (sync the repository first if its last completed sync is older
   than the window's end);
3. build the digest / query answer for the window (from the window's end, so a retry or takeover builds
   the same thing), without the topics the channel, or the DM's user, muted (``/digest mute``);
4. send it part by part, recording each accepted message id; transient ``DeliveryError``s are retried here
   with exponential backoff and jitter, permanent ones mark the row ``skipped`` (the messenger already
   marked the channel or paused the user), and what is still failing is left ``failed`` for a later run.

Windows come from the injected clock, never from APScheduler's fire time, so a late or catch-up run posts
the window that was due, and tests can freeze time.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import random
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Iterable, Mapping
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from msgspec import structs

from bot.app.context import ChannelContext, PostRequest
from bot.app.messenger import Answer, DeliveryError, Messenger
from bot.app.notices import QueryProblem, Refused
from bot.app.service import MUTED, QUERY_PROBLEM, DigestService, Skip
from bot.delivery.fanout import (
    BUSY,
    FAILED,
    SENT,
    SKIPPED,
    Backoff,
    FanoutOptions,
    FanoutResult,
    Pace,
    fan_out,
)
from bot.delivery.ledger import DUE, Claim, Delivery, DeliveryKey, LeaseLost, Ledger
from bot.digest.window import default_window
from bot.model import QueryResult, Window
from bot.store.chat import Subscription
from bot.timeutil import iso_z, utcnow
from bot.topics.query import parse_query

_log = logging.getLogger(__name__)

SyncFn = Callable[[str], Awaitable[object]]
CHANNEL = "channel"
POST = "post:"  # kind prefix of /digest post deliveries
LOST = "lost"  # our lease was taken over mid-delivery (we were stalled longer than the lease)
REPO_NOT_ALLOWED = "repo_not_allowed"  # why a delivery was skipped: its repository is not allowed (any more)
UNREADABLE_REQUEST = "unreadable_request"  # a resumed post's stored request cannot be read
REQUEST_MISMATCH = "request_mismatch"  # a resumed post's request no longer builds the answer it was keyed by


class SyncFailed(Exception):
    """The store could not be brought up to the window's end; the delivery is retried later."""


__all__ = ["MUTED", "DeliveryJobs", "JobOptions", "Skip", "dm_kind", "dm_text", "plan_channel", "plan_slot",
           "post_kind"]


def _asked_at(row: Delivery) -> datetime | None:
    try:
        return PostRequest.from_json(row.request or {}).now
    except (KeyError, TypeError, ValueError):
        return None  # unreadable: claimed and skipped with the reason, not left pending


def post_kind(answer: Answer) -> str:
    """The ledger ``kind`` of a ``/digest post``: the question asked (the digest, or a query), normalised."""
    text = answer.query if isinstance(answer, QueryResult) else ""
    normalised = " ".join(text.lower().split())
    return POST + hashlib.sha1(normalised.encode("utf-8")).hexdigest()[:16]


def dm_kind(query: str) -> str:
    """The ledger ``kind`` of a subscription: stable across re-subscribing and time changes of one query."""
    normalised = " ".join(query.lower().split())
    return "dm:" + hashlib.sha1(normalised.encode("utf-8")).hexdigest()[:16]


def dm_text(query: str, window: str = "24h") -> str:
    """A daily DM covers the last day: a search without a window gets one (the digest has its own)."""
    parsed = parse_query(query)
    if parsed.is_empty or parsed.window is not None:
        return query
    return f"{query} {window}"


@dataclass(frozen=True)
class JobOptions:
    fanout: FanoutOptions = field(default_factory=FanoutOptions)
    retry: Backoff = field(default_factory=Backoff)  # transient delivery errors, within one run
    retry_later: timedelta = timedelta(minutes=5)  # a failed row may be claimed again after this, doubling…
    retry_later_cap: timedelta = timedelta(hours=1)  # …up to this
    keepalive_seconds: float | None = None  # lease renewal while working; default: a third of the lease
    dm_when_empty: bool = False  # send a daily DM whose search found nothing?
    dm_window: str = "24h"


@dataclass(frozen=True)
class ChannelPlan:
    channel: ChannelContext
    window: Window
    key: DeliveryKey


@dataclass(frozen=True)
class DmTarget:
    subscription: Subscription
    key: DeliveryKey


@dataclass(frozen=True)
class SlotPlan:
    post_time: str
    timezone: str
    window: Window
    targets: list[DmTarget] = field(default_factory=list)


def plan_channel(channel: ChannelContext, now: datetime) -> ChannelPlan | None:
    """The delivery a channel is due for at ``now`` (its latest post time), or None if it gets none."""
    if not channel.posts_daily or channel.repo is None:
        return None
    window = default_window(now, channel.zone, channel.post_time)
    return ChannelPlan(channel, window, DeliveryKey(channel.platform, channel.channel_id, channel.repo, CHANNEL,
                                                    window.start))


def plan_slot(
    subscriptions: Iterable[Subscription], post_time: str, timezone: str, now: datetime, *,
    platforms: Iterable[str], default_repo: str | None,
) -> SlotPlan:
    """The DMs of one time slot due at ``now``: active subscriptions that existed at the window's end."""
    window = default_window(now, ZoneInfo(timezone), post_time)
    platforms = set(platforms)
    plan = SlotPlan(post_time, timezone, window)
    for sub in subscriptions:
        if sub.post_time != post_time or sub.timezone != timezone or sub.paused or sub.platform not in platforms:
            continue
        if sub.created_at is not None and sub.created_at > window.end:
            continue  # subscribed after this post time: the first DM is the next one
        repo = sub.repo or default_repo
        if repo is None:
            continue
        plan.targets.append(DmTarget(sub, DeliveryKey(sub.platform, sub.user_id, repo, dm_kind(sub.query),
                                                      window.start)))
    return plan


class DeliveryJobs:
    def __init__(
        self,
        service: DigestService,
        messengers: Mapping[str, Messenger],
        *,
        ledger: Ledger | None = None,
        sync: SyncFn | None = None,
        clock: Callable[[], datetime] = utcnow,
        options: JobOptions | None = None,
        pacers: Mapping[str, Pace] | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        rng: random.Random | None = None,
    ) -> None:
        self.service = service
        self.messengers = dict(messengers)
        self.pacers = dict(pacers or {})
        self.ledger = ledger or Ledger(service.store, clock=clock)
        self.sync = sync
        self.clock = clock
        self.options = options or JobOptions()
        self.sleep = sleep
        self.rng = rng or random.Random()
        self.stopping = asyncio.Event()  # set by the scheduler's stop(): fan-outs start nothing new
        self._repo_locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._covered: dict[str, datetime] = {}  # repo -> latest window end the store is known to cover

    # --- sync ---

    async def sync_repo(self, repo: str) -> bool:
        """The periodic sync job. Failures are logged (the syncer records them in the store) and retried next time."""
        if self.sync is None or await self._refusal(repo) is not None:
            return False
        async with self._repo_locks[repo]:
            started = self.clock()
            try:
                await self.sync(repo)
            except Exception as err:
                _log.warning("sync of %s failed: %s", repo, err)
                return False
            self._covered[repo] = max(self._covered.get(repo, started), started)
        return True

    async def _refusal(self, repo: str) -> str | None:
        """None when ``repo`` may be synced and posted now (docs/access.md), else why not (logged here)."""
        try:
            await self.service.vet(repo)
        except Refused:
            _log.warning("%s is not an allowed repository (docs/access.md): not syncing or posting it", repo)
            return REPO_NOT_ALLOWED
        except Exception as err:  # GitHub could not say whether it is public: ask again next time
            _log.warning("cannot tell whether %s may be followed: %s", repo, err)
            return f"access check: {err}"
        return None

    async def ensure_synced(self, repo: str, until: datetime) -> None:
        """Sync ``repo`` first if its last completed sync is older than ``until`` (a window's end)."""
        if self._covered.get(repo, until - timedelta(seconds=1)) >= until:
            return  # already checked or synced for a window ending this late (a slot's 10,000 DMs ask once)
        async with self._repo_locks[repo]:
            if self._covered.get(repo, until - timedelta(seconds=1)) >= until:
                return
            last = await asyncio.to_thread(self.service.last_synced, repo)
            if last is not None and last >= until:
                self._covered[repo] = last
                return
            if self.sync is None:
                if last is None:
                    raise SyncFailed(f"{repo} was never synced and this worker has no syncer")
                _log.warning("%s was last synced at %s, before %s, and this worker cannot sync", repo,
                             iso_z(last), iso_z(until))
                self._covered[repo] = until  # said once per window, not once per DM
                return
            _log.info("%s: last sync %s is older than the window's end %s: syncing first", repo,
                      iso_z(last) if last else "never", iso_z(until))
            try:
                await self.sync(repo)
            except Exception as err:
                raise SyncFailed(f"sync of {repo} failed: {err}") from err
            # The sync ran after the window ended (jobs run at or after their post time), so it covers it.
            self._covered[repo] = until

    # --- channel digests ---

    async def post_channel(self, platform: str, channel_id: str, *, now: datetime | None = None) -> str:
        """The channel job: post the digest of the window ending at the channel's latest post time."""
        now = now or self.clock()
        messenger = self.messengers.get(platform)
        if messenger is None:
            return SKIPPED
        channel = await asyncio.to_thread(self.service.channel_context, platform, channel_id)
        plan = plan_channel(channel, now)
        if plan is None:
            _log.info("%s channel %s: disabled or without a repository; nothing to post", platform, channel_id)
            return SKIPPED

        async def build() -> Answer:
            # Mutes in force at the window's end, like the window itself: a retry builds the same digest.
            context = await asyncio.to_thread(self.service.channel_context, platform, channel_id,
                                              mutes_at=plan.window.end)
            return await self.service.digest(structs.replace(plan.channel, mutes=context.mutes), plan.window)

        outcome = await self.deliver(plan.key, plan.window, messenger, dm=False, locale=channel.locale,
                                     timezone=channel.timezone, build=build)
        _log.info("%s: %s", plan.key, outcome)
        return outcome

    # --- daily DMs ---

    async def slot_plan(self, post_time: str, timezone: str, now: datetime) -> SlotPlan:
        """The DMs of one time slot due at ``now`` (the task engine splits them into batches)."""
        subscriptions = [sub for sub in await asyncio.to_thread(self.service.chat.all_subscriptions)
                         if not self.service.refused(sub.repo or self.service.default_repo)]
        return plan_slot(subscriptions, post_time, timezone, now, platforms=self.messengers,
                         default_repo=self.service.default_repo)

    async def send_slot(self, post_time: str, timezone: str, *, now: datetime | None = None,
                        only: Collection[tuple[str, str]] | None = None) -> FanoutResult:
        """The DM job of one time slot: every active subscription at ``post_time`` in ``timezone`` (with
        ``only``: those of these (platform, user) pairs, one batch of the task engine's fan-out)."""
        now = now or self.clock()
        plan = await self.slot_plan(post_time, timezone, now)
        if only is not None:
            wanted = set(only)
            plan = replace(plan, targets=[t for t in plan.targets
                                          if (t.subscription.platform, t.subscription.user_id) in wanted])
        outlook = await asyncio.to_thread(self.ledger.outlook, plan.window.start, kind_prefix="dm:")
        todo = [t for t in plan.targets if outlook.get(t.key.short(), DUE) == DUE]
        # Every user's mutes in force at the window's end, in one query (not one per DM).
        muted = await asyncio.to_thread(self.service.user_mutes, plan.window.end) if todo else {}
        answers: dict[tuple[object, ...], asyncio.Task[Answer | Skip]] = {}

        def shared(key: tuple[object, ...], make: Callable[[], Awaitable[Answer | Skip]]) -> Awaitable[Answer | Skip]:
            task = answers.get(key)
            if task is None:  # built once per slot run, shared by everyone with the same query (and mutes)
                task = asyncio.ensure_future(make())
                answers[key] = task
            return asyncio.shield(task)

        def answer_for(target: DmTarget) -> Awaitable[Answer | Skip]:
            sub, repo = target.subscription, target.key.repo
            hidden = frozenset(muted.get((sub.platform, sub.user_id), ()))
            digest = parse_query(sub.query).is_empty
            # A digest leaves muted topics out as it is built; a search is built once and filtered per mute set.
            base_key = ("answer", repo, sub.query, sub.locale, sub.timezone, hidden if digest else frozenset())
            base = shared(base_key, lambda: self._build_dm(sub, repo, plan.window, hidden if digest else frozenset()))
            if digest or not hidden:
                return base

            async def filtered() -> Answer | Skip:
                answer = await base
                if isinstance(answer, Skip):
                    return answer
                return await self.service.in_pool(self.service.without_muted, answer, sub.query, repo, hidden)

            return shared(("filtered", *base_key[1:], hidden), filtered)

        async def worker(target: DmTarget) -> str:
            sub = target.subscription

            async def build() -> Answer | Skip:
                return await answer_for(target)

            return await self.deliver(target.key, plan.window, self.messengers[sub.platform], dm=True,
                                      locale=sub.locale, timezone=sub.timezone, build=build)

        label = f"DMs {post_time} {timezone} ({plan.window.end.astimezone(ZoneInfo(timezone)):%Y-%m-%d})"
        try:
            result = await fan_out(todo, worker, options=self.options.fanout, stop=self.stopping, label=label)
        finally:
            for task in answers.values():
                task.cancel()
        done_before = len(plan.targets) - len(todo)
        if done_before:
            result.other["done before"] = done_before
            result.total += done_before
        return result

    async def _build_dm(self, sub: Subscription, repo: str, window: Window,
                        hidden: frozenset[str] = frozenset()) -> Answer | Skip:
        context = structs.replace(self.service.subscription_context(sub, mutes=hidden), repo=repo)
        try:
            # A standing query means what it says every day: strict, never a looser reading of its words.
            return await self.service.answer(context, dm_text(sub.query, self.options.dm_window), now=window.end,
                                             strict=True)
        except Refused as refused:
            if isinstance(refused.notice, QueryProblem):  # saved before queries were checked: never answerable
                return Skip(QUERY_PROBLEM)
            raise

    # --- /digest post ---

    async def post(self, platform: str, channel_id: str, answer: Answer, *, locale: str, timezone: str,
                   request: PostRequest | None = None) -> None:
        """A ``/digest post``: the answer goes through the ledger like a scheduled post, keyed by the question
        and its window (``post_kind``), so running the same post again after a failure (a 429 storm, a crash)
        resumes in the same thread after the recorded parts and never repeats one; once it is sent, running it
        again posts nothing. With ``request`` (what ``answer`` was built from) stored on the row, the worker's
        ``resume_posts`` finishes an interrupted post by itself. Raises ``DeliveryError`` when it did not (fully)
        arrive; marks nothing."""
        messenger = self.messengers[platform]
        key = DeliveryKey(platform, channel_id, answer.repo, post_kind(answer), answer.window.start)

        async def build() -> Answer:
            return answer

        outcome = await self.deliver(key, answer.window, messenger, dm=False, locale=locale, timezone=timezone,
                                     build=build, sync_first=False, mark=False,
                                     request=request.to_json() if request is not None else None)
        if outcome == SENT:
            return
        row = await asyncio.to_thread(self.ledger.get, key)
        if row is not None and row.status == "sent":
            _log.info("%s: already posted; not posting it again", key)
            return
        if outcome == BUSY:
            raise DeliveryError("in_progress", permanent=False, target=f"channel {channel_id}")
        reason = (row.last_error if row is not None else None) or outcome
        raise DeliveryError(reason, permanent=outcome == SKIPPED, target=f"channel {channel_id}")

    def due_posts(self, grace: timedelta) -> list[Delivery]:
        """Interrupted ``/digest post``s the worker should finish now (blocking; ``asyncio.to_thread``): asked
        less than ``grace`` ago, on a platform we serve, and claimable (a crashed claimer's lease expired, or
        failed and its retry due: ``retry_later`` doubling per attempt, as for scheduled posts — a person who
        asks again need not wait for it)."""
        now = self.clock()
        due: list[Delivery] = []
        for row in self.ledger.resumable_posts(now - grace, platforms=self.messengers):
            asked = _asked_at(row)
            if asked is not None and now - asked >= grace:
                continue  # too old: like a scheduled post, never replayed after the grace
            if row.status == "failed" and row.lease_until is not None:
                wait = min(self.options.retry_later * 2 ** max(0, row.attempts - 1), self.options.retry_later_cap)
                if row.lease_until + wait > now:
                    continue
            due.append(row)
        return due

    async def resume_posts(self, grace: timedelta) -> FanoutResult:
        """Finish interrupted ``/digest post``s: rebuild each answer from its stored request and send the parts
        not recorded yet, in the first part's thread. The ledger's claim keeps it to one worker; a repository
        no longer allowed is skipped (``repo_not_allowed``)."""
        rows = await asyncio.to_thread(self.due_posts, grace)

        async def worker(row: Delivery) -> str:
            outcome = await self._resume_post(row)
            _log.info("%s: resumed: %s", row.key, outcome)
            return outcome

        return await fan_out(rows, worker, options=self.options.fanout, stop=self.stopping, label="resumed posts")

    async def _resume_post(self, row: Delivery) -> str:
        key = row.key
        reason = ""
        request: PostRequest | None = None
        try:
            request = PostRequest.from_json(row.request or {})
        except (KeyError, TypeError, ValueError) as err:
            reason = f"{UNREADABLE_REQUEST}: {err}"
            request = None
        context = request.context if request is not None else None

        async def build() -> Answer | Skip:
            if request is None:
                return Skip(reason)
            try:
                answer = await self.service.answer(request.context, request.text, now=request.now)
            except Refused as refused:  # the query or repository is refused now: nothing to finish
                return Skip(f"refused: {refused.notice.kind}")
            if (answer.repo, post_kind(answer), answer.window.start) != (key.repo, key.kind, key.window_start):
                return Skip(REQUEST_MISMATCH)  # would not be the answer whose parts are posted
            return answer

        window = Window(key.window_start, row.window_end)
        return await self.deliver(key, window, self.messengers[key.platform], dm=False,
                                  locale=context.locale if context else "en",
                                  timezone=context.timezone if context else "UTC",
                                  build=build, sync_first=False, mark=False)

    # --- one delivery ---

    async def deliver(
        self, key: DeliveryKey, window: Window, messenger: Messenger, *, dm: bool, locale: str,
        timezone: str, build: Callable[[], Awaitable[Answer | Skip | None]], sync_first: bool = True,
        mark: bool = True, request: dict[str, Any] | None = None,
    ) -> str:
        """Claim, sync, build, send part by part, settle. Returns sent | skipped | failed | busy | lost.
        ``sync_first=False``: the answer is built already; ``mark=False``: a permanent failure marks nothing;
        ``request``: stored with a new row (a ``/digest post``'s ``PostRequest``)."""
        claim = await asyncio.to_thread(functools.partial(self.ledger.claim, key, window.end, request=request))
        if claim is None:
            return BUSY
        try:
            async with self._keepalive(claim):
                return await self._deliver_claimed(claim, window, messenger, dm=dm, locale=locale,
                                                   timezone=timezone, build=build, sync_first=sync_first,
                                                   mark=mark)
        except LeaseLost as err:
            _log.warning("%s; stopping this delivery", err)
            return LOST
        except asyncio.CancelledError:
            # Shutting down mid-delivery: hand the row back now, so a restart need not wait for the lease.
            with suppress(Exception):
                self.ledger.fail(claim, "interrupted by shutdown")
            raise

    async def _deliver_claimed(
        self, claim: Claim, window: Window, messenger: Messenger, *, dm: bool, locale: str, timezone: str,
        build: Callable[[], Awaitable[Answer | Skip | None]], sync_first: bool = True, mark: bool = True,
    ) -> str:
        key = claim.key
        refusal = await self._refusal(key.repo)  # a stored channel or subscription whose repo is not allowed
        if refusal == REPO_NOT_ALLOWED:
            await asyncio.to_thread(self.ledger.skip, claim, refusal)
            return SKIPPED
        if refusal is not None:
            await self._fail(claim, refusal)
            return FAILED
        try:
            if sync_first:
                await self.ensure_synced(key.repo, window.end)
            answer = await build()
        except Exception as err:  # a failed sync, nothing synced yet, an unknown repository, a bug
            _log.warning("%s: cannot build (%s); retrying later", key, err)
            await self._fail(claim, f"build: {err}")
            return FAILED
        if answer is None:
            await asyncio.to_thread(self.ledger.skip, claim, "nothing to send")
            return SKIPPED
        if isinstance(answer, Skip):
            await asyncio.to_thread(self.ledger.skip, claim, answer.reason)
            return SKIPPED
        if dm and isinstance(answer, QueryResult) and not answer.items and not self.options.dm_when_empty:
            await asyncio.to_thread(self.ledger.skip, claim, "no_matches")
            return SKIPPED

        async def record(message_id: str) -> None:
            await asyncio.to_thread(self.ledger.record_part, claim, message_id)

        retry = self.options.retry
        pace = self.pacers.get(key.platform)
        # A takeover cannot know whether its predecessor's last part landed unrecorded; after an ambiguous
        # failure (5xx, timeout) neither can we: the messenger looks before posting that part again.
        check_first = claim.takeover
        for attempt in range(max(1, retry.attempts)):
            try:
                await messenger.deliver(key.target, answer, dm=dm, locale=locale, timezone=timezone,
                                        sent=tuple(claim.message_ids), on_part=record, pace=pace,
                                        key=key.token(), check_first=check_first)
            except LeaseLost:
                raise
            except DeliveryError as err:
                check_first = check_first or err.ambiguous
                if err.permanent:  # marked here, once: the target is skipped until someone changes it
                    if mark:
                        await asyncio.to_thread(self.service.mark_unreachable, key.platform, key.target, dm=dm,
                                                reason=err.reason)
                    await asyncio.to_thread(self.ledger.skip, claim, err.reason)
                    return SKIPPED
                if attempt + 1 >= retry.attempts or self.stopping.is_set():
                    _log.warning("%s: %s after %d tries; the ledger retries it later", key, err.reason, attempt + 1)
                    await self._fail(claim, err.reason)
                    return FAILED
                delay = retry.delay(attempt, self.rng)
                _log.info("%s: %s; retry %d in %.1fs", key, err.reason, attempt + 1, delay)
                await self.sleep(delay)
            except Exception as err:  # a bug (rendering, …): logged, and retried later like a transient error
                _log.exception("%s: delivery failed unexpectedly", key)
                await self._fail(claim, f"error: {err!r}")
                return FAILED
            else:
                await asyncio.to_thread(self.ledger.complete, claim)
                return SENT
        raise AssertionError("unreachable")  # pragma: no cover

    async def _fail(self, claim: Claim, error: str) -> None:
        later = min(self.options.retry_later * 2 ** max(0, claim.attempt - 1), self.options.retry_later_cap)
        if claim.key.kind.startswith(POST):
            later = timedelta(0)  # a /digest post is retried by a person asking again: let them, at once
        await asyncio.to_thread(self.ledger.fail, claim, error, retry_in=later)

    @asynccontextmanager
    async def _keepalive(self, claim: Claim) -> AsyncIterator[None]:
        """Renew the lease while this delivery works (a long sync, a build, backoffs)."""
        interval = self.options.keepalive_seconds or self.ledger.lease.total_seconds() / 3

        async def renew() -> None:
            while True:
                await asyncio.sleep(interval)
                try:
                    await asyncio.to_thread(self.ledger.renew, claim)
                except LeaseLost:
                    return
                except Exception as err:  # the database may be back by the next renewal
                    _log.warning("%s: could not renew the lease: %s", claim.key, err)

        task = asyncio.create_task(renew())
        try:
            yield
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
