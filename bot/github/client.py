"""GitHub REST client: auth, pagination, ETags, rate limits and retries in one place.

Retry policy is hand-written because GitHub's rules are specific: a primary limit (remaining 0: wait for
``x-ratelimit-reset``), secondary limits (``retry-after``, else at least a minute, growing), and ordinary
5xx/network faults (bounded exponential backoff with jitter). Every status maps to a typed error here.

Redirects are followed as GitHub's REST docs ask ("Best practices for using the REST API": 301 is permanent,
302 and 307 temporary; repeat the request at ``Location``). A renamed or transferred repository answers
``/repos/{old}/...`` with a 301 to ``/repositories/{id}/...``, the same path below the repository and the same
query. Only such a redirect is followed: on the API's own host (the token goes nowhere else), to the same
resource, at most ``MAX_REDIRECTS`` hops, with the request's headers (``If-None-Match`` too, so a stored ETag
still earns a 304). Any other (an issue transferred to another repository, another host) stays a typed error.
A followed permanent redirect is reported on the page or object (``moved_to``) so the sync can say so.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import httpx

from bot import __version__
from bot.errors import (
    AccessDenied,
    BadCredentials,
    GitHubError,
    GitHubUnavailable,
    PageGone,
    RateLimited,
    RepoNotFound,
    Stopping,
)
from bot.timeutil import parse_retry_after

_log = logging.getLogger(__name__)

API_VERSION = "2022-11-28"
USER_AGENT = f"digest-bot/{__version__} (+https://github.com/digest-bot/digest-bot)"
_REPO_IN_PATH = re.compile(r"/repos/([^/]+/[^/?#]+)")
# The repository part of an API path (after any /api/v3 prefix): by name, or by id as in Link URLs and redirects.
_REPO_PREFIX = re.compile(r"/(?:repos/[^/]+/[^/]+|repositories/\d+)(?=/|$)")
REDIRECTS = (301, 302, 303, 307, 308)
PERMANENT_REDIRECTS = (301, 308)
MAX_REDIRECTS = 5
_RETRYABLE_ERRORS = (httpx.TimeoutException, httpx.NetworkError, httpx.RemoteProtocolError)
MAX_BACKOFF = 30.0
SECONDARY_MIN_WAIT = 60.0

Sleep = Callable[[float], Awaitable[None]]
CachedPage = Callable[[str], tuple[str, str | None] | None]


@dataclass(slots=True)
class Page:
    url: str  # as asked (the ETag is stored under it), even when GitHub answered it from elsewhere
    status: int  # 200, or 304 when the stored ETag still matches
    data: list[dict[str, Any]] = field(default_factory=list)
    etag: str | None = None
    next_url: str | None = None
    last_page: int | None = None
    moved_to: str | None = None  # where a permanent redirect (the repository renamed or transferred) led


@dataclass(slots=True)
class Resource:
    """One object (``GET /repos/{o}/{r}/pulls/{n}``): ``data`` None when the stored ETag still matched (304)."""

    url: str
    status: int
    data: dict[str, Any] | None = None
    etag: str | None = None
    moved_to: str | None = None


def _resource_path(url: httpx.URL) -> tuple[str, list[tuple[str, str]]] | None:
    """``(path below the repository, query parameters)`` of a repository URL, by name or by id; None for others."""
    match = _REPO_PREFIX.search(url.path)
    return (url.path[match.end():].rstrip("/"), sorted(url.params.multi_items())) if match else None


Origin = tuple[str, str, int | None]


def origin_of(url: httpx.URL) -> Origin:
    return (url.scheme, url.host, url.port)


def redirect_target(response: httpx.Response, origin: Origin) -> str:
    """Where a redirect (a status in ``REDIRECTS`` with a ``Location``) leads, if digest-bot follows it there: on
    ``origin`` (the API's host: credentials go nowhere else) and to the same resource (module docstring); else
    the typed error it stays."""
    status, source = response.status_code, response.request.url
    target = source.join(response.headers["location"])
    if origin_of(target) != origin:
        raise GitHubError(
            f"GitHub redirected {source} ({status}) to another host, {target.scheme}://{target.host}; digest-bot"
            f" follows redirects on {origin[1]} only",
            status=status,
        )
    before, after = _resource_path(source), _resource_path(target)
    if before is None or before != after:
        # Not the repository renamed or transferred but this resource moved elsewhere (an issue transferred to
        # another repository): for the caller to read as gone, as before redirects were followed.
        raise GitHubError(f"GitHub moved {source} to {target} ({status})", status=status)
    _log.debug("GitHub redirected %s to %s (%d)", source, target, status)
    return str(target)


def _page_number(url: str | None) -> int | None:
    if not url:
        return None
    value = httpx.URL(url).params.get("page")
    return int(value) if value and value.isdigit() else None


def stoppable_sleep(stop: asyncio.Event) -> Sleep:
    """``asyncio.sleep`` that gives up, raising ``Stopping``, as soon as ``stop`` is set: a stopping worker does
    not wait out a secondary rate limit or a reset up to ``sync.max_rate_limit_wait_seconds`` away (the sync
    fails like any other and runs again after the restart, from its cursor)."""

    async def sleep(seconds: float) -> None:
        if not stop.is_set():
            try:
                async with asyncio.timeout(seconds):
                    await stop.wait()
            except TimeoutError:
                return
        raise Stopping(f"stopping: not waiting {seconds:.0f} s for GitHub")

    return sleep


class GitHubClient:
    def __init__(
        self,
        *,
        api_url: str = "https://api.github.com",
        token: str | None = None,
        timeout: float = 30.0,
        max_retries: int = 5,
        max_rate_limit_wait: float = 900.0,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Sleep = asyncio.sleep,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
        token_provider: Callable[[], Awaitable[str]] | None = None,
    ) -> None:
        headers = {
            "Accept": "application/vnd.github+json",
            "User-Agent": USER_AGENT,
            "X-GitHub-Api-Version": API_VERSION,
        }
        self.api_url = api_url.rstrip("/")
        self._http = httpx.AsyncClient(
            base_url=self.api_url + "/", headers=headers, timeout=timeout, transport=transport
        )
        # Sent with each request to the API's own host, never elsewhere (a Link or Location naming another host).
        self._token = token or None
        self._origin = origin_of(httpx.URL(self.api_url))
        self._max_retries = max_retries
        self._max_wait = max_rate_limit_wait
        self._sleep = sleep
        self._clock = clock
        self._rng = rng or random.Random()
        # A GitHub App installation's token, current before each request (it is renewed before it expires).
        self._token_provider = token_provider
        self.requests_made = 0
        self.rate_remaining: int | None = None
        self.rate_limit: int | None = None
        self.rate_reset: float | None = None

    async def __aenter__(self) -> GitHubClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    # --- requests ---

    def url_for(self, path: str, params: Mapping[str, Any] | None = None) -> str:
        return str(self._http.build_request("GET", path.lstrip("/"), params=params).url)

    async def get_page(self, url: str, *, etag: str | None = None) -> Page:
        headers = {"If-None-Match": etag} if etag else {}
        response, moved_to = await self._get(url, headers)
        if response.status_code == 304:
            return Page(url=url, status=304, etag=etag, moved_to=moved_to)
        data = _json(response, url)
        if not isinstance(data, list):
            raise GitHubError(f"GitHub answered {url} with an unexpected shape (expected a list)", status=200)
        next_url = response.links.get("next", {}).get("url")
        return Page(
            url=url,
            status=response.status_code,
            data=data,
            etag=response.headers.get("etag"),
            next_url=next_url,
            last_page=_page_number(response.links.get("last", {}).get("url")),
            moved_to=moved_to,
        )

    async def repository(self, full_name: str) -> dict[str, Any]:
        """``GET /repos/{owner}/{name}``: the repository object (``private``, ``visibility``, …). A repository
        the token cannot see is ``RepoNotFound`` (404) or ``AccessDenied`` (403), as GitHub answers."""
        data = await self.get_json(f"repos/{full_name}")
        if not isinstance(data, dict):
            url = self.url_for(f"repos/{full_name}")
            raise GitHubError(f"GitHub answered {url} with an unexpected shape (expected an object)", status=200)
        return data

    async def get_object(self, path: str, *, etag: str | None = None) -> Resource:
        """One object, conditionally: with the ETag stored for it, an unchanged object costs a 304 (which GitHub
        does not count against the rate limit). Errors are typed as for pages."""
        url = self.url_for(path)
        response, moved_to = await self._get(url, {"If-None-Match": etag} if etag else {})
        if response.status_code == 304:
            return Resource(url=url, status=304, etag=etag, moved_to=moved_to)
        data = _json(response, url)
        if not isinstance(data, dict):
            raise GitHubError(f"GitHub answered {url} with an unexpected shape (expected an object)", status=200)
        return Resource(url=url, status=response.status_code, data=data, etag=response.headers.get("etag"),
                        moved_to=moved_to)

    async def get_json(self, path: str) -> Any:
        """One resource (``repos/{o}/{r}/issues/{n}``) as GitHub sent it, unconditionally: the caller checks
        its shape. Errors are typed as for pages (404 -> RepoNotFound; an issue transferred to another
        repository, whose 301 leads to another resource, -> GitHubError with status 301)."""
        return (await self.fetch(path))[0]

    async def fetch(self, path: str) -> tuple[Any, str | None]:
        """``get_json``, and where a permanent redirect led (None when GitHub answered at ``path``)."""
        url = self.url_for(path)
        response, moved_to = await self._get(url, {})
        return _json(response, url), moved_to

    async def paginate(
        self, path: str, params: Mapping[str, Any], *, cached: CachedPage | None = None
    ) -> AsyncIterator[Page]:
        """Follow ``Link: rel="next"`` from the first page; a 304 page continues with its remembered next URL.

        A 404 for a later page is not the first request's "no such repository": the listing GitHub linked to a
        moment ago is gone (``PageGone``), and a sync run again reads it."""
        url: str | None = self.url_for(path, params)
        pages = 0
        while url:
            remembered = cached(url) if cached else None
            try:
                page = await self.get_page(url, etag=remembered[0] if remembered else None)
            except RepoNotFound:
                if not pages:
                    raise
                raise PageGone(
                    f"page {_page_number(url) or pages + 1} of {path}, which GitHub listed a moment ago, is gone"
                    f" (404 for {url}): run the sync again",
                    status=404,
                ) from None
            pages += 1
            if page.status == 304 and remembered:
                page.next_url = remembered[1]
            yield page
            url = page.next_url

    async def _get(self, url: str, headers: Mapping[str, str]) -> tuple[httpx.Response, str | None]:
        """GET ``url``, following GitHub's redirects to the same resource on the API's host (module docstring);
        the final response and, when a hop was permanent, the URL the resource now answers at."""
        asked, permanent = url, False
        for _ in range(MAX_REDIRECTS + 1):
            response = await self._send(url, headers)
            if response.status_code not in REDIRECTS:
                return response, url if permanent else None
            url = self._redirect_target(response)
            permanent = permanent or response.status_code in PERMANENT_REDIRECTS
        raise GitHubError(
            f"GitHub redirected {asked} more than {MAX_REDIRECTS} times (last to {url}); not followed",
            status=response.status_code,
        )

    def _redirect_target(self, response: httpx.Response) -> str:
        return redirect_target(response, self._origin)

    def _authorization(self, url: str) -> bool:
        """Whether ``url`` is on the API's host, the only one the token is sent to."""
        target = httpx.URL(url)
        return not target.is_absolute_url or origin_of(target) == self._origin

    async def _send(self, url: str, headers: Mapping[str, str]) -> httpx.Response:
        failures = 0
        primary_waits = 0
        ours = self._authorization(url)
        while True:
            await self._wait_for_primary_limit(url)
            if ours and self._token_provider is not None:
                headers = {**headers, "Authorization": f"Bearer {await self._token_provider()}"}
            elif ours and self._token is not None:
                headers = {**headers, "Authorization": f"Bearer {self._token}"}
            try:
                response = await self._http.get(url, headers=headers)
            except _RETRYABLE_ERRORS as err:
                self.requests_made += 1
                failures += 1
                if failures > self._max_retries:
                    raise GitHubUnavailable(
                        f"GitHub API at {self.api_url} is unreachable after {failures} attempts"
                        f" ({type(err).__name__}: {err or 'no detail'})"
                    ) from None
                await self._backoff(failures, f"{type(err).__name__} on {url}")
                continue
            self.requests_made += 1
            self._note_rate(response.headers)
            status = response.status_code
            if status < 300 or status == 304 or (status in REDIRECTS and "location" in response.headers):
                return response
            if status in (403, 429) and self._is_rate_limited(response):
                if response.headers.get("x-ratelimit-remaining") == "0":
                    primary_waits += 1
                    if primary_waits > 2 or self.rate_reset is None:
                        raise RateLimited(
                            f"GitHub's API rate limit is used up ({status}) and did not reset; try again later",
                            status=status,
                        )
                    continue  # _wait_for_primary_limit waits for the reset (or gives up) on the next turn
                failures += 1
                if failures > self._max_retries:
                    raise RateLimited(
                        f"GitHub kept answering {status} (secondary rate limit) after {failures} attempts;"
                        " try again later",
                        status=status,
                    )
                await self._secondary_wait(response, failures)
                continue
            if status >= 500:
                failures += 1
                if failures > self._max_retries:
                    raise GitHubUnavailable(
                        f"GitHub API answered {status} {response.reason_phrase} {failures} times for {url}",
                        status=status,
                    )
                await self._backoff(failures, f"HTTP {status} on {url}")
                continue
            raise self._error_for(response)

    # --- status -> typed errors, the one place ---

    def _error_for(self, response: httpx.Response) -> GitHubError:
        status = response.status_code
        url = str(response.request.url)
        match = _REPO_IN_PATH.search(httpx.URL(url).path)
        repo = match.group(1) if match else None
        said = _message(response)
        if status == 401:
            return BadCredentials(
                f"GitHub rejected the token (401 {said or 'Bad credentials'}): check GITHUB_TOKEN", status=401
            )
        if status == 403:
            target = f"repository {repo}" if repo else url
            return AccessDenied(
                f"GitHub denied access to {target} (403{': ' + said if said else ''}); the token lacks access",
                status=403,
            )
        if status == 404:
            if repo:
                return RepoNotFound(
                    f"no such repository {repo} on GitHub (404), or the token cannot see it", status=404
                )
            return RepoNotFound(f"GitHub has nothing at {url} (404): check GITHUB_API_URL", status=404)
        if status == 410:
            return GitHubError(f"{repo or url}: issues are disabled or gone (410)", status=410)
        if status in REDIRECTS:
            return GitHubError(f"GitHub answered {status} for {url} without a Location to follow", status=status)
        return GitHubError(f"GitHub answered {status} for {url}{': ' + said if said else ''}", status=status)

    # --- rate limits and backoff ---

    def _is_rate_limited(self, response: httpx.Response) -> bool:
        if response.status_code == 429 or "retry-after" in response.headers:
            return True
        if response.headers.get("x-ratelimit-remaining") == "0":
            return True
        return "rate limit" in _message(response).lower()

    def _note_rate(self, headers: httpx.Headers) -> None:
        for name, attr in (("x-ratelimit-remaining", "rate_remaining"), ("x-ratelimit-limit", "rate_limit")):
            value = headers.get(name)
            if value is not None and value.isdigit():
                setattr(self, attr, int(value))
        reset = headers.get("x-ratelimit-reset")
        if reset and reset.isdigit():
            self.rate_reset = float(reset)

    async def _wait_for_primary_limit(self, url: str) -> None:
        if self.rate_remaining != 0 or self.rate_reset is None:
            return
        wait = self.rate_reset - self._clock() + 1.0
        if wait > self._max_wait:
            reset_at = datetime.fromtimestamp(self.rate_reset, UTC).strftime("%H:%M UTC")
            hint = (
                ""
                if self._token is not None or self._token_provider is not None
                else "; set GITHUB_TOKEN for 5,000 requests an hour"
            )
            raise RateLimited(
                f"GitHub's API rate limit is used up until {reset_at} (in {wait / 60:.0f} min), longer than the"
                f" allowed wait of {self._max_wait / 60:.0f} min{hint}"
            )
        if wait > 0:
            _log.warning("GitHub rate limit reached; waiting %.0f s for the reset", wait)
            await self._sleep(wait)
        # Assume the reset happened; the next response's headers correct us.
        self.rate_remaining = None

    async def _secondary_wait(self, response: httpx.Response, failures: int) -> None:
        # Seconds or an HTTP-date; anything unreadable falls back to a growing wait of at least a minute.
        asked = parse_retry_after(response.headers.get("retry-after"), now=datetime.fromtimestamp(self._clock(), UTC))
        wait = asked if asked is not None else SECONDARY_MIN_WAIT * 2 ** (failures - 1)
        if wait > self._max_wait:
            raise RateLimited(
                f"GitHub asked to wait {wait:.0f} s (secondary rate limit), more than the allowed"
                f" {self._max_wait:.0f} s; try again later",
                status=response.status_code,
            )
        _log.warning("GitHub secondary rate limit (%d); waiting %.0f s", response.status_code, wait)
        await self._sleep(wait)

    async def _backoff(self, failures: int, what: str) -> None:
        delay = min(MAX_BACKOFF, 2.0 ** (failures - 1)) * self._rng.uniform(0.5, 1.0)
        _log.info("retrying after %s (attempt %d) in %.1f s", what, failures + 1, delay)
        await self._sleep(delay)


def _message(response: httpx.Response) -> str:
    try:
        body = response.json()
    except ValueError:
        return ""
    return str(body.get("message", "")) if isinstance(body, dict) else ""


def _json(response: httpx.Response, url: str) -> Any:
    try:
        return response.json()
    except ValueError:
        raise GitHubError(f"GitHub answered {url} with something that is not JSON", status=200) from None
