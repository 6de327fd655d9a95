"""``POST /github/webhook`` in the web process (registered only when ``GITHUB_WEBHOOK_SECRET`` is set).

Unsigned or wrongly signed requests get a 401 before anything is read from the body; a signed delivery is
recorded, then applied (``bot/github/webhooks.py``) in a thread, so the event loop keeps answering. GitHub
waits at most 10 s for an answer: a delivery that could be recorded is acknowledged (202 when applying it
failed: the worker retries it), one that could not be (the store is down) gets a 503 so GitHub shows it failed
and it can be redelivered.
"""

from __future__ import annotations

import asyncio
import logging
from urllib.parse import parse_qs

from aiohttp import web

from bot.github.webhooks import DUPLICATE, WebhookApplier, verify
from bot.store.webhooks import FAILED

_log = logging.getLogger(__name__)

PATH = "/github/webhook"


def webhook_routes(applier: WebhookApplier, secret: str) -> list[web.RouteDef]:
    async def receive(request: web.Request) -> web.Response:
        body = await request.read()
        if not verify(secret, body, request.headers.get("X-Hub-Signature-256")):
            _log.info("refused a webhook delivery with a missing or wrong signature")
            return web.json_response({"error": "bad signature"}, status=401)
        event = request.headers.get("X-GitHub-Event", "").strip()
        delivery = request.headers.get("X-GitHub-Delivery", "").strip()
        if not event or not delivery:
            return web.json_response({"error": "X-GitHub-Event and X-GitHub-Delivery are required"}, status=400)
        if request.content_type == "application/x-www-form-urlencoded":  # a hook set to send forms: payload=<json>
            body = (parse_qs(body.decode("utf-8", "replace")).get("payload") or [""])[0].encode("utf-8")
        try:
            outcome = await asyncio.to_thread(applier.receive, delivery, event, body)
        except Exception as err:
            _log.warning("webhook %s (%s) could not be recorded: %s", delivery, event, err)
            return web.json_response({"error": "not recorded; redeliver it"}, status=503)
        status = 202 if outcome.status == FAILED else 200
        if outcome.status not in (DUPLICATE, "pong"):
            _log.info("webhook %s %s: %s %s", delivery, event, outcome.status, outcome.detail)
        return web.json_response({"status": outcome.status}, status=status)

    return [web.post(PATH, receive)]
