"""Sending many deliveries well: bounded concurrency, pacing, retries with backoff and jitter, progress logs.

* ``fan_out(items, worker, …)`` runs ``worker`` over many targets (the daily DMs of a time slot) with at most
  ``concurrency`` in flight (an ``asyncio.Semaphore`` gates task creation, so 10,000 targets never mean
  10,000 tasks), stops starting new ones when ``stop`` is set, logs progress every N or every few seconds
  and returns the counts.
* ``Backoff`` is the retry policy for transient ``DeliveryError(permanent=False)`` (exponential, equal
  jitter). 429s are not seen here: slack_sdk's ``AsyncRateLimitErrorRetryHandler`` and discord.py wait out
  ``Retry-After`` themselves; only what is left after their retries reaches us.
* ``RatePacer``: an optional token bucket per platform so a big fan-out stays under a known workspace limit
  instead of leaning on 429s.
* Part-wise sending: ``PartwiseMessenger.deliver`` sends the parts of one digest/answer that are not yet in
  ``sent`` and awaits ``on_part(message_id)`` after each one the platform accepted, so the ledger records it
  before the next is sent and a takeover resumes after it. ``partwise(messenger)`` adapts: Slack's messenger
  part by part (``SlackPartwise``), any other ``Messenger`` as one unit (``WholeMessages``).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from bot.delivery.messenger import DeliveryError, Messenger
from bot.digest.model import Digest, QueryResult

if TYPE_CHECKING:
    from bot.platforms.slack_app import SlackMessenger

_log = logging.getLogger(__name__)

T = TypeVar("T")
Pace = Callable[[], Awaitable[None]]
OnPart = Callable[[str], Awaitable[None]]
Answer = Digest | QueryResult

# Outcomes a fan-out worker reports.
SENT, SKIPPED, FAILED, BUSY = "sent", "skipped", "failed", "busy"


@dataclass(frozen=True)
class Backoff:
    """Retries of one delivery within one run: ``attempts`` tries in all, waits growing ``factor``-fold."""

    attempts: int = 4
    base: float = 1.0
    factor: float = 2.0
    cap: float = 60.0

    def delay(self, retry: int, rng: random.Random | None = None) -> float:
        """Wait before retry number ``retry`` (0-based): half fixed, half random ("equal jitter")."""
        ceiling = min(self.cap, self.base * self.factor**retry)
        return ceiling / 2 + (rng or random).uniform(0, ceiling / 2)


class RatePacer:
    """A token bucket: at most ``rate`` sends per second on average, bursts of ``burst``. Waiters go in order."""

    def __init__(self, rate: float, *, burst: float | None = None, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        if rate <= 0:
            raise ValueError("rate must be positive")
        self.rate = rate
        self.burst = max(1.0, burst if burst is not None else rate)
        self._tokens = self.burst
        self._clock = clock
        self._sleep = sleep
        self._last = clock()
        self._lock = asyncio.Lock()

    async def wait(self) -> None:
        async with self._lock:
            while True:
                now = self._clock()
                self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
                self._last = now
                if self._tokens >= 1 - 1e-9:  # (float rounding must not leave us a hair short forever)
                    self._tokens = max(0.0, self._tokens - 1)
                    return
                await self._sleep(max((1 - self._tokens) / self.rate, 1e-4))


@dataclass(frozen=True)
class FanoutOptions:
    concurrency: int = 16
    retry: Backoff = field(default_factory=Backoff)
    progress_every: int = 500  # log progress every N targets…
    progress_seconds: float = 10.0  # …or every this many seconds, whichever comes first


@dataclass
class FanoutResult:
    label: str = ""
    total: int = 0
    sent: int = 0
    skipped: int = 0  # permanent failures (marked by the messenger), nothing to say, no repository
    failed: int = 0  # transient failures left after the retries: the ledger retries them later
    busy: int = 0  # claimed by someone else (another worker) or already done
    stopped: int = 0  # not started because we are shutting down
    seconds: float = 0.0
    other: dict[str, int] = field(default_factory=dict)

    @property
    def done(self) -> int:
        return self.sent + self.skipped + self.failed + self.busy + sum(self.other.values())

    def add(self, outcome: str) -> None:
        if outcome in (SENT, SKIPPED, FAILED, BUSY):
            setattr(self, outcome, getattr(self, outcome) + 1)
        else:
            self.other[outcome] = self.other.get(outcome, 0) + 1

    def line(self) -> str:
        extra = "".join(f", {n} {name}" for name, n in sorted(self.other.items()))
        stopped = f", {self.stopped} not started (stopping)" if self.stopped else ""
        return (f"{self.label}: {self.done}/{self.total} done: {self.sent} sent, {self.skipped} skipped, "
                f"{self.failed} failed, {self.busy} busy elsewhere{extra}{stopped} in {self.seconds:.1f}s")


async def fan_out(
    items: Iterable[T],
    worker: Callable[[T], Awaitable[str]],
    *,
    options: FanoutOptions | None = None,
    stop: asyncio.Event | None = None,
    label: str = "fan-out",
    total: int | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> FanoutResult:
    """Run ``worker`` on every item, at most ``options.concurrency`` at once; it returns an outcome string.

    A worker that raises counts as ``failed`` (logged). When ``stop`` is set, no new item starts; those in
    flight finish. If the fan-out itself is cancelled, its workers are cancelled and awaited."""
    options = options or FanoutOptions()
    if total is None and isinstance(items, Sequence):
        total = len(items)
    result = FanoutResult(label=label, total=total or 0)
    started = clock()
    last_log = [started, 0]
    gate = asyncio.Semaphore(max(1, options.concurrency))
    tasks: set[asyncio.Task[None]] = set()

    def progress() -> None:
        now = clock()
        if (result.done - last_log[1] >= options.progress_every
                or now - last_log[0] >= options.progress_seconds):
            last_log[:] = [now, result.done]
            result.seconds = now - started
            _log.info("%s", result.line())

    async def one(item: T) -> None:
        try:
            outcome = await worker(item)
        except Exception:
            _log.exception("%s: a delivery failed unexpectedly", label)
            outcome = FAILED
        finally:
            gate.release()
        result.add(outcome)
        progress()

    count = 0
    try:
        for item in items:
            await gate.acquire()
            if stop is not None and stop.is_set():
                gate.release()
                break
            count += 1
            task = asyncio.create_task(one(item))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        if tasks:
            await asyncio.gather(*tasks)
    except asyncio.CancelledError:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
    result.total = max(result.total, count)
    result.stopped = result.total - count
    result.seconds = clock() - started
    _log.info("%s", result.line())
    return result


# --- part-wise sending ---


class PartwiseMessenger(Protocol):
    platform: str

    async def deliver(self, target: str, answer: Answer, *, dm: bool, locale: str, timezone: str,
                      sent: Sequence[str], on_part: OnPart) -> list[str]:
        """Send the parts of ``answer`` after the first ``len(sent)`` (same rendering, same order; later parts
        go in the thread of ``sent[0]``), awaiting ``on_part(id)`` after each accepted one. Returns all ids."""
        ...


class WholeMessages:
    """Any ``Messenger`` as one unit: its ids are recorded after the whole message set was accepted, so a
    recorded id means the set is complete, and a crash during the set repeats all of it (not one part)."""

    def __init__(self, messenger: Messenger, *, pace: Pace | None = None) -> None:
        self.messenger = messenger
        self.platform = messenger.platform
        self.pace = pace

    async def deliver(self, target: str, answer: Answer, *, dm: bool, locale: str, timezone: str,
                      sent: Sequence[str], on_part: OnPart) -> list[str]:
        if sent:
            return list(sent)
        if self.pace is not None:
            await self.pace()
        if dm:
            ids = await self.messenger.send_dm(target, answer, locale=locale, timezone=timezone)
        else:
            if not isinstance(answer, Digest):
                raise TypeError("a channel delivery is a digest")
            ids = await self.messenger.post_digest(target, answer, locale=locale, timezone=timezone)
        for message_id in ids:
            await on_part(str(message_id))
        return [str(message_id) for message_id in ids]


class SlackPartwise:
    """``SlackMessenger``'s digests and DMs, one ``chat.postMessage`` at a time with ``on_part`` after each.

    Same payloads (``formatters.slack_blocks``), same thread layout (first part in the channel, the rest in
    its thread) and same failure handling (``SlackMessenger._failure`` marks channels / pauses users) as
    ``SlackMessenger``; it only adds resumption. Rendered payloads are cached per answer (a slot's 10,000 DMs
    usually share a handful of answers) and DM channel ids per user."""

    platform = "slack"

    def __init__(self, messenger: SlackMessenger, *, pace: Pace | None = None, cache_size: int = 64,
                 dm_cache_size: int = 50_000) -> None:
        self.messenger = messenger
        self.client = messenger.client
        self.pace = pace
        self._rendered: OrderedDict[tuple[int, str, str], tuple[Answer, list[dict[str, Any]]]] = OrderedDict()
        self._cache_size = cache_size
        self._dm_channels: OrderedDict[str, str] = OrderedDict()
        self._dm_cache_size = dm_cache_size

    def render(self, answer: Answer, *, locale: str, timezone: str) -> list[dict[str, Any]]:
        from formatters.slack_blocks import render_slack_digest, render_slack_query

        key = (id(answer), locale, timezone)
        cached = self._rendered.get(key)
        if cached is not None and cached[0] is answer:
            self._rendered.move_to_end(key)
            return cached[1]
        if isinstance(answer, Digest):
            payloads = render_slack_digest(answer, locale=locale, timezone=timezone)
        else:
            payloads = render_slack_query(answer, locale=locale, timezone=timezone)
        self._rendered[key] = (answer, payloads)  # holding the answer keeps its id() from being reused
        while len(self._rendered) > self._cache_size:
            self._rendered.popitem(last=False)
        return payloads

    async def deliver(self, target: str, answer: Answer, *, dm: bool, locale: str, timezone: str,
                      sent: Sequence[str], on_part: OnPart) -> list[str]:
        import aiohttp
        from slack_sdk.errors import SlackApiError, SlackClientError

        from bot.platforms.slack_app import _message_kwargs

        payloads = self.render(answer, locale=locale, timezone=timezone)
        ids = [str(message_id) for message_id in sent]
        if len(ids) >= len(payloads):
            return ids
        where = f"user {target}" if dm else f"channel {target}"
        channel = await self._dm_channel(target) if dm else target
        thread = ids[0] if ids else None
        for payload in payloads[len(ids):]:
            if self.pace is not None:
                await self.pace()
            try:
                response = await self.client.chat_postMessage(channel=channel, thread_ts=thread,
                                                              **_message_kwargs(payload))
            except SlackApiError as err:
                raise self._failure(err, target, dm) from None
            except (TimeoutError, SlackClientError, aiohttp.ClientError, OSError) as err:
                raise DeliveryError(f"network: {type(err).__name__}", permanent=False, target=where) from None
            ts = str(response["ts"])
            ids.append(ts)
            thread = thread or ts
            await on_part(ts)
        return ids

    async def _dm_channel(self, user: str) -> str:
        import aiohttp
        from slack_sdk.errors import SlackApiError, SlackClientError

        known = self._dm_channels.get(user)
        if known is not None:
            self._dm_channels.move_to_end(user)
            return known
        try:
            opened = await self.client.conversations_open(users=user)
        except SlackApiError as err:
            raise self._failure(err, user, True) from None
        except (TimeoutError, SlackClientError, aiohttp.ClientError, OSError) as err:
            raise DeliveryError(f"network: {type(err).__name__}", permanent=False, target=f"user {user}") from None
        channel = str(opened["channel"]["id"])
        self._dm_channels[user] = channel
        while len(self._dm_channels) > self._dm_cache_size:
            self._dm_channels.popitem(last=False)
        return channel

    def _failure(self, err: Exception, target: str, dm: bool) -> DeliveryError:
        # One place decides what is permanent and marks the target: the messenger's own mapping.
        if dm:
            self._dm_channels.pop(target, None)
            return self.messenger._failure(err, user=target)  # type: ignore[arg-type]
        return self.messenger._failure(err, channel=target)  # type: ignore[arg-type]


def partwise(messenger: Messenger | PartwiseMessenger, *, pace: Pace | None = None) -> PartwiseMessenger:
    """The best part-wise sender for ``messenger``: itself if it has ``deliver``, Slack's part by part, else
    ``WholeMessages``."""
    if callable(getattr(messenger, "deliver", None)):
        return messenger  # type: ignore[return-value]
    try:
        from bot.platforms.slack_app import SlackMessenger
    except ImportError:  # pragma: no cover - slack extras missing
        SlackMessenger = None  # type: ignore[assignment,misc]
    if SlackMessenger is not None and isinstance(messenger, SlackMessenger):
        return SlackPartwise(messenger, pace=pace)
    return WholeMessages(messenger, pace=pace)  # type: ignore[arg-type]
