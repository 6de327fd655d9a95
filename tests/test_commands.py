"""The shared /digest grammar and its platform-neutral handlers (Slack and Discord both call these)."""

from __future__ import annotations

import asyncio
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec import structs

from bot.app.access import GitHubFactory
from bot.app.context import Context
from bot.app.notices import Invalid, Paused, QueryAdjusted, QueryProblem, UnknownTopic, Unmuted
from bot.app.replies import Reply
from bot.app.service import DigestService
from bot.commands.grammar import (
    Ask,
    ConfigureChannel,
    Help,
    ListMutes,
    ListSubscriptions,
    Mute,
    Post,
    ShowChannel,
    Subscribe,
    Unmute,
    Unsubscribe,
    parse_command,
)
from bot.commands.handlers import Commands
from bot.demo.fake_github import FakeGitHub
from bot.github.factory import github_client
from bot.github.payloads import item_from_payload
from bot.model import Digest, QueryResult
from bot.settings import Settings, load_settings
from bot.store.chat import ChatState
from bot.store.mutes import CHANNEL, USER
from bot.store.store import Store
from formatters.notices import render_notice
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
        ("channel thread full", ConfigureChannel({"thread": "full"})),
        ("channel thread SHORT topics rocm", ConfigureChannel({"thread": "short", "topics": ("rocm",)})),
        ("mute", ListMutes(personal=False)),
        ("mute for me", ListMutes(personal=True)),
        ("mute rocm", Mute("rocm", None, personal=False)),
        ("MUTE rocm 7d", Mute("rocm", timedelta(days=7), personal=False)),
        ("mute rocm 24h for me", Mute("rocm", timedelta(hours=24), personal=True)),
        ("mute qwen 2w FOR ME", Mute("qwen", timedelta(weeks=2), personal=True)),
        ("mute prefix caching 3d", Mute("prefix caching", timedelta(days=3), personal=False)),
        ("mute rocm 9999d", Mute("rocm", timedelta(days=366), personal=False)),  # the query grammar's cap
        ('mute "for me"', Mute("for me", None, personal=False)),  # a quoted phrase is a topic, not the flag
        ("unmute rocm", Unmute("rocm", personal=False)),
        ("unmute ALL", Unmute(None, personal=False)),
        ("unmute rocm for me", Unmute("rocm", personal=True)),
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
        ("mute 7d", "say which topic to mute"),
        ("mute 3d for me", "say which topic to mute"),
        ("mute rocm today", "“today” is not a duration"),
        ("mute rocm 2025-12-01", "is not a duration"),
        ("mute rocm 0d", "“0d” is not a duration"),
        ("unmute", "say which topic to unmute"),
        ("unmute for me", "say which topic to unmute"),
    ],
)
def test_grammar_rejects_with_a_hint(text: str, message: str) -> None:
    command = parse_command(text)
    assert isinstance(command, Invalid)
    assert message in render_notice(command, locale="en", escape=str)  # the words are the formatter's
    assert command.usage.startswith("/digest")
    chinese = render_notice(command, locale="zh-CN", escape=str)
    assert "试试" in chinese and not any(word in chinese for word in ("say ", "must ", "unknown "))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=600))
def test_grammar_never_raises(text: str) -> None:
    parse_command(text)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["mute", "unmute", "MUTE"]), st.text(max_size=300),
       st.sampled_from(["", " 7d", " for me", " 3d for me", " today", " 0h"]))
def test_mute_grammar_never_raises_and_always_answers_a_mute_command(verb: str, text: str, tail: str) -> None:
    command = parse_command(f"{verb} {text}{tail}")
    assert isinstance(command, Mute | Unmute | ListMutes | Invalid)
    if isinstance(command, Invalid):
        assert command.usage.startswith("/digest")
    if isinstance(command, Mute):
        assert command.topic.strip()
        assert command.duration is None or timedelta(0) < command.duration <= timedelta(days=366)


@pytest.fixture
def config(tmp_path: Path) -> Settings:
    shutil.copy(ROOT / "config" / "topics.toml", tmp_path)
    (tmp_path / "digest.toml").write_text('[[repos]]\nname = "o/r"\n')
    return load_settings(tmp_path, env={})


class SyncCommands:
    """The async commands called from plain tests, with the service's mute reads at hand."""

    def __init__(self, store: Store, settings: Settings, github: GitHubFactory | None = None) -> None:
        self.service = DigestService(store, settings, github=github)
        self.commands = Commands(self.service)
        self.store = store
        self.mutes = self.service.mutes

    def handle(self, context: Context, text: str) -> Reply:
        return asyncio.run(self.commands.handle(context, text))

    def user_mutes(self, platform: str, user_id: str, now: datetime) -> tuple[str, ...]:
        return tuple(self.mutes.active(platform, USER, user_id, now))

    def channel_mutes(self, platform: str, channel_id: str, now: datetime) -> tuple[str, ...]:
        return tuple(self.mutes.active(platform, CHANNEL, channel_id, now))


@pytest.fixture
def commands(store: Store, config: Settings) -> SyncCommands:
    items = [issue_payload(n, NOW - timedelta(hours=n), title=f"[Bugfix][ROCm] fix {n}", pr=True) for n in range(1, 6)]
    store.save_page([item_from_payload("o/r", p, lambda login: False) for p in items])
    store.complete_listing("o/r", "issues", NOW, [], synced_from=NOW - timedelta(days=30))
    store.complete_listing("o/r", "comments", NOW, [], synced_from=NOW - timedelta(days=30))
    return SyncCommands(store, config)


def ctx(**kwargs: object) -> Context:
    values: dict[str, object] = {"platform": "slack", "channel_id": "C1", "user_id": "U1", "now": NOW}
    values.update(kwargs)
    return Context(**values)  # type: ignore[arg-type]


def test_empty_is_the_channel_digest_and_post_posts_it(commands: SyncCommands) -> None:
    reply = commands.handle(ctx(), "")
    assert isinstance(reply.answer, Digest)
    assert not reply.post
    posted = commands.handle(ctx(), "post")
    assert posted.post
    assert reply.request is None  # only a post keeps what it was built from


def test_a_post_carries_the_request_that_rebuilds_it(commands: SyncCommands) -> None:
    from bot.app.context import PostRequest

    posted = commands.handle(ctx(), "post rocm 3d")
    assert posted.request is not None and posted.request.text == "rocm 3d" and posted.request.now == NOW
    assert posted.request.context.repo == "o/r"
    # What building reads survives the row; where it is posted comes from the ledger key, not from here.
    assert PostRequest.from_json(posted.request.to_json()).to_json() == posted.request.to_json()
    stored_before_the_thread_setting = {k: v for k, v in posted.request.to_json().items() if k != "thread"}
    assert PostRequest.from_json(stored_before_the_thread_setting).context.thread == "short"
    with pytest.raises(ValueError, match="unknown thread setting"):
        PostRequest.from_json({**posted.request.to_json(), "thread": "long"})


def test_a_post_from_a_workspace_remembers_it(commands: SyncCommands) -> None:

    from bot.app.context import PostRequest

    posted = commands.handle(structs.replace(ctx(), team_id="T2"), "post")
    assert posted.request is not None and posted.request.to_json()["team"] == "T2"
    assert PostRequest.from_json(posted.request.to_json()).context.team_id == "T2"
    single = commands.handle(ctx(), "post rocm")  # single-workspace mode: the row is as before
    assert single.request is not None and "team" not in single.request.to_json()


def test_query_answers(commands: SyncCommands) -> None:
    reply = commands.handle(ctx(), "rocm 3d")
    assert isinstance(reply.answer, QueryResult)
    assert reply.answer.topic == "rocm"
    assert len(reply.answer.items) == 5


def test_subscriptions_round_trip(commands: SyncCommands) -> None:
    reply = commands.handle(ctx(), "subscribe rocm at 09:00")
    assert reply.notice.kind == "subscribed"
    assert reply.notice.created is True
    sub = reply.notice.subscription
    assert (sub.query, sub.post_time, sub.timezone, sub.repo) == ("rocm", "09:00", "Asia/Shanghai", "o/r")
    again = commands.handle(ctx(), "subscribe rocm at 10:00 tz Europe/Berlin")
    assert again.notice.created is False
    assert [s.post_time for s in commands.handle(ctx(), "subscriptions").notice.subscriptions] == ["10:00"]
    commands.handle(ctx(), "subscribe qwen hangs")
    assert commands.handle(ctx(), "unsubscribe ROCM").notice.removed == 1
    assert commands.handle(ctx(), "unsubscribe nothing").notice.removed == 0
    assert commands.handle(ctx(), "unsubscribe all").notice.removed == 1
    assert commands.handle(ctx(user_id="U2"), "subscriptions").notice.subscriptions == ()


def test_subscription_limit_and_windowed_queries(commands: SyncCommands) -> None:
    assert commands.handle(ctx(), "subscribe rocm 7d").notice.kind == "subscription_window"
    for n in range(20):
        commands.handle(ctx(), f"subscribe word{n}")
    assert commands.handle(ctx(), "subscribe one-more").notice.kind == "too_many_subscriptions"
    assert commands.handle(ctx(), "subscribe word3 at 08:00").notice.kind == "subscribed"


def test_channel_settings_change_the_digest(commands: SyncCommands) -> None:
    reply = commands.handle(ctx(), "channel time 09:00 tz Europe/Berlin locale zh-CN topics rocm")
    assert reply.notice.kind == "channel_saved"
    assert reply.notice.changed == ("locale", "post_time", "timezone", "topics")
    shown = commands.handle(ctx(), "channel").notice.channel
    assert (shown.post_time, shown.timezone, shown.locale, shown.topics) == ("09:00", "Europe/Berlin", "zh-CN",
                                                                            ("rocm",))
    digest = commands.handle(ctx(), "").answer
    assert digest.locale == "zh-CN"
    assert digest.window.timezone == "Europe/Berlin"
    assert digest.followed == ("rocm",)
    assert commands.handle(ctx(channel_id="C2"), "channel").notice.channel.locale == "en"


def test_a_channel_follows_topics_and_every_topic_keeps_its_section(commands: SyncCommands) -> None:
    everything = commands.handle(ctx(), "").answer
    assert everything.followed == ()  # o/r has no default_topics: no followed topics, no topic part in the post
    commands.handle(ctx(), "channel topics performance,rocm")
    followed = commands.handle(ctx(), "").answer
    assert followed.followed == ("performance", "rocm")  # as the channel ordered them, all of them known
    # nothing restricted; a followed topic with nothing today has an empty section that says so
    assert [s.id for s in followed.sections if s.items or s.kind != "topic"] == [s.id for s in everything.sections]
    commands.handle(ctx(), "mute rocm")
    muted = commands.handle(ctx(), "").answer
    assert muted.followed == ("performance",) and muted.section("topic:rocm") is None


def test_the_repositorys_default_topics_are_followed_when_a_channel_chose_none(
    commands: SyncCommands, config: Settings
) -> None:
    repos = [config.file.repos[0].model_copy(update={"default_topics": ["rocm"]})]
    defaults = SyncCommands(commands.store, config.model_copy(update={"file": config.file.model_copy(
        update={"repos": repos})}))
    assert defaults.handle(ctx(), "").answer.followed == ("rocm",)
    defaults.handle(ctx(), "channel topics performance")
    assert defaults.handle(ctx(), "").answer.followed == ("performance",)  # the channel's own choice wins
    wrong = [config.file.repos[0].model_copy(update={"default_topics": ["nope"]})]
    broken = SyncCommands(commands.store, config.model_copy(update={"file": config.file.model_copy(
        update={"repos": wrong})}))
    failed = broken.handle(ctx(channel_id="C9"), "").notice
    assert failed.kind == "error" and "repos.default_topics: unknown topic(s) nope" in failed.message


def test_the_thread_setting_is_stored_shown_and_reaches_the_digest(commands: SyncCommands) -> None:
    from formatters.notices import render_notice

    assert commands.handle(ctx(), "").answer.thread == "short"
    saved = commands.handle(ctx(), "channel thread full")
    assert saved.notice.kind == "channel_saved" and saved.notice.changed == ("thread",)
    shown = commands.handle(ctx(), "channel").notice
    assert shown.channel.thread == "full"
    assert "Thread of a post: full" in render_notice(shown, locale="en", escape=str)
    assert "讨论串内容：完整附录" in render_notice(shown, locale="zh-CN", escape=str)
    assert commands.handle(ctx(), "").answer.thread == "full"
    posted = commands.handle(ctx(), "post")
    assert posted.request.context.thread == "full"  # a resumed post is rebuilt the same way
    bad = commands.handle(ctx(), "channel thread long").notice
    assert bad.kind == "invalid" and bad.problem == "bad_thread"
    assert "must be short or full" in render_notice(bad, locale="en", escape=str)
    assert commands.handle(ctx(channel_id="C2"), "").answer.thread == "short"


def test_channel_settings_validation_and_permissions(commands: SyncCommands, config: Settings) -> None:
    assert commands.handle(ctx(), "channel topics rocm,nope").notice.kind == "unknown_topics"
    assert commands.handle(ctx(is_dm=True), "channel time 10:00").notice.kind == "settings_in_channel"
    strict = config.model_copy(update={"file": config.file.model_copy(update={
        "chat": config.file.chat.model_copy(update={"channel_settings": "admins"})})})
    admins_only = SyncCommands(commands.store, strict)
    assert admins_only.handle(ctx(), "channel time 10:00").notice.kind == "not_allowed"
    assert admins_only.handle(ctx(can_manage=True), "channel time 10:00").notice.kind == "channel_saved"


def test_paused_subscriptions_are_told_once(commands: SyncCommands) -> None:
    commands.handle(ctx(), "subscribe rocm")
    ChatState(commands.store).pause_subscriptions("slack", "U1", "cannot_dm_bot")
    assert commands.handle(ctx(), "help").notes == (Paused("cannot_dm_bot"),)
    assert commands.handle(ctx(), "help").notes == ()


def test_errors_are_replies_not_exceptions(commands: SyncCommands) -> None:
    assert commands.handle(ctx(), "rocm repo:x/y").notice.kind == "repo_not_allowed"
    assert commands.handle(ctx(), "channel colour red").notice.kind == "invalid"


@pytest.mark.parametrize(
    ("text", "problems"),
    [
        ("labe:bug", [QueryProblem("unknown_filter", "labe:", "label:bug")]),
        ("is:bogus", [QueryProblem("bad_is", "is:bogus")]),
        ("since 2025-99-01", [QueryProblem("bad_date", "2025-99-01")]),
        ("2025-12-12..2025-12-01", [QueryProblem("inverted_range", "2025-12-12..2025-12-01",
                                                 "2025-12-01..2025-12-12")]),
        ("post labe:bug is:bogus", [QueryProblem("unknown_filter", "labe:", "label:bug"),
                                    QueryProblem("bad_is", "is:bogus")]),
    ],
)
def test_a_query_that_does_not_say_what_it_means_is_refused_not_answered_with_the_digest(
        commands: SyncCommands, text: str, problems: list[QueryProblem]) -> None:
    reply = commands.handle(ctx(), text)
    assert reply.answer is None
    assert [reply.notice, *reply.notes] == problems
    assert commands.handle(ctx(), f"subscribe {text.removeprefix('post ')}").notice == problems[0]
    assert commands.handle(ctx(), "subscriptions").notice.subscriptions == ()


def test_limits_applied_to_a_query_are_said_after_the_answer(commands: SyncCommands) -> None:
    capped = commands.handle(ctx(), "rocm since 1970-01-01")
    assert isinstance(capped.answer, QueryResult) and len(capped.answer.items) == 5
    assert capped.answer.window.end - capped.answer.window.start == timedelta(days=366)
    assert capped.notes == (QueryAdjusted("window_capped", "366"), QueryAdjusted("never_synced", "2025-11-02 12:00"))
    digest = commands.handle(ctx(), "since 9999-12-31")
    assert isinstance(digest.answer, Digest)
    assert digest.notes == (QueryAdjusted("date_clamped", "9999-12-31", "2025-12-02"),)
    long = commands.handle(ctx(), "rocm " + "a" * 490)
    # No item has both words: the topic alone answers (never a silent zero), and both notes say so.
    assert isinstance(long.answer, QueryResult) and len(long.answer.items) == 5 and long.answer.reading == "topic"
    assert long.notes == (QueryAdjusted("topic_alone", "AMD / ROCm", "rocm"),
                          QueryAdjusted("word_cut", "a" * 20 + "…", "100"))
    assert long.answer.notes == tuple(note.as_note() for note in long.notes)
    cut = commands.handle(ctx(), "zzz " + "a" * 490)  # no topic named: nothing to read more loosely
    assert isinstance(cut.answer, QueryResult) and cut.answer.items == ()
    assert cut.notes == (QueryAdjusted("word_cut", "a" * 20 + "…", "100"),)
    subscribed = commands.handle(ctx(), "subscribe " + " ".join(f"w{n}" for n in range(13)))
    assert subscribed.notice.kind == "subscribed"
    assert subscribed.notice.notes == (QueryAdjusted("words_dropped", "12"),)


# --- mutes ---


def add_cuda_items(store: Store) -> None:
    items = [issue_payload(n, NOW - timedelta(hours=n - 10), title=f"[Bugfix][CUDA] fix H100 {n}", pr=True)
             for n in range(11, 14)]
    store.save_page([item_from_payload("o/r", p, lambda login: False) for p in items])


def topic_sections(reply: object) -> set[str]:
    answer = reply.answer  # type: ignore[attr-defined]
    assert isinstance(answer, Digest)
    return {s.id for s in answer.sections if s.id.startswith("topic:")}


def test_a_channel_mute_hides_the_topic_from_that_channels_digest_until_it_expires(commands: SyncCommands) -> None:
    add_cuda_items(commands.store)
    assert topic_sections(commands.handle(ctx(), "")) == {"topic:rocm", "topic:cuda"}
    muted = commands.handle(ctx(), "mute AMD 3d")  # an alias names the topic
    assert muted.notice.kind == "muted" and muted.notice.personal is False
    mute = muted.notice.mute
    # Until NOW + 3 days, shown in the channel's zone (Asia/Shanghai, UTC+8).
    assert (mute.topic, mute.title, mute.until) == ("rocm", "AMD / ROCm", "2025-12-05 12:00")
    assert muted.notice.timezone == "Asia/Shanghai"
    assert topic_sections(commands.handle(ctx(), "")) == {"topic:cuda"}
    assert topic_sections(commands.handle(ctx(), "post")) == {"topic:cuda"}
    assert topic_sections(commands.handle(ctx(channel_id="C2"), "")) == {"topic:rocm", "topic:cuda"}
    assert commands.handle(ctx(), "rocm 3d").answer.items  # an explicit query still answers  # type: ignore[union-attr]
    # Three days later the mute is over: it neither hides nor shows up in the lists.
    later = NOW + timedelta(days=3)
    assert commands.handle(ctx(now=later), "mute").notice.mutes == ()
    assert commands.handle(ctx(now=later - timedelta(seconds=1)), "mute").notice.mutes[0].topic == "rocm"
    commands.mutes.mute("slack", "channel", "C1", "cuda", NOW - timedelta(minutes=1), "U1", now=NOW - timedelta(days=1))
    assert topic_sections(commands.handle(ctx(), "")) == {"topic:cuda"}  # cuda's mute had expired before NOW


def test_mutes_are_listed_unmuted_and_shown_in_the_channel_settings(commands: SyncCommands) -> None:
    assert commands.handle(ctx(), "mute").notice.mutes == ()
    commands.handle(ctx(), "mute rocm")
    commands.handle(ctx(), "mute cuda 24h")
    listed = commands.handle(ctx(), "mute")
    assert listed.notice.kind == "mutes"
    assert [(m.topic, m.until) for m in listed.notice.mutes] == [("cuda", "2025-12-03 12:00"), ("rocm", None)]
    shown = commands.handle(ctx(), "channel")
    assert [m.topic for m in shown.notice.mutes] == ["cuda", "rocm"]
    saved = commands.handle(ctx(), "channel time 10:00")
    assert [m.topic for m in saved.notice.mutes] == ["cuda", "rocm"]
    assert commands.handle(ctx(), "unmute ROCm").notice.removed == 1
    nothing = commands.handle(ctx(), "unmute rocm")
    assert nothing.notice.kind == "unmuted" and nothing.notice.removed == 0
    everything = commands.handle(ctx(), "unmute all")
    assert everything.notice == Unmuted(personal=False, timezone="Asia/Shanghai", topic=None, removed=1, mutes=())


def test_personal_mutes_are_the_users_not_the_channels(commands: SyncCommands) -> None:
    add_cuda_items(commands.store)
    mine = commands.handle(ctx(), "mute rocm for me")
    assert mine.notice.kind == "muted" and mine.notice.personal is True
    assert topic_sections(commands.handle(ctx(), "")) == {"topic:rocm", "topic:cuda"}  # the channel: unchanged
    in_dm = commands.handle(ctx(channel_id="D1", is_dm=True), "mute cuda 7d")  # in a DM: always personal
    assert in_dm.notice.personal is True
    assert commands.user_mutes("slack", "U1", NOW) == ("cuda", "rocm")
    assert commands.channel_mutes("slack", "C1", NOW) == ()
    assert commands.user_mutes("slack", "U2", NOW) == ()
    commands.handle(ctx(), "subscribe qwen at 09:00 tz Europe/Berlin")
    listed = commands.handle(ctx(), "subscriptions")
    # Personal times are shown in the user's own (subscription) zone: NOW + 7 days in Berlin.
    assert listed.notice.timezone == "Europe/Berlin"
    assert [(m.topic, m.until) for m in listed.notice.mutes] == [("cuda", "2025-12-09 05:00"), ("rocm", None)]
    assert [m.topic for m in commands.handle(ctx(), "mute for me").notice.mutes] == ["cuda", "rocm"]
    assert commands.handle(ctx(), "mute").notice.mutes == ()  # the channel's list
    assert commands.handle(ctx(channel_id="D1", is_dm=True), "unmute all").notice.removed == 2


def test_unknown_topics_get_a_suggestion(commands: SyncCommands) -> None:
    assert commands.handle(ctx(), "mute rcom 7d").notice == UnknownTopic("rcom", "rocm")
    assert commands.handle(ctx(), "mute xyzzy").notice == UnknownTopic("xyzzy", None)
    assert commands.handle(ctx(), "mute rocm today").notice.kind == "invalid"
    assert commands.handle(ctx(), "mute").notice.mutes == ()


def test_channel_mutes_need_the_channel_settings_permission(commands: SyncCommands, config: Settings) -> None:
    strict = config.model_copy(update={"file": config.file.model_copy(update={
        "chat": config.file.chat.model_copy(update={"channel_settings": "admins"})})})
    admins_only = SyncCommands(commands.store, strict)
    assert admins_only.handle(ctx(), "mute rocm").notice.kind == "not_allowed"
    assert admins_only.handle(ctx(), "unmute all").notice.kind == "not_allowed"
    assert admins_only.channel_mutes("slack", "C1", NOW) == ()
    assert admins_only.handle(ctx(), "mute").notice.kind == "mutes"  # listing: anyone
    assert admins_only.handle(ctx(), "mute rocm for me").notice.kind == "muted"  # one's own DMs: anyone
    assert admins_only.handle(ctx(channel_id="D1", is_dm=True), "mute cuda").notice.kind == "muted"
    assert admins_only.handle(ctx(can_manage=True), "mute rocm 7d").notice.kind == "muted"
    assert admins_only.channel_mutes("slack", "C1", NOW) == ("rocm",)
    assert admins_only.handle(ctx(can_manage=True), "unmute rocm").notice.removed == 1


# --- which repositories (docs/access.md) ---


def configured(config: Settings, text: str) -> Settings:
    """``config`` with more of digest.toml (e.g. an [access] table), validated as a file would be."""
    (config.config_dir / "digest.toml").write_text(text + '\n[[repos]]\nname = "o/r"\n')
    return load_settings(config.config_dir, env={})


def worded(reply: Reply) -> str:
    assert reply.notice is not None
    return "\n".join(render_notice(reply.notice, locale=locale, escape=str, platform=platform)
                     for locale in ("en", "zh-CN") for platform in ("slack", "discord"))


def test_a_repository_outside_the_allow_list_enters_nowhere(commands: SyncCommands) -> None:
    secret = [issue_payload(7, NOW - timedelta(hours=1), title="[Bugfix][ROCm] secret fix", pr=True)]
    commands.store.save_page([item_from_payload("acme/secret", p, lambda login: False) for p in secret])
    commands.store.complete_listing("acme/secret", "issues", NOW, [], synced_from=NOW - timedelta(days=30))
    for text, where in [("subscribe rocm repo:acme/secret", ctx()), ("channel repo acme/secret", ctx()),
                        ("rocm repo:acme/secret", ctx()), ("repo:acme/secret", ctx()),
                        ("post repo:acme/secret", ctx()), ("rocm repo:acme/secret", ctx(channel_id="D1", is_dm=True)),
                        ("subscribe rocm repo:acme/secret", ctx(channel_id="D1", is_dm=True))]:
        reply = commands.handle(where, text)
        assert reply.notice is not None and reply.notice.kind == "repo_not_allowed", text
        assert reply.answer is None and not reply.post
        words = worded(reply)
        assert "acme/secret" in words and "o/r" not in words  # names nothing else
    assert commands.service.chat.subscriptions("slack", "U1") == []
    assert commands.service.chat.channel("slack", "C1") is None


def test_an_allowed_repository_never_synced_names_no_other(commands: SyncCommands, config: Settings) -> None:
    allowed = SyncCommands(commands.store, configured(config, '[access]\nrepos = ["acme/*"]'))
    reply = allowed.handle(ctx(), "rocm repo:acme/tool")
    assert reply.notice is not None and reply.notice.kind == "repo_not_synced"
    assert "acme/tool" in worded(reply) and "o/r" not in worded(reply)


def test_patterns_admit_subscriptions_and_channel_repositories(commands: SyncCommands, config: Settings) -> None:
    allowed = SyncCommands(commands.store, configured(config, '[access]\nrepos = ["acme/*"]'))
    subscribed = allowed.handle(ctx(), "subscribe rocm repo:acme/tool").notice
    assert subscribed.kind == "subscribed" and subscribed.subscription.repo == "acme/tool"
    assert allowed.handle(ctx(), "subscribe qwen repo:acmeX/tool").notice.kind == "repo_not_allowed"
    assert allowed.handle(ctx(), "channel repo acme/widgets").notice.kind == "channel_saved"
    assert allowed.service.chat.channel("slack", "C1").repo == "acme/widgets"
    assert allowed.handle(ctx(), "channel repo O/R").notice.kind == "channel_saved"
    assert allowed.service.chat.channel("slack", "C1").repo == "o/r"  # the configured spelling: one sync, not two
    assert allowed.handle(ctx(), "channel repo other/repo").notice.kind == "repo_not_allowed"
    assert allowed.service.chat.channel("slack", "C1").repo == "o/r"


def test_in_admins_mode_subscriptions_beyond_the_configured_repos_need_an_admin(commands: SyncCommands,
                                                                                config: Settings) -> None:
    strict = SyncCommands(commands.store, configured(config, '[chat]\nchannel_settings = "admins"\n'
                                                             '[access]\nrepos = ["acme/*"]'))
    refused = strict.handle(ctx(), "subscribe rocm repo:acme/tool")
    assert refused.notice.kind == "repo_needs_admin"
    assert "acme/tool" in worded(refused) and "o/r" not in worded(refused)
    assert strict.handle(ctx(channel_id="D1", is_dm=True), "subscribe rocm repo:acme/tool").notice.kind == (
        "repo_needs_admin")
    assert strict.handle(ctx(), "subscribe rocm repo:acme/secret x").notice.kind == "repo_needs_admin"
    assert strict.handle(ctx(), "subscribe rocm repo:evil/secret").notice.kind == "repo_not_allowed"
    assert strict.service.chat.subscriptions("slack", "U1") == []
    assert strict.handle(ctx(), "subscribe rocm repo:o/r").notice.kind == "subscribed"  # configured: anyone
    assert strict.handle(ctx(), "subscribe qwen").notice.kind == "subscribed"  # the channel's own: anyone
    assert strict.handle(ctx(can_manage=True), "subscribe cuda repo:acme/tool").notice.kind == "subscribed"
    assert strict.handle(ctx(), "channel repo acme/tool").notice.kind == "not_allowed"
    assert strict.handle(ctx(can_manage=True), "channel repo acme/tool").notice.kind == "channel_saved"
    # The channel's repository, set by an admin, is anyone's to subscribe to in that channel.
    assert strict.handle(ctx(user_id="U2"), "subscribe rocm repo:acme/tool").notice.kind == "subscribed"
    assert [s.repo for s in strict.service.chat.subscriptions("slack", "U1")] == ["o/r", "o/r", "acme/tool"]


@pytest.fixture
def github() -> FakeGitHub:
    fake = FakeGitHub(base_url="https://api.github.invalid")
    fake.add_repo("acme/public", [], [])
    fake.add_repo("acme/private", [], [], repo_fields={"private": True, "visibility": "private"})
    return fake


def lookups(fake: FakeGitHub) -> list[str]:
    return [r.path for r in fake.requests]


def test_allow_public_asks_github_once_and_refuses_private_ones(commands: SyncCommands, config: Settings,
                                                                github: FakeGitHub) -> None:
    settings = configured(config, "[access]\nallow_public = true")
    public = SyncCommands(commands.store, settings, github=lambda: github_client(
        settings, api_url="https://api.github.invalid", transport=httpx.MockTransport(github.handler)))
    reply = public.handle(ctx(), "subscribe rocm repo:acme/public")
    assert reply.notice.kind == "subscribed" and reply.notice.subscription.repo == "acme/public"
    assert lookups(github) == ["/repos/acme/public"]
    assert public.handle(ctx(), "rocm repo:acme/public").notice.kind == "repo_not_synced"
    assert public.handle(ctx(), "channel repo acme/public").notice.kind == "channel_saved"
    assert lookups(github) == ["/repos/acme/public"]  # remembered
    for text in ("subscribe rocm repo:acme/private", "channel repo acme/private", "rocm repo:acme/private",
                 "rocm repo:acme/missing"):
        reply = public.handle(ctx(), text)
        assert reply.notice.kind == "repo_not_allowed", text  # private and unknown: the same answer
        assert "o/r" not in worded(reply) and "acme/public" not in worded(reply)
    assert lookups(github) == ["/repos/acme/public", "/repos/acme/private", "/repos/acme/missing"]
    assert [s.repo for s in public.service.chat.subscriptions("slack", "U1")] == ["acme/public"]
    assert public.service.chat.channel("slack", "C1").repo == "acme/public"
    # Without allow_public, GitHub is never asked.
    closed = SyncCommands(commands.store, config, github=lambda: github_client(
        config, api_url="https://api.github.invalid", transport=httpx.MockTransport(github.handler)))
    assert closed.handle(ctx(), "rocm repo:acme/public").notice.kind == "repo_not_allowed"
    assert len(github.requests) == 3
