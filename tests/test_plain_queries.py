"""Queries in plain words (docs/topics.md, "Queries"): questions read for what they ask in English and Chinese,
time in words, a looser reading said instead of a silent zero, suggestions only when close, every note in every
format, and a command's text parsed once with its repository admitted once."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app.context import Context
from bot.app.notices import QueryAdjusted
from bot.app.replies import Reply, send_reply
from bot.app.service import DigestService
from bot.commands.handlers import Commands
from bot.github.payloads import comment_from_payload, item_from_payload
from bot.model import AnswerNote, Digest, DigestItem, QueryResult, Suggestion, TermHit, Window
from bot.settings import Settings, load_settings
from bot.store.store import Store
from bot.topics import query as query_module
from bot.topics.catalog import load_taxonomy
from bot.topics.query import parse_query
from bot.topics.search import closest, edit_distance, suggestions
from formatters.discord_embeds import render_discord_query
from formatters.html import render_html_query
from formatters.json_format import query_to_dict
from formatters.markdown import render_markdown_query
from formatters.slack_blocks import render_slack_query
from tests.factories import comment_payload, issue_payload

ROOT = Path(__file__).resolve().parents[1]
NOW = datetime(2025, 12, 3, 4, 0, tzinfo=UTC)  # Wednesday 12:00 in Shanghai
DAY = timedelta(days=1)
HOUR = timedelta(hours=1)


# --- the grammar -----------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "words", "window", "ignored"),
    [
        ("what's new with rocm hangs this week", ("rocm", "hangs"), "this week", ("what's", "new", "with")),
        ("show me qwen crashes", ("qwen", "crashes"), None, ("show", "me")),
        ("any rocm hangs today", ("rocm", "hangs"), "today", ("any",)),
        ("are there qwen crashes yesterday?", ("qwen", "crashes"), "yesterday", ("are", "there")),
        ("what happened to rocm last week", ("rocm",), "last week", ("what", "happened", "to")),
        ("rocm hangs in the last 3 days", ("rocm", "hangs"), "3d", ("in", "the")),
        ("qwen crashes over the past 2 weeks", ("qwen", "crashes"), "2w", ("over", "the")),
        ("is there anything about deepseek in the last 24 hours", ("deepseek",), "24h",
         ("is", "there", "anything", "about", "in", "the")),
        ("last three days fp8", ("fp8",), "3d", ()),
        ("past month rocm", ("rocm",), "30d", ()),
        ("previous day qwen", ("qwen",), "24h", ()),
        ("这周 rocm 有没有卡住的", ("rocm", "卡住"), "this week", ("有没有", "的")),
        ("这周rocm有没有卡住的问题", ("rocm", "卡住"), "this week", ("有没有", "问题", "的")),
        ("本周 qwen", ("qwen",), "this week", ()),
        ("上周 rocm", ("rocm",), "last week", ()),
        ("今天 rocm 卡住了吗？", ("rocm", "卡住"), "today", ("了", "吗")),
        ("昨天 qwen 崩溃", ("qwen", "崩溃"), "yesterday", ()),
        ("最近三天 qwen 崩溃", ("qwen", "崩溃"), "3d", ()),
        ("近 7 天 rocm", ("rocm",), "7d", ()),
        ("近7日rocm", ("rocm",), "7d", ()),
        ("过去两周 deepseek", ("deepseek",), "2w", ()),
        ("最近24小时内 rocm", ("rocm",), "24h", ()),
        ("rocm 3天", ("rocm",), "3d", ()),
        ("qwen3卡住 2周", ("qwen3", "卡住"), "2w", ()),  # a number inside a name is the name's
        ("看看 rocm 的 卡住", ("rocm", "卡住"), None, ("看看", "的")),
        ("最近 qwen 有什么崩溃", ("qwen", "崩溃"), None, ("最近", "有什么")),
    ],
)
def test_questions_are_read_for_what_they_ask(text: str, words: tuple[str, ...], window: str | None,
                                              ignored: tuple[str, ...]) -> None:
    query = parse_query(text)
    assert query.words == words
    assert (query.window.text if query.window else None) == window
    assert set(query.ignored) == set(ignored)
    assert query.issues == ()
    if ignored:
        assert query.as_dict()["ignored"] == list(query.ignored)  # JSON says what was left out


@pytest.mark.parametrize(
    ("text", "words", "numbers"),
    [
        ('"show me" rocm', ("show me", "rocm"), ()),  # a word in quotes is always a word
        ("what happened to 123", (), (123,)),  # a question about an item asks for it
        ("what happened to #123?", (), (123,)),
        ("qwen 3", ("qwen", "3"), ()),  # next to a word, a number is a word, as before
        ("-with rocm", ("rocm",), ()),  # an excluded word stays excluded, whatever it is
        ('last "3 days"', ("3 days",), ()),
    ],
)
def test_quotes_numbers_and_exclusions_keep_their_meaning(text: str, words: tuple[str, ...],
                                                          numbers: tuple[int, ...]) -> None:
    query = parse_query(text)
    assert query.words == words and query.numbers == numbers


def test_only_frame_words_is_the_digest_and_time_words_check_like_tokens() -> None:
    assert parse_query("what's new").is_empty and parse_query("有没有 最近 的").is_empty
    assert parse_query("what's new this week").is_empty and parse_query("what's new this week").window is not None
    assert [note.kind for note in parse_query("rocm last 0 days").problems] == ["empty_window"]
    assert [note.kind for note in parse_query("这周 rocm 3d").issues] == ["several_windows"]
    assert parse_query("last 9999 weeks rocm").window.text == "366d"  # the cap, as for "9999w"


def test_frame_words_do_not_count_against_the_word_limit() -> None:
    many = parse_query("show me what's new with " + " ".join(f"w{n}" for n in range(12)))
    assert len(many.words) == 12 and many.issues == ()


# --- the fixture store -----------------------------------------------------------------------------------

@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    shutil.copy(ROOT / "config" / "topics.toml", tmp_path)
    (tmp_path / "digest.toml").write_text('[[repos]]\nname = "o/r"\n')
    return load_settings(tmp_path, env={})


def is_bot(login: str) -> bool:
    return login.endswith("[bot]")


ITEMS = [
    issue_payload(1, NOW - DAY, title="[Bug]: ROCm MI300X hangs during RCCL init", labels=("bug", "rocm")),
    issue_payload(2, NOW - 2 * DAY, title="[Bug]: Qwen3 crashes with illegal memory access", labels=("bug",)),
    issue_payload(3, NOW - DAY, title="[Usage]: 在 MI300X 上部署 Qwen3 卡住", labels=("usage",),
                  body="### How would you like to use vllm\n\nDeployment freezes on AMD hardware. ROCm 6.4 here."),
    issue_payload(4, NOW - 3 * DAY, title="[Bug]: Qwen2.5 segfault on startup", labels=("bug",)),
    issue_payload(5, NOW - 2 * DAY, title="[Bug]: Llama deadlocks under load", labels=("bug",)),
    issue_payload(6, NOW - DAY, title="[Bugfix][ROCm] Fix fp8 GEMM on MI300X", pr=True, merged=NOW - DAY / 2),
    issue_payload(7, NOW - 10 * DAY, title="[Bug]: DeepSeek-V3 returns wrong output", labels=("bug",)),
    # "hangs" only in a comment of the window: the weakest evidence, ranked last
    issue_payload(8, NOW - 2 * DAY, title="[Bug]: ROCm server stops responding", labels=("bug",),
                  body="The server stops answering after a while."),
    issue_payload(9, NOW - 2 * HOUR, title="[Bug]: ROCm hangs on gfx942", labels=("bug",)),
    # old, but commented yesterday: in yesterday's window
    issue_payload(10, NOW - 20 * DAY, title="[Bug]: Qwen crash when loading LoRA", labels=("bug",)),
    issue_payload(123, NOW - DAY, title="Improve the docs of the scheduler", pr=True),
    issue_payload(11, NOW - 9 * DAY, title="[Bug]: ROCm build fails", labels=("bug",)),
    # "hang" in the body only: ranked under the titles
    issue_payload(12, NOW - 2 * DAY, title="[Bug]: ROCm engine gets slow", labels=("bug",),
                  body="After a while it hangs completely."),
]
COMMENTS = [
    comment_payload(500, 8, NOW - DAY, body="It hangs forever after 10 requests on MI300X."),
    comment_payload(501, 10, NOW - 20 * HOUR, body="Still crashing for me."),
    comment_payload(502, 12, NOW - DAY, body="Same here."),
    comment_payload(503, 11, NOW - DAY, user="ci[bot]", bot=True, body="The run hangs: see logs."),  # a bot
    comment_payload(504, 5, NOW - 40 * DAY, body="It hangs on ROCm too."),  # outside every window here
]


@pytest.fixture
def filled(store: Store) -> Store:
    store.save_page([item_from_payload("o/r", p, is_bot) for p in ITEMS],
                    [comment_from_payload("o/r", c, is_bot) for c in COMMENTS])
    store.complete_listing("o/r", "issues", NOW, [], synced_from=NOW - 30 * DAY)
    store.complete_listing("o/r", "comments", NOW, [], synced_from=NOW - 30 * DAY)
    return store


@pytest.fixture
def service(filled: Store, settings: Settings) -> Iterator[DigestService]:
    service = DigestService(filled, settings)
    yield service
    service.close()


def ask(service: DigestService, text: str, *, locale: str = "en") -> QueryResult:
    answer, _ = service.answer_noted(service.default_context(repo="o/r", locale=locale), text, now=NOW,
                                     analyse=False)
    assert isinstance(answer, QueryResult)
    return answer


def numbers(result: QueryResult) -> list[int]:
    return [item.number for item in result.items]


# --- plain words answer what their terse forms answer ----------------------------------------------------

@pytest.mark.parametrize(
    ("plain", "terse"),
    [
        ("what's new with rocm hangs this week", "rocm hangs 7d"),
        ("show me qwen crashes", "qwen crashes"),
        ("any rocm hangs today", "rocm hangs today"),
        ("are there qwen crashes yesterday?", "qwen crashes yesterday"),
        ("what happened to 123", "#123"),
        ("rocm hangs in the last 3 days", "rocm hangs 3d"),
        ("qwen crashes over the past 2 weeks", "qwen crashes 2w"),
        ("is there anything about deepseek in the last 2 weeks", "deepseek 2w"),
        ("last 24 hours rocm", "rocm 24h"),
        ("这周 rocm 有没有卡住的", "rocm 卡住 7d"),
        ("这周rocm有没有卡住的问题", "rocm 卡住 7d"),
        ("最近三天 qwen 崩溃", "qwen 崩溃 3d"),
        ("近 7 天 rocm", "rocm 7d"),
        ("看看 rocm 的 卡住", "rocm 卡住"),
        ("本周 qwen", "qwen 7d"),
        ("今天 rocm 卡住了吗？", "rocm 卡住 today"),
        ("昨天 qwen 崩溃", "qwen 崩溃 yesterday"),
        ("过去两周 deepseek", "deepseek 2w"),
        ("最近 qwen 有什么崩溃", "qwen 崩溃"),
    ],
)
def test_plain_words_return_the_items_of_their_terse_form(service: DigestService, plain: str, terse: str) -> None:
    for locale in ("en", "zh-CN"):
        said, meant = ask(service, plain, locale=locale), ask(service, terse, locale=locale)
        assert numbers(said) and numbers(said) == numbers(meant), (plain, numbers(said), numbers(meant))
        assert said.window == meant.window and said.reading == meant.reading == "all_words"


def test_the_issues_examples_find_what_they_ask(service: DigestService) -> None:
    # "rocm hangs 7d" always worked; the question now finds the same hangs, the comment-only one last
    assert numbers(ask(service, "what's new with rocm hangs this week")) == [9, 3, 1, 12, 8]
    assert set(numbers(ask(service, "show me qwen crashes"))) == {2, 4, 10}
    yesterday = ask(service, "are there qwen crashes yesterday")
    assert numbers(yesterday) == [10]  # commented in the window, "crash" in its title


def test_a_question_of_frame_words_only_is_the_digest(service: DigestService) -> None:
    for text in ("what's new", "what's new this week", "有没有 最近 的"):
        answer = service.answer_now(service.default_context(repo="o/r"), text, now=NOW, analyse=False)
        assert isinstance(answer, Digest), text


# --- ranking and readings --------------------------------------------------------------------------------

def test_title_beats_body_beats_comments(service: DigestService) -> None:
    result = ask(service, "rocm hangs 3d")
    assert numbers(result)[-2:] == [12, 8]  # body, then the comment
    by_number = {item.number: item for item in result.items}
    assert by_number[8].why.terms[-1] == TermHit("comment", "hangs")  # type: ignore[union-attr]
    assert by_number[12].why.terms[-1].source == "body"  # type: ignore[union-attr]
    assert by_number[9].why.terms[-1].source == "title"  # type: ignore[union-attr]


def test_comments_count_only_when_human_and_in_the_window(service: DigestService) -> None:
    assert 11 not in numbers(ask(service, "rocm hangs 2w"))  # a bot's comment is no evidence
    assert 5 not in numbers(ask(service, "rocm hangs 2w"))  # nor a comment older than the window (#5: no rocm)
    assert numbers(ask(service, "forever")) == [8]  # a word only a comment has
    assert numbers(ask(service, "-forever hangs 3d")) == numbers(ask(service, "hangs 3d"))  # exclusions: own text


def test_no_item_with_every_word_reads_most_words_and_says_so(service: DigestService) -> None:
    result = ask(service, "rocm hangs mi999")
    assert result.reading == "most_words" and numbers(result)[0] == 9 and {1, 3} <= set(numbers(result))
    assert result.notes[0] == AnswerNote("most_words", "2", "3")
    assert "showing items with at least 2 of them" in result.parsed["notes"][-1]  # type: ignore[index]
    strict = ask(service, "rocm hangs")
    assert strict.reading == "all_words" and not any(n.kind in ("most_words", "topic_alone") for n in strict.notes)


def test_all_words_rank_above_most_words(service: DigestService) -> None:
    # four words, no item has all: 3 of 4 before 3 of 4 in weaker places, never below an item with fewer
    result = ask(service, "rocm mi300x hangs zzzz 2w")
    assert result.reading == "most_words"
    counts = [len(item.why.terms) for item in result.items]  # type: ignore[union-attr]
    assert counts == sorted(counts, reverse=True) and min(counts) >= 3


def test_the_topic_alone_when_fewer_than_most_words_match(service: DigestService) -> None:
    result = ask(service, "rocm flibbertigibbet 2w")
    assert result.reading == "topic" and result.topic == "rocm" and result.topic_title == "AMD / ROCm"
    assert set(numbers(result)) == set(numbers(ask(service, "rocm 2w")))
    assert result.notes[0] == AnswerNote("topic_alone", "AMD / ROCm", "rocm")
    assert ask(service, "rocm flibbertigibbet 2w", locale="zh-CN").notes[0].value == "AMD / ROCm"
    nothing = ask(service, "flibbertigibbet zzzz")
    assert nothing.items == () and nothing.reading == "all_words"


def test_standing_queries_stay_strict(service: DigestService) -> None:
    answer, notes = service.answer_noted(service.default_context(repo="o/r"), "rocm flibbertigibbet 2w", now=NOW,
                                         analyse=False, strict=True)
    assert isinstance(answer, QueryResult) and answer.items == () and notes == ()


# --- suggestions only when close -------------------------------------------------------------------------

def test_edit_distance_counts_a_swap_as_one() -> None:
    assert edit_distance("rcom", "rocm") == 1 and edit_distance("deepsek", "deepseek") == 1
    assert edit_distance("when", "wheel") == 2 and edit_distance("abc", "xyzabc") == 3


@pytest.mark.parametrize(
    ("typed", "topic"),
    [("rcom", "rocm"), ("deepsek", "deepseek"), ("qwne", "qwen"), ("performanc", "performance"),
     ("quantized", "quantization"), ("mistrla", "mistral"), ("gemam", "gemma"), ("whel", "wheel")],
)
def test_a_typo_close_to_a_topic_suggests_it(settings: Settings, typed: str, topic: str) -> None:
    taxonomy = load_taxonomy(settings)
    assert suggestions(taxonomy, [typed], ()) == [Suggestion("topic", topic)]


@pytest.mark.parametrize("typed", ["when", "wheel", "xyzzy", "flibbertigibbet", "zz", "hello", "what"])
def test_nothing_close_suggests_nothing(settings: Settings, typed: str) -> None:
    # "when" was "topic wheel" (difflib's 0.6); "wheel" names ci_build itself: nothing to suggest
    assert suggestions(load_taxonomy(settings), [typed], {"bug", "usage"}) == []


def test_labels_of_the_window_are_suggested_when_close() -> None:
    assert closest("bgu", ["bug", "usage"]) == "bug"
    assert closest("perfomance", ["performance", "bug"]) == "performance"
    assert closest("bug", ["bug"]) is None and closest("zzz", ["bug"]) is None


def test_a_typo_gets_a_close_suggestion_or_none(service: DigestService) -> None:
    assert ask(service, "rcom").suggestions[0] == Suggestion("topic", "rocm")
    assert ask(service, "bgu").suggestions[0] == Suggestion("label", "bug")
    assert ask(service, "xyzzy").suggestions == (Suggestion("wider_window", "30d"),)
    assert query_to_dict(ask(service, "bgu"))["suggestions"][0] == "label:bug"


# --- every note in every format --------------------------------------------------------------------------

def rendered(result: QueryResult, locale: str, limit: int = 10) -> dict[str, str]:
    return {
        "markdown": render_markdown_query(result, locale=locale, limit=limit),
        "slack": json.dumps(render_slack_query(result, locale=locale, limit=limit), ensure_ascii=False),
        "discord": json.dumps(render_discord_query(result, locale=locale, limit=limit), ensure_ascii=False),
        "html": render_html_query(result, locale=locale),
        "json": json.dumps(query_to_dict(result), ensure_ascii=False),
    }


NOTES = {
    "most_words": ("rocm hangs mi999", {"en": "at least 2 of them", "zh-CN": "至少包含其中 2 个词"}),
    "topic_alone": ("rocm flibbertigibbet 2w", {"en": "the topic AMD / ROCm alone", "zh-CN": "只按主题“AMD / ROCm”"}),
    "words_dropped": (" ".join(f"w{n}" for n in range(13)), {"en": "only the first 12 words were used",
                                                              "zh-CN": "只使用了前 12 个词"}),
    "query_cut": ("rocm " + "x " * 300, {"en": "only the first 500 characters", "zh-CN": "只读取了前 500 个字符"}),
    "window_capped": ("rocm since 1970-01-01", {"en": "windows are at most 366 days", "zh-CN": "时间范围最长 366 天"}),
    "never_synced": ("rocm 60d", {"en": "was never synced", "zh-CN": "之前的动态从未同步"}),
}


@pytest.mark.parametrize("kind", sorted(NOTES))
@pytest.mark.parametrize("locale", ["en", "zh-CN"])
def test_every_note_is_said_in_every_format(service: DigestService, kind: str, locale: str) -> None:
    text, words = NOTES[kind]
    result = ask(service, text, locale=locale)
    assert kind in [note.kind for note in result.notes]
    for fmt, out in rendered(result, locale).items():
        if fmt == "json":
            assert kind in [note["kind"] for note in json.loads(out)["notes"]]
        else:
            assert words[locale] in out.replace("\\u201c", "“").replace("\\u201d", "”"), (fmt, out[:800])


def test_notes_are_said_once_in_chat(service: DigestService) -> None:
    """In chat the answer says its notes: the trailer after it does not say them again."""
    answer, notes = service.answer_noted(service.default_context(repo="o/r"), "rocm since 1970-01-01", now=NOW,
                                         analyse=False)
    assert notes == tuple(QueryAdjusted.of_answer(note) for note in answer.notes)  # type: ignore[union-attr]

    class Sink:
        max_parts = 5

        def __init__(self) -> None:
            self.said: list[object] = []
            self.parts: list[object] = []

        def render(self, answer: QueryResult, *, locale: str, timezone: str) -> list[object]:
            return render_slack_query(answer, locale=locale, timezone=timezone)

        async def send_part(self, part: object) -> bool:
            self.parts.append(part)
            return True

        async def say(self, notices: list[object], *, locale: str) -> None:
            self.said.extend(notices)

        async def post(self, *args: object, **kwargs: object) -> None:
            raise AssertionError("not posted")

    sink = Sink()
    asyncio.run(send_reply(Reply(answer=answer, notes=notes), sink))
    assert len(sink.parts) == 1 and sink.said == []
    assert "366" in json.dumps(sink.parts)


# --- "…and N more" only over something -------------------------------------------------------------------

WINDOW = Window(datetime(2025, 12, 1, 3, 5, tzinfo=UTC), datetime(2025, 12, 2, 3, 5, tzinfo=UTC), "Asia/Shanghai")


def answer_item(number: int, state: str, kind: str = "issue") -> DigestItem:
    return DigestItem(number=number, kind=kind, title=f"Item {number}", url=f"https://github.com/o/r/issues/{number}",
                      author="alice", labels=(), summary="", state=state)


MORE = re.compile(r"(?:and|另有) (\d+) (?:more|项)")


@pytest.mark.parametrize("limit", [0, 1, 2, 3, 6, 7])
@pytest.mark.parametrize("locale", ["en", "zh-CN"])
def test_and_more_only_counts_hidden_items_under_shown_ones(limit: int, locale: str) -> None:
    found = (answer_item(1, "new"), answer_item(2, "closed"), answer_item(3, "open"), answer_item(4, "new"),
             answer_item(5, "merged", "pr"), answer_item(6, "closed", "pr"))
    result = QueryResult("o/r", "rocm", WINDOW, found, locale=locale)
    for fmt, out in rendered(result, locale, limit).items():
        if fmt == "json":
            continue
        counts = [int(n) for n in MORE.findall(out)]
        assert 0 not in counts, fmt
        assert sum(counts) == (0 if fmt == "html" else max(len(found) - limit, 0)), (fmt, counts)  # html: 30
    text = render_markdown_query(result, limit=limit)
    for heading in re.findall(r"(?m)^## .*$", text):  # every group heading has an item under it
        following = text.split(heading, 1)[1].lstrip("\n")
        assert following.startswith("- [#"), (heading, text)
    if limit >= len(found):
        assert not MORE.search(text)


# --- parsed once, admitted once --------------------------------------------------------------------------

def test_a_command_is_parsed_once_and_its_repository_admitted_once(filled: Store, settings: Settings,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    service = DigestService(filled, settings, build_processes=0)  # in this process, where the counts are
    parsed: list[str] = []
    admitted: list[str] = []
    real_plain, real_admitted = query_module._plain, service.access.admitted

    def counting_plain(text: str) -> tuple[str, list[str]]:
        parsed.append(text)
        return real_plain(text)

    def counting_admitted(repo: str) -> str | None:
        admitted.append(repo)
        return real_admitted(repo)

    monkeypatch.setattr(query_module, "_plain", counting_plain)  # every parse_query goes through it
    monkeypatch.setattr(service.access, "admitted", counting_admitted)
    commands = Commands(service)
    context = Context(platform="slack", channel_id="C1", user_id="U1", now=NOW)
    try:
        for text in ("what's new with rocm hangs this week", "3d", "rocm flibbertigibbet", "what happened to 123",
                     "post qwen crashes", "why 123"):
            parsed.clear()
            admitted.clear()
            reply = asyncio.run(commands.handle(context, text))
            assert reply.answer is not None or text.startswith("why"), (text, reply)
            assert len(parsed) == (0 if text.startswith("why") else 1), (text, parsed)
            assert len(admitted) == 1, (text, admitted)
    finally:
        service.close()


def test_worker_processes_get_the_parsed_query(filled: Store, settings: Settings,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    service = DigestService(filled, settings, build_processes=1)
    sent: list[object] = []

    async def in_process(fn: object, *args: object) -> object:
        sent.append(args[3])  # (settings, verdicts, context, query, now, ...)
        return service.answer_noted(args[2], args[3], now=args[4], analyse=False)  # type: ignore[arg-type]

    monkeypatch.setattr(service, "in_heavy_pool", in_process)
    try:
        context = Context(platform="slack", channel_id="C1", user_id="U1", now=NOW)
        reply = asyncio.run(Commands(service).handle(context, "show me qwen crashes"))
        assert isinstance(reply.answer, QueryResult) and reply.answer.items
        assert [type(query).__name__ for query in sent] == ["Query"]
        assert sent[0].words == ("qwen", "crashes")  # type: ignore[attr-defined]
    finally:
        service.close()
