"""Where each item goes in a chat post (formatters.layout): once, in its most specific place; what gives first."""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from msgspec import structs

from bot.model import Digest, Evidence, InTopic, Section, Stats
from bot.model.edition import ENTRIES, Edition, Ref, edit
from formatters.discord_embeds import render_discord_digest
from formatters.layout import (
    ChannelCounts,
    channel_levels,
    chat_layout,
    search_url,
    with_thread_limit,
)
from formatters.markdown import render_markdown
from formatters.slack_blocks import render_slack_digest
from tests.formatter_strategies import WINDOW, digests, item, post_digest


def shown(layout) -> dict[str, list[int]]:  # type: ignore[no-untyped-def]
    return {part.part.section.id: [entry.number for entry in part.channel] for part in layout.channel_parts()}


def entries(edition: Edition) -> dict[str, list[int]]:
    return {section.id: list(section.entries) for section in edition.sections()}


def test_each_item_has_one_full_entry_where_it_ranks_best_and_sections_fill_up() -> None:
    edition = edit(post_digest())
    assert entries(edition) == {
        "topic:rocm": [5, 7, 8, 9, 10],  # #6 ranks first in Quantization, second here: its entry is there
        "topic:quantization": [6, 13],
        "hot": [20, 21, 22, 23],  # #5 is the hottest, but it ranks first in ROCm too: the next one fills in
        "key_changes": [24, 25, 26],
        "notable": [27],
    }
    rocm = edition.section("topic:rocm")
    assert rocm is not None and rocm.refs == (Ref(6, "topic:quantization"),) and rocm.rest == (11, 12)
    assert rocm.total == 8
    hot, notable = edition.hot, edition.notable
    assert hot is not None and hot.refs == (Ref(5, "topic:rocm"),)
    assert notable is not None and notable.refs == (Ref(5, "topic:rocm"),)
    assert [entry.topic for entry in edition.index] == ["qwen"]  # not followed: one line in the index


def test_on_a_tie_notable_beats_key_changes_beats_hot() -> None:
    both = item(1, "Crash fix", why=None)
    digest = Digest(repo="o/r", window=WINDOW, stats=Stats(), sections=(
        Section.builtin("hot", (both, item(2), item(3), item(4))),
        Section.builtin("key_changes", (both, item(5))),
        Section.builtin("notable", (both,)),
    ))
    assert entries(edit(digest)) == {"hot": [2, 3, 4], "key_changes": [5], "notable": [1]}
    assert shown(chat_layout(digest)) == {"hot": [2, 3, 4], "key_changes": [5], "notable": [1]}


def test_followed_topics_come_most_important_first_at_most_five() -> None:
    tagged = item(1, why=InTopic((Evidence("tag", "x"),)))
    topics = [Section.for_topic(name, name.upper(), (structs.replace(tagged, number=n),))
              for n, name in enumerate("abcdefg", start=1)]
    topics[1] = Section.for_topic("b", "B", (tagged,))  # #1 is in a and b
    digest = Digest(repo="o/r", window=WINDOW, stats=Stats(), followed=("b", "a", "c", "d", "e", "f", "g"),
                    sections=tuple(topics))
    plain = edit(digest)
    assert [s.id for s in plain.topics] == ["topic:b", "topic:a", "topic:c", "topic:d", "topic:e"]
    assert plain.section("topic:b").entries == (1,)  # type: ignore[union-attr]  # a tie: followed first
    assert [e.topic for e in plain.index] == ["f", "g"]  # beyond five: one line each
    weighed = edit(digest, importance={"g": 9.0, "a": 5.0})
    assert [s.id for s in weighed.topics][:3] == ["topic:g", "topic:a", "topic:b"]
    assert weighed.section("topic:a").entries == (1,)  # type: ignore[union-attr]


def test_a_followed_topic_without_items_is_quiet() -> None:
    digest = Digest(repo="o/r", window=WINDOW, stats=Stats(), followed=("rocm", "ghost"),
                    sections=(Section.for_topic("rocm", "AMD / ROCm", ()),))
    edition = edit(digest)
    assert edition.quiet == ("rocm",) and edition.topics == () and edition.index == ()


def test_fewer_counts_move_a_topics_entries_to_the_thread_never_into_another_section() -> None:
    layout = chat_layout(post_digest())
    assert shown(layout) == {"topic:rocm": [5, 7, 8], "topic:quantization": [6, 13], "hot": [20, 21, 22],
                             "key_changes": [24, 25, 26], "notable": [27]}
    (rocm,) = layout.thread_topics()
    assert [entry.number for entry in rocm.thread] == [9, 10] and rocm.unshown == 2  # #11, #12: page links
    small = chat_layout(post_digest(), ChannelCounts(hot=1, topic=1, key_changes=1, notable=1, topics=1))
    assert shown(small) == {"topic:rocm": [5], "hot": [20], "key_changes": [24], "notable": [27]}
    rocm, quant = small.thread_topics()
    assert [e.number for e in rocm.thread] == [7, 8, 9, 10] and [e.number for e in quant.thread] == [6, 13]
    (cut, _) = with_thread_limit(small, 2)
    assert [e.number for e in cut.thread] == [7, 8] and cut.unshown == 4


def test_an_item_the_summary_names_always_has_an_entry_in_the_channel_message() -> None:
    digest = post_digest()
    assert digest.narrative is not None
    llm = structs.replace(digest.narrative, summary="The thread #23 matters most.", summary_source="llm")
    layout = chat_layout(structs.replace(digest, narrative=llm), ChannelCounts(1, 1, 1, 1))
    assert 23 in shown(layout)["hot"]  # the fourth hot discussion, shown because the summary names it


def test_channel_levels_only_ever_show_less() -> None:
    levels = channel_levels(3)
    fields = ("hot", "topic", "key_changes", "notable")
    for before, after in itertools.pairwise(levels):
        assert all(getattr(after, f) <= getattr(before, f) for f in fields)
        assert (after.topics if after.topics is not None else 3) <= (before.topics if before.topics is not None else 3)
    assert levels[-1] == ChannelCounts(0, 0, 0, 0, 0)


def test_search_urls_name_the_window_in_utc_on_the_items_host() -> None:
    digest = post_digest()
    assert search_url(digest, "closed_unmerged_prs") == (
        "https://github.com/o/r/pulls?q=is%3Apr+is%3Aunmerged+closed%3A"
        "2025-12-01T03%3A05%3A00Z..2025-12-02T03%3A05%3A00Z")
    ghe = structs.replace(digest, appendix={"new_issues": (item(1, url="https://ghe.example.com/o/r/issues/1"),)})
    assert (search_url(ghe, "new_issues") or "").startswith("https://ghe.example.com/o/r/issues?q=is%3Aissue+created")
    assert search_url(structs.replace(digest, repo="<!channel>/x"), "new_issues") is None
    assert search_url(digest, "other") is None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(digests(max_items=40))
def test_any_edition_gives_each_item_one_entry_and_accounts_for_every_candidate(digest: Digest) -> None:
    edition = edit(digest)
    home = edition.home()
    placed = [n for section in edition.sections() for n in section.entries]
    assert len(placed) == len(set(placed))  # one full entry each
    for edited in edition.sections():
        section = digest.section(edited.id)
        assert section is not None
        candidates = list(dict.fromkeys(item.number for item in section.items))
        shown = [*edited.entries, *(ref.number for ref in edited.refs), *edited.rest]
        assert sorted(shown) == sorted(n for n in candidates if n in shown)  # nothing from elsewhere
        assert len(shown) == len(set(shown)) and len(edited.entries) <= ENTRIES
        assert all(home[ref.number] == ref.home != edited.id for ref in edited.refs)
        assert all(home.get(n) != edited.id for n in edited.rest)
        assert edited.total >= len(candidates)
    layout = chat_layout(digest)
    posted = [e.number for part in layout.parts for e in (*part.channel, *part.thread)]
    assert len(posted) == len(set(posted)) and set(posted) <= set(home) | layout.page.named


def _quiet_rocm_day(locale: str = "en") -> Digest:
    """A reader follows ROCm and Qwen; ROCm had nothing in the window, Qwen had one item."""
    qwen = item(3, "[Bug] Qwen3 hangs", why=InTopic((Evidence("tag", "qwen"),)))
    return Digest(repo="o/r", window=WINDOW, stats=Stats(), locale=locale, followed=("rocm", "qwen"), sections=(
        Section.for_topic("rocm", "AMD / ROCm", ()), Section.for_topic("qwen", "Qwen", (qwen,)),
    ))


def test_a_followed_topic_with_nothing_says_so_once_in_every_format() -> None:
    digest = _quiet_rocm_day()
    assert [section.id for section in chat_layout(digest).quiet] == ["topic:rocm"]
    channel = str(render_slack_digest(digest)[0]["blocks"])
    assert channel.count("AMD / ROCm: nothing new in this window") == 1 and "Qwen: nothing new" not in channel
    headline = render_discord_digest(digest)[0]["embeds"][0]["description"]
    assert "AMD / ROCm: nothing new in this window" in headline
    markdown = render_markdown(digest)
    assert markdown.index("## 🏷️ Qwen") < markdown.index("## 🏷️ AMD / ROCm (0)") < markdown.index(
        "Nothing new in this window.")
    zh = str(render_slack_digest(_quiet_rocm_day("zh-CN"))[0]["blocks"])
    assert "AMD / ROCm：这段时间没有新动态" in zh


def test_a_day_where_every_followed_topic_has_items_has_no_quiet_line() -> None:
    assert chat_layout(post_digest()).quiet == ()


def test_a_bug_report_says_its_failure_wherever_it_is_listed() -> None:
    """The notable section keeps the worst ten; a hang it leaves out is still a hang in its topic section, in
    the words the notable section uses (zh-CN "卡死"), and an item that reports no failure says none."""
    from bot.model import ItemFacts, NewBug

    evidence = InTopic((Evidence("title", "MI300X"),))
    listed = structs.replace(item(2, "[Bug]: TP=4 hangs during RCCL init", why=evidence),
                                 facts=ItemFacts(failure="hang"))
    notable = item(1, "[Bug]: Memory access fault on MI325X", why=NewBug("crash", 3, 1))
    plain = item(3, "[Feature]: FP8 KV cache on MI300X", why=evidence)
    digest = Digest(repo="o/r", window=WINDOW, stats=Stats(), locale="zh-CN", followed=("rocm",), sections=(
        Section.for_topic("rocm", "AMD / ROCm", (structs.replace(notable, why=evidence), listed, plain)),
        Section.builtin("notable", (notable,)),
    ))
    lines = {number: next(line for line in render_markdown(digest).splitlines() if f"[#{number}]" in line)
             for number in (1, 2, 3)}
    assert lines[2].endswith("· 卡死") and lines[1].count("崩溃") == 1
    assert "卡死" not in lines[3] and "崩溃" not in lines[3]
