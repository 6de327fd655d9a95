"""How a command's answer reaches the person who asked: one policy for every platform.

A ``Reply`` is what the service decided (a notice, or an answer to show privately or to post in the channel,
plus notes). ``send_reply`` carries it out through a ``ReplySink``, the few primitives a platform adapter
offers (render an answer, send one private part, say notices, post in the channel). The adapters implement
those and nothing else: what comes first, how many parts fit, where "…n more" and the notes go, and what is
said after a post are decided here once.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from bot.app.context import PostRequest
from bot.app.messenger import DeliveryError
from bot.app.notices import MoreParts, Notice, Posted, PostFailed, QueryAdjusted
from bot.model import Answer, AnswerNote, QueryResult

_log = logging.getLogger(__name__)

Part = TypeVar("Part")
R = TypeVar("R")


class Offload(Protocol):
    """Runs blocking work off the event loop and awaits it (``DigestService.in_heavy_pool``: in a worker process
    when ``fn`` pickles)."""

    def __call__(self, fn: Callable[[], R], /) -> Awaitable[R]: ...


@dataclass(frozen=True)
class Reply:
    """``notice``: say it. ``answer``: show it privately, or post it in the channel with ``post``.
    ``notes`` are said after either (query notes, a paused-DMs warning); ``request``: what a posted answer was
    built from."""

    notice: Notice | None = None
    answer: Answer | None = None
    post: bool = False
    locale: str = "en"
    timezone: str = "UTC"
    notes: tuple[Notice, ...] = ()
    request: PostRequest | None = None  # for a post: what the answer was built from, so the worker can finish it
    rendered: Rendered | None = None  # an answer already rendered where it was built (only what is shown)


@dataclass(frozen=True)
class Rendered:
    """A private answer rendered where it was built: the parts shown, how many were left out, and the notes
    the parts say already (``QueryResult.notes``)."""

    shown: tuple[Any, ...]
    more: int
    locale: str
    notes: tuple[AnswerNote, ...] = ()


def shown_in_answer(answer: Answer) -> tuple[AnswerNote, ...]:
    """The notes an answer says itself: a query answer's, rendered in every format with it."""
    return answer.notes if isinstance(answer, QueryResult) else ()


def shown_in(answer: Answer, note: Notice) -> bool:
    """Whether ``answer`` says ``note`` itself, so it is not said again after it."""
    return isinstance(note, QueryAdjusted) and note.as_note() in shown_in_answer(answer)


def unsaid(reply: Reply) -> tuple[Notice, ...]:
    """The reply's notes its answer does not say itself: said after it (a paused-DMs note, a digest's notes)."""
    said = (reply.rendered.notes if reply.rendered is not None
            else shown_in_answer(reply.answer) if reply.answer is not None else ())
    return tuple(note for note in reply.notes
                 if not (isinstance(note, QueryAdjusted) and note.as_note() in said))


class ReplySink(Protocol[Part]):
    """What a platform offers for one command's answer (Slack: response_url; Discord: follow-ups)."""

    max_parts: int  # private messages one answer may take, the "more" note included

    def render(self, answer: Answer, *, locale: str, timezone: str) -> Sequence[Part]:
        """Pure, and picklable where it can be (a partial of a module-level renderer): ``offload`` may run it
        in a worker process."""
        ...

    async def send_part(self, part: Part) -> bool:
        """Send one rendered part privately; False when nothing more can be sent (an expired token)."""
        ...

    async def say(self, notices: Sequence[Notice], *, locale: str) -> None:
        """Say these notices privately, in this order, as one message where they fit."""
        ...

    async def post(self, answer: Answer, *, locale: str, timezone: str, request: PostRequest | None = None) -> None:
        """Post ``answer`` in the channel the command came from; raises ``DeliveryError``. ``request``: what it
        was built from (stored with the post, so an interrupted post can be finished by the worker)."""
        ...


async def send_reply(reply: Reply, sink: ReplySink[Part], *, offload: Offload | None = None) -> None:
    """``offload``: where to render an answer; a year-long digest renders for about a second, which on the event
    loop would hold up every ack and /healthz meanwhile. A query answer says its notes itself: they are not
    said again after it."""
    notes = unsaid(reply)
    if reply.rendered is not None:
        shown, more = _fit(list(reply.rendered.shown), reply.rendered.more, sink.max_parts, bool(notes))
        await _send(sink, shown, more, reply, notes)
        return
    if reply.answer is None:
        notices = [reply.notice] if reply.notice is not None else []
        await sink.say([*notices, *notes], locale=reply.locale)
        return
    if reply.post:
        outcome: Notice
        try:
            await sink.post(reply.answer, locale=reply.locale, timezone=reply.timezone, request=reply.request)
            outcome = Posted()
        except DeliveryError as err:
            _log.info("could not post a /digest answer: %s", err)
            outcome = PostFailed(err.reason)
            notes = reply.notes  # nothing was posted: the notes are said here
        await sink.say([outcome, *notes], locale=reply.locale)
        return
    render = functools.partial(render_capped, sink.render, reply.answer, locale=reply.locale,
                               timezone=reply.timezone, limit=sink.max_parts, trailer=bool(notes))
    # Only the parts shown come back from the worker: a year-long digest renders ~500, five are sent.
    shown, more = render() if offload is None else await offload(render)
    await _send(sink, shown, more, reply, notes)


async def _send(sink: ReplySink[Part], shown: list[Part], more: int, reply: Reply,
                notes: Sequence[Notice]) -> None:
    for part in shown:
        if not await sink.send_part(part):
            return
    trailer: list[Notice] = [MoreParts(more)] if more else []
    if trailer or notes:
        await sink.say([*trailer, *notes], locale=reply.locale)


def _fit(shown: list[Part], more: int, limit: int, trailer: bool) -> tuple[list[Part], int]:
    """Parts rendered before the notes were known (a paused-DMs note joins later): keep the message cap."""
    if more == 0 and trailer and len(shown) >= limit:
        keep = max(1, limit - 1)
        return shown[:keep], len(shown) - keep
    return shown, more


def render_capped(render: Callable[..., Sequence[Part]], answer: Answer, *, locale: str, timezone: str, limit: int,
                  trailer: bool) -> tuple[list[Part], int]:
    """``render`` the answer and keep what fits (``capped``): module-level, so a worker process can run it."""
    return capped(list(render(answer, locale=locale, timezone=timezone)), limit, trailer=trailer)


def capped(parts: list[Part], limit: int, *, trailer: bool = False) -> tuple[list[Part], int]:
    """The parts that fit in ``limit`` messages with the ``trailer`` message (notes) after them; when they do not
    all fit, the last message says "…n more" (with the notes): returns the parts shown and n."""
    if len(parts) + trailer <= limit:
        return parts, 0
    keep = max(1, limit - 1)
    return parts[:keep], len(parts) - keep
