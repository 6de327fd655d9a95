"""Tests for bot.demo.fake_github, always through real httpx clients (MockTransport and the server thread)."""

from __future__ import annotations

import contextlib
import functools
import re
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from bot.demo.fake_github import FakeGitHub, RecordedRequest

REPO = "octo/demo"
EPOCH = datetime(2024, 1, 1, tzinfo=UTC)
NOT_FOUND = {"message": "Not Found", "documentation_url": "https://docs.github.com/rest"}

# number -> (created minute, updated minute, state, comment count, is PR)
SMALL = {
    1: (10, 70, "open", 2, False),
    2: (20, 20, "closed", 0, False),
    3: (30, 50, "open", 5, True),
    4: (40, 50, "open", 2, False),
    5: (50, 55, "closed", 1, False),
    6: (60, 90, "open", 0, True),
    7: (70, 75, "open", 3, False),
}


@functools.cache  # the 120k-item dataset reuses a few thousand distinct stamps
def ts(minutes: int) -> str:
    return (EPOCH + timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%SZ")


def make_issue(number: int, created: int, updated: int, state: str = "open", comments: int = 0,
               pr: bool = False, repo: str = REPO) -> dict[str, Any]:
    issue: dict[str, Any] = {
        "id": 500_000 + number,
        "number": number,
        "title": f"Item {number}",
        "state": state,
        "comments": comments,
        "created_at": ts(created),
        "updated_at": ts(updated),
        "html_url": f"https://github.com/{repo}/issues/{number}",
        "user": {"login": "octocat"},
    }
    if pr:
        issue["pull_request"] = {"url": f"https://api.github.com/repos/{repo}/pulls/{number}"}
    return issue


def make_comment(cid: int, number: int, created: int, updated: int | None = None,
                 repo: str = REPO) -> dict[str, Any]:
    return {
        "id": cid,
        "body": f"comment {cid}",
        "issue_url": f"https://api.github.com/repos/{repo}/issues/{number}",
        "created_at": ts(created),
        "updated_at": ts(created if updated is None else updated),
        "user": {"login": "hubot"},
    }


def small_fake(**kwargs: Any) -> FakeGitHub:
    fake = FakeGitHub(**kwargs)
    issues = [make_issue(n, c, u, s, k, pr) for n, (c, u, s, k, pr) in SMALL.items()]
    # Comment 104 is edited late, so created and updated order differ.
    comments = [make_comment(100 + i, 1 + i % 7, created=i * 5) for i in range(1, 11)]
    comments[3]["updated_at"] = ts(500)
    fake.add_repo(REPO, issues, comments)
    return fake


@contextlib.contextmanager
def open_client(fake: FakeGitHub, mode: str, **kwargs: Any) -> Iterator[httpx.Client]:
    if mode == "mock":
        base = fake.base_url + fake.api_prefix
        with httpx.Client(base_url=base, transport=httpx.MockTransport(fake.handler), **kwargs) as client:
            yield client
    else:
        # The client closes before the server (reverse order of the with-items).
        with fake.serve() as base, httpx.Client(base_url=base, **kwargs) as client:
            yield client


@pytest.fixture(params=["mock", "server"])
def mode(request: pytest.FixtureRequest) -> str:
    return request.param


def fetch_all(client: httpx.Client, path: str, params: dict[str, Any]) -> tuple[list[dict[str, Any]],
                                                                               list[httpx.Response]]:
    """Follow rel="next" Link URLs like a real client does."""
    responses = [client.get(path, params=params)]
    while "next" in responses[-1].links:
        responses.append(client.get(responses[-1].links["next"]["url"]))
    items = [item for r in responses for item in r.json()]
    assert all(r.status_code == 200 for r in responses)
    return items, responses


def numbers(response: httpx.Response) -> list[int]:
    return [i["number"] for i in response.json()]


# -- listing, pagination, filters --------------------------------------------------------------------


def test_link_header_format_across_pages(mode: str) -> None:
    fake = small_fake()
    with open_client(fake, mode) as client:
        root = str(client.base_url).rstrip("/")
        url = f"{root}/repos/{REPO}/issues"
        params = {"state": "all", "sort": "created", "direction": "asc", "per_page": "3"}
        first = client.get(f"/repos/{REPO}/issues", params=params)
        assert numbers(first) == [1, 2, 3]
        q = "state=all&sort=created&direction=asc&per_page=3"
        assert first.headers["link"] == f'<{url}?{q}&page=2>; rel="next", <{url}?{q}&page=3>; rel="last"'

        middle = client.get(f"/repos/{REPO}/issues", params={**params, "page": "2"})
        assert numbers(middle) == [4, 5, 6]
        assert middle.headers["link"] == (
            f'<{url}?{q}&page=1>; rel="prev", <{url}?{q}&page=3>; rel="next", '
            f'<{url}?{q}&page=3>; rel="last", <{url}?{q}&page=1>; rel="first"'
        )
        last = client.get(middle.links["next"]["url"])
        assert numbers(last) == [7]
        assert last.headers["link"] == f'<{url}?{q}&page=2>; rel="prev", <{url}?{q}&page=1>; rel="first"'

        # page keeps its position in the query when the caller put it first
        reordered = client.get(f"{url}?page=1&per_page=3&state=all")
        assert reordered.links["next"]["url"] == f"{url}?per_page=3&state=all&page=2"

        single = client.get(f"/repos/{REPO}/issues", params={"state": "all"})
        assert len(single.json()) == 7
        assert "link" not in single.headers

        beyond = client.get(f"/repos/{REPO}/issues", params={**params, "page": "9"})
        assert beyond.json() == []
        assert set(beyond.links) == {"prev", "first"}


def test_following_links_visits_everything_once(mode: str) -> None:
    fake = small_fake()
    with open_client(fake, mode) as client:
        items, responses = fetch_all(client, f"/repos/{REPO}/issues", {"state": "all", "per_page": 2})
        assert [i["number"] for i in items] == [7, 6, 5, 4, 3, 2, 1]  # default: created desc
        assert len(responses) == 4
        comments, _ = fetch_all(client, f"/repos/{REPO}/issues/comments", {"per_page": 3})
        assert [c["id"] for c in comments] == list(range(101, 111))


def test_since_state_sort_and_direction(mode: str) -> None:
    fake = small_fake()
    with open_client(fake, mode) as client:
        path = f"/repos/{REPO}/issues"
        assert numbers(client.get(path)) == [7, 6, 4, 3, 1]  # open only, PRs included, created desc
        assert numbers(client.get(path, params={"state": "closed"})) == [5, 2]
        # since is inclusive (updated_at >= since); ties on updated_at break by number
        recent = {"state": "all", "since": ts(50), "sort": "updated"}
        got = client.get(path, params={**recent, "direction": "asc"})
        assert numbers(got) == [3, 4, 5, 1, 7, 6]
        got = client.get(path, params=recent)
        assert numbers(got) == [6, 7, 1, 5, 4, 3]
        # since on a non-updated sort filters without reordering; other ISO 8601 spellings are accepted
        since = (EPOCH + timedelta(minutes=70)).astimezone().isoformat()
        got = client.get(path, params={"since": since, "sort": "created", "direction": "asc"})
        assert numbers(got) == [1, 6, 7]
        # fractional seconds: 00:50:00.5 excludes items updated at exactly 00:50:00
        got = client.get(path, params={"state": "all", "since": "2024-01-01T00:50:00.5Z"})
        assert sorted(numbers(got)) == [1, 5, 6, 7]
        got = client.get(path, params={"state": "all", "sort": "comments"})
        assert numbers(got) == [3, 7, 4, 1, 5, 6, 2]  # comments desc, ties by number desc

        cpath = f"/repos/{REPO}/issues/comments"
        ids = [c["id"] for c in client.get(cpath, params={"since": ts(40)}).json()]
        assert ids == [104, 108, 109, 110]  # created asc; 104 qualifies by its late edit
        ids = [c["id"] for c in client.get(cpath, params={"sort": "updated", "direction": "desc"}).json()]
        assert ids[:3] == [104, 110, 109]
        # as documented by GitHub: direction is ignored without sort
        ids = [c["id"] for c in client.get(cpath, params={"direction": "desc"}).json()]
        assert ids == list(range(101, 111))


def test_per_page_default_and_cap(mode: str) -> None:
    fake = FakeGitHub()
    fake.add_repo(REPO, [make_issue(n, n, n) for n in range(1, 251)], [])
    with open_client(fake, mode) as client:
        default = client.get(f"/repos/{REPO}/issues")
        assert len(default.json()) == 30
        assert "page=9" in default.links["last"]["url"]
        capped = client.get(f"/repos/{REPO}/issues", params={"per_page": 500})
        assert len(capped.json()) == 100
        assert capped.links["last"]["url"].endswith("per_page=500&page=3")  # query kept as sent
        items, responses = fetch_all(client, f"/repos/{REPO}/issues", {"per_page": 500})
        assert len(items) == 250
        assert len(responses) == 3


def test_bad_input_and_unknown_routes(mode: str) -> None:
    fake = small_fake()
    with open_client(fake, mode) as client:
        for path in ("/repos/octo/missing/issues", f"/repos/{REPO}/pulls", "/nope", "/repos/octo"):
            response = client.get(path)
            assert response.status_code == 404, path
            assert response.json() == NOT_FOUND
        bad = client.get(f"/repos/{REPO}/issues", params={"since": "yesterday"})
        assert bad.status_code == 422
        assert bad.json()["message"] == "Validation Failed"
        assert bad.json()["errors"][0]["field"] == "since"
        assert client.get(f"/repos/{REPO}/issues/comments", params={"since": "2024-13-45"}).status_code == 422
        assert client.get(f"/repos/{REPO}/issues", params={"state": "merged"}).status_code == 422
        assert client.post(f"/repos/{REPO}/issues", json={}).status_code == 404
        # owner/name are case-insensitive on GitHub
        repo = client.get("/repos/OCTO/Demo").json()
        assert repo["full_name"] == REPO
        assert repo["private"] is False
        assert repo["default_branch"] == "main"
        assert repo["open_issues_count"] == 5


def test_single_issue_and_comment(mode: str) -> None:
    fake = small_fake()
    with open_client(fake, mode) as client:
        issue = client.get(f"/repos/{REPO}/issues/3")
        assert issue.status_code == 200 and issue.json()["number"] == 3 and "pull_request" in issue.json()
        comment = client.get(f"/repos/{REPO}/issues/comments/104")
        assert comment.status_code == 200 and comment.json()["id"] == 104
        for path in (f"/repos/{REPO}/issues/99", f"/repos/{REPO}/issues/comments/999", f"/repos/{REPO}/issues/x"):
            assert client.get(path).status_code == 404, path
        etag = issue.headers["etag"]
        assert client.get(f"/repos/{REPO}/issues/3", headers={"If-None-Match": etag}).status_code == 304


def test_damaged_item_is_served_in_its_place_until_repaired(mode: str) -> None:
    fake = small_fake()
    fake.damage(REPO, "issues", 4, {"number": "four"})
    fake.damage(REPO, "comments", 104, None)
    with open_client(fake, mode) as client:
        params = {"state": "all", "sort": "updated", "direction": "asc"}
        listed = client.get(f"/repos/{REPO}/issues", params=params).json()
        assert [i.get("number") for i in listed] == [2, 3, "four", 5, 1, 7, 6]  # still ordered by its fields
        assert client.get(f"/repos/{REPO}/issues/4").json() == {"number": "four"}
        assert client.get(f"/repos/{REPO}/issues/comments/104").json() is None
        fake.repair(REPO, "issues", 4)
        assert client.get(f"/repos/{REPO}/issues/4").json()["number"] == 4
    with pytest.raises(KeyError):
        fake.damage(REPO, "issues", 99, {})


def test_response_headers(mode: str) -> None:
    fake = small_fake()
    with open_client(fake, mode) as client:
        response = client.get(f"/repos/{REPO}/issues", headers={"X-GitHub-Api-Version": "2026-03-10"})
        assert response.headers["content-type"] == "application/json; charset=utf-8"
        assert re.fullmatch(r'W/"[0-9a-f]{64}"', response.headers["etag"])
        assert response.headers["x-github-api-version-selected"] == "2026-03-10"
        assert response.headers["x-ratelimit-resource"] == "core"
        assert int(response.headers["content-length"]) == len(response.content)
        # the etag is a function of the body only
        assert client.get(f"/repos/{REPO}/issues").headers["etag"] == response.headers["etag"]


def test_repository_id_links_are_followable(mode: str) -> None:
    fake = small_fake()
    fake.links_use_repository_id = True
    with open_client(fake, mode) as client:
        items, responses = fetch_all(client, f"/repos/{REPO}/issues", {"state": "all", "per_page": 3})
        assert len(items) == 7
        assert "/repositories/" in str(responses[1].url)


def test_a_renamed_repository_answers_301_at_its_old_name(mode: str) -> None:
    """The shape of octokit/fixtures' rename-repository scenario: 301, Location under /repositories/{id}."""
    fake = small_fake(api_prefix="/api/v3")
    fake.rename(REPO, "octo/renamed")
    with open_client(fake, mode) as client:
        root = str(client.base_url).rstrip("/")
        old = client.get(f"{root}/repos/{REPO}/issues", params={"state": "all", "per_page": 3})
        assert old.status_code == 301
        location = old.headers["location"]
        assert location == f"{root}/repositories/1000001/issues?state=all&per_page=3"
        assert old.json() == {"message": "Moved Permanently", "url": location,
                              "documentation_url": "https://docs.github.com/v3/#http-redirects"}
        assert old.headers["x-ratelimit-used"] == "1"  # counted, as on GitHub
        moved = client.get(location)
        assert moved.status_code == 200 and "/repositories/1000001/issues?" in moved.links["next"]["url"]
        assert moved.json()[0]["html_url"].startswith("https://github.com/octo/renamed/issues/")
        assert client.get(f"{root}/repos/octo/renamed").json()["full_name"] == "octo/renamed"
        assert client.get(f"{root}/repos/{REPO}").headers["location"] == f"{root}/repositories/1000001"
        fake.add_repo(REPO, [], [])  # a new repository under the old name: no redirect any more
        assert client.get(f"{root}/repos/{REPO}/issues").json() == []


def test_a_legacy_pull_request_marker_is_an_issue(mode: str) -> None:
    fake = small_fake()
    fake.update_issue(REPO, 2, pull_request={"html_url": None, "diff_url": None, "patch_url": None})
    with open_client(fake, mode) as client:
        assert client.get(f"/repos/{REPO}/pulls/2").status_code == 404  # as on GitHub for such an issue
        assert client.get(f"/repos/{REPO}/pulls/3").status_code == 200


def test_ghe_prefix(mode: str) -> None:
    fake = small_fake(api_prefix="/api/v3", base_url="https://ghe.example.com")
    with open_client(fake, mode) as client:
        root = str(client.base_url).rstrip("/")
        assert root.endswith("/api/v3")
        if mode == "mock":
            assert root == "https://ghe.example.com/api/v3"
        response = client.get(f"{root}/repos/{REPO}/issues", params={"per_page": 2})
        assert response.status_code == 200
        assert response.links["next"]["url"] == f"{root}/repos/{REPO}/issues?per_page=2&page=2"
        items, _ = fetch_all(client, f"{root}/repos/{REPO}/issues", {"per_page": 2})
        assert len(items) == 5
        assert client.get(f"{root}/rate_limit").status_code == 200
        unprefixed = str(client.base_url.copy_with(path=f"/repos/{REPO}/issues"))
        assert client.get(unprefixed).status_code == 404
    assert fake.base_url == "https://ghe.example.com"  # restored after serve()


# -- conditional requests, rate limit, auth -----------------------------------------------------------


def test_if_none_match_gives_free_304(mode: str) -> None:
    fake = small_fake(rate_limit=100)
    with open_client(fake, mode) as client:
        path = f"/repos/{REPO}/issues"
        first = client.get(path)
        etag = first.headers["etag"]
        assert first.headers["x-ratelimit-remaining"] == "99"
        cached = client.get(path, headers={"If-None-Match": etag})
        assert cached.status_code == 304
        assert cached.content == b""
        assert cached.headers["etag"] == etag
        assert cached.headers["x-ratelimit-remaining"] == "99"
        assert client.get(path, headers={"If-None-Match": 'W/"other", ' + etag}).status_code == 304

        fake.update_issue(REPO, 7, title="renamed")
        changed = client.get(path, headers={"If-None-Match": etag})
        assert changed.status_code == 200
        assert changed.headers["etag"] != etag
        assert changed.headers["x-ratelimit-remaining"] == "98"
        assert [r.status for r in fake.requests] == [200, 304, 304, 200]


def test_rate_limit_counting_exhaustion_and_reset(mode: str) -> None:
    clock = [1_700_000_000.0]
    fake = small_fake(rate_limit=3, now=lambda: clock[0])
    with open_client(fake, mode) as client:
        path = f"/repos/{REPO}/issues"
        seen = []
        for _ in range(3):
            response = client.get(path)
            assert response.status_code == 200
            seen.append((response.headers["x-ratelimit-remaining"], response.headers["x-ratelimit-used"]))
        assert seen == [("2", "1"), ("1", "2"), ("0", "3")]
        assert response.headers["x-ratelimit-limit"] == "3"
        assert response.headers["x-ratelimit-reset"] == str(1_700_000_000 + 3600)

        limited = client.get(path)
        assert limited.status_code == 403
        assert limited.headers["x-ratelimit-remaining"] == "0"
        assert limited.json()["message"].startswith("API rate limit exceeded for ")
        # /rate_limit still answers and is not counted
        core = client.get("/rate_limit").json()["resources"]["core"]
        assert core == {"limit": 3, "used": 3, "remaining": 0, "reset": 1_700_003_600}

        clock[0] += 3600  # the window ends at x-ratelimit-reset
        fresh = client.get(path)
        assert fresh.status_code == 200
        assert fresh.headers["x-ratelimit-remaining"] == "2"
        assert fresh.headers["x-ratelimit-reset"] == str(1_700_003_600 + 3600)

        client.get(path)
        fake.reset_rate_limit()
        assert client.get(path).headers["x-ratelimit-remaining"] == "2"


def test_auth_buckets_and_bad_credentials(mode: str) -> None:
    fake = small_fake(token="s3cret", rate_limit=1000)
    with open_client(fake, mode) as client:
        path = f"/repos/{REPO}"
        bearer = client.get(path, headers={"Authorization": "Bearer s3cret"})
        assert (bearer.headers["x-ratelimit-limit"], bearer.headers["x-ratelimit-used"]) == ("1000", "1")
        legacy = client.get(path, headers={"Authorization": "token s3cret"})
        assert (legacy.headers["x-ratelimit-limit"], legacy.headers["x-ratelimit-used"]) == ("1000", "2")
        anonymous = client.get(path)
        assert (anonymous.headers["x-ratelimit-limit"], anonymous.headers["x-ratelimit-used"]) == ("60", "1")
        bad = client.get(path, headers={"Authorization": "Bearer nope"})
        assert bad.status_code == 401
        assert bad.json()["message"] == "Bad credentials"
        # neither the 401 nor anything else touched the authenticated counter
        core = client.get("/rate_limit", headers={"Authorization": "Bearer s3cret"}).json()["rate"]
        assert core["used"] == 2


def test_unauthenticated_limit_is_60() -> None:
    fake = small_fake(token="s3cret")
    with open_client(fake, "mock") as client:
        statuses = [client.get(f"/repos/{REPO}").status_code for _ in range(61)]
        assert statuses == [200] * 60 + [403]
        message = client.get(f"/repos/{REPO}").json()["message"]
        assert "Authenticated requests get a higher rate limit" in message
        authed = client.get(f"/repos/{REPO}", headers={"Authorization": "Bearer s3cret"})
        assert authed.status_code == 200


# -- faults -------------------------------------------------------------------------------------------


def test_injected_statuses_and_headers(mode: str) -> None:
    fake = small_fake(rate_limit=50)
    with open_client(fake, mode) as client:
        path = f"/repos/{REPO}/issues"
        fake.inject(502)
        fake.inject(429, headers={"Retry-After": "3"})
        fake.inject(403, body={"message": "You have exceeded a secondary rate limit."},
                    headers={"retry-after": "60"})
        first = client.get(path)
        assert first.status_code == 502
        assert first.json()["message"] == "Bad Gateway"
        second = client.get(path)
        assert (second.status_code, second.headers["retry-after"]) == (429, "3")
        third = client.get(path)
        assert third.status_code == 403
        assert third.headers["retry-after"] == "60"
        assert "secondary rate limit" in third.json()["message"]
        assert third.headers["x-ratelimit-remaining"] == "50"  # faults are free
        ok = client.get(path)
        assert ok.status_code == 200
        assert ok.headers["x-ratelimit-remaining"] == "49"

        # times + when: only comment listings fail, twice
        fake.inject(500, times=2, when=lambda r: r.path.endswith("/comments"))
        assert client.get(path).status_code == 200
        assert [client.get(f"{path}/comments").status_code for _ in range(3)] == [500, 500, 200]

        # headers/body-only injection decorates the real response; a str body is sent verbatim
        fake.inject(headers={"x-ratelimit-remaining": "1"})
        decorated = client.get(path)
        assert (decorated.status_code, decorated.headers["x-ratelimit-remaining"]) == (200, "1")
        assert len(decorated.json()) == 5
        fake.inject(503, body="<html>unicorn</html>")
        assert client.get(path).text == "<html>unicorn</html>"

        faulted = [r.faulted for r in fake.requests]
        assert faulted == [True, True, True, False, False, True, True, False, True, True]
        assert fake.requests[0].status == 502


@pytest.mark.parametrize("error", [httpx.ReadTimeout, httpx.ConnectError, httpx.RemoteProtocolError])
def test_injected_errors_in_mock_mode(error: type[httpx.RequestError]) -> None:
    fake = small_fake()
    fake.inject(error=error)
    with open_client(fake, "mock") as client:
        with pytest.raises(error) as caught:
            client.get(f"/repos/{REPO}/issues")
        assert caught.value.request.url.path == f"/repos/{REPO}/issues"
        assert client.get(f"/repos/{REPO}/issues").status_code == 200
    assert fake.requests[0].faulted
    assert fake.requests[0].status is None


@pytest.mark.parametrize("error", [httpx.ConnectError, httpx.RemoteProtocolError])
def test_injected_disconnect_in_server_mode(error: type[httpx.RequestError]) -> None:
    fake = small_fake(rate_limit=10)
    with open_client(fake, "server") as client:
        assert client.get(f"/repos/{REPO}").status_code == 200  # a pooled connection exists now
        fake.inject(error=error)
        with pytest.raises(httpx.RemoteProtocolError):  # a dropped connection, whatever was injected
            client.get(f"/repos/{REPO}/issues")
        recovered = client.get(f"/repos/{REPO}/issues")
        assert recovered.status_code == 200
        assert recovered.headers["x-ratelimit-used"] == "2"


def test_injected_timeout_in_server_mode() -> None:
    fake = small_fake(stall_seconds=30)  # longer than the test: serve() exit must cut the stall short
    with open_client(fake, "server", timeout=httpx.Timeout(5.0, read=0.2)) as client:
        fake.inject(error=httpx.ReadTimeout)
        with pytest.raises(httpx.ReadTimeout):
            client.get(f"/repos/{REPO}/issues")
        assert client.get(f"/repos/{REPO}/issues").status_code == 200


async def test_async_client_with_mock_transport() -> None:
    fake = small_fake()
    fake.inject(error=httpx.ConnectError)
    transport = httpx.MockTransport(fake.handler)
    async with httpx.AsyncClient(base_url="https://api.github.com", transport=transport) as client:
        with pytest.raises(httpx.ConnectError):
            await client.get(f"/repos/{REPO}/issues")
        response = await client.get(f"/repos/{REPO}/issues", params={"per_page": 2})
        assert response.status_code == 200
        assert len(response.json()) == 2


# -- recording and mutation ---------------------------------------------------------------------------


def test_requests_are_recorded(mode: str) -> None:
    fake = small_fake()
    with open_client(fake, mode) as client:
        client.get(f"/repos/{REPO}/issues", params={"state": "all", "page": "2", "per_page": "3"},
                   headers={"X-GitHub-Api-Version": "2022-11-28"})
        client.get("/repos/octo/missing")
    first, second = fake.requests
    assert isinstance(first, RecordedRequest)
    assert (first.method, first.path, first.status) == ("GET", f"/repos/{REPO}/issues", 200)
    assert first.params == {"state": "all", "page": "2", "per_page": "3"}
    assert first.headers["x-github-api-version"] == "2022-11-28"
    assert all(key == key.lower() for key in first.headers)
    assert (second.path, second.status, second.faulted) == ("/repos/octo/missing", 404, False)


def test_on_request_mutation_mid_pagination(mode: str) -> None:
    """Like real GitHub: an item updated while a client pages by updated_at moves to the end, so the
    client sees it twice and the item that slid onto the already-read page is skipped."""
    fake = small_fake()
    calls: list[int] = []

    def bump(rec: RecordedRequest, n: int) -> None:
        calls.append(n)
        assert rec is fake.requests[n - 1]
        if n == 2:
            fake.update_issue(REPO, 2, updated_at=ts(1000))

    fake.on_request = bump
    with open_client(fake, mode) as client:
        params = {"state": "all", "sort": "updated", "direction": "asc", "per_page": 3}
        items, _ = fetch_all(client, f"/repos/{REPO}/issues", params)
    # before: 2(20) 3(50) 4(50) | 5(55) 1(70) 7(75) | 6(90)
    assert [i["number"] for i in items] == [2, 3, 4, 1, 7, 6, 2]
    assert items[-1]["updated_at"] == ts(1000)
    assert calls == [1, 2, 3]


def test_add_issue_and_add_comment_keep_counts_consistent(mode: str) -> None:
    fake = small_fake()
    fake.add_issue(REPO, make_issue(8, 100, 100))
    fake.add_comment(REPO, make_comment(200, 8, created=120))
    fake.add_comment(REPO, make_comment(200, 8, created=120, updated=130))  # an edit: count unchanged
    fake.add_comment(REPO, make_comment(201, 6, created=80), touch=False)
    fake.add_comment(REPO, make_comment(202, 1, created=60))  # older than the issue's updated_at
    with open_client(fake, mode) as client:
        by_number = {i["number"]: i for i in client.get(f"/repos/{REPO}/issues").json()}
        assert (by_number[8]["comments"], by_number[8]["updated_at"]) == (1, ts(130))
        assert (by_number[6]["comments"], by_number[6]["updated_at"]) == (0, ts(90))
        assert (by_number[1]["comments"], by_number[1]["updated_at"]) == (3, ts(70))
        ids = [c["id"] for c in client.get(f"/repos/{REPO}/issues/comments", params={"since": ts(60)}).json()]
        assert ids == [104, 202, 201, 200]  # created asc
    with pytest.raises(KeyError):
        fake.update_issue(REPO, 999, title="x")
    with pytest.raises(KeyError):
        fake.add_issue("octo/missing", make_issue(1, 1, 1))


def test_caller_dicts_are_not_mutated() -> None:
    issue = make_issue(1, 1, 1)
    fake = FakeGitHub()
    fake.add_repo(REPO, [issue], [])
    fake.update_issue(REPO, 1, title="changed")
    assert issue["title"] == "Item 1"


# -- real server specifics ----------------------------------------------------------------------------


def test_server_keeps_connections_alive() -> None:
    fake = small_fake()
    with open_client(fake, "server") as client:
        peers = set()
        for _ in range(3):
            response = client.get(f"/repos/{REPO}/issues")
            peers.add(response.extensions["network_stream"].get_extra_info("client_addr"))
        assert len(peers) == 1


def test_server_concurrent_clients_are_consistent() -> None:
    fake = small_fake(rate_limit=1000)
    statuses: list[int] = []
    lock = threading.Lock()
    with fake.serve() as base:

        def worker() -> None:
            with httpx.Client(base_url=base) as client:
                for page in range(1, 26):
                    response = client.get(f"/repos/{REPO}/issues", params={"per_page": 1, "page": page})
                    with lock:
                        statuses.append(response.status_code)

        threads = [threading.Thread(target=worker) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        used = httpx.get(f"{base}/rate_limit").json()["rate"]["used"]
    assert statuses == [200] * 100
    assert len(fake.requests) == 101
    assert used == 100


def test_serve_twice_sequentially_and_not_nested() -> None:
    fake = small_fake()
    with fake.serve() as first:
        assert httpx.get(f"{first}/repos/{REPO}").status_code == 200
        with pytest.raises(RuntimeError), fake.serve():
            pass
    with fake.serve() as second:
        assert httpx.get(f"{second}/repos/{REPO}").status_code == 200
    assert fake.base_url == "https://api.github.com"


# -- scale ----------------------------------------------------------------------------------------------


def big_fake() -> FakeGitHub:
    # updated_at scrambled relative to created_at; every 10th closed, every 3rd a PR
    issues = [make_issue(n, created=n, updated=n + (n * 7919) % 20_000, comments=5, pr=n % 3 == 0,
                         state="closed" if n % 10 == 0 else "open") for n in range(1, 20_001)]
    comments = [make_comment(10_000_000 + i, 1 + i % 20_000, created=i // 5) for i in range(100_000)]
    fake = FakeGitHub()
    fake.add_repo(REPO, issues, comments)
    return fake


def test_large_dataset_fully_paged() -> None:
    fake = big_fake()
    with open_client(fake, "mock") as client:
        params = {"state": "all", "sort": "updated", "direction": "asc", "per_page": 100}
        issues, responses = fetch_all(client, f"/repos/{REPO}/issues", params)
        assert len(responses) == 200
        assert len({i["number"] for i in issues}) == 20_000
        stamps = [i["updated_at"] for i in issues]
        assert stamps == sorted(stamps)

        comments, responses = fetch_all(client, f"/repos/{REPO}/issues/comments",
                                        {"since": ts(15_000), "per_page": 100})
        assert len(comments) == 25_000
        assert len(responses) == 250
        assert [c["id"] for c in comments] == list(range(10_075_000, 10_100_000))

    with open_client(fake, "server") as client:
        open_issues, responses = fetch_all(client, f"/repos/{REPO}/issues", {"per_page": 100})
        assert len(open_issues) == 18_000
        assert len(responses) == 180
    assert len(fake.requests) == 200 + 250 + 180
