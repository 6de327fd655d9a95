"""The window's themes (bot/digest/themes.py): 3-5 things the day was about, each of at least three items."""

from __future__ import annotations

from datetime import timedelta

from bot.digest.themes import MIN_ITEMS, series_key
from bot.store.store import Store
from tests.factories import comment_payload, issue_payload
from tests.test_build import INSIDE, build, save


def test_a_pr_series_counts_once() -> None:
    key = series_key("[Spec Decode] Add n-gram proposer with GPU matching [5/N]")
    assert key == series_key("[V1][Spec Decode] Add n-gram proposer with GPU matching (part 6)")
    assert key == series_key("Add n-gram proposer with GPU matching (take 2)")
    assert key != series_key("Add n-gram proposer with CPU matching")


def test_themes_say_what_a_topic_and_a_family_with_a_topic_were_about(store: Store) -> None:
    items = [
        issue_payload(1, INSIDE, title="[Bug]: Qwen3-30B-A3B FP8 crashes on H200", labels=("bug", "qwen")),
        issue_payload(2, INSIDE, title="[Bug]: Qwen3-235B FP8 garbage output", labels=("bug", "qwen", "quantization")),
        issue_payload(3, INSIDE, title="[Quantization] Fix FP8 block scales for Qwen3 MoE", pr=True,
                      labels=("qwen", "quantization")),
        issue_payload(4, INSIDE, title="[Quantization] Add FP8 KV cache for Qwen3-Next", pr=True,
                      labels=("qwen", "quantization")),
        # a series: three parts, one theme item
        *(issue_payload(10 + k, INSIDE, title=f"[Quantization] Add MXFP4 MoE kernels for Qwen3 [{k}/N]", pr=True,
                        labels=("qwen", "quantization")) for k in (1, 2, 3)),
        issue_payload(20, INSIDE, title="[ROCm] Fix a typo", pr=True, labels=("rocm",)),
    ]
    save(store, items, [comment_payload(100 + k, 1, INSIDE + timedelta(minutes=k), user=f"u{k}") for k in range(3)])
    digest = build(store)
    assert digest.narrative is not None
    themes = digest.narrative.themes
    assert themes and all(theme.count >= MIN_ITEMS for theme in themes)
    assert len(themes) <= 5
    first = themes[0]
    names = [topic.id for topic in first.topics]
    assert "qwen" in names or "quantization" in names
    # the series is one item of the theme: #10, #11, #12 give one number
    assert len({10, 11, 12} & set(first.items)) <= 1
    facets = dict(first.facets)
    assert facets.get("bug_reports", 0) >= 1 and facets.get("fixes", 0) + facets.get("features", 0) >= 1
    # a topic with one item is no theme
    assert not any(topic.id == "rocm" for theme in themes for topic in theme.topics)
    # two themes never mostly repeat each other
    for k, a in enumerate(themes):
        for b in themes[k + 1:]:
            small = min(len(a.items), len(b.items))
            assert len(set(a.items) & set(b.items)) <= small / 2 or small == 0
