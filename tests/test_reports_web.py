"""``/reports/...`` on the one web app, with a real aiohttp client: signed access (403 unsigned, tampered or
expired), only allowed and synced repositories (404), ETags and 304s, immutable days, the CSP, the search box;
and the links chat posts carry (Slack, Discord, the CLI preview) when PUBLIC_URL is set."""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import AsyncIterator, Iterator
from datetime import date, datetime, timedelta
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from aiohttp.test_utils import TestClient, TestServer
from msgspec import structs

from bot.app.links import ReportLinks, day_path, index_path
from bot.app.service import DigestService
from bot.digest.window import default_window, latest_post_time
from bot.model import Digest, QueryResult
from bot.platforms.console import render
from bot.platforms.reports import CSP, ReportRoutes, report_routes
from bot.platforms.web import web_app
from bot.settings import Settings
from bot.store.store import Store
from bot.timeutil import utcnow
from formatters.discord_embeds import render_discord_digest, render_discord_query
from formatters.html import STYLE_HASH
from formatters.slack_blocks import render_slack_digest, render_slack_query
from tests.report_demo import PUBLIC_URL, SAMPLE_END, SAMPLE_REPO, SECRET, demo_settings, sync_demo

NOW = SAMPLE_END + timedelta(hours=2)
DAY = date(2025, 12, 2)
SIGNED = {"REPORTS_SECRET": SECRET, "PUBLIC_URL": PUBLIC_URL}


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("reports-web") / "demo.sqlite3"
    sync_demo(path, demo_settings()).close()
    return path


def open_service(path: Path, settings: Settings) -> tuple[Store, DigestService]:
    store = Store.open(f"sqlite:///{path}")
    return store, DigestService(store, settings, build_processes=0)


async def client_for(path: Path, settings: Settings, now: datetime = NOW
                     ) -> AsyncIterator[tuple[TestClient, DigestService]]:
    store, service = open_service(path, settings)

    async def health() -> dict[str, object]:
        return {"ok": True}

    routes = ReportRoutes(service, clock=lambda: now)
    try:
        async with TestClient(TestServer(web_app(routes.routes(), health), host="127.0.0.1")) as client:
            yield client, service
    finally:
        service.close()
        store.close()


@pytest.fixture
async def signed(demo_store: Path) -> AsyncIterator[tuple[TestClient, DigestService]]:
    async for pair in client_for(demo_store, demo_settings(SIGNED)):
        yield pair


@pytest.fixture
async def public(demo_store: Path) -> AsyncIterator[tuple[TestClient, DigestService]]:
    async for pair in client_for(demo_store, demo_settings(public=True)):
        yield pair


# ----------------------------------------------------------------------------------------- the signature


def test_a_signature_is_bound_to_path_and_expiry() -> None:
    links = ReportLinks(demo_settings(SIGNED))
    path = day_path(SAMPLE_REPO, DAY)
    params = links.params(path, now=NOW)
    expires = int(params["exp"])
    assert expires == int((NOW + timedelta(days=30)).timestamp())
    assert links.allows(path, params["exp"], params["sig"], NOW)
    assert not links.allows(path, params["exp"], params["sig"], datetime.fromtimestamp(expires, NOW.tzinfo))
    assert not links.allows(day_path(SAMPLE_REPO, DAY - timedelta(days=1)), params["exp"], params["sig"], NOW)
    assert not links.allows(path, str(expires + 1), params["sig"], NOW)
    assert not links.allows(path, params["exp"], None, NOW)
    assert not links.allows(path, "-1", params["sig"], NOW)
    arabic = params["exp"].translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    assert not links.allows(path, arabic, params["sig"], NOW)  # one expiry, one spelling
    other = ReportLinks(demo_settings({"REPORTS_SECRET": "another-secret-value-123"}))
    assert not other.allows(path, params["exp"], params["sig"], NOW)


def test_a_days_link_is_the_same_in_every_post_of_that_day() -> None:
    links = ReportLinks(demo_settings(SIGNED))
    urls = {links.day_url(SAMPLE_REPO, DAY, now=SAMPLE_END + timedelta(minutes=m), day_end=SAMPLE_END)
            for m in (0, 7, 600)}
    assert len(urls) == 1
    (url,) = urls
    assert f"exp={int((SAMPLE_END + timedelta(days=30)).timestamp())}&" in str(url)
    # a digest of a day long past still gets a link that works for 30 days from now
    late = SAMPLE_END + timedelta(days=45)
    assert f"exp={int((late + timedelta(days=30)).timestamp())}&" in str(
        links.day_url(SAMPLE_REPO, DAY, now=late, day_end=SAMPLE_END))


def test_modes() -> None:
    assert ReportLinks(demo_settings()).mode == "off"
    assert ReportLinks(demo_settings(public=True)).params("/reports/o/r/") == {}
    off = ReportLinks(demo_settings({"PUBLIC_URL": PUBLIC_URL}))
    assert off.day_url(SAMPLE_REPO, DAY, now=NOW) is None  # no page to link to
    assert not off.allows("/reports/o/r/", "9999999999", "x", NOW)


def test_routes_are_off_without_a_secret_or_public(demo_store: Path, caplog: pytest.LogCaptureFixture) -> None:
    store, service = open_service(demo_store, demo_settings())
    try:
        with caplog.at_level(logging.WARNING):
            assert report_routes(service) == []
        assert "report pages are off" in caplog.text
    finally:
        service.close()
        store.close()


def signed_path(service: DigestService, path: str, **extra: str) -> str:
    return service.links.relative(path, now=NOW, extra=extra or None)


# ------------------------------------------------------------------------------------------- the routes


async def test_unsigned_tampered_and_expired_links_get_403(signed: tuple[TestClient, DigestService]) -> None:
    client, service = signed
    path = day_path(SAMPLE_REPO, DAY)
    assert (await client.get(path)).status == 403
    good = signed_path(service, path)
    assert (await client.get(good.replace(DAY.isoformat(), "2025-12-01"))).status == 403
    expired = service.links.relative(path, expires=int((NOW - timedelta(seconds=1)).timestamp()))
    response = await client.get(expired)
    assert response.status == 403
    assert "expired" in await response.text()
    assert response.headers["Content-Security-Policy"] == CSP


async def test_a_signed_day_page_is_served_with_csp_and_cached(signed: tuple[TestClient, DigestService]) -> None:
    client, service = signed
    url = signed_path(service, day_path(SAMPLE_REPO, DAY))
    response = await client.get(url)
    assert response.status == 200, await response.text()
    html = await response.text()
    assert response.headers["Content-Type"].startswith("text/html")
    assert response.headers["Content-Security-Policy"] == CSP
    assert "script-src" not in CSP and "default-src 'none'" in CSP and f"'{STYLE_HASH}'" in CSP
    assert response.headers["Referrer-Policy"] == "no-referrer"
    # the day's window ended before the last completed sync: immutable
    assert "immutable" in response.headers["Cache-Control"]
    etag = response.headers["ETag"]
    assert "vllm-project/vllm daily report · 2025-12-02" in html
    assert '<svg class="chart wide" id="chart-days-30"' in html
    # the link back to the index keeps the visitor's signature valid
    back = re.search(r'<a href="(/reports/vllm-project/vllm/\?[^"]+)">All days</a>', html)
    assert back is not None
    index = await client.get(back.group(1).replace("&amp;", "&"))
    assert index.status == 200
    again = await client.get(url, headers={"If-None-Match": etag})
    assert again.status == 304 and again.headers["ETag"] == etag
    assert (await client.get(url, headers={"If-None-Match": '"other"'})).status == 200


async def test_only_allowed_and_synced_repositories_exist(signed: tuple[TestClient, DigestService]) -> None:
    client, service = signed
    for repo in ("someone/private", "vllm-project/other"):
        response = await client.get(signed_path(service, day_path(repo, DAY)))
        assert response.status == 404, repo
        assert (await client.get(signed_path(service, index_path(repo)))).status == 404
    for bad in ("..%2F..%2Fetc", "a b"):
        assert (await client.get(signed_path(service, f"/reports/{bad}/x/"))).status in (403, 404)


async def test_days_not_over_not_synced_or_not_dates_are_404(signed: tuple[TestClient, DigestService]) -> None:
    client, service = signed
    for text in ("2025-12-03", "2025-10-01", "2025-13-01", "yesterday", "2025-12-02x"):
        response = await client.get(signed_path(service, f"/reports/{SAMPLE_REPO}/{text}"))
        assert response.status == 404, text


async def test_the_index_lists_days_newest_first_with_signed_links(signed: tuple[TestClient, DigestService]) -> None:
    client, service = signed
    response = await client.get(signed_path(service, index_path(SAMPLE_REPO)))
    assert response.status == 200
    html = await response.text()
    days = re.findall(r'<a href="/reports/vllm-project/vllm/(\d{4}-\d{2}-\d{2})\?([^"]+)">', html)
    assert [day for day, _ in days][:3] == ["2025-12-02", "2025-12-01", "2025-11-30"]
    assert [day for day, _ in days] == sorted((day for day, _ in days), reverse=True)
    assert len(days) >= 10
    for day, query in days:
        params = parse_qs(query.replace("&amp;", "&"))
        assert service.links.allows(f"/reports/{SAMPLE_REPO}/{day}", params["exp"][0], params["sig"][0], NOW)
    assert html.count('<svg class="spark"') == len(days)
    # the search box keeps the signature: hidden exp and sig for the index path
    assert re.search(r'<input type="hidden" name="sig" value="[^"]+">', html)


async def test_the_search_box_runs_the_digest_grammar(signed: tuple[TestClient, DigestService]) -> None:
    client, service = signed
    response = await client.get(signed_path(service, index_path(SAMPLE_REPO), q="rocm 7d"))
    html = await response.text()
    assert response.status == 200
    assert "Results for “rocm 7d”" in html
    assert html.count("<li>") > 5
    refused = await client.get(signed_path(service, index_path(SAMPLE_REPO), q="labe:bug"))
    text = await refused.text()
    assert refused.status == 200 and 'role="alert"' in text and "labe" in text
    hostile = await client.get(signed_path(service, index_path(SAMPLE_REPO), q='"><script>alert(1)</script>'))
    assert "<script>" not in await hostile.text()


async def test_a_search_naming_another_repository_says_why_the_page_is_empty(
        signed: tuple[TestClient, DigestService]) -> None:
    """``repo:other/x`` on this repository's page: a notice in the page's language, never an empty page, and the
    same words whether the bot follows other/x or not (the other repository is never searched)."""
    client, service = signed
    for asked in ("someone/private", "vllm-project/other"):
        response = await client.get(signed_path(service, index_path(SAMPLE_REPO), q=f"repo:{asked} rocm 7d"))
        html = await response.text()
        assert response.status == 200 and 'role="alert"' in html
        assert f"This page searches {SAMPLE_REPO} only" in html and f"repo:{asked}" in html
        assert "Results for" not in html and "does not follow" not in html
    chinese = await client.get(signed_path(service, index_path(SAMPLE_REPO), q="repo:someone/private rocm",
                                           lang="zh-CN"))
    assert f"本页只搜索 {SAMPLE_REPO}" in await chinese.text()
    # This page's own repository, spelled in another case, is this page's search.
    same = await (await client.get(signed_path(service, index_path(SAMPLE_REPO),
                                               q=f"repo:{SAMPLE_REPO.upper()} rocm 7d"))).text()
    assert "Results for" in same and 'role="alert"' not in same


async def test_public_reports_need_no_signature(public: tuple[TestClient, DigestService]) -> None:
    client, _ = public
    assert (await client.get(day_path(SAMPLE_REPO, DAY))).status == 200
    assert (await client.get(index_path(SAMPLE_REPO) + "?lang=zh-CN")).status == 200
    assert (await client.get(day_path("someone/private", DAY))).status == 404


async def test_the_index_is_revalidated_not_immutable(demo_store: Path) -> None:
    """An index changes with each day and sync: never immutable, revalidated by its ETag."""
    async for client, _ in client_for(demo_store, demo_settings(public=True)):
        response = await client.get(index_path(SAMPLE_REPO))
        assert response.headers["Cache-Control"] == "private, no-cache"
        etag = response.headers["ETag"]
        assert (await client.get(index_path(SAMPLE_REPO), headers={"If-None-Match": etag})).status == 304


# ------------------------------------------------------------------------------------------ chat links


@pytest.fixture(scope="module")
def linked(demo_store: Path) -> Iterator[tuple[Digest, Digest, QueryResult, DigestService]]:
    settings = demo_settings(SIGNED)
    store, service = open_service(demo_store, settings)
    try:
        window = default_window(SAMPLE_END, settings.digest.zone, settings.digest.post_time)
        digest = service.build_digest(service.default_context(repo=SAMPLE_REPO), window, analyse=False)
        zh = service.build_digest(service.default_context(repo=SAMPLE_REPO, locale="zh-CN"), window, analyse=False)
        answer = service.answer_now(service.default_context(repo=SAMPLE_REPO), "rocm 7d", now=SAMPLE_END,
                                    analyse=False)
        assert isinstance(answer, QueryResult)
        yield digest, zh, answer, service
    finally:
        service.close()
        store.close()


def test_a_days_digest_links_to_its_signed_page(linked: tuple[Digest, Digest, QueryResult, DigestService]) -> None:
    digest, _, _, service = linked
    assert digest.report_url is not None
    parts = urlsplit(digest.report_url)
    assert f"{parts.scheme}://{parts.netloc}" == PUBLIC_URL and parts.path == day_path(SAMPLE_REPO, DAY)
    params = parse_qs(parts.query)
    assert service.links.allows(parts.path, params["exp"][0], params["sig"][0], datetime.now(NOW.tzinfo))


def slack_links(payloads: object) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if node.get("type") == "link":
                found.append((node["url"], node.get("text", "")))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(payloads)
    return found


def test_slack_and_discord_headlines_carry_full_report(
    linked: tuple[Digest, Digest, QueryResult, DigestService],
) -> None:
    digest, zh, answer, _ = linked
    url = digest.report_url
    assert url is not None
    headline = render_slack_digest(digest)[0]
    assert (url, "Full report") in slack_links(headline)
    assert (zh.report_url, "完整报告") in slack_links(render_slack_digest(zh, locale="zh-CN")[0])
    embed = render_discord_digest(digest)[0]["embeds"][0]
    assert embed.get("url") == url and f"[Full report]({url})" in embed.get("description", "")
    assert "完整报告" in render_discord_digest(zh, locale="zh-CN")[0]["embeds"][0].get("description", "")
    # query answers link to the search page with the query
    assert answer.report_url is not None and "q=rocm+7d" in answer.report_url
    assert (answer.report_url, "Search the reports") in slack_links(render_slack_query(answer))
    assert render_discord_query(answer)[0]["embeds"][0].get("url") == answer.report_url
    # the CLI's preview shows the same
    assert url in render(digest, "slack") and url in render(digest, "discord")
    assert json.loads(render(digest, "json"))["report_url"] == url


def test_no_public_url_no_link(demo_store: Path) -> None:
    settings = demo_settings({"REPORTS_SECRET": SECRET})
    store, service = open_service(demo_store, settings)
    try:
        window = default_window(SAMPLE_END, settings.digest.zone, settings.digest.post_time)
        digest = service.build_digest(service.default_context(repo=SAMPLE_REPO), window, analyse=False)
    finally:
        service.close()
        store.close()
    assert digest.report_url is None
    assert not [text for _, text in slack_links(render_slack_digest(digest)) if text == "Full report"]
    assert "url" not in render_discord_digest(digest)[0]["embeds"][0]


async def test_a_day_the_sync_has_not_covered_whole_is_not_immutable(demo_store: Path) -> None:
    """The store's last sync completed now (its listings' last success); a day that ends after that is served
    (what the store has) but revalidated and rebuilt after the next sync, while 2025-12-02 stays immutable."""
    settings = demo_settings(public=True)
    later = utcnow() + timedelta(days=2)
    day = latest_post_time(later, settings.digest.zone, settings.digest.post_time).date()
    async for client, _ in client_for(demo_store, settings, now=later):
        response = await client.get(day_path(SAMPLE_REPO, day))
        assert response.status == 200
        assert response.headers["Cache-Control"] == "private, no-cache"
        etag = response.headers["ETag"]
        assert (await client.get(day_path(SAMPLE_REPO, day), headers={"If-None-Match": etag})).status == 304
        assert "immutable" in (await client.get(day_path(SAMPLE_REPO, DAY))).headers["Cache-Control"]


async def test_search_results_are_capped_with_the_rest_counted(public: tuple[TestClient, DigestService]) -> None:
    client, _ = public
    html = await (await client.get(index_path(SAMPLE_REPO) + "?q=is:open+7d")).text()
    assert html.count("<li>") <= 30
    assert "…and " in html


def test_settings_read_the_report_environment() -> None:
    settings = demo_settings({"REPORTS_SECRET": SECRET, "PUBLIC_URL": PUBLIC_URL + "/"})
    assert settings.public_url == PUBLIC_URL and settings.reports_mode == "signed"
    assert SECRET in settings.secret_values()  # redacted wherever it would be printed
    with pytest.raises(Exception, match="PUBLIC_URL must be an http"):
        demo_settings({"PUBLIC_URL": "javascript:alert(1)"})


def test_a_query_answer_as_a_page(linked: tuple[Digest, Digest, QueryResult, DigestService]) -> None:
    _, _, answer, _ = linked
    html = render(answer, "html")
    assert html.startswith("<!DOCTYPE html>") and "“rocm 7d” in vllm-project/vllm" in html
    assert "<script" not in render(structs.replace(answer, query="<script>alert(1)</script>"), "html")


async def test_concurrent_misses_build_a_page_once(demo_store: Path) -> None:
    """A link posted to a busy channel is opened by many at once: one build, every request answered."""
    store, service = open_service(demo_store, demo_settings(public=True))

    async def health() -> dict[str, object]:
        return {"ok": True}

    routes = ReportRoutes(service, clock=lambda: NOW)
    built: list[date] = []
    real = routes.reports.day_digest

    async def counting(repo: str, day: date, locale: str | None) -> Digest:
        built.append(day)
        return await real(repo, day, locale)

    routes.reports.day_digest = counting  # type: ignore[method-assign]
    try:
        async with TestClient(TestServer(web_app(routes.routes(), health), host="127.0.0.1")) as client:
            path = day_path(SAMPLE_REPO, DAY - timedelta(days=1))
            responses = await asyncio.gather(*(client.get(path) for _ in range(6)))
            assert [response.status for response in responses] == [200] * 6
            assert len({response.headers["ETag"] for response in responses}) == 1
            assert built == [DAY - timedelta(days=1)]
    finally:
        service.close()
        store.close()


async def test_builds_beyond_the_limit_are_told_to_come_back(demo_store: Path) -> None:
    """Cache misses (page builds, searches) at once are bounded (``chat.heavy_in_flight_total``): one more gets
    503 with Retry-After instead of queueing; a cached page is still served meanwhile."""
    store, service = open_service(demo_store, demo_settings(public=True))

    async def health() -> dict[str, object]:
        return {"ok": True}

    routes = ReportRoutes(service, clock=lambda: NOW)
    routes.max_builds = 1
    started, release = asyncio.Event(), asyncio.Event()
    real = routes.reports.day_digest

    async def held(repo: str, day: date, locale: str | None) -> Digest:
        started.set()
        await release.wait()
        return await real(repo, day, locale)

    try:
        async with TestClient(TestServer(web_app(routes.routes(), health), host="127.0.0.1")) as client:
            assert (await client.get(day_path(SAMPLE_REPO, DAY))).status == 200  # cached from now on
            routes.reports.day_digest = held  # type: ignore[method-assign]
            first = asyncio.ensure_future(client.get(day_path(SAMPLE_REPO, DAY - timedelta(days=1))))
            await started.wait()
            busy = await client.get(day_path(SAMPLE_REPO, DAY - timedelta(days=2)))
            assert busy.status == 503 and busy.headers["Retry-After"] == "5"
            assert (await client.get(index_path(SAMPLE_REPO) + "?q=rocm")).status == 503
            assert (await client.get(day_path(SAMPLE_REPO, DAY))).status == 200
            release.set()
            assert (await first).status == 200
            assert (await client.get(day_path(SAMPLE_REPO, DAY - timedelta(days=2)))).status == 200
    finally:
        service.close()
        store.close()
