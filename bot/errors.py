"""Errors a user can act on. Each carries one clear sentence; the CLI prints it without a traceback."""

from __future__ import annotations


class UserError(Exception):
    """Bad input or environment: print ``str(err)`` and exit non-zero."""

    exit_code = 2


class ConfigError(UserError):
    """A configuration that cannot work. ``problems``: every problem found, when several were checked at once
    (``bot.settings.ConfigProblem``); the message lists them all."""

    def __init__(self, message: str, problems: tuple[object, ...] = ()) -> None:
        super().__init__(message)
        self.problems = problems


class GitHubError(UserError):
    """Base of every failure talking to GitHub; ``status`` is the HTTP status when there was one."""

    exit_code = 3

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class BadCredentials(GitHubError):
    pass


class AccessDenied(GitHubError):
    pass


class RepoNotFound(GitHubError):
    pass


class RateLimited(GitHubError):
    """The primary rate limit is spent and its reset is further away than we may wait."""


class GitHubUnavailable(GitHubError):
    """Network failures or 5xx answers outlasted the retries."""


class Stopping(GitHubError):
    """The process is stopping (SIGTERM): a wait for GitHub's rate limit or a retry ended early."""


class PageGone(GitHubError):
    """A page GitHub linked to a moment ago answered 404 (the listing changed under the sync): run it again."""
