"""Where the service's blocking work runs: bounded thread pools, and worker processes for chat answers.

Reads and writes of the store are synchronous (SQLAlchemy); async callers run them here, never on the event
loop's default executor (acks, ledger writes and lease renewals use that one). Heavy digests queue in the build
pool (``[chat] build_threads``); cheap command reads and writes (help, settings, subscriptions, mutes, request
dedupe) have a small light pool of their own, so they never wait behind builds; the bookkeeping of heavy
commands has one intake thread. With ``[chat] build_processes``, CPU-heavy chat answers run in spawned worker
processes (``bot.app.workers``), out of the web process's GIL; the pool is made by the ``spawn`` it is given,
started on first use (the CLI and most tests never pay for it).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

_log = logging.getLogger(__name__)

T = TypeVar("T")
LIGHT_THREADS = 2  # cheap command reads and writes (milliseconds each): enough, and few SQLite connections

Spawn = Callable[[int], "ProcessPoolExecutor"]  # a process pool of that many workers


class Pools:
    def __init__(self, *, build_threads: int, build_processes: int, spawn: Spawn) -> None:
        """``build_processes`` <= 0: chat answers stay on the build threads (``in_heavy_pool``)."""
        self.build_threads = max(1, build_threads)
        self.build_processes = max(0, build_processes)
        self._spawn = spawn
        self._builds = ThreadPoolExecutor(max_workers=self.build_threads, thread_name_prefix="digest-build")
        self._light = ThreadPoolExecutor(max_workers=LIGHT_THREADS, thread_name_prefix="digest-light")
        # The bookkeeping of heavy commands (claim, channel, limits) queues here, not ahead of light commands': a
        # burst of 40 digests would otherwise put 40 store round trips in front of a `help`.
        self._intake = ThreadPoolExecutor(max_workers=1, thread_name_prefix="digest-intake")
        self.processes: ProcessPoolExecutor | None = None  # the worker processes, once started

    def close(self) -> None:
        # Queued work is dropped; running work finishes first, so nothing reads a store its owner then closes.
        self._builds.shutdown(wait=True, cancel_futures=True)
        self._light.shutdown(wait=True, cancel_futures=True)
        self._intake.shutdown(wait=True, cancel_futures=True)
        if self.processes is not None:
            # wait: the workers exit now, not as orphans holding database connections after the web process
            self.processes.shutdown(wait=True, cancel_futures=True)
            self.processes = None

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
            if self.processes is pool:
                self.processes = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise

    def _process_pool(self) -> ProcessPoolExecutor:
        if self.processes is None:
            self.processes = self._spawn(self.build_processes)
        return self.processes

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
