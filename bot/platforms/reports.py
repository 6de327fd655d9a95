"""The report pages on the web process (docs/reports.md): ``GET /reports/<owner>/<name>/`` (the index of days
and the search box) and ``GET /reports/<owner>/<name>/<YYYY-MM-DD>`` (that day's digest with its charts).

Access: with ``[reports] public = true`` anyone; else a link signed with ``REPORTS_SECRET`` that has not expired
(403 otherwise); with neither the routes are not served at all. Only allowed, synced repositories exist (404).

Caching: each page is kept in memory with an ETag (``If-None-Match`` gets a 304). A day whose window the last
completed sync covers is immutable: kept until evicted. Other pages are kept until the next sync completes.
Every response carries a strict Content-Security-Policy (no script, no external request, the one stylesheet by
hash, images only as data: URLs) and ``Referrer-Policy: no-referrer`` (a signed URL never leaks to GitHub).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from aiohttp import web
from msgspec.structs import replace

from bot.app.links import index_path
from bot.app.reports import Reports
from bot.app.service import DigestService
from bot.locales import LOCALES
from bot.timeutil import utcnow
from formatters.html import STYLE_HASH, render_html, render_html_index

_log = logging.getLogger(__name__)

CSP = (
    f"default-src 'none'; style-src '{STYLE_HASH}'; img-src data:; form-action 'self'; base-uri 'none'; "
    "frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}
_NAME = re.compile(r"^[A-Za-z0-9._-]{1,100}$")
_OWNER = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$")
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
CACHE_PAGES = 256  # pages kept in memory (a day page of a busy repository is ~350 KB)


@dataclass(frozen=True)
class Page:
    body: bytes
    etag: str
    immutable: bool


class PageCache:
    """An LRU of rendered pages by key; a mutable page's key holds the sync it was built after."""

    def __init__(self, size: int = CACHE_PAGES) -> None:
        self.size = size
        self._pages: OrderedDict[tuple[Any, ...], Page] = OrderedDict()

    def get(self, key: tuple[Any, ...]) -> Page | None:
        page = self._pages.get(key)
        if page is not None:
            self._pages.move_to_end(key)
        return page

    def put(self, key: tuple[Any, ...], page: Page) -> None:
        self._pages[key] = page
        self._pages.move_to_end(key)
        while len(self._pages) > self.size:
            self._pages.popitem(last=False)


def make_page(html: str, *, immutable: bool) -> Page:
    body = html.encode("utf-8")
    return Page(body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"', immutable)


def _respond(request: web.Request, page: Page) -> web.StreamResponse:
    headers = {
        **SECURITY_HEADERS,
        "ETag": page.etag,
        # Signed or not, a report is this reader's: shared caches keep none.
        "Cache-Control": "private, max-age=31536000, immutable" if page.immutable else "private, no-cache",
        "Vary": "Accept-Encoding",
    }
    if page.etag in {tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")}:
        return web.Response(status=304, headers=headers)
    response = web.Response(body=page.body, content_type="text/html", charset="utf-8", headers=headers)
    response.enable_compression()
    return response


def _error(status: int, text: str) -> web.Response:
    return web.Response(status=status, text=text, content_type="text/plain", headers=SECURITY_HEADERS)


BUSY_RETRY_SECONDS = 5


def _busy() -> web.Response:
    response = _error(503, f"Busy building other reports: try again in {BUSY_RETRY_SECONDS} s.")
    response.headers["Retry-After"] = str(BUSY_RETRY_SECONDS)
    return response


class ReportRoutes:
    def __init__(self, service: DigestService, *, clock: Callable[[], datetime] = utcnow,
                 cache: PageCache | None = None) -> None:
        self.service = service
        self.reports = Reports(service, clock=clock)
        self.clock = clock
        self.cache = cache or PageCache()
        self._building: dict[tuple[Any, ...], asyncio.Future[Page]] = {}
        # Pages built or searches run at once (cache misses); beyond it a visitor gets "busy" rather than a
        # queue in front of the chat answers that share the build pool (docs/reliability.md, fair use).
        self.max_builds = service.settings.file.chat.heavy_in_flight_total
        self._builds = 0

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/reports/{owner}/{name}/", self.index),
            web.get("/reports/{owner}/{name}/{day}", self.day),
        ]

    def _allowed(self, request: web.Request) -> str | web.Response:
        """From memory, no store read: the repository asked for as followed, or the response refusing it: 403
        for a link that is not (or no longer) valid, 404 for a repository that is not allowed."""
        query = request.query
        if not self.service.links.allows(request.path, query.get("exp"), query.get("sig"), self.clock()):
            return _error(403, "This report link is not valid or has expired: ask the bot for a new one.")
        owner, name = request.match_info["owner"], request.match_info["name"]
        if not (_OWNER.match(owner) and _NAME.match(name)):
            return _error(404, "No such report.")
        repo = self.service.access.admitted(f"{owner}/{name}")
        return _error(404, "No such report.") if repo is None else repo

    def _synced(self, repo: str) -> tuple[str, datetime] | web.Response:
        """404 for an allowed repository the store never synced; else it and its last sync."""
        synced = self.service.last_synced(repo)
        return (repo, synced) if synced is not None else _error(404, "No such report.")

    @staticmethod
    def _locale(request: web.Request) -> str | None:
        asked = request.query.get("lang")
        return asked if asked in LOCALES else None

    async def day(self, request: web.Request) -> web.StreamResponse:
        allowed = self._allowed(request)
        if isinstance(allowed, web.Response):
            return allowed
        text = request.match_info["day"]
        try:
            day = date.fromisoformat(text) if _DAY.match(text) else None
        except ValueError:
            day = None
        if day is None:
            return _error(404, "No report for that day (not a date, not over yet, or never synced).")
        locale = self._locale(request)
        expires = request.query.get("exp")
        # An immutable page needs no store read at all: the access checks above are all it takes.
        page = self.cache.get(("day", allowed, day, locale, None, expires))
        if page is not None:
            return _respond(request, page)
        state = await self.service.in_light_pool(self._day_state, allowed, day)
        if isinstance(state, web.Response):
            return state
        immutable, synced = state
        # The same key as the fast path above for an immutable page; a mutable one's holds the sync it follows.
        key = ("day", allowed, day, locale, None if immutable else synced, expires)
        page = self.cache.get(key)
        if page is None:
            if key not in self._building and self._builds >= self.max_builds:
                return _busy()
            page = await self._once(key, lambda: self._build_day(allowed, day, locale, expires, immutable))
            self.cache.put(key, page)
        return _respond(request, page)

    def _day_state(self, repo: str, day: date) -> tuple[bool, datetime | None] | web.Response:
        """One store round trip for a page not in the cache: 404 for a repository never synced or a day the
        index does not list; else whether the day is immutable, and the last sync (what a mutable page's key
        holds)."""
        polled, synced = self.service.sync_marks(repo)
        if polled is None or synced is None:
            return _error(404, "No such report.")
        if not self.reports.has_day(repo, day):
            return _error(404, "No report for that day (not a date, not over yet, or never synced).")
        # Immutable only once a poll covers it (webhooks may be dropped); until then keyed by webhooks' reach too.
        immutable = polled >= self.reports.window(day).end
        return immutable, None if immutable else synced

    async def _build_day(self, repo: str, day: date, locale: str | None, expires: str | None,
                         immutable: bool) -> Page:
        self._builds += 1
        try:
            digest = await self.reports.day_digest(repo, day, locale)
            index_url = self.service.links.relative(
                index_path(repo), expires=int(expires) if expires else None,
                extra={"lang": locale} if locale else None)
            html = await self.service.in_pool(functools.partial(render_html, digest, index_url=index_url))
            return make_page(html, immutable=immutable)
        finally:
            self._builds -= 1

    async def _once(self, key: tuple[Any, ...], build: Callable[[], Awaitable[Page]]) -> Page:
        """``build()`` once for concurrent misses of one page: the first request builds, the others wait for it
        (a link posted to a busy channel is opened by many people within seconds)."""
        running = self._building.get(key)
        if running is not None:
            return await asyncio.shield(running)
        task = asyncio.ensure_future(build())
        self._building[key] = task
        try:
            return await asyncio.shield(task)
        finally:
            if task.done():
                self._building.pop(key, None)
            else:
                task.add_done_callback(lambda _: self._building.pop(key, None))

    async def index(self, request: web.Request) -> web.StreamResponse:
        allowed = self._allowed(request)
        if isinstance(allowed, web.Response):
            return allowed
        admitted = await self.service.in_light_pool(self._synced, allowed)
        if isinstance(admitted, web.Response):
            return admitted
        repo, synced = admitted
        locale = self._locale(request)
        expires = request.query.get("exp")
        query = request.query.get("q", "").strip()[:500]
        # The index changes with each day and each sync; a search with the clock ("7d" ends now): not cached.
        day = self.reports.latest_day()
        key = ("index", repo, locale, expires, synced, day)
        page = None if query else self.cache.get(key)
        if page is None:
            if self._builds >= self.max_builds:
                return _busy()
            self._builds += 1
            try:
                html = await self.service.in_pool(self._render_index, repo, locale, expires, query)
            finally:
                self._builds -= 1
            page = make_page(html, immutable=False)
            if not query:
                self.cache.put(key, page)
        return _respond(request, page)

    def _render_index(self, repo: str, locale: str | None, expires: str | None, query: str) -> str:
        index = self.reports.index(repo, locale, expires=int(expires) if expires else None)
        notice = None
        if query:
            result, notice = self.reports.search(repo, locale, query)
            index = replace(index, query=query, result=result)
        return render_html_index(index, notice=notice)


def report_routes(service: DigestService) -> list[web.RouteDef]:
    """The report routes, or none (said in the log) when neither ``[reports] public`` nor ``REPORTS_SECRET``
    is set: reports of a private repository must never be open to whoever finds the URL."""
    if not service.links.enabled:
        _log.warning("report pages are off: set REPORTS_SECRET (signed links) or [reports] public = true "
                     "(docs/reports.md)")
        return []
    if service.settings.public_url is None:
        _log.warning("report pages are on (%s) but PUBLIC_URL is not set: chat posts will not link to them",
                     service.links.mode)
    return ReportRoutes(service).routes()
