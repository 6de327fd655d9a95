"""Fair use: how much heavy work (answers and digests asked for in chat) one user and one channel may have in
flight at once and may start per minute.

Over a limit the asker gets a ``Busy`` notice with a wait in seconds instead of a place in an unbounded queue,
so one person asking for forty year-long searches cannot hold the build pool for everyone. Scheduled
deliveries never come through here. Refused attempts are not counted: asking again after the wait works.
All state is in memory, per process; the clock is injectable so the rules can be tested exactly.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType

from bot.app.notices import Busy, BusyReason, BusyScope
from bot.settings import ChatSettings

WINDOW_SECONDS = 60.0  # the "per minute" of the rate limits: a sliding window
TYPICAL_SECONDS = 5.0  # how long heavy work is assumed to take before any has finished
MIN_RETRY_SECONDS = 2  # never "try again in 0 s", even when a build already runs longer than usual
SMOOTHING = 0.2  # weight of the newest duration in the running estimate


@dataclass(frozen=True)
class LimitRules:
    per_user_in_flight: int = 2
    per_channel_in_flight: int = 6
    per_user_per_minute: int = 10
    per_channel_per_minute: int = 30
    total_in_flight: int = 8

    @classmethod
    def of(cls, chat: ChatSettings) -> LimitRules:
        return cls(chat.heavy_in_flight_per_user, chat.heavy_in_flight_per_channel, chat.heavy_per_minute_per_user,
                   chat.heavy_per_minute_per_channel, chat.heavy_in_flight_total)


@dataclass
class _Usage:
    running: list[float]  # start times of work in flight
    recent: deque[float]  # start times within the last window


class Permit:
    """Heavy work admitted: release it (or leave the ``with`` block) when its answer is ready."""

    def __init__(self, limiter: HeavyLimiter, keys: tuple[tuple[str, str], ...], started: float) -> None:
        self._limiter = limiter
        self._keys = keys
        self._started = started
        self._released = False

    def release(self) -> None:
        if not self._released:
            self._released = True
            self._limiter._release(self._keys, self._started)

    def __enter__(self) -> Permit:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.release()


class HeavyLimiter:
    def __init__(self, rules: LimitRules = LimitRules(), *, clock: Callable[[], float] = time.monotonic) -> None:
        self.rules = rules
        self._clock = clock
        self._usage: dict[tuple[str, str], _Usage] = {}
        self._typical = TYPICAL_SECONDS
        self._swept = clock()
        self._lock = threading.Lock()  # Slack and Discord may share one limiter; cheap either way

    @property
    def typical_seconds(self) -> float:
        """The running estimate of how long heavy work takes (queueing included): what waits are based on."""
        return self._typical

    def try_start(self, platform: str, user_id: str, channel_id: str) -> Permit | Busy:
        """A permit for one piece of heavy work, or ``Busy`` with the longest wait among the limits it is over."""
        user, channel = ("user", f"{platform}:{user_id}"), ("channel", f"{platform}:{channel_id}")
        everyone = ("bot", "*")
        with self._lock:
            now = self._clock()
            self._sweep(now)
            worst: Busy | None = None
            for key, in_flight, per_minute in ((user, self.rules.per_user_in_flight, self.rules.per_user_per_minute),
                                               (channel, self.rules.per_channel_in_flight,
                                                self.rules.per_channel_per_minute),
                                               (everyone, self.rules.total_in_flight, None)):
                usage = self._usage.get(key)
                if usage is None:
                    continue
                _forget_before(usage.recent, now - WINDOW_SECONDS)
                if len(usage.running) >= in_flight:
                    worst = _longer(worst, _busy(key[0], "in_flight", min(usage.running) + self._typical - now))
                if per_minute is not None and len(usage.recent) >= per_minute:
                    worst = _longer(worst, _busy(key[0], "per_minute", usage.recent[0] + WINDOW_SECONDS - now))
            if worst is not None:
                return worst
            for key in (user, channel, everyone):
                usage = self._usage.setdefault(key, _Usage([], deque()))
                usage.running.append(now)
                usage.recent.append(now)
            return Permit(self, (user, channel, everyone), now)

    def _release(self, keys: tuple[tuple[str, str], ...], started: float) -> None:
        with self._lock:
            now = self._clock()
            self._typical += SMOOTHING * (max(0.0, now - started) - self._typical)
            for key in keys:
                usage = self._usage.get(key)
                if usage is not None and started in usage.running:
                    usage.running.remove(started)

    def _sweep(self, now: float) -> None:
        """Forget idle users and channels, at most once a window, so the table does not grow for good."""
        if now - self._swept < WINDOW_SECONDS:
            return
        self._swept = now
        for key in list(self._usage):
            usage = self._usage[key]
            _forget_before(usage.recent, now - WINDOW_SECONDS)
            if not usage.running and not usage.recent:
                del self._usage[key]

    def tracked(self) -> int:
        """How many users and channels the limiter holds state for (bounded by the sweep)."""
        return len(self._usage)


def _forget_before(times: deque[float], cutoff: float) -> None:
    while times and times[0] <= cutoff:
        times.popleft()


def _busy(scope: str, reason: BusyReason, wait: float) -> Busy:
    who: BusyScope = "user" if scope == "user" else "channel" if scope == "channel" else "bot"
    return Busy(who, reason, max(MIN_RETRY_SECONDS, math.ceil(wait)))


def _longer(current: Busy | None, candidate: Busy) -> Busy:
    return candidate if current is None or candidate.retry_after > current.retry_after else current
