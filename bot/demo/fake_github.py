"""A faithful in-memory fake of the GitHub REST API subset digest-bot uses.

One implementation, three uses:

* in-process: ``httpx.Client(transport=httpx.MockTransport(fake.handler))`` (``digest-bot demo``, unit tests);
* a real HTTP/1.1 server thread on 127.0.0.1 (``with fake.serve() as base_url:``) for integration
  tests and benchmarks;
* fault injection (``fake.inject(...)``) to exercise the client's retry and rate-limit handling.

Served endpoints (all GET, optionally under ``api_prefix`` such as ``/api/v3`` for GitHub Enterprise):
``/repos/{o}/{r}``, ``/repos/{o}/{r}/issues``, ``/repos/{o}/{r}/issues/comments``, one issue
``/repos/{o}/{r}/issues/{number}``, one comment ``/repos/{o}/{r}/issues/comments/{id}``, one pull request
``/repos/{o}/{r}/pulls/{number}`` (its issue's fields in the pull's shape, with the details given to
``add_pulls``: additions, deletions, changed_files, commits, review_comments, ...), ``/rate_limit`` and the
same repository routes under ``/repositories/{id}`` (the form real GitHub uses in ``Link`` URLs). Every 200
carries an ETag, and a request whose ``If-None-Match`` still matches gets a 304 that costs no rate limit.
``fake.rename(old, new)`` renames (or transfers) a repository as GitHub does: ``/repos/{old}/...`` answers
``301 Moved Permanently`` with ``Location: .../repositories/{id}/...`` (same path below it, same query).

``fake.damage(...)`` serves a malformed payload in place of one item (listings and the item alone) while
its real fields still order it, as when GitHub's serialisation of one item goes wrong.
"""

from __future__ import annotations

import contextlib
import hashlib
import http
import json
import logging
import math
import socket
import threading
import time
from bisect import bisect_left
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlencode, urlsplit

import httpx

_log = logging.getLogger(__name__)

__all__ = ["FakeGitHub", "RecordedRequest"]

DOCS_URL = "https://docs.github.com/rest"
REDIRECT_DOCS_URL = "https://docs.github.com/v3/#http-redirects"  # what GitHub's 301 bodies link to
RATE_LIMIT_DOCS_URL = "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"
DEFAULT_API_VERSION = "2022-11-28"
UNAUTHENTICATED_LIMIT = 60
RATE_WINDOW_SECONDS = 3600
DEFAULT_PER_PAGE = 30
MAX_PER_PAGE = 100
_MAX_CACHED_VIEWS = 64  # distinct (state, sort, direction, since) queries kept per repo


@dataclass
class RecordedRequest:
    """One request as the fake saw it. ``status`` is None while being served and for requests answered
    by an injected transport error (no HTTP response at all)."""

    method: str
    path: str  # as requested, including any api_prefix
    params: dict[str, str]  # last value wins for repeated keys, as in GitHub's Rails stack
    headers: dict[str, str]  # lower-case keys
    status: int | None = None
    faulted: bool = False


@dataclass
class _Fault:
    status: int | None
    headers: dict[str, str]
    body: dict[str, Any] | list[Any] | str | None
    error: type[Exception] | None
    times: int
    when: Callable[[RecordedRequest], bool] | None


class _TransportFault(Exception):
    """Raised by the dispatcher when an injected fault means "no HTTP response"; each front end
    (MockTransport handler or server thread) turns it into its own failure mode."""

    def __init__(self, error: type[Exception]) -> None:
        super().__init__(error.__name__)
        self.error = error


@dataclass
class _Bucket:
    limit: int
    used: int = 0
    reset_at: float | None = None  # the window starts at the first request, as on GitHub

    def roll(self, now: float) -> None:
        if self.reset_at is None or now >= self.reset_at:
            self.used = 0
            self.reset_at = now + RATE_WINDOW_SECONDS

    @property
    def remaining(self) -> int:
        return max(0, self.limit - self.used)

    def headers(self) -> list[tuple[str, str]]:
        return [
            ("x-ratelimit-limit", str(self.limit)),
            ("x-ratelimit-remaining", str(self.remaining)),
            ("x-ratelimit-reset", str(int(self.reset_at or 0))),
            ("x-ratelimit-used", str(self.used)),
            ("x-ratelimit-resource", "core"),
        ]

    def as_json(self) -> dict[str, int]:
        return {"limit": self.limit, "used": self.used, "remaining": self.remaining,
                "reset": int(self.reset_at or 0)}


def _canon_ts(value: str) -> str:
    """Normalise a timestamp to GitHub's "YYYY-MM-DDTHH:MM:SSZ" so plain string order is time order.

    The fast path (already canonical) matters: it runs for every item on every index rebuild."""
    if len(value) == 20 and value[10] == "T" and value[19] == "Z":
        return value
    parsed = datetime.fromisoformat(value)
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _parse_since(value: str) -> str:
    """Parse a ``since`` value into a canonical key; raises ValueError when GitHub would answer 422.

    Fractional seconds round *up*: item times have whole seconds, so ``updated >= ceil(since)`` is exactly
    ``updated >= since``."""
    parsed = datetime.fromisoformat(value.strip())
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    epoch = math.ceil(parsed.timestamp())
    return datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _dumps(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()


def _names_pull(marker: Any) -> bool:
    """An issue's ``pull_request`` object makes it a pull request only when it names one: api.github.com once
    listed plain issues with ``"pull_request": {"html_url": null, ...}``, and ``GET /pulls/{n}`` 404s for those."""
    return isinstance(marker, dict) and bool(marker.get("url") or marker.get("html_url"))


def _issue_number_from_url(issue_url: str) -> int | None:
    tail = issue_url.rstrip("/").rsplit("/", 2)
    if len(tail) == 3 and tail[1] == "issues" and tail[2].isdigit():
        return int(tail[2])
    return None


class _Repo:
    """One repository's data plus lazily built, mutation-invalidated indexes."""

    def __init__(self, full_name: str, repo_id: int, repo_fields: dict[str, Any] | None) -> None:
        self.full_name = full_name
        self.id = repo_id
        self.repo_fields = dict(repo_fields or {})
        self.issues: dict[int, dict[str, Any]] = {}
        self.comments: dict[int, dict[str, Any]] = {}
        self.pulls: dict[int, dict[str, Any]] = {}  # details of GET /pulls/{n}, by number
        # Serialised items survive unrelated mutations; only the touched item's entry is dropped.
        self._issue_json: dict[int, bytes] = {}
        self._comment_json: dict[int, bytes] = {}
        self.damaged: dict[tuple[str, int], bytes] = {}  # (kind, key) -> what is served instead
        self._bases: dict[tuple[str, str, str], tuple[list[str], list[int]]] = {}
        self._views: dict[tuple[Any, ...], list[int]] = {}

    # -- mutation -------------------------------------------------------------------------------------
    def invalidate(self) -> None:
        self._bases.clear()
        self._views.clear()

    def put_issue(self, issue: dict[str, Any]) -> None:
        number = int(issue["number"])
        self.issues[number] = dict(issue)
        self._issue_json.pop(number, None)
        self.invalidate()

    def put_comment(self, comment: dict[str, Any]) -> None:
        cid = int(comment["id"])
        self.comments[cid] = dict(comment)
        self._comment_json.pop(cid, None)
        self.invalidate()

    # -- queries --------------------------------------------------------------------------------------
    def _base(self, kind: str, state: str, sort: str) -> tuple[list[str], list[int]]:
        """Ascending (sort value, tie-break) order for one (kind, state, sort), with the parallel list of
        canonical ``updated_at`` values; rebuilt only after a mutation."""
        key = (kind, state, sort)
        cached = self._bases.get(key)
        if cached is not None:
            return cached
        if kind == "issues":
            rows = [i for i in self.issues.values() if state == "all" or i.get("state", "open") == state]
            tiebreak = "number"
        else:
            rows = list(self.comments.values())
            tiebreak = "id"
        decorated: list[tuple[Any, int, str]] = []
        for row in rows:
            updated = _canon_ts(row["updated_at"])
            if sort == "updated":
                primary: Any = updated
            elif sort == "comments":
                primary = int(row.get("comments") or 0)
            else:
                primary = _canon_ts(row.get("created_at") or row["updated_at"])
            decorated.append((primary, int(row[tiebreak]), updated))
        decorated.sort()
        result = ([d[2] for d in decorated], [d[1] for d in decorated])
        self._bases[key] = result
        return result

    def view(self, kind: str, state: str, sort: str, direction: str, since: str | None) -> list[int]:
        """Ordered keys (issue numbers or comment ids) for a query; pages are slices of this."""
        key = (kind, state, sort, direction, since)
        cached = self._views.get(key)
        if cached is not None:
            return cached
        updated, keys = self._base(kind, state, sort)
        if since is None:
            ordered = list(keys)
        elif sort == "updated":
            ordered = keys[bisect_left(updated, since):]  # sorted by updated_at: since is a suffix
        else:
            ordered = [k for k, u in zip(keys, updated, strict=True) if u >= since]
        if direction == "desc":
            ordered.reverse()
        if len(self._views) >= _MAX_CACHED_VIEWS:
            self._views.clear()
        self._views[key] = ordered
        return ordered

    def pull_object(self, number: int) -> dict[str, Any] | None:
        """``GET /pulls/{n}``: the issue's fields in the pull's shape, then the details given; None when there is
        no such pull request (an issue's number, as on GitHub, or nothing at all)."""
        issue = self.issues.get(number)
        details = self.pulls.get(number)
        if issue is None or not _names_pull(issue.get("pull_request")):
            return dict(details) if details is not None and issue is None else None
        pull_links: dict[str, Any] = issue["pull_request"]
        merged_at = pull_links.get("merged_at")
        obj: dict[str, Any] = {
            "url": pull_links.get("url") or issue.get("url", "").replace("/issues/", "/pulls/"),
            "id": issue.get("id"),
            "node_id": issue.get("node_id"),
            "html_url": issue.get("html_url"),
            "diff_url": pull_links.get("diff_url"),
            "patch_url": pull_links.get("patch_url"),
            "issue_url": issue.get("url"),
            "number": number,
            "state": issue.get("state", "open"),
            "locked": issue.get("locked", False),
            "title": issue.get("title"),
            "user": issue.get("user"),
            "body": issue.get("body"),
            "labels": issue.get("labels", []),
            "created_at": issue.get("created_at"),
            "updated_at": issue.get("updated_at"),
            "closed_at": issue.get("closed_at"),
            "merged_at": merged_at,
            "assignees": issue.get("assignees", []),
            "requested_reviewers": [],
            "draft": bool(issue.get("draft")),
            "author_association": issue.get("author_association"),
            "merged": merged_at is not None,
            "comments": issue.get("comments", 0),
        }
        obj.update(details or {})
        return obj

    def item_json(self, kind: str, key: int) -> bytes:
        damaged = self.damaged.get((kind, key))
        if damaged is not None:
            return damaged
        cache, source = (
            (self._issue_json, self.issues) if kind == "issues" else (self._comment_json, self.comments)
        )
        encoded = cache.get(key)
        if encoded is None:
            encoded = cache[key] = _dumps(source[key])
        return encoded


class FakeGitHub:
    """In-memory GitHub REST API. Thread-safe: one re-entrant lock guards all state, so ``on_request``
    callbacks may call the mutation methods."""

    def __init__(
        self,
        *,
        token: str | None = None,
        rate_limit: int = 5000,
        api_prefix: str = "",
        now: Callable[[], float] = time.time,
        base_url: str = "https://api.github.com",
        stall_seconds: float = 2.0,
    ) -> None:
        self.token = token
        self.api_prefix = "/" + api_prefix.strip("/") if api_prefix.strip("/") else ""
        self.now = now
        self.base_url = base_url.rstrip("/")
        self.stall_seconds = stall_seconds  # how long the server thread stalls on an injected timeout
        # GitHub puts /repositories/{id}/... URLs in Link headers; opt in to check clients cope with that.
        self.links_use_repository_id = False
        self.requests: list[RecordedRequest] = []
        self.on_request: Callable[[RecordedRequest, int], None] | None = None
        self._lock = threading.RLock()
        self._repos: dict[str, _Repo] = {}  # keyed by lower-case full name: GitHub names are case-insensitive
        self._moved: dict[str, _Repo] = {}  # old lower-case full name -> the repository renamed or transferred
        self._faults: list[_Fault] = []
        # With no token configured every request is "authenticated"; otherwise anonymous callers get
        # GitHub's separate 60/hour bucket.
        self._authed = _Bucket(rate_limit)
        self._anon = _Bucket(UNAUTHENTICATED_LIMIT if token is not None else rate_limit)
        self._serving = False
        self._rate_limit = rate_limit
        # GitHub App (``add_app``): its public key checks the JWTs; installation tokens each have their bucket.
        self._app: tuple[str, str, dict[str, int], float] | None = None  # id, public PEM, repo -> inst, token TTL
        self._installation_tokens: dict[str, tuple[int, float]] = {}  # token -> (installation, expires at)
        self._installation_buckets: dict[int, _Bucket] = {}
        self.tokens_issued: list[tuple[int, str]] = []  # (installation, token), in order

    # -- data -----------------------------------------------------------------------------------------
    def add_repo(
        self,
        full_name: str,
        issues: list[dict[str, Any]],
        comments: list[dict[str, Any]],
        *,
        repo_fields: dict[str, Any] | None = None,
    ) -> None:
        """Add (or replace) a repository. Items are shallow-copied so later mutation here does not leak
        into the caller's dicts. ``repo_fields`` overrides keys of the ``GET /repos/{o}/{r}`` object."""
        if full_name.count("/") != 1:
            raise ValueError(f"full_name must be 'owner/name', got {full_name!r}")
        with self._lock:
            existing = self._repos.get(full_name.lower())
            repo_id = existing.id if existing else 1_000_000 + len(self._repos) + 1
            repo = _Repo(full_name, repo_id, repo_fields)
            repo.issues = {int(i["number"]): dict(i) for i in issues}
            repo.comments = {int(c["id"]): dict(c) for c in comments}
            self._repos[full_name.lower()] = repo

    def rename(self, old: str, new: str) -> None:
        """Rename or transfer ``old`` to ``new`` as GitHub does: the repository keeps its id, its items' URLs name
        ``new``, and ``/repos/{old}/...`` answers ``301 Moved Permanently`` with ``Location:
        {base}/repositories/{id}/...`` (the same path below the repository, the same query; the shape recorded in
        octokit/fixtures' ``rename-repository`` scenario) until a repository is created under the old name."""
        if new.count("/") != 1:
            raise ValueError(f"new must be 'owner/name', got {new!r}")
        with self._lock:
            repo = self._repo(old)
            del self._repos[old.lower()]
            was = repo.full_name

            def renamed(value: Any) -> Any:
                if isinstance(value, str):
                    value = value.replace(f"/{was}/", f"/{new}/")
                    return value[: -len(was)] + new if value.endswith(f"/{was}") else value
                if isinstance(value, dict):
                    return {key: renamed(item) for key, item in value.items()}
                return value

            repo.full_name = new
            repo.issues = {number: renamed(issue) for number, issue in repo.issues.items()}
            repo.comments = {cid: renamed(comment) for cid, comment in repo.comments.items()}
            repo._issue_json.clear()
            repo._comment_json.clear()
            repo.invalidate()
            self._repos[new.lower()] = repo
            self._moved[old.lower()] = repo
            self._moved.pop(new.lower(), None)
            if self._app is not None and old.lower() in self._app[2]:  # the App stays installed on it
                self._app[2][new.lower()] = self._app[2].pop(old.lower())

    def add_pulls(self, full_name: str, pulls: list[dict[str, Any]]) -> None:
        """Add (or replace, by ``number``) the details ``GET /repos/{o}/{r}/pulls/{number}`` serves on top of
        the issue's own fields: ``additions``, ``deletions``, ``changed_files``, ``commits``,
        ``review_comments``, ``requested_reviewers``, ... (any pull-request field). A pull request without
        details is served without those counts."""
        with self._lock:
            repo = self._repo(full_name)
            for pull in pulls:
                repo.pulls[int(pull["number"])] = dict(pull)

    def add_issue(self, full_name: str, issue: dict[str, Any]) -> None:
        """Add or replace (by ``number``) an issue or pull request."""
        with self._lock:
            self._repo(full_name).put_issue(issue)

    def update_issue(self, full_name: str, number: int, **fields: Any) -> dict[str, Any]:
        """Set fields on an issue (``updated_at`` is *not* bumped implicitly: pass it). Returns a copy."""
        with self._lock:
            repo = self._repo(full_name)
            if number not in repo.issues:
                raise KeyError(f"{full_name}#{number} does not exist")
            repo.put_issue({**repo.issues[number], **fields})
            return dict(repo.issues[number])

    def add_comment(self, full_name: str, comment: dict[str, Any], *, touch: bool = True) -> None:
        """Add or replace (by ``id``) a comment. With ``touch`` the parent issue's ``comments`` count is
        incremented (new comments only) and its ``updated_at`` raised to the comment's, as GitHub does."""
        with self._lock:
            repo = self._repo(full_name)
            is_new = int(comment["id"]) not in repo.comments
            repo.put_comment(comment)
            number = _issue_number_from_url(comment.get("issue_url", ""))
            if not touch or number is None or number not in repo.issues:
                return
            issue = dict(repo.issues[number])
            if is_new:
                issue["comments"] = int(issue.get("comments") or 0) + 1
            stamp = comment.get("updated_at") or comment.get("created_at")
            if stamp and _canon_ts(stamp) > _canon_ts(issue["updated_at"]):
                issue["updated_at"] = stamp
            repo.put_issue(issue)

    def damage(self, full_name: str, kind: str, key: int, served: Any) -> None:
        """Serve ``served`` (any JSON value) in place of issue ``key`` (``kind="issues"``) or comment ``key``
        (``kind="comments"``), in listings and alone. Ordering and ``since`` still use the stored fields."""
        with self._lock:
            repo = self._repo(full_name)
            source = repo.issues if kind == "issues" else repo.comments
            if key not in source:
                raise KeyError(f"{full_name}: no {kind} {key}")
            repo.damaged[(kind, key)] = _dumps(served)

    def repair(self, full_name: str, kind: str, key: int) -> None:
        """Serve the item's stored fields again (``updated_at`` is not bumped: pass it to ``update_issue``)."""
        with self._lock:
            self._repo(full_name).damaged.pop((kind, key), None)

    def reset_rate_limit(self) -> None:
        """Start fresh windows for both the authenticated and the anonymous bucket."""
        with self._lock:
            for bucket in (self._authed, self._anon):
                bucket.used = 0
                bucket.reset_at = None

    def inject(
        self,
        status: int | None = None,
        *,
        headers: dict[str, str] | None = None,
        body: dict[str, Any] | list[Any] | str | None = None,
        error: type[Exception] | None = None,
        times: int = 1,
        when: Callable[[RecordedRequest], bool] | None = None,
    ) -> None:
        """Answer the next ``times`` matching requests with a fault instead of the real response.

        ``error`` wins over ``status``: MockTransport mode raises it (with the request attached); the server
        thread closes the connection without a response, after stalling ``stall_seconds`` for timeouts.
        With only ``headers``/``body`` (no status) the real response is served with those overrides.
        Faulted requests never consume the rate limit. Faults are matched first-in, first-out."""
        if status is None and error is None and headers is None and body is None:
            raise ValueError("inject() needs a status, an error, headers or a body")
        if times < 1:
            raise ValueError("times must be >= 1")
        with self._lock:
            self._faults.append(_Fault(status, {k.lower(): v for k, v in (headers or {}).items()},
                                       body, error, times, when))

    def clear_faults(self) -> None:
        with self._lock:
            self._faults.clear()

    # -- in-process transport -------------------------------------------------------------------------
    def handler(self, request: httpx.Request) -> httpx.Response:
        """``httpx.MockTransport`` handler (works for sync and async clients)."""
        try:
            return self._dispatch(request)
        except _TransportFault as fault:
            raise _make_error(fault.error, request) from None

    # -- real server ----------------------------------------------------------------------------------
    @contextlib.contextmanager
    def serve(self) -> Iterator[str]:
        """Serve on 127.0.0.1 (ephemeral port) in a daemon thread; yields the base URL incl. api_prefix.

        While serving, ``Link`` URLs point at the server itself."""
        with self._lock:
            if self._serving:
                raise RuntimeError("this FakeGitHub is already serving")
            self._serving = True
        server = _Server(self)
        root = server.root_url
        saved_base_url = self.base_url
        self.base_url = root
        thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                                  name=f"fake-github-{server.port}", daemon=True)
        thread.start()
        try:
            yield root + self.api_prefix
        finally:
            server.stopping.set()  # wakes handlers stalled on an injected timeout
            server.shutdown()
            server.close_connections()  # idle keep-alive handlers would otherwise block server_close()
            server.server_close()
            thread.join(timeout=5)
            self.base_url = saved_base_url
            with self._lock:
                self._serving = False

    # -- dispatch -------------------------------------------------------------------------------------
    def _repo(self, full_name: str) -> _Repo:
        repo = self._repos.get(full_name.lower())
        if repo is None:
            raise KeyError(f"unknown repository {full_name!r}")
        return repo

    def _dispatch(self, request: httpx.Request) -> httpx.Response:
        params = dict(request.url.params.multi_items())
        headers = {k.lower(): v for k, v in request.headers.multi_items()}
        rec = RecordedRequest(method=request.method, path=request.url.path, params=params, headers=headers)
        with self._lock:
            self.requests.append(rec)
            n = len(self.requests)
            if self.on_request is not None:
                self.on_request(rec, n)
            fault = self._take_fault(rec)
            if fault is not None and fault.error is not None:
                rec.faulted = True
                raise _TransportFault(fault.error)
            if fault is not None and fault.status is not None:
                response = self._fault_response(rec, fault, n)
            else:
                response = self._serve(rec, n)
                if fault is not None:  # headers/body override on top of the real response
                    response = self._override(response, fault)
            rec.status = response.status_code
            rec.faulted = fault is not None
            return response

    def _take_fault(self, rec: RecordedRequest) -> _Fault | None:
        for fault in self._faults:
            if fault.when is None or fault.when(rec):
                fault.times -= 1
                if fault.times <= 0:
                    self._faults.remove(fault)
                return fault
        return None

    def add_app(self, app_id: str, public_key_pem: str, installations: dict[str, int], *,
                token_ttl: float = 3600.0) -> None:
        """Act as GitHub for one GitHub App: ``GET /repos/{o}/{r}/installation`` and ``POST
        /app/installations/{id}/access_tokens`` want a JWT the App signed (RS256, checked with
        ``public_key_pem``, ``iss`` = ``app_id``, at most 10 minutes long); installation tokens then authenticate
        repository requests, each installation with its own rate-limit bucket, until they expire."""
        with self._lock:
            self._app = (app_id, public_key_pem, {repo.lower(): inst for repo, inst in installations.items()},
                         token_ttl)

    def installation_bucket(self, installation: int) -> dict[str, int]:
        with self._lock:
            return self._installation_buckets.setdefault(installation, _Bucket(self._rate_limit)).as_json()

    def _app_jwt_problem(self, rec: RecordedRequest) -> str | None:
        import jwt  # PyJWT: only the App endpoints need it

        assert self._app is not None
        app_id, public_key, _, _ = self._app
        scheme, _, token = rec.headers.get("authorization", "").strip().partition(" ")
        if scheme.lower() != "bearer" or not token:
            return "A JSON web token could not be decoded"
        try:
            claims = jwt.decode(token.strip(), public_key, algorithms=["RS256"], leeway=60,
                                options={"require": ["exp", "iat", "iss"]})
        except jwt.PyJWTError as err:
            return f"A JSON web token could not be decoded ({type(err).__name__})"
        if str(claims["iss"]) != app_id:
            return "Integration not found"
        if claims["exp"] - claims["iat"] > 600 + 60:
            return "'Expiration time' claim ('exp') is too far in the future"
        return None

    def _app_route(self, rec: RecordedRequest, n: int) -> httpx.Response | None:
        """The App endpoints (None: not one of them)."""
        if self._app is None:
            return None
        path = rec.path[len(self.api_prefix):] if self.api_prefix and rec.path.startswith(self.api_prefix) else rec.path
        parts = path.strip("/").split("/")
        installation: int | None = None
        if rec.method == "GET" and len(parts) == 4 and parts[0] == "repos" and parts[3] == "installation":
            kind = "lookup"
        elif (rec.method == "GET" and len(parts) == 3 and parts[0] == "repositories" and parts[1].isdigit()
              and parts[2] == "installation"):
            kind = "lookup"
            by_id = next((r for r in self._repos.values() if r.id == int(parts[1])), None)
            parts = ["repos", *(by_id.full_name.split("/") if by_id else ("", "")), "installation"]
        elif (rec.method == "POST" and len(parts) == 4 and parts[:2] == ["app", "installations"]
              and parts[2].isdigit() and parts[3] == "access_tokens"):
            kind, installation = "token", int(parts[2])
        else:
            return None
        headers = [("content-type", "application/json; charset=utf-8"), ("x-github-request-id", f"FAKE:{n:08X}")]
        problem = self._app_jwt_problem(rec)
        if problem is not None:
            return httpx.Response(401, headers=headers, content=_dumps({"message": problem,
                                                                         "documentation_url": DOCS_URL}))
        _, _, installations, ttl = self._app
        moved = self._moved_location(rec) if kind == "lookup" else None
        if moved is not None:
            return httpx.Response(301, headers=[*headers, ("location", moved)],
                                  content=_dumps({"message": "Moved Permanently", "url": moved,
                                                  "documentation_url": REDIRECT_DOCS_URL}))
        if kind == "lookup":
            found = installations.get(f"{parts[1]}/{parts[2]}".lower())
            if found is None:
                return httpx.Response(404, headers=headers, content=_dumps({"message": "Not Found",
                                                                             "documentation_url": DOCS_URL}))
            return httpx.Response(200, headers=headers, content=_dumps({"id": found, "app_id": int(self._app[0])}))
        assert installation is not None
        if installation not in installations.values():
            return httpx.Response(404, headers=headers, content=_dumps({"message": "Not Found",
                                                                         "documentation_url": DOCS_URL}))
        token = "ghs_" + hashlib.sha256(f"{installation}:{n}:{self.now()}".encode()).hexdigest()[:36]
        expires = self.now() + ttl
        self._installation_tokens[token] = (installation, expires)
        self.tokens_issued.append((installation, token))
        expires_at = datetime.fromtimestamp(int(expires), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        return httpx.Response(201, headers=headers, content=_dumps({"token": token, "expires_at": expires_at,
                                                                     "permissions": {"issues": "read"}}))

    def _bucket_for(self, rec: RecordedRequest) -> _Bucket | None:
        """The rate-limit bucket for a request, or None for bad credentials."""
        auth = rec.headers.get("authorization")
        if auth is not None and self._installation_tokens:
            credential = auth.strip().partition(" ")[2].strip()
            if credential in self._installation_tokens:
                installation, expires = self._installation_tokens[credential]
                if self.now() >= expires:
                    return None  # GitHub: 401 Bad credentials for an expired installation token
                return self._installation_buckets.setdefault(installation, _Bucket(self._rate_limit))
        if self.token is None:
            return self._authed
        auth = rec.headers.get("authorization")
        if auth is None:
            return self._anon
        scheme, _, credential = auth.strip().partition(" ")
        if scheme.lower() in ("bearer", "token") and credential.strip() == self.token:
            return self._authed
        return None

    def _common_headers(self, rec: RecordedRequest, n: int, bucket: _Bucket) -> list[tuple[str, str]]:
        visibility = "private" if bucket is self._authed else "public"
        return [
            ("content-type", "application/json; charset=utf-8"),
            ("cache-control", f"{visibility}, max-age=60, s-maxage=60"),
            ("vary", "Accept, Authorization, Cookie, X-GitHub-OTP"),
            *bucket.headers(),
            ("x-github-api-version-selected", rec.headers.get("x-github-api-version", DEFAULT_API_VERSION)),
            ("x-github-media-type", "github.v3; format=json"),
            ("x-github-request-id", f"FAKE:{n:08X}"),
        ]

    def _serve(self, rec: RecordedRequest, n: int) -> httpx.Response:
        app_response = self._app_route(rec, n)
        if app_response is not None:
            return app_response
        bucket = self._bucket_for(rec)
        if bucket is None:
            self._anon.roll(self.now())
            body = _dumps({"message": "Bad credentials", "documentation_url": DOCS_URL})
            return httpx.Response(401, headers=self._common_headers(rec, n, self._anon), content=body)
        bucket.roll(self.now())
        route = self._route(rec.path)
        if route is not None and route[0] == "rate_limit" and rec.method in ("GET", "HEAD"):
            core = bucket.as_json()
            body = _dumps({"resources": {"core": core}, "rate": core})  # not counted, as on GitHub
            return httpx.Response(200, headers=self._common_headers(rec, n, bucket), content=body)
        if bucket.remaining <= 0:
            who = "user ID 1." if bucket is self._authed else (
                "127.0.0.1. (But here's the good news: Authenticated requests get a higher rate limit. "
                "Check out the documentation for more details.)")
            body = _dumps({"message": f"API rate limit exceeded for {who}",
                           "documentation_url": RATE_LIMIT_DOCS_URL})
            return httpx.Response(403, headers=self._common_headers(rec, n, bucket), content=body)

        moved = self._moved_location(rec)
        if moved is not None:  # counted, as on GitHub
            bucket.used += 1
            body = _dumps({"message": "Moved Permanently", "url": moved, "documentation_url": REDIRECT_DOCS_URL})
            return httpx.Response(301, headers=[*self._common_headers(rec, n, bucket), ("location", moved)],
                                  content=body)
        status, body, extra = self._route_response(route, rec)
        etag = None
        if status == 200:
            etag = 'W/"' + hashlib.sha256(body).hexdigest() + '"'
            if _etag_matches(rec.headers.get("if-none-match"), etag):
                # 304s are free, as on GitHub for authorised conditional requests.
                return httpx.Response(304, headers=[*self._common_headers(rec, n, bucket), ("etag", etag)])
        bucket.used += 1
        headers = self._common_headers(rec, n, bucket)
        if etag is not None:
            headers.append(("etag", etag))
        headers.extend(extra)
        return httpx.Response(status, headers=headers, content=body)

    def _moved_location(self, rec: RecordedRequest) -> str | None:
        """Where ``/repos/{old}/...`` of a renamed repository redirects to; None for every other request."""
        path = rec.path
        if self.api_prefix:
            if not path.startswith(self.api_prefix + "/"):
                return None
            path = path[len(self.api_prefix):]
        parts = path.strip("/").split("/")
        if len(parts) < 3 or parts[0] != "repos" or f"{parts[1]}/{parts[2]}".lower() in self._repos:
            return None
        repo = self._moved.get(f"{parts[1]}/{parts[2]}".lower())
        if repo is None:
            return None
        rest = "".join(f"/{part}" for part in parts[3:])
        query = f"?{urlencode(list(rec.params.items()))}" if rec.params else ""
        return f"{self.base_url}{self.api_prefix}/repositories/{repo.id}{rest}{query}"

    def _route(self, path: str) -> tuple[str, _Repo | None, int | None] | None:
        """Map a request path to (endpoint, repo, item key); None when nothing matches (-> 404)."""
        if self.api_prefix:
            if not path.startswith(self.api_prefix + "/"):
                return None
            path = path[len(self.api_prefix):]
        parts = path.strip("/").split("/") if path.strip("/") else []
        if parts == ["rate_limit"]:
            return ("rate_limit", None, None)
        if len(parts) >= 3 and parts[0] == "repos":
            repo = self._repos.get(f"{parts[1]}/{parts[2]}".lower())
            rest = parts[3:]
        elif len(parts) >= 2 and parts[0] == "repositories" and parts[1].isdigit():
            repo = next((r for r in self._repos.values() if r.id == int(parts[1])), None)
            rest = parts[2:]
        else:
            return None
        if repo is None:
            return None
        endpoint = {(): "repo", ("issues",): "issues", ("issues", "comments"): "comments"}.get(tuple(rest))
        if endpoint:
            return (endpoint, repo, None)
        if len(rest) == 2 and rest[0] == "issues" and rest[1].isdigit():
            return ("issue", repo, int(rest[1]))
        if len(rest) == 3 and rest[:2] == ["issues", "comments"] and rest[2].isdigit():
            return ("comment", repo, int(rest[2]))
        if len(rest) == 2 and rest[0] == "pulls" and rest[1].isdigit():
            return ("pull", repo, int(rest[1]))
        return None

    def _route_response(
        self, route: tuple[str, _Repo | None, int | None] | None, rec: RecordedRequest
    ) -> tuple[int, bytes, list[tuple[str, str]]]:
        not_found: tuple[int, bytes, list[tuple[str, str]]] = (
            404, _dumps({"message": "Not Found", "documentation_url": DOCS_URL}), []
        )
        if route is None or rec.method not in ("GET", "HEAD"):
            return not_found
        endpoint, repo, key = route
        if repo is None:
            return not_found
        if endpoint == "repo":
            return 200, _dumps(self._repo_object(repo)), []
        if endpoint == "pull" and key is not None:
            pull = repo.pull_object(key)
            return (200, _dumps(pull), []) if pull is not None else not_found
        if endpoint in ("issue", "comment") and key is not None:
            kind = "issues" if endpoint == "issue" else "comments"
            if key not in (repo.issues if kind == "issues" else repo.comments):
                return not_found
            return 200, repo.item_json(kind, key), []
        return self._list(endpoint, repo, rec)

    def _list(self, kind: str, repo: _Repo, rec: RecordedRequest) -> tuple[int, bytes, list[tuple[str, str]]]:
        p = rec.params
        resource = "Issue" if kind == "issues" else "IssueComment"
        if kind == "issues":
            state = p.get("state", "open")
            sort = p.get("sort", "created")
            direction = p.get("direction", "desc")
            allowed = {"state": ("open", "closed", "all"), "sort": ("created", "updated", "comments"),
                       "direction": ("asc", "desc")}
        else:
            state = "all"
            sort = p.get("sort", "created")
            # GitHub documents direction as "ignored without the sort parameter" for this endpoint.
            direction = p.get("direction", "asc") if "sort" in p else "asc"
            allowed = {"sort": ("created", "updated"), "direction": ("asc", "desc")}
        for name, values in allowed.items():
            if name in p and p[name] not in values:
                return _validation_failed(resource, name)
        since = None
        if "since" in p:
            try:
                since = _parse_since(p["since"])
            except ValueError:
                return _validation_failed(resource, "since")
        per_page = _int_param(p.get("per_page"), DEFAULT_PER_PAGE)
        per_page = DEFAULT_PER_PAGE if per_page < 1 else min(per_page, MAX_PER_PAGE)
        page = max(1, _int_param(p.get("page"), 1))

        keys = repo.view(kind, state, sort, direction, since)
        start = (page - 1) * per_page
        chunk = keys[start:start + per_page]
        body = b"[" + b",".join(repo.item_json(kind, k) for k in chunk) + b"]"
        last = max(1, math.ceil(len(keys) / per_page))
        link = self._link(rec, repo, kind, page, last)
        return 200, body, [("link", link)] if link else []

    def _link(self, rec: RecordedRequest, repo: _Repo, kind: str, page: int, last: int) -> str | None:
        """GitHub's Link header: rel order prev, next, last, first; other query params preserved."""
        rels: list[tuple[int, str]] = []
        if page > 1:
            rels.append((page - 1, "prev"))
        if page < last:
            rels += [(page + 1, "next"), (last, "last")]
        if page > 1:
            rels.append((1, "first"))
        if not rels:
            return None
        path = rec.path
        if self.links_use_repository_id:
            tail = "/issues" if kind == "issues" else "/issues/comments"
            path = f"{self.api_prefix}/repositories/{repo.id}{tail}"
        pairs = [(k, v) for k, v in rec.params.items() if k != "page"]
        parts = []
        for target, rel in rels:
            query = urlencode([*pairs, ("page", str(target))])
            parts.append(f'<{self.base_url}{path}?{query}>; rel="{rel}"')
        return ", ".join(parts)

    def _repo_object(self, repo: _Repo) -> dict[str, Any]:
        owner, name = repo.full_name.split("/")
        owner_id = int(hashlib.sha256(owner.encode()).hexdigest()[:6], 16)  # stable across processes
        web = self.base_url
        host = urlsplit(web).netloc
        if not self.api_prefix and host.startswith("api."):
            web = web.replace("://api.", "://", 1)
        obj: dict[str, Any] = {
            "id": repo.id,
            "node_id": f"R_fake{repo.id}",
            "name": name,
            "full_name": repo.full_name,
            "owner": {"login": owner, "id": owner_id, "type": "Organization",
                      "html_url": f"{web}/{owner}"},
            "private": False,
            "visibility": "public",
            "html_url": f"{web}/{repo.full_name}",
            "description": None,
            "fork": False,
            "url": f"{self.base_url}{self.api_prefix}/repos/{repo.full_name}",
            "default_branch": "main",
            "has_issues": True,
            "archived": False,
            "disabled": False,
            "open_issues_count": sum(1 for i in repo.issues.values() if i.get("state", "open") == "open"),
        }
        obj.update(repo.repo_fields)
        return obj

    def _fault_response(self, rec: RecordedRequest, fault: _Fault, n: int) -> httpx.Response:
        status = fault.status or 500
        bucket = self._bucket_for(rec) or self._anon
        bucket.roll(self.now())
        headers = dict(self._common_headers(rec, n, bucket))
        if fault.body is None:
            body = b"" if status in (204, 304) else _dumps(
                {"message": http.HTTPStatus(status).phrase, "documentation_url": DOCS_URL})
        elif isinstance(fault.body, str):
            body = fault.body.encode()
            headers["content-type"] = "text/plain; charset=utf-8"
        else:
            body = _dumps(fault.body)
        headers.update(fault.headers)
        return httpx.Response(status, headers=list(headers.items()), content=body)

    @staticmethod
    def _override(response: httpx.Response, fault: _Fault) -> httpx.Response:
        headers = {k: v for k, v in response.headers.multi_items() if k != "content-length"}
        body = response.content
        if fault.body is not None:
            body = fault.body.encode() if isinstance(fault.body, str) else _dumps(fault.body)
        headers.update(fault.headers)
        return httpx.Response(response.status_code, headers=list(headers.items()), content=body)


def _int_param(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


def _validation_failed(resource: str, field_name: str) -> tuple[int, bytes, list[tuple[str, str]]]:
    body = {
        "message": "Validation Failed",
        "errors": [{"resource": resource, "field": field_name, "code": "invalid"}],
        "documentation_url": DOCS_URL,
    }
    return 422, _dumps(body), []


def _etag_matches(if_none_match: str | None, etag: str) -> bool:
    if not if_none_match:
        return False
    if if_none_match.strip() == "*":
        return True
    bare = etag.removeprefix("W/")
    return any(tag.strip().removeprefix("W/") == bare for tag in if_none_match.split(","))


def _make_error(error: type[Exception], request: httpx.Request) -> Exception:
    message = f"fake GitHub injected {error.__name__}"
    if issubclass(error, httpx.RequestError):
        return error(message, request=request)
    return error(message)


# -- real HTTP server ---------------------------------------------------------------------------------


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128

    def __init__(self, fake: FakeGitHub) -> None:
        self.fake = fake
        self.stopping = threading.Event()
        self._conns: set[socket.socket] = set()
        self._conns_lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), _Handler)

    @property
    def port(self) -> int:
        return int(self.socket.getsockname()[1])

    @property
    def root_url(self) -> str:
        """``http://host:port`` of the bound socket (IPv4, so the host is a str)."""
        host, port = self.socket.getsockname()[:2]
        return f"http://{host}:{port}"

    def track(self, conn: socket.socket, add: bool) -> None:
        with self._conns_lock:
            (self._conns.add if add else self._conns.discard)(conn)

    def close_connections(self) -> None:
        with self._conns_lock:
            conns = list(self._conns)
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)

    def handle_error(self, request: Any, client_address: Any) -> None:
        # Clients hanging up (or our own shutdown) are routine here; keep stderr quiet.
        _log.debug("fake GitHub connection error from %s", client_address, exc_info=True)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: httpx reuses the connection
    disable_nagle_algorithm = True  # headers and body are separate writes; avoid the Nagle/delayed-ACK stall
    server: _Server

    def setup(self) -> None:
        super().setup()
        self.server.track(self.connection, True)

    def finish(self) -> None:
        self.server.track(self.connection, False)
        with contextlib.suppress(OSError):
            super().finish()

    def log_message(self, format: str, *args: Any) -> None:
        _log.debug("fake GitHub: " + format, *args)

    def _handle(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        content = self.rfile.read(length) if length else b""
        headers = [(k, v) for k, v in self.headers.items()
                   if k.lower() not in ("content-length", "transfer-encoding")]
        request = httpx.Request(self.command, f"{self.server.root_url}{self.path}", headers=headers,
                                content=content)
        try:
            response = self.server.fake._dispatch(request)
        except _TransportFault as fault:
            if issubclass(fault.error, httpx.TimeoutException):
                self.server.stopping.wait(self.server.fake.stall_seconds)
            self.close_connection = True  # no response at all: the client sees a dropped connection
            return
        except Exception:
            _log.exception("fake GitHub handler failed")
            response = httpx.Response(500, json={"message": "fake GitHub internal error"})
        status = response.status_code
        self.send_response(status)
        for key, value in response.headers.multi_items():
            if key.lower() not in ("content-length", "transfer-encoding", "connection"):
                self.send_header(key, value)
        body = response.content
        bodyless = status in (204, 304) or status < 200
        if not bodyless:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not bodyless and self.command != "HEAD":
            self.wfile.write(body)

    do_GET = do_HEAD = do_POST = do_PUT = do_PATCH = do_DELETE = _handle
