"""GitHub webhooks: signed deliveries posted over HTTP to the real aiohttp application on 127.0.0.1, applied to
the store through the sync's payload adapter (SQLite and PostgreSQL); refused, deduplicated, ignored, retried;
and what they do to a digest's counts and to the freshness of a window."""

from __future__ import annotations

import json
import logging
import shutil
import uuid
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import func, select
from sqlalchemy.exc import OperationalError

from bot.app.service import DigestService
from bot.app.webhooks import build_applier
from bot.errors import UserError
from bot.github.payloads import comment_from_payload, item_from_payload
from bot.github.webhooks import WebhookApplier, signature
from bot.model import Window
from bot.platforms.github_webhooks import MAX_BODY, PATH, webhook_routes
from bot.platforms.registry import github, slack
from bot.platforms.web import store_health, web_app
from bot.settings import Settings, load_settings
from bot.store import schema
from bot.store.store import WEBHOOK_POLL_MARGIN, Store
from bot.store.webhooks import APPLIED, FAILED, WebhookLog
from bot.timeutil import utcnow
from tests.factories import comment_payload, issue_payload
from tests.test_scheduler import ROOT, make_settings, set_last_sync

SECRET = "webhook-secret-for-tests"
REPO = "o/r"
EXAMPLES = Path(__file__).resolve().parent / "data" / "github-webhooks"  # octokit/webhooks' (MIT, README there)
HELLO = "Codertocat/Hello-World"  # the repository of most examples
OCTO = "octo-org/octo-repo"  # the one issues/transferred.payload.json moves an issue out of


def example(name: str) -> bytes:
    """A real delivery body, byte for byte."""
    return (EXAMPLES / name).read_bytes()


def follow(config_dir: Path, *repos: str) -> Settings:
    """Settings that follow ``repos`` (UTC days)."""
    shutil.copy(ROOT / "config" / "topics.toml", config_dir)
    listed = "".join(f'[[repos]]\nname = "{name}"\n\n' for name in repos)
    (config_dir / "digest.toml").write_text(f'[digest]\ntimezone = "UTC"\npost_time = "09:00"\n\n{listed}')
    return load_settings(config_dir, env={})


def pull_payload(number: int, created: datetime, **fields: Any) -> dict[str, Any]:
    """A pull request object as webhooks (and ``GET /pulls/{n}``) send it: no ``pull_request`` key, no
    reactions, ``merged``/``merged_at`` and the size counts."""
    merged = fields.pop("merged", None)
    issue = issue_payload(number, created, pr=True, merged=merged, **fields)
    pull = {key: value for key, value in issue.items() if key not in ("pull_request", "reactions")}
    pull.update(url=f"https://api.github.com/repos/{REPO}/pulls/{number}", merged=merged is not None,
                merged_at=issue["pull_request"]["merged_at"], additions=120, deletions=30, changed_files=4,
                review_comments=2, commits=3)
    return pull


def event_body(action: str, *, repo: str = REPO, **objects: Any) -> dict[str, Any]:
    return {"action": action, "repository": {"full_name": repo, "private": False}, "sender": {"login": "x"},
            **objects}


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path)


@asynccontextmanager
async def webhook_server(store: Store, settings: Settings) -> AsyncIterator[TestClient[Any, Any]]:
    """The web process's application (middleware included) with the webhook route, on a free 127.0.0.1 port."""
    service = DigestService(store, settings, build_threads=1)
    app = web_app(webhook_routes(build_applier(service), SECRET), store_health(store))
    async with TestClient(TestServer(app, host="127.0.0.1", port=0)) as client:
        yield client
    service.close()


async def post(client: TestClient[Any, Any], event: str, body: dict[str, Any] | bytes, *,
               delivery: str | None = None, secret: str | None = SECRET, form: bool = False) -> tuple[int, Any]:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    content_type = "application/json"
    if form:
        raw, content_type = urlencode({"payload": raw.decode()}).encode(), "application/x-www-form-urlencoded"
    headers = {"X-GitHub-Event": event, "X-GitHub-Delivery": delivery or str(uuid.uuid4()),
               "Content-Type": content_type, "User-Agent": "GitHub-Hookshot/test"}
    if secret is not None:
        headers["X-Hub-Signature-256"] = signature(secret, raw)
    response = await client.post(PATH, data=raw, headers=headers)
    return response.status, await response.json()


def count(store: Store, table: Any) -> int:
    with store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())


def polled(store: Store, at: datetime, repo: str = REPO) -> None:
    for resource in ("issues", "comments"):
        store.complete_listing(repo, resource, at, [], synced_from=at - timedelta(days=30))


# --- signatures ---


async def test_a_wrong_or_missing_signature_is_refused_and_nothing_is_stored(store: Store, settings: Settings) -> None:
    body = event_body("opened", issue=issue_payload(1, utcnow()))
    async with webhook_server(store, settings) as client:
        assert (await post(client, "issues", body, secret="not-the-secret"))[0] == 401
        assert (await post(client, "issues", body, secret=None))[0] == 401
        # Signed, then changed on the way: the signature no longer matches.
        raw = json.dumps(body).encode()
        tampered = raw.replace(b'"Item 1"', b'"Item 2"')
        response = await client.post(PATH, data=tampered, headers={
            "X-GitHub-Event": "issues", "X-GitHub-Delivery": "d-1", "Content-Type": "application/json",
            "X-Hub-Signature-256": signature(SECRET, raw)})
        assert response.status == 401
    assert count(store, schema.webhook_deliveries) == 0
    assert store.item(REPO, 1) is None


# --- the order of checks: signature (401), size (413), JSON (400) ---


def nothing_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if anything reads the body as JSON: the route's own reading, or the web app's middleware."""
    import bot.github.webhooks
    import bot.platforms.web

    def parsed(*args: object) -> None:
        raise AssertionError("an unsigned body was parsed")

    monkeypatch.setattr(bot.github.webhooks, "read_body", parsed)
    monkeypatch.setattr(bot.platforms.web, "_malformed", parsed)


async def test_unsigned_garbage_is_refused_before_anything_is_parsed_or_stored(
        store: Store, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    nothing_parsed(monkeypatch)
    async with webhook_server(store, settings) as client:
        # Garbage that is not JSON, and 2 MiB of it (over aiohttp's 1 MiB default): unsigned, or signed wrongly.
        for body in (b"{not json", b"", b"x" * (2 * 1024 * 1024)):
            assert await post(client, "issues", body, secret=None) == (401, {"error": "bad signature"})
            assert (await post(client, "issues", body, secret="not-the-secret"))[0] == 401
        headers = {"X-GitHub-Event": "issues", "X-GitHub-Delivery": "d-1", "X-Hub-Signature-256": "sha256=zz"}
        assert (await client.post(PATH, data=b"{not json", headers=headers)).status == 401
    assert count(store, schema.webhook_deliveries) == 0


async def test_a_signed_two_mib_delivery_is_accepted_and_applied(store: Store, settings: Settings) -> None:
    body = "A long log.\n" + "x" * (2 * 1024 * 1024)
    raw = json.dumps(event_body("opened", issue=issue_payload(40, utcnow().replace(microsecond=0), body=body,
                                                               labels=("bug",)))).encode()
    assert len(raw) > 2 * 1024 * 1024
    async with webhook_server(store, settings) as client:
        assert await post(client, "issues", raw, delivery="d-big") == (200, {"status": "applied"})
    item = store.item(REPO, 40)
    assert item is not None and item.title == "Item 40" and item.labels == ("bug",)
    assert item.body == body[:20_000]  # the store keeps what it always keeps of a body
    stored = WebhookLog(store).get("d-big")
    assert stored is not None and stored.status == APPLIED and len(stored.body) == len(raw)  # recorded whole


async def test_signed_bodies_that_are_empty_or_not_json_get_a_400_and_nothing_is_stored(
        store: Store, settings: Settings) -> None:
    async with webhook_server(store, settings) as client:
        for body, error in ((b"", "the body is empty"), (b"  \n", "the body is empty"),
                            (b"{not json", "the body is not valid JSON"), (b"[1, 2]", "the body is not a JSON object"),
                            (b'{"action": "opened", "x": "\xff"}', "the body is not UTF-8")):
            assert await post(client, "issues", body) == (400, {"error": error}), body
        # The form-encoded flavour of the same: a signed form without a JSON payload.
        assert (await post(client, "issues", b"", form=True))[0] == 400
    assert count(store, schema.webhook_deliveries) == 0


async def test_a_body_over_githubs_25_mb_gets_a_413_and_up_to_it_is_read(store: Store, settings: Settings) -> None:
    def signed(raw: bytes) -> dict[str, str]:
        return {"X-GitHub-Event": "issues", "X-GitHub-Delivery": str(uuid.uuid4()),
                "Content-Type": "application/json", "X-Hub-Signature-256": signature(SECRET, raw)}

    start = json.dumps(event_body("opened", issue=issue_payload(41, utcnow().replace(microsecond=0))))[:-1]
    padding = MAX_BODY - len(start) - len(', "padding": ""}')
    exactly = f'{start}, "padding": "{"x" * padding}"}}'.encode()
    assert len(exactly) == MAX_BODY == 25 * 1024 * 1024

    async def chunks(raw: bytes) -> AsyncIterator[bytes]:  # no Content-Length: the stream's own length counts
        for at in range(0, len(raw), 1024 * 1024):
            yield raw[at : at + 1024 * 1024]

    async with webhook_server(store, settings) as client:
        over = exactly + b" "
        assert (await client.post(PATH, data=over, headers=signed(over))).status == 413  # by its Content-Length
        assert (await client.post(PATH, data=chunks(over), headers=signed(over))).status == 413  # as it streams
        response = await client.post(PATH, data=exactly, headers=signed(exactly))
        assert (response.status, await response.json()) == (200, {"status": "applied"})
    assert store.item(REPO, 41) is not None and count(store, schema.webhook_deliveries) == 1


async def test_the_route_exists_only_with_a_secret(store: Store, settings: Settings) -> None:
    service = DigestService(store, settings, build_threads=1)
    async with AsyncExitStack() as stack:
        assert await github(service, {}, stack, "serve") is None
        assert await github(service, {"GITHUB_WEBHOOK_SECRET": SECRET}, stack, "worker") is None
        connection = await github(service, {"GITHUB_WEBHOOK_SECRET": SECRET}, stack, "serve")
        assert connection is not None and [route.path for route in connection.routes] == [PATH]  # type: ignore[attr-defined]
        # A web process for webhooks alone (Discord-only deployments); without either, Slack's error as before.
        assert await slack(service, {"GITHUB_WEBHOOK_SECRET": SECRET}, stack, "serve") is None
        with pytest.raises(UserError, match="SLACK_BOT_TOKEN"):
            await slack(service, {}, stack, "serve")
    service.close()


# --- applying events ---


async def test_the_same_delivery_twice_is_stored_and_applied_once(store: Store, settings: Settings) -> None:
    now = utcnow().replace(microsecond=0)
    body = event_body("created", issue=issue_payload(7, now - timedelta(hours=1), updated=now, comments=1),
                      comment=comment_payload(70, 7, now))
    async with webhook_server(store, settings) as client:
        assert await post(client, "issue_comment", body, delivery="d-7") == (200, {"status": "applied"})
        assert await post(client, "issue_comment", body, delivery="d-7") == (200, {"status": "duplicate"})
        # GitHub's redelivery of it (same id), and the same content under another id: still one of each.
        assert (await post(client, "issue_comment", body, delivery="d-7"))[1] == {"status": "duplicate"}
        assert await post(client, "issue_comment", body, delivery="d-8") == (200, {"status": "applied"})
    assert count(store, schema.webhook_deliveries) == 2
    assert count(store, schema.items) == 1 and count(store, schema.comments) == 1
    item = store.item(REPO, 7)
    assert item is not None and item.comment_count == 1 and item.updated_at == now


async def test_a_merge_event_changes_the_counts_of_an_already_built_window(store: Store, settings: Settings) -> None:
    end = utcnow().replace(microsecond=0)
    window = Window(end - timedelta(days=1), end)
    opened = end - timedelta(hours=20)
    store.save_page([item_from_payload(REPO, issue_payload(n, opened, pr=True, title=f"Fix case {n}"),
                                       settings.is_bot) for n in (1, 2, 3)])
    polled(store, end)
    service = DigestService(store, settings, build_threads=1)
    context = service.default_context()
    before = service.build_digest(context, window, analyse=False)
    assert (before.stats.new_prs, before.stats.merged_prs) == (3, 0)

    merged = end - timedelta(hours=1)
    body = event_body("closed", number=2, pull_request=pull_payload(2, opened, merged=merged, title="Fix case 2"))
    async with webhook_server(store, settings) as client:
        assert await post(client, "pull_request", body) == (200, {"status": "applied"})
    after = service.build_digest(context, window, analyse=False)
    service.close()
    assert (after.stats.new_prs, after.stats.merged_prs) == (3, 1)
    assert [item.number for item in after.appendix["merged_prs"]] == [2]
    item = store.item(REPO, 2)
    assert item is not None and item.state == "closed" and item.merged_at == merged
    assert (item.additions, item.changed_files) == (120, 4)  # the event's PR details, without a GET /pulls


async def test_every_followed_event_kind_is_applied(store: Store, settings: Settings) -> None:
    now = utcnow().replace(microsecond=0)
    created = now - timedelta(hours=3)
    events = [
        ("issues", event_body("opened", issue=issue_payload(1, created))),
        ("issues", event_body("labeled", issue=issue_payload(1, created, updated=created + timedelta(minutes=1),
                                                            labels=("bug", "rocm")))),
        ("pull_request", event_body("opened", pull_request=pull_payload(2, created))),
        ("pull_request", event_body("edited", pull_request=pull_payload(2, created, title="[ROCm] new title",
                                                                        updated=created + timedelta(minutes=2)))),
        ("pull_request_review", event_body("submitted", review={"id": 5, "state": "approved"}, pull_request={
            k: v for k, v in pull_payload(2, created, title="[ROCm] new title",
                                          updated=created + timedelta(minutes=3)).items()
            if k not in ("comments", "additions", "deletions", "changed_files")})),
        ("issues", event_body("closed", issue=issue_payload(1, created, closed=created + timedelta(minutes=4),
                                                            labels=("bug", "rocm")))),
    ]
    async with webhook_server(store, settings) as client:
        for event, body in events:
            assert await post(client, event, body) == (200, {"status": "applied"}), (event, body["action"])
    issue, pull = store.item(REPO, 1), store.item(REPO, 2)
    assert issue is not None and issue.state == "closed" and issue.labels == ("bug", "rocm")
    assert issue.topics is not None and "rocm" in {topic for topic, _, _ in issue.topics}  # classified, as a sync
    assert pull is not None and pull.kind == "pr" and pull.title == "[ROCm] new title"
    assert pull.updated_at == created + timedelta(minutes=3)  # the review's


async def test_a_late_delivery_never_overwrites_a_newer_item(store: Store, settings: Settings) -> None:
    created = utcnow().replace(microsecond=0) - timedelta(hours=2)
    newer = event_body("edited", issue=issue_payload(3, created, updated=created + timedelta(hours=1), title="New"))
    older = event_body("edited", issue=issue_payload(3, created, updated=created + timedelta(minutes=5), title="Old"))
    async with webhook_server(store, settings) as client:
        await post(client, "issues", newer)
        assert await post(client, "issues", older) == (200, {"status": "applied"})
    item = store.item(REPO, 3)
    assert item is not None and item.title == "New"


async def test_a_pull_request_event_keeps_what_its_payload_does_not_say(store: Store, settings: Settings) -> None:
    created = utcnow().replace(microsecond=0) - timedelta(hours=2)
    polled_item = issue_payload(4, created, pr=True, reactions=9, comments=5)
    store.save_page([item_from_payload(REPO, polled_item, settings.is_bot)])
    review = {k: v for k, v in pull_payload(4, created, updated=created + timedelta(minutes=9)).items()
              if k != "comments"}
    async with webhook_server(store, settings) as client:
        await post(client, "pull_request_review", event_body("submitted", review={"id": 1}, pull_request=review))
    item = store.item(REPO, 4)
    assert item is not None and (item.reactions, item.thumbs_up, item.comment_count) == (9, 9, 5)
    assert item.updated_at == created + timedelta(minutes=9)


async def test_a_deleted_comment_is_removed(store: Store, settings: Settings) -> None:
    now = utcnow().replace(microsecond=0)
    issue, comment = issue_payload(5, now - timedelta(hours=1), updated=now), comment_payload(50, 5, now)
    async with webhook_server(store, settings) as client:
        await post(client, "issue_comment", event_body("created", issue=issue, comment=comment))
        assert count(store, schema.comments) == 1
        await post(client, "issue_comment", event_body("deleted", issue=issue, comment=comment))
    assert count(store, schema.comments) == 0


async def test_unfollowed_repositories_and_other_events_are_acknowledged_and_ignored(
        store: Store, settings: Settings) -> None:
    body = event_body("opened", repo="someone/else", issue=issue_payload(1, utcnow(), repo="someone/else"))
    async with webhook_server(store, settings) as client:
        assert await post(client, "issues", body) == (200, {"status": "ignored"})
        assert await post(client, "star", event_body("created")) == (200, {"status": "ignored"})
        assert await post(client, "ping", {"zen": "Keep it simple.", "hook_id": 1}) == (200, {"status": "pong"})
        # Form-encoded hooks (content type application/x-www-form-urlencoded) are read as well.
        opened = event_body("opened", repo="O/R", issue=issue_payload(9, utcnow()))  # names are case-insensitive
        assert await post(client, "issues", opened, form=True) == (200, {"status": "applied"})
    assert store.item("someone/else", 1) is None and store.item(REPO, 9) is not None
    assert WebhookLog(store).counts() == {"ignored": 2, "applied": 1}


async def test_malformed_bodies_get_a_400_and_a_malformed_item_is_kept_for_retry(store: Store,
                                                                               settings: Settings) -> None:
    async with webhook_server(store, settings) as client:
        assert (await post(client, "issues", b"{not json", delivery="d-garbage"))[0] == 400
        broken = event_body("opened", issue={**issue_payload(6, utcnow()), "number": "six"})
        assert (await post(client, "issues", broken, delivery="d-broken"))[0] == 202
    stored = WebhookLog(store).get("d-broken")
    assert stored is not None and stored.status == FAILED and "number" in (stored.last_error or "")
    assert WebhookLog(store).get("d-garbage") is None  # unreadable: never stored, never retried


async def test_a_delivery_that_fails_to_apply_is_retried_by_the_worker_never_lost(
        store: Store, settings: Settings, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    body = event_body("opened", issue=issue_payload(8, utcnow() - timedelta(minutes=5)))
    real_apply = WebhookLog.apply

    def database_down(self: WebhookLog, delivery_id: str, records: Any) -> None:
        raise OperationalError("INSERT", {}, Exception("database is locked"))

    monkeypatch.setattr(WebhookLog, "apply", database_down)
    with caplog.at_level(logging.WARNING, logger="bot.github.webhooks"):
        async with webhook_server(store, settings) as client:
            assert await post(client, "issues", body, delivery="d-8") == (202, {"status": "failed"})
    assert store.item(REPO, 8) is None and WebhookLog(store).get("d-8").status == FAILED  # type: ignore[union-attr]
    # Recorded, not applied: the log says so (it said "could not be stored" of a delivery that was).
    assert "webhook d-8 (issues opened on o/r) is recorded but could not be applied (the store failed:" in caplog.text
    assert "could not be stored" not in caplog.text

    monkeypatch.setattr(WebhookLog, "apply", real_apply)
    service = DigestService(store, settings, build_threads=1)
    applier: WebhookApplier = build_applier(service)  # as the worker's scheduler makes it
    assert applier.retry(older_than=timedelta(0)) == {APPLIED: 1}
    assert applier.retry(older_than=timedelta(0)) == {}  # applied once
    service.close()
    assert store.item(REPO, 8) is not None and WebhookLog(store).get("d-8").status == APPLIED  # type: ignore[union-attr]


# --- freshness: either path covers a window ---


def test_a_window_is_covered_by_a_poll_or_by_webhooks_carrying_on_from_one(store: Store) -> None:
    log = WebhookLog(store)
    start = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=3)
    assert store.last_synced(REPO) is None
    log.record("early", "issues", "opened", REPO, "{}", received_at=start)
    log.settle("early", APPLIED)
    poll = start + WEBHOOK_POLL_MARGIN + timedelta(minutes=1)
    set_last_sync(store, poll)
    late = poll + timedelta(hours=1)
    log.record("late", "issues", "opened", REPO, "{}", received_at=late)
    log.settle("late", APPLIED)
    assert store.last_polled(REPO) is not None
    assert store.last_synced(REPO) == late  # webhooks carried on from the poll
    # One not applied yet stops the coverage before it.
    log.record("stuck", "issues", "opened", REPO, "{}", received_at=late - timedelta(minutes=30))
    assert store.last_synced(REPO) == store.last_polled(REPO)


def test_webhooks_that_began_after_the_last_poll_cover_nothing(store: Store) -> None:
    log = WebhookLog(store)
    poll = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=2)
    set_last_sync(store, poll)
    log.record("after", "issues", "opened", REPO, "{}", received_at=poll + timedelta(minutes=5))
    log.settle("after", APPLIED)
    # Events between the poll and the first delivery may be missing: only the next poll vouches for them.
    assert store.last_synced(REPO) == store.last_polled(REPO)



# --- the worker: reconciling polls, retries ---


async def test_the_worker_polls_less_once_webhooks_arrive_and_retries_what_failed(
        store: Store, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.delivery.alerts import AlertJobs
    from bot.delivery.jobs import DeliveryJobs
    from bot.scheduler import ALERTS, DigestScheduler
    from tests.test_scheduler import FakeMessenger

    synced: list[str] = []

    async def sync(repo: str) -> None:
        synced.append(repo)

    service = DigestService(store, settings, build_threads=1, build_processes=0)
    jobs = DeliveryJobs(service, {"slack": FakeMessenger()}, sync=sync)
    applier = build_applier(service)
    scheduler = DigestScheduler(service, {"slack": FakeMessenger()}, jobs=jobs, webhooks=applier,
                                alerts=AlertJobs(jobs), sync_on_start=False, refresh_seconds=3600)
    async with scheduler:
        polls = scheduler.next_run("sync:o/r")
        assert ALERTS in scheduler.job_ids()
        assert polls is not None and timedelta(minutes=14) < polls - datetime.now(UTC) <= timedelta(minutes=15)
        def database_down(*args: object) -> None:
            raise OperationalError("INSERT", {}, Exception("database is locked"))

        monkeypatch.setattr(WebhookLog, "apply", database_down)
        outcome = applier.receive("d-1", "issues", json.dumps(event_body("opened", issue=issue_payload(
            12, utcnow() - timedelta(minutes=3)))).encode(), received_at=utcnow() - timedelta(minutes=2))
        assert outcome.status == FAILED
        monkeypatch.undo()
        await scheduler.refresh()  # the worker's minute: retries the delivery, reschedules the poll
        reconciled = scheduler.next_run("sync:o/r")
        assert reconciled is not None and timedelta(minutes=59) < reconciled - datetime.now(UTC) <= timedelta(hours=1)
    service.close()
    assert store.item(REPO, 12) is not None and WebhookLog(store).get("d-1").status == APPLIED  # type: ignore[union-attr]


async def test_a_comment_on_a_pull_request_keeps_its_details_current(store: Store, settings: Settings) -> None:
    created = utcnow().replace(microsecond=0) - timedelta(hours=3)
    opened = event_body("opened", pull_request=pull_payload(30, created))
    commented = created + timedelta(hours=1)
    comment = event_body("created", issue=issue_payload(30, created, pr=True, updated=commented, comments=1),
                         comment=comment_payload(300, 30, commented))
    async with webhook_server(store, settings) as client:
        await post(client, "pull_request", opened)
        await post(client, "issue_comment", comment)
    item = store.item(REPO, 30)
    assert item is not None and item.updated_at == commented and item.additions == 120
    # The reconciling poll finds nothing to fetch for it: a comment changed neither its size nor its reviews.
    assert store.details_wanted(REPO, [30], merged_since=created) == []
    # A push does: the details stay as they were until a pull_request event (or the poll) brings new ones.
    pushed = created + timedelta(hours=2)
    store.save_page([item_from_payload(REPO, issue_payload(30, created, pr=True, updated=pushed), settings.is_bot)])
    assert [w.number for w in store.details_wanted(REPO, [30], merged_since=created)] == [30]


async def test_a_comment_event_without_merged_at_leaves_a_merged_pull_request_merged(store: Store,
                                                                                    settings: Settings) -> None:
    created = utcnow().replace(microsecond=0) - timedelta(hours=5)
    merged = created + timedelta(hours=1)
    store.save_page([item_from_payload(REPO, issue_payload(31, created, pr=True, merged=merged, reactions=4),
                                       settings.is_bot)])
    later = merged + timedelta(hours=1)
    issue = issue_payload(31, created, pr=True, merged=merged, updated=later)
    issue["pull_request"] = {"url": issue["pull_request"]["url"]}  # an older payload shape: no merged_at
    del issue["reactions"]
    async with webhook_server(store, settings) as client:
        await post(client, "issue_comment", event_body("created", issue=issue, comment=comment_payload(310, 31, later)))
    item = store.item(REPO, 31)
    assert item is not None and item.merged_at == merged and item.reactions == 4 and item.updated_at == later


# --- deleted and transferred issues (octokit/webhooks' real deliveries) ---


def shown(digest: Any) -> set[int]:
    """Every item number a digest shows: its sections and its appendix (what its counts count)."""
    return ({item.number for section in digest.sections for item in section.items}
            | {item.number for items in digest.appendix.values() for item in items})


def digest_of(store: Store, settings: Settings, repo: str, day: datetime) -> Any:
    """The digest of the day from ``day``, built as the worker builds it (once the repository was polled)."""
    if store.last_polled(repo) is None:
        polled(store, utcnow(), repo)
    service = DigestService(store, settings, build_threads=1)
    try:
        return service.build_digest(service.default_context(repo=repo), Window(day, day + timedelta(days=1)),
                                    analyse=False)
    finally:
        service.close()


async def test_a_deleted_issue_leaves_every_section_count_and_appendix_and_nothing_brings_it_back(
        store: Store, tmp_path: Path) -> None:
    settings = follow(tmp_path, HELLO)
    day = datetime(2019, 5, 15, tzinfo=UTC)  # the examples' issue #1 was opened on 2019-05-15 15:20 UTC
    async with webhook_server(store, settings) as client:
        assert await post(client, "issues", example("issues/opened.payload.json")) == (200, {"status": "applied"})
        before = digest_of(store, settings, HELLO, day)
        assert before.stats.new_issues == 1 and 1 in shown(before)

        assert await post(client, "issues", example("issues/deleted.payload.json")) == (200, {"status": "applied"})
        after = digest_of(store, settings, HELLO, day)
        assert after.stats.as_dict() == dict.fromkeys(after.stats.as_dict(), 0) and shown(after) == set()
        gone = store.removed_item(HELLO, 1)
        assert store.item(HELLO, 1) is None and gone is not None and gone.reason == "deleted"

        # A comment delivered late, the opening redelivered, a poll's page that still lists it: it stays gone.
        for event, name in (("issue_comment", "issue_comment/created.payload.json"),
                            ("issue_comment", "issue_comment/edited.payload.json"),
                            ("issues", "issues/opened.payload.json")):
            assert await post(client, event, example(name)) == (200, {"status": "applied"}), name
    opened = json.loads(example("issues/opened.payload.json"))["issue"]
    store.save_page([item_from_payload(HELLO, opened, settings.is_bot)])
    assert store.item(HELLO, 1) is None and count(store, schema.comments) == 0
    assert shown(digest_of(store, settings, HELLO, day)) == set()


async def test_a_transferred_issue_leaves_its_repository_and_moves_to_a_followed_one(
        store: Store, tmp_path: Path) -> None:
    settings = follow(tmp_path, OCTO, HELLO)
    transferred = json.loads(example("issues/transferred.payload.json"))
    old, new = transferred["issue"], transferred["changes"]["new_issue"]
    store.save_page([item_from_payload(OCTO, old, settings.is_bot)])  # polled before it moved
    day = datetime(2019, 10, 25, tzinfo=UTC)
    assert 1 in shown(digest_of(store, settings, OCTO, day))

    async with webhook_server(store, settings) as client:
        assert await post(client, "issues", example("issues/transferred.payload.json")) == (200, {"status": "applied"})
    assert store.item(OCTO, 1) is None and shown(digest_of(store, settings, OCTO, day)) == set()
    gone = store.removed_item(OCTO, 1)
    assert gone is not None and (gone.reason, gone.moved_to) == ("transferred", "Codertocat/Hello-World#1")
    moved = store.item(HELLO, 1)  # followed too: stored there, as changes.new_issue says it is
    assert moved is not None and (moved.title, moved.labels, moved.state, moved.url) == (
        new["title"], ("bug",), "open", new["html_url"])
    assert 1 in shown(digest_of(store, settings, HELLO, datetime(2019, 5, 15, tzinfo=UTC)))

    # A poll of the old repository that still lists it does not bring it back there.
    store.save_page([item_from_payload(OCTO, old, settings.is_bot)])
    assert store.item(OCTO, 1) is None


async def test_a_transfer_to_a_repository_not_followed_only_removes_the_issue(store: Store, tmp_path: Path) -> None:
    settings = follow(tmp_path, OCTO)
    store.save_page([item_from_payload(OCTO, json.loads(example("issues/transferred.payload.json"))["issue"],
                                       settings.is_bot)])
    async with webhook_server(store, settings) as client:
        assert await post(client, "issues", example("issues/transferred.payload.json")) == (200, {"status": "applied"})
    gone = store.removed_item(OCTO, 1)
    assert store.item(OCTO, 1) is None and gone is not None and gone.moved_to == "Codertocat/Hello-World#1"
    assert store.item(HELLO, 1) is None and count(store, schema.items) == 0


async def test_the_new_repositorys_opened_delivery_moves_a_transferred_issue_too(store: Store, tmp_path: Path) -> None:
    """A hook on the new repository only sees ``opened`` with ``changes.old_issue``: that removes the old one."""
    settings = follow(tmp_path, OCTO, HELLO)
    with_transfer = json.loads(example("issues/opened.with-transfer.payload.json"))
    store.save_page([item_from_payload(OCTO, with_transfer["changes"]["old_issue"], settings.is_bot)])
    async with webhook_server(store, settings) as client:
        opened = example("issues/opened.with-transfer.payload.json")
        assert await post(client, "issues", opened) == (200, {"status": "applied"})
        gone = store.removed_item(OCTO, 1)
        assert store.item(OCTO, 1) is None and gone is not None and gone.moved_to == "Codertocat/Hello-World#1"
        moved = store.item(HELLO, 1)
        assert moved is not None and moved.title == with_transfer["issue"]["title"]
        # The old repository's own delivery of the same move, after: nothing changes.
        assert await post(client, "issues", example("issues/transferred.payload.json")) == (200, {"status": "applied"})
    assert store.removed_item(OCTO, 1) == gone and store.item(HELLO, 1) == moved


# --- what the examples found ---


async def test_a_pinned_issue_keeps_its_labels_state_and_topics(store: Store, tmp_path: Path) -> None:
    """GitHub's issues/pinned and unpinned examples carry neither labels nor state: the stored ones stay (they
    were dropped, and the issue reopened, before)."""
    settings = follow(tmp_path, HELLO)
    opened = json.loads(example("issues/opened.payload.json"))["issue"]
    closed = {**opened, "labels": [{"name": "bug"}, {"name": "rocm"}], "state": "closed",
              "state_reason": "not_planned", "closed_at": opened["created_at"]}
    async with webhook_server(store, settings) as client:
        assert await post(client, "issues", event_body("closed", repo=HELLO, issue=closed)) == (
            200, {"status": "applied"})
        before = store.item(HELLO, 1)
        for name in ("issues/pinned.payload.json", "issues/unpinned.payload.json"):
            assert await post(client, "issues", example(name)) == (200, {"status": "applied"})
    item = store.item(HELLO, 1)
    assert before is not None and item is not None
    assert (item.labels, item.state, item.state_reason) == (("bug", "rocm"), "closed", "not_planned")
    assert item.topics == before.topics and item.topics is not None and "rocm" in {t for t, _, _ in item.topics}


async def test_a_comment_on_a_draft_pull_request_without_its_draft_flag_leaves_it_a_draft(
        store: Store, settings: Settings) -> None:
    created = utcnow().replace(microsecond=0) - timedelta(hours=2)
    async with webhook_server(store, settings) as client:
        await post(client, "pull_request", event_body("opened", pull_request={**pull_payload(32, created),
                                                                              "draft": True}))
        issue = issue_payload(32, created, pr=True, updated=created + timedelta(hours=1), comments=1)
        del issue["draft"]
        await post(client, "issue_comment", event_body("created", issue=issue, comment=comment_payload(
            320, 32, created + timedelta(hours=1))))
    item = store.item(REPO, 32)
    assert item is not None and item.draft and item.comment_count == 1


async def test_a_pull_request_named_with_another_repositorys_urls_is_ignored_not_retried(
        store: Store, tmp_path: Path) -> None:
    """pull_request_review/dismissed: delivered for Codertocat/Hello-World, numbered 2, with hellomouse/GNS#902's
    URLs. It is not this repository's PR 2: acknowledged and ignored with the reason, PR 2 left as it was (the
    reconciling poll reads it), and nothing for the worker to retry 20 times."""
    settings = follow(tmp_path, HELLO)
    async with webhook_server(store, settings) as client:
        assert await post(client, "pull_request", example("pull_request/opened.payload.json")) == (
            200, {"status": "applied"})
        before = store.item(HELLO, 2)
        answer = await post(client, "pull_request_review", example("pull_request_review/dismissed.payload.json"),
                            delivery="d-dismissed")
        assert answer == (200, {"status": "ignored"})
    stored = WebhookLog(store).get("d-dismissed")
    assert stored is not None and stored.status == "ignored"
    assert stored.last_error == "the pull_request object's URLs name hellomouse/GNS, not Codertocat/Hello-World"
    assert store.item(HELLO, 2) == before and WebhookLog(store).due(received_before=utcnow() + timedelta(1)) == []



async def test_a_transfer_whose_new_issue_names_another_repository_still_removes_the_old_one(
        store: Store, tmp_path: Path) -> None:
    settings = follow(tmp_path, OCTO, HELLO)
    body = json.loads(example("issues/transferred.payload.json"))
    body["changes"]["new_issue"].update(url="https://api.github.com/repos/someone/else/issues/1",
                                        html_url="https://github.com/someone/else/issues/1")
    async with webhook_server(store, settings) as client:
        assert await post(client, "issues", body) == (200, {"status": "applied"})
    gone = store.removed_item(OCTO, 1)
    assert gone is not None and gone.reason == "transferred" and store.item(HELLO, 1) is None

def test_removing_an_issue_forgets_its_comments_report_and_the_cached_days_it_counted_in(store: Store) -> None:
    from bot.store.history import History
    from bot.store.records import RemovedItem
    from bot.store.store import remove_items

    created = datetime(2026, 3, 10, 8, tzinfo=UTC)
    store.save_page([item_from_payload(REPO, issue_payload(n, created), lambda _: False) for n in (1, 2)],
                    [comment_from_payload(REPO, comment_payload(10 + n, n, created + timedelta(hours=1)),
                                          lambda _: False) for n in (1, 2)])
    with store.engine.begin() as conn:
        conn.execute(schema.unreadable.insert().values(repo=REPO, resource="issues", key=1, error="x",
                                                       first_seen_at=created, last_seen_at=created, attempts=1))
    days = [created - timedelta(days=3), created.replace(hour=0), created + timedelta(days=1)]
    History(store).save_topic_days(REPO, {day: {"rocm": 1} for day in days}, 86_400, "k")
    with store.engine.begin() as conn:
        remove_items(conn, [RemovedItem(REPO, 1, "deleted")], utcnow())
    with store.engine.connect() as conn:
        assert list(conn.execute(select(schema.comments.c.number)).scalars()) == [2]
        assert conn.execute(select(func.count()).select_from(schema.unreadable)).scalar_one() == 0
        kept = list(conn.execute(select(schema.topic_days.c.day_start)).scalars())
    assert kept == [days[0]]  # the days since it was opened are counted again, without it
    assert store.item(REPO, 2) is not None
