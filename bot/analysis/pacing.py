"""How many calls an LLM server takes at once, read from config and measured on its answers.

Many servers answer one request at a time (llama.cpp's and llama-cpp-python's servers by default, Ollama with
one slot): four calls in flight then wait in the server's queue, and the last ones time out although the server
is working at full speed. ``Pace`` is the gate for one endpoint and model: at most ``width`` calls in flight,
never more than the configured ``llm.concurrency``.

Slow start: a new endpoint gets one call, then twice as many each time all the calls of a width come back at
the pace of a call alone, up to the bound; the first answers slower than that (queued behind one another) stop
the start at the width before. A one-slot server thus costs one queued call, never a wave of timeouts; a wide one
reaches its width after a call or two (``measure_concurrency = false``: the bound from the first call).

The measure: ``service``, the fastest recent answer, is what a call costs when nothing waits ahead of it. A call
that started with ``k`` calls in flight and took ``latency`` saw about ``k * service / latency`` of them served
at once (Little's law); when that is well below ``k`` (latency above ``QUEUED`` times the service time, which
answers of different lengths alone do not reach), the width becomes that estimate. A timeout with others in
flight halves it. After ``WIDEN_AFTER`` unqueued answers at full width it tries one more call at once (a server
restarted with more slots is found again, up to the configured bound), and takes it back if the answers then
come ``SLOWER`` than the unqueued pace. Kept per ``Analyst``, that is per
process: a restart measures again from the configured bound.

What was measured is kept per endpoint and model for the process (``WIDTHS``): the next ``Pace`` for it (another
event loop's analyst, the next ``Analyst``) starts at that width, without a slow start. In memory only: a
restart measures again.

``expected`` is the recent typical latency: a call that would not finish before its analysis' deadline is not
started.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import threading

_log = logging.getLogger(__name__)

QUEUED = 2.5  # latency / service time above which an overlapped call is taken as queued
SLOWER = 1.5  # latency / service time above which an answer is slower than the server's unqueued pace
WIDEN_AFTER = 8  # unqueued answers at full width before trying one more call at once
RECENT = 16  # answers the service time and the typical latency are taken from
JITTER = 0.05  # seconds of latency no answer is judged by (a loaded machine, a fast local server)


class Widths:
    """The width measured for each endpoint and model, for the process (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._widths: dict[str, int] = {}

    def get(self, key: str) -> int | None:
        with self._lock:
            return self._widths.get(key)

    def put(self, key: str, width: int) -> None:
        with self._lock:
            self._widths[key] = width

    def clear(self) -> None:
        with self._lock:
            self._widths.clear()


WIDTHS = Widths()


class Pace:
    """A FIFO gate of ``width`` calls in flight, ``1 <= width <= limit``; on one event loop. ``key``: the
    endpoint and model, under which the measured width is kept (``WIDTHS``)."""

    def __init__(self, limit: int, *, measure: bool = True, key: str = "", widths: Widths | None = None) -> None:
        self.limit = limit
        self.measure = measure
        self.key = key
        self._widths = widths or WIDTHS
        known = self._widths.get(key) if measure and key else None
        self._width = 1 if measure else limit
        if known is not None:
            self._width = max(1, min(limit, known))
        self._starting = measure and known is None and limit > 1
        self.in_flight = 0
        self._waiters: collections.deque[asyncio.Future[None]] = collections.deque()
        self._recent: collections.deque[float] = collections.deque(maxlen=RECENT)
        self._unqueued = 0
        self._probing = False  # widened by one: undone if answers then come slower

    @property
    def width(self) -> int:
        return self._width

    @width.setter
    def width(self, value: int) -> None:
        self._width = value
        if self.measure and self.key:
            self._widths.put(self.key, value)

    @property
    def service(self) -> float | None:
        """A call's time when nothing waits ahead of it: the fastest recent answer."""
        return min(self._recent) if self._recent else None

    @property
    def expected(self) -> float | None:
        """The typical recent latency (the median), None before the first answer."""
        if not self._recent:
            return None
        ordered = sorted(self._recent)
        return ordered[len(ordered) // 2]

    async def acquire(self) -> int:
        """Wait for a slot; returns the calls in flight with this one (the overlap its latency is judged by)."""
        if self.in_flight < self.width and not self._waiters:
            self.in_flight += 1
            return self.in_flight
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            await waiter
        except BaseException:
            if waiter.done() and not waiter.cancelled():  # granted, then cancelled: give the slot back
                self.release()
            else:
                with contextlib.suppress(ValueError):
                    self._waiters.remove(waiter)
            raise
        return self.in_flight

    def release(self) -> None:
        self.in_flight -= 1
        self._wake()

    def _wake(self) -> None:
        while self._waiters and self.in_flight < self.width:
            waiter = self._waiters.popleft()
            if not waiter.done():
                self.in_flight += 1
                waiter.set_result(None)

    def answered(self, latency: float, overlap: int) -> None:
        """A call that started with ``overlap`` calls in flight (itself included) answered in ``latency`` s."""
        service = min(self.service or latency, latency)
        self._recent.append(latency)
        if not self.measure:
            return
        if self._starting:
            self._start(latency, overlap, service)
            return
        if overlap >= 2 and latency > QUEUED * service + JITTER:
            served = max(1, round(overlap * service / latency))
            if served < self.width:
                _log.info("LLM server queues calls: %d in flight now (was %d; %.1f s per call alone, %.1f s with %d)",
                          served, self.width, service, latency, overlap)
                self.width = served
            self._unqueued, self._probing = 0, False
            return
        if self._probing and overlap >= 2 and latency > SLOWER * service + JITTER:  # one more at once only slowed them
            self.width -= 1
            self._unqueued, self._probing = -WIDEN_AFTER, False  # and wait twice as long before trying again
            return
        if overlap >= self.width and latency <= SLOWER * service + JITTER:
            self._unqueued += 1
            if self._probing and self._unqueued >= self.width:
                self._probing = False  # the wider width holds
            elif not self._probing and self._unqueued >= WIDEN_AFTER and self.width < self.limit:
                self.width += 1
                self._unqueued, self._probing = 0, True
                self._wake()
        elif latency > SLOWER * service + JITTER:
            self._unqueued = min(self._unqueued, 0)

    def _start(self, latency: float, overlap: int, service: float) -> None:
        if overlap >= 2 and latency > SLOWER * service + JITTER:  # queued: the width before was the server's
            self.width = max(1, self.width // 2)
            self._starting, self._unqueued = False, 0
            _log.info("LLM server queues calls: %d in flight (%.1f s per call alone, %.1f s with %d)",
                      self.width, service, latency, overlap)
            return
        if overlap >= self.width:
            self._unqueued += 1
            if self._unqueued >= self.width:
                self.width = min(self.limit, self.width * 2)
                self._unqueued = 0
                self._starting = self.width < self.limit
                self._wake()

    def timed_out(self, overlap: int) -> None:
        self._starting = False
        if self.measure and overlap >= 2:
            self.width = max(1, min(self.width, overlap // 2))
            self._unqueued = 0
