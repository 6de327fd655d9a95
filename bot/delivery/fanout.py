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

Part-wise sending is the ``Messenger`` port's own contract (``bot.app.messenger``): every platform sends the
parts not yet recorded and reports each accepted one, so the ledger records it before the next is sent.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from bot.app.messenger import Pace

_log = logging.getLogger(__name__)

T = TypeVar("T")
__all__ = ["Backoff", "FanoutOptions", "FanoutResult", "Pace", "RatePacer", "fan_out"]

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
