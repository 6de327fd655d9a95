"""Payload parsing: tolerant of what GitHub really sends, strict about what would store a wrong value."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from bot.github.payloads import (
    MalformedPayload,
    comment_from_payload,
    comment_key,
    item_from_payload,
    item_key,
)
from tests.factories import COMMENT_FIELDS, DAMAGES, ISSUE_FIELDS, comment_payload, damaged, issue_payload

T0 = datetime(2025, 11, 20, tzinfo=UTC)


def never_bot(login: str) -> bool:
    return False


def test_what_github_really_sends_is_tolerated() -> None:
    payload = issue_payload(5, T0, pr=True)
    payload.update(user=None, labels=None, body=None, reactions=None, comments=None, title="a\x00b")
    item = item_from_payload("o/r", payload, never_bot)
    assert (item.author, item.labels, item.body, item.reactions, item.comment_count) == ("ghost", (), "", 0, 0)
    assert item.title == "ab" and item.kind == "pr"  # NUL would fail a PostgreSQL transaction


@pytest.mark.parametrize(("marker", "kind"), [
    # How api.github.com listed plain issues in PyGithub's replay recordings (tests/ReplayData, 2012-2014), and
    # how older GitHub Enterprise Servers still do: an object that names no pull request.
    ({"html_url": None, "diff_url": None, "patch_url": None}, "issue"),
    ({"url": None, "html_url": None, "diff_url": None, "patch_url": None}, "issue"),
    ({}, "issue"),
    ({"html_url": "", "url": ""}, "issue"),
    # The same recordings' pull requests: no "url" yet, only the web links.
    ({"diff_url": "https://github.com/o/r/pull/5.diff", "patch_url": "https://github.com/o/r/pull/5.patch",
      "html_url": "https://github.com/o/r/pull/5"}, "pr"),
    ({"url": "https://api.github.com/repos/o/r/pulls/5", "html_url": None}, "pr"),
])
def test_only_a_pull_request_marker_that_names_one_makes_a_pr(marker: dict[str, Any], kind: str) -> None:
    payload = issue_payload(5, T0)
    payload["pull_request"] = {**marker, "merged_at": None} if kind == "pr" else marker
    assert item_from_payload("o/r", payload, never_bot).kind == kind


def test_a_legacy_issue_marker_never_reads_a_merge() -> None:
    payload = issue_payload(5, T0, closed=T0)
    payload["pull_request"] = {"html_url": None, "diff_url": None, "patch_url": None,
                               "merged_at": "2025-11-20T00:00:00Z"}
    item = item_from_payload("o/r", payload, never_bot)
    assert (item.kind, item.merged_at) == ("issue", None)


@pytest.mark.parametrize(("field", "value"), [
    ("number", "5"), ("number", 2**40), ("number", 3), ("number", True), ("created_at", "yesterday"),
    ("created_at", None), ("updated_at", 20251120), ("labels", "bug"), ("labels", [{"name": 7}]),
    ("comments", 10**30), ("comments", -1), ("comments", 2.5), ("reactions", {"total_count": "many"}),
    ("state_reason", "x" * 500), ("title", ["a"]), ("pull_request", "yes"), ("pull_request", {"url": 5}),
    ("draft", "no"),
    ("user", {"login": "x" * 500}), ("closed_at", "2025-13-45T00:00:00Z"),
])
def test_a_wrong_type_bad_date_or_huge_value_is_malformed(field: str, value: Any) -> None:
    payload = issue_payload(5, T0)
    payload[field] = value
    with pytest.raises(MalformedPayload):
        item_from_payload("o/r", payload, never_bot)
    assert item_key(payload) == 5  # its number still reads (from its URLs when the number is the damage)


@pytest.mark.parametrize(("field", "value"), [
    ("id", None), ("id", 2**70), ("id", 12), ("issue_url", "https://api.github.com/repos/o/r/issues/x"),
    ("issue_url", "https://api.github.com/repos/o/r/issues/9"), ("created_at", "2025-02-30T00:00:00Z"),
    ("body", {"text": "hi"}),
])
def test_a_malformed_comment(field: str, value: Any) -> None:
    payload = comment_payload(77, 3, T0)
    payload[field] = value
    with pytest.raises(MalformedPayload):
        comment_from_payload("o/r", payload, never_bot)
    assert comment_key(payload) == 77


def test_keys_that_cannot_be_trusted_are_none() -> None:
    assert item_key("not an object") is None and comment_key(None) is None
    issue = issue_payload(5, T0)
    del issue["number"], issue["url"], issue["html_url"]
    assert item_key(issue) is None
    disagreeing = issue_payload(5, T0)
    del disagreeing["url"]
    disagreeing["html_url"] = "https://github.com/o/r/issues/6"
    assert item_key(disagreeing) is None  # one against one: which is the damage cannot be told
    comment = comment_payload(77, 3, T0)
    comment["id"] = "77"
    comment["url"] = "https://api.github.com/repos/o/r/issues/comments/7"
    assert comment_key(comment) is None
    with pytest.raises(MalformedPayload):
        item_from_payload("o/r", [issue_payload(5, T0)], never_bot)


@pytest.mark.parametrize("field", ISSUE_FIELDS)
def test_one_damaged_issue_field_never_reads_as_another_item(field: str) -> None:
    for value in DAMAGES:
        payload = damaged(issue_payload(7, T0, pr=True, closed=T0), field, value)
        try:
            record = item_from_payload("o/r", payload, never_bot)
        except MalformedPayload:
            assert item_key(payload) in (7, None), (field, value)  # re-fetched by its own key, or held for
            continue
        assert record.number == 7, (field, value)


@pytest.mark.parametrize("field", COMMENT_FIELDS)
def test_one_damaged_comment_field_never_reads_as_another_comment(field: str) -> None:
    for value in DAMAGES:
        payload = damaged(comment_payload(77, 7, T0), field, value)
        try:
            record = comment_from_payload("o/r", payload, never_bot)
        except MalformedPayload:
            assert comment_key(payload) in (77, None), (field, value)
            continue
        assert (record.id, record.number) == (77, 7), (field, value)
