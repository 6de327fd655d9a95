"""``POST /github/webhook`` in the web process (registered only when ``GITHUB_WEBHOOK_SECRET`` is set).

The checks, in this order, each answering before the next reads more:

1. ``X-Hub-Signature-256``: missing or not a ``sha256=<hex>`` value -> 401, nothing read. Otherwise the body is
   read from the stream once, into one buffer, with the HMAC computed chunk by chunk as it arrives, and a body
   whose signature does not match -> 401: nothing parsed, nothing stored.
2. The size: up to ``MAX_BODY`` (25 MiB, GitHub's cap on a delivery; aiohttp's 1 MiB ``client_max_size`` does
   not apply, the stream is read here). A ``Content-Length`` over it -> 413 before anything is read; a stream
   that passes it -> 413 as soon as it does (its signature unchecked: it cannot be GitHub's).
3. The headers (``X-GitHub-Event``, ``X-GitHub-Delivery``) and the body: empty, not UTF-8, not JSON or not a
   JSON object -> 400, nothing stored.

A signed, well-formed delivery is recorded, then applied (``bot/github/webhooks.py``) in a thread, so the event
loop keeps answering. GitHub waits at most 10 s for an answer: a delivery that could be recorded is acknowledged
(202 when applying it failed: the worker retries it), one that could not be (the store is down) gets a 503 so
GitHub shows it failed and it can be redelivered.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import re
from urllib.parse import parse_qs

from aiohttp import web

from bot.github.webhooks import DUPLICATE, UnreadableBody, WebhookApplier
from bot.platforms.web import reads_own_body
from bot.store.webhooks import FAILED

_log = logging.getLogger(__name__)

PATH = "/github/webhook"
MAX_BODY = 25 * 1024 * 1024  # GitHub does not deliver a payload over 25 MB
_CHUNK = 256 * 1024
_SIGNATURE = re.compile(r"sha256=[0-9a-fA-F]{64}")


def webhook_routes(applier: WebhookApplier, secret: str, *, max_body: int = MAX_BODY) -> list[web.RouteDef]:
    key = secret.encode("utf-8")

    @reads_own_body
    async def receive(request: web.Request) -> web.StreamResponse:
        header = request.headers.get("X-Hub-Signature-256", "").strip()
        if not key or not _SIGNATURE.fullmatch(header):
            return _refused("a missing or malformed signature")
        declared = request.content_length
        if declared is not None and declared > max_body:
            return _too_large(declared, max_body)
        body = await _read(request, key, max_body)
        if isinstance(body, web.StreamResponse):
            return body
        raw, mac = body
        if not hmac.compare_digest(mac.encode("ascii"), header.lower().encode("ascii")):  # constant time
            return _refused("a wrong signature")
        event = request.headers.get("X-GitHub-Event", "").strip()
        delivery = request.headers.get("X-GitHub-Delivery", "").strip()
        if not event or not delivery:
            return _bad(delivery, event, "X-GitHub-Event and X-GitHub-Delivery are required")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return _bad(delivery, event, "the body is not UTF-8")
        del raw, body  # the text is the one copy kept from here on
        if request.content_type == "application/x-www-form-urlencoded":  # a hook set to send forms: payload=<json>
            text = (parse_qs(text).get("payload") or [""])[0]
        try:
            outcome = await asyncio.to_thread(applier.receive, delivery, event, text)
        except UnreadableBody as err:
            return _bad(delivery, event, str(err))
        except Exception as err:
            _log.warning("webhook %s (%s) could not be recorded: %s", delivery, event, err)
            return web.json_response({"error": "not recorded; redeliver it"}, status=503)
        status = 202 if outcome.status == FAILED else 200
        if outcome.status not in (DUPLICATE, "pong"):
            _log.info("webhook %s %s: %s %s", delivery, event, outcome.status, outcome.detail)
        return web.json_response({"status": outcome.status}, status=status)

    return [web.post(PATH, receive)]


async def _read(request: web.Request, key: bytes, limit: int) -> tuple[bytearray, str] | web.StreamResponse:
    """The body, read from the stream into one buffer (allocated at ``Content-Length`` when there is one, so it is
    never copied to grow), and its ``sha256=<hex>`` signature, computed as it arrives; a 413 once it passes
    ``limit``."""
    mac = hmac.new(key, digestmod=hashlib.sha256)
    declared = request.content_length
    if declared is None:  # chunked: grow as it comes
        buffer = bytearray()
        async for chunk in request.content.iter_chunked(_CHUNK):
            if len(buffer) + len(chunk) > limit:
                return _too_large(len(buffer) + len(chunk), limit)
            mac.update(chunk)
            buffer += chunk
        return buffer, "sha256=" + mac.hexdigest()
    buffer, size = bytearray(declared), 0
    with memoryview(buffer) as view:
        async for chunk in request.content.iter_chunked(_CHUNK):  # aiohttp stops at Content-Length
            end = size + len(chunk)
            mac.update(chunk)
            view[size:end] = chunk
            size = end
    del buffer[size:]
    return buffer, "sha256=" + mac.hexdigest()


def _refused(why: str) -> web.Response:
    _log.info("refused a webhook delivery with %s", why)
    response = web.json_response({"error": "bad signature"}, status=401)
    response.force_close()
    return response


def _too_large(size: int, limit: int) -> web.Response:
    _log.info("refused a webhook delivery of %d bytes or more: over %d", size, limit)
    response = web.json_response({"error": f"the body is over {limit} bytes"}, status=413)
    response.force_close()
    return response


def _bad(delivery: str, event: str, why: str) -> web.Response:
    _log.info("refused webhook %s (%s): %s", delivery[:64] or "without an id", event[:40] or "no event", why)
    return web.json_response({"error": why}, status=400)
