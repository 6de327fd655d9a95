"""The report as one self-contained HTML5 page (``--format html`` and the web process's ``/reports/...``).

Jinja2 with autoescape on: GitHub's text (titles, labels, logins, bodies' summaries, LLM text) only ever
reaches the page as escaped text, cleaned of control and bidi-override characters (``safety.one_line``) and cut
to a length; links go only to the repository's own GitHub pages (``safety.item_url``) or to report pages whose
URLs the app service computed. One inline stylesheet (its hash is ``STYLE_HASH`` for the CSP), inline SVG
charts (``formatters.charts``), no script, no external request: the page reads the same saved to a file.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from functools import cache, lru_cache
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from bot.app.notices import Notice
from bot.model import STAT_KEYS, ActivitySeries, DayCount, Digest, DigestItem, QueryResult, ReportIndex, Theme
from formatters import charts, layout, safety, sections
from formatters.layout import localtime
from formatters.locale import normalise_locale, strings
from formatters.notices import answer_notes, render_notice
from formatters.sections import section_title

__all__ = ["STYLE", "STYLE_HASH", "render_html", "render_html_index", "render_html_query"]

STYLE = """
:root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--card:#f6f8fa;--link:#0969da;
--opened:#0969da;--closed:#cf222e;--merged:#8250df;--topic:#1a7f37;--none:#d1d9e0}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--card:#151b23;
--link:#4493f8;--opened:#4493f8;--closed:#f85149;--merged:#ab7df8;--topic:#3fb950;--none:#3d444d}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,
"Noto Sans","PingFang SC","Microsoft YaHei",sans-serif}
main{max-width:62rem;margin:0 auto;padding:1rem}
a{color:var(--link)}
h1{font-size:1.5rem;margin:.5rem 0;overflow-wrap:anywhere}
h2{font-size:1.2rem;margin:1.6rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.2rem}
h3{font-size:1rem;margin:1rem 0 .3rem}
p,li,td,th,dd,dt,summary,figcaption{overflow-wrap:anywhere}
.muted,.meta{color:var(--muted)}
.meta{font-size:.875rem}
nav.links a{margin-right:1rem}
#toc{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:.5rem .75rem;margin:1rem 0;
font-size:.9rem}
#toc ol{margin:.25rem 0 0;padding:0;list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
ol.entries{padding-left:1.2rem}
ol.entries li{margin:.5rem 0;line-height:1.45}
.detail{font-size:.875rem;color:var(--fg)}
.detail code{font-size:.85em;background:var(--card);border:1px solid var(--line);border-radius:3px;padding:0 .2em}
p.refs,p.index{font-size:.85rem;margin:.4rem 0;line-height:1.45}
.topic{white-space:nowrap}
table.appendix td{vertical-align:top}
table.appendix td:nth-child(3),table.appendix td:nth-child(4){white-space:nowrap;color:var(--muted)}
.counts{display:grid;grid-template-columns:repeat(auto-fit,minmax(9rem,1fr));gap:.5rem;margin:0;padding:0}
.counts div{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:.5rem .75rem}
.counts dt{font-size:.8rem;color:var(--muted)}
.counts dd{margin:0;font-size:1.4rem;font-weight:600}
.charts{display:grid;gap:1rem}
.small-multiples{display:grid;grid-template-columns:repeat(auto-fill,minmax(17rem,1fr));gap:1rem}
figure{margin:0;background:var(--card);border:1px solid var(--line);border-radius:6px;padding:.5rem;min-width:0}
figcaption{font-weight:600;font-size:.9rem;margin-bottom:.25rem}
svg.chart{display:block;width:100%;height:auto}
svg text{fill:var(--muted);font-size:13px;font-family:inherit}
svg.wide text{font-size:15px}
@media (max-width:40rem){svg.wide text{font-size:24px}}
svg .value{fill:var(--fg)}
svg .grid{stroke:var(--line);stroke-width:1}
svg .baseline{stroke:var(--fg);stroke-width:2;stroke-dasharray:6 4}
.c-opened{fill:var(--opened)}.c-closed{fill:var(--closed)}.c-merged{fill:var(--merged)}.c-topic{fill:var(--topic)}
.c-none{fill:var(--none);opacity:.5}
.legend{display:flex;flex-wrap:wrap;gap:1rem;font-size:.85rem;margin:.25rem 0;padding:0;list-style:none}
.legend li::before{content:"";display:inline-block;width:.8rem;height:.8rem;margin-right:.3rem;vertical-align:-.1rem}
.legend .l-opened::before{background:var(--opened)}.legend .l-closed::before{background:var(--closed)}
.legend .l-merged::before{background:var(--merged)}
details{margin:.25rem 0}
summary{cursor:pointer}
.table-wrap{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;font-size:.85rem}
th,td{border:1px solid var(--line);padding:.2rem .5rem;text-align:left}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
ol.items,ul.items{padding-left:1.2rem}
ol.items li,ul.items li{margin:.45rem 0}
.badge{display:inline-block;font-size:.75rem;border:1px solid var(--line);border-radius:1rem;padding:0 .5rem;
color:var(--muted)}
.label{font-size:.75rem;background:var(--card);border:1px solid var(--line);border-radius:4px;padding:0 .3rem}
.analysis{margin:.2rem 0 0;font-size:.9rem}
.analysis dt{font-weight:600;display:inline}.analysis dd{display:inline;margin:0}
form.search{display:flex;flex-wrap:wrap;gap:.5rem;margin:1rem 0}
form.search input[type=search]{flex:1 1 12rem;min-width:0;font:inherit;padding:.3rem .5rem;border:1px solid var(--line);
border-radius:4px;background:var(--bg);color:var(--fg)}
form.search button{font:inherit;padding:.3rem .8rem}
.days td{white-space:nowrap}
@media print{:root{--bg:#fff;--fg:#000;--muted:#333;--line:#999;--card:#fff;--link:#000;--none:#ccc}
nav.links,#toc,form.search{display:none}main{max-width:none;padding:0}figure{break-inside:avoid}h2{break-after:avoid}
a{text-decoration:none}}
""".strip()
STYLE_HASH = "sha256-" + base64.b64encode(hashlib.sha256(STYLE.encode("utf-8")).digest()).decode("ascii")


RESULTS_SHOWN = 30  # a search's best items on the page, by group ("…and N more" for the rest)
SECTION_SUMMARIES = 10  # items of a section shown with their summary (the Markdown's 10); the rest, title only


@dataclass(frozen=True, slots=True)
class Chart:
    """One chart as the page shows it: the SVG, and the same figures as a table (the text alternative)."""

    id: str
    title: str
    svg: Markup
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    legend: bool = False


@lru_cache(maxsize=16384)
def _fit(text: str, limit: int | None) -> str:
    return safety.fit(text, limit, str)


def _clip(text: object, limit: int | None = None) -> str:
    """GitHub's (or the LLM's) text as one clean line, cut to ``limit``; autoescape escapes it. Cached: an
    item's title and labels come back in each section and appendix list it is in."""
    return _fit(str(text or ""), limit)


@cache
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("formatters", "templates"),
        undefined=StrictUndefined,
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(clip=_clip, localtime=localtime)
    env.globals.update(item_url=safety.item_url, percent=layout.percent, ratio_text=layout.ratio_text,
                       icon=sections.icon, style=Markup(STYLE))  # a constant of this module: never data
    return env


def _day_label(day: date) -> str:
    return day.strftime("%m-%d")


def _charts(series: ActivitySeries, t: dict[str, Any]) -> list[Chart]:
    r = t["report"]
    found: list[Chart] = []
    for n in (7, 30):
        days = series.days[-n:]
        if not days:
            continue
        synced = [d for d in days if d.synced]
        opened, closed, merged = (sum(getattr(d, name) for d in synced) for name in charts.SERIES)
        busiest: DayCount | None = max(synced, key=lambda d: (d.opened, d.day), default=None)
        if busiest is None or opened + closed + merged == 0:
            desc = r["chart_quiet_desc"].format(n=len(days))
        else:
            desc = r["chart_days_desc"].format(n=len(days), opened=opened, closed=closed, merged=merged,
                                               day=_day_label(busiest.day), most=busiest.opened)
        title = r["chart_days"].format(n=len(days))
        svg = charts.activity_chart(f"chart-days-{n}", days, title, desc, r["not_synced"], r["series"], t["colon"])
        found.append(Chart(
            f"chart-days-{n}", title, svg,
            (r["day"], r["opened"], r["closed"], r["merged"]),
            tuple((_day_label(d.day), *((str(d.opened), str(d.closed), str(d.merged)) if d.synced
                                        else (r["not_synced"],) * 3)) for d in reversed(days)),
            legend=True,
        ))
    return found


def _topic_charts(series: ActivitySeries, t: dict[str, Any]) -> list[Chart]:
    r = t["report"]
    found = []
    for k, topic in enumerate(series.topics):
        days = series.days[-len(topic.counts):] if topic.counts else ()
        title = r["topic_chart"].format(name=_clip(topic.title, 60), n=len(topic.counts))
        values = {"n": len(topic.counts), "total": sum(topic.counts),
                  "today": topic.counts[-1] if topic.counts else 0}
        desc = (r["topic_desc"].format(baseline=f"{topic.baseline:.1f}", **values) if topic.baseline is not None
                else r["topic_desc_new"].format(**values))
        chart_id = f"chart-topic-{k}"
        baseline = "" if topic.baseline is None else f"{topic.baseline:.1f}"
        found.append(Chart(
            chart_id, title, charts.topic_chart(chart_id, topic, days, title, desc),
            (r["day"], r["items"], r["baseline"]),
            tuple((_day_label(day.day), str(count), baseline)
                  for day, count in reversed(list(zip(days, topic.counts, strict=False)))),
        ))
    return found


def _merge_chart(series: ActivitySeries, t: dict[str, Any]) -> Chart | None:
    if not series.merge_buckets:
        return None
    r = t["report"]
    labels = list(r["buckets"])[: len(series.merge_buckets)]
    total = sum(series.merge_buckets)
    title = r["merge_chart"].format(n=series.merge_days)
    if total:
        most = max(range(len(series.merge_buckets)), key=lambda k: (series.merge_buckets[k], -k))
        desc = r["merge_desc"].format(total=total, bucket=labels[most])
    else:
        desc = r["merge_none"]
    return Chart("chart-merge", title, charts.merge_chart("chart-merge", series.merge_buckets, labels, title, desc),
                 (r["took"], r["prs"]), tuple((label, str(count)) for label, count in
                                               zip(labels, series.merge_buckets, strict=False)))


def _item_view(repo: str, t: dict[str, Any]) -> Any:
    seen: dict[int, dict[str, Any]] = {}

    def view(item: DigestItem) -> dict[str, Any]:
        known = seen.get(id(item))
        if known is not None and known["item"] is item:
            return known
        seen[id(item)] = found = {
            "item": item,
            "url": safety.item_url(repo, item),
            "title": _clip(item.title, 300) or t["no_title"],
            "meta": t["item_meta"].format(state=_clip(layout.state_word(item, t), 40),
                                          author=_clip(item.author, 60)),
            "labels": [_clip(label, 50) for label in item.labels[:8]],
        }
        return found

    return view


def render_html(digest: Digest, *, locale: str | None = None, index_url: str | None = None,
                timezone: str | None = None) -> str:
    """The edited digest as a page (``formatters.layout.page``): a table of contents, the summary and the five
    counts, the followed topics, hot discussions, key changes and notable issues (each item's full entry once,
    short in-page links elsewhere), themes, activity with its charts (when ``digest.activity_series`` was
    built) and the other topics, then the appendix last, one collapsed table per list. ``index_url``: the link
    back to the index of days (a report page); topics in the index link to its search."""
    locale = normalise_locale(locale or digest.locale)
    t = strings(locale)
    series = digest.activity_series
    tz = timezone or digest.window.timezone
    page = layout.page(digest)
    view = _item_view(digest.repo, t)
    entries = {entry.number for part in page.parts for entry in part.entries}

    def ref_link(item: DigestItem) -> Markup:
        """A short link: to the item's entry on this page when it has one, else to GitHub."""
        label = f"#{item.number}"
        if item.number in entries:
            return Markup('<a href="#item-{}">{}</a>').format(item.number, label)
        url = safety.item_url(digest.repo, item)
        return Markup('<a href="{}">{}</a>').format(url, label) if url else Markup(label)

    def theme_line(theme: Theme) -> Markup:
        links = Markup(t["list_sep"]).join(ref_link(page.items[n]) for n in theme.items if n in page.items)
        name = Markup("<strong>{}</strong>").format(_clip(layout.theme_name(theme, t), 120))
        marker = "\x00"
        sentence = layout.theme_sentence(theme, t, marker + "N" + marker, marker + "L" + marker)
        pieces = [name if p == "N" else links if p == "L" else Markup.escape(p) for p in sentence.split(marker)]
        return Markup("").join(pieces)

    def summary(text: str) -> Markup:
        """The summary with each item it names linked to that item's entry on this page."""
        pieces = re.split(r"(?<![\w&/])#(\d{1,9})\b", _clip(text, 2000))
        out = [Markup.escape(piece) if k % 2 == 0 else
               (ref_link(page.items[int(piece)]) if int(piece) in page.items else Markup.escape(f"#{piece}"))
               for k, piece in enumerate(pieces)]
        return Markup("").join(out)

    def topic_url(topic: str) -> str | None:
        if not index_url:
            return None
        return index_url + ("&" if "?" in index_url else "?") + urlencode({"q": topic})

    return environment().get_template("html/digest.html.j2").render(
        digest=digest,
        t=t,
        lang=locale,
        tz=tz,
        title=layout.digest_title(digest, t),
        index_url=index_url,
        ed=page,
        view=view,
        stat_keys=STAT_KEYS,
        stats=digest.stats.as_dict(),
        search=lambda key: layout.search_url(digest, key),
        charts=_charts(series, t) if series else [],
        topic_charts=_topic_charts(series, t) if series else [],
        merge_chart=_merge_chart(series, t) if series else None,
        section_name=lambda section: section_title(section, t),
        heading=lambda part: layout.header(part, t, _clip(section_title(part.section, t), 80)),
        badge=lambda entry: layout.badge(entry, t, state=False),
        # the analysis is in full below; the spaces around a code span are kept (escaping trims)
        details=lambda entry: [[(_clip(text, 300) if code else layout.spaced(text, lambda s: _clip(s, 600)), code)
                                for text, code in line] for line in layout.entry_details(entry, t, analysis=False)],
        ref_link=ref_link,
        summary=summary,
        theme_line=theme_line,
        topic_url=topic_url,
        appendix=layout.appendix_groups(digest),
    ).replace("\x00", "")


def _shown_groups(result: QueryResult, t: dict[str, Any]) -> dict[str, Any]:
    """What the page shows of an answer: each result group with items among the best ``RESULTS_SHOWN``
    overall (and those items), the groups with none of them in one line, and the answer's notes."""
    groups, hidden = layout.shown_groups(result.items, RESULTS_SHOWN)
    return {"groups": groups, "hidden": layout.hidden_groups_line(hidden, t),
            "notes": answer_notes(result.notes, locale=t["locale"])}


def render_html_query(result: QueryResult, *, locale: str | None = None) -> str:
    """A query answer as a page of its own (``digest-bot query … --format html``)."""
    locale = normalise_locale(locale or result.locale)
    t = strings(locale)
    return environment().get_template("html/query.html.j2").render(
        t=t, lang=locale, result=result, view=_item_view(result.repo, t), **_shown_groups(result, t),
        tz=result.window.timezone, title=t["query_title"].format(query=_clip(result.query, 100), repo=result.repo),
        suggestion=lambda what: layout.suggestion(what, t),
    )


def render_html_index(index: ReportIndex, *, notice: Notice | None = None) -> str:
    """The index of days (newest first, a sparkline each) with the search box, and the answer to its query
    (or why the query could not be answered) above the days."""
    locale = normalise_locale(index.locale)
    t = strings(locale)
    r = t["report"]
    problem = render_notice(notice, locale=locale, escape=str, platform="cli") if notice is not None else ""
    sparks = [
        charts.sparkline(f"spark-{k}", day.week, r["spark"].format(day=day.counts.day.isoformat(),
                                                                  values=" ".join(map(str, day.week))))
        for k, day in enumerate(index.days)
    ]
    result = index.result
    return environment().get_template("html/index.html.j2").render(
        t=t, lang=locale, index=index, sparks=sparks, problem=problem, result=result,
        **(_shown_groups(result, t) if result else {"groups": [], "hidden": "", "notes": []}),
        view=_item_view(index.repo, t), tz=index.timezone,
        title=r["index_title"].format(repo=index.repo),
        suggestion=lambda what: layout.suggestion(what, t),
    )


def chart_ids(digest: Digest) -> Sequence[str]:
    """The ids of the charts ``render_html`` draws for ``digest`` (tests check each has its alternative)."""
    series = digest.activity_series
    if series is None:
        return ()
    t = strings(digest.locale)
    found = [chart.id for chart in (*_charts(series, t), *_topic_charts(series, t))]
    merge = _merge_chart(series, t)
    return [*found, *([merge.id] if merge else [])]
