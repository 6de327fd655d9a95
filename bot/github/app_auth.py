"""GitHub App authentication: the App's private key signs a short JWT (PyJWT, RS256), the JWT buys an
installation access token (``POST /app/installations/{id}/access_tokens``), and that token authenticates the
REST calls of the repositories of that installation, until shortly before it expires (an hour on GitHub).

Which installation a repository belongs to comes from ``GITHUB_APP_INSTALLATION_ID`` or, per repository, from
``GET /repos/{owner}/{repo}/installation`` (asked once). Each installation has its own rate-limit budget on
GitHub, so the worker keeps one client per installation (``bot/github/factory.py``, ``AppSync``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

import httpx
import jwt

from bot.errors import BadCredentials, GitHubError, GitHubUnavailable, RepoNotFound
from bot.github.client import API_VERSION, MAX_REDIRECTS, REDIRECTS, USER_AGENT, origin_of, redirect_target

_log = logging.getLogger(__name__)

JWT_SECONDS = 540  # GitHub accepts at most 10 minutes; iat is set a minute back for clock drift
REFRESH_BEFORE = 300.0  # seconds before an installation token expires that a new one is fetched


class AppAuth:
    def __init__(self, app_id: str, private_key: str, *, api_url: str = "https://api.github.com",
                 installation_id: int | None = None, transport: httpx.AsyncBaseTransport | None = None,
                 timeout: float = 30.0, now: Callable[[], float] = time.time) -> None:
        self.app_id = app_id
        self.api_url = api_url.rstrip("/")
        self._key = private_key
        self._fixed = installation_id
        self._now = now  # token freshness; the JWT itself is always stamped with the system clock (GitHub's)
        self._http = httpx.AsyncClient(
            base_url=api_url.rstrip("/") + "/", timeout=timeout, transport=transport,
            headers={"Accept": "application/vnd.github+json", "User-Agent": USER_AGENT,
                     "X-GitHub-Api-Version": API_VERSION})
        self._installations: dict[str, int] = {}  # repo (lower-case) -> installation id
        self._tokens: dict[int, tuple[str, float]] = {}  # installation -> (token, expires at, epoch seconds)
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.tokens_fetched = 0

    async def aclose(self) -> None:
        await self._http.aclose()

    def app_jwt(self) -> str:
        issued = int(time.time()) - 60
        try:
            return jwt.encode({"iat": issued, "exp": issued + 60 + JWT_SECONDS, "iss": self.app_id}, self._key,
                              algorithm="RS256")
        except (ValueError, TypeError, jwt.PyJWTError) as err:
            raise BadCredentials(f"GITHUB_APP_PRIVATE_KEY cannot sign a JWT ({type(err).__name__})") from None

    async def installation(self, repo: str) -> int:
        """The installation that covers ``repo``: the configured one, else GitHub's answer (cached)."""
        if self._fixed is not None:
            return self._fixed
        found = self._installations.get(repo.lower())
        if found is None:
            data = await self._app_request("GET", f"repos/{repo}/installation",
                                           what=f"the App's installation on {repo}")
            found = data.get("id")
            if not isinstance(found, int) or isinstance(found, bool):
                raise GitHubError(f"GitHub answered the installation of {repo} without an id", status=200)
            self._installations[repo.lower()] = found
        return found

    async def token(self, installation: int) -> str:
        """A valid installation token, fetched again ``REFRESH_BEFORE`` seconds before the old one expires."""
        cached = self._tokens.get(installation)
        if cached is not None and cached[1] - self._now() > REFRESH_BEFORE:
            return cached[0]
        async with self._locks[installation]:  # several syncs of one installation ask once
            cached = self._tokens.get(installation)
            if cached is not None and cached[1] - self._now() > REFRESH_BEFORE:
                return cached[0]
            data = await self._app_request("POST", f"app/installations/{installation}/access_tokens",
                                           what=f"a token for installation {installation}")
            token, expires = data.get("token"), data.get("expires_at")
            if not isinstance(token, str) or not isinstance(expires, str):
                raise GitHubError("GitHub answered an installation token request without token or expires_at",
                                  status=201)
            try:
                expires_at = datetime.fromisoformat(expires.replace("Z", "+00:00")).timestamp()
            except ValueError:
                raise GitHubError(f"GitHub's installation token expires at {expires[:40]!r}?", status=201) from None
            self._tokens[installation] = (token, expires_at)
            self.tokens_fetched += 1
            _log.info("GitHub App %s: new token for installation %d", self.app_id, installation)
            return token

    def provider(self, installation: int) -> Callable[[], Awaitable[str]]:
        """What a ``GitHubClient`` asks before each request (``token_provider``)."""
        return lambda: self.token(installation)

    async def _app_request(self, method: str, path: str, *, what: str) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {self.app_jwt()}"}
        target: str = path
        try:
            response = await self._http.request(method, target, headers=headers)
            # A renamed repository's installation (GET /repos/{old}/installation) answers from its new place, as
            # GitHubClient follows it: on the API's host, the same resource, a few hops.
            for _ in range(MAX_REDIRECTS):
                if method != "GET" or response.status_code not in REDIRECTS or "location" not in response.headers:
                    break
                target = redirect_target(response, origin_of(httpx.URL(self.api_url)))
                response = await self._http.request(method, target, headers=headers)
        except (httpx.TimeoutException, httpx.NetworkError, httpx.RemoteProtocolError) as err:
            raise GitHubUnavailable(f"GitHub is unreachable asking for {what} ({type(err).__name__})") from None
        status = response.status_code
        if status == 401:
            raise BadCredentials(f"GitHub refused the App's JWT asking for {what} (401): check GITHUB_APP_ID and "
                                 "GITHUB_APP_PRIVATE_KEY", status=401)
        if status == 404:
            raise RepoNotFound(f"GitHub has no {what} (404): is the App installed there?", status=404)
        if status >= 500:
            raise GitHubUnavailable(f"GitHub answered {status} asking for {what}", status=status)
        if status >= 300:
            raise GitHubError(f"GitHub answered {status} asking for {what}", status=status)
        try:
            data = response.json()
        except ValueError:
            data = None
        if not isinstance(data, dict):
            raise GitHubError(f"GitHub answered {what} with something that is not an object", status=status)
        return data
