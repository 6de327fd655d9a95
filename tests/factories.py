"""Raw GitHub REST payloads for tests, shaped like the API's own (the sync parses these)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from bot.store.records import ItemRecord
from bot.store.store import Store
from bot.timeutil import iso_z

API = "https://api.github.com"


def issue_payload(
    number: int,
    created: datetime,
    *,
    repo: str = "o/r",
    title: str | None = None,
    updated: datetime | None = None,
    closed: datetime | None = None,
    merged: datetime | None = None,
    pr: bool = False,
    labels: tuple[str, ...] = (),
    user: str = "alice",
    bot: bool = False,
    body: str | None = "",
    comments: int = 0,
    reactions: int = 0,
    draft: bool = False,
    association: str = "CONTRIBUTOR",
) -> dict:
    times = [t for t in (created, updated, closed, merged) if t is not None]
    payload = {
        "url": f"{API}/repos/{repo}/issues/{number}",
        "html_url": f"https://github.com/{repo}/{'pull' if pr else 'issues'}/{number}",
        "id": 1000 + number,
        "number": number,
        "title": title if title is not None else f"Item {number}",
        "user": {"login": user, "id": 7, "type": "Bot" if bot else "User"},
        "labels": [{"name": name} for name in labels],
        "state": "closed" if closed or merged else "open",
        "state_reason": "completed" if closed and not pr else None,
        "comments": comments,
        "created_at": iso_z(created),
        "updated_at": iso_z(max(times)),
        "closed_at": iso_z(closed or merged) if (closed or merged) else None,
        "author_association": association,
        "body": body,
        "reactions": {"total_count": reactions, "+1": reactions},
    }
    if pr:
        payload["draft"] = draft
        payload["pull_request"] = {
            "url": f"{API}/repos/{repo}/pulls/{number}",
            "html_url": f"https://github.com/{repo}/pull/{number}",
            "merged_at": iso_z(merged) if merged else None,
        }
    return payload


def comment_payload(
    comment_id: int, number: int, created: datetime, *, repo: str = "o/r", user: str = "bob", bot: bool = False,
    body: str = "Looks good", updated: datetime | None = None, association: str = "MEMBER", reactions: int = 0,
) -> dict:
    return {
        "id": comment_id,
        "url": f"{API}/repos/{repo}/issues/comments/{comment_id}",
        "html_url": f"https://github.com/{repo}/issues/{number}#issuecomment-{comment_id}",
        "issue_url": f"{API}/repos/{repo}/issues/{number}",
        "user": {"login": user, "id": 8, "type": "Bot" if bot else "User"},
        "created_at": iso_z(created),
        "updated_at": iso_z(updated or created),
        "author_association": association,
        "body": body,
        "reactions": {"total_count": reactions},
    }


# One field of one payload damaged: the values GitHub's JSON could carry by mistake (wrong types, bad dates,
# numbers the store cannot hold, another item's number, huge text, NUL), or the whole item something else.
DAMAGES: list[Any] = [
    "<delete>", None, "", "garbage", "2025-13-45T99:00:00Z", 0, 3, -1, 2**31, 10**30, 2.5, True, [], {},
    {"login": 5}, "x" * 5000, "\x00",
]
ISSUE_FIELDS = ["number", "url", "html_url", "title", "user", "labels", "state", "state_reason", "comments",
                "created_at", "updated_at", "closed_at", "author_association", "body", "reactions",
                "pull_request", "draft", "<whole>"]
COMMENT_FIELDS = ["id", "url", "html_url", "issue_url", "user", "created_at", "updated_at", "body", "reactions",
                  "author_association", "<whole>"]


def damaged(payload: dict[str, Any], field: str, value: Any) -> Any:
    """``payload`` with ``field`` set to ``value`` (``"<delete>"``: removed; field ``"<whole>"``: just ``value``)."""
    if field == "<whole>":
        return value
    out = dict(payload)
    if value == "<delete>":
        out.pop(field, None)
    else:
        out[field] = value
    return out


def fill_rocm_prs(store: Store, now: datetime, repo: str = "o/r") -> Store:
    """Five [ROCm] PRs opened in the hours before ``now`` and both listings complete: a small synced store."""
    from bot.github.payloads import item_from_payload

    items = [issue_payload(n, now - timedelta(hours=n), title=f"[ROCm] fix {n}", pr=True) for n in range(1, 6)]
    store.save_page([item_from_payload(repo, p, lambda login: False) for p in items])
    for listing in ("issues", "comments"):
        store.complete_listing(repo, listing, now, [], synced_from=now - timedelta(days=30))
    return store


def item_record(number: int, created: datetime, **payload: Any) -> ItemRecord:
    """A stored item as the sync makes it from ``issue_payload(number, created, **payload)`` (prose included)."""
    from bot.github.payloads import item_from_payload

    return item_from_payload(payload.get("repo", "o/r"), issue_payload(number, created, **payload), lambda _: False)


def slot_before(moment: datetime) -> str:
    """A daily DM time (HH:MM, UTC) just before ``moment``: the window of that slot's next post holds everything
    from ``moment`` on, whatever the time of day the test runs at (a fixed "09:00" lost items made a few hours
    before the test whenever it ran between 09:00 and noon UTC)."""
    return (moment - timedelta(minutes=1)).strftime("%H:%M")
