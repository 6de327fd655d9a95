"""The application layer's seams: the reply policy every platform shares, typed notices worded in every
locale, the platform registry and the one web application."""

from __future__ import annotations

import asyncio
import threading
import typing
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AsyncExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.app import notices as n
from bot.app.context import ChannelContext
from bot.app.messenger import DeliveryError
from bot.app.replies import Rendered, Reply, capped, send_reply
from bot.app.service import DigestService
from bot.errors import UserError
from bot.model import Active, Digest, Evidence, InTopic, Merged, Signal, Stats, TopicRef, Window
from bot.platforms.registry import connect
from bot.platforms.web import web_app
from bot.settings import load_settings
from bot.store.store import Store
from formatters.notices import render_notices
from formatters.safety import discord_markdown, slack_mrkdwn

NOW = datetime(2025, 12, 2, 3, 5, tzinfo=UTC)
DIGEST = Digest(repo="o/r", window=Window(NOW.replace(day=1), NOW, "Asia/Shanghai"), stats=Stats(), sections=())


class Sink:
    """A platform as ``send_reply`` sees it: records what it was asked to send."""

    def __init__(self, parts: int, *, max_parts: int = 5, post_error: DeliveryError | None = None,
                 expire_after: int | None = None) -> None:
        self.parts = parts
        self.max_parts = max_parts
        self.post_error = post_error
        self.expire_after = expire_after
        self.sent: list[tuple[str, Any]] = []

    def render(self, answer: object, *, locale: str, timezone: str) -> Sequence[str]:
        return [f"part {index}" for index in range(self.parts)]

    async def send_part(self, part: str) -> bool:
        if self.expire_after is not None and len(self.sent) >= self.expire_after:
            return False
        self.sent.append(("part", part))
        return True

    async def say(self, notices: Sequence[n.Notice], *, locale: str) -> None:
        self.sent.append(("say", [notice.kind for notice in notices]))

    async def post(self, answer: object, *, locale: str, timezone: str, request: object = None) -> None:
        if self.post_error is not None:
            raise self.post_error
        self.sent.append(("post", answer))


async def test_a_notice_is_said_with_its_notes() -> None:
    sink = Sink(0)
    await send_reply(Reply(n.Help(("rocm",)), notes=(n.Paused("cannot_dm_bot"),)), sink)
    assert sink.sent == [("say", ["help", "paused"])]


async def test_a_long_answer_keeps_one_message_for_more_and_the_notes() -> None:
    sink = Sink(9, max_parts=5)
    await send_reply(Reply(answer=DIGEST, notes=(n.Paused("x"),)), sink)
    assert sink.sent == [("part", "part 0"), ("part", "part 1"), ("part", "part 2"), ("part", "part 3"),
                         ("say", ["more_parts", "paused"])]
    short = Sink(2)
    await send_reply(Reply(answer=DIGEST), short)
    assert short.sent == [("part", "part 0"), ("part", "part 1")]  # nothing to add: no extra message


async def test_an_expired_reply_stops_sending() -> None:
    sink = Sink(4, expire_after=1)
    await send_reply(Reply(answer=DIGEST, notes=(n.Paused("x"),)), sink)
    assert sink.sent == [("part", "part 0")]


async def test_a_post_is_confirmed_or_explained() -> None:
    done = Sink(3)
    await send_reply(Reply(answer=DIGEST, post=True), done)
    assert done.sent == [("post", DIGEST), ("say", ["posted"])]
    refused = Sink(3, post_error=DeliveryError("not_in_channel", permanent=True))
    await send_reply(Reply(answer=DIGEST, post=True, notes=(n.Paused("x"),)), refused)
    assert refused.sent == [("say", ["post_failed", "paused"])]


async def test_an_answer_is_rendered_where_offload_says_not_on_the_loop() -> None:
    rendered_in: list[str] = []

    class Recording(Sink):
        def render(self, answer: object, *, locale: str, timezone: str) -> Sequence[str]:
            rendered_in.append(threading.current_thread().name)
            return super().render(answer, locale=locale, timezone=timezone)

    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="offloaded")

    async def offload(fn: Callable[[], Any]) -> Any:
        return await asyncio.get_running_loop().run_in_executor(pool, fn)

    try:
        sink = Recording(2)
        await send_reply(Reply(answer=DIGEST), sink, offload=offload)
        assert sink.sent == [("part", "part 0"), ("part", "part 1")]
        assert rendered_in and rendered_in[0].startswith("offloaded")
    finally:
        pool.shutdown()


def test_capped() -> None:
    assert capped([1, 2, 3], 3) == ([1, 2, 3], 0)
    assert capped([1, 2, 3, 4], 3) == ([1, 2], 2)
    assert capped([1, 2], 1) == ([1], 1)
    assert capped([1, 2], 3, trailer=True) == ([1, 2], 0)
    assert capped([1, 2, 3], 3, trailer=True) == ([1, 2], 1)  # the notes' message says "1 more" too


async def test_an_answer_rendered_where_it_was_built_keeps_the_cap_when_a_note_joins_later() -> None:
    # Rendered in a worker with no notes (5 of 5 shown); the paused-DMs note is added afterwards.
    sink = Sink(0, max_parts=5)
    rendered = Rendered(tuple(f"part {index}" for index in range(5)), 0, "en")
    await send_reply(Reply(rendered=rendered, notes=(n.Paused("x"),)), sink)
    assert len(sink.sent) == 5 and sink.sent[-1] == ("say", ["more_parts", "paused"])


@pytest.mark.parametrize("parts", range(1, 9))
async def test_never_more_messages_than_the_platform_takes(parts: int) -> None:
    # Slack's response_url takes five posts: the notes (a paused-DMs warning, said once) must never be the sixth.
    for notes in ((), (n.Paused("x"),)):
        sink = Sink(parts, max_parts=5)
        await send_reply(Reply(answer=DIGEST, notes=notes), sink)
        assert len(sink.sent) <= 5
        if notes:
            assert sink.sent[-1][0] == "say" and "paused" in sink.sent[-1][1]


CHANNEL = ChannelContext(repo="o/r", post_time="11:05", timezone="Asia/Shanghai", locale="en", topics=("rocm",),
                         status="is_archived")
SUB = n.SubscriptionView("qwen hangs", "09:00", "Europe/Berlin", "o/r", None)
MUTE = n.MuteView("rocm", "AMD / ROCm", "2025-12-09 12:00")
SAMPLES: list[n.Notice] = [
    n.Help(("rocm", "qwen")), n.Subscribed(SUB, True, (n.QueryAdjusted("word_cut", "x" * 20 + "…", "100"),)),
    n.Subscriptions((SUB,), "UTC", (MUTE,)),
    n.Unsubscribed(None, 2, ()), n.ChannelShown(CHANNEL, "Asia/Shanghai", (MUTE,)),
    n.ChannelSaved(CHANNEL, ("locale",), "Asia/Shanghai"), n.Muted(False, "UTC", MUTE), n.Mutes(True, "UTC", ()),
    n.Unmuted(False, "UTC", None, 1, ()), n.Posted(), n.MoreParts(3), n.Paused("cannot_dm_bot"), n.NotAllowed(),
    n.NoRepo(), n.NotSynced("o/r"), n.RepoNotSynced("x/y"), n.RepoNotAllowed("acme/secret"),
    n.OtherRepository("other/x", "o/r"), n.RepoNeedsAdmin("my-org/tool"), n.PostFailed("not_in_channel"),
    n.PostNeedsChannel(), n.TooManySubscriptions(20), n.SubscriptionWindow(), n.SettingsInChannel(),
    n.UnknownTopics(("nope",), ("rocm",)), n.UnknownTopic("rcom", "rocm"), n.UnknownTopic("xyzzy", None),
    *(n.Invalid(problem, "/digest mute rocm", "x", "at") for problem in typing.get_args(n.Problem)),
    n.Failed("bad config"),
    n.Sorry(),
    *(n.QueryProblem(problem, "x*", "label:bug") for problem in typing.get_args(n.QueryProblemKind)),
    n.QueryProblem("negated_is", "-is:bot"), n.QueryProblem("bad_date", "2025-99-01"),
    *(n.QueryAdjusted(adjustment, "366", "2025-12-03") for adjustment in typing.get_args(n.Adjustment)),
    n.Busy("user", "in_flight", 12), n.Busy("user", "per_minute", 40), n.Busy("channel", "in_flight", 5),
    n.Busy("channel", "per_minute", 3), n.Busy("bot", "in_flight", 9),
    n.Why("o/r", 12, "pr", "[ROCm] *fix* <@U1>", "https://github.com/o/r/pull/12", "vllmellm", "merged",
          "2025-12-01 11:05", "2025-12-02 11:05", "Asia/Shanghai",
          (n.WhyPlacement("topic", 1, 3, InTopic((Evidence("author", "vllmellm"),)), TopicRef("rocm", "AMD / ROCm")),
           n.WhyPlacement("key_changes", 2, 10, Merged((Signal("tag", "rocm"),)))), ("merged",), Active("merged"),
          (n.WhyTopic(TopicRef("qwen", "Qwen models", "Qwen 系列模型"), (Evidence("title", "Qwen3"),), False),),
          "2025-12-02 09:00"),
    n.Why("o/r", 13, "issue", "old", "https://github.com/o/r/issues/13", "bot[bot]", "open", "2025-12-01 11:05",
          "2025-12-02 11:05", "UTC", last_activity="2025-11-01 10:00", bot=True),
    n.ItemNotFound("o/r", 30521, "2025-11-02"), n.ItemNotFound("o/r", 1),
    n.AlertSet(n.AlertView("rocm", "o/r"), dm=True, created=True), n.AlertSet(n.AlertView("qwen hangs"), False, False),
    n.AlertsRemoved("rocm", 1, True), n.AlertsRemoved(None, 0, False), n.AlertsRemoved(None, 3, True),
    n.Alerts((n.AlertView("rocm", "o/r"), n.AlertView("label:bug"))), n.Alerts(()),
    n.Subscriptions((SUB,), "UTC", alerts=(n.AlertView("rocm", "o/r"), n.AlertView("qwen", None, "dms_closed"))),
]


def test_every_notice_kind_has_a_sample() -> None:
    assert {notice.kind for notice in SAMPLES} == set(typing.get_args(n.NoticeKind))


@pytest.mark.parametrize("locale", ["en", "zh-CN"])
@pytest.mark.parametrize("platform", ["slack", "discord"])
def test_every_notice_is_worded_in_every_locale(locale: str, platform: Any) -> None:
    escape = slack_mrkdwn if platform == "slack" else discord_markdown
    for notice in SAMPLES:
        text = render_notices([notice], locale=locale, escape=escape, platform=platform)
        assert text.strip(), notice
    together = render_notices(SAMPLES, locale=locale, escape=escape, platform=platform)
    assert together.count("\n\n") >= len(SAMPLES) - 1


def test_chinese_notices_are_chinese() -> None:
    for notice in SAMPLES:
        if isinstance(notice, n.Invalid | n.Failed):
            continue  # lower layers' words, shown as they are
        text = render_notices([notice], locale="zh-CN", escape=slack_mrkdwn)
        assert any("\u4e00" <= char <= "\u9fff" for char in text), (notice, text)


@pytest.mark.parametrize("locale", ["en", "zh-CN"])
def test_every_query_problem_and_adjustment_has_its_own_words(locale: str) -> None:
    problems = [n.QueryProblem(kind, "xyz") for kind in typing.get_args(n.QueryProblemKind)]
    adjustments = [n.QueryAdjusted(kind, "xyz") for kind in typing.get_args(n.Adjustment)]
    assert "never_synced" in typing.get_args(n.Adjustment)
    texts = [render_notices([notice], locale=locale, escape=str) for notice in (*problems, *adjustments)]
    assert all("xyz" in text for text in texts), texts
    assert len(set(texts)) == len(texts)


@pytest.fixture
def service(tmp_path: Path) -> typing.Iterator[DigestService]:
    (tmp_path / "digest.toml").write_text('[[repos]]\nname = "o/r"\n')
    store = Store.open(f"sqlite:///{tmp_path / 's.sqlite3'}")
    service = DigestService(store, load_settings(tmp_path, env={}))
    yield service
    service.close()
    store.close()


async def test_the_registry_assembles_platforms_from_the_environment(service: DigestService) -> None:
    async with AsyncExitStack() as stack:
        assert await connect(service, {}, stack, "worker") == []
        [slack] = await connect(service, {"SLACK_BOT_TOKEN": "xoxb-1"}, stack, "worker")
        assert slack.name == "slack" and slack.messenger is not None and slack.run is None and not slack.routes
        [socket] = await connect(service, {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1"}, stack,
                                 "worker")
        assert socket.run is not None
        [web_slack] = await connect(service, {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s"}, stack,
                                    "serve")
        assert [route.path for route in web_slack.routes] == ["/slack/events"]  # type: ignore[attr-defined]
        with pytest.raises(UserError, match="SLACK_SIGNING_SECRET"):
            await connect(service, {"SLACK_BOT_TOKEN": "xoxb-1"}, stack, "serve")


async def test_the_web_app_serves_platform_routes_and_health() -> None:
    async def hello(_: web.Request) -> web.Response:
        return web.Response(text="hi")

    async def health() -> dict[str, Any]:
        return {"ok": True}

    async with TestClient(TestServer(web_app([web.get("/hello", hello)], health))) as client:
        assert await (await client.get("/hello")).text() == "hi"
        assert await (await client.get("/healthz")).json() == {"ok": True}
