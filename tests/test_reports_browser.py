"""The report pages in a real browser: Debian's headless Chromium driven by Playwright (``.ci/run`` installs
``chromium``; Playwright launches that binary, it never downloads one). At 1280 and 390 px wide, in English and
in Chinese: no horizontal overflow, no console error (a CSP violation is one), every chart has a title and a
text alternative, the zh-CN page reads in Chinese. Screenshots go to ``tests/artifacts/`` (gitignored).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.app.links import day_path, index_path
from bot.app.service import DigestService
from bot.platforms.reports import ReportRoutes
from bot.platforms.web import web_app
from bot.store.store import Store
from tests.chinese_text import english_words
from tests.report_demo import SAMPLE_REPO, SECRET, demo_settings, sync_demo
from tests.test_reports_web import DAY, NOW

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"

try:
    from playwright.async_api import async_playwright
except ImportError:  # pragma: no cover - the test extra installs it
    async_playwright = None  # type: ignore[assignment]

pytestmark = [
    pytest.mark.skipif(async_playwright is None, reason="playwright is not installed (pip install -e '.[test]')"),
    pytest.mark.skipif(not Path(CHROMIUM).exists(),
                       reason=f"no Chromium at {CHROMIUM}: apt-get install chromium (.ci/run does it)"),
]

WIDTHS = (1280, 390)

# What the page itself says about each chart and about overflow, measured in the browser.
CHECK = """() => {
  const charts = [...document.querySelectorAll('svg.chart')].map(svg => {
    const ids = (svg.getAttribute('aria-labelledby') || '').split(' ');
    const text = id => { const el = document.getElementById(id); return el ? el.textContent.trim() : ''; };
    const table = document.querySelector(`table[data-chart="${svg.id}"]`);
    return {id: svg.id, role: svg.getAttribute('role'), title: text(ids[0]), desc: text(ids[1]),
            titleTag: svg.querySelector(':scope > title') !== null,
            rows: table ? table.querySelectorAll('tbody tr').length : 0,
            width: svg.getBoundingClientRect().width};
  });
  const wide = [...document.querySelectorAll('body *')]
    .filter(el => el.getBoundingClientRect().right > window.innerWidth + 1 && !el.closest('.table-wrap'))
    .slice(0, 5).map(el => el.tagName + '.' + el.className);
  return {scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth,
          lang: document.documentElement.lang, h1: document.querySelector('h1').textContent,
          headings: [...document.querySelectorAll('h2, figcaption, summary, dt')].map(el => el.textContent),
          charts, wide};
}"""


@pytest.fixture(scope="module")
def store_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("reports-browser") / "demo.sqlite3"
    sync_demo(path, demo_settings()).close()
    return path


@pytest.fixture
async def site(store_path: Path) -> AsyncIterator[tuple[str, DigestService]]:
    store = Store.open(f"sqlite:///{store_path}")
    service = DigestService(store, demo_settings({"REPORTS_SECRET": SECRET}), build_processes=0)

    async def health() -> dict[str, object]:
        return {"ok": True}

    app = web_app(ReportRoutes(service, clock=lambda: NOW).routes(), health)
    try:
        async with TestClient(TestServer(app, host="127.0.0.1")) as client:
            yield str(client.make_url("")).rstrip("/"), service
    finally:
        service.close()
        store.close()


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    assert async_playwright is not None
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            await launched.close()


async def visit(browser: Any, url: str, width: int, shot: str) -> dict[str, Any]:
    page = await browser.new_page(viewport={"width": width, "height": 1600})
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    response = await page.goto(url)
    assert response is not None and response.status == 200, url
    facts: dict[str, Any] = await page.evaluate(CHECK)
    ARTIFACTS.mkdir(exist_ok=True)
    await page.screenshot(path=str(ARTIFACTS / shot))  # the first screenful: a whole day is ~100k px tall
    facts["console"] = problems
    await page.close()
    return facts


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", ["en", "zh-CN"])
async def test_the_day_page_in_chromium(site: tuple[str, DigestService], browser: Any, width: int,
                                        lang: str) -> None:
    base, service = site
    url = base + service.links.relative(day_path(SAMPLE_REPO, DAY), now=NOW, extra={"lang": lang})
    facts = await visit(browser, url, width, f"day-{lang}-{width}.png")
    print(f"screenshot: {ARTIFACTS / f'day-{lang}-{width}.png'}")
    assert facts["console"] == []
    assert facts["scrollWidth"] <= facts["innerWidth"], facts["wide"]
    assert facts["lang"] == lang
    charts = facts["charts"]
    assert [chart["id"] for chart in charts] == ["chart-days-7", "chart-days-30", "chart-topic-0", "chart-merge"]
    for chart in charts:
        assert chart["role"] == "img" and chart["titleTag"] and chart["title"] and chart["desc"], chart
        assert chart["rows"] > 0, chart  # the data table beside it
        assert 0 < chart["width"] <= width
    if lang == "zh-CN":
        assert "开发动态报告" in facts["h1"]
        # our words are Chinese: what Latin is left is technical terms and topic names (AMD / ROCm)
        assert [word for text in facts["headings"] for word in english_words(text)] == []
        assert sum(any("\u4e00" <= ch <= "\u9fff" for ch in text) for text in facts["headings"]) > 10
        assert all(any("\u4e00" <= ch <= "\u9fff" for ch in chart["title"] + chart["desc"]) for chart in charts)


# What a reader meets on the page, measured in the browser: how far the appendix is, the table of contents, each
# item's full entry, and any text meant for debugging.
READING = """() => {
  const appendix = document.getElementById('appendix');
  const sections = [...document.querySelectorAll('main > section')].map(s => s.id);
  const entries = [...document.querySelectorAll('li[id^="item-"]')].map(li => li.id);
  const titles = [...document.querySelectorAll('li[id^="item-"] strong')].map(el => el.textContent.trim());
  const inPage = [...document.querySelectorAll('a[href^="#"]')].map(a => a.getAttribute('href').slice(1));
  const body = document.querySelector('main').innerText;
  const open = [...appendix.querySelectorAll('details')].filter(d => d.open).length;
  return {beforeAppendix: appendix.getBoundingClientRect().top + window.scrollY,
          total: document.documentElement.scrollHeight, toc: document.querySelectorAll('nav#toc a').length,
          sections, entries, titles, broken: inPage.filter(id => !document.getElementById(id)), body, open};
}"""
DEBUG = ("label rocm", "tag [", "title: ", "merged: [", "body: ", "body opens with", "in review: ")


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
async def test_the_day_page_reads_as_one_short_page(site: tuple[str, DigestService], browser: Any,
                                                   lang: str) -> None:
    """A real-size day (the demo's: ~300 items) on a phone: at most 10,000 px before the appendix, a table of
    contents, each item's full entry once, the appendix last and collapsed, no debug text."""
    base, service = site
    url = base + service.links.relative(day_path(SAMPLE_REPO, DAY), now=NOW, extra={"lang": lang})
    page = await browser.new_page(viewport={"width": 390, "height": 844})
    await page.goto(url)
    facts: dict[str, Any] = await page.evaluate(READING)
    await page.close()
    print(f"{lang} at 390 px: {facts['beforeAppendix']:.0f} px before the appendix, {facts['total']} in all")
    assert facts["beforeAppendix"] <= 10_000
    assert facts["total"] <= 12_000  # the appendix collapsed: its lists open on demand
    assert facts["toc"] >= 6 and facts["broken"] == []
    assert facts["sections"][-1] == "appendix" and facts["open"] == 0
    assert len(facts["entries"]) == len(set(facts["entries"])) >= 15
    assert len(facts["titles"]) == len(set(facts["titles"]))
    assert [debug for debug in DEBUG if debug in facts["body"]] == []


@pytest.mark.parametrize("width", WIDTHS)
async def test_the_index_page_in_chromium(site: tuple[str, DigestService], browser: Any, width: int) -> None:
    base, service = site
    url = base + service.links.relative(index_path(SAMPLE_REPO), now=NOW, extra={"q": "rocm 7d"})
    facts = await visit(browser, url, width, f"index-{width}.png")
    assert facts["console"] == []
    assert facts["scrollWidth"] <= facts["innerWidth"], facts["wide"]


async def test_the_search_box_submits_with_the_signature(site: tuple[str, DigestService], browser: Any) -> None:
    base, service = site
    page = await browser.new_page(viewport={"width": 1280, "height": 900})
    await page.goto(base + service.links.relative(index_path(SAMPLE_REPO), now=NOW))
    await page.fill("#q", "qwen hangs 7d")
    async with page.expect_navigation():
        await page.click("form.search button")
    assert "Results for “qwen hangs 7d”" in await page.content()  # the form kept exp and sig: not a 403
    await page.close()


async def test_dark_mode_and_print(site: tuple[str, DigestService], browser: Any) -> None:
    """The same page follows the reader's dark mode, and prints black on white without navigation."""
    base, service = site
    url = base + service.links.relative(day_path(SAMPLE_REPO, DAY), now=NOW)
    page = await browser.new_page(viewport={"width": 1280, "height": 1600}, color_scheme="dark")
    await page.goto(url)
    colours = await page.evaluate("""() => {
      const style = el => getComputedStyle(el);
      const bar = document.querySelector('#chart-days-7 rect.c-opened');
      return {bg: style(document.body).backgroundColor, fg: style(document.body).color, bar: style(bar).fill};
    }""")
    await page.screenshot(path=str(ARTIFACTS / "day-en-1280-dark.png"))
    assert colours == {"bg": "rgb(13, 17, 23)", "fg": "rgb(230, 237, 243)", "bar": "rgb(68, 147, 248)"}
    await page.emulate_media(media="print")
    printed = await page.evaluate("""() => ({bg: getComputedStyle(document.body).backgroundColor,
      nav: getComputedStyle(document.querySelector('nav')).display})""")
    assert printed == {"bg": "rgb(255, 255, 255)", "nav": "none"}
    await page.close()
