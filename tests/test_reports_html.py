"""The report page (``formatters.html``) and its chart data (``bot.digest.series``) on the demo sample: the
figures agree with the digest's own counts, every chart has a title and a text alternative, GitHub's hostile
text stays text, the zh-CN page reads in Chinese, and a chat post's digest never pays for the series."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path

import pytest
from msgspec import structs

from bot.app.service import DigestService
from bot.digest.series import merge_buckets
from bot.digest.window import default_window
from bot.model import (
    MERGE_BUCKET_HOURS,
    SERIES_DAYS,
    TOPIC_SERIES_DAYS,
    Analysis,
    DayCount,
    Digest,
    DigestItem,
    Hot,
    IndexDay,
    Listed,
    ReportIndex,
    Section,
    Stats,
    Window,
)
from bot.platforms.console import render
from formatters.html import STYLE, chart_ids, render_html, render_html_index
from tests.chinese_text import english_words, greek_digest, stray_spaces
from tests.report_demo import SAMPLE_END, SAMPLE_REPO, demo_settings, sync_demo

ZH = "zh-CN"


@dataclasses.dataclass(frozen=True)
class Built:
    digest: Digest  # with the series, as the report page builds it
    chat: Digest  # as a chat post builds it
    zh: Digest


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    settings = demo_settings()
    store = sync_demo(tmp_path_factory.mktemp("reports") / "demo.sqlite3", settings)
    service = DigestService(store, settings)
    try:
        window = default_window(SAMPLE_END, settings.digest.zone, settings.digest.post_time)
        en = service.default_context(repo=SAMPLE_REPO)
        yield Built(
            digest=service.build_digest(en, window, analyse=False, series=True),
            chat=service.build_digest(en, window, analyse=False),
            zh=service.build_digest(service.default_context(repo=SAMPLE_REPO, locale=ZH), window, analyse=False,
                                    series=True),
        )
    finally:
        service.close()
        store.close()


# ------------------------------------------------------------------------------------------- the series


def test_the_chat_digest_has_no_series(built: Built) -> None:
    assert built.chat.activity_series is None
    assert built.digest.activity_series is not None


def test_the_last_day_of_the_series_is_the_digests_own_counts(built: Built) -> None:
    series = built.digest.activity_series
    assert series is not None and len(series.days) == SERIES_DAYS
    stats = built.digest.stats
    last = series.days[-1]
    assert last.day == datetime(2025, 12, 2).date()
    assert last.opened == stats.new_issues + stats.new_prs
    assert last.closed == stats.closed_issues + stats.closed_unmerged_prs
    assert last.merged == stats.merged_prs
    # the sparkline's 7 days, counted by another read of the store
    assert tuple(day.opened for day in series.days[-7:]) == built.digest.daily_activity


def test_days_before_the_first_sync_are_marked_not_quiet(built: Built) -> None:
    series = built.digest.activity_series
    assert series is not None
    unsynced = [day for day in series.days if not day.synced]
    assert unsynced and unsynced == list(series.days[: len(unsynced)])  # the oldest ones, before the sync reached
    assert all(day.synced for day in series.days[-14:])


def test_the_followed_topic_counts_match_its_section_and_trend_baseline(built: Built) -> None:
    series = built.digest.activity_series
    assert series is not None
    assert [topic.topic for topic in series.topics] == list(built.digest.followed) == ["rocm"]
    rocm = series.topics[0]
    assert len(rocm.counts) == TOPIC_SERIES_DAYS
    section = built.digest.section("topic:rocm")
    assert section is not None and rocm.counts[-1] == len(section.items)
    assert rocm.baseline is not None and rocm.baseline == pytest.approx(sum(rocm.counts[-8:-1]) / 7, abs=0.01)


def test_the_merge_distribution_covers_the_prs_merged_in_seven_days(built: Built) -> None:
    series = built.digest.activity_series
    assert series is not None
    assert len(series.merge_buckets) == len(MERGE_BUCKET_HOURS) + 1
    assert sum(series.merge_buckets) == sum(day.merged for day in series.days[-7:])


def test_merge_buckets_edges() -> None:
    hours = [0.5, 1, 1.01, 6, 23.9, 24, 71, 167, 700, 721, 5000]
    assert merge_buckets([timedelta(hours=h) for h in hours]) == (2, 2, 2, 1, 1, 1, 2)


# --------------------------------------------------------------------------------------------- the page


class Page(HTMLParser):
    """Tags with attributes, the text, and which chart ids have a title, a desc and a data table."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.styles: list[str] = []
        self._stack: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in ("br", "meta", "input", "rect", "line"):
            self._stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        while self._stack and self._stack.pop() != tag:
            pass

    def handle_data(self, data: str) -> None:
        if self._stack and self._stack[-1] == "style":
            self.styles.append(data)
        else:
            self.text.append(data)

    def all(self, tag: str) -> list[dict[str, str | None]]:
        return [attrs for name, attrs in self.tags if name == tag]


def test_the_page_is_self_contained_and_complete(built: Built) -> None:
    html = render_html(built.digest)
    page = Page(html)
    assert html.startswith("<!DOCTYPE html>")
    assert page.all("html") == [{"lang": "en"}]
    assert page.styles == [STYLE]  # the one stylesheet, exactly what the CSP hash allows
    assert not page.all("script") and not page.all("img") and not page.all("link") and not page.all("iframe")
    assert not [attrs for _, attrs in page.tags if "style" in attrs or any(k.startswith("on") for k in attrs)]
    anchors = {attrs["id"] for _, attrs in page.tags if attrs.get("id")}
    for attrs in page.all("a"):
        href = attrs["href"] or ""
        if href.startswith("#"):  # the table of contents and short links point at this page's own sections
            assert href[1:] in anchors, attrs
        else:
            assert href.startswith(("https://github.com/vllm-project/vllm", "/reports/")), attrs
    text = " ".join(page.text)
    for heading in ("Contents", "Summary", "Activity charts", "AMD / ROCm", "Hot discussions", "Themes",
                    "Key changes", "Notable issues", "Activity", "Appendix"):
        assert heading in text, heading
    # every item of the appendix is linked to GitHub
    for items in built.digest.appendix.values():
        for item in items:
            assert f'href="https://github.com/vllm-project/vllm/{"pull" if item.kind == "pr" else "issues"}/' \
                   f'{item.number}"' in html
    # the followed topic's section comes before the built-in ones
    assert text.index("AMD / ROCm (") < text.index("Hot discussions (") < text.index("Key changes (")
    assert len(page.all("details")) >= 5


def test_every_chart_has_a_title_a_description_and_a_data_table(built: Built) -> None:
    html = render_html(built.digest)
    page = Page(html)
    ids = list(chart_ids(built.digest))
    assert ids == ["chart-days-7", "chart-days-30", "chart-topic-0", "chart-merge"]
    svgs = {attrs["id"]: attrs for attrs in page.all("svg") if "chart" in (attrs.get("class") or "").split()}
    assert list(svgs) == ids
    tables = {attrs["data-chart"] for attrs in page.all("table") if attrs.get("data-chart")}
    assert tables == set(ids)
    for chart_id, attrs in svgs.items():
        assert attrs["role"] == "img" and attrs["aria-labelledby"] == f"{chart_id}-t {chart_id}-d"
        assert f'<title id="{chart_id}-t">' in html and f'<desc id="{chart_id}-d">' in html
    assert re.search(r'<desc id="chart-days-7-d">7 days: \d+ opened, \d+ closed, \d+ merged', html)


def test_the_cli_html_format_is_the_page(built: Built) -> None:
    assert render(built.digest, "html") == render_html(built.digest)


# ------------------------------------------------------------------------------------------ hostile text

WINDOW = Window(datetime(2025, 12, 1, 3, 5, tzinfo=UTC), datetime(2025, 12, 2, 3, 5, tzinfo=UTC), "Asia/Shanghai")
HOSTILE = (
    '<script>alert(1)</script>',
    '<img src=x onerror="alert(1)">',
    '"><svg onload=alert(1)>',
    "javascript:alert(1)",
    "\u202egnp.exe\u202c RTL override \u2066isolate\u2069",
    "A" * 10_000,
    "</style><style>body{display:none}</style>",
    "{{ 7*7 }} {% raw %}",
)


def hostile_item(number: int, text: str, why: object) -> DigestItem:
    return DigestItem(
        number=number, kind="pr" if number % 2 else "issue", title=text, url="javascript:alert(document.cookie)",
        author=text[:80], labels=(text, "ok"), summary=text, state="new",
        event_time=WINDOW.start + timedelta(hours=1), comments_in_window=5,
        analysis=Analysis(question=text, positions=text, status=text, impact=text),
        why=why,  # type: ignore[arg-type]
    )


def hostile_digest() -> Digest:
    hot = tuple(hostile_item(k + 1, text, Hot(comments=5, participants=3)) for k, text in enumerate(HOSTILE))
    listed = tuple(hostile_item(k + 1, text, Listed("opened")) for k, text in enumerate(HOSTILE))
    return Digest(
        repo=SAMPLE_REPO, window=WINDOW, stats=Stats(new_issues=4, new_prs=4),
        sections=(Section.for_topic("rocm", "<b>ROCm</b> \u202e", hot), Section.builtin("hot", hot)),
        appendix={"new_issues": listed}, followed=("rocm",),
        report_url="javascript:alert(1)",
    )


def test_hostile_github_text_stays_inert() -> None:
    html = render_html(hostile_digest())
    page = Page(html)
    assert not page.all("script") and not page.all("img") and not page.all("b")
    assert [attrs for attrs in page.all("svg") if "onload" in attrs] == []
    for _, attrs in page.tags:
        assert not any(name.startswith("on") for name in attrs), attrs
        assert "style" not in attrs
    assert page.styles == [STYLE]
    for attrs in page.all("a"):
        assert (attrs["href"] or "").startswith(("https://github.com/", "/reports/", "#")), attrs
    assert "javascript:" not in " ".join(str(attrs) for _, attrs in page.tags)
    for control in ("\u202e", "\u202c", "\u2066", "\u2069"):
        assert control not in html
    assert "A" * 500 not in html  # a 10k title is cut, not poured into the page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # shown as the text it is
    assert "{{ 7*7 }}" in html  # data, never a template
    assert len(html) < 200_000


# --------------------------------------------------------------------------------------------- zh-CN


def page_text(html: str) -> list[str]:
    page = Page(html)
    return [text for text in page.text if text.strip()]


def test_the_zh_cn_page_reads_in_chinese(built: Built) -> None:
    html = render_html(greek_digest(built.zh))
    assert '<html lang="zh-CN">' in html
    texts = page_text(html)
    english = sorted({word for text in texts for word in english_words(
        text, github=[SAMPLE_REPO, "GitHub"], allowed={SAMPLE_REPO.rsplit("/", 1)[-1], "digest"})})
    assert english == []
    spaces = sorted({space for text in texts for space in stray_spaces(text, github=[SAMPLE_REPO])})
    assert spaces == []
    assert "活跃度图表" in html and "附录" in html


def test_the_zh_cn_chart_descriptions_are_chinese(built: Built) -> None:
    html = render_html(built.zh)
    descs = re.findall(r"<desc [^>]*>([^<]*)</desc>", html)
    assert len(descs) == 4
    for desc in descs:
        assert re.search(r"[\u4e00-\u9fff]", desc), desc
        assert english_words(desc) == [], desc


def test_page_files_written_for_a_look(built: Built, tmp_path: Path) -> None:
    """The pages render for both locales without a series too (a chat digest rendered as HTML)."""
    for digest in (built.chat, built.zh):
        html = render_html(digest)
        (tmp_path / f"{digest.locale}.html").write_text(html, encoding="utf-8")
        assert "</html>" in html


def test_a_hostile_report_url_is_never_a_link_in_chat() -> None:
    """``report_url`` comes from the service (PUBLIC_URL, checked at load); the formatters check it again."""
    from formatters.discord_embeds import render_discord_digest
    from formatters.slack_blocks import render_slack_digest

    for url in ("javascript:report()", "https://x.test/a>b", "https://x.test/a|b", "https://x.test/(a)"):
        digest = structs.replace(hostile_digest(), report_url=url)
        assert url not in json.dumps(render_slack_digest(digest)) + json.dumps(render_discord_digest(digest))


def test_the_zh_cn_index_reads_in_chinese() -> None:
    days = tuple(
        IndexDay(DayCount(date(2025, 12, 2 - k), opened=3 + k, closed=1, merged=2), (1, 2, 3, 4, 5, 6, 7),
                 f"/reports/{SAMPLE_REPO}/2025-12-0{2 - k}")
        for k in range(2)
    )
    index = ReportIndex(repo=SAMPLE_REPO, timezone="Asia/Shanghai", locale=ZH, post_time="11:05", days=days,
                        search_path=f"/reports/{SAMPLE_REPO}/", search_params=(("exp", "1"), ("sig", "s")))
    html = render_html_index(index)
    assert '<html lang="zh-CN">' in html and 'name="lang" value="zh-CN"' in html
    texts = [text for text in page_text(html) if text.strip()]
    assert [word for text in texts for word in english_words(text, github=[SAMPLE_REPO, "GitHub"])] == []
    assert html.count('<svg class="spark"') == 2 and html.count('role="img" aria-label="截至 2025-12-0') == 2
