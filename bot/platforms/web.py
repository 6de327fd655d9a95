"""The one web application of ``digest-bot serve``: platforms, health (and later webhooks and report pages)
contribute routes; nothing else owns an HTTP server."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from aiohttp import web

from bot.store.store import Store

Health = Callable[[], Awaitable[dict[str, Any]]]


def web_app(routes: Iterable[web.RouteDef], health: Health) -> web.Application:
    async def healthz(_: web.Request) -> web.Response:
        return web.json_response(await health())

    application = web.Application()
    application.add_routes([*routes, web.get("/healthz", healthz)])
    return application


def store_health(store: Store) -> Health:
    async def report() -> dict[str, Any]:
        from bot.scheduler import delivery_status

        def read() -> dict[str, Any]:
            return {"ok": True, **delivery_status(store)}

        return await asyncio.to_thread(read)

    return report
