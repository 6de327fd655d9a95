"""Typed reasons: the JSON contract's frozen English, the words per locale, the section and locale registries."""

from __future__ import annotations

import json
import re
from typing import get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec import structs

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
from tests.chinese_text import english_words, greek_reasons, stray_spaces
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
    # Kinds added with the editorial policy: new strings, frozen from now on.
    (NewBug("null_output", 2), "new bug: null output, 2 comments"),
    (NewBug("config_failure"), "new bug: config failure"),
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


# What English readers see: the contract's facts in plainer words ("new comments", not "comments in window";
# "1 comment"). Rewording these is free; the JSON ``reason`` above is not.
ENGLISH: list[tuple[Reason, str]] = [
    (Hot(40), "40 new comments"),
    (Hot(3, 9), "3 new comments, 9 reactions"),
    (Hot(1, 1), "1 new comment, 1 reaction"),
    (Merged(), "merged"),
    (Merged((Signal("tag", "feature"), Signal("comments", count=12))), "merged: [feature], 12 comments"),
    (
        Merged((Signal("label", "new-model"), Signal("bugfix"), Signal("breaking"), Signal("comments", count=1),
                Signal("reactions", count=1))),
        "merged: label new-model, bugfix, breaking/removal, 1 comment, 1 reaction",
    ),
    (InReview(), "in review"),
    (
        InReview((Signal("tag", "model"), Signal("new_model"), Signal("speedup", "1.8x"), Signal("fix", "hang"),
                  Signal("areas", count=4), Signal("lines", count=1), Signal("files", count=3))),
        "in review: [model], new model, speed-up 1.8x, fixes hang, 4 areas, 1 line, 3 files",
    ),
    (NewBug("crash", 1), "new bug: crash, 1 comment"),
    (NewBug("hang", 3), "new bug: hang, 3 comments"),
    (NewBug("oom"), "new bug: OOM"),
    (
        InTopic((Evidence("label", "rocm"), Evidence("tag", "rocm"), Evidence("title", "AITER"))),
        "label rocm, tag [rocm], title: AITER",
    ),
    (InTopic((Evidence("body", "rocm", 3),)), "body: rocm (3 sentences)"),
    (InTopic((Evidence("body", "rocm", 1),)), "body: rocm (1 sentence)"),
    (InTopic((Evidence("body_lead", "gpt-oss"),)), "body opens with gpt-oss"),
    (Listed("opened"), "opened"),
    (Listed("closed_unmerged"), "closed unmerged"),
    (
        QueryMatch((TermHit("topic", topic=QWEN, evidence=(Evidence("title", "Qwen3"),)), TermHit("title", "hangs"))),
        "Qwen models (title: Qwen3); title: hangs",
    ),
    (Active("merged"), "merged"),
    (Active("closed"), "closed"),
    (Active("opened"), "opened"),
    (Active("commented", 4), "4 new comments"),
    (Active("commented", 1), "1 new comment"),
]


def test_english_covers_every_kind_of_reason() -> None:
    assert {type(why) for why, _ in ENGLISH} == set(get_args(Reason))


@pytest.mark.parametrize(("why", "text"), ENGLISH)
def test_english_reasons_read_naturally(why: Reason, text: str) -> None:
    assert reason_text(why, "en") == text
    assert "in window" not in text


def as_json(value: object) -> object:
    """What the JSON says (arrays may be tuples before it is written)."""
    return json.loads(json.dumps(value))


def test_json_adds_the_typed_reason() -> None:
    item = DigestItem(1, "pr", "t", "u", "a", (), "", "merged",
                      why=Merged((Signal("tag", "feature"), Signal("bugfix"), Signal("comments", count=12))))
    data = json.loads(json.dumps(item_to_dict(item)))
    assert data["reason"] == "merged: [feature], bugfix, 12 comments"
    assert data["why"] == {"kind": "merged", "signals": [
        {"kind": "tag", "value": "feature"}, {"kind": "bugfix"}, {"kind": "comments", "count": 12}]}
    assert as_json(why_to_dict(Hot(3))) == {"kind": "hot", "comments": 3, "reactions": 0, "participants": 0,
                                            "maintainer": False, "open_question": False}
    assert as_json(why_to_dict(NewBug("wrong_output", 2))) == {"kind": "new_bug", "bug": "wrong_output",
                                                               "comments": 2, "confirmations": 0}
    assert as_json(why_to_dict(InTopic((Evidence("body", "rocm", 3), Evidence("tag", "rocm"))))) == {
        "kind": "topic", "evidence": [{"source": "body", "value": "rocm", "sentences": 3},
                                      {"source": "tag", "value": "rocm"}]}
    qwen = QueryMatch((TermHit("topic", topic=QWEN, evidence=(Evidence("label", "qwen"),)),))
    assert as_json(why_to_dict(qwen)) == {
        "kind": "query", "terms": [{"source": "topic", "topic": {"id": "qwen", "name": "Qwen models",
                                                                  "name_zh": "Qwen 系列模型"},
                                    "evidence": [{"source": "label", "value": "qwen"}]}]}
    assert as_json(why_to_dict(Listed("closed_unmerged"))) == {"kind": "listed", "event": "closed_unmerged"}
    assert as_json(why_to_dict(Active("commented", 4))) == {"kind": "active", "event": "commented", "comments": 4}
    why = Merged((Signal("tag", "perf"), Signal("speedup", "1.8x"), Signal("areas", count=4),
                  Signal("lines", count=120), Signal("comments", count=3)))
    merged = item_to_dict(DigestItem(1, "pr", "t", "u", "a", (), "", "merged", why=why))
    # Sizes and kinds of change came later: the frozen ``reason`` keeps its old form, ``why`` has them.
    assert merged["reason"] == "merged: [perf], 3 comments"
    assert as_json(merged["why"]["signals"][1:4]) == [{"kind": "speedup", "value": "1.8x"},
                                                      {"kind": "areas", "count": 4}, {"kind": "lines", "count": 120}]
    assert reason_text(why, "en") == "merged: [perf], speed-up 1.8x, 4 areas, 120 lines, 3 comments"
    assert as_json(why_to_dict(InReview((Signal("new_model"),)))) == {"kind": "in_review",
                                                                      "signals": [{"kind": "new_model"}]}
    bare = DigestItem(1, "issue", "t", "u", "a", (), "", "new")  # no reason: the contract's field stays, empty
    assert item_to_dict(bare)["reason"] == "" and "why" not in item_to_dict(bare)


# --------------------------------------------------------------------------------------------- Chinese

# The same reasons with GitHub's own text Greek, so that any Latin letter left is one of ours, and a space next to
# it stands where it would next to GitHub's Latin text ("标签 rocm").
GH = "α"
CHINESE: list[tuple[Reason, str]] = [
    (Hot(40), "40 条新评论"),
    (Hot(3, 9), "3 条新评论，9 个表情回应"),
    (Merged(), "已合并"),
    (
        Merged((Signal("tag", GH), Signal("label", GH), Signal("bugfix"), Signal("breaking"),
                Signal("comments", count=12), Signal("reactions", count=5))),
        "已合并：标题标记 [α]，标签 α，bug 修复，不兼容变更或移除，12 条评论，5 个表情回应",
    ),
    (InReview(), "评审中"),
    (
        InReview((Signal("tag", GH), Signal("new_model"), Signal("feature"), Signal("hardware"), Signal("default"),
                  Signal("speedup"), Signal("speedup", "1.8倍"), Signal("fix", "crash"), Signal("internal"),
                  Signal("areas", count=4), Signal("lines", count=2400), Signal("files", count=17),
                  Signal("review_comments", count=9))),
        "评审中：标题标记 [α]，新模型，新功能，硬件支持，默认值变更，性能提升，性能提升 1.8倍，修复崩溃，内部改动，"
        "涉及 4 个领域，2400 行改动，17 个文件，9 条评审意见",
    ),
    (NewBug("crash"), "新 bug：崩溃"),
    (NewBug("hang", 2), "新 bug：卡死，2 条评论"),
    (NewBug("wrong_output"), "新 bug：输出错误"),
    (NewBug("regression"), "新 bug：回归"),
    (NewBug("oom"), "新 bug：OOM"),
    (
        InTopic((Evidence("label", GH), Evidence("tag", GH), Evidence("title", GH), Evidence("body", GH),
                 Evidence("body", GH, 3), Evidence("body_lead", GH))),
        "标签 α，标题标记 [α]，标题含“α”，正文含“α”，正文有 3 句提到“α”，正文开头提到“α”",
    ),
    (Listed("opened"), "新增"),
    (Listed("closed"), "已关闭"),
    (Listed("merged"), "已合并"),
    (Listed("closed_unmerged"), "关闭未合并"),
    (
        QueryMatch((TermHit("topic", topic=TopicRef("qwen", "Qwen models", "千问"), evidence=(Evidence("title", GH),)),
                    TermHit("title", GH), TermHit("label", GH), TermHit("body", GH))),
        "主题“千问”：标题含“α”；标题含“α”；标签 α；正文含“α”",
    ),
    (Active("merged"), "已合并"),
    (Active("closed"), "已关闭"),
    (Active("opened"), "新增"),
    (Active("commented", 4), "4 条新评论"),
]


def test_chinese_covers_every_kind_of_reason() -> None:
    assert {type(why) for why, _ in CHINESE} == set(get_args(Reason))


@pytest.mark.parametrize(("why", "text"), CHINESE)
def test_chinese_reasons_read_naturally(why: Reason, text: str) -> None:
    assert reason_text(why, "zh-CN") == text
    assert english_words(text) == [] and stray_spaces(text) == []
    assert reason_text(why, "zh") == reason_text(why, "zh-Hans") == text  # any Chinese tag reads zh-CN


@settings(max_examples=300, deadline=None)
@given(greek_reasons())
def test_chinese_reasons_have_no_english_words_but_githubs(why: Reason) -> None:
    text = reason_text(why, "zh-CN")
    assert english_words(text) == [] and stray_spaces(text) == [], text


@settings(max_examples=300, deadline=None)
@given(reasons, st.sampled_from((*LOCALES, "zh", "fr", None)))
def test_every_reason_has_words_in_every_locale(why: Reason, locale: str | None) -> None:
    text = reason_text(why, locale)
    assert isinstance(text, str)
    if normalise_locale(locale) == "en":
        # Other words, the same facts: the contract's numbers in its order, then what the typed reason adds
        # (a merged PR's newer signals are only in ``why``).
        if isinstance(why, Merged):
            why = Merged(tuple(s for s in why.signals if s.kind in LEGACY_SIGNALS))
            text = reason_text(why, locale)
        if isinstance(why, QueryMatch):  # the text names a topic as readers know it, the contract by its id
            why = QueryMatch(tuple(structs.replace(term, topic=structs.replace(term.topic, id=term.topic.name))
                                   if term.topic is not None else term for term in why.terms))
        numbers, contract = re.findall(r"[0-9]+", text), re.findall(r"[0-9]+", contract_reason(why))
        assert numbers[: len(contract)] == contract
        if not _has_facts_beyond_the_contract(why):
            assert numbers == contract


def _has_facts_beyond_the_contract(why: Reason) -> bool:
    if isinstance(why, Hot):
        return bool(why.participants or why.maintainer or why.open_question)
    return isinstance(why, NewBug) and why.confirmations > 0


def test_hot_and_new_bug_word_the_heat_and_the_confirmations() -> None:
    hot = Hot(12, 3, participants=5, maintainer=True, open_question=True)
    assert contract_reason(hot) == "12 comments in window, 3 reactions"  # the JSON ``reason``: unchanged
    assert reason_text(hot, "en") == (
        "12 new comments, 3 reactions, 5 people, maintainer replied, awaiting follow-up")
    assert reason_text(hot, "zh-CN") == "12 条新评论，3 个表情回应，5 人参与，维护者已回复，待跟进"
    unanswered = Hot(4, participants=2, open_question=True)
    assert reason_text(unanswered, "en") == "4 new comments, 2 people, awaiting maintainers"
    assert reason_text(unanswered, "zh-CN") == "4 条新评论，2 人参与，待维护者回复"
    assert reason_text(Hot(4, participants=2, maintainer=True), "zh-CN") == "4 条新评论，2 人参与，维护者已回复"
    bug = NewBug("null_output", 4, confirmations=3)
    assert contract_reason(bug) == "new bug: null output, 4 comments"
    assert reason_text(bug, "en") == "new bug: null output, 4 comments, 3 confirmed"
    assert reason_text(bug, "zh-CN") == "新 bug：输出为空，4 条评论，3 人确认遇到"
    assert reason_text(NewBug("config_failure"), "zh-CN") == "新 bug：特定配置下失败"


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
