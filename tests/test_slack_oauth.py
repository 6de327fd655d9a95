"""Many Slack workspaces: bolt's real OAuth v2 install flow against the fake Slack, tokens encrypted in the bot's
own database (SQLite and PostgreSQL), each workspace's commands, posts and DMs made with its own token, and an
uninstall stopping that workspace's deliveries."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import time
from collections import Counter
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import aiohttp
import pytest
from aiohttp.test_utils import TestServer
from cryptography.fernet import Fernet
from slack_sdk.signature import SignatureVerifier
from sqlalchemy import MetaData, Table, select

from bot.app.service import DigestService
from bot.delivery.alerts import AlertJobs
from bot.delivery.jobs import DeliveryJobs
from bot.errors import UserError
from bot.github.payloads import item_from_payload
from bot.platforms.registry import connect
from bot.platforms.slack_app import SlackDeps, build_app, default_deps, slack_routes
from bot.platforms.slack_oauth import TokenCipher, build_oauth_app, oauth_routes
from bot.platforms.web import web_app
from bot.settings import Settings, load_settings
from bot.store.chat import WORKSPACE_GONE, ChannelSettings
from bot.store.store import Store
from bot.timeutil import utcnow
from tests.factories import issue_payload, slot_before
from tests.fakes.slack_api import Call, FakeSlack
from tests.logwait import LogWaiter

ROOT = Path(__file__).resolve().parents[1]
SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
KEY = Fernet.generate_key().decode()
TOKENS = {"T1": "xoxb-one-1111111111-aaaaaaaaaaaaaaaaaaaaaaaa", "T2": "xoxb-two-2222222222-bbbbbbbbbbbbbbbbbbbbbbbb",
          "T9TK3CUKW": "xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy",  # Slack's documented example
          "ORG": "xoxb-org-3333333333-cccccccccccccccccccccccc"}
GRID = "E12345678"  # the Enterprise Grid organization of Slack's documented oauth.v2.access example
DM_SLOT = slot_before(utcnow() - timedelta(hours=4))  # the daily DMs' time: their window holds the test's items


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    shutil.copy(ROOT / "config" / "topics.toml", tmp_path)
    (tmp_path / "digest.toml").write_text('[[repos]]\nname = "o/r"\n')
    return load_settings(tmp_path, env={})


@pytest.fixture
def filled(store: Store) -> Store:
    now = utcnow()
    items = [issue_payload(n, now - timedelta(hours=n), title=f"[ROCm] MI300X hang {n}", labels=("bug",))
             for n in range(1, 6)]
    store.save_page([item_from_payload("o/r", p, lambda login: False) for p in items])
    for resource in ("issues", "comments"):
        store.complete_listing("o/r", resource, now, [], synced_from=now - timedelta(days=30))
    return store


class Workspaces:
    """The web app of OAuth mode on a test server, a browser's cookie handling, and signed Slack requests."""

    def __init__(self, fake: FakeSlack, server: TestServer, deps: SlackDeps, service: DigestService) -> None:
        self.fake, self.server, self.deps, self.service = fake, server, deps, service
        self.sent = 0

    async def install(self, team: str, *, code: str | None = None, state: str | None = None,
                      enterprise: str | None = None, org_wide: bool = False) -> tuple[int, str]:
        """A person's browser: /slack/install (state cookie) -> Slack (here: a granted code) -> the redirect."""
        code = code or f"code-{team}-{time.monotonic_ns()}"
        self.fake.grant(code, team, TOKENS[team], enterprise=enterprise, org_wide=org_wide)
        async with aiohttp.ClientSession() as browser:
            async with browser.get(self.server.make_url("/slack/install"), allow_redirects=False) as response:
                assert response.status == 200
                page = await response.text()
                cookie = response.headers["Set-Cookie"].split(";", 1)[0]
            authorize = re.search(r'href="(https://slack\.com/oauth/v2/authorize\?[^"]+)"', page)
            assert authorize is not None, page
            query = parse_qs(urlsplit(authorize.group(1).replace("&amp;", "&")).query)
            assert query["client_id"] == [self.fake.client_id] and "chat:write" in query["scope"][0]
            issued = query["state"][0]
            url = self.server.make_url("/slack/oauth_redirect").with_query(code=code, state=state or issued)
            async with browser.get(url, headers={"Cookie": cookie}, allow_redirects=False) as response:
                return response.status, await response.text()

    async def signed(self, body: str, content_type: str) -> aiohttp.ClientResponse:
        timestamp = str(int(time.time()))
        signature = SignatureVerifier(SECRET).generate_signature(timestamp=timestamp, body=body)
        async with aiohttp.ClientSession() as session:
            response = await session.post(self.server.make_url("/slack/events"), data=body, headers={
                "Content-Type": content_type, "X-Slack-Request-Timestamp": timestamp, "X-Slack-Signature": signature})
            await response.read()
            return response

    async def command(self, text: str, *, team: str, channel: str, user: str = "U1",
                      enterprise: str | None = None) -> str:
        self.sent += 1
        name = f"r{self.sent}"
        grid = {"enterprise_id": enterprise, "enterprise_name": f"Org {enterprise}"} if enterprise else {}
        body = urlencode({
            "token": "legacy", "team_id": team, "channel_id": channel, "channel_name": "general", "user_id": user,
            "user_name": "alice", "command": "/digest", "text": text, "api_app_id": "A1",
            "response_url": self.fake.response_url(name), "trigger_id": f"trigger-{self.sent}", **grid,
        })
        response = await self.signed(body, "application/x-www-form-urlencoded")
        assert response.status == 200
        await self.fake.until(lambda calls: any(c.method == f"response:{name}" for c in calls))
        return json.dumps([c.data for c in self.fake.calls if c.method == f"response:{name}"])

    async def event(self, team: str, event: dict[str, Any], *, enterprise: str | None = None) -> int:
        """Send an event and wait until the workspace is paused: bolt acks first and handles it afterwards."""
        grid = {"enterprise_id": enterprise} if enterprise else {}
        body = json.dumps({"token": "legacy", "team_id": team, "api_app_id": "A1", "type": "event_callback",
                           "event_id": f"Ev{time.monotonic_ns()}", "event_time": int(time.time()), "event": event,
                           **grid})
        with LogWaiter("bot.app.channels", f"workspace {team} removed the app") as waiter:
            status = (await self.signed(body, "application/json")).status
            assert await asyncio.to_thread(waiter.seen.wait, 10), "the workspace was never paused"
        return status


@pytest.fixture
async def workspaces(filled: Store, settings: Settings) -> AsyncIterator[Workspaces]:
    fake = FakeSlack()
    with fake.serve() as base_url:
        service = DigestService(filled, settings, build_processes=0)
        app, deps = build_oauth_app(service, client_id=fake.client_id, client_secret=fake.client_secret,
                                    signing_secret=SECRET, encryption_key=KEY, api_url=base_url + "/api/")

        async def health() -> dict[str, Any]:
            return {"ok": True}

        server = TestServer(web_app([*slack_routes(app), *oauth_routes(app)], health), host="127.0.0.1")
        await server.start_server()
        try:
            yield Workspaces(fake, server, deps, service)
        finally:
            await server.close()
            service.close()


def posts(fake: FakeSlack, channel: str) -> list[Call]:
    return [c for c in fake.of("chat.postMessage") if c.data.get("channel") == channel]


def channel(service: DigestService, channel_id: str) -> ChannelSettings:
    stored = service.chat.channel("slack", channel_id)
    assert stored is not None, f"channel {channel_id} has no settings"
    return stored


def bots_table(store: Store) -> Table:
    return Table("slack_bots", MetaData(), autoload_with=store.engine)


async def test_a_second_workspace_installs_through_oauth_and_posts_with_its_own_token(workspaces: Workspaces) -> None:
    fake, service = workspaces.fake, workspaces.service
    for team in ("T1", "T2"):
        status, page = await workspaces.install(team)
        assert status == 200 and "Thank you" in page, page
    exchanges = fake.of("oauth.v2.access")
    assert len(exchanges) == 2  # the code went to SLACK_API_URL (the fake), with the app's credentials

    # Stored in the bot's database, encrypted: no token in clear, and the key gives it back.
    with service.store.engine.connect() as conn:
        rows = {row.team_id: row.bot_token for row in conn.execute(select(bots_table(service.store)))}
    assert set(rows) == {"T1", "T2"}
    for team, stored in rows.items():
        assert TOKENS[team] not in stored and "xoxb" not in stored
        assert TokenCipher(KEY).decrypt(stored) == TOKENS[team]

    # A command from the new workspace is authorized with its own token and answered.
    answer = await workspaces.command("channel repo o/r time 09:00 tz UTC", team="T2", channel="C2")
    assert "Saved" in answer
    await workspaces.command("channel repo o/r time 09:00 tz UTC", team="T1", channel="C1")
    await workspaces.command(f"subscribe rocm at {DM_SLOT} tz UTC", team="T2", channel="C2", user="U2")
    assert channel(service, "C2").team_id == "T2"
    # auth.test: once per install, then once per workspace for bolt's authorize (cached by token after that)
    assert Counter(fake.team_of(c) for c in fake.of("auth.test")) == {"T1": 2, "T2": 2}

    # The scheduled posts and the DM: each with its workspace's token, seen at the fake.
    jobs = DeliveryJobs(service, {"slack": workspaces.deps.messenger})
    assert await jobs.post_channel("slack", "C2") == "sent"
    assert await jobs.post_channel("slack", "C1") == "sent"
    result = await jobs.send_slot(DM_SLOT, "UTC", now=utcnow() + timedelta(days=1))  # the first DM is tomorrow's
    assert result.sent == 1
    assert posts(fake, "C2") and {fake.token_of(c) for c in posts(fake, "C2")} == {TOKENS["T2"]}
    assert posts(fake, "C1") and {fake.token_of(c) for c in posts(fake, "C1")} == {TOKENS["T1"]}
    opened = fake.of("conversations.open")
    assert [c.data["users"] for c in opened] == ["U2"] and fake.token_of(opened[0]) == TOKENS["T2"]
    assert {fake.token_of(c) for c in posts(fake, "DU2")} == {TOKENS["T2"]}


async def test_a_post_in_a_channel_nobody_configured_uses_the_workspace_it_was_asked_from(
        workspaces: Workspaces) -> None:
    fake = workspaces.fake
    await workspaces.install("T1")
    await workspaces.install("T2")
    await workspaces.command("post", team="T2", channel="C9")
    assert workspaces.service.chat.channel("slack", "C9") is None  # not configured: found through the post's row
    assert posts(fake, "C9") and {fake.token_of(c) for c in posts(fake, "C9")} == {TOKENS["T2"]}


async def test_uninstall_removes_the_tokens_and_stops_the_workspace_deliveries(workspaces: Workspaces) -> None:
    fake, service = workspaces.fake, workspaces.service
    for team in ("T1", "T2"):
        await workspaces.install(team)
    await workspaces.command("channel repo o/r time 09:00 tz UTC", team="T1", channel="C1")
    await workspaces.command("channel repo o/r time 09:00 tz UTC", team="T2", channel="C2")
    await workspaces.command(f"subscribe rocm at {DM_SLOT} tz UTC", team="T2", channel="C2", user="U2")

    assert await workspaces.event("T2", {"type": "app_uninstalled"}) == 200
    fake.revoke(TOKENS["T2"])
    with service.store.engine.connect() as conn:
        teams = {row.team_id for row in conn.execute(select(bots_table(service.store)))}
    assert teams == {"T1"}
    assert channel(service, "C2").status == WORKSPACE_GONE
    assert service.chat.subscriptions("slack", "U2")[0].paused == WORKSPACE_GONE

    jobs = DeliveryJobs(service, {"slack": workspaces.deps.messenger})
    assert [c.channel_id for c in service.channels()] == ["C1"]  # the scheduler's list: C2 is no longer there
    assert await jobs.post_channel("slack", "C2") == "skipped"  # asked anyway: skipped with its reason, no error
    assert (await jobs.send_slot(DM_SLOT, "UTC", now=utcnow() + timedelta(days=1))).sent == 0
    assert await jobs.post_channel("slack", "C1") == "sent"  # the other workspace is untouched
    assert not posts(fake, "C2") and not posts(fake, "DU2")

    # Installing again resumes what the uninstall paused.
    fake.tokens[TOKENS["T2"]] = "T2"
    fake._revoked.discard(TOKENS["T2"])
    await workspaces.install("T2")
    assert channel(service, "C2").status is None
    assert service.chat.subscriptions("slack", "U2")[0].paused is None


async def test_revoked_bot_tokens_pause_and_a_workspace_without_tokens_is_skipped_once(
        workspaces: Workspaces) -> None:
    fake, service = workspaces.fake, workspaces.service
    await workspaces.install("T2")
    await workspaces.command("channel repo o/r time 09:00 tz UTC", team="T2", channel="C2")
    assert await workspaces.event("T2", {"type": "tokens_revoked", "tokens": {"bot": ["UBOT"]}}) == 200
    assert channel(service, "C2").status == WORKSPACE_GONE

    # Tokens gone without the event (deleted by hand, a lost event): the messenger finds no installation; the
    # channel is marked once and skipped, never retried in a loop.
    service.chat.resume_workspace("slack", "T2")
    jobs = DeliveryJobs(service, {"slack": workspaces.deps.messenger})
    assert await jobs.post_channel("slack", "C2") == "skipped"
    assert channel(service, "C2").status == WORKSPACE_GONE
    assert await jobs.post_channel("slack", "C2") == "skipped"
    assert not posts(fake, "C2")


async def test_a_dead_token_before_its_event_pauses_the_target_once(workspaces: Workspaces) -> None:
    fake, service = workspaces.fake, workspaces.service
    await workspaces.install("T2")
    await workspaces.command("channel repo o/r time 09:00 tz UTC", team="T2", channel="C2")
    fake.revoke(TOKENS["T2"])  # Slack refuses the token; app_uninstalled has not arrived yet
    jobs = DeliveryJobs(service, {"slack": workspaces.deps.messenger})
    assert await jobs.post_channel("slack", "C2") == "skipped"
    assert channel(service, "C2").status == WORKSPACE_GONE
    assert len(posts(fake, "C2")) == 1 and fake.posted("C2") == []  # asked once (refused), not retried
    assert service.channels() == []


async def test_an_enterprise_grid_workspace_gets_its_posts_commands_and_dms(workspaces: Workspaces) -> None:
    """Slack's documented oauth.v2.access answer names the organization (``"enterprise": {"id": "E12345678"}``):
    bolt saves it with the installation, and every delivery to that workspace still finds its bot."""
    fake, service = workspaces.fake, workspaces.service
    team, token = "T9TK3CUKW", TOKENS["T9TK3CUKW"]
    await workspaces.install("T1")
    status, page = await workspaces.install(team, enterprise=GRID)
    assert status == 200 and "Thank you" in page, page
    with service.store.engine.connect() as conn:
        saved = {row.team_id: row.enterprise_id for row in conn.execute(select(bots_table(service.store)))}
    assert saved == {"T1": None, team: GRID}

    answer = await workspaces.command("channel repo o/r time 09:00 tz UTC", team=team, channel="C3", enterprise=GRID)
    assert "Saved" in answer
    await workspaces.command(f"subscribe rocm at {DM_SLOT} tz UTC", team=team, channel="C3", user="U3", enterprise=GRID)
    assert channel(service, "C3").team_id == team

    # The scheduled post, then /digest post (through the ledger, like the worker's), then tomorrow's DM.
    jobs = DeliveryJobs(service, {"slack": workspaces.deps.messenger})
    assert await jobs.post_channel("slack", "C3") == "sent"
    scheduled = len(posts(fake, "C3"))
    assert scheduled >= 1 and channel(service, "C3").status is None
    await workspaces.command("post", team=team, channel="C3", enterprise=GRID)
    assert len(posts(fake, "C3")) > scheduled
    assert (await jobs.send_slot(DM_SLOT, "UTC", now=utcnow() + timedelta(days=1))).sent == 1
    assert {fake.token_of(c) for c in posts(fake, "C3")} == {token}
    assert posts(fake, "DU3") and {fake.token_of(c) for c in posts(fake, "DU3")} == {token}
    assert service.chat.subscriptions("slack", "U3")[0].paused is None

    # A live alert of someone with no daily DM: the alert remembers its workspace, and its token sends it.
    await workspaces.command("subscribe rocm live", team=team, channel="C3", user="U4", enterprise=GRID)
    service.store.save_page([item_from_payload("o/r", issue_payload(40, utcnow(), title="[ROCm] MI300X hangs"),
                                               lambda login: False)])
    assert (await AlertJobs(jobs).run()).sent == 1
    assert posts(fake, "DU4") and {fake.token_of(c) for c in posts(fake, "DU4")} == {token}

    # Removing the app from that workspace (the event names the organization too) stops its deliveries.
    assert await workspaces.event(team, {"type": "app_uninstalled"}, enterprise=GRID) == 200
    assert channel(service, "C3").status == WORKSPACE_GONE
    assert service.chat.subscriptions("slack", "U3")[0].paused == WORKSPACE_GONE


async def test_installations_saved_with_an_enterprise_id_before_the_upgrade_still_deliver(
        workspaces: Workspaces) -> None:
    """Rows bolt saved before this fix (enterprise id set) need no migration: deliveries find them by team."""
    from slack_sdk.oauth.installation_store import Installation

    from bot.platforms.slack_oauth import open_stores
    from bot.store.chat import ChannelSettings

    fake, service = workspaces.fake, workspaces.service
    team, token = "T9TK3CUKW", TOKENS["T9TK3CUKW"]
    fake.tokens[token] = team
    installations, _ = open_stores(service.store.engine, fake.client_id, KEY)
    await installations.async_save(Installation(
        app_id="A1", enterprise_id=GRID, enterprise_name="slack-sports", team_id=team, team_name="Slack Softball Team",
        bot_token=token, bot_id="BBOT", bot_user_id="UBOT", bot_scopes="commands,chat:write", user_id="U1",
        is_enterprise_install=False, token_type="bot"))
    service.chat.save_channel(ChannelSettings("slack", "C3", repo="o/r", post_time="09:00", timezone="UTC",
                                              team_id=team))
    service.chat.subscribe("slack", "U3", "rocm", repo=None, post_time=DM_SLOT, timezone="UTC", locale="en",
                           team_id=team)
    jobs = DeliveryJobs(service, {"slack": workspaces.deps.messenger})
    assert await jobs.post_channel("slack", "C3") == "sent"
    assert (await jobs.send_slot(DM_SLOT, "UTC", now=utcnow() + timedelta(days=1))).sent == 1
    assert {fake.token_of(c) for c in [*posts(fake, "C3"), *posts(fake, "DU3")]} == {token}


async def test_an_org_wide_install_is_refused_with_a_page_saying_what_to_do(workspaces: Workspaces) -> None:
    fake, service = workspaces.fake, workspaces.service
    status, page = await workspaces.install("ORG", enterprise=GRID, org_wide=True)
    assert status == 400
    assert "whole organization" in page and "choose a <strong>workspace</strong>" in page
    assert "Thank you" not in page and TOKENS["ORG"] not in page
    with service.store.engine.connect() as conn:  # nothing saved…
        assert conn.execute(select(bots_table(service.store))).first() is None
    (revoked,) = fake.of("auth.revoke")  # …and undone at Slack: the organization's token no longer works
    assert fake.token_of(revoked) == TOKENS["ORG"] and TOKENS["ORG"] in fake._revoked
    # A workspace of the same organization installs normally afterwards.
    status, page = await workspaces.install("T9TK3CUKW", enterprise=GRID)
    assert status == 200 and "Thank you" in page


async def test_a_forged_state_installs_nothing(workspaces: Workspaces) -> None:
    status, _page = await workspaces.install("T2", state="forged-state")
    assert status != 200 or "Thank you" not in _page
    assert workspaces.fake.of("oauth.v2.access") == []
    with workspaces.service.store.engine.connect() as conn:
        assert conn.execute(select(bots_table(workspaces.service.store))).first() is None


async def test_a_command_from_a_workspace_that_never_installed_is_told_to_install(workspaces: Workspaces) -> None:
    await workspaces.install("T1")
    body = urlencode({"team_id": "T404", "channel_id": "C4", "user_id": "U4", "command": "/digest", "text": "help",
                      "response_url": workspaces.fake.response_url("r404"), "trigger_id": "t404"})
    response = await workspaces.signed(body, "application/x-www-form-urlencoded")
    assert response.status == 200
    # bolt's authorize found no installation for T404: it says so to the person, and no handler runs
    calls = await workspaces.fake.until(lambda calls: any(c.method == "response:r404" for c in calls))
    (told,) = [c.data for c in calls if c.method == "response:r404"]
    assert "install" in json.dumps(told).lower() and "subscribe" not in json.dumps(told)


@pytest.mark.parametrize("key", [None, "", "not-a-fernet-key"])
def test_oauth_mode_refuses_to_start_without_a_valid_key(key: str | None) -> None:
    with pytest.raises(UserError, match="TOKEN_ENCRYPTION_KEY"):
        TokenCipher(key)


async def test_a_token_encrypted_with_another_key_is_treated_as_not_installed(
        workspaces: Workspaces, filled: Store) -> None:
    await workspaces.install("T2")
    await workspaces.command("channel repo o/r time 09:00 tz UTC", team="T2", channel="C2")
    other = DigestService(filled, workspaces.service.settings, build_processes=0)
    try:
        _app, deps = build_oauth_app(other, client_id=workspaces.fake.client_id, client_secret="x",
                                     signing_secret=SECRET, encryption_key=Fernet.generate_key().decode(),
                                     api_url=workspaces.fake.base_url + "/api/")
        jobs = DeliveryJobs(other, {"slack": deps.messenger})
        assert await jobs.post_channel("slack", "C2") == "skipped"
        assert not posts(workspaces.fake, "C2")
    finally:
        other.close()


async def test_the_registry_serves_oauth_mode_when_the_client_id_is_set(filled: Store, settings: Settings) -> None:
    from contextlib import AsyncExitStack

    service = DigestService(filled, settings, build_processes=0)
    env = {"SLACK_CLIENT_ID": "1.2", "SLACK_CLIENT_SECRET": "s", "SLACK_SIGNING_SECRET": SECRET,
           "TOKEN_ENCRYPTION_KEY": KEY, "SLACK_BOT_TOKEN": "xoxb-ignored"}
    try:
        async with AsyncExitStack() as stack:
            (web,) = await connect(service, env, stack, "serve")
            paths = {(route.method, route.path) for route in web.routes}  # type: ignore[attr-defined]
            assert {("POST", "/slack/events"), ("GET", "/slack/install"), ("GET", "/slack/oauth_redirect")} <= paths
            (worker,) = await connect(service, env, stack, "worker")
            assert worker.messenger is not None and worker.run is None
            with pytest.raises(UserError, match="TOKEN_ENCRYPTION_KEY"):
                await connect(service, {**env, "TOKEN_ENCRYPTION_KEY": "nope"}, stack, "serve")
    finally:
        service.close()


async def test_single_workspace_mode_pauses_its_deliveries_when_the_app_is_removed(
        filled: Store, settings: Settings) -> None:
    fake = FakeSlack()
    with fake.serve() as base_url:
        service = DigestService(filled, settings, build_processes=0)
        app, deps = build_app(default_deps(service), token=TOKENS["T1"], signing_secret=SECRET,
                              api_url=base_url + "/api/")

        async def health() -> dict[str, Any]:
            return {"ok": True}

        server = TestServer(web_app(slack_routes(app), health), host="127.0.0.1")
        await server.start_server()
        try:
            single = Workspaces(fake, server, deps, service)
            await single.command("channel repo o/r time 09:00 tz UTC", team="T1", channel="C1")
            assert channel(service, "C1").team_id == "T1"  # recorded in single-workspace mode too
            assert await single.event("T1", {"type": "tokens_revoked", "tokens": {"bot": ["UBOT"]}}) == 200
            assert channel(service, "C1").status == WORKSPACE_GONE
            assert service.channels() == []
        finally:
            await server.close()
            service.close()
