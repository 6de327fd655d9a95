"""Per-locale strings for every formatter; templates hold the layout, this file only words."""

from __future__ import annotations

from typing import Any

STRINGS: dict[str, dict[str, Any]] = {
    "en": {
        "digest_title": "{repo} daily digest",
        "window": "Window",
        "stats": {
            "new_issues": "New issues",
            "closed_issues": "Closed issues",
            "new_prs": "New PRs",
            "merged_prs": "Merged PRs",
            "closed_unmerged_prs": "Closed unmerged PRs",
        },
        "appendix": "Appendix",
        "and_more": "…and {n} more",
        "by": "by",
        "nothing": "Nothing in this window.",
        "kind": {"issue": "issue", "pr": "PR"},
        "state": {"new": "new", "merged": "merged", "closed": "closed", "open": "open"},
    },
    "zh-CN": {
        "digest_title": "{repo} 每日开发状态摘要",
        "window": "时间窗口",
        "stats": {
            "new_issues": "新建 Issue",
            "closed_issues": "关闭 Issue",
            "new_prs": "新建 PR",
            "merged_prs": "合并 PR",
            "closed_unmerged_prs": "未合并关闭 PR",
        },
        "appendix": "附录",
        "and_more": "……另有 {n} 项",
        "by": "作者",
        "nothing": "此时间窗口内没有内容。",
        "kind": {"issue": "Issue", "pr": "PR"},
        "state": {"new": "新建", "merged": "已合并", "closed": "已关闭", "open": "进行中"},
    },
}


def strings(locale: str) -> dict[str, Any]:
    return STRINGS.get(locale, STRINGS["en"])
