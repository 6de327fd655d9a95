"""The shared /digest grammar and its platform-neutral handlers (Slack and Discord both call these)."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.commands.grammar import (
    Ask,
    ConfigureChannel,
    Help,
    Invalid,
    ListSubscriptions,
    Post,
    ShowChannel,
    Subscribe,
    Unsubscribe,
    parse_command,
)
from bot.commands.handlers import Commands, Context
from bot.digest.model import Digest, QueryResult
from bot.github.payloads import item_from_payload
from bot.settings import Settings, load_settings
from bot.store.chat import ChatState
from bot.store.store import Store
from tests.factories import issue_payload

ROOT = Path(__file__).resolve().parents[1]
NOW = datetime(2025, 12, 2, 4, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("", Ask("")),
        ("rocm", Ask("rocm")),
        ("qwen hangs 7d", Ask("qwen hangs 7d")),
        ("post", Post("")),
        ("help", Help(None)),
        ("subscribe rocm", Subscribe("rocm")),
        ("subscribe qwen hangs at 9:00 tz Asia/Shanghai", Subscribe("qwen hangs", at="09:00", tz="Asia/Shanghai")),
        ("unsubscribe all", Unsubscribe(None)),
        ("unsubscribe qwen hangs", Unsubscribe("qwen hangs")),
        ("subscriptions", ListSubscriptions()),
        ("channel", ShowChannel()),
        ("channel repo vllm-project/vllm time 11:05 tz Asia/Shanghai locale zh topics rocm,Qwen",
         ConfigureChannel({"repo": "vllm-project/vllm", "post_time": "11:05", "timezone": "Asia/Shanghai",
                           "locale": "zh-CN", "topics": ("rocm", "qwen")})),
        ("channel topics all", ConfigureChannel({"topics": None})),
    ],
)
def test_grammar(text: str, command: object) -> None:
    assert parse_command(text) == command


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("subscribe", "say which topic"),
        ("subscribe rocm at 25:00", "at 25:00: must be a time of day"),
        ("subscribe rocm tz Mars/Base", "unknown time zone"),
        ("channel colour red", "unknown channel setting “colour”"),
        ("channel repo", "needs a value"),
        ("channel repo not-a-repo", "must look like OWNER/NAME"),
        ("channel locale fr", "must be one of en, zh-CN"),
        ("unsubscribe", "say what to unsubscribe from"),
    ],
)
def test_grammar_rejects_with_a_hint(text: str, message: str) -> None:
    command = parse_command(text)
    assert isinstance(command, Invalid)
    assert message in command.message
    assert command.usage.startswith("/digest")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=600))
def test_grammar_never_raises(text: str) -> None:
    parse_command(text)


@pytest.fixture
def config(tmp_path: Path) -> Settings:
    shutil.copy(ROOT / "config" / "topics.toml", tmp_path)
    (tmp_path / "digest.toml").write_text('[[repos]]\nname = "o/r"\n')
    return load_settings(tmp_path, env={})


@pytest.fixture
def commands(store: Store, config: Settings) -> Commands:
    items = [issue_payload(n, NOW - timedelta(hours=n), title=f"[Bugfix][ROCm] fix {n}", pr=True) for n in range(1, 6)]
    store.save_page([item_from_payload("o/r", p, lambda login: False) for p in items])
    store.complete_listing("o/r", "issues", NOW, [], synced_from=NOW - timedelta(days=30))
    store.complete_listing("o/r", "comments", NOW, [], synced_from=NOW - timedelta(days=30))
    return Commands(store, config)


def ctx(**kwargs: object) -> Context:
    values: dict[str, object] = {"platform": "slack", "channel_id": "C1", "user_id": "U1", "now": NOW}
    values.update(kwargs)
    return Context(**values)  # type: ignore[arg-type]


def test_empty_is_the_channel_digest_and_post_posts_it(commands: Commands) -> None:
    reply = commands.handle(ctx(), "")
    assert isinstance(reply.answer, Digest)
    assert reply.ephemeral and not reply.post_to_channel
    posted = commands.handle(ctx(), "post")
    assert posted.post_to_channel and not posted.ephemeral


def test_query_answers(commands: Commands) -> None:
    reply = commands.handle(ctx(), "rocm 3d")
    assert isinstance(reply.answer, QueryResult)
    assert reply.answer.topic == "rocm"
    assert len(reply.answer.items) == 5


def test_subscriptions_round_trip(commands: Commands) -> None:
    reply = commands.handle(ctx(), "subscribe rocm at 09:00")
    assert reply.notice == "subscribed"
    assert reply.params["created"] is True
    sub = reply.params["subscription"]
    assert (sub.query, sub.post_time, sub.timezone, sub.repo) == ("rocm", "09:00", "Asia/Shanghai", "o/r")
    again = commands.handle(ctx(), "subscribe rocm at 10:00 tz Europe/Berlin")
    assert again.params["created"] is False
    assert [s.post_time for s in commands.handle(ctx(), "subscriptions").params["subscriptions"]] == ["10:00"]
    commands.handle(ctx(), "subscribe qwen hangs")
    assert commands.handle(ctx(), "unsubscribe ROCM").params["removed"] == 1
    assert commands.handle(ctx(), "unsubscribe nothing").params["removed"] == 0
    assert commands.handle(ctx(), "unsubscribe all").params["removed"] == 1
    assert commands.handle(ctx(user_id="U2"), "subscriptions").params["subscriptions"] == []


def test_subscription_limit_and_windowed_queries(commands: Commands) -> None:
    assert commands.handle(ctx(), "subscribe rocm 7d").notice == "invalid"
    for n in range(20):
        commands.handle(ctx(), f"subscribe word{n}")
    assert commands.handle(ctx(), "subscribe one-more").notice == "error"
    assert commands.handle(ctx(), "subscribe word3 at 08:00").notice == "subscribed"


def test_channel_settings_change_the_digest(commands: Commands) -> None:
    reply = commands.handle(ctx(), "channel time 09:00 tz Europe/Berlin locale zh-CN topics rocm")
    assert reply.notice == "channel_saved"
    assert reply.params["changed"] == ["locale", "post_time", "timezone", "topics"]
    shown = commands.handle(ctx(), "channel").params["channel"]
    assert (shown.post_time, shown.timezone, shown.locale, shown.topics) == ("09:00", "Europe/Berlin", "zh-CN",
                                                                            ("rocm",))
    digest = commands.handle(ctx(), "").answer
    assert digest.locale == "zh-CN"
    assert digest.window.timezone == "Europe/Berlin"
    assert {s.id for s in digest.sections if s.id.startswith("topic:")} <= {"topic:rocm"}
    assert commands.handle(ctx(channel_id="C2"), "channel").params["channel"].locale == "en"


def test_channel_settings_validation_and_permissions(commands: Commands, config: Settings) -> None:
    assert commands.handle(ctx(), "channel topics rocm,nope").notice == "invalid"
    assert commands.handle(ctx(is_dm=True), "channel time 10:00").notice == "error"
    strict = config.model_copy(update={"file": config.file.model_copy(update={
        "chat": config.file.chat.model_copy(update={"channel_settings": "admins"})})})
    admins_only = Commands(commands.store, strict)
    assert admins_only.handle(ctx(), "channel time 10:00").notice == "not_allowed"
    assert admins_only.handle(ctx(can_manage=True), "channel time 10:00").notice == "channel_saved"


def test_paused_subscriptions_are_told_once(commands: Commands) -> None:
    commands.handle(ctx(), "subscribe rocm")
    ChatState(commands.store).pause_subscriptions("slack", "U1", "cannot_dm_bot")
    assert commands.handle(ctx(), "help").notes == ("paused:cannot_dm_bot",)
    assert commands.handle(ctx(), "help").notes == ()


def test_errors_are_replies_not_exceptions(commands: Commands) -> None:
    assert commands.handle(ctx(), "rocm repo:x/y").notice == "error"
    assert commands.handle(ctx(), "channel colour red").notice == "invalid"
