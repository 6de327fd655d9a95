"""The one web app: /healthz for strangers vs operators, malformed requests in front of bolt, where serve binds."""

from __future__ import annotations

import logging
import shutil
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from slack_sdk.signature import SignatureVerifier

from bot.app.service import DigestService
from bot.cli import build_parser
from bot.platforms.runtime import default_host
from bot.platforms.slack_app import build_app, default_deps, slack_routes
from bot.platforms.web import web_app
from bot.settings import load_settings
from bot.store.store import Store
from tests.fakes.slack_api import FakeSlack

ROOT = Path(__file__).resolve().parents[1]
SECRET = "0b7f0c6a2d5e4f1a9c8b7a6d5e4f3a2b"
TOKEN = "health-6f1e2d3c4b5a"
DETAILS = {"ok": True, "last_post": {"slack:C0SECRET": "2025-12-01T03:05:00Z"},
           "pending": [{"target": "U0SUBSCRIBER", "claimed_by": "4242@host/abc", "last_error": "boom"}]}


@web.middleware
async def peer(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
               ) -> web.StreamResponse:
    """Tests run on 127.0.0.1; ``X-Test-Peer`` makes the app see another client address (as a real remote)."""
    address = request.headers.get("X-Test-Peer")
    return await handler(request.clone(remote=address) if address else request)


def health_app(details: dict[str, Any] | None = DETAILS, *, token: str | None = TOKEN) -> web.Application:
    async def health() -> dict[str, Any]:
        if details is None:
            raise RuntimeError("could not connect to server at postgresql://bot:pw@db")
        return details

    app = web_app([], health, health_token=token)
    app.middlewares.insert(0, peer)
    return app


async def get_health(app: web.Application, **headers: str) -> tuple[int, dict[str, Any]]:
    async with TestClient(TestServer(app, host="127.0.0.1")) as client:
        response = await client.get("/healthz", headers=headers)
        return response.status, await response.json()


async def test_strangers_get_only_the_status() -> None:
    assert await get_health(health_app(), **{"X-Test-Peer": "203.0.113.7"}) == (200, {"status": "ok"})


@pytest.mark.parametrize("authorization", ["Bearer wrong", f"Bearer {TOKEN}x", f"Basic {TOKEN}", TOKEN, "Bearer "])
async def test_a_wrong_token_gets_only_the_status(authorization: str) -> None:
    status, body = await get_health(health_app(), **{"X-Test-Peer": "203.0.113.7", "Authorization": authorization})
    assert (status, body) == (200, {"status": "ok"})


async def test_no_token_configured_means_no_bearer_access() -> None:
    assert await get_health(health_app(token=None), **{"X-Test-Peer": "203.0.113.7", "Authorization": "Bearer "}
                            ) == (200, {"status": "ok"})


async def test_the_health_token_shows_the_details() -> None:
    status, body = await get_health(health_app(),
                                    **{"X-Test-Peer": "203.0.113.7", "Authorization": f"Bearer {TOKEN}"})
    assert status == 200 and body == DETAILS


@pytest.mark.parametrize("address", ["127.0.0.1", "::1"])
async def test_a_loopback_client_sees_the_details(address: str) -> None:
    status, body = await get_health(health_app(), **{"X-Test-Peer": address})
    assert (status, body) == (200, DETAILS)


@pytest.mark.parametrize("header", ["X-Forwarded-For", "Forwarded", "X-Real-IP"])
async def test_a_proxy_on_loopback_is_not_a_local_client(header: str) -> None:
    # nginx on the same host connects from 127.0.0.1 on behalf of the whole internet.
    assert await get_health(health_app(), **{header: "203.0.113.7"}) == (200, {"status": "ok"})


async def test_an_unreadable_store_is_degraded_without_a_traceback(caplog: pytest.LogCaptureFixture) -> None:
    assert await get_health(health_app(None), **{"X-Test-Peer": "203.0.113.7"}) == (503, {"status": "degraded"})
    assert "Traceback" not in caplog.text and not any(r.exc_info for r in caplog.records)


async def test_not_ok_details_are_degraded_for_everyone() -> None:
    app = health_app({"ok": False, "pending": []})
    assert await get_health(app, **{"X-Test-Peer": "203.0.113.7"}) == (503, {"status": "degraded"})
    assert await get_health(app) == (503, {"ok": False, "pending": []})


# --- malformed requests in front of bolt ---


@pytest.fixture
async def slack_server(tmp_path: Path, sqlite_store: Store) -> AsyncIterator[TestServer]:
    shutil.copy(ROOT / "config" / "topics.toml", tmp_path)
    (tmp_path / "digest.toml").write_text('[[repos]]\nname = "o/r"\n')
    settings = load_settings(tmp_path, env={})
    fake = FakeSlack()
    with fake.serve() as base_url:
        app, _ = build_app(default_deps(DigestService(sqlite_store, settings)), token="xoxb-test",
                           signing_secret=SECRET, api_url=base_url + "/api/")

        async def health() -> dict[str, Any]:
            return {"ok": True}

        server = TestServer(web_app(slack_routes(app), health), host="127.0.0.1")
        await server.start_server()
        try:
            yield server
        finally:
            await server.close()


def signed(body: bytes, *, timestamp: str | None = None) -> dict[str, str]:
    timestamp = timestamp or str(int(time.time()))
    signature = SignatureVerifier(SECRET).generate_signature(timestamp=timestamp, body=body.decode("latin-1"))
    return {"X-Slack-Request-Timestamp": timestamp, "X-Slack-Signature": signature}


FORM = "application/x-www-form-urlencoded"
MALFORMED: list[tuple[str, bytes, dict[str, str]]] = [
    ("invalid UTF-8", b"command=/digest&text=\xff\xfe\xc3", {"Content-Type": FORM}),
    ("unknown charset", b"command=/digest&text=hi", {"Content-Type": f"{FORM}; charset=x-no-such-charset"}),
    ("garbage JSON", b'{"type": "url_verification", ', {"Content-Type": "application/json"}),
    ("JSON by its first byte", b"{garbage", {"Content-Type": FORM}),
    ("a JSON array", b"[1, 2]", {"Content-Type": "application/json"}),
    ("garbage payload", b"payload=%7Bnot+json", {"Content-Type": FORM}),
    ("a payload that is no object", b"payload=%5B1%5D", {"Content-Type": FORM}),
    ("non-numeric timestamp", b"command=/digest&text=hi",
     {"Content-Type": FORM, "X-Slack-Request-Timestamp": "soon", "X-Slack-Signature": "v0=00"}),
]


@pytest.mark.parametrize(("name", "body", "headers"), MALFORMED, ids=[m[0] for m in MALFORMED])
@pytest.mark.parametrize("signature", ["unsigned", "signed"])
async def test_malformed_requests_get_400_without_a_traceback(
    slack_server: TestServer, caplog: pytest.LogCaptureFixture, name: str, body: bytes, headers: dict[str, str],
    signature: str,
) -> None:
    if signature == "signed":
        headers = {**signed(body), **headers}  # correctly signed garbage is still garbage
    with caplog.at_level(logging.DEBUG):
        async with aiohttp.ClientSession() as session:
            response = await session.post(slack_server.make_url("/slack/events"), data=body, headers=headers)
            assert response.status == 400, await response.text()
            assert "error" in await response.json()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info], caplog.text
    assert "Traceback" not in caplog.text


async def test_well_formed_requests_reach_bolt(slack_server: TestServer) -> None:
    body = b'{"type": "url_verification", "challenge": "c-123", "token": "t"}'
    async with aiohttp.ClientSession() as session:
        url = slack_server.make_url("/slack/events")
        answer = await session.post(url, data=body, headers={"Content-Type": "application/json", **signed(body)})
        assert (answer.status, await answer.json()) == (200, {"challenge": "c-123"})
        unsigned = await session.post(url, data=body, headers={"Content-Type": "application/json"})
        assert unsigned.status == 401  # bolt's signature check, unchanged
        latin = "command=/digest&text=caf\xe9".encode("latin-1")  # a declared charset is honoured
        stale = await session.post(url, data=latin, headers={"Content-Type": f"{FORM}; charset=latin-1",
                                                              **signed(latin, timestamp="1000")})
        assert stale.status == 401  # reached bolt, which refuses a five-minute-old timestamp


# --- where serve binds ---


@pytest.mark.parametrize(("env", "files", "host"), [
    ({}, (), "127.0.0.1"),
    ({"HOST": "::1"}, ("/.dockerenv",), "::1"),  # HOST wins
    ({}, ("/.dockerenv",), "0.0.0.0"),
    ({}, ("/run/.containerenv",), "0.0.0.0"),
    ({"container": "podman"}, (), "0.0.0.0"),
    ({"KUBERNETES_SERVICE_HOST": "10.0.0.1"}, (), "0.0.0.0"),
    ({"PORT": "5000", "DYNO": "web.1"}, (), "0.0.0.0"),  # Heroku
    ({"PORT": "10000"}, (), "0.0.0.0"),  # any PaaS that hands out $PORT
    ({"HOST": ""}, (), "127.0.0.1"),
])
def test_default_host(env: dict[str, str], files: tuple[str, ...], host: str) -> None:
    assert default_host(env, exists=lambda path: path in files) == host


def test_serve_host_flag_is_optional_and_procfile_binds_publicly() -> None:
    assert build_parser().parse_args(["serve"]).host is None
    assert build_parser().parse_args(["serve", "--host", "0.0.0.0"]).host == "0.0.0.0"
    assert "web: digest-bot serve --host 0.0.0.0" in (ROOT / "Procfile").read_text().splitlines()
