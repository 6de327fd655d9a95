"""Per-locale strings for every formatter; templates hold the layout, this file only words.

Placeholders are filled with values that are already escaped for the output at hand.
"""

from __future__ import annotations

from typing import Any

STRINGS: dict[str, dict[str, Any]] = {
    "en": {
        "digest_title": "{repo} daily digest",
        "window": "Window",
        "activity": "Activity, 7 days",
        "activity_total": "{n} opened",
        "stats": {
            "new_issues": "New issues",
            "closed_issues": "Closed issues",
            "new_prs": "New PRs",
            "merged_prs": "Merged PRs",
            "closed_unmerged_prs": "Closed unmerged PRs",
        },
        "sections": {"hot": "Hot discussions", "key_changes": "Key changes", "notable": "Notable issues"},
        "highlights": "Highlights",
        "no_highlights": "No hot discussions, key changes or notable issues in this window.",
        "in_thread": "Every section and the appendix are in the thread.",
        "part": "{repo} daily digest, part {n} of {total}",
        "continued": "(continued)",
        "appendix": "Appendix",
        "and_more": "…and {n} more",
        "by": "by",
        "nothing": "Nothing in this window.",
        "no_title": "(no title)",
        "kind": {"issue": "issue", "pr": "PR"},
        "state": {"new": "new", "merged": "merged", "closed": "closed", "open": "open"},
        "query_title": "“{query}” in {repo}",
        "query_topic": "Topic",
        "query_shown": "{shown} of {total} items",
        "query_count": "{n} items",
        "query_none": "Nothing matched “{query}” in {repo} between {start} and {end} ({tz}).",
        "query_try": "Try",
        "trends": "Trends",
        "trend": "{title} {count} ({ratio}× usual)",
        "trend_new": "{title} {count} (new)",
        "trend_plain": "{title} {count}",
        "contributors": "{n} contributors, {first} first-time",
        "merge_rate": "merge rate {rate}%",
        "median_merge": "median {hours} h to merge",
        "streak_new": "new today",
        "streak": "hot {n} days running",
        "question": "Question",
        "positions": "Positions",
        "status": "Where it stands",
        "impact": "Impact",
        "ai": "AI-written",
        "groups": {
            "new_issues": "New issues",
            "new_prs": "New PRs",
            "merged_prs": "Merged PRs",
            "closed_issues": "Closed issues",
            "closed_prs": "Closed PRs",
            "active": "Active",
        },
    },
    "zh-CN": {
        "digest_title": "{repo} 每日开发状态摘要",
        "window": "时间窗口",
        "activity": "近 7 天活跃度",
        "activity_total": "共新建 {n} 项",
        "stats": {
            "new_issues": "新建 Issue",
            "closed_issues": "关闭 Issue",
            "new_prs": "新建 PR",
            "merged_prs": "合并 PR",
            "closed_unmerged_prs": "未合并关闭 PR",
        },
        "sections": {"hot": "高热度讨论", "key_changes": "重点技术变更", "notable": "值得关注的问题"},
        "highlights": "今日要点",
        "no_highlights": "此时间窗口内没有高热度讨论、重点技术变更或值得关注的问题。",
        "in_thread": "各分区详情与附录见本消息的讨论串。",
        "part": "{repo} 每日开发状态摘要（第 {n}/{total} 部分）",
        "continued": "（续）",
        "appendix": "附录",
        "and_more": "……另有 {n} 项",
        "by": "作者",
        "nothing": "此时间窗口内没有内容。",
        "no_title": "（无标题）",
        "kind": {"issue": "Issue", "pr": "PR"},
        "state": {"new": "新建", "merged": "已合并", "closed": "已关闭", "open": "进行中"},
        "query_title": "{repo} 中的“{query}”",
        "query_topic": "主题",
        "query_shown": "显示 {shown} / 共 {total} 项",
        "query_count": "共 {n} 项",
        "query_none": "{start} 至 {end}（{tz}）期间，{repo} 中没有与“{query}”匹配的内容。",
        "query_try": "可以试试",
        "trends": "趋势",
        "trend": "{title} {count}（平时的 {ratio} 倍）",
        "trend_new": "{title} {count}（新出现）",
        "trend_plain": "{title} {count}",
        "contributors": "{n} 位参与者，{first} 位首次贡献",
        "merge_rate": "合并率 {rate}%",
        "median_merge": "合并耗时中位数 {hours} 小时",
        "streak_new": "今日新上榜",
        "streak": "连续 {n} 天热议",
        "question": "核心问题",
        "positions": "各方观点",
        "status": "当前进展",
        "impact": "影响",
        "ai": "AI 生成",
        "groups": {
            "new_issues": "新建 Issue",
            "new_prs": "新建 PR",
            "merged_prs": "合并 PR",
            "closed_issues": "关闭 Issue",
            "closed_prs": "关闭 PR",
            "active": "活跃",
        },
    },
}

LOCALES = tuple(STRINGS)


def strings(locale: str | None) -> dict[str, Any]:
    """The strings of ``locale``; ``zh``/``zh-Hans``-style tags fall back to ``zh-CN``, the rest to English."""
    if locale in STRINGS:
        return STRINGS[locale]
    if locale and locale.lower().startswith("zh"):
        return STRINGS["zh-CN"]
    return STRINGS["en"]
