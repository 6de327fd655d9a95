"""Queries that mean what they say (docs/topics.md, "Queries"): a word is a word, a topic only by its name,
ranking by match strength then recency, items by number, `/digest why 123`, and topics from their people."""

from __future__ import annotations

import asyncio
import json
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app.context import Context
from bot.app.notices import (
    Invalid,
    ItemNotFound,
    QueryAdjusted,
    Refused,
    Why,
)
from bot.app.service import DigestService
from bot.cli import main
from bot.commands.grammar import Why as WhyCommand
from bot.commands.grammar import parse_command
from bot.commands.handlers import Commands
from bot.github.payloads import item_from_payload
from bot.model import Active, Evidence, Hot, InTopic, NewBug, QueryMatch, QueryResult, TermHit
from bot.settings import Settings, load_settings
from bot.store.store import Store
from bot.topics.catalog import load_taxonomy
from bot.topics.items import classify, item_topics, stored_topic_ids
from bot.topics.query import parse_query
from bot.topics.search import topic_named
from bot.topics.taxonomy import Taxonomy, TopicDef
from formatters.json_format import query_to_dict
from formatters.notices import render_notice
from formatters.safety import slack_mrkdwn
from tests.factories import comment_payload, issue_payload

ROOT = Path(__file__).resolve().parents[1]
NOW = datetime(2025, 12, 2, 3, 5, tzinfo=UTC)  # 11:05 in Asia/Shanghai: the daily window ends here
DAY = timedelta(days=1)
HOUR = timedelta(hours=1)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    shutil.copy(ROOT / "config" / "topics.toml", tmp_path)
    (tmp_path / "digest.toml").write_text('[[repos]]\nname = "o/r"\n')
    return load_settings(tmp_path, env={})


def save(store: Store, settings: Settings, payloads: list[dict], comments: list[dict] | None = None) -> Store:
    from bot.github.payloads import comment_from_payload

    store.save_page([item_from_payload("o/r", p, settings.is_bot) for p in payloads],
                    [comment_from_payload("o/r", c, settings.is_bot) for c in comments or []])
    store.complete_listing("o/r", "issues", NOW, [], synced_from=NOW - 30 * DAY)
    store.complete_listing("o/r", "comments", NOW, [], synced_from=NOW - 30 * DAY)
    return store


@pytest.fixture
def service(store: Store, settings: Settings) -> Iterator[DigestService]:
    service = DigestService(store, settings)
    yield service
    service.close()


def ask(service: DigestService, text: str) -> tuple[QueryResult, tuple[QueryAdjusted, ...]]:
    answer, notes = service.answer_noted(service.default_context(repo="o/r"), text, now=NOW, analyse=False)
    assert isinstance(answer, QueryResult)
    return answer, notes


def numbers(result: QueryResult) -> list[int]:
    return [item.number for item in result.items]


# --- a word is a word ------------------------------------------------------------------------------------

FAILURES = [
    # qwen, and a hang in its own words
    issue_payload(1, NOW - 2 * DAY, title="[Bug]: Qwen3-32B hangs after 200 requests", labels=("bug",)),
    issue_payload(2, NOW - 3 * DAY, title="[Bug]: server stuck with Qwen2.5-7B and prefix caching", labels=("bug",)),
    # qwen, but not a hang: a crash (illegal memory access), an OOM, wrong output (all in the stability topic)
    issue_payload(3, NOW - 1 * DAY, title="[Bug]: Qwen3-Next: CUDA illegal memory access in fused_moe",
                  labels=("bug", "qwen")),
    issue_payload(4, NOW - 1 * DAY, title="[Bug]: OOM loading Qwen3-235B with TP=4", labels=("bug", "qwen")),
    issue_payload(5, NOW - 2 * DAY, title="[Bug]: Qwen3 FP8 returns garbage output", labels=("bug", "stability")),
    # a hang, but not qwen
    issue_payload(6, NOW - 2 * DAY, title="[Bug]: Llama-3.1-8B deadlocks under load", labels=("bug",)),
    # FP8: a regression, a slowdown, garbage, OOM
    issue_payload(7, NOW - 2 * DAY, title="[Bug]: FP8 accuracy regression since v0.11.1", labels=("bug",)),
    issue_payload(8, NOW - 2 * DAY, title="[Performance]: FP8 GEMM is 30% slower on H100", labels=("performance",)),
    issue_payload(9, NOW - 3 * DAY, title="[Bug]: fp8 KV cache produces gibberish", labels=("bug",)),
    issue_payload(10, NOW - 3 * DAY, title="[Bug]: CUDA out of memory with FP8 weights on L4", labels=("bug",)),
    # a timeout is not a hang
    issue_payload(11, NOW - 1 * DAY, title="[Bug]: request timeout with Qwen3 behind nginx", labels=("bug",)),
]


def test_qwen_hangs_returns_only_hang_reports_about_qwen(store: Store, settings: Settings,
                                                          service: DigestService) -> None:
    save(store, settings, FAILURES)
    result, _ = ask(service, "qwen hangs")
    assert sorted(numbers(result)) == [1, 2]  # not the crash, the OOM, the garbage output, Llama's deadlock
    assert sorted(numbers(ask(service, "qwen deadlock")[0])) == [1, 2]  # one group: deadlock ~ hang ~ stuck


def test_hang_top_results_are_hangs_and_name_no_topic(store: Store, settings: Settings,
                                                       service: DigestService) -> None:
    save(store, settings, FAILURES)
    result, _ = ask(service, "hang")
    assert result.topic is None  # "hang" is a symptom, not the stability topic's name
    assert sorted(numbers(result)) == [1, 2, 6]
    assert all(term.source == "title" for item in result.items for term in item.why.terms)  # type: ignore[union-attr]


def test_fp8_regression_finds_no_slowdown_garbage_or_oom(store: Store, settings: Settings,
                                                         service: DigestService) -> None:
    save(store, settings, FAILURES)
    assert numbers(ask(service, "fp8 regression")[0]) == [7]
    assert numbers(ask(service, "fp8 slow")[0]) == [8]
    assert sorted(numbers(ask(service, "fp8 garbage")[0])) == [5, 9]  # gibberish ~ garbage
    assert numbers(ask(service, "fp8 oom")[0]) == [10]  # out of memory ~ oom


def test_symptoms_and_everyday_words_name_no_topic_names_do(settings: Settings) -> None:
    taxonomy = load_taxonomy(settings)
    for word in ("hang", "hangs", "crash", "oom", "regression", "accuracy", "leak", "slow", "fast", "latency",
                 "throughput", "benchmark", "build", "test", "tests", "release", "server", "chat", "cache",
                 "parallel", "draft", "json", "power", "mi300x", "graviton3"):
        assert topic_named(taxonomy, word) is None, word
    named = {"rocm": "rocm", "AMD": "rocm", "qwen": "qwen", "Qwen3": "qwen", "deepseek": "deepseek",
             "moe": "moe", "stability": "stability", "gpt-oss": "gpt_oss", "ci": "ci_build", "cpu": "hardware",
             "perf": "performance", "Qwen models": "qwen", "quark": "quantization"}
    for word, topic in named.items():
        found = topic_named(taxonomy, word)
        assert found is not None and found.id == topic, word


def test_plain_words_still_match_items_as_before() -> None:
    """Taking a word out of a topic's names changes no match: the sets score the same, match for match."""
    taxonomy = Taxonomy.load(ROOT / "config" / "topics.toml")
    stability = taxonomy.get("stability")
    assert stability is not None
    assert stability.match("[Hang] engine stops after 10 minutes", ()) is not None  # a tag that is a keyword
    ci = taxonomy.get("ci_build")
    assert ci is not None and ci.match("[Build] fix the wheel", ()) is not None
    assert ci.names_word("ci") and not ci.names_word("build")


# --- ranking ---------------------------------------------------------------------------------------------


def test_both_words_in_the_title_rank_first_then_recency(store: Store, settings: Settings,
                                                          service: DigestService) -> None:
    save(store, settings, [
        # both words in the title, older
        issue_payload(21, NOW - 5 * DAY, title="[Bug]: Gemma crash on startup", labels=("bug",)),
        # both words in the title, newer: first
        issue_payload(22, NOW - 4 * DAY, title="[Bug]: Gemma 3 crashes with TP=2", labels=("bug",)),
        # one word in the title, one in the body, very recent and busy: after both of the above
        issue_payload(23, NOW - HOUR, title="[Bug]: engine crashes at load", labels=("bug",),
                      body="Loading gemma-3-27b-it. The engine crashes right after the weights load."),
        # one word in a label, one in the title
        issue_payload(24, NOW - 2 * DAY, title="[Bug]: segfault in the sampler", labels=("bug", "gemma")),
    ], [comment_payload(300 + i, 23, NOW - HOUR + timedelta(minutes=i)) for i in range(9)])
    result, _ = ask(service, "gemma crash")
    assert numbers(result) == [22, 21, 24, 23]


# --- items by number -------------------------------------------------------------------------------------

NUMBERED = [
    issue_payload(30521, NOW - 2 * DAY, title="[Bug]: Qwen3 hangs", labels=("bug",)),
    issue_payload(29000, NOW - 40 * DAY, title="[Feature]: old request", closed=NOW - 20 * DAY),
    issue_payload(30600, NOW - DAY, title="Bump torch", pr=True, user="dependabot[bot]", bot=True),
]


def test_a_number_finds_its_item_in_any_state_and_outside_the_window(store: Store, settings: Settings,
                                                                     service: DigestService) -> None:
    save(store, settings, NUMBERED)
    for text in ("#30521", "30521", "#30521.", "#30521 is:issue"):
        result, notes = ask(service, text)
        assert numbers(result) == [30521] and notes == (), text
        assert result.items[0].why == QueryMatch((TermHit("number", "30521"),))
    assert query_to_dict(ask(service, "#30521")[0])["items"][0]["reason"] == "number: 30521"
    result, notes = ask(service, "#29000")  # closed 20 days ago: answered, and said so with its last activity
    assert numbers(result) == [29000]
    assert notes == (QueryAdjusted("outside_window", "29000", "2025-11-12 11:05"),)
    assert result.parsed["notes"] == ["#29000 had no activity in the window; its last activity was 2025-11-12 11:05"]
    assert numbers(ask(service, "#30600")[0]) == [30600]  # a bot's item, asked for by number
    assert numbers(ask(service, "#30521 is:pr")[0]) == []  # filters still apply
    assert parse_query("qwen 3").words == ("qwen", "3")  # a bare number next to words is a word


def test_a_number_not_in_the_store_gets_a_short_note(store: Store, settings: Settings,
                                                     service: DigestService) -> None:
    save(store, settings, NUMBERED)
    with pytest.raises(Refused) as refused:
        ask(service, "#12")
    assert refused.value.notice == ItemNotFound("o/r", 12, "2025-11-02")
    text = render_notice(refused.value.notice, locale="en", escape=str)
    assert text.startswith("#12 is not in the store of o/r (synced from 2025-11-02)")
    assert "#12" in render_notice(refused.value.notice, locale="zh-CN", escape=str)
    result, notes = ask(service, "#30521 #12")  # one found, one not: the answer, and a note
    assert numbers(result) == [30521] and notes == (QueryAdjusted("not_in_store", "12"),)


# --- /digest why 123 -------------------------------------------------------------------------------------


@pytest.fixture
def day(store: Store, settings: Settings) -> Store:
    """A day with a hot ROCm hang report, a quiet item from the window and one from before it."""
    return save(store, settings, [
        issue_payload(40, NOW - 5 * HOUR, title="[Bug][ROCm]: MI300X hangs with TP=8", labels=("bug", "rocm")),
        issue_payload(41, NOW - 6 * DAY, title="[Feature]: a prettier startup banner", updated=NOW - 3 * HOUR),
        issue_payload(42, NOW - 9 * DAY, title="[Bug]: Qwen3 segfault"),
    ], [*(comment_payload(400 + i, 40, NOW - 4 * HOUR + timedelta(minutes=i), user=f"u{i % 3}") for i in range(6)),
        comment_payload(500, 41, NOW - 3 * HOUR, user="bob")])


def test_why_says_which_sections_and_why(day: Store, service: DigestService) -> None:
    why = service.why(service.default_context(repo="o/r"), 40, now=NOW)
    sections = {(p.section, p.topic.id if p.topic else None): p for p in why.placements}
    assert ("topic", "rocm") in sections and ("hot", None) in sections and ("notable", None) in sections
    assert isinstance(sections["topic", "rocm"].why, InTopic)
    assert Evidence("label", "rocm") in sections["topic", "rocm"].why.evidence  # type: ignore[union-attr]
    assert isinstance(sections["hot", None].why, Hot) and sections["hot", None].why.comments == 6
    assert sections["notable", None].why == NewBug("hang", 6)
    assert why.listed == ("opened",)
    text = render_notice(why, locale="en", escape=str, platform="cli")
    assert text.startswith("#40 [issue, open] [Bug][ROCm]: MI300X hangs with TP=8 (alice) is in today's digest")
    assert "• AMD / ROCm, 1 of 1: label rocm" in text and "new bug: hang, 6 comments" in text
    assert text.endswith("\nhttps://github.com/o/r/issues/40")  # the terminal shows the link on its own line
    slack = render_notice(why, locale="en", escape=slack_mrkdwn, platform="slack")
    assert slack.startswith("<https://github.com/o/r/issues/40|#40> [issue, open]") and "\nhttps" not in slack
    zh = render_notice(why, locale="zh-CN", escape=str)
    assert "出现在今日摘要中" in zh and "新 bug：卡死" in zh


def test_why_an_item_is_not_in_the_digest(day: Store, service: DigestService) -> None:
    context = service.default_context(repo="o/r")
    quiet = service.why(context, 41, now=NOW)  # one comment in the window: no section picked it
    assert quiet.placements == () and quiet.activity == Active("commented", 1)
    assert "is not in today's digest" in render_notice(quiet, locale="en", escape=str)
    assert "In the window: 1 new comment; no section picked it." in render_notice(quiet, locale="en",
                                                                                          escape=str)
    old = service.why(context, 42, now=NOW)  # nothing in the window: its last activity instead
    assert old.placements == () and old.activity is None and old.last_activity == "2025-11-23 11:05"
    text = render_notice(old, locale="en", escape=str, platform="cli")
    assert "Not opened, closed, merged or commented in the window; last updated 2025-11-23 11:05." in text
    assert "Qwen models (title: Qwen3" in text
    assert "窗口内没有新建、关闭、合并或评论" in render_notice(old, locale="zh-CN", escape=str)
    with pytest.raises(Refused) as refused:
        service.why(context, 7, now=NOW)
    assert isinstance(refused.value.notice, ItemNotFound)


def test_why_is_a_command_on_every_platform_and_the_cli(day: Store, service: DigestService, settings: Settings,
                                                        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert parse_command("why 40") == WhyCommand(40) == parse_command("WHY #40")
    assert parse_command("why") == Invalid("say_why", "/digest why 123", "")
    assert parse_command("why qwen") == Invalid("say_why", "/digest why 123", "qwen")
    context = Context(platform="slack", channel_id="C1", user_id="U1", now=NOW)
    reply = asyncio.run(Commands(service).handle(context, "why #40"))
    assert isinstance(reply.notice, Why) and reply.notice.number == 40
    missing = asyncio.run(Commands(service).handle(context, "why 7"))
    assert isinstance(missing.notice, ItemNotFound)


def test_cli_query_why_prints_the_answer_and_its_json(tmp_path: Path, settings: Settings,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "cli"
    config.mkdir()
    shutil.copy(ROOT / "config" / "topics.toml", config)
    database = tmp_path / "cli.sqlite3"
    (config / "digest.toml").write_text(f'[[repos]]\nname = "o/r"\n[store]\nurl = "sqlite:///{database}"\n')
    with Store.open(f"sqlite:///{database}") as store:
        save(store, settings, [issue_payload(40, NOW - 5 * HOUR, title="[ROCm] MI300X hangs", labels=("rocm",))])
    end = "2025-12-02T03:05:00Z"
    assert main(["--config", str(config), "query", "why 40", "--end", end]) == 0
    assert "#40 [issue, open] [ROCm] MI300X hangs (alice) is in today's digest" in capsys.readouterr().out
    assert main(["--config", str(config), "query", "why #40", "--end", end, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == "why" and data["number"] == 40
    assert {"section": "topic", "topic": "rocm"} in [
        {"section": p["section"], "topic": (p["topic"] or {}).get("id")} for p in data["placements"]]


# --- topics from people ----------------------------------------------------------------------------------


def test_a_vendor_engineers_items_belong_to_the_vendor_topic() -> None:
    taxonomy = Taxonomy.load(ROOT / "config" / "topics.toml")
    rocm = taxonomy.get("rocm")
    assert rocm is not None
    plain = "[Kernel] Tune the fused MoE config for batch 64"
    assert rocm.match(plain, (), "", "someone") is None
    by_engineer = rocm.match(plain, (), "", "HongxiaYang-AMD")
    assert by_engineer is not None and by_engineer.evidence == (Evidence("author", "HongxiaYang-AMD"),)
    assert rocm.match("[Bug]: slow start", (), "", "vllmellm") is not None  # issues too, and the team account
    assert rocm.match(plain, (), "", "amd-fan") is None and rocm.match(plain, (), "", "xamd") is None
    tagged = rocm.match("[ROCm] Tune the fused MoE config", (), "", "vllmellm")
    assert tagged is not None and tagged.evidence[0] == Evidence("tag", "rocm")  # the text reads first
    assert tagged.evidence[-1] == Evidence("author", "vllmellm") and tagged.score > by_engineer.score
    quark = rocm.match("[Quantization] Support Quark MXFP4 W4A4 checkpoints", ())  # AMD's tool
    assert quark is not None and quark.evidence == (Evidence("title", "Quark"),)


def test_author_patterns_are_globs_with_literal_brackets_and_are_checked() -> None:
    from pydantic import ValidationError

    from bot.topics.taxonomy import Topic

    team = Topic(TopicDef(id="team", name="Team", authors=["release-bot[bot]", "j?n-*"]))
    assert team.author_hit("release-bot[bot]") and not team.author_hit("release-bott")
    assert team.author_hit("jan-x") and team.author_hit("JON-Y") and not team.author_hit("joan-x")
    with pytest.raises(ValidationError, match="not a login pattern"):
        TopicDef(id="bad", name="Bad", authors=["a b"])


def test_the_fingerprint_covers_authors_so_stored_matches_recompute(store: Store, settings: Settings) -> None:
    base = ROOT / "config" / "topics.toml"
    before = Taxonomy.load(base)
    assert Taxonomy.load(base).fingerprint == before.fingerprint
    rocm = before.get("rocm")
    assert rocm is not None
    changed = Taxonomy([t if t.id != "rocm" else type(t)(rocm.definition.model_copy(update={"authors": []}))
                        for t in before.topics])
    assert changed.fingerprint != before.fingerprint
    payload = issue_payload(50, NOW - HOUR, title="[Kernel] Tune fused MoE configs", user="kliuae-amd", pr=True)
    record = item_from_payload("o/r", payload, settings.is_bot)
    stored = classify(changed, record)  # stored under the taxonomy without authors: no rocm
    assert "rocm" not in {m.topic_id for m in item_topics(changed, stored)}
    assert "rocm" in {m.topic_id for m in item_topics(before, stored)}  # another fingerprint: matched anew
    store.save_page([stored])
    topics, current = stored_topic_ids(store, before, "o/r", [50])
    assert "rocm" in topics[50] and not current  # read in bulk: recomputed with the author


def test_a_team_account_that_posts_real_work_is_a_person() -> None:
    settings = load_settings(ROOT / "config", env={})  # the shipped configuration
    assert not settings.is_bot("vllmellm") and settings.is_bot("mergify") and settings.is_bot("dependabot[bot]")
    rocm = load_taxonomy(settings, restrict=False).get("rocm")
    assert rocm is not None and rocm.author_hit("vllmellm")


def test_a_vendor_topic_section_shows_its_engineers_prs(store: Store, settings: Settings,
                                                        service: DigestService) -> None:
    save(store, settings, [issue_payload(60, NOW - 3 * HOUR, title="[Kernel] Faster top-k sampling", pr=True,
                                         user="hongxiayang-amd"),
                           issue_payload(61, NOW - 3 * HOUR, title="[Kernel] Faster top-p sampling", pr=True)])
    result, _ = ask(service, "rocm")
    assert numbers(result) == [60]
    assert query_to_dict(result)["items"][0]["reason"] == "rocm: by @hongxiayang-amd"
    from formatters.reasons import reason_text

    assert reason_text(result.items[0].why, "en") == "AMD / ROCm (by @hongxiayang-amd)"  # type: ignore[arg-type]
    assert "作者 @hongxiayang-amd" in reason_text(result.items[0].why, "zh-CN")  # type: ignore[arg-type]
