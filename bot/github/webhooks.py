"""GitHub webhook deliveries -> the store, through the sync's own payload adapter and idempotent writes.

``verify`` checks ``X-Hub-Signature-256`` (HMAC-SHA256 of the raw body with ``GITHUB_WEBHOOK_SECRET``, compared
in constant time; the web route computes it as it reads the stream). ``WebhookApplier.receive`` takes a verified
delivery: a body that is empty or not a JSON object raises ``UnreadableBody`` before anything is stored (the
route answers 400); any other is recorded raw (by ``X-GitHub-Delivery``: the same delivery twice is stored and
applied once), then applied: ``issues``, ``issue_comment``, ``pull_request`` and ``pull_request_review`` become
the items, comments and PR details a sync would have stored (``bot/github/payloads.py``), written only over older
versions (deliveries arrive late and out of order). ``issues`` ``deleted`` and ``transferred`` mark the issue
removed from its repository and forget it (``removed_items``: no later poll or delivery stores it again); a
transferred issue is stored in its new repository when that one is followed too (from ``changes.new_issue``, or
from the new repository's ``opened`` delivery, whose ``changes.old_issue`` removes the old one). What fails to
apply stays recorded and the worker's ``retry`` applies it later: a delivery is never lost. Events of
repositories the bot does not follow, events and actions it does not keep, and an item object whose URLs name
another repository (it cannot be this one's) are acknowledged and ignored, with the reason recorded.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bot.github.payloads import (
    MalformedPayload,
    comment_from_payload,
    item_from_payload,
    item_from_pull,
    item_key,
    pull_details_from_payload,
)
from bot.store.records import ItemRecord, RemovedItem
from bot.store.webhooks import APPLIED, FAILED, IGNORED, EventRecords, WebhookDelivery, WebhookLog
from bot.timeutil import utcnow
from bot.topics.items import classify
from bot.topics.taxonomy import Taxonomy

_log = logging.getLogger(__name__)

EVENTS = ("issues", "issue_comment", "pull_request", "pull_request_review")
PULL_ACTIONS = frozenset({"opened", "closed", "reopened", "edited", "labeled", "unlabeled", "synchronize",
                          "ready_for_review", "converted_to_draft", "assigned", "unassigned",
                          "review_requested", "review_request_removed", "locked", "unlocked", "milestoned",
                          "demilestoned", "auto_merge_enabled", "auto_merge_disabled"})
# Issue actions after which the issue is gone from the delivery's repository: removed from the store for good.
ISSUE_GONE = frozenset({"deleted", "transferred"})
MAX_DELIVERY_ID = 64
PING = "ping"

# What ``receive`` answered, for the HTTP status and the logs.
DUPLICATE = "duplicate"


class UnreadableBody(ValueError):
    """A signed body that is empty, not UTF-8, not JSON or not a JSON object: nothing to record or apply."""


class Ignored(Exception):
    """Nothing in the event for the store to keep; the message says why."""


@dataclass(frozen=True, slots=True)
class Outcome:
    status: str  # applied | ignored | duplicate | failed | pong
    detail: str = ""


def signature(secret: str, body: bytes) -> str:
    """The ``X-Hub-Signature-256`` value GitHub sends for ``body``."""
    return "sha256=" + hmac.new(secret.encode("utf-8"), body, hashlib.sha256).hexdigest()


def verify(secret: str, body: bytes, header: str | None) -> bool:
    """Whether ``header`` is ``body``'s signature with ``secret``, compared in constant time."""
    if not secret or not header:
        return False
    return hmac.compare_digest(signature(secret, body).encode("ascii"), header.strip().encode("ascii", "replace"))


class WebhookApplier:
    def __init__(
        self,
        log: WebhookLog,
        *,
        followed: Callable[[str], str | None],
        is_bot: Callable[[str], bool] = lambda login: login.endswith("[bot]"),
        taxonomy: Callable[[str], Taxonomy] | None = None,
    ) -> None:
        self.log = log
        self.followed = followed  # GitHub's full_name -> the store's spelling of it, None if not followed
        self.is_bot = is_bot
        self.taxonomy = taxonomy

    def receive(self, delivery_id: str, event: str, body: str | bytes | bytearray, *,
                received_at: datetime | None = None) -> Outcome:
        """A verified delivery: recorded, then applied (blocking; the web process runs it in a thread). Raises
        ``UnreadableBody`` for a body that is empty or not a JSON object (nothing recorded), and anything else
        only when it cannot even be recorded (the store is down): GitHub then sees a failure to redeliver."""
        text, payload = read_body(body)
        if event == PING:
            return Outcome("pong")
        action = payload.get("action")
        action = action if isinstance(action, str) else ""
        repo = self._repo(payload)
        earlier = self.log.record(delivery_id[:MAX_DELIVERY_ID], event, action, repo, text, received_at)
        if earlier is not None and earlier.status in (APPLIED, IGNORED):
            return Outcome(DUPLICATE, earlier.status)
        return self.apply(WebhookDelivery(delivery_id[:MAX_DELIVERY_ID], event, action, repo,
                                          received_at or utcnow(), text, "pending"), payload)

    def apply(self, delivery: WebhookDelivery, payload: Any = None) -> Outcome:
        """Apply one recorded delivery; a failure is recorded (``failed``) for ``retry``."""
        try:
            if payload is None:
                try:
                    payload = json.loads(delivery.body)
                except ValueError:  # recorded by an older digest-bot, which stored what it could not read
                    raise Ignored("the body is not JSON") from None
            if delivery.repo is None:
                why = "not a followed repository" if delivery.event in EVENTS else f"event {delivery.event}"
                raise Ignored(why)
            records = self.records(delivery.event, delivery.repo, payload, received_at=delivery.received_at)
            if records is None:
                raise Ignored(f"{delivery.event} {delivery.action}" if delivery.event in EVENTS
                              else f"event {delivery.event}")
            self.log.apply(delivery.delivery_id, records)
        except Ignored as why:
            try:
                self.log.settle(delivery.delivery_id, IGNORED, str(why))
            except Exception as err:  # the store: retried by the worker, ignored again then
                return self._store_failed(delivery, err)
            return Outcome(IGNORED, str(why))
        except (MalformedPayload, ValueError, KeyError, TypeError) as err:
            # GitHub's payload this once, or a bug: kept, reported, retried (a fix deployed later applies it).
            _log.warning("webhook %s (%s %s on %s) could not be applied: %s", delivery.delivery_id, delivery.event,
                         delivery.action, delivery.repo, err)
            self._fail(delivery, f"{type(err).__name__}: {err}")
            return Outcome(FAILED, str(err))
        except Exception as err:  # the store: retried by the worker
            return self._store_failed(delivery, err)
        return Outcome(APPLIED, f"{delivery.event} {delivery.action}")

    def _store_failed(self, delivery: WebhookDelivery, err: Exception) -> Outcome:
        _log.warning("webhook %s (%s %s on %s) is recorded but could not be applied (the store failed: %s); the "
                     "worker retries it", delivery.delivery_id, delivery.event, delivery.action, delivery.repo, err)
        self._fail(delivery, f"{type(err).__name__}: {err}")
        return Outcome(FAILED, str(err))

    def _fail(self, delivery: WebhookDelivery, error: str) -> None:
        try:
            self.log.settle(delivery.delivery_id, FAILED, error)
        except Exception as err:  # still pending: the worker's retry picks it up all the same
            _log.warning("webhook %s: could not record the failure: %s", delivery.delivery_id, err)

    def retry(self, *, older_than: timedelta = timedelta(seconds=30), limit: int = 500) -> dict[str, int]:
        """The worker's job: apply what is still unapplied (failed, or pending longer than ``older_than``: the
        web process that took it died mid-way). Blocking."""
        done: dict[str, int] = {}
        for delivery in self.log.due(received_before=utcnow() - older_than, limit=limit):
            outcome = self.apply(delivery)
            done[outcome.status] = done.get(outcome.status, 0) + 1
        return done

    def _repo(self, payload: Any) -> str | None:
        return self._followed(payload.get("repository") if isinstance(payload, dict) else None)

    def _followed(self, repository: Any) -> str | None:
        """A repository object's ``full_name`` as the store spells it, when the bot follows it; None otherwise."""
        name = repository.get("full_name") if isinstance(repository, dict) else None
        return self.followed(name) if isinstance(name, str) and name.count("/") == 1 else None

    # --- payload -> records ---

    def records(self, event: str, repo: str, payload: Any, *,
                received_at: datetime | None = None) -> EventRecords | None:
        """What ``event`` changes in ``repo``'s store; None when it changes nothing the bot keeps. Raises
        ``Ignored`` for an item object that is another repository's (its URLs say so)."""
        if not isinstance(payload, dict):
            raise MalformedPayload("the payload is not an object")
        action = payload.get("action")
        if event == "issues":
            if action in ISSUE_GONE:
                return self._removed(repo, payload, str(action), received_at)
            issue = self._with_stored(repo, payload.get("issue"))
            _same_repository(repo, issue, "issue")
            item = self._item(item_from_payload(repo, issue, self.is_bot))
            removed = self._moved_here(repo, item.number, payload, received_at) if action == "opened" else []
            return EventRecords(items=[item], partial={(repo, item.number): _absent(issue)}, removed=removed)
        if event == "issue_comment":
            issue = self._with_stored(repo, payload.get("issue"))
            _same_repository(repo, issue, "issue")
            item = self._item(item_from_payload(repo, issue, self.is_bot))
            comment = comment_from_payload(repo, payload.get("comment"), self.is_bot)
            if comment.number != item.number:
                raise MalformedPayload(f"comment {comment.id} names issue #{comment.number}, not #{item.number}")
            unchanged = [(repo, item.number)] if item.is_pr else []  # a comment changes no PR's size
            partial = {(repo, item.number): _absent(issue)}
            if action == "deleted":
                return EventRecords(items=[item], deleted_comments=[(repo, comment.id)], details_unchanged=unchanged,
                                    partial=partial)
            return EventRecords(items=[item], comments=[comment], details_unchanged=unchanged, partial=partial)
        if event in ("pull_request", "pull_request_review"):
            if event == "pull_request" and action not in PULL_ACTIONS:
                return None
            pull = self._with_stored(repo, payload.get("pull_request"))
            _same_repository(repo, pull, "pull_request")
            item, missing = item_from_pull(repo, pull, self.is_bot)
            missing = (*missing, *_unsaid(pull, pull=True))
            item = self._item(item)
            details = []
            if isinstance(pull, dict) and all(field in pull for field in ("additions", "deletions", "changed_files")):
                details.append((repo, pull_details_from_payload(item.number, pull), item.updated_at))
            return EventRecords(items=[item], details=details, partial={(repo, item.number): missing})
        return None

    def _removed(self, repo: str, payload: dict[str, Any], action: str,
                 received_at: datetime | None) -> EventRecords:
        """``issues`` ``deleted`` / ``transferred``: the issue leaves ``repo`` for good. Only its number is read
        (agreed by ``number`` and its URLs); a transferred issue whose new repository is followed too is stored
        there, from ``changes.new_issue``."""
        number = item_key(payload.get("issue"))
        if number is None:
            raise MalformedPayload(f"the {action} issue's number cannot be read")
        moved_to, items, partial = None, [], {}
        changes = payload.get("changes") if action == "transferred" else None
        if isinstance(changes, dict):
            new_repository, new_issue = changes.get("new_repository"), changes.get("new_issue")
            name = new_repository.get("full_name") if isinstance(new_repository, dict) else None
            new_number = item_key(new_issue)
            if isinstance(name, str) and name.count("/") == 1 and new_number is not None:
                moved_to = f"{name}#{new_number}"
            target = self._followed(new_repository)
            if target is not None and _elsewhere(target, new_issue) is None:  # else: the removal alone
                new_issue = self._with_stored(target, new_issue)
                item = self._item(item_from_payload(target, new_issue, self.is_bot))
                items, partial = [item], {(target, item.number): _absent(new_issue)}
        return EventRecords(items=items, partial=partial,
                            removed=[RemovedItem(repo, number, action, moved_to, received_at)])

    def _moved_here(self, repo: str, number: int, payload: dict[str, Any],
                    received_at: datetime | None) -> list[RemovedItem]:
        """An ``opened`` issue that was transferred here (``changes.old_issue``, ``changes.old_repository``): the
        old one leaves its repository when that one is followed (its own ``transferred`` delivery may never come:
        the hook may be on this repository only)."""
        changes = payload.get("changes")
        if not isinstance(changes, dict):
            return []
        old_repo = self._followed(changes.get("old_repository"))
        old_number = item_key(changes.get("old_issue"))
        if old_repo is None or old_number is None:
            return []
        name = payload["repository"]["full_name"]
        return [RemovedItem(old_repo, old_number, "transferred", f"{name}#{number}", received_at)]

    def _with_stored(self, repo: str, obj: Any) -> Any:
        """An item object without ``labels`` or ``state``, completed with the stored item's, so what is read from
        it (its topics follow its labels) is the item as it stands; a new item gets no labels, and ``closed``
        only with a ``closed_at``. (``_unsaid`` keeps the stored values in the write itself.)"""
        if not isinstance(obj, dict) or ("labels" in obj and "state" in obj):
            return obj
        number = item_key(obj)
        known = self.log.item(repo, number) if number is not None else None
        filled = dict(obj)
        if "labels" not in obj:
            filled["labels"] = [{"name": name} for name in known.labels] if known else []
        if "state" not in obj:
            filled["state"] = known.state if known else ("closed" if obj.get("closed_at") else "open")
            filled["state_reason"] = known.state_reason if known else None
        return filled

    def _item(self, item: ItemRecord) -> ItemRecord:
        return classify(self.taxonomy(item.repo), item) if self.taxonomy is not None else item


def read_body(body: str | bytes | bytearray) -> tuple[str, dict[str, Any]]:
    """A delivery's text and its JSON object; ``UnreadableBody`` when it is empty, not UTF-8, not JSON or not an
    object (such a body never becomes anything: it is not stored)."""
    if not isinstance(body, str):
        try:
            body = body.decode("utf-8")
        except UnicodeDecodeError:
            raise UnreadableBody("the body is not UTF-8") from None
    if not body.strip():
        raise UnreadableBody("the body is empty")
    try:
        payload = json.loads(body)
    except ValueError:
        raise UnreadableBody("the body is not valid JSON") from None
    except RecursionError:  # nested deeper than the parser goes
        raise UnreadableBody("the body is nested too deeply") from None
    if not isinstance(payload, dict):
        raise UnreadableBody("the body is not a JSON object")
    return body, payload


# An item's URLs: the API's (…/repos/{owner}/{name}/issues|pulls/{n}), the page's (…/{owner}/{name}/issues|pull/{n}).
_API_URL = re.compile(r"/repos/([^/]+/[^/]+)/(?:issues|pulls)/\d+/?$")
_PAGE_URL = re.compile(r"^https?://[^/]+/([^/]+/[^/]+)/(?:issues|pull)/\d+/?$")


def _same_repository(repo: str, item: Any, what: str) -> None:
    """``Ignored`` when the item object's own URLs name another repository than the delivery's: whatever its
    ``number`` says, it is not this repository's item (GitHub's documented ``pull_request_review`` ``dismissed``
    example names pull request 2 of Codertocat/Hello-World with hellomouse/GNS#902's URLs). The reconciling poll
    reads the real item."""
    other = _elsewhere(repo, item)
    if other is not None:
        raise Ignored(f"the {what} object's URLs name {other}, not {repo}")


def _elsewhere(repo: str, item: Any) -> str | None:
    """The repositories an item object's ``url`` and ``html_url`` name, when neither is ``repo``; None when they
    name it, or nothing."""
    if not isinstance(item, dict):
        return None
    named: dict[str, str] = {}  # lowercased -> as written
    for field, pattern in (("url", _API_URL), ("html_url", _PAGE_URL)):
        value = item.get(field)
        match = pattern.search(value) if isinstance(value, str) else None
        if match:
            named.setdefault(match.group(1).lower(), match.group(1))
    if not named or repo.lower() in named:
        return None
    return ", ".join(sorted(named.values()))


def _absent(issue: Any) -> tuple[str, ...]:
    """Item fields an issue object in a webhook does not say (so the stored values stay): reactions, the
    comment count, a PR's ``merged_at`` (a merged PR commented on must stay merged), and ``_unsaid``'s."""
    if not isinstance(issue, dict):
        return ()
    missing: list[str] = []
    if "reactions" not in issue:
        missing += ["reactions", "thumbs_up"]
    if "comments" not in issue:
        missing.append("comment_count")
    pull = issue.get("pull_request")
    if isinstance(pull, dict) and "merged_at" not in pull:
        missing.append("merged_at")
    return (*missing, *_unsaid(issue, pull=isinstance(pull, dict)))


def _unsaid(item: dict[str, Any], *, pull: bool) -> tuple[str, ...]:
    """The labels, state (with its reason) and a PR's draft flag, when an item object leaves them out (GitHub's
    ``issues`` ``pinned`` and ``unpinned`` examples carry neither labels nor state): the stored values stay,
    instead of no labels, open and ready for review."""
    missing: list[str] = []
    if "labels" not in item:
        missing.append("labels")
    if "state" not in item:
        missing += ["state", "state_reason"]
    if pull and "draft" not in item:
        missing.append("draft")
    return tuple(missing)
