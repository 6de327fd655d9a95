"""The real client and Syncer against replays of what api.github.com sends (tests/data/github_replay/).

Each fixture is a short, strict script of exchanges: the request the sync must make next (method, URL with its
query compared as parameters, the headers that matter, such as ``If-None-Match``) and GitHub's answer as
recorded in octokit/fixtures and PyGithub's replay data (each file's ``about`` says which, and what was
trimmed): ``Link`` URLs under ``/repositories/{id}``, weak ETags, rate-limit headers as strings, a 301 with
``Location``. A request out of script fails the test; so does a script not played to its end. No network.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from bot.errors import PageGone
from bot.github.client import GitHubClient
from bot.github.sync import Syncer, SyncReport
from bot.store import schema
from bot.store.store import Store

REPLAYS = Path(__file__).parent / "data" / "github_replay"
TOKEN = "0000000000000000000000000000000000000001"


class Replay:
    """``httpx.MockTransport`` handler playing one fixture's exchanges in order."""

    def __init__(self, name: str) -> None:
        data = json.loads((REPLAYS / f"{name}.json").read_text())
        self.common: dict[str, Any] = data["common_headers"]
        self.syncs: list[list[dict[str, Any]]] = [sync["exchanges"] for sync in data["syncs"]]
        self.sync = 0
        self.played = 0
        self.requests: list[httpx.Request] = []

    def next_sync(self) -> None:
        assert self.played == len(self.syncs[self.sync]), f"sync {self.sync + 1} ended before its script did"
        self.sync, self.played = self.sync + 1, 0

    def done(self) -> None:
        assert (self.sync, self.played) == (len(self.syncs) - 1, len(self.syncs[-1])), "the script was not played"

    def handler(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        script = self.syncs[self.sync]
        assert self.played < len(script), f"sync {self.sync + 1}: unexpected {request.method} {request.url}"
        exchange = script[self.played]
        self.played += 1
        want = exchange["request"]
        expected = httpx.URL(want["url"])
        where = f"sync {self.sync + 1}, exchange {self.played}"
        assert request.method == want["method"], where
        assert (request.url.scheme, request.url.host, request.url.path) == (
            expected.scheme, expected.host, expected.path), f"{where}: asked {request.url}, not {expected}"
        assert sorted(request.url.params.multi_items()) == sorted(expected.params.multi_items()), where
        for name, value in want["headers"].items():
            assert request.headers.get(name) == value, f"{where}: {name} is {request.headers.get(name)!r}"
        answer = exchange["response"]
        # Every header value as the string HTTP carries (octokit's normalized fixtures keep some as numbers).
        headers = [(name, str(value)) for name, value in {**self.common, **answer["headers"]}.items()]
        body = json.dumps(answer["body"]).encode() if "body" in answer else b""
        return httpx.Response(answer["status"], headers=headers, content=body)


async def sync_once(store: Store, replay: Replay, repo: str, now: datetime, *, since: datetime | None = None,
                    pr_details_max: int = 5) -> SyncReport:
    async with GitHubClient(token=TOKEN, transport=httpx.MockTransport(replay.handler), max_retries=0) as client:
        syncer = Syncer(store, client, lookback=timedelta(days=30), clock=lambda: now, pr_details_max=pr_details_max)
        return await syncer.sync(repo, since=since)


async def test_a_renamed_repository_replayed(store: Store, caplog: pytest.LogCaptureFixture) -> None:
    """octokit/fixtures' rename-repository 301 and paginate-issues Link headers, synced twice."""
    replay, repo = Replay("rename_repository"), "octokit-fixture-org/rename-repository"
    now = datetime(2017, 10, 10, 16, tzinfo=UTC)
    since = now - timedelta(days=30)  # both syncs ask the same URLs: the second one's ETags are the first's
    caplog.set_level(logging.WARNING, logger="bot.github.sync")

    first = await sync_once(store, replay, repo, now, since=since)
    assert (first.items, first.comments, first.requests, first.detail_requests) == (3, 1, 7, 2)
    assert first.moved_to == "octokit-fixture-org/rename-repository-newname"
    assert first.line() == (
        "octokit-fixture-org/rename-repository: 3 items, 1 comments, 7 requests (of which 2 for PR details),"
        " rate limit left 4873/5000; octokit-fixture-org/rename-repository moved to"
        " octokit-fixture-org/rename-repository-newname: update digest.toml")
    issue, pull, late = (store.item(repo, n) for n in (1, 2, 3))
    assert issue is not None and (issue.kind, issue.comment_count) == ("issue", 1)
    assert pull is not None and pull.kind == "pr" and pull.merged_at == datetime(2017, 10, 10, 9, tzinfo=UTC)
    assert (pull.additions, pull.deletions, pull.changed_files, pull.review_comments) == (12, 3, 2, 1)
    assert pull.url == "https://github.com/octokit-fixture-org/rename-repository-newname/pull/2"
    assert late is not None and late.title == "Test issue 3"  # page 2, from the Link under /repositories/1000
    assert store.counts(repo) == (3, 1)
    with store.engine.connect() as conn:
        cached = dict(conn.execute(select(schema.http_cache.c.url, schema.http_cache.c.etag)).all())
    assert sorted(etag[:3] for etag in cached.values()) == ['W/"'] * 4  # kept verbatim, weak
    assert any(url.startswith("https://api.github.com/repos/octokit-fixture-org/rename-repository/issues?")
               for url in cached)  # under the URL asked, the one the next sync asks again

    replay.next_sync()
    again = await sync_once(store, replay, repo, now, since=since)
    replay.done()
    assert (again.items, again.comments, again.not_modified, again.requests) == (0, 0, 3, 6)
    assert again.moved_to == "octokit-fixture-org/rename-repository-newname"
    assert (again.rate_remaining, again.rate_limit) == (4870, 5000)  # "4870", "5000" on the wire
    assert store.counts(repo) == (3, 1)
    assert [r.getMessage() for r in caplog.records] == [
        "octokit-fixture-org/rename-repository moved to octokit-fixture-org/rename-repository-newname:"
        " update digest.toml"] * 2  # once per sync
    assert {r.headers["authorization"] for r in replay.requests} == {f"Bearer {TOKEN}"}  # one host throughout


async def test_legacy_issue_markers_replayed(store: Store) -> None:
    """PyGithub's 2012 recordings: issues whose pull_request names nothing are issues; no GET /pulls/N for them."""
    replay, repo = Replay("legacy_issue_markers"), "openframeworks/openFrameworks"
    report = await sync_once(store, replay, repo, datetime(2012, 5, 29, 6, 43, 34, tzinfo=UTC))
    replay.done()  # the replay refused any other request: /pulls/1280, /pulls/1279 and /pulls/1271 were not asked
    kinds = {n: item.kind for n in (1260, 1262, 1271, 1279, 1280) if (item := store.item(repo, n)) is not None}
    assert kinds == {1260: "pr", 1262: "pr", 1271: "issue", 1279: "issue", 1280: "issue"}
    assert (report.detail_candidates, report.detail_requests, report.details_failed) == (2, 2, 0)
    pull = store.item(repo, 1262)
    assert pull is not None and (pull.additions, pull.changed_files) == (96, 1)
    assert (report.rate_remaining, report.rate_limit) == (4979, 5000)


async def test_a_page_gone_mid_listing_replayed(store: Store) -> None:
    """Page 2, linked under /repositories/{id} a moment before, answers 404: say so; the next run reads it."""
    replay, repo = Replay("page_gone"), "octokit-fixture-org/tmp-scenario-paginate-issues"
    now = datetime(2021, 5, 5, 4, 36, tzinfo=UTC)
    with pytest.raises(PageGone) as err:
        await sync_once(store, replay, repo, now)
    assert "which GitHub listed a moment ago, is gone" in str(err.value)
    assert str(err.value).endswith("): run the sync again") and "GITHUB_API_URL" not in str(err.value)
    assert store.counts(repo) == (2, 0) and store.cursor(repo, "issues") is None  # page 1 kept, cursor not moved

    replay.next_sync()
    report = await sync_once(store, replay, repo, now)
    replay.done()
    assert report.items == 3 and store.counts(repo) == (3, 0)
    assert store.cursor(repo, "issues") == datetime(2021, 5, 5, 4, 35, 9, tzinfo=UTC)
