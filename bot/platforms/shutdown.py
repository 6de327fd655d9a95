"""One deadline for stopping a process: what a platform's SIGTERM (then SIGKILL 30 s later) asks of it.

The first SIGTERM or SIGINT sets ``requested``: the process stops taking work, lets what runs finish for a
while (``drain_seconds``), cancels the rest and closes its connections, each step bounded by what is left of
``deadline_seconds``. A watchdog thread, started by that first signal, ends the process at the deadline
whatever it is doing: a thread stuck in a driver call or a cancellation that a library swallowed (Python
3.11's ``asyncio.wait_for``, which discord.py's reconnect loop runs, can turn a cancel into the inner error
and the loop retries) must not keep it alive. A second signal exits at once. docs/scaling.md, "Stopping".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Collection

_log = logging.getLogger(__name__)

DEADLINE_SECONDS = 25.0  # the whole stop, signal to exit: inside the 30 s a platform waits before SIGKILL
DRAIN_SECONDS = 12.0  # of which in-flight jobs may use this much to finish; then they are cancelled
OVERDUE_EXIT = 1  # the exit code when the deadline ended the process


class Shutdown:
    """The stop of one process: its signals, its deadline and the watchdog that enforces it."""

    def __init__(self, deadline_seconds: float = DEADLINE_SECONDS, drain_seconds: float = DRAIN_SECONDS, *,
                 exit: Callable[[int], None] = os._exit) -> None:
        self.deadline_seconds = deadline_seconds
        self.drain_seconds = min(drain_seconds, deadline_seconds / 2)
        self.requested = asyncio.Event()
        self._exit = exit
        self._began: float | None = None
        self._signals: list[int] = []
        self._watchdog: threading.Timer | None = None

    def install(self) -> None:
        """SIGTERM and SIGINT stop this process (on the running loop); call once, from inside it."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self._on_signal, sig)
            self._signals.append(sig)

    def uninstall(self) -> None:
        """The signals' default actions again (a signal after this ends the process at once)."""
        loop = asyncio.get_running_loop()
        for sig in self._signals:
            loop.remove_signal_handler(sig)
        self._signals.clear()

    def disarm(self) -> None:
        """No hard exit: for a caller that goes on living after the stop (a test, an embedding program). The CLI
        disarms only once ``asyncio.run`` has returned: the watchdog also bounds its clean-up, which waits for
        every thread of the default executor (one stuck in a driver call would hold the process)."""
        if self._watchdog is not None:
            self._watchdog.cancel()

    def _on_signal(self, sig: int) -> None:
        name = signal.Signals(sig).name
        if self._began is not None:
            _log.warning("%s again: exiting now, without waiting for the rest", name)
            _flush()
            self._exit(128 + sig)
            return
        _log.warning("%s: stopping (at most %.0f s)", name, self.deadline_seconds)
        self.begin()

    def begin(self) -> None:
        """Start stopping (a signal, or the process ending on its own): the deadline runs from now."""
        if self._began is not None:
            return
        self._began = time.monotonic()
        self.requested.set()
        # A thread, not a task: it fires even when the event loop is blocked or already closed.
        watchdog = self._watchdog = threading.Timer(self.deadline_seconds, self._overdue)
        watchdog.daemon = True  # a process that stopped in time does not wait for it
        watchdog.name = "shutdown-watchdog"
        watchdog.start()

    @property
    def began(self) -> bool:
        return self._began is not None

    def remaining(self) -> float:
        """Seconds left before the deadline (the whole deadline while nothing asked to stop)."""
        if self._began is None:
            return self.deadline_seconds
        return max(0.0, self.deadline_seconds - (time.monotonic() - self._began))

    def until(self, reserve: float = 0.0) -> float:
        """The monotonic time by which a step must be done to leave ``reserve`` seconds of the deadline."""
        return time.monotonic() + max(0.0, self.remaining() - reserve)

    def _overdue(self) -> None:
        _log.error("still running %.0f s after the stop began: exiting now (threads: %s)", self.deadline_seconds,
                   ", ".join(sorted(t.name for t in threading.enumerate() if t is not threading.current_thread())))
        _flush()
        self._exit(OVERDUE_EXIT)


async def cancel_until_done(tasks: Collection[asyncio.Task[object]], until: float) -> set[asyncio.Task[object]]:
    """Cancel ``tasks`` again and again until they are done or ``until`` (``time.monotonic``) passes; returns
    the ones still running. One ``cancel()`` is not always enough: a library may swallow it (see above)."""
    pending = {task for task in tasks if not task.done()}
    while pending:
        left = until - time.monotonic()
        if left <= 0:
            _log.warning("%d task(s) ignored their cancellation: %s", len(pending),
                         ", ".join(sorted(task.get_name() for task in pending)))
            break
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=min(1.0, left))
    return pending


def _flush() -> None:
    """Write out what was logged: ``os._exit`` skips the interpreter's own flushing."""
    for stream in [*(getattr(h, "stream", None) for h in logging.getLogger().handlers), sys.stdout, sys.stderr]:
        with contextlib.suppress(Exception):
            if stream is not None:
                stream.flush()
