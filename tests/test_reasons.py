"""Typed reasons: the JSON contract's frozen English, the words per locale, the section and locale registries."""

from __future__ import annotations

import json
import re
from typing import get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.locales import LOCALES, normalise_locale
from bot.model import (
    BUG_KINDS,
    BUILTIN_SECTIONS,
    LEGACY_SIGNALS,
    Active,
    DigestItem,
    Evidence,
    Hot,
    InReview,
    InTopic,
    Listed,
    Merged,
    NewBug,
    QueryMatch,
    Reason,
    Section,
    SectionKind,
    Signal,
    TermHit,
    TopicRef,
)
from formatters import locale as formatter_locale
from formatters import sections
from formatters.json_format import contract_reason, item_to_dict, why_to_dict
from formatters.locale import STRINGS, strings
from formatters.reasons import reason_text
from tests.formatter_strategies import reasons

QWEN = TopicRef("qwen", "Qwen models", "Qwen 系列模型")

# Every kind of reason with the JSON ``reason`` the builder and the search wrote before reasons were typed.
# The contract is frozen: these strings never change.
CONTRACT: list[tuple[Reason, str]] = [
    (Hot(40), "40 comments in window"),
    (Hot(3, 9), "3 comments in window, 9 reactions"),
    (Merged(), "merged"),
    (Merged((Signal("tag", "feature"), Signal("comments", count=12))), "merged: [feature], 12 comments"),
    (
        Merged((Signal("label", "new-model"), Signal("bugfix"), Signal("breaking"), Signal("comments", count=2),
                Signal("reactions", count=5))),
        "merged: label new-model, bugfix, breaking/removal, 2 comments, 5 reactions",
    ),
    (InReview(), "in review"),
    (
        InReview((Signal("tag", "model"), Signal("new_model"), Signal("areas", count=3), Signal("lines", count=2400),
                  Signal("files", count=17), Signal("comments", count=6), Signal("review_comments", count=9))),
        "in review: [model], new model, 3 areas, 2400 lines, 17 files, 6 comments, 9 review comments",
    ),
    (
        InReview((Signal("speedup", "1.8x"), Signal("speedup"), Signal("fix", "hang"), Signal("hardware"),
                  Signal("feature"), Signal("default"), Signal("breaking"), Signal("internal"))),
        "in review: speed-up 1.8x, speed-up, fixes hang, hardware support, feature, changed default,"
        " breaking/removal, internal",
    ),
    (NewBug("crash", 3), "new bug: crash, 3 comments"),
    (NewBug("crash", 1), "new bug: crash, 1 comments"),
    (NewBug("hang"), "new bug: hang"),
    (NewBug("wrong_output"), "new bug: wrong output"),
    (NewBug("regression", 2), "new bug: regression, 2 comments"),
    (NewBug("oom"), "new bug: oom"),
    (
        InTopic((Evidence("label", "rocm"), Evidence("tag", "rocm"), Evidence("title", "AITER"))),
        "label rocm, tag [rocm], title: AITER",
    ),
    (InTopic((Evidence("body", "segfault"),)), "body: segfault"),
    (InTopic((Evidence("body", "rocm", 3),)), "body: rocm (3x)"),
    (InTopic((Evidence("body_lead", "gpt-oss"),)), "body opens with: gpt-oss"),
    (Listed("opened"), "opened"),
    (Listed("closed"), "closed"),
    (Listed("merged"), "merged"),
    (Listed("closed_unmerged"), "closed unmerged"),
    (
        QueryMatch((TermHit("topic", topic=QWEN, evidence=(Evidence("title", "Qwen3"),)), TermHit("title", "hangs"))),
        "qwen: title: Qwen3; title: hangs",
    ),
    (
        QueryMatch((TermHit("label", "bug"), TermHit("body", "crashed"),
                    TermHit("topic", topic=QWEN, evidence=(Evidence("label", "qwen"), Evidence("tag", "qwen3"))))),
        "label bug; body: crashed; qwen: label qwen, tag [qwen3]",
    ),
    (Active("merged"), "merged in window"),
    (Active("closed"), "closed in window"),
    (Active("opened"), "opened in window"),
    (Active("commented", 4), "4 comments in window"),
]


def test_the_contract_covers_every_kind_of_reason() -> None:
    assert {type(why) for why, _ in CONTRACT} == set(get_args(Reason))
    assert {why.bug for why, _ in CONTRACT if isinstance(why, NewBug)} == set(BUG_KINDS)
    assert {why.event for why, _ in CONTRACT if isinstance(why, Listed | Active)} >= {
        "opened", "closed", "merged", "closed_unmerged", "commented"}


@pytest.mark.parametrize(("why", "text"), CONTRACT)
def test_json_reason_keeps_todays_english(why: Reason, text: str) -> None:
    assert contract_reason(why) == text
    item = DigestItem(1, "issue", "t", "u", "a", (), "", "new", why=why)
    assert item_to_dict(item)["reason"] == text
    # English readers see the same words today (they may change; the contract may not).
    assert reason_text(why, "en") == text


def test_json_adds_the_typed_reason() -> None:
    item = DigestItem(1, "pr", "t", "u", "a", (), "", "merged",
                      why=Merged((Signal("tag", "feature"), Signal("bugfix"), Signal("comments", count=12))))
    data = json.loads(json.dumps(item_to_dict(item)))
    assert data["reason"] == "merged: [feature], bugfix, 12 comments"
    assert data["why"] == {"kind": "merged", "signals": [
        {"kind": "tag", "value": "feature"}, {"kind": "bugfix"}, {"kind": "comments", "count": 12}]}
    assert why_to_dict(Hot(3)) == {"kind": "hot", "comments": 3, "reactions": 0}
    assert why_to_dict(NewBug("wrong_output", 2)) == {"kind": "new_bug", "bug": "wrong_output", "comments": 2}
    assert why_to_dict(InTopic((Evidence("body", "rocm", 3), Evidence("tag", "rocm")))) == {
        "kind": "topic", "evidence": [{"source": "body", "value": "rocm", "sentences": 3},
                                      {"source": "tag", "value": "rocm"}]}
    assert why_to_dict(QueryMatch((TermHit("topic", topic=QWEN, evidence=(Evidence("label", "qwen"),)),))) == {
        "kind": "query", "terms": [{"source": "topic", "topic": {"id": "qwen", "name": "Qwen models",
                                                                  "name_zh": "Qwen 系列模型"},
                                    "evidence": [{"source": "label", "value": "qwen"}]}]}
    assert why_to_dict(Listed("closed_unmerged")) == {"kind": "listed", "event": "closed_unmerged"}
    assert why_to_dict(Active("commented", 4)) == {"kind": "active", "event": "commented", "comments": 4}
    why = Merged((Signal("tag", "perf"), Signal("speedup", "1.8x"), Signal("areas", count=4),
                  Signal("lines", count=120), Signal("comments", count=3)))
    merged = item_to_dict(DigestItem(1, "pr", "t", "u", "a", (), "", "merged", why=why))
    # Sizes and kinds of change came later: the frozen ``reason`` keeps its old form, ``why`` has them.
    assert merged["reason"] == "merged: [perf], 3 comments"
    assert merged["why"]["signals"][1:4] == [{"kind": "speedup", "value": "1.8x"}, {"kind": "areas", "count": 4},
                                             {"kind": "lines", "count": 120}]
    assert reason_text(why, "en") == "merged: [perf], speed-up 1.8x, 4 areas, 120 lines, 3 comments"
    assert why_to_dict(InReview((Signal("new_model"),))) == {"kind": "in_review", "signals": [{"kind": "new_model"}]}
    bare = DigestItem(1, "issue", "t", "u", "a", (), "", "new")  # no reason: the contract's field stays, empty
    assert item_to_dict(bare)["reason"] == "" and "why" not in item_to_dict(bare)


# --------------------------------------------------------------------------------------------- Chinese

# The same reasons with GitHub's own text in Chinese, so that any Latin letter left is one of ours.
GH = "甲"
CHINESE: list[tuple[Reason, str]] = [
    (Hot(40), "本窗口内 40 条评论"),
    (Hot(3, 9), "本窗口内 3 条评论，9 个表情回应"),
    (Merged(), "已合并"),
    (
        Merged((Signal("tag", GH), Signal("label", GH), Signal("bugfix"), Signal("breaking"),
                Signal("comments", count=12), Signal("reactions", count=5))),
        "已合并：标题标记 [甲]，标签 甲，缺陷修复，破坏性变更或移除，12 条评论，5 个表情回应",
    ),
    (InReview(), "评审中"),
    (
        InReview((Signal("tag", GH), Signal("new_model"), Signal("feature"), Signal("hardware"), Signal("default"),
                  Signal("speedup"), Signal("speedup", "1.8倍"), Signal("fix", "crash"), Signal("internal"),
                  Signal("areas", count=4), Signal("lines", count=2400), Signal("files", count=17),
                  Signal("review_comments", count=9))),
        "评审中：标题标记 [甲]，新模型，新功能，硬件支持，默认值变更，性能提升，性能提升 1.8倍，修复崩溃，内部改动，"
        "涉及 4 个领域，2400 行改动，17 个文件，9 条评审意见",
    ),
    (NewBug("crash"), "新 bug：崩溃"),
    (NewBug("hang", 2), "新 bug：卡住，2 条评论"),
    (NewBug("wrong_output"), "新 bug：输出错误"),
    (NewBug("regression"), "新 bug：回归"),
    (NewBug("oom"), "新 bug：内存不足"),
    (
        InTopic((Evidence("label", GH), Evidence("tag", GH), Evidence("title", GH), Evidence("body", GH),
                 Evidence("body", GH, 3), Evidence("body_lead", GH))),
        "标签 甲，标题标记 [甲]，标题含“甲”，正文含“甲”，正文有 3 句提到“甲”，正文以“甲”开头",
    ),
    (Listed("opened"), "新建"),
    (Listed("closed"), "已关闭"),
    (Listed("merged"), "已合并"),
    (Listed("closed_unmerged"), "未合并即关闭"),
    (
        QueryMatch((TermHit("topic", topic=TopicRef("qwen", "Qwen models", "千问"), evidence=(Evidence("title", GH),)),
                    TermHit("title", GH), TermHit("label", GH), TermHit("body", GH))),
        "属于主题“千问”：标题含“甲”；标题含“甲”；标签 甲；正文含“甲”",
    ),
    (Active("merged"), "本窗口内已合并"),
    (Active("closed"), "本窗口内已关闭"),
    (Active("opened"), "本窗口内新建"),
    (Active("commented", 4), "本窗口内 4 条评论"),
]
# "bug" is how Chinese developers write it ("新 bug", as the summary does); no other Latin word is ours.
LOANWORDS = re.compile(r"\bbug\b")


def english_words(text: str) -> list[str]:
    return re.findall(r"[A-Za-z]+", LOANWORDS.sub("", text))


def test_chinese_covers_every_kind_of_reason() -> None:
    assert {type(why) for why, _ in CHINESE} == set(get_args(Reason))


@pytest.mark.parametrize(("why", "text"), CHINESE)
def test_chinese_reasons_read_naturally(why: Reason, text: str) -> None:
    assert reason_text(why, "zh-CN") == text
    assert english_words(text) == []
    assert reason_text(why, "zh") == reason_text(why, "zh-Hans") == text  # any Chinese tag reads zh-CN


CJK = st.text(st.characters(min_codepoint=0x4E00, max_codepoint=0x4FFF), min_size=1, max_size=5)


def cjk_reasons() -> st.SearchStrategy[Reason]:
    """Reasons of every kind whose GitHub text (and topic names) are Chinese: our words are all that is Latin."""
    evidence = st.builds(Evidence, st.sampled_from(("label", "tag", "title", "body", "body_lead")), CJK,
                         st.integers(0, 9))
    return st.one_of(
        st.builds(Hot, st.integers(0, 999), st.integers(0, 999)),
        *(st.builds(reason, st.lists(st.one_of(
            st.builds(Signal, st.sampled_from(("tag", "label", "speedup")), CJK),
            st.builds(Signal, st.sampled_from(("bugfix", "breaking", "new_model", "feature", "hardware", "default",
                                               "speedup", "internal"))),
            st.builds(Signal, st.just("fix"), st.sampled_from(BUG_KINDS)),
            st.builds(Signal, st.sampled_from(("comments", "reactions", "areas", "lines", "files",
                                               "review_comments")), st.just(""), st.integers(0, 99)),
        ), max_size=5).map(tuple)) for reason in (Merged, InReview)),
        st.builds(NewBug, st.sampled_from(BUG_KINDS), st.integers(0, 99)),
        st.builds(InTopic, st.lists(evidence, max_size=4).map(tuple)),
        st.builds(Listed, st.sampled_from(("opened", "closed", "merged", "closed_unmerged"))),
        st.builds(QueryMatch, st.lists(st.one_of(
            st.builds(TermHit, st.sampled_from(("title", "label", "body")), CJK),
            st.builds(TermHit, st.just("topic"), st.just(""),
                      st.builds(TopicRef, st.just("performance"), st.just("Performance"), CJK),
                      st.lists(evidence, max_size=3).map(tuple)),
        ), max_size=4).map(tuple)),
        st.builds(Active, st.sampled_from(("merged", "closed", "opened", "commented")), st.integers(0, 99)),
    )


@settings(max_examples=300, deadline=None)
@given(cjk_reasons())
def test_chinese_reasons_have_no_english_words_but_githubs(why: Reason) -> None:
    assert english_words(reason_text(why, "zh-CN")) == []


@settings(max_examples=300, deadline=None)
@given(reasons, st.sampled_from((*LOCALES, "zh", "fr", None)))
def test_every_reason_has_words_in_every_locale(why: Reason, locale: str | None) -> None:
    text = reason_text(why, locale)
    assert isinstance(text, str)
    if normalise_locale(locale) == "en":
        # English reads as the contract, but for what only ``why`` carries: a merged PR's newer signals.
        if isinstance(why, Merged):
            why = Merged(tuple(s for s in why.signals if s.kind in LEGACY_SIGNALS))
            text = reason_text(why, locale)
        assert text == contract_reason(why)


# --------------------------------------------------------------------------------------------- registries


def test_locales_are_defined_once_and_normalised() -> None:
    assert LOCALES == ("en", "zh-CN") and formatter_locale.LOCALES is LOCALES and tuple(STRINGS) == LOCALES
    for tag, expected in [("en", "en"), ("zh-CN", "zh-CN"), ("zh", "zh-CN"), ("zh-Hans", "zh-CN"),
                          ("zh_CN", "zh-CN"), ("ZH-cn", "zh-CN"), ("en-US", "en"), ("fr", "en"), ("", "en"),
                          (None, "en")]:
        assert normalise_locale(tag) == expected, tag
        assert strings(tag) is STRINGS[expected]
        assert strings(tag)["locale"] == expected


def test_section_registry_covers_every_kind_in_every_locale() -> None:
    kinds: tuple[SectionKind, ...] = get_args(SectionKind)
    assert set(kinds) <= set(sections.REGISTRY)
    assert sections.HIGHLIGHTED == BUILTIN_SECTIONS == ("hot", "key_changes", "notable")
    for kind, style in sections.REGISTRY.items():
        assert style.icon and 0 <= style.color <= 0xFFFFFF
        for locale in LOCALES:
            if kind != "topic":
                assert sections.kind_title(kind, STRINGS[locale]), (kind, locale)
    assert sections.kind_title("hot", STRINGS["zh-CN"]) == "高热度讨论"
    assert sections.kind_title("appendix", STRINGS["en"]) == "Appendix"


def test_sections_carry_their_kind_and_topic() -> None:
    hot = Section.builtin("hot", ())
    rocm = Section.for_topic("rocm", "AMD / ROCm", ())
    assert (hot.id, hot.kind, hot.topic, hot.title) == ("hot", "hot", None, "")
    assert (rocm.id, rocm.kind, rocm.topic) == ("topic:rocm", "topic", "rocm")
    assert sections.section_title(hot, STRINGS["zh-CN"]) == "高热度讨论"
    assert sections.section_title(rocm, STRINGS["zh-CN"]) == "AMD / ROCm"  # the topic's own name
    with pytest.raises(ValueError, match="unknown section"):
        Section("trending", "", ())
    with pytest.raises(ValueError, match="unknown section"):
        Section("topic:", "", ())
