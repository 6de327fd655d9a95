"""The real GitHubClient against the fake GitHub, in-process and over a loopback server."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pytest

from bot.demo.fake_github import FakeGitHub
from bot.errors import (
    AccessDenied,
    BadCredentials,
    GitHubError,
    GitHubUnavailable,
    PageGone,
    RateLimited,
    RepoNotFound,
)
from bot.github.client import API_VERSION, MAX_REDIRECTS, GitHubClient
from tests.factories import issue_payload

T0 = datetime(2025, 12, 1, tzinfo=UTC)
PARAMS = {"state": "all", "sort": "updated", "direction": "asc", "per_page": 100}


class Clock:
    """Shared fake time: the client's sleeps advance it, the fake's rate-limit window reads it."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def make_fake(n: int = 250, **kwargs: object) -> FakeGitHub:
    fake = FakeGitHub(**kwargs)  # type: ignore[arg-type]
    fake.add_repo("o/r", [issue_payload(i, T0 + timedelta(minutes=i)) for i in range(1, n + 1)], [])
    return fake


def client_for(fake: FakeGitHub, clock: Clock, **kwargs: object) -> GitHubClient:
    return GitHubClient(transport=httpx.MockTransport(fake.handler), sleep=clock.sleep, clock=clock,
                        **kwargs)  # type: ignore[arg-type]


async def collect(client: GitHubClient, path: str = "repos/o/r/issues") -> list[dict]:
    return [item async for page in client.paginate(path, PARAMS) for item in page.data]


async def test_sends_github_headers_and_follows_links() -> None:
    fake, clock = make_fake(), Clock()
    async with client_for(fake, clock, token="sekrit") as client:
        items = await collect(client)
    assert [i["number"] for i in items] == list(range(1, 251))
    assert len(fake.requests) == 3 == client.requests_made
    headers = fake.requests[0].headers
    assert headers["user-agent"].startswith("digest-bot/")
    assert headers["accept"] == "application/vnd.github+json"
    assert headers["x-github-api-version"] == API_VERSION
    assert headers["authorization"] == "Bearer sekrit"
    assert client.rate_remaining == 4997


async def test_etag_turns_an_unchanged_page_into_a_304() -> None:
    fake, clock = make_fake(50), Clock()
    async with client_for(fake, clock) as client:
        url = client.url_for("repos/o/r/issues", PARAMS)
        first = await client.get_page(url)
        again = await client.get_page(url, etag=first.etag)
    assert first.status == 200 and len(first.data) == 50
    assert again.status == 304 and again.data == []


async def test_server_errors_are_retried_with_bounded_backoff() -> None:
    fake, clock = make_fake(10), Clock()
    fake.inject(502, times=3)
    async with client_for(fake, clock) as client:
        assert len(await collect(client)) == 10
    assert len(clock.sleeps) == 3
    assert all(0 < s <= 30 for s in clock.sleeps)
    assert clock.sleeps[2] > clock.sleeps[0] / 2  # grows (with jitter in [0.5, 1])


async def test_persistent_server_errors_give_up_with_one_sentence() -> None:
    fake, clock = make_fake(10), Clock()
    fake.inject(503, times=100)
    async with client_for(fake, clock, max_retries=2) as client:
        with pytest.raises(GitHubUnavailable, match="answered 503 .* 3 times"):
            await collect(client)
    assert len(fake.requests) == 3


@pytest.mark.parametrize("error", [httpx.ReadTimeout, httpx.ConnectError, httpx.RemoteProtocolError])
async def test_network_faults_are_retried(error: type[Exception]) -> None:
    fake, clock = make_fake(10), Clock()
    fake.inject(error=error, times=2)
    async with client_for(fake, clock) as client:
        assert len(await collect(client)) == 10
    assert len(clock.sleeps) == 2


async def test_secondary_limit_honours_retry_after() -> None:
    fake, clock = make_fake(10), Clock()
    fake.inject(403, headers={"retry-after": "7"},
                body={"message": "You have exceeded a secondary rate limit. Please wait a few minutes."})
    async with client_for(fake, clock) as client:
        assert len(await collect(client)) == 10
    assert clock.sleeps == [7.0]


@pytest.mark.parametrize(("header", "waits"), [
    ("Tue, 14 Nov 2023 22:13:40 GMT", [20.0]),  # an HTTP-date 20 s after the clock's now
    ("2.5", [2.5]),
    ("soon", [60.0]),  # unreadable: the growing fallback, not a crash
    ("-3", [0.0]),
])
async def test_secondary_limit_reads_any_retry_after(header: str, waits: list[float]) -> None:
    fake, clock = make_fake(10), Clock()
    fake.inject(429, headers={"retry-after": header}, body={"message": "secondary rate limit"})
    async with client_for(fake, clock) as client:
        assert len(await collect(client)) == 10
    assert clock.sleeps == waits


async def test_secondary_limit_without_retry_after_waits_at_least_a_minute() -> None:
    fake, clock = make_fake(10), Clock()
    fake.inject(429, body={"message": "secondary rate limit"}, times=2)
    async with client_for(fake, clock) as client:
        assert len(await collect(client)) == 10
    assert clock.sleeps == [60.0, 120.0]


async def test_secondary_limit_longer_than_allowed_stops_clearly() -> None:
    fake, clock = make_fake(10), Clock()
    fake.inject(429, headers={"retry-after": "3600"})
    async with client_for(fake, clock, max_rate_limit_wait=600) as client:
        with pytest.raises(RateLimited, match="asked to wait 3600 s"):
            await collect(client)


async def test_primary_limit_waits_for_reset_then_continues() -> None:
    clock = Clock()
    fake = make_fake(500, rate_limit=3, now=clock)
    async with client_for(fake, clock, max_rate_limit_wait=3700) as client:
        items = await collect(client)
    assert len(items) == 500
    assert len(clock.sleeps) == 1 and 0 < clock.sleeps[0] <= 3601


async def test_primary_limit_beyond_max_wait_stops_with_reset_time() -> None:
    clock = Clock()
    fake = make_fake(500, rate_limit=2, now=clock)
    async with client_for(fake, clock, max_rate_limit_wait=60) as client:
        with pytest.raises(RateLimited, match=r"rate limit is used up until \d\d:\d\d UTC .* GITHUB_TOKEN"):
            await collect(client)
    assert clock.sleeps == []
    assert [r.status for r in fake.requests] == [200, 200]  # stopped before asking a third time


@pytest.mark.parametrize(
    ("fake_kwargs", "client_kwargs", "path", "error", "message"),
    [
        ({"token": "good"}, {"token": "bad"}, "repos/o/r/issues", BadCredentials, "rejected the token"),
        ({}, {}, "repos/o/missing/issues", RepoNotFound, "no such repository o/missing"),
    ],
)
async def test_status_maps_to_typed_error(fake_kwargs, client_kwargs, path, error, message) -> None:  # type: ignore[no-untyped-def]
    fake, clock = make_fake(5, **fake_kwargs), Clock()
    async with client_for(fake, clock, **client_kwargs) as client:
        with pytest.raises(error, match=message):
            await collect(client, path)
    assert clock.sleeps == []  # never retried


async def test_forbidden_without_rate_signal_is_access_denied() -> None:
    fake, clock = make_fake(5), Clock()
    fake.inject(403, body={"message": "Resource not accessible by personal access token"})
    async with client_for(fake, clock) as client:
        with pytest.raises(AccessDenied, match="denied access to repository o/r"):
            await collect(client)


async def test_enterprise_base_url_over_a_real_loopback_server() -> None:
    fake = make_fake(230, api_prefix="/api/v3")
    fake.inject(error=httpx.RemoteProtocolError)  # the server drops the first connection
    clock = Clock()
    with fake.serve() as base_url:
        assert base_url.endswith("/api/v3")
        async with GitHubClient(api_url=base_url, sleep=clock.sleep, clock=clock) as client:
            items = await collect(client)
    assert len(items) == 230
    assert all(r.path.startswith("/api/v3/repos/o/r/issues") for r in fake.requests)


async def test_repository_object_says_whether_it_is_private() -> None:
    fake, clock = make_fake(1), Clock()
    fake.add_repo("o/hidden", [], [], repo_fields={"private": True, "visibility": "private"})
    async with client_for(fake, clock) as client:
        assert (await client.repository("o/r"))["private"] is False
        assert (await client.repository("o/hidden"))["private"] is True
        with pytest.raises(RepoNotFound, match="o/nope"):
            await client.repository("o/nope")
    assert [r.path for r in fake.requests] == ["/repos/o/r", "/repos/o/hidden", "/repos/o/nope"]


# --- redirects (GitHub's REST docs: follow 301, 302 and 307) and vanished pages ---


async def test_a_renamed_repository_is_followed_with_its_etag() -> None:
    fake, clock = make_fake(150), Clock()
    fake.rename("o/r", "o/renamed")
    async with client_for(fake, clock, token="sekrit") as client:
        url = client.url_for("repos/o/r/issues", PARAMS)
        first = await client.get_page(url)
        again = await client.get_page(url, etag=first.etag)
    repository = "/repositories/1000001/issues"
    assert [(r.path, r.status) for r in fake.requests] == [
        ("/repos/o/r/issues", 301), (repository, 200), ("/repos/o/r/issues", 301), (repository, 304)]
    assert fake.requests[1].params == fake.requests[0].params  # the same query, as GitHub's Location keeps it
    assert all(r.headers["authorization"] == "Bearer sekrit" for r in fake.requests)  # the same host
    assert fake.requests[3].headers["if-none-match"] == first.etag and first.etag.startswith('W/"')
    assert (first.url, first.status, len(first.data)) == (url, 200, 100)  # the ETag stays under the asked URL
    assert first.moved_to == f"https://api.github.com{repository}?{httpx.URL(url).query.decode()}"
    assert first.next_url is not None and "/repositories/1000001/issues?" in first.next_url
    assert (again.status, again.moved_to) == (304, first.moved_to)
    assert client.requests_made == 4 and client.rate_remaining == 4997  # the 301s count; the 304 does not


async def test_the_repository_object_pull_requests_and_single_items_follow_a_rename() -> None:
    fake, clock = make_fake(3), Clock()
    fake.rename("o/r", "o/renamed")
    async with client_for(fake, clock) as client:
        assert (await client.repository("o/r"))["full_name"] == "o/renamed"
        issue, moved_to = await client.fetch("repos/o/r/issues/2")
        assert issue["number"] == 2 and moved_to == "https://api.github.com/repositories/1000001/issues/2"
        assert issue["html_url"] == "https://github.com/o/renamed/issues/2"


@pytest.mark.parametrize("status", [302, 307])
async def test_temporary_redirects_are_followed_and_not_reported_as_moves(status: int) -> None:
    fake, clock = make_fake(10), Clock()
    fake.inject(status, headers={"location": "/repositories/1000001/issues?state=all&sort=updated&direction=asc"
                                             "&per_page=100"})  # relative: resolved against the request
    async with client_for(fake, clock) as client:
        page = await client.get_page(client.url_for("repos/o/r/issues", PARAMS))
    assert (page.status, len(page.data), page.moved_to) == (200, 10, None)
    assert [r.path for r in fake.requests] == ["/repos/o/r/issues", "/repositories/1000001/issues"]


async def test_a_redirect_to_another_host_is_not_followed_and_the_token_stays() -> None:
    fake, clock = make_fake(10), Clock()
    fake.inject(301, headers={"location": "https://elsewhere.example/repositories/1/issues"})
    async with client_for(fake, clock, token="sekrit") as client:
        with pytest.raises(GitHubError, match=r"redirected .* \(301\) to another host, https://elsewhere.example"):
            await collect(client)
    assert len(fake.requests) == 1


async def test_a_link_to_another_host_is_asked_without_the_token() -> None:
    fake, clock = make_fake(10), Clock()
    fake.inject(headers={"link": '<https://elsewhere.example/repos/o/r/issues?page=2>; rel="next"'})
    async with client_for(fake, clock, token="sekrit") as client:
        await collect(client)
    assert [r.headers.get("authorization") for r in fake.requests] == ["Bearer sekrit", None]


async def test_a_redirect_to_another_resource_stays_an_error_with_its_status() -> None:
    fake, clock = make_fake(10), Clock()
    # An issue transferred to another repository: GitHub answers 301 to the issue there, under another number.
    fake.inject(301, headers={"location": "https://api.github.com/repositories/999/issues/17"})
    async with client_for(fake, clock) as client:
        with pytest.raises(GitHubError, match="moved .*/repos/o/r/issues/5 to .*/repositories/999/issues/17") as err:
            await client.get_json("repos/o/r/issues/5")
    assert err.value.status == 301 and len(fake.requests) == 1


async def test_redirects_stop_after_a_few_hops() -> None:
    fake, clock = make_fake(10), Clock()
    loop = "https://api.github.com/repositories/1000001/issues/1"
    fake.inject(301, headers={"location": loop}, times=100)
    async with client_for(fake, clock) as client:
        with pytest.raises(GitHubError, match=f"redirected .*/repos/o/r/issues/1 more than {MAX_REDIRECTS} times"):
            await client.get_json("repos/o/r/issues/1")
    assert len(fake.requests) == MAX_REDIRECTS + 1


async def test_a_redirect_without_location_is_an_error_that_says_so() -> None:
    fake, clock = make_fake(10), Clock()
    fake.inject(301)
    async with client_for(fake, clock) as client:
        with pytest.raises(GitHubError, match="answered 301 for .* without a Location"):
            await collect(client)


@pytest.mark.parametrize("by_id", [False, True])
async def test_a_page_gone_mid_listing_says_to_run_again(by_id: bool) -> None:
    fake, clock = make_fake(250), Clock()
    fake.links_use_repository_id = by_id  # as api.github.com: Link URLs under /repositories/{id}
    fake.inject(404, when=lambda r: r.params.get("page") == "2")
    async with client_for(fake, clock) as client:
        with pytest.raises(PageGone) as err:
            await collect(client)
    message = str(err.value)
    assert message.startswith("page 2 of repos/o/r/issues, which GitHub listed a moment ago, is gone (404 for ")
    assert message.endswith("): run the sync again") and "GITHUB_API_URL" not in message
    assert not isinstance(err.value, RepoNotFound) and err.value.status == 404


async def test_a_first_page_404_keeps_its_hint() -> None:
    fake, clock = make_fake(5), Clock()
    async with client_for(fake, clock) as client:
        with pytest.raises(RepoNotFound, match="no such repository o/missing on GitHub"):
            await collect(client, "repos/o/missing/issues")
        with pytest.raises(RepoNotFound, match=r"nothing at .*/nowhere\?.* \(404\): check GITHUB_API_URL"):
            await collect(client, "nowhere")
