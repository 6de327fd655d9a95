"""Chat answers built in worker processes: CPU-bound Python out of the web process's GIL.

A thread pool in the web process makes the event loop wait for the GIL while builds run, so acks, ``help``
and ``/healthz`` slow down several times under a burst of heavy requests (docs/benchmarks.md, "Fair use").
Each worker process (spawned, not forked: no inherited engine, locks or event loop) opens its own ``Store`` on
the web process's database and keeps its own service, made by the factory ``build_pool`` is given (the
service's module passes its own: pickled by name, so this module never imports the service, and
``bot.app.service`` -> ``bot.app.workers`` stays the one direction, an import-linter contract). Calls carry
only values that pickle: the settings in use, the channel context, the text, and the visibility GitHub gave for
the repositories asked.
Results are the model's frozen dataclasses; a ``Refused`` comes back as itself (``Refused.__reduce__``).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from bot.app.access import RepoAccess
from bot.app.context import ChannelContext
from bot.app.notices import QueryAdjusted
from bot.model import Answer
from bot.settings import Settings
from bot.store.store import Store
from bot.topics.query import Query

if TYPE_CHECKING:
    from bot.app.replies import Rendered

Verdicts = Mapping[str, tuple[bool, datetime]]  # RepoAccess's memory of GitHub's answers: name -> (public?, when)


class Answering(Protocol):
    """What a worker process needs of its service (``DigestService`` is one)."""

    settings: Settings
    access: RepoAccess

    def answer_noted(self, context: ChannelContext, text: str | Query, *, now: datetime, analyse: bool = True,
                     strict: bool = False) -> tuple[Answer, tuple[QueryAdjusted, ...]]: ...


ServiceFactory = Callable[[Store, Settings], Answering]  # module-level (it is pickled by name to each worker)

_service: Answering | None = None  # this worker's own, made by ``_start``


def _start(factory: ServiceFactory, database_url: str, settings: Settings) -> None:
    global _service
    _service = factory(Store.open(database_url), settings)


def answer_noted(settings: Settings, verdicts: Verdicts, context: ChannelContext, query: str | Query,
                 now: datetime, strict: bool = False) -> tuple[Answer, tuple[QueryAdjusted, ...]]:
    """``DigestService.answer_noted`` (never analysed: the LLM runs on the web process's loop); ``query`` as
    the web process parsed it, never parsed again."""
    service = _service
    assert service is not None, "called outside a worker started by build_pool"
    if service.settings != settings:  # a reload in the web process: follow it
        service.settings = settings
    service.access.remember(verdicts)
    return service.answer_noted(context, query, now=now, analyse=False, strict=strict)


def answer_rendered(settings: Settings, verdicts: Verdicts, context: ChannelContext, query: str | Query,
                    now: datetime, render: Callable[..., Sequence[Any]],
                    limit: int) -> tuple[Rendered, tuple[QueryAdjusted, ...]]:
    """Build and render in one call, so only the parts shown cross back to the web process (a year-long digest
    is thousands of items and ~500 parts; five are sent)."""
    from bot.app.replies import Rendered, render_capped, shown_in, shown_in_answer

    answer, notes = answer_noted(settings, verdicts, context, query, now)
    shown, more = render_capped(render, answer, locale=answer.locale, timezone=context.timezone, limit=limit,
                                trailer=any(not shown_in(answer, note) for note in notes))
    return Rendered(tuple(shown), more, answer.locale, shown_in_answer(answer)), notes


def build_pool(processes: int, database_url: str, settings: Settings,
               factory: ServiceFactory) -> ProcessPoolExecutor:
    """``processes`` spawned workers, each with ``factory(Store.open(database_url), settings)`` as its service."""
    return ProcessPoolExecutor(max_workers=processes, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_start, initargs=(factory, database_url, settings))
