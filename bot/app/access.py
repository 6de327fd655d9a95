"""Which repositories the bot may read: the allow-list every entry point asks (see docs/access.md).

The configuration decides first (``Settings.allowed_repo``: ``[[repos]]`` and ``[access] repos`` patterns).
With ``[access] allow_public = true`` a repository outside it is allowed when GitHub says it is public; that
answer is asked once (``GET /repos/{owner}/{name}``) and remembered in memory for ``ttl``, so a repository
made private stops being followed within a day. Memory, not the store: each process (web, worker) asks on
its own first use, one request per repository a day, and a restart forgets nothing that matters.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Collection, Mapping
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot.errors import AccessDenied, RepoNotFound
from bot.settings import Settings
from bot.timeutil import utcnow

if TYPE_CHECKING:  # the client (httpx and all under it) loads only when GitHub is asked
    from bot.github.client import GitHubClient

_log = logging.getLogger(__name__)

VISIBILITY_TTL = timedelta(hours=24)
GitHubFactory = Callable[[], "GitHubClient"]


class RepoAccess:
    def __init__(self, settings: Settings, *, github: GitHubFactory | None = None,
                 clock: Callable[[], datetime] = utcnow, ttl: timedelta = VISIBILITY_TTL) -> None:
        self.settings = settings
        self._github = github
        self._clock = clock
        self._ttl = ttl
        self._public: dict[str, tuple[bool, datetime]] = {}  # lower-case name -> (public?, when GitHub said so)
        self._lock = threading.Lock()  # read from the build pool's threads and the event loop alike

    @property
    def allow_public(self) -> bool:
        return self.settings.file.access.allow_public

    def admitted(self, repo: str) -> str | None:
        """``repo`` as followed when it is allowed now, from the configuration or a fresh answer of GitHub's."""
        configured = self.settings.allowed_repo(repo)
        if configured is not None:
            return configured
        return repo if self.allow_public and self._known(repo) is True else None

    def refused(self, repo: str) -> bool:
        """Known not to be allowed: outside the configuration and not (known to be) public."""
        return self.admitted(repo) is None and not self.undecided(repo)

    def undecided(self, repo: str) -> bool:
        """Only GitHub can tell: ``allow_public`` is on and its answer about ``repo`` is missing or stale."""
        return self.allow_public and self.settings.allowed_repo(repo) is None and self._known(repo) is None

    async def admit(self, repo: str) -> str | None:
        """Like ``admitted``, asking GitHub first when only it can tell. GitHub errors other than "cannot see
        it" (404/403: refused, like a private repository) propagate: nothing is remembered then."""
        if self.undecided(repo):
            await self._look_up(repo)
        return self.admitted(repo)

    async def _look_up(self, repo: str) -> None:
        if self._github is None:
            return  # nobody to ask: stays undecided, so refused
        try:
            async with self._github() as client:
                public = (await client.repository(repo)).get("private") is False
        except (RepoNotFound, AccessDenied):
            public = False  # the same answer as a private one: a refusal never tells which it was
        _log.info("%s is %s on GitHub", repo, "public" if public else "private or not visible")
        with self._lock:
            self._public[repo.lower()] = (public, self._clock())

    def verdicts(self, repos: Collection[str | None]) -> dict[str, tuple[bool, datetime]]:
        """What GitHub said about ``repos`` (those it was asked about), for a worker process to ``remember``."""
        with self._lock:
            return {key: self._public[key] for repo in repos if repo and (key := repo.lower()) in self._public}

    def remember(self, verdicts: Mapping[str, tuple[bool, datetime]]) -> None:
        """Take GitHub's answers from another process's ``verdicts``: a worker never asks GitHub itself."""
        if verdicts:
            with self._lock:
                self._public.update(verdicts)

    def _known(self, repo: str) -> bool | None:
        with self._lock:
            entry = self._public.get(repo.lower())
        if entry is None or self._clock() - entry[1] >= self._ttl:
            return None
        return entry[0]
