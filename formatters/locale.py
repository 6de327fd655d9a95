"""Per-locale strings for every formatter; templates hold the layout, this file only words.

Placeholders are filled with values that are already escaped for the output at hand, except under ``reasons``:
``formatters.reasons`` fills those with GitHub's text as is, and the templates escape the whole reason.
"""

from __future__ import annotations

from typing import Any

from bot.locales import LOCALES, Locale, normalise_locale

__all__ = ["LOCALES", "STRINGS", "Locale", "normalise_locale", "strings"]

STRINGS: dict[Locale, dict[str, Any]] = {
    "en": {
        "locale": "en",
        "digest_title": "{repo} daily digest",
        "window": "Window",
        "activity": "Last 7 days",
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
        # Punctuation and word order that differ between languages, so templates need no ``if zh``.
        "colon": ": ",
        "counted": "{name} ({n})",
        "item_meta": "{state} {kind} by @{author}",
        "by_prefix": "by ",  # before an escaped "@login" where the template escapes the two together
        "continued_suffix": " (continued)",  # after a title, spacing included: Chinese wants none
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
        # Why an item is listed (``bot.model.Reason``), as ``formatters.reasons`` words it.
        "reasons": {
            "sep": ", ",
            "hot": {"one": "{comments} new comment", "other": "{comments} new comments"},
            "reactions": {"one": "{n} reaction", "other": "{n} reactions"},
            "merged": "merged",
            "merged_for": "merged: {signals}",
            "signals": {
                "tag": "[{value}]",
                "label": "label {value}",
                "bugfix": "bugfix",
                "breaking": "breaking/removal",
                "comments": {"one": "{count} comment", "other": "{count} comments"},
                "reactions": {"one": "{count} reaction", "other": "{count} reactions"},
            },
            "new_bug": "new bug: {bug}",
            "comments": {"one": "{n} comment", "other": "{n} comments"},
            "bugs": {
                "crash": "crash",
                "hang": "hang",
                "wrong_output": "wrong output",
                "regression": "regression",
                "oom": "OOM",
            },
            "evidence": {
                "label": "label {value}",
                "tag": "tag [{value}]",
                "title": "title: {value}",
                "body": "body: {value}",
                "body_sentences": {
                    "one": "body: {value} (1 sentence)", "other": "body: {value} ({sentences} sentences)"
                },
                "body_lead": "body opens with {value}",
            },
            "listed": {
                "opened": "opened",
                "closed": "closed",
                "merged": "merged",
                "closed_unmerged": "closed unmerged",
            },
            "term_sep": "; ",
            "terms": {
                "title": "title: {value}",
                "label": "label {value}",
                "body": "body: {value}",
                "topic": "{topic}: {evidence}",
            },
            "active": {
                "merged": "merged",
                "closed": "closed",
                "opened": "opened",
                "commented": {"one": "{comments} new comment", "other": "{comments} new comments"},
            },
        },
    },
    "zh-CN": {
        "locale": "zh-CN",
        "digest_title": "{repo} 每日开发状态摘要",
        "window": "时间窗口",
        "activity": "近 7 天活跃度",
        "activity_total": "共新增 {n} 项",
        "stats": {
            "new_issues": "新 Issue",
            "closed_issues": "关闭 Issue",
            "new_prs": "新 PR",
            "merged_prs": "合并 PR",
            "closed_unmerged_prs": "关闭未合并 PR",
        },
        "sections": {"hot": "高热度讨论", "key_changes": "重点技术变更", "notable": "值得关注的问题"},
        "highlights": "今日要点",
        "no_highlights": "这段时间没有高热度讨论、重点技术变更或值得关注的问题。",
        "in_thread": "各分区详情和附录见本消息的回复。",
        "part": "{repo} 每日开发状态摘要（{n}/{total}）",
        "continued": "（续）",
        "appendix": "附录",
        "and_more": "……另有 {n} 项",
        "by": "作者",
        "nothing": "无",
        "no_title": "（无标题）",
        "colon": "：",
        "counted": "{name}（{n}）",
        "item_meta": "{state} {kind} · @{author}",
        "by_prefix": "",
        "continued_suffix": "（续）",
        "kind": {"issue": "Issue", "pr": "PR"},
        "state": {"new": "新", "merged": "已合并", "closed": "已关闭", "open": "讨论中"},
        "query_title": "在 {repo} 中搜索“{query}”",
        "query_topic": "主题",
        "query_shown": "共 {total} 项，显示前 {shown} 项",
        "query_count": "共 {n} 项",
        "query_none": "{start} 至 {end}（{tz}），{repo} 中没有与“{query}”匹配的内容。",
        "query_try": "试试",
        "trends": "趋势",
        "trend": "{title} {count} 项（平时的 {ratio} 倍）",
        "trend_new": "{title} {count} 项（此前没有）",
        "trend_plain": "{title} {count} 项",
        "contributors": "{n} 位参与者，{first} 位首次贡献",
        "merge_rate": "合并率 {rate}%",
        "median_merge": "合并用时中位数 {hours} 小时",
        "streak_new": "今日新上榜",
        "streak": "连续 {n} 天热议",
        "question": "核心议题",
        "positions": "不同观点",
        "status": "当前状态",
        "impact": "影响",
        "ai": "AI 生成",
        "groups": {
            "new_issues": "新 Issue",
            "new_prs": "新 PR",
            "merged_prs": "已合并 PR",
            "closed_issues": "已关闭 Issue",
            "closed_prs": "已关闭 PR",
            "active": "有新动态",
        },
        "reasons": {
            "sep": "，",
            "hot": "{comments} 条新评论",
            "reactions": "{n} 个表情回应",
            "merged": "已合并",
            "merged_for": "已合并：{signals}",
            "signals": {
                "tag": "标题标记 [{value}]",
                "label": "标签 {value}",
                "bugfix": "bug 修复",
                "breaking": "不兼容变更或移除",
                "comments": "{count} 条评论",
                "reactions": "{count} 个表情回应",
            },
            "new_bug": "新 bug：{bug}",
            "comments": "{n} 条评论",
            "bugs": {
                "crash": "崩溃",
                "hang": "卡死",
                "wrong_output": "输出错误",
                "regression": "回归",
                "oom": "OOM",
            },
            "evidence": {
                "label": "标签 {value}",
                "tag": "标题标记 [{value}]",
                "title": "标题含“{value}”",
                "body": "正文含“{value}”",
                "body_sentences": "正文有 {sentences} 句提到“{value}”",
                "body_lead": "正文开头提到“{value}”",
            },
            "listed": {"opened": "新增", "closed": "已关闭", "merged": "已合并", "closed_unmerged": "关闭未合并"},
            "term_sep": "；",
            "terms": {
                "title": "标题含“{value}”",
                "label": "标签 {value}",
                "body": "正文含“{value}”",
                "topic": "主题“{name}”：{evidence}",
            },
            "active": {
                "merged": "已合并",
                "closed": "已关闭",
                "opened": "新增",
                "commented": "{comments} 条新评论",
            },
        },
    },
}
assert tuple(STRINGS) == LOCALES, "one strings table per locale of bot.locales"


def strings(locale: str | None) -> dict[str, Any]:
    """The strings of ``locale`` after ``bot.locales.normalise_locale`` (``zh``, ``zh-Hans`` -> ``zh-CN``; the rest
    English)."""
    return STRINGS[normalise_locale(locale)]
