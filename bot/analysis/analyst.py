"""The optional LLM analysis of a built digest: the status summary, hot discussions and key changes' impact.

``Analyst.analyse(digest)`` returns a new digest with LLM-written text where the LLM answered well, and the
deterministic text everywhere else. Parts, in priority order: the summary paragraph, the first ``max_hot``
hot discussions ("core question / positions / where it stands"), the first ``max_key_changes`` key changes
(impact in one sentence).

Every answer is checked before it is used or cached (``validate``): cleaned as untrusted text (controls
stripped, whitespace collapsed, refusals rejected), then held to the facts its prompt gave (``grounding.check``:
no echoed prompt, no number, ``#item`` or ``@login`` that is not in the data, the locale's language, length
bounds). Numbers a careful writer derives are grounded too: the analyst tells the checks what the data's
figures mean (the counts that add up, the shares worth a percentage, the lists' sizes, the window's length). A
part that fails keeps its deterministic text and is counted by kind. Answers are asked as JSON of the part's
schema through ``response_format`` where the server offers it (client.py).

Parts are asked in order of value (``_by_value``: the summary, then the hottest discussion and the first key
change, and so on), through the analyst's ``Pace`` (pacing.py): at most ``concurrency`` calls in flight,
fewer when the server's answers show it queues them; a call that would not finish before the deadline at the
recent pace is not started ("deadline"), and a started call's timeout never reaches past the deadline.

Bounds, per digest: ``max_requests`` calls and ``max_tokens`` tokens (a call reserves its estimated prompt
plus ``max_output_tokens`` before it starts and is skipped as "budget" if that would not fit; actual usage is
charged after; only calls this digest made count), ``timeout_seconds`` per call, and ``deadline_seconds`` for
the whole analysis, after which unfinished parts are cancelled ("deadline"); calls are cut off a little before
it (``CLEANUP_SECONDS``) so that cancelling them, closing the client and caching what came back also fit. Per
``Analyst`` (one per process, on the worker's event loop): ``concurrency`` calls in flight to its endpoint and
model, however many digests it analyses at once (a DM time slot builds several), and one call per distinct
prompt: an analysis needing a prompt another one is asking awaits that answer, or that failure. Three
unavailable/timed-out calls in a row stop the rest of a digest's calls (a server that is down is not asked
eleven times). Answers are validated as untrusted text (controls stripped, whitespace collapsed, capped,
refusals rejected) and cached in the store by content hash (endpoint, model and prompt), so re-running a
digest costs no calls. Platform escaping is the formatters' job, exactly as for titles.

Any LLM failure falls back for that part only, with one warning per digest; nothing here raises for LLM
problems (store errors do propagate).

Everything runs on the caller's event loop; the store is read and written in worker threads
(``asyncio.to_thread``) so the loop is never blocked. Synchronous code with no loop (the CLI) uses
``analyse_digest_blocking``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import logging
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from functools import cache
from typing import Any, Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import jinja2
from msgspec import structs

from bot.analysis import grounding
from bot.analysis.client import ChatClient, Completion, LLMError, endpoint_id, estimate_prompt_tokens
from bot.analysis.grounding import Facts
from bot.analysis.pacing import Pace
from bot.locales import normalise_locale
from bot.model import Analysis, Digest, DigestItem, Section
from bot.model.edition import edition_of
from bot.settings import Settings
from bot.store.discussions import Discussions
from bot.store.llm_cache import LLMCache, cache_key
from bot.store.locks import ClusterLock
from bot.store.store import Store
from bot.text import strip_controls, truncate
from bot.timeutil import utcnow

_log = logging.getLogger(__name__)

# Bump when prompts or validation change meaning: old cached answers are then no longer used.
PROMPT_VERSION = "2"

# Hard caps on what is kept of an answer (characters, after cleaning).
SUMMARY_CHARS = 800
FIELD_CHARS = 300
IMPACT_CHARS = 300
# Shortest useful answer (characters) per locale: anything shorter says nothing ("OK", "{}").
_MIN_CHARS = {
    "en": {"summary": 20, "discussion": 3, "impact": 15},
    "zh-CN": {"summary": 8, "discussion": 2, "impact": 6},
}
# What the prompts ask for (below the caps: models overshoot). CJK says more per character.
_ASKED_CHARS = {
    "en": {"summary": 600, "discussion": 220, "impact": 220},
    "zh-CN": {"summary": 250, "discussion": 100, "impact": 100},
}
# What a prompt is shown.
BODY_CHARS = 1500
COMMENTS_SHOWN = 8
COMMENT_CHARS = 500
TITLES_IN_SUMMARY = 5
# Kept back from the deadline for the cancellations, the client's close and the cache write that follow the
# cut-off (tens of milliseconds, more on a loaded machine): the analysis as a whole ends within the deadline.
CLEANUP_SECONDS = 1.0
BREAKER_FAILURES = 3  # consecutive unavailable/timeout answers that stop the remaining calls

SUMMARY, DISCUSSION, IMPACT = "summary", "discussion", "impact"


def _schema(*fields: str) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {name: {"type": "string"} for name in fields},
        "required": list(fields),
        "additionalProperties": False,
    }


# The JSON each part answers with (response_format, and the prompts' own wording of it).
SCHEMAS: dict[str, dict[str, Any]] = {
    SUMMARY: _schema("summary"),
    DISCUSSION: _schema("question", "positions", "status"),
    IMPACT: _schema("impact"),
}


class ChatLike(Protocol):
    async def __aenter__(self) -> ChatLike: ...
    async def __aexit__(self, *exc: object) -> None: ...
    async def complete(
        self, messages: list[dict[str, str]], *, max_tokens: int, schema: dict[str, Any] | None = None,
        schema_name: str = "answer", within: float | None = None,
    ) -> Completion: ...


ClientFactory = Callable[[], ChatLike]


@dataclass
class AnalysisReport:
    parts_total: int = 0
    parts_llm: int = 0  # filled by a fresh answer to this digest's call
    parts_cached: int = 0  # filled from the store's cache (no call)
    fell_back: dict[str, int] = field(default_factory=dict)  # reason -> parts left with the deterministic text
    requests: int = 0  # calls this digest made
    prompt_tokens: int = 0
    completion_tokens: int = 0
    parts_shared: int = 0  # filled by another analysis' call of the same prompt, in flight at the same time
    asked: int = 0  # parts this analysis asked the server (one call each)
    answered: int = 0  # of those, answered (a completion came back)
    accepted: int = 0  # of those, answers that passed validation and the grounding checks
    rejected: dict[str, int] = field(default_factory=dict)  # grounding kind -> answers refused for it (each kind)
    width: int = 0  # calls the analyst let in flight at the end (measured, at most llm.concurrency)
    seconds: float = 0.0  # the analysis' wall time

    @property
    def parts_fell_back(self) -> int:
        return sum(self.fell_back.values())

    def line(self) -> str:
        reasons = ", ".join(f"{reason}: {n}" for reason, n in _by_count(self.fell_back))
        shared = f", {self.parts_shared} shared" if self.parts_shared else ""
        by_llm = self.parts_llm + self.parts_cached + self.parts_shared
        rejected = ", ".join(f"{kind}: {n}" for kind, n in _by_count(self.rejected))
        return (
            f"{by_llm} of {self.parts_total} parts by LLM ({self.parts_cached} cached{shared}),"
            f" {self.requests} requests, {self.prompt_tokens}+{self.completion_tokens} tokens"
            + (f"; fell back: {reasons}" if reasons else "")
            + f"; asked {self.asked}, answered {self.answered}, accepted {self.accepted}"
            + (f"; not grounded: {rejected}" if rejected else "")
        )

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class _Outcome:
    """How the call of one prompt ended, for every part that needs it: ``output`` (the validated answer, as
    cached) or ``reason``/``detail`` (a failure)."""

    output: str | None = None
    reason: str = ""
    detail: str = ""


class Fallback(Exception):
    """This part keeps its deterministic text; ``reason`` says why (``kinds``: every grounding failure found)."""

    def __init__(self, reason: str, detail: str = "", kinds: tuple[str, ...] = ()) -> None:
        super().__init__(detail or reason)
        self.reason = reason
        self.kinds = kinds


@dataclass
class _Part:
    kind: str  # summary | discussion | impact
    label: str  # for logs: "summary", "discussion #12"
    section: Section | None
    index: int
    messages: list[dict[str, str]]
    key: str
    prompt_estimate: int
    facts: Facts
    locale: str = "en"
    value: str | Analysis | None = None
    output: str = ""  # the validated answer as cached
    usage: tuple[int, int] = (0, 0)
    cached: bool = False
    shared: bool = False  # answered by another analysis' call
    flight: asyncio.Future[_Outcome] | None = None  # the outcome of this prompt's call, whoever makes it
    owner: bool = False  # this analysis asks (others wait for it); otherwise it waits for the owner
    reason: str | None = None
    detail: str = ""
    kinds: tuple[str, ...] = ()  # grounding failures of its answer
    asked: bool = False
    answered: bool = False


class Analyst:
    """Analyses digests on one event loop; create one per process (the worker's loop) and share it, so that
    every digest analysed at once shares its limits and its prompts' calls.

    It owns what concurrent analyses share: a semaphore of ``concurrency`` calls in flight to its endpoint and
    model (the settings' one), and the prompts being asked (cache key -> the future of that call's outcome).
    ``calls_in_flight`` and ``max_calls_in_flight`` count the calls being made (for tests and benchmarks)."""

    def __init__(self, store: Store, settings: Settings, *, client_factory: ClientFactory | None = None) -> None:
        self.store = store
        self.settings = settings
        self.limits = settings.file.llm
        self.model = settings.llm_model or ""
        self.endpoint = endpoint_id(settings.llm_base_url) if settings.llm_base_url else ""
        self._custom_client = client_factory is not None
        self._client_factory = client_factory or self._default_client
        # The calls in flight to this endpoint and model, measured (FIFO; on this analyst's loop).
        self.pace = Pace(self.limits.concurrency, measure=self.limits.measure_concurrency,
                         key=f"{self.endpoint} {self.model}")
        self._flights: dict[str, asyncio.Future[_Outcome]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self.calls_in_flight = 0
        self.max_calls_in_flight = 0

    @property
    def active(self) -> bool:
        """Off unless enabled and an endpoint is configured (or a client factory was given)."""
        if not self.limits.enabled:
            return False
        return self._custom_client or self.settings.llm_enabled

    @property
    def prompts_in_flight(self) -> int:
        """Prompts being asked, or answered and not yet in the cache."""
        return len(self._flights)

    def _default_client(self) -> ChatLike:
        return ChatClient(
            self.settings.llm_base_url or "",
            self.model,
            self.settings.llm_api_key,
            timeout=self.limits.timeout_seconds,
            temperature=self.limits.temperature,
        )

    async def analyse(self, digest: Digest) -> tuple[Digest, AnalysisReport]:
        """The digest with the LLM's text where it answered well, and what that took. On this analyst's event
        loop (the first it ran on); store reads and writes go to a worker thread (``asyncio.to_thread``)."""
        report = AnalysisReport()
        if not self.active:
            return digest, report
        loop = asyncio.get_running_loop()
        if self._loop is None:
            self._loop = loop
        elif self._loop is not loop:
            raise RuntimeError("an Analyst runs on one event loop: create one per loop")
        began = loop.time()
        limit = self.limits.deadline_seconds
        deadline = began + limit - min(CLEANUP_SECONDS, limit * 0.05)
        parts: list[_Part] = []
        owned: list[_Part] = []  # every prompt claimed here is settled and forgotten, whatever happens
        try:
            parts = await asyncio.to_thread(self._prepare, digest)
            # Claimed before the cache is read (and with no await in between): an answer stays claimable until
            # its owner has cached it, so each prompt is either being asked, in the cache, or asked here.
            for part in parts:
                self._claim(part, loop)
                if part.owner:
                    owned.append(part)
            cached = await asyncio.to_thread(LLMCache(self.store).get_many, [part.key for part in parts])
            self._use_cache(parts, cached)
            report.parts_total = len(parts)
            pending = [part for part in parts if not part.cached]
            waits = [asyncio.create_task(self._wait(part)) for part in pending if not part.owner]
            try:
                calls = [part for part in pending if part.owner]
                fresh: list[_Part] = []
                if calls:
                    # Other processes (workers of the task engine) may analyse the same digest right now: one
                    # asks, the others wait for it and read its answers from the cache.
                    lock = ClusterLock(self.store, "llm:" + _digest_of(part.key for part in calls))
                    if lock.shared and await asyncio.to_thread(lock.acquire, max(0.0, deadline - loop.time())):
                        cached = await asyncio.to_thread(LLMCache(self.store).get_many, [p.key for p in calls])
                        self._use_cache(calls, cached)
                        calls = [part for part in calls if not part.cached]
                    try:
                        if calls:
                            await self._call_all(calls, report, deadline)
                        fresh = [part for part in calls if part.value is not None]
                        if fresh:
                            await asyncio.to_thread(self._remember, fresh)
                    finally:
                        await asyncio.to_thread(lock.release)
                self._forget(owned)  # the answers are in the cache now
            except BaseException:
                await _until(waits, 0.0)  # cancels them
                raise
            await _until(waits, deadline)
        finally:
            for part in owned:  # if not settled yet
                self._finish(part, _Outcome(reason="error", detail="the asking analysis failed"))
            self._forget(owned)
        for part in parts:
            if part.value is None and part.reason is None:
                part.reason, part.detail = "deadline", f"not done within {self.limits.deadline_seconds:g} s"
        report.parts_cached = sum(1 for part in parts if part.cached)
        report.parts_shared = sum(1 for part in parts if part.shared and part.value is not None)
        report.parts_llm = sum(1 for part in parts if part.owner and not part.cached and part.value is not None)
        failed = [part for part in parts if part.value is None]
        report.fell_back = dict(Counter(part.reason or "error" for part in failed))
        report.asked = sum(1 for part in parts if part.asked)
        report.answered = sum(1 for part in parts if part.answered)
        report.accepted = sum(1 for part in parts if part.answered and part.value is not None)
        report.rejected = dict(Counter(kind for part in parts for kind in part.kinds))
        report.width = self.pace.width
        report.seconds = round(loop.time() - began, 3)
        if parts:
            _log.info("LLM analysis for %s (%s): %s", digest.repo, locale_of(digest), report.line())
        if failed:
            reasons = ", ".join(f"{reason}: {n}" for reason, n in _by_count(report.fell_back))
            first = failed[0]
            _log.warning(
                "LLM analysis for %s: %d of %d parts fell back (%s); first: %s: %s",
                digest.repo, len(failed), len(parts), reasons, first.label, first.detail or first.reason,
            )
        if parts:
            try:
                await asyncio.to_thread(
                    LLMCache(self.store).put_report, digest.repo, locale_of(digest), report.as_dict()
                )
            except Exception:  # the status line is not worth the digest
                _log.warning("LLM analysis for %s: could not store its report for status", digest.repo, exc_info=True)
        return _apply(digest, parts), report

    # --- preparing the prompts (store reads: a worker thread) ---

    def _prepare(self, digest: Digest) -> list[_Part]:
        locale = normalise_locale(digest.locale)
        asked = _ASKED_CHARS[locale]
        system = _render(locale, "system", repo=digest.repo)
        hot = digest.section("hot")
        key_changes = digest.section("key_changes")
        # What the reader is shown: the hot discussions and key changes with a full entry on the page (in their
        # own section or where they rank best: the analysis goes with the entry), best first, each by its place
        # in the section (``_apply`` puts the answer back by it).
        shown = set(edition_of(digest).home())
        hot_entries = _shown(hot, shown)
        key_entries = _shown(key_changes, shown)
        hot_targets = hot_entries[: max(self.limits.max_hot, 0)]
        key_targets = key_entries[: max(self.limits.max_key_changes, 0)]
        hot_items = tuple(item for _, item in hot_targets)
        key_items = tuple(item for _, item in key_targets)
        parts: list[_Part] = []
        if digest.narrative is not None:
            shown_hot = tuple(item for _, item in hot_entries[:TITLES_IN_SUMMARY])
            shown_key = tuple(item for _, item in key_entries[:TITLES_IN_SUMMARY])
            narrative = digest.narrative
            user = _render(
                locale,
                SUMMARY,
                repo=digest.repo,
                window=_window_label(digest),
                stats=digest.stats,
                summary=narrative.summary,
                trends=narrative.trends,
                activity=narrative.activity,
                hot=shown_hot,
                key_changes=shown_key,
                max_chars=asked[SUMMARY],
            )
            names = (
                digest.repo, *digest.repo.split("/"),
                *(item.title for item in (*shown_hot, *shown_key)),
                *(trend.title for trend in narrative.trends),
                *(title for title, _ in (narrative.activity.busiest_areas if narrative.activity else ())),
            )
            activity = narrative.activity
            stats = digest.stats
            # What the summary's figures mean (grounding.Facts): the counts of one kind (they add up, subtract
            # and compare), the shares worth a percentage, the lists' sizes, the window's length.
            counts = (
                (stats.new_prs, stats.merged_prs, stats.closed_unmerged_prs, stats.new_issues, stats.closed_issues),
                (activity.contributors, activity.first_time_contributors) if activity else (),
                tuple(count for _, count in (activity.busiest_areas if activity else ())),
                tuple(trend.count for trend in narrative.trends),
                tuple(item.comments_in_window for item in shown_hot),
            )
            shares = (
                (stats.merged_prs, stats.merged_prs + stats.closed_unmerged_prs),  # the merge rate
                (stats.new_prs, stats.new_prs + stats.new_issues),
                (activity.first_time_contributors, activity.contributors) if activity else (0, 0),
            )
            listed = (len(shown_hot), len(shown_key), len(narrative.trends),
                      len(activity.busiest_areas) if activity else 0)
            parts.append(self._part(SUMMARY, "summary", None, 0, system, user, locale, names=names, counts=counts,
                                    shares=shares, listed=listed, window_hours=_window_hours(digest)))
        numbers = {item.number for item in (*hot_items, *key_items)}
        records = {number: self.store.item(digest.repo, number) for number in sorted(numbers)}
        threads = Discussions(self.store).relevant_comments(
            digest.repo,
            [item.number for item in hot_items],
            limit=COMMENTS_SHOWN,
            max_chars=COMMENT_CHARS,
            before=digest.window.end,
            exclude_authors=self.settings.file.bots.logins,
        )
        discussions: list[_Part] = []
        for index, item in hot_targets:
            comments = threads.get(item.number, [])
            user = _render(
                locale, DISCUSSION, item=item, body=_body(records.get(item.number)),
                comments=comments, max_chars=asked[DISCUSSION],
            )
            people = {item.author, *(comment.author for comment in comments)}
            commenters = {comment.author for comment in comments}
            discussions.append(self._part(
                DISCUSSION, f"discussion #{item.number}", hot, index, system, user, locale,
                names=(item.title, *item.labels, *people), logins=people,
                listed=(len(comments), len(commenters), len(people), len(item.labels)),
            ))
        impacts: list[_Part] = []
        for index, item in key_targets:
            user = _render(locale, IMPACT, item=item, body=_body(records.get(item.number)), max_chars=asked[IMPACT])
            impacts.append(self._part(
                IMPACT, f"impact #{item.number}", key_changes, index, system, user, locale,
                names=(item.title, *item.labels), listed=(len(item.labels),),
            ))
        return parts + _by_value(discussions, impacts)

    def _part(
        self, kind: str, label: str, section: Section | None, index: int, system: str, user: str, locale: str,
        *, names: tuple[str, ...] = (), logins: set[str] | frozenset[str] = frozenset(),
        counts: tuple[tuple[int, ...], ...] = (), shares: tuple[tuple[int, int], ...] = (),
        listed: tuple[int, ...] = (), window_hours: tuple[float, ...] = (),
    ) -> _Part:
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        key = cache_key(
            version=PROMPT_VERSION, endpoint=self.endpoint, model=self.model, messages=messages,
            max_tokens=self.limits.max_output_tokens, temperature=self.limits.temperature,
        )
        facts = Facts.of_prompt(messages, names=names, logins={login for login in logins if login}, counts=counts,
                                shares=shares, listed=listed, window_hours=window_hours)
        return _Part(kind, label, section, index, messages, key, estimate_prompt_tokens(messages), facts, locale)

    def _remember(self, parts: list[_Part]) -> None:
        cache = LLMCache(self.store)
        cache.put_many([(part.key, self.model, part.output, *part.usage) for part in parts])
        cache.prune(utcnow() - timedelta(days=self.limits.cache_days))

    # --- the prompts in flight (the event loop) ---

    def _claim(self, part: _Part, loop: asyncio.AbstractEventLoop) -> None:
        """The first analysis that needs a prompt owns it (asks, then settles it); the others await it."""
        flight = self._flights.get(part.key)
        if flight is None:
            flight = self._flights[part.key] = loop.create_future()
            part.owner = True
        part.flight = flight

    def _use_cache(self, parts: list[_Part], cached: dict[str, str]) -> None:
        """Fill the parts the cache answers; tell whoever awaits a prompt this analysis owns."""
        for part in parts:
            output = cached.get(part.key)
            if output is None:
                continue
            try:
                part.value, part.output = validate(part.kind, output, None, part.facts, part.locale)
                part.cached = True
            except Fallback:  # stored by an older validation: ask again
                continue
            self._finish(part, _Outcome(output=part.output))

    def _finish(self, part: _Part, outcome: _Outcome) -> None:
        """Give the outcome of a prompt this analysis owns to its waiters (once; later calls do nothing). A
        failure is forgotten at once (a later analysis may try again); an answer stays until ``_forget``."""
        flight = part.flight
        if not part.owner or flight is None or flight.done():
            return
        flight.set_result(outcome)
        if outcome.output is None and self._flights.get(part.key) is flight:
            del self._flights[part.key]

    def _forget(self, parts: list[_Part]) -> None:
        for part in parts:
            if part.flight is not None and self._flights.get(part.key) is part.flight:
                del self._flights[part.key]

    # --- calling (the event loop) ---

    async def _call_all(self, parts: list[_Part], report: AnalysisReport, deadline: float) -> None:
        """Ask the parts this analysis owns; each one's flight is finished as soon as it is settled."""
        budget = _Budget(self.limits.max_requests, self.limits.max_tokens)
        breaker = _Breaker()
        # FIFO: parts take the gate, hence the budget, in priority order; the analyst's slots bound every
        # analysis at once.
        gate = asyncio.Semaphore(self.limits.concurrency)
        try:
            client = self._client_factory()
            async with client:
                await _until([
                    asyncio.create_task(self._call(client, part, gate, budget, breaker, report, deadline))
                    for part in parts
                ], deadline)
        except (LLMError, OSError) as err:  # a client that cannot even start
            for part in parts:
                if part.value is None and part.reason is None:
                    part.reason, part.detail = getattr(err, "reason", "unavailable"), str(err)
        finally:
            for part in parts:
                self._settle_flight(part)

    async def _call(
        self, client: ChatLike, part: _Part, gate: asyncio.Semaphore, budget: _Budget, breaker: _Breaker,
        report: AnalysisReport, deadline: float,
    ) -> None:
        loop = asyncio.get_running_loop()
        try:
            async with gate:
                if breaker.open:
                    raise Fallback(breaker.reason, f"not asked after {BREAKER_FAILURES} failed calls in a row")
                reserved = part.prompt_estimate + self.limits.max_output_tokens
                if not budget.reserve(reserved):
                    raise Fallback("budget", f"{budget.describe()}; this call needs ~{reserved} tokens")
                try:
                    overlap = await self.pace.acquire()  # cancelled at the deadline: never called
                except BaseException:
                    budget.cancel(reserved)
                    raise
                try:
                    if breaker.open:  # opened while this part waited for a slot
                        budget.cancel(reserved)
                        raise Fallback(breaker.reason, f"not asked after {BREAKER_FAILURES} failed calls in a row")
                    left = deadline - loop.time()
                    expected = self.pace.expected
                    if expected is not None and expected > left:  # it would be cancelled unfinished
                        budget.cancel(reserved)
                        raise Fallback("deadline", f"not started: ~{expected:.1f} s per call, {left:.1f} s left")
                    report.requests += 1
                    part.asked = True
                    self.calls_in_flight += 1
                    self.max_calls_in_flight = max(self.max_calls_in_flight, self.calls_in_flight)
                    began = loop.time()
                    try:
                        answer = await client.complete(
                            part.messages, max_tokens=self.limits.max_output_tokens, schema=SCHEMAS[part.kind],
                            schema_name=f"digest_{part.kind}", within=max(0.001, left),
                        )
                    except LLMError as err:
                        budget.settle(reserved, part.prompt_estimate)
                        if err.reason == "timeout" and left < self.limits.timeout_seconds:
                            # Cut at what the deadline left it, a hair before the deadline's own cancel (which
                            # wins on an idle machine): the deadline's, not a slow server's.
                            raise Fallback("deadline", f"not done within {self.limits.deadline_seconds:g} s") from err
                        breaker.failed(err.reason)
                        if err.reason == "timeout":
                            self.pace.timed_out(max(overlap, self.pace.in_flight))
                        raise
                    except BaseException:  # cancelled at the deadline: the server may have read the prompt
                        budget.settle(reserved, part.prompt_estimate)
                        raise
                    finally:
                        self.calls_in_flight -= 1
                    # The calls in flight with this one: those it started with or those it ended with.
                    self.pace.answered(loop.time() - began, max(overlap, self.pace.in_flight))
                finally:
                    self.pace.release()
                part.answered = True
                breaker.answered()
                budget.settle(reserved, answer.prompt_tokens + answer.completion_tokens)
                report.prompt_tokens += answer.prompt_tokens
                report.completion_tokens += answer.completion_tokens
            part.value, part.output = validate(part.kind, answer.text, answer.finish_reason, part.facts, part.locale)
            part.usage = (answer.prompt_tokens, answer.completion_tokens)
        except Fallback as err:
            part.reason, part.detail, part.kinds = err.reason, str(err), err.kinds
        except LLMError as err:
            part.reason, part.detail = err.reason, str(err)
        except asyncio.CancelledError:
            part.reason, part.detail = "deadline", f"not done within {self.limits.deadline_seconds:g} s"
            raise
        except Exception as err:  # a bug here must not cost the digest its post
            _log.debug("LLM analysis: %s failed", part.label, exc_info=True)
            part.reason, part.detail = "error", f"{type(err).__name__}: {err}"
        finally:
            self._settle_flight(part)

    def _settle_flight(self, part: _Part) -> None:
        """Tell the analyses awaiting this part's prompt how it went (once; later calls do nothing)."""
        if part.value is not None:
            self._finish(part, _Outcome(output=part.output))
        else:
            reason = part.reason or "deadline"
            detail = part.detail or f"not done within {self.limits.deadline_seconds:g} s"
            self._finish(part, _Outcome(reason=reason, detail=detail))

    async def _wait(self, part: _Part) -> None:
        """A part whose prompt another analysis (or part) is asking: its answer, or its failure's reason."""
        assert part.flight is not None
        try:
            # Shielded: a waiter cancelled at its deadline leaves the call's outcome to the others.
            outcome = await asyncio.shield(part.flight)
            if outcome.output is None:
                raise Fallback(outcome.reason, f"asked by another analysis: {outcome.detail or outcome.reason}")
            part.value, part.output = validate(part.kind, outcome.output, None, part.facts, part.locale)
            part.shared = True
        except Fallback as err:
            part.reason, part.detail = err.reason, str(err)
        except asyncio.CancelledError:
            part.reason, part.detail = "deadline", f"not done within {self.limits.deadline_seconds:g} s"
            raise


async def _until(tasks: list[asyncio.Task[None]], deadline: float) -> None:
    """Wait for the tasks until the loop-time ``deadline``; cancel the late ones and let them clean up (give
    back their call slots and budget). The same if the analysis itself is cancelled: nothing outlives it."""
    if not tasks:
        return
    loop = asyncio.get_running_loop()
    try:
        await asyncio.wait(tasks, timeout=max(0.0, deadline - loop.time()))
    finally:
        for task in tasks:
            task.cancel()  # the late ones: a finished task ignores it
        await asyncio.gather(*tasks, return_exceptions=True)


class _Budget:
    def __init__(self, max_requests: int, max_tokens: int) -> None:
        self.max_requests, self.max_tokens = max_requests, max_tokens
        self.requests = 0
        self.tokens = 0  # charged (actual) plus reserved (in flight)

    def reserve(self, tokens: int) -> bool:
        if self.requests + 1 > self.max_requests or self.tokens + tokens > self.max_tokens:
            return False
        self.requests += 1
        self.tokens += tokens
        return True

    def settle(self, reserved: int, used: int) -> None:
        self.tokens += used - reserved

    def cancel(self, reserved: int) -> None:
        """A reservation whose call was never made: it costs nothing."""
        self.requests -= 1
        self.tokens -= reserved

    def describe(self) -> str:
        return f"budget {self.requests}/{self.max_requests} requests, {self.tokens}/{self.max_tokens} tokens"


class _Breaker:
    def __init__(self) -> None:
        self.failures = 0
        self.reason = ""

    @property
    def open(self) -> bool:
        return self.failures >= BREAKER_FAILURES

    def failed(self, reason: str) -> None:
        if reason in ("unavailable", "timeout"):
            self.failures += 1
            self.reason = reason

    def answered(self) -> None:
        self.failures = 0


def locale_of(digest: Digest) -> str:
    return normalise_locale(digest.locale)


def _by_value(discussions: list[_Part], impacts: list[_Part]) -> list[_Part]:
    """The hottest discussion, then the first key change, then the second of each, …: after the summary, what a
    reader most likely acts on first gets the budget, the call slots and the time before the deadline first."""
    ordered: list[_Part] = []
    for rank in range(max(len(discussions), len(impacts))):
        ordered.extend(group[rank] for group in (discussions, impacts) if rank < len(group))
    return ordered


def _by_count(counts: dict[str, int]) -> list[tuple[str, int]]:
    return sorted(counts.items(), key=lambda entry: (-entry[1], entry[0]))


# --- prompts ---


@cache
def _templates() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("bot.analysis", "prompts"),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,  # plain text for a model, not HTML
        keep_trailing_newline=False,
    )
    env.filters["data"] = as_data
    return env


def _render(locale: str, name: str, **context: Any) -> str:
    text = _templates().get_template(f"{locale}/{name}.j2").render(**context)
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def as_data(value: object) -> str:
    """Untrusted text for a prompt: no controls, and no way to close the data block it sits in."""
    text = strip_controls(str(value))
    return text.replace("<<<", "‹‹‹").replace(">>>", "›››")


def _body(record: Any) -> str:
    prose = (record.prose if record is not None else "") or ""
    return truncate(prose.strip(), BODY_CHARS)


def _window_label(digest: Digest) -> str:
    try:
        zone = ZoneInfo(digest.window.timezone)
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    start, end = digest.window.start.astimezone(zone), digest.window.end.astimezone(zone)
    return f"{start:%Y-%m-%d %H:%M} to {end:%Y-%m-%d %H:%M} ({digest.window.timezone})"


def _window_hours(digest: Digest) -> tuple[float, ...]:
    """The window's length in hours as its two timestamps read in its time zone (what the prompt shows), and
    as elapsed when a clock change makes the two differ (23 or 25 hours for a day)."""
    try:
        zone = ZoneInfo(digest.window.timezone)
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    start, end = digest.window.start.astimezone(zone), digest.window.end.astimezone(zone)
    shown = (end.replace(tzinfo=None) - start.replace(tzinfo=None)).total_seconds() / 3600
    elapsed = (digest.window.end - digest.window.start).total_seconds() / 3600
    return tuple(dict.fromkeys((shown, elapsed)))


# --- validating answers (untrusted text) ---

_THINK = re.compile(r"<think>.*?(?:</think>|\Z)", re.DOTALL | re.IGNORECASE)
_ZERO_WIDTH = re.compile("[\u00ad\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u206f\ufeff]")
_FENCE = re.compile(r"^\s*```[\w-]*\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL)
_SENTENCE_END = re.compile(r"[.!?。！？](?=\s|$)|[。！？]")
_REFUSAL = re.compile(
    r"^(?:i'?m sorry|i am sorry|sorry[,.!]|i apologi[sz]e|i can'?t|i cannot|i'?m (?:not able|unable)"
    r"|i am (?:not able|unable)|i won'?t|i will not|as an ai\b|as a language model|as an assistant"
    r"|抱歉|很抱歉|对不起|无法|我无法|我不能|作为(?:一个)?(?:ai|人工智能|语言模型))",
    re.IGNORECASE,
)
_DISCUSSION_FIELDS = ("question", "positions", "status")


def clean(text: str, limit: int) -> str:
    """One paragraph of plain text: no reasoning block, controls, zero-width or bidi characters, wrapping
    fences or quotes; whitespace collapsed; at most ``limit`` characters."""
    text = _THINK.sub("", text)
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    text = " ".join(_ZERO_WIDTH.sub("", strip_controls(text)).split())
    while len(text) >= 2 and text[0] + text[-1] in ('""', "''", "“”", "「」", "``"):
        text = text[1:-1].strip()
    return truncate(text, limit)


def _check_refusal(text: str) -> None:
    start = text.lstrip(" \"'“‘「*#-:>").replace("’", "'")
    if _REFUSAL.match(start):
        raise Fallback("refusal", f"refused: {truncate(text, 80)!r}")


def _whole_sentences(text: str) -> str:
    """A paragraph cut off by the token limit, back to its last complete sentence."""
    ends = [match.end() for match in _SENTENCE_END.finditer(text)]
    if not ends:
        raise Fallback("bad output", "answer cut off by the token limit")
    return text[: ends[-1]].strip()


def validate(
    kind: str, text: str, finish_reason: str | None, facts: Facts | None = None, locale: str = "en"
) -> tuple[str | Analysis, str]:
    """The usable value of an answer and its canonical text (what the cache keeps), or ``Fallback``.

    ``facts``: what the part's prompt gave the model; the answer must be grounded in them
    (``grounding.check``). None: form only (no prompt to hold it to)."""
    if finish_reason == "content_filter":
        raise Fallback("filtered", "answer withheld by the server's content filter")
    locale = normalise_locale(locale)
    least = _MIN_CHARS[locale][kind]
    if kind == DISCUSSION:
        analysis = _discussion(text)
        for name in _DISCUSSION_FIELDS:
            _ground(f"{name}", getattr(analysis, name), facts, locale, least, FIELD_CHARS)
        output = json.dumps(
            {name: getattr(analysis, name) for name in _DISCUSSION_FIELDS}, ensure_ascii=False, sort_keys=True
        )
        return analysis, output
    limit = SUMMARY_CHARS if kind == SUMMARY else IMPACT_CHARS
    value = clean(_field_of(kind, text), _UNCAPPED)
    if not value:
        raise Fallback("bad output", "empty answer")
    _check_refusal(value)
    if finish_reason == "length" and not value.endswith("…"):
        value = _whole_sentences(value)
    _ground(kind, value, facts, locale, least, limit)
    return value, value


_UNCAPPED = 100_000  # cleaning keeps it whole: an answer over its cap is refused ("length"), never cut


def _ground(name: str, value: str, facts: Facts | None, locale: str, least: int, most: int) -> None:
    if facts is None:
        kinds = [grounding.LENGTH] if len(value) > most or len(value) < least else []
    else:
        kinds = grounding.check(value, facts, locale, min_chars=least, max_chars=most)
    if kinds:
        raise Fallback(kinds[0], f"{name} not grounded ({', '.join(kinds)}): {truncate(value, 80)!r}", tuple(kinds))


def _field_of(kind: str, text: str) -> str:
    """The answer's text: its JSON's field when it answered the schema (``{"summary": …}``), else as written
    (a server without structured output, a prompt-only answer)."""
    raw = _THINK.sub("", text)
    fenced = _FENCE.match(raw)
    candidate = (fenced.group(1) if fenced else raw).strip()
    if candidate.startswith("{"):
        try:
            data = json.loads(candidate)
        except ValueError:
            raise Fallback("bad output", f"broken JSON: {truncate(' '.join(candidate.split()), 80)!r}") from None
        if not isinstance(data, dict):
            raise Fallback("bad output", "not a JSON object")
        data = {str(key).lower(): value for key, value in data.items()}
        return _flatten(data.get(kind))
    return raw


def _discussion(text: str) -> Analysis:
    raw = _THINK.sub("", text)
    start, end = raw.find("{"), raw.rfind("}")
    data: Any = None
    if 0 <= start < end:
        try:
            data = json.loads(raw[start : end + 1])
        except ValueError:
            data = None
    if not isinstance(data, dict):
        _check_refusal(clean(raw, 200))
        raise Fallback("bad output", f"not a JSON object: {truncate(' '.join(raw.split()), 80)!r}")
    data = {str(name).lower(): value for name, value in data.items()}
    fields = {name: clean(_flatten(data.get(name)), _UNCAPPED) for name in _DISCUSSION_FIELDS}
    missing = [name for name, value in fields.items() if not value]
    if missing:
        raise Fallback("bad output", f"empty {', '.join(missing)}")
    for value in fields.values():
        _check_refusal(value)
    return Analysis(**fields)


def _flatten(value: object) -> str:
    """A field as text: models sometimes answer positions as a list or a {login: position} object."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "; ".join(_flatten(entry) for entry in value if _flatten(entry))
    if isinstance(value, dict):
        return "; ".join(f"{key}: {_flatten(entry)}" for key, entry in value.items() if _flatten(entry))
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return ""


# --- the new digest ---


def _shown(section: Section | None, shown: set[int]) -> list[tuple[int, DigestItem]]:
    """The section's items that have a full entry somewhere, best first, each with its place in the section."""
    if section is None:
        return []
    return [(index, item) for index, item in enumerate(section.items) if item.number in shown]


def _apply(digest: Digest, parts: list[_Part]) -> Digest:
    narrative = digest.narrative
    analyses: dict[tuple[int, int], Analysis] = {}
    for part in parts:
        if part.value is None:
            continue
        if part.kind == SUMMARY and narrative is not None:
            narrative = structs.replace(narrative, summary=str(part.value), summary_source="llm")
        elif part.kind == DISCUSSION and isinstance(part.value, Analysis):
            analyses[(id(part.section), part.index)] = part.value
        elif part.kind == IMPACT:
            analyses[(id(part.section), part.index)] = Analysis(impact=str(part.value))

    def with_analysis(section: Section) -> Section:
        if not any(key[0] == id(section) for key in analyses):
            return section
        items: list[DigestItem] = [
            structs.replace(item, analysis=analyses[(id(section), index)])
            if (id(section), index) in analyses else item
            for index, item in enumerate(section.items)
        ]
        return structs.replace(section, items=tuple(items))

    return structs.replace(
        digest, narrative=narrative, sections=tuple(with_analysis(section) for section in digest.sections)
    )


# --- entry points ---


async def analyse_digest(store: Store, settings: Settings, digest: Digest, *, analyst: Analyst | None = None) -> Digest:
    """The analysed digest, on the running event loop; the digest unchanged when the analysis is off.

    ``analyst``: the process' ``Analyst`` (its own store and settings are used), so that the digests analysed
    at once share its call limit and each prompt is asked once; ``None``: a new one for this digest alone."""
    if analyst is None:
        analyst = Analyst(store, settings)
    if not analyst.active:
        return digest
    return (await analyst.analyse(digest))[0]


def analyse_digest_blocking(store: Store, settings: Settings, digest: Digest) -> Digest:
    """``analyse_digest`` for synchronous code that has no event loop (the CLI, a worker thread): runs one
    (``asyncio.run``) for this digest alone. Inside a running loop, await ``analyse_digest`` instead."""
    return analyse_blocking(store, settings, digest)[0]


def analyse_blocking(store: Store, settings: Settings, digest: Digest) -> tuple[Digest, AnalysisReport | None]:
    """``analyse_digest_blocking`` with what the analysis took (the CLI prints its ``line()``); ``None`` when the
    analysis is off (no LLM configured, or ``llm.enabled = false``): nothing ran."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        raise RuntimeError(
            "analyse_digest_blocking() called from a running event loop (it would block it): "
            "await analyse_digest(...) instead"
        )
    analyst = Analyst(store, settings)
    if not analyst.active:
        return digest, None
    return asyncio.run(analyst.analyse(digest))


__all__ = [
    "AnalysisReport",
    "Analyst",
    "ChatLike",
    "ClientFactory",
    "Fallback",
    "analyse_blocking",
    "analyse_digest",
    "analyse_digest_blocking",
    "clean",
    "validate",
]


def _digest_of(keys: Iterable[str]) -> str:
    """One name for a set of prompts, whatever their order."""
    return hashlib.sha256("\n".join(sorted(keys)).encode()).hexdigest()[:32]
