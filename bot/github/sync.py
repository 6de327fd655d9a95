"""Incremental sync of one repository: two paged listings (items, comments) into the store.

Each page is saved in its own transaction and the cursor moves only when a listing completes, so a sync
that dies part-way leaves whole pages (idempotent upserts) and the old cursor: the next run re-reads from
there and ends with the same rows, none lost, none doubled.

After the listings, key-change candidates get their PR details (``GET /pulls/{n}``: lines, files, review
comments), which the issues listing lacks: human PRs this sync stored that were merged in what it read, or are
open and not draft, whose details are missing or older than the item, newest first, at most ``pr_details_max``;
with the stored ETag, so an unchanged PR costs a 304. A failed fetch never fails the sync nor loses the item
(stored without its size, marked due and retried by the next sync); one that GitHub answers with nothing to
read (404, 410, a malformed object) is settled until the PR changes again. Bots' PRs never.

A malformed item (a payload the parser rejects) is not lost either: the page's other items are stored, and
the item is reported (``unreadable`` table, the report line, ``digest-bot status``) until a sync reads it.
With a readable number or id, the cursor moves on and later syncs re-fetch it alone (one request per such
item, none when there are none); without one, the cursor is held where the listing will list it again.

A repository renamed or transferred on GitHub still syncs under its configured name: the client follows
GitHub's 301 from ``/repos/{old}/...`` to ``/repositories/{id}/...``. The sync finds the new name (the items'
``repository_url`` or ``html_url``, else ``GET /repositories/{id}``) and says it once per sync, in a warning
and in the report's line ("o/old moved to o/new: update digest.toml"); items stay stored under the old name.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from bot.errors import BadCredentials, GitHubError, GitHubUnavailable, RateLimited
from bot.github.client import GitHubClient
from bot.github.payloads import (
    comment_from_payload,
    comment_key,
    item_from_payload,
    item_key,
    pull_details_from_payload,
)
from bot.store.records import CommentRecord, ItemRecord, PullDetails, Unreadable, UnreadableChange
from bot.store.store import DetailsWanted, Store
from bot.timeutil import iso_z, parse_iso, utcnow
from bot.topics.items import classify
from bot.topics.kinds import KINDS_KEY
from bot.topics.taxonomy import Taxonomy

_log = logging.getLogger(__name__)

RESOURCES = ("issues", "comments")
RECLASSIFY_BATCH = 5_000  # ~2 s of matching; a changed taxonomy reaches a 100k-item store within a day
REFETCH_LIMIT = 50  # unreadable items re-fetched alone per sync: a badly broken repo costs a bounded extra
GONE = (301, 404, 410)  # re-fetching an unreadable item: transferred, deleted or gone, so nothing to lose
_PARSE_ERRORS = (KeyError, ValueError, TypeError)  # MalformedPayload is a ValueError
_WHOLE_SYNC_TROUBLE = (RateLimited, BadCredentials, GitHubUnavailable)  # not one item's: stop asking
DETAILS_BATCH = 25  # PR details saved per transaction: a crash loses at most this many fetches (they stay due)
# The repository an item or comment belongs to, from its API or web URLs (after a rename: the new name).
_API_REPO = re.compile(r"/repos/([^/]+/[^/]+?)(?:/(?:issues|pulls)(?:/.*)?)?/?$")
_WEB_REPO = re.compile(r"^https?://[^/]+/(?:[^/]+/)*?([^/]+/[^/]+)/(?:issues|pull)/\d+(?:#.*)?$")
_REPOSITORY_ID = re.compile(r"/repositories/(\d+)(?=/|$)")
Progress = Callable[[str, int, int | None], None]  # resource, pages done, pages expected (if known)


@dataclass
class SyncReport:
    repo: str
    items: int = 0
    comments: int = 0
    requests: int = 0
    not_modified: int = 0
    skipped: int = 0
    reclassified: int = 0  # stored items re-matched because the taxonomy changed since they were saved
    rate_remaining: int | None = None
    rate_limit: int | None = None
    since: dict[str, str] = field(default_factory=dict)
    recovered: int = 0  # unreadable items of earlier syncs stored (or found gone) by this one
    unreadable: list[Unreadable] = field(default_factory=list)  # still unread after this sync
    # PR details: candidates found (before the cap), requests made for them (included in ``requests``), of
    # those 304s, and fetches that failed (retried by the next sync) or found nothing to read.
    detail_candidates: int = 0
    detail_requests: int = 0
    details_not_modified: int = 0
    details_failed: int = 0
    # The repository was renamed or transferred: GitHub redirects its old name here (the new full name, or the
    # URL it redirects to when the name could not be read). Synced all the same; said once in the line.
    moved_to: str | None = None

    def line(self) -> str:
        rate = f"{self.rate_remaining}/{self.rate_limit}" if self.rate_remaining is not None else "unknown"
        cached = f" ({self.not_modified} unchanged)" if self.not_modified else ""
        details = ""
        if self.detail_requests or self.details_failed:
            unchanged = f", {self.details_not_modified} unchanged" if self.details_not_modified else ""
            failed = f", {self.details_failed} failed" if self.details_failed else ""
            details = f" (of which {self.detail_requests} for PR details{unchanged}{failed})"
        moved = f"; {self.repo} moved to {self.moved_to}: update digest.toml" if self.moved_to else ""
        return (
            f"{self.repo}: {self.items} items, {self.comments} comments, {self.requests} requests{cached}{details},"
            f" rate limit left {rate}{unreadable_note(self.unreadable)}{moved}"
        )


def unreadable_note(unreadable: list[Unreadable], shown: int = 10) -> str:
    """``; 2 items could not be read (issue #7, comment 1234)``, or nothing when every item was read."""
    if not unreadable:
        return ""
    names = [
        (f"issue #{u.key}" if u.resource == "issues" else f"comment {u.key}")
        if u.key is not None
        else f"an unnumbered {'issue' if u.resource == 'issues' else 'comment'}"
        for u in unreadable
    ]
    more = f", {len(names) - shown} more" if len(names) > shown else ""
    noun = "item" if len(names) == 1 else "items"
    return f"; {len(names)} {noun} could not be read ({', '.join(names[:shown])}{more})"


@dataclass
class _Listing:
    resource: str
    cursor: datetime | None  # what the store had
    start: datetime  # the ``since`` asked for
    max_seen: datetime | None = None
    first_seen: dict[int, datetime] = field(default_factory=dict)
    repeats: dict[int, datetime] = field(default_factory=dict)
    pages: list[tuple[str, str, str | None]] = field(default_factory=list)
    reported: set[int] = field(default_factory=set)  # keys an earlier sync could not read
    change: UnreadableChange = field(default_factory=UnreadableChange)
    last_good: datetime | None = None  # newest updated_at read so far in this pass (pages are in that order)


class Syncer:
    def __init__(
        self,
        store: Store,
        client: GitHubClient,
        *,
        is_bot: Callable[[str], bool] = lambda login: login.endswith("[bot]"),
        lookback: timedelta = timedelta(days=30),
        overlap: timedelta = timedelta(seconds=120),
        progress: Progress | None = None,
        clock: Callable[[], datetime] = utcnow,
        taxonomy: Callable[[str], Taxonomy] | None = None,
        pr_details_max: int = 0,
    ) -> None:
        self.store = store
        self.client = client
        self.is_bot = is_bot
        self.lookback = lookback
        self.overlap = overlap
        self.progress = progress
        self.clock = clock
        self.taxonomy = taxonomy  # repo -> its taxonomy: topic matches are computed once here and stored
        self.pr_details_max = pr_details_max  # PR details fetched per sync (0: none; build_syncer: the setting)
        # Per repo (a worker syncs several at once with one Syncer): the PRs this sync stored, whose details
        # may be due; whether this sync has looked for the name a renamed repository goes by now.
        self._stored: dict[str, set[int]] = {}
        self._move_noted: set[str] = set()

    async def sync(self, repo: str, since: datetime | None = None) -> SyncReport:
        report = SyncReport(repo=repo)
        requests_before = self.client.requests_made
        self._stored[repo] = set()
        self._move_noted.discard(repo)
        try:
            seen_malformed: set[tuple[str, int]] = set()
            for resource in RESOURCES:
                await self._sync_listing(repo, resource, since, report, seen_malformed)
            await self._refetch(repo, report, seen_malformed)
            report.unreadable = self.store.unreadable(repo)
            report.reclassified = self._reclassify(repo)
            await self._pr_details(repo, report)
        finally:
            report.requests = self.client.requests_made - requests_before
            report.rate_remaining = self.client.rate_remaining
            report.rate_limit = self.client.rate_limit
            self._stored.pop(repo, None)
            self._move_noted.discard(repo)
        return report

    async def _note_move(self, repo: str, moved_to: str, data: list[dict[str, Any]], report: SyncReport) -> None:
        """GitHub redirected ``repo`` (renamed or transferred): find its new name and say it, once per sync."""
        if repo in self._move_noted:
            return
        self._move_noted.add(repo)
        name = next((found for payload in data if (found := _named_repo(payload))), None)
        if name is None and (match := _REPOSITORY_ID.search(moved_to)):
            try:
                found = await self.client.get_json(f"repositories/{match.group(1)}")
            except (RateLimited, BadCredentials, GitHubUnavailable):
                raise  # the whole sync's trouble
            except GitHubError as err:
                _log.info("%s: GitHub redirects it to %s, whose name it did not say: %s", repo, moved_to, err)
            else:
                full_name = found.get("full_name") if isinstance(found, dict) else None
                name = full_name if isinstance(full_name, str) and full_name.count("/") == 1 else None
        if name is not None and name.lower() == repo.lower():
            return  # not another name (GitHub's names are case-insensitive)
        report.moved_to = name or moved_to
        _log.warning("%s moved to %s: update digest.toml", repo, report.moved_to)

    def _reclassify(self, repo: str) -> int:
        """After topics.toml or the item-kind rules changed, re-match stored items a batch per sync, newest
        first, so digests and queries read stored matches and kinds again instead of working them out on every
        build."""
        if self.taxonomy is None:
            return 0
        taxonomy = self.taxonomy(repo)
        stale = self.store.stale_classified(repo, taxonomy.fingerprint, KINDS_KEY, RECLASSIFY_BATCH)
        self.store.save_topics([classify(taxonomy, item) for item in stale])
        return len(stale)

    async def _pr_details(self, repo: str, report: SyncReport) -> None:
        """Details of this sync's key-change candidates (see the module's docstring); never fails the sync."""
        if self.pr_details_max <= 0:
            return
        merged_since = parse_iso(report.since["issues"]) if "issues" in report.since else self.clock()
        wanted = [w for w in self.store.details_wanted(repo, self._stored.get(repo, ()), merged_since=merged_since)
                  if not self.is_bot(w.author)]
        report.detail_candidates = len(wanted)
        picked = wanted[: self.pr_details_max]
        self.store.mark_details_due(repo, [w.number for w in picked if not w.due])
        fetched: list[tuple[PullDetails, datetime]] = []
        settled: list[tuple[int, datetime]] = []
        etags: list[tuple[str, str]] = []
        try:
            for done, want in enumerate(picked, start=1):
                if not await self._pull(repo, want, report, fetched, settled, etags):
                    break  # GitHub's trouble, not this PR's: the rest stay due for the next sync
                if done % DETAILS_BATCH == 0:
                    self.store.save_pr_details(repo, fetched, settled, etags)
                    fetched, settled, etags = [], [], []
        finally:
            self.store.save_pr_details(repo, fetched, settled, etags)

    async def _pull(
        self, repo: str, want: DetailsWanted, report: SyncReport, fetched: list[tuple[PullDetails, datetime]],
        settled: list[tuple[int, datetime]], etags: list[tuple[str, str]],
    ) -> bool:
        """Fetch one PR's details into the lists; False when the whole sync's trouble says to stop asking."""
        path = f"repos/{repo}/pulls/{want.number}"
        cached = self.store.cached_page(self.client.url_for(path))
        requests_before = self.client.requests_made
        try:
            resource = await self.client.get_object(path, etag=cached[0] if cached else None)
        except _WHOLE_SYNC_TROUBLE as err:
            _log.warning("%s: PR details stopped at #%d, retried next sync: %s", repo, want.number, err)
            report.details_failed += 1
            return False
        except GitHubError as err:
            _log.info("%s: no details for PR #%d (%s); settled until it changes", repo, want.number, err)
            report.details_failed += 1
            settled.append((want.number, want.updated_at))
            return True
        finally:
            report.detail_requests += self.client.requests_made - requests_before
        if resource.moved_to is not None:
            await self._note_move(repo, resource.moved_to, [], report)
        if resource.status == 304 or resource.data is None:
            report.details_not_modified += 1
            settled.append((want.number, want.updated_at))
            return True
        try:
            fetched.append((pull_details_from_payload(want.number, resource.data), want.updated_at))
        except _PARSE_ERRORS as err:
            _log.warning("%s: could not read the details of PR #%d: %s", repo, want.number, err)
            report.details_failed += 1
            settled.append((want.number, want.updated_at))
            return True
        if resource.etag:
            etags.append((resource.url, resource.etag))
        return True

    async def _refetch(self, repo: str, report: SyncReport, seen_malformed: set[tuple[str, int]]) -> None:
        """Re-fetch alone the items earlier syncs could not read and this one's listings did not list again."""
        waiting = sorted(
            (u for u in self.store.unreadable(repo) if u.key is not None and (u.resource, u.key) not in seen_malformed),
            key=lambda u: u.last_seen_at or self.clock(),  # the longest unseen first
        )
        for resource, key in [(u.resource, u.key) for u in waiting[:REFETCH_LIMIT] if u.key is not None]:
            comments = resource == "comments"
            path = f"repos/{repo}/issues/comments/{key}" if comments else f"repos/{repo}/issues/{key}"
            resolved = [(repo, resource, key)]
            try:
                payload, moved_to = await self.client.fetch(path)
            except (RateLimited, BadCredentials, GitHubUnavailable):
                raise  # the whole sync's trouble, not this item's
            except GitHubError as err:
                if err.status in GONE:
                    _log.info("%s: unreadable %s %s is gone from GitHub (%s)", repo, resource, key, err.status)
                    self.store.save_page(resolved=resolved)
                    report.recovered += 1
                else:  # e.g. a 403 on this one item: keep reporting it rather than fail every sync
                    self.store.note_unreadable(repo, resource, key, str(err))
                continue
            elsewhere = _named_repo(payload) if moved_to is not None else None
            if elsewhere is not None and elsewhere.lower() not in {repo.lower(), (report.moved_to or "").lower()}:
                # Redirected to an item of another repository (an issue transferred there whose number happens to
                # be the same; another number is not followed at all): gone from this one.
                _log.info("%s: unreadable %s %s is now in %s", repo, resource, key, elsewhere)
                self.store.save_page(resolved=resolved)
                report.recovered += 1
                continue
            try:
                if comments:
                    self.store.save_page(comments=[comment_from_payload(repo, payload, self.is_bot)], resolved=resolved)
                    report.comments += 1
                else:
                    item = item_from_payload(repo, payload, self.is_bot)
                    if self.taxonomy is not None:
                        item = classify(self.taxonomy(repo), item)
                    self.store.save_page([item], resolved=resolved)
                    self._stored.setdefault(repo, set()).add(item.number)
                    report.items += 1
            except _PARSE_ERRORS as err:
                self.store.note_unreadable(repo, resource, key, str(err))
                continue
            report.recovered += 1

    async def _sync_listing(
        self, repo: str, resource: str, since: datetime | None, report: SyncReport,
        seen_malformed: set[tuple[str, int]],
    ) -> None:
        cursor = self.store.cursor(repo, resource)
        if since is not None:
            start = since
        elif cursor is not None:
            start = cursor - self.overlap
        else:
            start = self.clock() - self.lookback
        listing = _Listing(resource=resource, cursor=cursor, start=start)
        earlier = self.store.unreadable(repo, resource)
        listing.reported = {u.key for u in earlier if u.key is not None}
        holds = [u.hold for u in earlier if u.key is None and u.hold is not None]
        report.since[resource] = iso_z(start)
        try:
            # An item without a key is only seen again by listing it: a 304 page would hide whether it is fixed.
            await self._read(repo, listing, start, report, use_cache=not holds)
            if listing.repeats:
                # Items updated while we paged moved to the end and shifted the pages under us, so the item
                # at a page boundary may have been skipped. Re-read once from the earliest moved item.
                restart = min(listing.first_seen[key] for key in listing.repeats)
                _log.info(
                    "%s %s: %d item(s) moved while paging; re-reading from %s",
                    repo,
                    resource,
                    len(listing.repeats),
                    iso_z(restart),
                )
                listing.repeats.clear()
                # Unnumbered items listed from ``restart`` on are listed again by the re-read: count them once.
                listing.change.unkeyed = [(why, hold) for why, hold in listing.change.unkeyed if hold < restart]
                await self._read(repo, listing, restart, report, use_cache=False)
        except Exception as err:
            self.store.record_failure(repo, resource, str(err))
            raise
        # Only a listing that started at or before the old cursor covers the time up to it contiguously.
        contiguous = cursor is None or start <= cursor
        new_cursor = cursor
        if contiguous:
            candidates = [value for value in (cursor, listing.max_seen) if value is not None]
            new_cursor = max(candidates) if candidates else start
        change = listing.change
        change.replace_unkeyed = not holds or start <= min(holds)
        if change.unkeyed:
            # The next listing starts at cursor - overlap: hold the cursor so that it lists the item again.
            held = min(hold for _, hold in change.unkeyed) + self.overlap
            new_cursor = held if new_cursor is None else min(new_cursor, held)
        seen_malformed.update((resource, key) for key in change.found)
        self.store.complete_listing(
            repo, resource, new_cursor, listing.pages, synced_from=start if contiguous else None,
            unreadable=change,
        )

    async def _read(
        self, repo: str, listing: _Listing, start: datetime, report: SyncReport, *, use_cache: bool = True
    ) -> None:
        params: dict[str, Any] = {
            "since": iso_z(start),
            "sort": "updated",
            "direction": "asc",
            "per_page": 100,
        }
        if listing.resource == "issues":
            params["state"] = "all"
            path = f"repos/{repo}/issues"
        else:
            path = f"repos/{repo}/issues/comments"
        cached = self.store.cached_page if use_cache else None
        done = 0
        seen_in_pass: set[int] = set()
        listing.last_good = start
        async for page in self.client.paginate(path, params, cached=cached):
            done += 1
            if page.moved_to is not None:
                await self._note_move(repo, page.moved_to, page.data, report)
            if page.etag:
                listing.pages.append((page.url, page.etag, page.next_url))
            if page.status == 304:
                report.not_modified += 1
            else:
                self._save(repo, listing, page.data, report, seen_in_pass)
            if self.progress:
                self.progress(listing.resource, done, page.last_page)

    def _save(
        self, repo: str, listing: _Listing, data: list[dict[str, Any]], report: SyncReport, seen: set[int]
    ) -> None:
        items: list[ItemRecord] = []
        comments: list[CommentRecord] = []
        change = listing.change
        for payload in data:
            try:
                if listing.resource == "issues":
                    record: ItemRecord | CommentRecord = item_from_payload(repo, payload, self.is_bot)
                    key = record.number
                else:
                    record = comment_from_payload(repo, payload, self.is_bot)
                    key = record.id
            except _PARSE_ERRORS as err:
                report.skipped += 1
                known = item_key(payload) if listing.resource == "issues" else comment_key(payload)
                shown = "(no key)" if known is None else known
                _log.warning("%s: could not read %s %s: %s", repo, listing.resource, shown, err)
                if known is None:
                    # Pages are in updated_at order, so it was updated no earlier than the last item read.
                    change.unkeyed.append((str(err), listing.last_good or listing.start))
                else:
                    change.found[known] = str(err)  # the latest sighting wins
                    change.fixed.discard(known)
                continue
            if key in change.found or key in listing.reported:
                change.found.pop(key, None)
                change.fixed.add(key)
            if listing.last_good is None or record.updated_at > listing.last_good:
                listing.last_good = record.updated_at
            if key in seen:
                listing.repeats.setdefault(key, record.updated_at)
            else:
                seen.add(key)
                listing.first_seen.setdefault(key, record.updated_at)
            if listing.max_seen is None or record.updated_at > listing.max_seen:
                listing.max_seen = record.updated_at
            if isinstance(record, ItemRecord):
                items.append(record)
            else:
                comments.append(record)
        # A page may list an item twice when it moved while we paged; keep the newest version.
        items = list({item.number: item for item in sorted(items, key=lambda i: i.updated_at)}.values())
        if self.taxonomy is not None and items:
            taxonomy = self.taxonomy(repo)
            items = [classify(taxonomy, item) for item in items]
        comments = list({c.id: c for c in sorted(comments, key=lambda c: c.updated_at)}.values())
        self.store.save_page(items, comments)
        self._stored.setdefault(repo, set()).update(item.number for item in items if item.is_pr)
        report.items += len(items)
        report.comments += len(comments)


def _named_repo(payload: Any) -> str | None:
    """The ``owner/name`` an item or comment payload says it belongs to (``repository_url``, the API ``url`` or
    ``issue_url``, else the web ``html_url``); None when it says none."""
    if not isinstance(payload, dict):
        return None
    for name, pattern in (("repository_url", _API_REPO), ("issue_url", _API_REPO), ("url", _API_REPO),
                          ("html_url", _WEB_REPO)):
        value = payload.get(name)
        match = pattern.search(value) if isinstance(value, str) else None
        if match:
            return match.group(1)
    return None
