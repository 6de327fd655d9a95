"""The one web application of ``digest-bot serve``: platforms, health (and later webhooks and report pages)
contribute routes; nothing else owns an HTTP server.

``/healthz`` answers ``{"status": "ok"}`` (or ``"degraded"``, with 503) to anyone; the details (last syncs,
channels, pending deliveries, errors) only to ``Authorization: Bearer $HEALTH_TOKEN`` or to a loopback client
that did not come through a proxy. Malformed request bodies get a 400 before any route sees them, but for a route
marked ``reads_own_body`` (GitHub's webhook: its signature is checked over the raw bytes first, then its size and
its JSON, ``bot/platforms/github_webhooks.py``).
"""

from __future__ import annotations

import asyncio
import codecs
import hmac
import ipaddress
import json
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any
from urllib.parse import parse_qs

from aiohttp import web

from bot.redact import redact
from bot.store.store import Store

Health = Callable[[], Awaitable[dict[str, Any]]]
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

_log = logging.getLogger(__name__)

# Headers a proxy adds: a loopback peer that sent one is a proxy speaking for someone else.
_PROXY_HEADERS = ("Forwarded", "X-Forwarded-For", "X-Real-IP")
_JSON_TYPES = ("application/json",)
_OWN_BODY = "_digest_bot_reads_own_body"


def reads_own_body(handler: Handler) -> Handler:
    """Mark a route's handler as reading and checking its own body: ``reject_malformed`` neither reads nor parses
    it first (so the route can refuse an unsigned request before anything is parsed, and read more than
    aiohttp's ``client_max_size`` from the stream)."""
    setattr(handler, _OWN_BODY, True)
    return handler


def web_app(routes: Iterable[web.RouteDef], health: Health, *, health_token: str | None = None) -> web.Application:
    async def healthz(request: web.Request) -> web.Response:
        try:
            details = await health()
        except Exception as err:  # the store is unreachable: say so, without a traceback to strangers
            _log.warning("health check failed: %s", err)
            return web.json_response({"status": "degraded"}, status=503)
        status = "ok" if details.get("ok", True) else "degraded"
        if not _may_see_details(request, health_token):
            return web.json_response({"status": status}, status=200 if status == "ok" else 503)
        # Today's payload, unchanged in shape; redacted again: an error stored by an older digest-bot may predate
        # redaction.
        body = redact(json.dumps(details, default=str))
        return web.Response(text=body, content_type="application/json", status=200 if status == "ok" else 503)

    application = web.Application(middlewares=[reject_malformed])
    application.add_routes([*routes, web.get("/healthz", healthz)])
    return application


def _may_see_details(request: web.Request, token: str | None) -> bool:
    given = request.headers.get("Authorization", "")
    if token and given.startswith("Bearer "):
        # Constant time: the comparison must not tell a prober how much of the token was right.
        return hmac.compare_digest(given.removeprefix("Bearer ").strip().encode(), token.encode())
    if any(name in request.headers for name in _PROXY_HEADERS):
        return False
    try:
        return ipaddress.ip_address(request.remote or "").is_loopback
    except ValueError:  # a unix socket or an unknown peer
        return False


@web.middleware
async def reject_malformed(request: web.Request, handler: Handler) -> web.StreamResponse:
    """400 for what no route can use: an unknown charset, bytes that do not decode, a JSON body (or Slack's
    form ``payload``) that does not parse, a non-numeric ``X-Slack-Request-Timestamp``. Without this they
    raise deep inside a platform SDK (bolt decodes and parses before checking the signature): a 500 and a
    logged traceback for anyone who can send garbage. Well-formed requests pass untouched (aiohttp keeps the
    body it read for the handler). Routes marked ``reads_own_body`` are left to check their own."""
    if getattr(request.match_info.handler, _OWN_BODY, False):
        return await handler(request)
    problem = await _malformed(request)
    if problem is not None:
        _log.info("rejected a malformed request to %s: %s", request.path, problem)
        return web.json_response({"error": problem}, status=400)
    return await handler(request)


async def _malformed(request: web.Request) -> str | None:
    timestamp = request.headers.get("X-Slack-Request-Timestamp")
    if timestamp is not None and not timestamp.strip().isdigit():
        return "X-Slack-Request-Timestamp is not a number"
    if not request.body_exists:
        return None
    charset = request.charset or "utf-8"
    try:
        codecs.lookup(charset)
    except LookupError:
        return f"unknown charset {charset[:40]!r}"
    try:
        text = (await request.read()).decode(charset)
    except UnicodeDecodeError:
        return f"the body is not valid {charset}"
    except web.HTTPException:
        raise  # too large: aiohttp's own 413
    # The same rules as bolt's parser: JSON when declared or when the body starts with "{"; a form's
    # ``payload`` field (Slack's interactive requests) is JSON too. Platforms send objects, never bare values.
    if request.content_type in _JSON_TYPES or text.startswith("{"):
        documents = [text]
    else:
        documents = parse_qs(text).get("payload", [])
    for document in documents:
        try:
            parsed = json.loads(document)
        except ValueError:
            return "the body is not valid JSON"
        if not isinstance(parsed, dict):
            return "the body is not a JSON object"
    return None


def store_health(store: Store) -> Health:
    async def report() -> dict[str, Any]:
        from bot.scheduler import delivery_status

        def read() -> dict[str, Any]:
            return {"ok": True, **delivery_status(store)}

        return await asyncio.to_thread(read)

    return report
