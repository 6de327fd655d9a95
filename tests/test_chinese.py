"""zh-CN reads as Chinese written by a person: no English of ours in any format, no stray spaces.

The demo digest and answers to queries on the demo sample are rendered in zh-CN as Markdown, Slack and Discord
payloads; so are the notices and every kind of reason. Two ways keep GitHub's text (English titles, labels,
logins) out of the verdict: the real rendering may hold only GitHub's words and technical terms; and the same
answers with GitHub's text replaced by Greek placeholders may hold technical terms only, with no space
between two Chinese characters or next to full-width punctuation (``tests/chinese_text.py``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
import typing
from collections.abc import Callable, Collection, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec import Struct, structs

from bot.app import notices as n
from bot.app.service import DigestService
from bot.demo.fake_github import FakeGitHub
from bot.demo.generator import generate_repo
from bot.demo.run import DEMO_API, SAMPLE_DAYS, SAMPLE_END, SAMPLE_REPO
from bot.digest.narrative import render_summary, tidy_cjk_spacing
from bot.digest.window import default_window
from bot.github.factory import build_syncer, github_client
from bot.model import (
    BUG_KINDS,
    Activity,
    Digest,
    DigestItem,
    NewBug,
    QueryResult,
    Reason,
    Section,
    Stats,
    Theme,
    TopicRef,
)
from bot.settings import Settings, load_settings
from bot.store.store import Store
from formatters.discord_embeds import render_discord_digest, render_discord_query
from formatters.locale import STRINGS
from formatters.markdown import render_markdown, render_markdown_query
from formatters.notices import render_notices
from formatters.safety import discord_markdown, slack_mrkdwn
from formatters.slack_blocks import render_slack_digest, render_slack_query
from tests.chinese_text import (
    CODE,
    COMMAND_WORDS,
    english_words,
    github_words,
    greek_digest,
    greek_item,
    greek_query,
    greek_reasons,
    payload_texts,
    stray_spaces,
)
from tests.formatter_strategies import WINDOW, item
from tests.test_app import SAMPLES

ROOT = Path(__file__).resolve().parents[1]
ZH = "zh-CN"
FORMATS = ("markdown", "slack", "discord")
# Queries a reader asks, each answered with items: a topic, words, filters.
QUERIES = ("rocm", "qwen hangs 7d", "label:bug -author:dependabot[bot] is:open 3d", "is:merged", "crash 3d")


@dataclasses.dataclass(frozen=True)
class Demo:
    digest: Digest
    answers: dict[str, QueryResult]
    nothing: QueryResult  # a query nothing matched: the window and suggestions


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Demo:
    """The demo's sample, synced through the in-process fake GitHub, as a Chinese channel reads it."""
    folder = tmp_path_factory.mktemp("zh-demo")
    settings = load_settings(ROOT / "config", env={})
    access = settings.file.access.model_copy(update={"repos": [SAMPLE_REPO]})
    settings = settings.model_copy(update={"file": settings.file.model_copy(update={"access": access})})
    store = Store.open(f"sqlite:///{folder / 'demo.sqlite3'}")
    try:
        asyncio.run(_sync(store, settings))
        service = DigestService(store, settings)
        try:
            context = service.default_context(repo=SAMPLE_REPO, locale=ZH)
            window = default_window(SAMPLE_END, settings.digest.zone, settings.digest.post_time)
            digest = service.build_digest(context, window, analyse=False)
            answers = {}
            for query in QUERIES:
                answer = service.answer_now(context, query, now=SAMPLE_END, analyse=False)
                assert isinstance(answer, QueryResult) and answer.items, query
                answers[query] = answer
            nothing = service.answer_now(context, "xyzzyq", now=SAMPLE_END, analyse=False)
            assert isinstance(nothing, QueryResult) and not nothing.items and nothing.suggestions
        finally:
            service.close()
    finally:
        store.close()
    return Demo(digest, answers, nothing)


async def _sync(store: Store, settings: Settings) -> None:
    owner, name = SAMPLE_REPO.split("/")
    sample = generate_repo(owner=owner, name=name, end=SAMPLE_END, days=SAMPLE_DAYS, api_url=DEMO_API)
    fake = FakeGitHub(base_url=DEMO_API)
    fake.add_repo(SAMPLE_REPO, sample.issues, sample.comments)
    async with github_client(settings, api_url=DEMO_API, transport=httpx.MockTransport(fake.handler)) as client:
        syncer = build_syncer(store, settings, client, lookback=timedelta(days=SAMPLE_DAYS + 1),
                              clock=lambda: SAMPLE_END)
        await syncer.sync(SAMPLE_REPO)


def rendered(answer: Digest | QueryResult, fmt: str) -> list[str]:
    """The texts a zh-CN reader sees of ``answer`` in ``fmt``: one Markdown text, or every text of the payloads."""
    if fmt == "markdown":
        text = (render_markdown(answer, locale=ZH) if isinstance(answer, Digest)
                else render_markdown_query(answer, locale=ZH))
        return [text]
    if fmt == "slack":
        payloads: Any = (render_slack_digest(answer, locale=ZH) if isinstance(answer, Digest)
                         else render_slack_query(answer, locale=ZH))
    else:
        payloads = (render_discord_digest(answer, locale=ZH) if isinstance(answer, Digest)
                    else render_discord_query(answer, locale=ZH))
    return list(payload_texts(json.loads(json.dumps(payloads))))


# The command a reader types (the topic index's hint, "用 `/digest <主题>` 查看"): syntax, not English prose.
SYNTAX = frozenset({"digest", "rocm", "ID"})
# The command line's own messages keep the program's name, its options and files, as a Chinese engineer types them.
CLI_WORDS = frozenset({"digest", "bot", "repo", "OWNER", "NAME", "toml", "repos", "access", "docs", "md", "debug",
                       "sync", "LLM",
                       # the commands and the variable the demo's hints name, and the names in its sample queries
                       "demo", "query", "status", "DATABASE", "URL", "rocm", "qwen"})


def english_of_ours(texts: list[str], *, allowed: Collection[str] = (), repo: str = SAMPLE_REPO) -> list[str]:
    # the report's title names the project ("vllm 开发动态报告"): GitHub's name, not ours
    allow = {*allowed, *SYNTAX, repo.rsplit("/", 1)[-1]}
    return sorted({word for text in texts for word in english_words(text, allowed=allow, github=[repo])})


def spaces_of_ours(texts: list[str], repo: str = SAMPLE_REPO) -> list[str]:
    found = {space for text in texts for space in stray_spaces(text, github=[repo])}
    return sorted(found)


# ------------------------------------------------------------------------------------------ the checks


def test_the_checks_catch_english_and_stray_spaces() -> None:
    assert english_words("已合并：3 comments in window") == ["comments", "in", "window"]
    assert english_words("新 PR · @alice", allowed={"alice"}) == []
    assert english_words("见 https://github.com/o/r/pull/1") == []
    assert english_words("&gt; MoE 与 KV cache") == []
    assert stray_spaces("Llama 系列模型 为平时的 1.7 倍") == ["型 为"]
    assert stray_spaces("新 Issue 26，关闭 Issue 21") == []
    assert stray_spaces("重点 ：NVIDIA（61） 和") == ["点 ：", "） 和"]
    assert stray_spaces("@αβ 的 PR") == []  # a Greek placeholder stands for Latin text


# ----------------------------------------------------------------------------------- the demo digest


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_demo_digest_has_no_english_but_githubs(demo: Demo, fmt: str) -> None:
    texts = rendered(demo.digest, fmt)
    assert any("高热度讨论" in text for text in texts)
    assert english_of_ours(texts, allowed=github_words(demo.digest)) == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_demo_digest_with_githubs_text_greek_is_chinese_and_well_spaced(demo: Demo, fmt: str) -> None:
    texts = rendered(greek_digest(demo.digest), fmt)
    assert english_of_ours(texts) == []
    assert spaces_of_ours(texts) == []


def test_the_demo_summary_reads_like_the_reference(demo: Demo) -> None:
    assert demo.digest.narrative is not None
    summary = demo.digest.narrative.summary
    stats = demo.digest.stats
    assert summary.startswith(f"今天活跃度很高：新 PR {stats.new_prs} 个，合并 {stats.merged_prs} 个，"
                              f"关闭未合并 {stats.closed_unmerged_prs} 个；新 Issue {stats.new_issues} 个，"
                              f"关闭 {stats.closed_issues} 个。")
    # The day's themes: no space between two Chinese words ("是投机解码"), one before a Latin name ("是 gpt-oss").
    assert re.search(r"。主要话题是(?:[\u4e00-\u9fff]| [A-Za-z0-9])[^。]*?（\d+ 项", summary), summary
    assert re.search(r"讨论最热的是 #\d+（\d+ 条新评论，\d+ 人参与）", summary), summary
    markdown = render_markdown(demo.digest, locale=ZH)
    assert "| 新 Issue | 关闭 Issue | 新 PR | 合并 PR | 关闭未合并 PR |" in markdown  # the reference's counts
    assert "时间窗口：2025-12-01 11:05 → 2025-12-02 11:05 (Asia/Shanghai)" in markdown
    assert "— 新 PR · @" in markdown and "作者" not in markdown


# ------------------------------------------------------------------------------------------- queries


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("query", QUERIES)
def test_query_answers_have_no_english_but_githubs(demo: Demo, query: str, fmt: str) -> None:
    answer = demo.answers[query]
    assert english_of_ours(rendered(answer, fmt), allowed=github_words(answer)) == []
    greek = rendered(greek_query(answer), fmt)
    assert english_of_ours(greek) == []
    assert spaces_of_ours(greek) == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_answer_with_nothing_says_so_in_chinese(demo: Demo, fmt: str) -> None:
    texts = rendered(structs.replace(demo.nothing, suggestions=()), fmt)
    assert any("没有与“xyzzyq”匹配的内容" in text for text in texts)
    assert english_of_ours(texts, allowed=github_words(demo.nothing)) == []
    assert spaces_of_ours(texts) == []


def test_suggestions_for_an_empty_answer_are_chinese(demo: Demo) -> None:
    assert english_of_ours(rendered(demo.nothing, "markdown"), allowed=github_words(demo.nothing)) == []


# ------------------------------------------------------------------------------- every kind of reason

def reason_items(reasons: list[Reason]) -> tuple[DigestItem, ...]:
    return tuple(greek_item(item(number, kind="pr" if number % 2 else "issue",
                                 state=("new", "merged", "closed", "open")[number % 4], why=why))
                 for number, why in enumerate(reasons, start=1))


@settings(max_examples=40, deadline=None)
@given(st.lists(greek_reasons(), min_size=1, max_size=6), st.sampled_from(FORMATS))
def test_every_kind_of_reason_is_chinese_in_every_format(reasons: list[Reason], fmt: str) -> None:
    items = reason_items(reasons)
    result = QueryResult("o/r", "λ", WINDOW, items, locale=ZH)
    digest = Digest(repo="o/r", window=WINDOW, stats=Stats(1, 2, 3, 4, 5), locale=ZH,
                    sections=(Section("hot", "", items), Section("key_changes", "", items),
                              Section("notable", "", items), Section("topic:rocm", "AMD / ROCm", items)),
                    appendix={"new_issues": items})
    for answer in (result, digest):
        texts = rendered(answer, fmt)
        assert english_of_ours(texts, repo="o/r") == [], texts
        assert spaces_of_ours(texts, repo="o/r") == [], texts


# ------------------------------------------------------------------------------------------- notices


def notice_values(notice: object) -> set[str]:
    """The Latin words a notice carries as data (a query, a repository, a topic, a platform's error code)."""
    words: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, str):
            words.update(word.lower() for word in re.findall(r"[A-Za-z]+", value))
        elif isinstance(value, tuple | list):
            for part in value:
                walk(part)
        elif isinstance(value, Struct):
            for name in value.__struct_fields__:
                walk(getattr(value, name))
        elif dataclasses.is_dataclass(value):
            for field in dataclasses.fields(value):
                walk(getattr(value, field.name))

    walk(notice)
    return words


PLATFORMS: list[tuple[Any, Callable[[str], str]]] = [("slack", slack_mrkdwn), ("discord", discord_markdown),
                                                     ("cli", str)]


@pytest.mark.parametrize(("platform", "escape"), PLATFORMS)
def test_notices_are_chinese_but_commands_and_values(platform: Any, escape: Callable[[str], str]) -> None:
    for notice in SAMPLES:
        if isinstance(notice, n.Failed):
            continue  # a lower layer's message, shown as it is
        text = render_notices([notice], locale=ZH, escape=escape, platform=platform)
        prose = CODE.sub("ω", text)  # a command in a code span is what a person types: Latin, not ours to word
        assert english_words(prose, allowed=notice_values(notice) | COMMAND_WORDS) == [], (notice, text)
        assert stray_spaces(prose) == [], (notice, text)


# -------------------------------------------------------------------------------- strings and summary


def zh_strings(table: object, path: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(table, dict):
        for key, value in table.items():
            yield from zh_strings(value, f"{path}.{key}" if path else key)
    elif isinstance(table, list):
        for k, value in enumerate(table):
            yield from zh_strings(value, f"{path}[{k}]")
    elif isinstance(table, str):
        yield path, table


def test_every_chinese_string_is_chinese_and_well_spaced() -> None:
    placeholders = {name: "αβ" for name in ("repo", "query", "title", "value", "name", "topic", "evidence",
                                            "signals", "bug", "author", "kind", "state", "start", "end", "tz",
                                            "day", "bucket", "values", "details", "links", "link", "home",
                                            "error", "extra", "path", "synced", "line", "items", "requests",
                                            "text", "folder")}
    for path, text in zh_strings(STRINGS[ZH]):
        if path == "locale":
            continue
        filled = text.format(**placeholders, n=3, total=9, shown=2, count=4, ratio=1.5, comments=5, first=1,
                             rate=52, hours=17.5, sentences=3, opened=7, closed=2, merged=5, most=4, today=1,
                             baseline=2.5, login="αβ", version="0.11.1", worked="0.11.0",
                             refs="#1、#2", number=7, additions=812, deletions=40, files=12)
        allowed = CLI_WORDS if path.startswith("cli.") else SYNTAX
        assert english_words(filled, allowed=allowed) == [], (path, filled)
        assert stray_spaces(filled) == [], (path, filled)


def summary_of(stats: Stats, *, daily: tuple[int, ...], focus: bool, trend: bool, hottest: int, streak: int,
               notable: str | None) -> str:
    hot = (structs.replace(item(7), comments_in_window=hottest, streak_days=streak),) if hottest else ()
    bugs = (item(9, why=NewBug(typing.cast(Any, notable))),) if notable else ()
    sections = [Section("hot", "", hot), Section("notable", "", bugs)]
    if focus:
        sections += [Section("topic:rocm", "AMD / ROCm", (item(1), item(2))),
                     Section("topic:stability", "稳定性与精度", (item(3),))]
    digest = Digest(repo="o/r", window=WINDOW, stats=stats, sections=tuple(sections), locale=ZH,
                    daily_activity=daily)
    themes = (Theme((TopicRef("llama", "Llama 系列模型"),), 21, (1,), ratio=1.75),) if trend else ()
    return render_summary(digest, themes, Activity(), [s for s in sections if s.kind == "topic"])


@settings(max_examples=60, deadline=None)
@given(st.builds(Stats, *[st.integers(0, 300)] * 5), st.sampled_from([(), (5, 5, 20), (20, 20, 5), (5, 5, 5)]),
       st.booleans(), st.booleans(), st.integers(0, 40), st.integers(1, 5), st.sampled_from((None, *BUG_KINDS)))
def test_every_summary_is_chinese_and_well_spaced(stats: Stats, daily: tuple[int, ...], focus: bool, trend: bool,
                                                 hottest: int, streak: int, notable: str | None) -> None:
    text = summary_of(stats, daily=daily, focus=focus, trend=trend, hottest=hottest, streak=streak, notable=notable)
    assert english_words(text) == [], text
    assert stray_spaces(text) == [], text
    assert text.endswith("。") and "  " not in text


def test_tidy_spacing_keeps_spaces_next_to_latin_only() -> None:
    assert tidy_cjk_spacing("焦点是 量化（3 项）和 AMD / ROCm （2 项）") == "焦点是量化（3 项）和 AMD / ROCm（2 项）"
    assert tidy_cjk_spacing("Llama 系列模型 的动态") == "Llama 系列模型的动态"
    assert tidy_cjk_spacing("a b, 中 c") == "a b, 中 c"
