"""Inline SVG charts for the report page, written by hand (docs/charts.md compares pygal, leather and
matplotlib: none gives an accessible, script-free, theme-following SVG as small as this).

Every chart is ``<svg role="img">`` labelled by its own ``<title>`` and ``<desc>`` (a one-sentence summary); the
page puts a data table beside it in ``<details>``. Colours are CSS classes (``c-opened`` …) that the page's
stylesheet maps to custom properties, so light, dark and print each get their own palette; no ``style``
attribute anywhere (the page's CSP allows its one stylesheet by hash). Text inside is escaped here: every label
may be a topic name from configuration.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from markupsafe import Markup

from bot.model import DayCount, TopicSeries

SERIES = ("opened", "closed", "merged")


def _n(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _frame(chart_id: str, title: str, desc: str, width: int, height: int, body: list[str],
           wide: bool = False) -> Markup:
    """``wide``: drawn 720 units across, so on a phone its text is set larger (the page's CSS) to stay legible."""
    return Markup(
        f'<svg class="chart{" wide" if wide else ""}" id="{chart_id}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-labelledby="{chart_id}-t {chart_id}-d" preserveAspectRatio="xMidYMid meet" '
        f'xmlns="http://www.w3.org/2000/svg">'
        f'<title id="{chart_id}-t">{escape(title)}</title><desc id="{chart_id}-d">{escape(desc)}</desc>'
        + "".join(body) + "</svg>"
    )


def _scale_top(top: float) -> float:
    """A round axis maximum at or above ``top`` (1, 2, 2.5, 3, 4, 5, 6, 8 x 10^k): gridlines at it and its half
    land on readable numbers, and the tallest bar fills most of the height."""
    if top <= 0:
        return 1
    step = 1.0
    while step * 10 <= top:
        step *= 10
    for factor in (1, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if step * factor >= top:
            return step * factor
    return step * 10


def _axis(top: float, left: int, right: int, y0: int, height: int) -> list[str]:
    parts = []
    for fraction in (0, 0.5, 1):
        y = y0 - fraction * height
        parts.append(f'<line class="grid" x1="{left}" x2="{right}" y1="{_n(y)}" y2="{_n(y)}"/>')
        parts.append(f'<text class="tick" x="{left - 6}" y="{_n(y + 4)}" text-anchor="end">{_n(top * fraction)}</text>')
    return parts


def activity_chart(chart_id: str, days: Sequence[DayCount], title: str, desc: str, not_synced: str,
                   names: Mapping[str, str], colon: str = ": ") -> Markup:
    """Opened / closed / merged per day as grouped bars, one group a day, oldest on the left. A day the store
    never synced shows as a hatched gap labelled ``not_synced``, not as a quiet day."""
    width, height, left, right, top_pad, bottom = 720, 276, 58, 692, 20, 242
    plot_h = bottom - top_pad
    top = _scale_top(max((max(d.opened, d.closed, d.merged) for d in days if d.synced), default=0))
    body = _axis(top, left, right, bottom, plot_h)
    slot = (right - left) / max(len(days), 1)
    bar = slot * 0.8 / len(SERIES)
    every = 1 if len(days) <= 10 else 5
    for k, day in enumerate(days):
        x0 = left + k * slot + slot * 0.1
        label = day.day.strftime("%m-%d")
        if not day.synced:
            body.append(f'<rect class="c-none" x="{_n(x0)}" y="{top_pad}" width="{_n(slot * 0.8)}" '
                        f'height="{plot_h}"><title>{escape(label)}: {escape(not_synced)}</title></rect>')
        else:
            for j, name in enumerate(SERIES):
                value = getattr(day, name)
                h = plot_h * value / top
                body.append(
                    f'<rect class="c-{name}" x="{_n(x0 + j * bar)}" y="{_n(bottom - h)}" width="{_n(bar)}" '
                    f'height="{_n(h)}"><title>{escape(label)} {escape(names[name])}{colon}{value}</title></rect>'
                )
        if (len(days) - 1 - k) % every == 0:
            body.append(f'<text class="tick" x="{_n(x0 + slot * 0.4)}" y="{bottom + 22}" '
                        f'text-anchor="middle">{escape(label)}</text>')
    return _frame(chart_id, title, desc, width, height, body, wide=True)


def topic_chart(chart_id: str, series: TopicSeries, days: Sequence[DayCount], title: str, desc: str) -> Markup:
    """A topic's items per day as bars, its baseline a dashed line across (none without one)."""
    width, height, left, right, top_pad, bottom = 360, 150, 34, 352, 10, 124
    plot_h = bottom - top_pad
    counts = series.counts
    top = _scale_top(max([*counts, series.baseline or 0], default=0))
    body = _axis(top, left, right, bottom, plot_h)
    slot = (right - left) / max(len(counts), 1)
    labels = [day.day.strftime("%m-%d") for day in days[-len(counts):]] if counts else []
    for k, value in enumerate(counts):
        h = plot_h * value / top
        label = labels[k] if k < len(labels) else str(k)
        body.append(f'<rect class="c-topic" x="{_n(left + k * slot + slot * 0.15)}" y="{_n(bottom - h)}" '
                    f'width="{_n(slot * 0.7)}" height="{_n(h)}"><title>{escape(label)}: {value}</title></rect>')
    if labels:
        for k in (0, len(labels) - 1):
            body.append(f'<text class="tick" x="{_n(left + k * slot + slot / 2)}" y="{bottom + 18}" '
                        f'text-anchor="middle">{escape(labels[k])}</text>')
    if series.baseline is not None:
        y = bottom - plot_h * series.baseline / top
        body.append(f'<line class="baseline" x1="{left}" x2="{right}" y1="{_n(y)}" y2="{_n(y)}"/>')
    return _frame(chart_id, title, desc, width, height, body)


def merge_chart(chart_id: str, buckets: Sequence[int], labels: Sequence[str], title: str, desc: str) -> Markup:
    """Time to merge as horizontal bars, fastest bucket on top, each labelled with its count."""
    row, left, right, top_pad = 34, 190, 660, 6
    width, height = 720, top_pad * 2 + row * len(buckets)
    top = max(max(buckets, default=0), 1)
    body = []
    for k, (count, label) in enumerate(zip(buckets, labels, strict=False)):
        y = top_pad + k * row
        w = (right - left) * count / top
        body.append(f'<text class="tick" x="{left - 8}" y="{y + 22}" text-anchor="end">{escape(label)}</text>')
        body.append(f'<rect class="c-merged" x="{left}" y="{y + 5}" width="{_n(w)}" height="{row - 10}">'
                    f'<title>{escape(label)}: {count}</title></rect>')
        body.append(f'<text class="value" x="{_n(left + w + 6)}" y="{y + 22}">{count}</text>')
    return _frame(chart_id, title, desc, width, height, body, wide=True)


def sparkline(chart_id: str, values: Sequence[int], label: str) -> Markup:
    """A row's 7-day sparkline: bars from zero (a quiet week looks quiet), labelled for screen readers."""
    width, height = 70, 20
    top = max(max(values, default=0), 1)
    slot = width / max(len(values), 1)
    bars = [
        f'<rect class="c-opened" x="{_n(k * slot + 1)}" y="{_n(height - max(height * v / top, 1))}" '
        f'width="{_n(slot - 2)}" height="{_n(max(height * v / top, 1))}"/>'
        for k, v in enumerate(values)
    ]
    return Markup(
        f'<svg class="spark" id="{chart_id}" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{escape(label)}</title>" + "".join(bars) + "</svg>"
    )
