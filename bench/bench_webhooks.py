"""GitHub webhooks and live alerts: how many events one process applies, how soon an alert follows an event, and
what webhooks save of the GitHub request budget.

    python -m bench.bench_webhooks                       # SQLite, and PostgreSQL when one answers on 127.0.0.1
    python -m bench.bench_webhooks --quick               # a smoke run
    python -m bench.bench_webhooks --postgres postgresql+psycopg://postgres@127.0.0.1:5432/test

Figures:
* events applied per second on one process, SQLite and PostgreSQL: signed deliveries (a vLLM-like mix of
  issues, issue_comment, pull_request and pull_request_review events, bodies up to 4 KB) posted over HTTP to
  the real aiohttp application on 127.0.0.1 by 8 concurrent senders (GitHub delivers concurrently), each
  verified, recorded, applied and acknowledged; and the same deliveries applied in-process (no HTTP), side by
  side, so the HTTP share is visible;
* event-to-alert latency: webhook events for new items posted at random moments to the running web app while
  the worker's alert job ticks (``AlertJobs``: every ``--tick`` s, at most one message a ``--every`` s per
  target); latency = the alert's message accepted - the event's delivery acknowledged, p50/p99/max;
* GitHub request budget per hour for N followed repositories: one hour of vLLM-like activity (14 new items,
  70 comments, 3 merges an hour) replayed against the fake GitHub, synced by polling every 15 min (the
  default) vs by webhooks with a reconciling poll every 60 min; requests that count against the rate limit
  (200s: 304s are free) per repository-hour, and what that makes for N repositories against one 5,000/h budget.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
import uuid
from contextlib import suppress
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from aiohttp import ClientSession, web
from sqlalchemy import select

from bench.common import SampleSpec, bench_settings, percentile, print_machine, print_table
from bot.app.messenger import OnPart, Pace
from bot.app.service import DigestService
from bot.app.webhooks import build_applier
from bot.delivery.alerts import AlertJobs
from bot.delivery.jobs import DeliveryJobs
from bot.demo.fake_github import FakeGitHub
from bot.github.factory import build_syncer, github_client
from bot.github.webhooks import signature
from bot.model import Answer
from bot.platforms.github_webhooks import PATH, webhook_routes
from bot.platforms.web import store_health, web_app
from bot.settings import Settings
from bot.store import schema
from bot.store.alerts import AlertState
from bot.store.store import Store
from bot.timeutil import iso_z, utcnow

SECRET = "bench-secret"
REPO = "vllm-project/vllm"
API = "https://api.github.com"
WORDS = ("rocm", "cuda", "qwen", "llama", "kernel", "scheduler", "cache", "lora", "fp8", "moe", "spec decode",
         "hang", "crash", "regression", "docs", "tokenizer", "pipeline", "tensor parallel")


# --- payloads, shaped like GitHub's webhook bodies ------------------------------------------------------------


def _user(rng: random.Random) -> dict[str, Any]:
    return {"login": f"user{rng.randrange(400)}", "id": 7, "type": "User"}


def _issue(rng: random.Random, number: int, created: datetime, *, pr: bool = False, updated: datetime | None = None,
           title: str | None = None, closed: datetime | None = None) -> dict[str, Any]:
    body = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(20, 600)))
    issue = {
        "url": f"{API}/repos/{REPO}/issues/{number}", "html_url": f"https://github.com/{REPO}/issues/{number}",
        "id": 10_000 + number, "number": number,
        "title": title or f"[{rng.choice(['Bug', 'Feature', 'Usage'])}] {rng.choice(WORDS)} {rng.choice(WORDS)}",
        "user": _user(rng), "labels": [{"name": rng.choice(["bug", "rocm", "feature", "usage"])}],
        "state": "closed" if closed else "open", "comments": rng.randrange(5), "created_at": iso_z(created),
        "updated_at": iso_z(updated or created), "closed_at": iso_z(closed) if closed else None,
        "author_association": "CONTRIBUTOR", "body": body, "reactions": {"total_count": 1, "+1": 1},
    }
    if pr:
        issue["pull_request"] = {"url": f"{API}/repos/{REPO}/pulls/{number}", "merged_at": None}
    return issue


def _pull(rng: random.Random, number: int, created: datetime, *, merged: datetime | None = None,
          updated: datetime | None = None) -> dict[str, Any]:
    issue = _issue(rng, number, created, pr=True, updated=updated or merged, closed=merged)
    pull = {k: v for k, v in issue.items() if k not in ("pull_request", "reactions")}
    pull.update(url=f"{API}/repos/{REPO}/pulls/{number}", html_url=f"https://github.com/{REPO}/pull/{number}",
                merged=merged is not None, merged_at=iso_z(merged) if merged else None, draft=False,
                additions=rng.randrange(1, 900), deletions=rng.randrange(0, 300), changed_files=rng.randrange(1, 30),
                review_comments=rng.randrange(10), commits=rng.randrange(1, 9))
    return pull


def _as_pull(issue: dict[str, Any], details: dict[str, Any] | None, *, review: bool = False) -> dict[str, Any]:
    """An issues-listing PR -> the pull request object webhooks carry (a review's lacks counts and size)."""
    pull = {k: v for k, v in issue.items() if k not in ("pull_request", "reactions")}
    merged_at = (issue.get("pull_request") or {}).get("merged_at")
    pull.update(url=f"{API}/repos/{REPO}/pulls/{issue['number']}", merged=merged_at is not None, merged_at=merged_at,
                draft=bool(issue.get("draft")))
    if review:
        pull.pop("comments", None)
    else:
        pull.update({k: v for k, v in (details or {}).items() if k in ("additions", "deletions", "changed_files",
                                                                       "review_comments", "commits")})
        pull.setdefault("additions", 10)
        pull.setdefault("deletions", 2)
        pull.setdefault("changed_files", 1)
    return pull


def events(n: int, *, seed: int = 7) -> list[tuple[str, dict[str, Any]]]:
    """A vLLM-like mix from the demo generator's realistic sample (titles, templates, logs, CJK): half comments,
    then issue and PR changes, reviews."""
    sample = SampleSpec(days=2, items_per_day=340, comments_per_day=1700, seed=seed).generate()
    rng = random.Random(seed)
    issues = {p["number"]: p for p in sample.issues}
    pulls = {p["number"]: p for p in sample.pulls}
    plain = [p for p in sample.issues if "pull_request" not in p]
    prs = [p for p in sample.issues if "pull_request" in p]
    repo = {"full_name": REPO, "private": False}
    out: list[tuple[str, dict[str, Any]]] = []
    comments = iter(c for c in sample.comments if int(c["issue_url"].rsplit("/", 1)[1]) in issues)
    for _ in range(n):
        kind = rng.random()
        if kind < 0.5:
            comment = next(comments)
            issue = issues[int(comment["issue_url"].rsplit("/", 1)[1])]
            out.append(("issue_comment", {"action": "created", "issue": issue, "comment": comment, "repository": repo}))
        elif kind < 0.75:
            issue = rng.choice(plain)
            action = "closed" if issue.get("state") == "closed" else rng.choice(["opened", "labeled", "edited"])
            out.append(("issues", {"action": action, "issue": issue, "repository": repo}))
        elif kind < 0.92:
            issue = rng.choice(prs)
            merged = (issue.get("pull_request") or {}).get("merged_at") is not None
            out.append(("pull_request", {"action": "closed" if merged else "synchronize", "number": issue["number"],
                                         "pull_request": _as_pull(issue, pulls.get(issue["number"])),
                                         "repository": repo}))
        else:
            issue = rng.choice(prs)
            out.append(("pull_request_review", {"action": "submitted", "review": {"id": rng.randrange(10**9)},
                                                "pull_request": _as_pull(issue, None, review=True),
                                                "repository": repo}))
    return out


# --- 1. events applied per second ------------------------------------------------------------------------------


class WebProcess:
    """The web process's application with the webhook route, on a free 127.0.0.1 port."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.service = DigestService(store, settings, build_threads=1, build_processes=0)
        self.applier = build_applier(self.service)
        self.runner = web.AppRunner(web_app(webhook_routes(self.applier, SECRET), store_health(store)))
        self.url = ""

    async def __aenter__(self) -> WebProcess:
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{port}{PATH}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.runner.cleanup()
        self.service.close()


async def post_all(url: str, bodies: list[tuple[str, bytes]], *, senders: int = 8) -> list[int]:
    statuses: list[int] = []
    queue: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
    for item in bodies:
        queue.put_nowait(item)
    async with ClientSession() as session:

        async def sender() -> None:
            while not queue.empty():
                event, raw = queue.get_nowait()
                headers = {"X-GitHub-Event": event, "X-GitHub-Delivery": str(uuid.uuid4()),
                           "X-Hub-Signature-256": signature(SECRET, raw), "Content-Type": "application/json"}
                async with session.post(url, data=raw, headers=headers) as response:
                    statuses.append(response.status)

        await asyncio.gather(*(sender() for _ in range(senders)))
    return statuses


def fresh_store(kind: str, pg_url: str | None, tmp: Path) -> Store:
    if kind == "sqlite":
        return Store.open(f"sqlite:///{tmp}/bench-{uuid.uuid4().hex[:8]}.sqlite3")
    import psycopg

    schema = f"bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect("host=127.0.0.1 port=5432 user=postgres dbname=test", autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    store = Store.open(f"{pg_url}?options=-csearch_path%3D{schema}")
    store.bench_schema = schema  # type: ignore[attr-defined]
    return store


def drop_store(store: Store) -> None:
    schema = getattr(store, "bench_schema", None)
    store.close()
    if schema:
        import psycopg

        with psycopg.connect("host=127.0.0.1 port=5432 user=postgres dbname=test", autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


async def applied_per_second(kind: str, pg_url: str | None, n: int, settings: Settings, tmp: Path) -> list[object]:
    bodies = [(event, json.dumps(body).encode()) for event, body in events(n)]
    store = fresh_store(kind, pg_url, tmp)
    try:
        async with WebProcess(store, settings) as web_process:
            await post_all(web_process.url, bodies[:50])  # warm-up: connections, taxonomy, statements
            started = time.perf_counter()
            statuses = await post_all(web_process.url, bodies[50:])
            http_seconds = time.perf_counter() - started
        bad = sum(1 for status in statuses if status != 200)
    finally:
        drop_store(store)
    store = fresh_store(kind, pg_url, tmp)
    try:
        service = DigestService(store, settings, build_threads=1, build_processes=0)
        applier = build_applier(service)
        for event, raw in bodies[:50]:
            applier.receive(str(uuid.uuid4()), event, raw)
        started = time.perf_counter()
        for event, raw in bodies[50:]:
            applier.receive(str(uuid.uuid4()), event, raw)
        direct_seconds = time.perf_counter() - started
        service.close()
    finally:
        drop_store(store)
    count = n - 50
    return [kind, count, f"{count / http_seconds:,.0f}", f"{http_seconds / count * 1000:.2f}",
            f"{count / direct_seconds:,.0f}", f"{direct_seconds / count * 1000:.2f}", bad]


# --- 2. event-to-alert latency ------------------------------------------------------------------------------------


class Recorder:
    """A messenger that accepts every message at once and notes when (the platform's side is not measured)."""

    platform = "slack"

    def __init__(self) -> None:
        self.accepted: list[tuple[str, float, Answer]] = []
        self.count = 0

    async def deliver(self, target: str, answer: Answer, *, dm: bool, locale: str, timezone: str,
                      sent: Any = (), on_part: OnPart | None = None, pace: Pace | None = None,
                      key: str | None = None, check_first: bool = False) -> list[str]:
        self.count += 1
        message_id = f"m{self.count}"
        self.accepted.append((target, time.perf_counter(), answer))
        if on_part is not None:
            await on_part(message_id)
        return [message_id]


async def alert_latency(settings: Settings, tmp: Path, *, seconds: float, tick: float, every: float,
                        targets: int, rate: float) -> dict[str, Any]:
    store = Store.open(f"sqlite:///{tmp}/alerts.sqlite3")
    service = DigestService(store, settings, build_threads=2, build_processes=0)
    state = AlertState(store)
    for t in range(targets):
        state.add("slack", f"U{t}", dm=True, query=f"alert{t}", repo=REPO, locale="en", timezone="UTC")
    # A poll completed: the repository is synced (an alert's search needs it known).
    for resource in ("issues", "comments"):
        store.complete_listing(REPO, resource, utcnow(), [], synced_from=utcnow() - timedelta(days=30))
    recorder = Recorder()
    jobs = DeliveryJobs(service, {"slack": recorder})
    alerts = AlertJobs(jobs, tick_seconds=tick, every=timedelta(seconds=every))
    rng = random.Random(11)
    sent_at: dict[int, float] = {}
    ticks: list[float] = []
    stop = asyncio.Event()

    async def ticker() -> None:
        while not stop.is_set():
            started = time.perf_counter()
            await alerts.run()
            ticks.append(time.perf_counter() - started)
            with suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), tick)

    async with WebProcess(store, settings) as web_process, ClientSession() as session:
        task = asyncio.create_task(ticker())
        deadline = time.perf_counter() + seconds
        number = 100_000
        while time.perf_counter() < deadline:
            await asyncio.sleep(rng.expovariate(rate))
            number += 1
            target = rng.randrange(targets)
            body = {"action": "opened", "repository": {"full_name": REPO},
                    "issue": _issue(rng, number, utcnow(), title=f"alert{target} new report {number}")}
            raw = json.dumps(body).encode()
            headers = {"X-GitHub-Event": "issues", "X-GitHub-Delivery": str(uuid.uuid4()),
                       "X-Hub-Signature-256": signature(SECRET, raw), "Content-Type": "application/json"}
            async with session.post(web_process.url, data=raw, headers=headers) as response:
                assert response.status == 200, response.status
            sent_at[number] = time.perf_counter()
        # Let the last events' batches go out (at most every + tick later).
        await asyncio.sleep(every + 2 * tick)
        stop.set()
        await task
    with store.engine.connect() as conn:
        d = schema.deliveries.c
        rows = conn.execute(select(d.window_end, d.completed_at).where(d.kind == "alert", d.status == "sent")).all()
    # A batch's own work: from the moment it was cut (its window's end) to the last message accepted.
    batch_ms = [(row.completed_at - row.window_end).total_seconds() * 1000 for row in rows]
    service.close()
    store.close()
    latencies: list[float] = []
    delivered: set[int] = set()
    for _, at, answer in recorder.accepted:
        for item in getattr(answer, "items", ()):
            if item.number in sent_at and item.number not in delivered:
                delivered.add(item.number)
                latencies.append(at - sent_at[item.number])
    per_target = [sum(1 for target, _, _ in recorder.accepted if target == f"U{t}") for t in range(targets)]
    return {"events": len(sent_at), "alerted": len(delivered), "messages": len(recorder.accepted),
            "p50": percentile(latencies, 50), "p99": percentile(latencies, 99), "max": max(latencies, default=0),
            "tick_p50_ms": percentile(ticks, 50) * 1000, "batch_p99_ms": percentile(batch_ms, 99),
            "max_messages_per_target": max(per_target, default=0)}


# --- 3. GitHub request budget -------------------------------------------------------------------------------------


async def budget_per_repo_hour(settings: Settings, tmp: Path, *, webhooks: bool) -> tuple[int, int, int]:
    """One hour of activity, synced by polling every 15 min, or applied by webhook as it happens with one
    reconciling poll at the end: (requests counted against the rate limit, 304s, of which PR details)."""
    rng = random.Random(3)
    base = utcnow() - timedelta(hours=3)
    fake = FakeGitHub()
    history = [_issue(rng, n, base - timedelta(days=20) + timedelta(hours=n), pr=n % 2 == 0) for n in range(1, 400)]
    fake.add_repo(REPO, history, [])
    store = Store.open(f"sqlite:///{tmp}/budget-{webhooks}.sqlite3")
    service = DigestService(store, settings, build_threads=1, build_processes=0)
    applier = build_applier(service)
    poll_minutes = 60 if webhooks else 15

    def deliver(event: str, body: dict[str, Any]) -> None:
        if webhooks:
            body = {**body, "repository": {"full_name": REPO}}
            assert applier.receive(str(uuid.uuid4()), event, json.dumps(body).encode()).status == "applied"

    def current(path: str) -> dict[str, Any]:
        data: dict[str, Any] = fake.handler(httpx.Request("GET", f"{API}/{path}")).json()
        return data

    try:
        async with github_client(settings, api_url=API, transport=httpx.MockTransport(fake.handler)) as client:
            syncer = build_syncer(store, settings, client, lookback=timedelta(days=30))
            await syncer.sync(REPO)  # the first sync: not part of the hour
            number = 1000
            counted = free = details = 0
            for minute in range(0, 60, 5):  # activity every 5 minutes: 14 new items, 70 comments, 3 merges an hour
                moment = base + timedelta(minutes=minute)
                for _ in range(rng.choice((1, 1, 2))):
                    number += 1
                    pr = number % 3 == 0
                    fake.add_issue(REPO, _issue(rng, number, moment, pr=pr))
                    if pr:
                        deliver("pull_request", {"action": "opened", "number": number,
                                                 "pull_request": current(f"repos/{REPO}/pulls/{number}")})
                    else:
                        deliver("issues", {"action": "opened", "issue": current(f"repos/{REPO}/issues/{number}")})
                for k in range(rng.choice((5, 6, 6, 6))):
                    target = rng.randrange(1, 400)
                    cid = 9_000_000 + number * 100 + k + minute * 10_000
                    comment = {"id": cid, "url": f"{API}/repos/{REPO}/issues/comments/{cid}",
                               "html_url": f"https://github.com/{REPO}/issues/{target}#issuecomment-{cid}",
                               "issue_url": f"{API}/repos/{REPO}/issues/{target}", "user": _user(rng),
                               "created_at": iso_z(moment), "updated_at": iso_z(moment), "body": "same here",
                               "author_association": "NONE", "reactions": {"total_count": 0}}
                    fake.add_comment(REPO, comment)
                    deliver("issue_comment", {"action": "created", "comment": comment,
                                              "issue": current(f"repos/{REPO}/issues/{target}")})
                if minute % 20 == 0:
                    victim = rng.randrange(2, 400, 2)
                    fake.update_issue(REPO, victim, updated_at=iso_z(moment), state="closed", closed_at=iso_z(moment),
                                      pull_request={"url": f"{API}/repos/{REPO}/pulls/{victim}",
                                                    "merged_at": iso_z(moment)})
                    deliver("pull_request", {"action": "closed", "number": victim,
                                             "pull_request": current(f"repos/{REPO}/pulls/{victim}")})
                if (minute + 5) % poll_minutes == 0:
                    fake.requests.clear()
                    await syncer.sync(REPO)
                    counted += sum(1 for r in fake.requests if r.status is not None and r.status != 304)
                    free += sum(1 for r in fake.requests if r.status == 304)
                    details += sum(1 for r in fake.requests if "/pulls/" in r.path and r.status != 304)
        return counted, free, details
    finally:
        service.close()
        store.close()


# --- main ---------------------------------------------------------------------------------------------------------


def _postgres(url: str | None) -> str | None:
    try:
        import psycopg

        with psycopg.connect("host=127.0.0.1 port=5432 user=postgres dbname=test", connect_timeout=2):
            return url or "postgresql+psycopg://postgres@127.0.0.1:5432/test"
    except Exception:
        return None


async def main_async(args: argparse.Namespace) -> None:
    settings = bench_settings()
    pg_url = _postgres(args.postgres)
    n = 300 if args.quick else args.events
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        print(f"## Webhook events applied per second ({n - 50} deliveries after 50 warm-up; 8 concurrent senders)\n")
        rows = [await applied_per_second("sqlite", None, n, settings, tmp)]
        if pg_url:
            rows.append(await applied_per_second("postgresql", pg_url, n, settings, tmp))
        else:
            print("(PostgreSQL skipped: none on 127.0.0.1:5432)\n")
        print_table(["store", "events", "over HTTP /s", "ms each", "in-process /s", "ms each", "non-200"], rows)

        seconds = 20.0 if args.quick else args.seconds
        print(f"## Event-to-alert latency ({seconds:.0f} s of events, tick {args.tick:g} s, at most one message "
              f"per {args.every:g} s per target, {args.targets} targets, {args.rate:g} events/s)\n")
        found = await alert_latency(settings, tmp, seconds=seconds, tick=args.tick, every=args.every,
                                    targets=args.targets, rate=args.rate)
        print_table(["events", "alerted", "messages", "max msgs/target", "p50 s", "p99 s", "max s", "tick p50 ms",
                     "batch p99 ms"],
                    [[found["events"], found["alerted"], found["messages"], found["max_messages_per_target"],
                      f"{found['p50']:.1f}", f"{found['p99']:.1f}", f"{found['max']:.1f}",
                      f"{found['tick_p50_ms']:.0f}", f"{found['batch_p99_ms']:.0f}"]])

        print("## GitHub request budget per repository-hour (vLLM-like: 14 items, 70 comments, 3 merges an hour)\n")
        polled = await budget_per_repo_hour(settings, tmp, webhooks=False)
        hooked = await budget_per_repo_hour(settings, tmp, webhooks=True)
        rows = []
        for label, (counted, free, details) in (("polling every 15 min", polled),
                                                ("webhooks + reconcile every 60 min", hooked)):
            rows.append([label, counted, free, details, f"{5000 // max(1, counted):,}"])
        print_table(["sync", "counted requests/h", "304s (free)", "of which PR details", "repos per 5,000/h"], rows)
        per = {label: row[1] for label, row in zip(("poll", "hook"), rows, strict=True)}
        print_table(["repositories", "polling: requests/h", "webhooks: requests/h"],
                    [[n_repos, f"{n_repos * int(per['poll']):,}", f"{n_repos * int(per['hook']):,}"]
                     for n_repos in (1, 10, 50, 200)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--events", type=int, default=2050)
    parser.add_argument("--postgres", help="a PostgreSQL URL (default: the local test database when it answers)")
    parser.add_argument("--seconds", type=float, default=120.0, help="how long events keep arriving")
    parser.add_argument("--tick", type=float, default=10.0, help="the alert job's period (the worker's default)")
    parser.add_argument("--every", type=float, default=60.0, help="at most one message per target this often")
    parser.add_argument("--targets", type=int, default=20)
    parser.add_argument("--rate", type=float, default=0.5, help="new matching items per second, all targets")
    args = parser.parse_args()
    print_machine({"started": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")})
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
