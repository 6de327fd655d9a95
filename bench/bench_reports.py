"""The report page: building it against the JSON digest of the same window, its size, and serving it cached.

    python -m bench.bench_reports               # the bench_sync sample: 60 days, ~23k items, ~108k comments
    python -m bench.bench_reports --quick       # a small smoke run

1. Build: ``DigestService.build_digest(..., series=True)`` + ``render_html`` (what ``/reports/<repo>/<day>``
   does on a cache miss) against ``build_digest`` + ``render_json`` (``digest-bot digest --format json``),
   interleaved in one process. Target: median(page) / median(JSON) <= 1.5.
2. Size: the page's bytes, gzip'd bytes (what aiohttp sends to a browser), and the JSON's for scale.
3. Serving: requests/s of the cached page through the report route (signature check, repository check, ETag
   cache) against the same bytes as a static file (``web.FileResponse``) on the same aiohttp server, the same
   client and concurrency, batches interleaved. Reported as a ratio (no target: the report route also checks
   access and reads the store's last sync time on every request).
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
from aiohttp import web

from bench.bench_digest import compare, interleave
from bench.common import (
    END,
    REPO,
    SampleSpec,
    Summary,
    add_sample_args,
    bench_settings,
    cached_store,
    print_machine,
    print_table,
    profile_top,
    sample_spec,
    sqlite_url,
    use_quick_sample,
    verdict,
)
from bot.app.links import day_path
from bot.app.service import DigestService
from bot.digest.window import default_window
from bot.platforms.reports import ReportRoutes
from bot.platforms.web import web_app
from bot.store.store import Store
from formatters.html import render_html
from formatters.json_format import render_json

FULL = SampleSpec(days=60, items_per_day=340, comments_per_day=1700)
QUICK = SampleSpec(days=10, items_per_day=120, comments_per_day=500)
TARGET = 1.5
SECRET = "bench-reports-secret-0123456789"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_sample_args(parser, FULL)
    parser.add_argument("--runs", type=int, default=10, help="timed builds of each side (interleaved)")
    parser.add_argument("--requests", type=int, default=2000, help="requests per side for the serving figure")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--quick", action="store_true", help=f"small smoke run ({QUICK.label()})")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of one page build")
    args = parser.parse_args(argv)
    if args.quick:
        use_quick_sample(args, QUICK)
        args.runs, args.requests = 3, 400
    return args


async def hammer(session: aiohttp.ClientSession, url: str, total: int, concurrency: int) -> float:
    """Seconds for ``total`` GETs of ``url`` (each body read whole), ``concurrency`` at a time."""
    left = total

    async def worker() -> None:
        nonlocal left
        while left > 0:
            left -= 1
            async with session.get(url, headers={"Accept-Encoding": "identity"}) as response:
                assert response.status == 200, response.status
                await response.read()

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return time.perf_counter() - started


async def serve_figures(service: DigestService, day_url: str, static: Path, args: argparse.Namespace
                        ) -> tuple[float, float]:
    async def health() -> dict[str, object]:
        return {"ok": True}

    async def static_file(_: web.Request) -> web.FileResponse:
        return web.FileResponse(static)

    routes = ReportRoutes(service, clock=lambda: END).routes()
    app = web_app([*routes, web.get("/static/page.html", static_file)], health)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    base = f"http://127.0.0.1:{port}"
    try:
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=args.concurrency)) as session:
            async with session.get(base + day_url) as first:  # the cache miss: built once
                assert first.status == 200, await first.text()
            report_times, static_times = [], []
            batch = max(args.requests // 5, 1)
            for k in range(5):
                pair = [(base + day_url, report_times), (base + "/static/page.html", static_times)]
                for url, sink in pair if k % 2 == 0 else reversed(pair):
                    sink.append(batch / await hammer(session, url, batch, args.concurrency))
    finally:
        await runner.cleanup()
    return Summary.of(report_times).p50, Summary.of(static_times).p50


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    print_machine()
    path = cached_store(sample_spec(args))
    env = {"REPORTS_SECRET": SECRET}
    settings = bench_settings().model_copy(update={"reports_secret": env["REPORTS_SECRET"]})
    with Store.open(sqlite_url(path)) as store:
        service = DigestService(store, settings, build_processes=0)
        try:
            window = default_window(END, settings.digest.zone, settings.digest.post_time)
            context = service.default_context(repo=REPO)

            def page() -> str:
                return render_html(service.build_digest(context, window, analyse=False, series=True))

            def json_digest() -> str:
                return render_json(service.build_digest(context, window, analyse=False))

            html, text = page(), json_digest()  # warm-up: page cache, compiled statements, templates
            ours, base = interleave(args.runs, page, json_digest)
            value = compare(f"The report page vs the JSON digest of the same window, {args.runs} interleaved runs:",
                            ("page: build (series) + render_html", ours), ("JSON: build + render_json", base),
                            TARGET)
            body = html.encode("utf-8")
            print("\nSizes of one day's output:")
            print_table(["", "bytes", "gzip"], [
                ["report page (HTML, inline SVG + CSS)", f"{len(body):,}", f"{len(gzip.compress(body)):,}"],
                ["JSON digest", f"{len(text.encode()):,}", f"{len(gzip.compress(text.encode())):,}"],
            ])
            with tempfile.TemporaryDirectory() as folder:
                static = Path(folder) / "page.html"
                static.write_bytes(body)
                day_url = service.links.relative(day_path(REPO, window.end.astimezone(settings.digest.zone).date()),
                                                 now=END)
                report_rps, static_rps = asyncio.run(serve_figures(service, day_url, static, args))
            rate = report_rps / static_rps
            print(f"\nServing the cached page, {args.requests} requests a side in 5 interleaved batches, "
                  f"{args.concurrency} at a time (one process, one client):")
            print_table(["", "requests/s (median batch)"], [
                ["GET /reports/<repo>/<day> (signed, cached)", f"{report_rps:,.0f}"],
                ["the same bytes as a static file (web.FileResponse)", f"{static_rps:,.0f}"],
                ["report / static", f"**{rate:.2f}x**"],
            ])
            if args.profile or value > TARGET:
                print("\ncProfile of one page build:")
                print(profile_top(page))
            print(f"\npage build target <= {TARGET}x: {verdict(value, TARGET)}")
        finally:
            service.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
