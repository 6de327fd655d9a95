"""GitHub REST payloads -> store records. Tolerant: GitHub text is untrusted and fields go missing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.store.records import CommentRecord, ItemRecord
from bot.text import body_prose, one_line_summary
from bot.timeutil import parse_github_time

MAX_ITEM_BODY = 20_000
MAX_COMMENT_BODY = 2_000
MAX_PROSE = 8_000
GHOST = "ghost"  # GitHub's name for deleted accounts


def _login(user: Any) -> tuple[str, bool]:
    if not isinstance(user, dict):
        return GHOST, False
    login = str(user.get("login") or GHOST)
    return login, user.get("type") == "Bot"


def _reactions(payload: dict[str, Any]) -> tuple[int, int]:
    reactions = payload.get("reactions") or {}
    return int(reactions.get("total_count") or 0), int(reactions.get("+1") or 0)


def item_from_payload(repo: str, payload: dict[str, Any], is_bot: Callable[[str], bool]) -> ItemRecord:
    login, bot_type = _login(payload.get("user"))
    pull = payload.get("pull_request")
    total, thumbs = _reactions(payload)
    labels = tuple(
        str(label.get("name", "")) if isinstance(label, dict) else str(label)
        for label in payload.get("labels") or ()
    )
    created = parse_github_time(payload.get("created_at"))
    updated = parse_github_time(payload.get("updated_at")) or created
    if created is None or updated is None:
        raise ValueError(f"item #{payload.get('number')} has no created_at")
    body = str(payload.get("body") or "")[:MAX_ITEM_BODY]
    return ItemRecord(
        repo=repo,
        number=int(payload["number"]),
        kind="pr" if pull else "issue",
        title=str(payload.get("title") or ""),
        body=body,
        prose=body_prose(body)[:MAX_PROSE],
        summary=one_line_summary(body),
        author=login,
        author_is_bot=bot_type or is_bot(login),
        author_association=str(payload.get("author_association") or ""),
        labels=tuple(label for label in labels if label),
        state="closed" if payload.get("state") == "closed" else "open",
        state_reason=payload.get("state_reason"),
        draft=bool(payload.get("draft")),
        created_at=created,
        updated_at=updated,
        closed_at=parse_github_time(payload.get("closed_at")),
        merged_at=parse_github_time(pull.get("merged_at")) if isinstance(pull, dict) else None,
        comment_count=int(payload.get("comments") or 0),
        reactions=total,
        thumbs_up=thumbs,
        url=str(payload.get("html_url") or ""),
    )


def comment_from_payload(repo: str, payload: dict[str, Any], is_bot: Callable[[str], bool]) -> CommentRecord:
    login, bot_type = _login(payload.get("user"))
    number = int(str(payload.get("issue_url", "")).rstrip("/").rsplit("/", 1)[-1])
    created = parse_github_time(payload.get("created_at"))
    if created is None:
        raise ValueError(f"comment {payload.get('id')} has no created_at")
    total, _ = _reactions(payload)
    return CommentRecord(
        repo=repo,
        id=int(payload["id"]),
        number=number,
        author=login,
        author_is_bot=bot_type or is_bot(login),
        created_at=created,
        updated_at=parse_github_time(payload.get("updated_at")) or created,
        body=str(payload.get("body") or "")[:MAX_COMMENT_BODY],
        reactions=total,
    )
