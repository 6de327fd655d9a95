"""What every analysis in the process shares: the calls in flight per endpoint, and the prompts being asked.

Each analysis runs on its own event loop, usually in its own thread (a DM time slot builds several digests at
once), so neither an ``asyncio.Semaphore`` nor a per-analysis dict can bound or de-duplicate the calls. These
two are thread-safe and wake waiters on *their* loop (``call_soon_threadsafe``): nobody waits in a thread, no
event loop is blocked, and a waiter cancelled at its deadline gives back what it was handed.

* ``Slots``: at most ``limit`` calls in flight to one (endpoint, model), across every analysis; first come,
  first served.
* ``Flights``: one call per prompt (cache key) at a time. The first analysis that needs a prompt claims it and
  calls; the others claiming it meanwhile wait for that outcome: the answer, or the failure's reason (no second
  call). An answer stays visible until its owner has written it to the cache, so nobody asks again in between.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import deque
from dataclasses import dataclass, field


@dataclass
class _Waiter:
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[None]
    limit: int
    granted: bool = False


def _wake(future: asyncio.Future[object], value: object = None) -> None:
    if not future.done():
        future.set_result(value)


def _call_on(loop: asyncio.AbstractEventLoop, future: asyncio.Future[object], value: object = None) -> None:
    with contextlib.suppress(RuntimeError):  # that loop is closed: its waiter is gone
        loop.call_soon_threadsafe(_wake, future, value)


class Slots:
    """A cross-thread, cross-loop counting semaphore with FIFO hand-off."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiters: deque[_Waiter] = deque()
        self.in_use = 0
        self.max_in_use = 0  # for tests and benchmarks

    async def acquire(self, limit: int) -> None:
        """Wait for a slot (``limit``: the caller's ceiling on calls in flight). Cancellation-safe."""
        loop = asyncio.get_running_loop()
        with self._lock:
            if not self._waiters and self.in_use < limit:
                self._take()
                return
            waiter = _Waiter(loop, loop.create_future(), max(1, limit))
            self._waiters.append(waiter)
        try:
            await waiter.future
        except BaseException:
            with self._lock:
                if waiter.granted:  # handed a slot while being cancelled: pass it on
                    self._release()
                else:
                    self._waiters.remove(waiter)
            raise

    def release(self) -> None:
        with self._lock:
            self._release()

    def _take(self) -> None:
        self.in_use += 1
        self.max_in_use = max(self.max_in_use, self.in_use)

    def _release(self) -> None:
        self.in_use -= 1
        while self._waiters and self.in_use < self._waiters[0].limit:
            waiter = self._waiters.popleft()
            waiter.granted = True
            self._take()
            _call_on(waiter.loop, waiter.future)


@dataclass
class Outcome:
    """A finished flight: ``output`` (the validated answer, as cached) or ``reason``/``detail`` (a failure)."""

    output: str | None = None
    reason: str = ""
    detail: str = ""


@dataclass(eq=False)
class Flight:
    key: str
    outcome: Outcome | None = None
    _waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[Outcome]]] = field(default_factory=list)

    @property
    def done(self) -> bool:
        return self.outcome is not None


class Flights:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._flights: dict[str, Flight] = {}

    def claim(self, key: str) -> tuple[Flight, bool]:
        """The flight for ``key`` and whether the caller owns it (must call, then ``finish`` and ``forget`` it)."""
        with self._lock:
            flight = self._flights.get(key)
            if flight is not None:
                return flight, False
            flight = self._flights[key] = Flight(key)
            return flight, True

    def finish(self, flight: Flight, outcome: Outcome) -> None:
        """Tell the waiters. A failure is forgotten at once (a later analysis may try again); an answer stays
        until ``forget`` (call it once the answer is in the cache). A second finish is ignored."""
        with self._lock:
            if flight.outcome is not None:
                return
            flight.outcome = outcome
            waiters, flight._waiters = flight._waiters, []
            if outcome.output is None and self._flights.get(flight.key) is flight:
                del self._flights[flight.key]
        for loop, future in waiters:
            _call_on(loop, future, outcome)  # type: ignore[arg-type]

    def forget(self, flights: list[Flight]) -> None:
        with self._lock:
            for flight in flights:
                if self._flights.get(flight.key) is flight:
                    del self._flights[flight.key]

    async def wait(self, flight: Flight) -> Outcome:
        """The outcome of a flight someone else owns. Cancellation-safe."""
        loop = asyncio.get_running_loop()
        with self._lock:
            if flight.outcome is not None:
                return flight.outcome
            entry = (loop, loop.create_future())
            flight._waiters.append(entry)
        try:
            return await entry[1]
        finally:
            with self._lock:
                if entry in flight._waiters:
                    flight._waiters.remove(entry)

    def __len__(self) -> int:
        with self._lock:
            return len(self._flights)


_SLOTS: dict[tuple[str, str], Slots] = {}
_SLOTS_LOCK = threading.Lock()
FLIGHTS = Flights()


def slots_for(endpoint: str, model: str) -> Slots:
    """The process-wide slots of one endpoint and model."""
    with _SLOTS_LOCK:
        return _SLOTS.setdefault((endpoint, model), Slots())


__all__ = ["FLIGHTS", "Flight", "Flights", "Outcome", "Slots", "slots_for"]
