"""GitHub REST payloads -> store records. GitHub text is untrusted and fields go missing.

Tolerant of what GitHub really does (null users, labels, bodies and counts: defaults), strict about what it
never should: a field of the wrong type, a date that does not parse, a number the store cannot hold. Those
raise ``MalformedPayload`` so the sync can report the one item and keep it from being lost, instead of
storing a wrong value or failing the whole page's transaction (PostgreSQL rejects an oversized value).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from datetime import datetime
from typing import Any

from bot.store.records import CommentRecord, ItemRecord, PullDetails
from bot.text import body_prose, one_line_summary
from bot.timeutil import parse_iso

MAX_ITEM_BODY = 20_000
MAX_COMMENT_BODY = 2_000
MAX_PROSE = 8_000
GHOST = "ghost"  # GitHub's name for deleted accounts
# What the store's columns hold (schema.py): Integer (PostgreSQL int4), BigInteger, String(n).
MAX_INT = 2**31 - 1
MAX_BIGINT = 2**63 - 1
MAX_LOGIN, MAX_ASSOCIATION, MAX_STATE_REASON = 100, 40, 20

_ISSUE_URL = re.compile(r"/(?:issues|pull)/(\d{1,10})/?$")
_COMMENT_URL = re.compile(r"/issues/comments/(\d{1,19})/?$")
_COMMENT_ANCHOR = re.compile(r"#issuecomment-(\d{1,19})$")
_COMMENT_ON_ISSUE = re.compile(r"/(?:issues|pull)/(\d{1,10})#issuecomment-\d+$")


# Short comments that say "I have this problem too": others confirming a bug report widen its reach. Read once
# at sync time, like an item's prose; a long comment is a discussion, not a confirmation.
_CONFIRMING = re.compile(
    r"(?<![\w+])\+1(?!\d)|\b(?:same (?:here|issue|problem|error|for me|thing|behaviou?r)|me too|"
    r"also (?:seeing|see this|happens|happening|hit|getting|experiencing|affected)|hit this too|"
    r"seeing (?:this too|the same)|still seeing|can confirm|i can reproduce)\b|同样遇到|同问|也遇到|也复现|同じ問題",
    re.IGNORECASE,
)
CONFIRMATION_MAX_CHARS = 280


def confirms(body: str) -> bool:
    """Whether a comment is a short "+1", "same here", "also seeing this" (in English, Chinese or Japanese)."""
    return len(body) <= CONFIRMATION_MAX_CHARS and _CONFIRMING.search(body) is not None


class MalformedPayload(ValueError):
    """A payload the store cannot take as it is; the message names the field."""


def _object(payload: Any, what: str) -> dict[str, Any]:
    if not isinstance(payload, dict):
        raise MalformedPayload(f"{what} is a {type(payload).__name__}, not an object")
    return payload


def _int(value: Any, field: str, *, high: int = MAX_INT, low: int = 0, default: int | None = 0) -> int:
    if value is None and default is not None:
        return default
    # bool is an int in Python, never in GitHub's JSON; a float would be silently truncated.
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise MalformedPayload(f"{field} is {_show(value)}, not an integer in [{low}, {high}]")
    return value


def _text(value: Any, field: str, limit: int | None = None) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise MalformedPayload(f"{field} is {_show(value)}, not a string")
    if limit is not None and len(value) > limit:
        raise MalformedPayload(f"{field} is {len(value)} characters long, more than {limit}")
    return value.replace("\x00", "")  # PostgreSQL text cannot hold NUL; it would fail the page's transaction


def _time(value: Any, field: str) -> datetime | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise MalformedPayload(f"{field} is {_show(value)}, not a date")
    try:
        return parse_iso(value)
    except (ValueError, OverflowError):
        raise MalformedPayload(f"{field} is {_show(value)}, not a date") from None


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _login(user: Any) -> tuple[str, bool]:
    if not isinstance(user, dict):
        return GHOST, False  # deleted accounts come as null
    login = _text(user.get("login"), "user.login", MAX_LOGIN) or GHOST
    return login, user.get("type") == "Bot"


def _reactions(payload: dict[str, Any]) -> tuple[int, int]:
    reactions = payload.get("reactions")
    if reactions is None:
        return 0, 0
    reactions = _object(reactions, "reactions")
    return _int(reactions.get("total_count"), "reactions.total_count"), _int(reactions.get("+1"), "reactions.+1")


def _labels(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise MalformedPayload(f"labels is {_show(value)}, not a list")
    names = (_text(label.get("name"), "labels[].name") if isinstance(label, dict) else _text(label, "labels[]")
             for label in value)
    return tuple(name for name in names if name)


def _url_keys(payload: dict[str, Any], patterns: tuple[tuple[str, re.Pattern[str]], ...], high: int) -> list[int]:
    found = []
    for field, pattern in patterns:
        value = payload.get(field)
        match = pattern.search(value) if isinstance(value, str) else None
        if match and int(match.group(1)) <= high:
            found.append(int(match.group(1)))
    return found


_ITEM_URLS = (("url", _ISSUE_URL), ("html_url", _ISSUE_URL))
_COMMENT_URLS = (("url", _COMMENT_URL), ("html_url", _COMMENT_ANCHOR))


def _key(payload: Any, field: str, urls: tuple[tuple[str, re.Pattern[str]], ...], high: int) -> int | None:
    """The key most of ``payload[field]`` and its URLs name (one damaged source is outvoted); None on a tie."""
    if not isinstance(payload, dict):
        return None
    named = _url_keys(payload, urls, high)
    value = payload.get(field)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= high:
        named.append(value)
    counts = Counter(named).most_common(2)
    if not counts or (len(counts) == 2 and counts[0][1] == counts[1][1]):
        return None
    return counts[0][0]


def item_key(payload: Any) -> int | None:
    """The issue number of a payload that may not parse: ``number``, else the one in its URLs."""
    return _key(payload, "number", _ITEM_URLS, MAX_INT)


def comment_key(payload: Any) -> int | None:
    """The id of a comment payload that may not parse: ``id``, else the one in its URLs."""
    return _key(payload, "id", _COMMENT_URLS, MAX_BIGINT)


def _check_identity(payload: dict[str, Any], key: int, field: str, urls: tuple[tuple[str, re.Pattern[str]], ...],
                    high: int) -> None:
    # A damaged number that is still a number would store the item under another's key (and lose both).
    others = set(_url_keys(payload, urls, high)) - {key}
    if others:
        raise MalformedPayload(f"{field} {key} disagrees with its URLs ({', '.join(map(str, sorted(others)))})")


def is_pull_marker(pull: dict[str, Any]) -> bool:
    """Whether an item's ``pull_request`` object makes it a pull request: it names the pull request (a non-null
    ``url`` or ``html_url``). api.github.com once listed plain issues with ``"pull_request": {"html_url": null,
    "diff_url": null, "patch_url": null}`` (and ``"url": null``), as recordings of the API (PyGithub's replay
    data) and older GitHub Enterprise Servers show; those are issues, and ``GET /pulls/{n}`` 404s for them."""
    return bool(_text(pull.get("url"), "pull_request.url") or _text(pull.get("html_url"), "pull_request.html_url"))


def item_from_payload(repo: str, payload: Any, is_bot: Callable[[str], bool]) -> ItemRecord:
    payload = _object(payload, "the item")
    number = _int(payload.get("number"), "number", default=None)
    _check_identity(payload, number, "number", _ITEM_URLS, MAX_INT)
    login, bot_type = _login(payload.get("user"))
    pull = payload.get("pull_request")
    if pull is not None and not isinstance(pull, dict):
        raise MalformedPayload(f"pull_request is {_show(pull)}, not an object")
    if pull is not None and not is_pull_marker(pull):
        pull = None  # an issue, as api.github.com and older Enterprise Servers once listed them
    total, thumbs = _reactions(payload)
    created = _time(payload.get("created_at"), "created_at")
    updated = _time(payload.get("updated_at"), "updated_at") or created
    if created is None or updated is None:
        raise MalformedPayload(f"item #{number} has no created_at")
    draft = payload.get("draft")
    if draft is not None and not isinstance(draft, bool):
        raise MalformedPayload(f"draft is {_show(draft)}, not a boolean")
    body = _text(payload.get("body"), "body")[:MAX_ITEM_BODY]
    return ItemRecord(
        repo=repo,
        number=number,
        kind="pr" if pull else "issue",
        title=_text(payload.get("title"), "title"),
        body=body,
        prose=body_prose(body)[:MAX_PROSE],
        summary=one_line_summary(body),
        author=login,
        author_is_bot=bot_type or is_bot(login),
        author_association=_text(payload.get("author_association"), "author_association", MAX_ASSOCIATION),
        labels=_labels(payload.get("labels")),
        state="closed" if _text(payload.get("state"), "state") == "closed" else "open",
        state_reason=_text(payload.get("state_reason"), "state_reason", MAX_STATE_REASON) or None,
        draft=bool(draft),
        created_at=created,
        updated_at=updated,
        closed_at=_time(payload.get("closed_at"), "closed_at"),
        merged_at=_time(pull.get("merged_at"), "pull_request.merged_at") if pull else None,
        comment_count=_int(payload.get("comments"), "comments"),
        reactions=total,
        thumbs_up=thumbs,
        url=_text(payload.get("html_url"), "html_url"),
    )


def comment_from_payload(repo: str, payload: Any, is_bot: Callable[[str], bool]) -> CommentRecord:
    payload = _object(payload, "the comment")
    cid = _int(payload.get("id"), "id", high=MAX_BIGINT, default=None)
    _check_identity(payload, cid, "id", _COMMENT_URLS, MAX_BIGINT)
    issue_url = _text(payload.get("issue_url"), "issue_url")
    match = _ISSUE_URL.search(issue_url)
    if match is None or not 0 <= int(match.group(1)) <= MAX_INT:
        raise MalformedPayload(f"comment {cid}: issue_url {_show(issue_url)} names no issue")
    html_url = payload.get("html_url")
    on_page = _COMMENT_ON_ISSUE.search(html_url) if isinstance(html_url, str) else None
    if on_page and int(on_page.group(1)) != int(match.group(1)):
        raise MalformedPayload(f"comment {cid}: issue_url and html_url name different issues")
    login, bot_type = _login(payload.get("user"))
    created = _time(payload.get("created_at"), "created_at")
    if created is None:
        raise MalformedPayload(f"comment {cid} has no created_at")
    total, _ = _reactions(payload)
    body = _text(payload.get("body"), "body")[:MAX_COMMENT_BODY]
    return CommentRecord(
        repo=repo,
        id=cid,
        number=int(match.group(1)),
        author=login,
        author_is_bot=bot_type or is_bot(login),
        created_at=created,
        updated_at=_time(payload.get("updated_at"), "updated_at") or created,
        body=body,
        reactions=total,
        author_association=_text(payload.get("author_association"), "author_association", MAX_ASSOCIATION),
        confirms=confirms(body),
    )


def pull_details_from_payload(number: int, payload: Any) -> PullDetails:
    """``GET /repos/{o}/{r}/pulls/{n}`` -> the details the store keeps. A missing count is unknown (None), not
    0; a count of the wrong type, or another PR's number, is a ``MalformedPayload``."""
    payload = _object(payload, "the pull request")
    said = payload.get("number")
    if said is not None and said != number:
        raise MalformedPayload(f"pull request #{number} answered as #{_show(said)}")

    def count(field: str) -> int | None:
        value = payload.get(field)
        return None if value is None else _int(value, field)

    return PullDetails(
        number=number,
        updated_at=_time(payload.get("updated_at"), "updated_at"),
        additions=count("additions"),
        deletions=count("deletions"),
        changed_files=count("changed_files"),
        review_comments=count("review_comments"),
        commits=count("commits"),
    )


def item_from_pull(repo: str, payload: Any, is_bot: Callable[[str], bool]) -> tuple[ItemRecord, tuple[str, ...]]:
    """A pull request object (``GET /pulls/{n}``, webhooks' ``pull_request``) -> the item, read by
    ``item_from_payload`` as the issues listing shows it, and the item fields its payload cannot say (a pull
    object has no reactions; a review event's has no comment count): the caller keeps the stored ones."""
    pull = _object(payload, "the pull request")
    merged_at = pull.get("merged_at")
    if merged_at is None and pull.get("merged") is True:
        raise MalformedPayload("merged is true but merged_at is missing")
    marker = {"merged_at": merged_at, "url": pull.get("url"), "html_url": pull.get("html_url")}
    as_issue = {**pull, "pull_request": marker}
    missing: list[str] = []
    if "reactions" not in pull:
        missing += ["reactions", "thumbs_up"]
    if "comments" not in pull:
        missing.append("comment_count")
    return item_from_payload(repo, as_issue, is_bot), tuple(missing)
