"""The real bolt app and slack_sdk client against a fake Slack Web API, driven by signed HTTP requests."""

from __future__ import annotations

import asyncio
import json
import shutil
import threading
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import aiohttp
import pytest
from aiohttp.test_utils import TestServer
from slack_sdk.models.blocks import Block
from slack_sdk.signature import SignatureVerifier

from bot.app.messenger import DeliveryError
from bot.app.service import DigestService
from bot.commands.handlers import Commands
from bot.delivery.jobs import DeliveryJobs, dm_kind
from bot.delivery.ledger import DeliveryKey
from bot.github.payloads import item_from_payload
from bot.model import Digest
from bot.platforms.slack_app import SlackDeps, build_app, default_deps, slack_routes
from bot.platforms.web import web_app
from bot.settings import Settings, load_settings
from bot.store.store import Store
from bot.timeutil import utcnow
from formatters.slack_blocks import render_slack_digest
from tests.factories import issue_payload
from tests.fakes.slack_api import FakeSlack

ROOT = Path(__file__).resolve().parents[1]
SECRET = "8f742231b10e8888abcd99yyyzzz85a5"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    shutil.copy(ROOT / "config" / "topics.toml", tmp_path)
    (tmp_path / "digest.toml").write_text('[[repos]]\nname = "o/r"\n')
    return load_settings(tmp_path, env={})


@pytest.fixture
def filled(sqlite_store: Store) -> Store:
    now = utcnow()
    items = [issue_payload(n, now - timedelta(hours=n), title=f"[Bugfix][ROCm] fix MI300X case {n}", pr=True,
                           merged=now - timedelta(minutes=30 * n)) for n in range(1, 30)]
    items.append(issue_payload(99, now - timedelta(hours=2), title="<!channel> @everyone <@U123> ROCm is down",
                               labels=("bug",)))
    sqlite_store.save_page([item_from_payload("o/r", p, lambda login: False) for p in items])
    for resource in ("issues", "comments"):
        sqlite_store.complete_listing("o/r", resource, now, [], synced_from=now - timedelta(days=30))
    return sqlite_store


class Harness:
    def __init__(self, fake: FakeSlack, server: TestServer, deps: SlackDeps) -> None:
        self.fake, self.server, self.deps = fake, server, deps
        self.triggers = 0

    async def command(
        self, text: str, *, channel: str = "C1", user: str = "U1", trigger: str | None = None,
        headers: dict[str, str] | None = None, secret: str = SECRET, age: int = 0,
    ) -> aiohttp.ClientResponse:
        self.triggers += 1
        body = urlencode({
            "token": "legacy", "team_id": "T1", "channel_id": channel, "channel_name": "general", "user_id": user,
            "user_name": "alice", "command": "/digest", "text": text, "api_app_id": "A1",
            "response_url": self.fake.response_url(f"r{self.triggers}"),
            "trigger_id": trigger or f"trigger-{self.triggers}",
        })
        timestamp = str(int(time.time()) - age)
        signature = SignatureVerifier(secret).generate_signature(timestamp=timestamp, body=body)
        all_headers = {"Content-Type": "application/x-www-form-urlencoded", "X-Slack-Request-Timestamp": timestamp,
                       "X-Slack-Signature": signature, **(headers or {})}
        async with aiohttp.ClientSession() as session:
            response = await session.post(self.server.make_url("/slack/events"), data=body, headers=all_headers)
            await response.read()
            return response

    def responses(self, name: str | None = None) -> list[dict[str, Any]]:
        return [c.data for c in self.fake.calls
                if c.method.startswith("response:") and (name is None or c.method == f"response:{name}")]


@pytest.fixture
async def harness(filled: Store, settings: Settings) -> AsyncIterator[Harness]:
    fake = FakeSlack(admins={"UADMIN"})
    with fake.serve() as base_url:
        app, deps = build_app(default_deps(DigestService(filled, settings)), token="xoxb-test", signing_secret=SECRET,
                              api_url=base_url + "/api/")

        async def health() -> dict[str, Any]:
            return {"ok": True}

        server = TestServer(web_app(slack_routes(app), health), host="127.0.0.1")
        await server.start_server()
        try:
            yield Harness(fake, server, deps)
        finally:
            await server.close()


def assert_valid_blocks(payload: dict[str, Any]) -> None:
    assert len(payload.get("blocks") or []) <= 50
    for block in payload.get("blocks") or []:
        Block.parse(block).validate_json()


async def test_digest_is_acked_then_answered_ephemerally(harness: Harness) -> None:
    response = await harness.command("")
    assert response.status == 200
    await harness.fake.until(lambda calls: any(c.method == "response:r1" for c in calls))
    answers = harness.responses("r1")
    assert 1 <= len(answers) <= 5
    assert all(a["response_type"] == "ephemeral" for a in answers)
    for answer in answers:
        assert_valid_blocks(answer)
    text = json.dumps(answers)
    assert "o/r" in text
    assert "<!channel>" not in text and "<@U123>" not in text  # a GitHub title cannot ping anyone
    assert harness.fake.of("chat.postMessage") == []


async def test_query_answer_is_one_compact_message(harness: Harness) -> None:
    await harness.command("rocm 3d")
    await harness.fake.until(lambda calls: any(c.method == "response:r1" for c in calls))
    [answer] = harness.responses("r1")
    assert_valid_blocks(answer)
    assert "MI300X" in json.dumps(answer)


async def test_post_puts_headline_in_channel_and_sections_in_its_thread(harness: Harness) -> None:
    expected = len(render_slack_digest(await _digest(harness)))
    assert expected >= 2
    await harness.command("post")
    calls = await harness.fake.until(lambda calls: len([c for c in calls if c.method == "chat.postMessage"])
                                     >= expected)
    posts = [c.data for c in calls if c.method == "chat.postMessage"]
    assert posts[0]["channel"] == "C1" and "thread_ts" not in posts[0]
    headline_ts = harness.fake.calls[[c.method for c in harness.fake.calls].index("chat.postMessage")]
    assert headline_ts.status == 200
    assert {p.get("thread_ts") for p in posts[1:]} == {posts[1]["thread_ts"]}
    assert all(p["unfurl_links"] in (False, "0", "false") for p in posts)
    for post in posts:
        assert_valid_blocks(post)


async def test_rate_limited_posts_are_retried_after_retry_after(harness: Harness) -> None:
    harness.fake.rate_limit("chat.postMessage", retry_after=1, times=1)
    digest = await _digest(harness)
    ids = await harness.deps.messenger.deliver("C9", digest, dm=False, locale="en", timezone="UTC")
    assert len(ids) == len(harness.fake.of("chat.postMessage"))
    assert len(harness.fake.of("chat.postMessage", ok_only=False)) == len(ids) + 1


async def test_channel_errors_mark_the_channel_and_tell_the_user(harness: Harness) -> None:
    harness.fake.fail("chat.postMessage", "not_in_channel")
    await harness.command("post", channel="C2")
    await harness.fake.until(lambda calls: any(c.method == "response:r1" for c in calls))
    assert "not_in_channel" in json.dumps(harness.responses("r1"))
    assert "/invite" in json.dumps(harness.responses("r1"))
    service = harness.deps.commands.service
    assert service.chat.channel("slack", "C2") is None  # nothing stored to mark
    # A scheduled post that Slack refuses for good marks the channel (in delivery, once) and is skipped.
    service.chat.save_channel(_channel("C3"))
    harness.fake.fail("chat.postMessage", "is_archived")
    jobs = DeliveryJobs(service, {"slack": harness.deps.messenger})
    assert await jobs.post_channel("slack", "C3") == "skipped"
    assert service.chat.channel("slack", "C3").status == "is_archived"
    harness.fake.fail("chat.postMessage", "is_archived")
    with pytest.raises(DeliveryError) as caught:
        await harness.deps.messenger.deliver("C3", await _digest(harness), dm=False, locale="en", timezone="UTC")
    assert caught.value.permanent


async def test_dms_open_an_im_and_pause_on_cannot_dm(harness: Harness) -> None:
    digest = await _digest(harness)
    await harness.deps.messenger.deliver("U7", digest, dm=True, locale="en", timezone="UTC")
    assert harness.fake.of("conversations.open")[0].data["users"] == "U7"
    assert harness.fake.of("chat.postMessage")[0].data["channel"] == "DU7"
    service = harness.deps.commands.service
    service.chat.subscribe("slack", "U8", "rocm", repo="o/r", post_time="09:00", timezone="UTC", locale="en")
    harness.fake.fail("conversations.open", "cannot_dm_bot")
    jobs = DeliveryJobs(service, {"slack": harness.deps.messenger})

    async def build() -> Digest:
        return digest

    key = DeliveryKey("slack", "U8", "o/r", dm_kind("rocm"), digest.window.start)
    outcome = await jobs.deliver(key, digest.window, harness.deps.messenger, dm=True, locale="en", timezone="UTC",
                                 build=build)
    assert outcome == "skipped"
    assert service.chat.subscriptions("slack", "U8")[0].paused == "cannot_dm_bot"
    await harness.command("subscriptions", user="U8")
    await harness.fake.until(lambda calls: any(c.method == "response:r1" for c in calls))
    assert "paused" in json.dumps(harness.responses("r1"))


async def test_subscribe_and_channel_settings_through_slack(harness: Harness) -> None:
    await harness.command("subscribe rocm at 09:00 tz Asia/Shanghai")
    await harness.command("channel locale zh-CN")
    await harness.fake.until(lambda calls: {"response:r1", "response:r2"} <= {c.method for c in calls})
    assert "09:00" in json.dumps(harness.responses("r1"))
    assert harness.deps.commands.service.chat.channel("slack", "C1").locale == "zh-CN"
    await harness.command("")
    await harness.fake.until(lambda calls: any(c.method == "response:r3" for c in calls))
    assert "开发动态报告" in json.dumps(harness.responses("r3"), ensure_ascii=False)


async def test_repositories_outside_the_allow_list_are_refused_through_slack(harness: Harness) -> None:
    for text in ("subscribe rocm repo:acme/secret", "channel repo acme/secret", "rocm repo:acme/secret",
                 "post repo:acme/secret"):
        await harness.command(text)
    await harness.fake.until(lambda calls: {f"response:r{n}" for n in range(1, 5)} <= {c.method for c in calls})
    for n in range(1, 5):
        text = json.dumps(harness.responses(f"r{n}"))
        assert "does not follow acme/secret" in text and "o/r" not in text, text
    service = harness.deps.commands.service
    assert service.chat.subscriptions("slack", "U1") == [] and service.chat.channel("slack", "C1") is None
    assert harness.fake.of("chat.postMessage") == []


async def test_unknown_input_gets_a_hint(harness: Harness) -> None:
    await harness.command("channel colour red")
    await harness.fake.until(lambda calls: any(c.method == "response:r1" for c in calls))
    text = json.dumps(harness.responses("r1"))
    assert "unknown channel setting" in text and "Traceback" not in text


async def test_admin_only_settings_ask_slack_who_is_admin(harness: Harness, settings: Settings) -> None:
    strict = settings.file.model_copy(update={"chat": settings.file.chat.model_copy(
        update={"channel_settings": "admins"})})
    harness.deps.settings = settings.model_copy(update={"file": strict})
    harness.deps.commands.service.settings = harness.deps.settings
    await harness.command("channel time 10:00", user="U1")
    await harness.command("channel time 10:00", user="UADMIN")
    await harness.fake.until(lambda calls: {"response:r1", "response:r2"} <= {c.method for c in calls})
    assert "Only workspace admins" in json.dumps(harness.responses("r1"))
    assert "Saved" in json.dumps(harness.responses("r2"))


async def test_retries_of_the_same_request_answer_once(harness: Harness) -> None:
    await harness.command("help", trigger="same")
    await harness.command("help", trigger="same", headers={"X-Slack-Retry-Num": "1",
                                                          "X-Slack-Retry-Reason": "http_timeout"})
    await harness.command("subscriptions")  # a later, different request: its answer proves the retry is done
    # r1 and r3 are answered concurrently (either may come first under load): wait for both.
    await harness.fake.until(lambda calls: {"response:r1", "response:r3"} <= {c.method for c in calls})
    assert len(harness.responses("r1")) == 1
    assert harness.responses("r2") == []


@pytest.mark.parametrize(("secret", "age"), [("wrong-secret", 0), (SECRET, 6 * 60)])
async def test_unsigned_or_stale_requests_are_refused(harness: Harness, secret: str, age: int) -> None:
    response = await harness.command("help", secret=secret, age=age)
    assert response.status == 401
    await harness.command("subscriptions")  # a good request afterwards is answered: the bad one never was
    await harness.fake.until(lambda calls: any(c.method == "response:r2" for c in calls))
    assert harness.responses("r1") == []


async def test_ack_comes_before_slow_work(harness: Harness) -> None:
    release = threading.Event()
    original = Commands.handle_command

    async def slow_handle(self: Commands, ctx: Any, command: Any, **kwargs: Any) -> Any:
        assert await asyncio.to_thread(release.wait, 10)
        return await original(self, ctx, command, **kwargs)

    harness.deps.commands.handle_command = slow_handle.__get__(harness.deps.commands)  # type: ignore[method-assign]
    started = time.monotonic()
    response = await harness.command("help")
    assert response.status == 200
    assert time.monotonic() - started < 3
    assert harness.responses("r1") == []  # the answer is still being worked on
    release.set()
    await harness.fake.until(lambda calls: any(c.method == "response:r1" for c in calls))


async def _digest(harness: Harness) -> Digest:
    from bot.app.context import Context

    reply = await harness.deps.commands.handle(Context("slack", "C1", "U1", datetime.now(UTC)), "")
    assert isinstance(reply.answer, Digest)
    return reply.answer


def _channel(channel_id: str):  # type: ignore[no-untyped-def]
    from bot.store.chat import ChannelSettings

    return ChannelSettings(platform="slack", channel_id=channel_id, repo="o/r")


async def test_post_goes_through_the_ledger_and_the_same_post_again_adds_nothing(harness: Harness) -> None:
    from bot.delivery.ledger import Ledger

    await harness.command("post")
    await harness.fake.until(lambda calls: any(c.method == "response:r1" for c in calls))
    assert "Posted in this channel" in json.dumps(harness.responses("r1"))
    posted = harness.fake.posted("C1")
    assert Ledger(harness.deps.commands.service.store).pending() == []  # claimed, then sent
    await harness.command("post")  # asked again (a retry, a double click): the ledger says it is there
    await harness.fake.until(lambda calls: any(c.method == "response:r2" for c in calls))
    assert "Posted in this channel" in json.dumps(harness.responses("r2"))
    assert harness.fake.posted("C1") == posted
    assert all(m["metadata"]["event_type"] == "digest_part" for m in posted)


async def test_a_retry_after_date_during_post_is_waited_out_not_a_sorry(harness: Harness) -> None:
    # slack_sdk's own handler did int("W") on this and the user got "Sorry, something went wrong".
    harness.fake.rate_limit("chat.postMessage", retry_after="Wed, 21 Oct 2015 07:28:00 GMT")
    await harness.command("post")
    await harness.fake.until(lambda calls: any(c.method == "response:r1" for c in calls))
    assert "Posted in this channel" in json.dumps(harness.responses("r1"))
    assert len(harness.fake.of("chat.postMessage", ok_only=False)) == len(harness.fake.posted("C1")) + 1


async def test_over_a_fair_use_limit_the_ack_itself_says_busy_and_nothing_follows(harness: Harness) -> None:
    from bot.app.limits import HeavyLimiter, LimitRules

    harness.deps.commands.limiter = HeavyLimiter(LimitRules(per_user_per_minute=1))
    await harness.command("rocm 3d")
    refused = await harness.command("rocm 3d")
    body = await refused.json()
    assert body["response_type"] == "ephemeral" and "try again in" in json.dumps(body)
    assert_valid_blocks(body)
    await harness.command("help")  # a later request: once it is answered, the refused one had its chance
    await harness.fake.until(lambda calls: {"response:r1", "response:r3"} <= {c.method for c in calls})
    assert harness.responses("r2") == []  # the ack said it all: no claim, no response_url post
