"""Queries over a store: every word must match (stems, synonyms, topics), filters, ranking, empty answers."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings

from bot.app.notices import (
    ItemNotFound,
    Notice,
    QueryAdjusted,
    QueryProblem,
    Refused,
    RepoNotAllowed,
    RepoNotSynced,
)
from bot.app.service import DigestService
from bot.github.payloads import comment_from_payload, item_from_payload
from bot.model import Active, Digest, Evidence, QueryMatch, QueryResult, Suggestion, TermHit, TopicRef
from bot.settings import Settings, load_settings
from bot.store.store import Store
from formatters.json_format import query_to_dict
from formatters.notices import render_notices
from tests.factories import comment_payload, issue_payload
from tests.query_strategies import query_texts

ROOT = Path(__file__).resolve().parents[1]
NOW = datetime(2025, 12, 2, 3, 5, tzinfo=UTC)
DAY = timedelta(days=1)
QWEN = TopicRef("qwen", "Qwen models", "Qwen 系列模型")


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    shutil.copy(ROOT / "config" / "topics.toml", tmp_path)
    (tmp_path / "digest.toml").write_text('[[repos]]\nname = "o/r"\n')
    return load_settings(tmp_path, env={})


def is_bot(login: str) -> bool:
    return login.endswith("[bot]")


@pytest.fixture
def filled(store: Store) -> Store:
    items = [
        issue_payload(1, NOW - 2 * DAY, title="[Bug]: Qwen3-235B hangs at startup with TP=8", labels=("bug",)),
        issue_payload(2, NOW - 3 * DAY, title="[Bug]: qwen2.5 server stuck after 100 requests", labels=("bug",)),
        issue_payload(3, NOW - 1 * DAY, title="[Bugfix][ROCm] Fix fp8 GEMM on MI300X", pr=True, merged=NOW - DAY / 2),
        issue_payload(4, NOW - 4 * DAY, title="[Feature]: support Qwen3-Next", labels=("feature request",)),
        issue_payload(5, NOW - 2 * DAY, title="Improve the command line help", pr=True),
        issue_payload(6, NOW - 2 * DAY, title="Bump torch to 2.9", pr=True, user="dependabot[bot]", bot=True),
        issue_payload(7, NOW - 20 * DAY, title="[Bug]: Llama 4 crashes with segfault", labels=("bug", "stale")),
        issue_payload(
            8,
            NOW - 1 * DAY,
            title="[Usage]: 在 MI300X 上部署 Qwen3 卡住",
            labels=("usage",),
            body="### How would you like to use vllm\n\nDeployment freezes on AMD hardware. ROCm 6.4 here.",
        ),
        issue_payload(
            9, NOW - 2 * DAY, title="[Bug]: deadlock in the scheduler with qwen models", labels=("bug",), user="bob"
        ),
    ]
    comments = [comment_payload(100 + i, 9, NOW - DAY + timedelta(minutes=i)) for i in range(5)]
    comments.append(comment_payload(200, 7, NOW - DAY))  # old issue, active in the window
    store.save_page(
        [item_from_payload("o/r", p, is_bot) for p in items], [comment_from_payload("o/r", c, is_bot) for c in comments]
    )
    store.complete_listing("o/r", "issues", NOW, [], synced_from=NOW - 30 * DAY)
    store.complete_listing("o/r", "comments", NOW, [], synced_from=NOW - 30 * DAY)
    return store


def answer_query(store: Store, settings: Settings, text: str, *, repo: str, now: datetime) -> Digest | QueryResult:
    service = DigestService(store, settings)
    return service.answer_now(service.default_context(repo=repo), text, now=now)


def ask(store: Store, settings: Settings, text: str) -> QueryResult:
    answer = answer_query(store, settings, text, repo="o/r", now=NOW)
    assert isinstance(answer, QueryResult)
    return answer


def numbers(result: QueryResult) -> list[int]:
    return [item.number for item in result.items]


def test_every_word_must_match_with_synonyms_and_stems(filled: Store, settings: Settings) -> None:
    result = ask(filled, settings, "qwen hangs")
    # hang ~ hangs/stuck/freeze/deadlock; qwen via title, or topic membership (label, tag, alias)
    assert set(numbers(result)) == {1, 2, 8, 9}
    # every one has both words in its title: the latest activity first, then the newest item
    assert numbers(result) == [8, 9, 1, 2]
    item = result.items[numbers(result).index(1)]
    # "qwen" names a topic: its members match
    assert item.why == QueryMatch((TermHit("topic", topic=QWEN, evidence=(Evidence("title", "Qwen3"),)),
                                   TermHit("title", "hangs")))
    assert query_to_dict(result)["items"][numbers(result).index(1)]["reason"] == "qwen: title: Qwen3; title: hangs"


def test_topic_query_uses_aliases_and_carries_the_topic(filled: Store, settings: Settings) -> None:
    result = ask(filled, settings, "rocm")
    assert result.topic == "rocm"
    assert numbers(result) == [3, 8]
    assert "command" not in " ".join(i.title for i in result.items).lower()
    assert query_to_dict(result)["topic"] == "rocm"


def test_filters_and_bots_hidden_by_default(filled: Store, settings: Settings) -> None:
    assert numbers(ask(filled, settings, "is:pr")) == [3, 5]
    assert numbers(ask(filled, settings, "is:pr is:bot")) == [6]
    assert numbers(ask(filled, settings, "author:dependabot[bot]")) == [6]
    assert set(numbers(ask(filled, settings, "label:bug -author:bob"))) == {1, 2, 7}
    assert set(numbers(ask(filled, settings, "label:bug -label:stale -author:bob"))) == {1, 2}
    assert numbers(ask(filled, settings, "is:merged")) == [3]
    assert numbers(ask(filled, settings, "qwen -stuck -deadlock -freeze")) == [1, 4]


def test_window_decides_membership_including_comments(filled: Store, settings: Settings) -> None:
    assert 7 in numbers(ask(filled, settings, "crash 3d"))  # commented in the window
    assert numbers(ask(filled, settings, "label:bug 24h")) == [9, 7]  # commented in the last day; #9 more


def test_answers_without_words_say_what_happened_in_the_window(filled: Store, settings: Settings) -> None:
    assert [i.why for i in ask(filled, settings, "is:merged").items] == [Active("merged")]
    assert [i.why for i in ask(filled, settings, "label:bug 24h").items] == [Active("commented", 5),
                                                                             Active("commented", 1)]
    reasons = [i["reason"] for i in query_to_dict(ask(filled, settings, "label:bug 24h"))["items"]]
    assert reasons == ["5 comments in window", "1 comments in window"]


def test_no_match_says_so_with_suggestions(filled: Store, settings: Settings) -> None:
    result = ask(filled, settings, "rcom")
    assert result.items == ()
    assert result.suggestions[0] == Suggestion("topic", "rocm")
    assert Suggestion("wider_window", "30d") in result.suggestions


def test_window_beyond_history_is_noted(filled: Store, settings: Settings) -> None:
    result = ask(filled, settings, "qwen 60d")
    assert any("was never synced" in note for note in result.parsed["notes"])


def test_empty_query_is_the_digest(filled: Store, settings: Settings) -> None:
    assert isinstance(answer_query(filled, settings, "", repo="o/r", now=NOW), Digest)
    assert isinstance(answer_query(filled, settings, "   3d ", repo="o/r", now=NOW), Digest)


def test_unknown_repository_is_a_friendly_error(filled: Store, tmp_path: Path) -> None:
    shutil.copy(ROOT / "config" / "topics.toml", tmp_path)
    (tmp_path / "digest.toml").write_text('[access]\nrepos = ["x/*"]\n[[repos]]\nname = "o/r"\n')
    with pytest.raises(Refused) as refused:
        answer_query(filled, load_settings(tmp_path, env={}), "rocm repo:x/y", repo="o/r", now=NOW)
    assert refused.value.notice == RepoNotSynced("x/y")  # allowed, never synced: and no other repo named


def test_a_repository_outside_the_allow_list_is_refused_even_when_stored(filled: Store, settings: Settings) -> None:
    items = [issue_payload(1, NOW - DAY, title="[Bug]: secret ROCm hang", labels=("bug",))]
    filled.save_page([item_from_payload("acme/secret", p, is_bot) for p in items])
    filled.complete_listing("acme/secret", "issues", NOW, [], synced_from=NOW - 30 * DAY)
    for text in ("rocm repo:acme/secret", "repo:acme/secret", "repo:ACME/secret 3d"):
        with pytest.raises(Refused) as refused:
            answer_query(filled, settings, text, repo="o/r", now=NOW)
        assert refused.value.notice == RepoNotAllowed(text.split("repo:")[1].split()[0])
    assert answer_query(filled, settings, "rocm repo:O/R", repo="o/r", now=NOW).repo == "o/r"  # configured case


def test_query_words_name_topics_and_typos_get_suggestions(settings: Settings) -> None:
    from bot.topics.catalog import load_taxonomy
    from bot.topics.query import parse_query
    from bot.topics.search import suggest, topic_named

    taxonomy = load_taxonomy(settings)
    assert topic_named(taxonomy, "cpu").id == "hardware"  # a query word, never matched in text by itself
    assert topic_named(taxonomy, "AMD").id == "rocm"
    assert topic_named(taxonomy, "command") is None
    assert suggest(taxonomy, parse_query("rcom deepsek"))[:2] == ["rocm", "deepseek"]


def test_a_huge_word_answers_and_a_refused_query_is_not_the_digest(filled: Store, settings: Settings) -> None:
    result = ask(filled, settings, "a" * 496)
    assert result.items == () and result.parsed["words"] == ["a" * 100]
    assert result.parsed["notes"] == ["a word was cut to its first 100 characters (“" + "a" * 20 + "…”)"]
    for text in ("labe:bug", "is:bogus", "since 2025-99-01", "2025-12-12..2025-12-01"):
        with pytest.raises(Refused) as refused:
            answer_query(filled, settings, text, repo="o/r", now=NOW)
        assert isinstance(refused.value.notice, QueryProblem)


def test_since_long_ago_is_capped_like_every_window_and_said_in_the_json(filled: Store, settings: Settings) -> None:
    result = ask(filled, settings, "qwen since 1970-01-01")
    assert result.window.end - result.window.start == timedelta(days=366)
    assert result.parsed["window"] == "since 1970-01-01"
    assert result.parsed["notes"][0] == "windows are limited to 366 days; using the last 366"
    assert "was never synced" in result.parsed["notes"][1]


@pytest.fixture
def service(filled: Store, settings: Settings) -> Iterator[DigestService]:
    service = DigestService(filled, settings)
    yield service
    service.close()


def answer_or_refusal(service: DigestService, text: str) -> tuple[Digest | QueryResult | None, list[Notice]]:
    """The answer and the notes said after it, or no answer and the refusal's notices."""
    try:
        answer, notes = service.answer_noted(service.default_context(repo="o/r"), text, now=NOW, analyse=False)
    except Refused as refused:
        return None, [refused.notice, *refused.notes]
    return answer, list(notes)


@hypothesis_settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=query_texts)
def test_every_query_answers_or_is_refused_with_a_fix_never_an_error(service: DigestService, text: str) -> None:
    answer, said = answer_or_refusal(service, text)
    if answer is None:  # text that does not say what it means, or names a repository never synced
        assert (all(isinstance(notice, QueryProblem) for notice in said)
                or isinstance(said[0], RepoNotSynced | ItemNotFound))  # "#12", "7": no such item stored
    else:
        assert answer.window.end - answer.window.start <= timedelta(days=366, hours=1)
        assert all(isinstance(note, QueryAdjusted) for note in said)
    for locale in ("en", "zh-CN"):
        assert render_notices(said, locale=locale, escape=str).count("\n\n") >= len(said) - 1
