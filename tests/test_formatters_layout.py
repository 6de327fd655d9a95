"""Where each item goes in a chat post (formatters.layout): once, in its most specific place; what gives first."""

from __future__ import annotations

import dataclasses
import itertools

from hypothesis import HealthCheck, given, settings

from bot.model import Digest, Evidence, InTopic, Section, Stats
from formatters.discord_embeds import render_discord_digest
from formatters.layout import (
    ChannelCounts,
    channel_levels,
    chat_layout,
    evidence_strength,
    markdown_order,
    search_url,
    with_thread_limit,
)
from formatters.markdown import render_markdown
from formatters.slack_blocks import render_slack_digest
from tests.formatter_strategies import WINDOW, digests, item, post_digest


def shown(layout) -> dict[str, list[int]]:  # type: ignore[no-untyped-def]
    return {section.id: [entry.number for entry in items] for _, section, items in layout.channel_parts()}


def test_each_item_goes_to_its_most_specific_place_and_sections_fill_up() -> None:
    layout = chat_layout(post_digest())
    assert shown(layout) == {
        "hot": [20, 21, 22],  # #5 is hot, but it is in a followed topic: the next hot discussion fills in
        "topic:rocm": [5, 7, 8],
        "topic:quantization": [6, 13],  # #6: a label in Quantization beats a title word in ROCm
        "key_changes": [24, 25, 26],
        "notable": [27],  # #5 is a new bug too: it stays in its topic
    }
    (rocm,) = layout.thread_topics()
    assert [entry.number for entry in rocm.thread] == [9, 10, 11, 12] and rocm.unshown == 0


def test_notable_beats_key_changes_beats_hot() -> None:
    both = item(1, "Crash fix", why=None)
    digest = Digest(repo="o/r", window=WINDOW, stats=Stats(), sections=(
        Section.builtin("hot", (both, item(2), item(3), item(4))),
        Section.builtin("key_changes", (both, item(5))),
        Section.builtin("notable", (both,)),
    ))
    assert shown(chat_layout(digest)) == {"hot": [2, 3, 4], "key_changes": [5], "notable": [1]}


def test_a_tie_in_evidence_goes_to_the_topic_followed_first() -> None:
    tagged = item(1, why=InTopic((Evidence("tag", "x"),)))
    digest = Digest(repo="o/r", window=WINDOW, stats=Stats(), followed=("b", "a"), sections=(
        Section.for_topic("a", "A", (tagged,)), Section.for_topic("b", "B", (tagged,)),
    ))
    assert shown(chat_layout(digest)) == {"topic:b": [1]}
    assert evidence_strength(item(2, why=InTopic((Evidence("body", "x"), Evidence("label", "x"))))) == (0, -2)


def test_fewer_counts_move_a_topics_items_to_the_thread_never_into_another_section() -> None:
    layout = chat_layout(post_digest(), ChannelCounts(hot=1, topic=1, key_changes=1, notable=1, topics=1))
    assert shown(layout) == {"hot": [20], "topic:rocm": [5], "key_changes": [24], "notable": [27]}
    rocm, quant = layout.thread_topics()
    assert [e.number for e in rocm.thread] == [7, 8, 9, 10, 11, 12] and [e.number for e in quant.thread] == [6, 13]
    (cut, _) = with_thread_limit(layout, 2)
    assert [e.number for e in cut.thread] == [7, 8] and cut.unshown == 4


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
    ghe = dataclasses.replace(digest, appendix={"new_issues": (item(1, url="https://ghe.example.com/o/r/issues/1"),)})
    assert (search_url(ghe, "new_issues") or "").startswith("https://ghe.example.com/o/r/issues?q=is%3Aissue+created")
    assert search_url(dataclasses.replace(digest, repo="<!channel>/x"), "new_issues") is None
    assert search_url(digest, "other") is None


def test_markdown_order_keeps_every_section() -> None:
    order = markdown_order(post_digest())
    ids = [section.id if section is not None else "trends" for section in order]
    assert ids == ["topic:rocm", "topic:quantization", "hot", "trends", "key_changes", "notable", "topic:qwen"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(digests(max_items=40))
def test_any_layout_places_an_item_once_and_only_from_its_sections(digest: Digest) -> None:
    layout = chat_layout(digest)
    placed = [e.number for _, _, items in layout.channel_parts() for e in items]
    placed += [e.number for place in layout.thread_topics() for e in place.thread]
    assert len(placed) == len(set(placed))
    for kind, section, items in layout.channel_parts():
        assert set(items) <= set(section.items)
        limit = {"hot": 3, "topic": 3, "key_changes": 5, "notable": 5}[kind]
        assert len(items) <= limit
    hot = digest.section("hot")
    if hot is not None:  # hot still shows three when three are left once the others took theirs
        others = set(placed) - {e.number for e in (layout.hot.items if layout.hot else ())}
        left = [e for e in hot.items if e.number not in others]
        assert len(layout.hot.items if layout.hot else ()) == min(3, len({e.number for e in left}))


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
    assert markdown.index("AMD / ROCm") < markdown.index("Nothing new in this window.") < markdown.index("Qwen")
    zh = str(render_slack_digest(_quiet_rocm_day("zh-CN"))[0]["blocks"])
    assert "AMD / ROCm：这段时间没有新动态" in zh


def test_a_day_where_every_followed_topic_has_items_has_no_quiet_line() -> None:
    assert chat_layout(post_digest()).quiet == ()
