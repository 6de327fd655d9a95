"""Tables (SQLAlchemy Core). Times are stored as naive UTC and come back aware, on SQLite and PostgreSQL alike."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    TypeDecorator,
    UniqueConstraint,
)


class UTCDateTime(TypeDecorator[datetime]):
    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: object) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the store; use aware UTC datetimes")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: object) -> datetime | None:
        return None if value is None else value.replace(tzinfo=UTC)


metadata = MetaData()

schema_version = Table(
    "schema_version",
    metadata,
    Column("version", Integer, primary_key=True),
    Column("applied_at", UTCDateTime, nullable=False),
)

items = Table(
    "items",
    metadata,
    Column("repo", String(200), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(8), nullable=False),  # issue | pr
    Column("title", Text, nullable=False),
    Column("author", String(100), nullable=False),
    Column("author_is_bot", Boolean, nullable=False, default=False),
    Column("author_association", String(40), nullable=False, default=""),
    Column("labels", JSON, nullable=False),
    Column("state", String(8), nullable=False),  # open | closed
    Column("state_reason", String(20)),
    Column("draft", Boolean, nullable=False, default=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    Column("closed_at", UTCDateTime),
    Column("merged_at", UTCDateTime),
    Column("comment_count", Integer, nullable=False, default=0),
    Column("reactions", Integer, nullable=False, default=0),
    Column("thumbs_up", Integer, nullable=False, default=0),
    Column("url", Text, nullable=False),
    Column("summary", Text, nullable=False, default=""),
    Column("topics", JSON),  # [[topic id, score, [reasons]]], computed at sync time
    Column("topics_key", String(40), nullable=False, default=""),  # the taxonomy's fingerprint
    # bot.topics.kinds, computed at sync time with the rules fingerprinted by kinds_key ("" or another: stale)
    Column("bug_kind", String(20)),
    Column("change_kind", String(20)),
    Column("change_value", String(40)),
    Column("kinds_key", String(40)),
    # bot.topics.text_facts (schema 15), worked out with the kinds: {ItemFacts field: value}; null: not yet
    Column("text_facts", JSON),
    # A PR's details from GET /pulls/{n} (schema 7), written only by the sync's details step: a listing's upsert
    # leaves them as they are. details_updated_at: the item's updated_at they were read at; details_due: picked
    # for a fetch that has not succeeded yet (the next sync retries it).
    Column("additions", Integer),
    Column("deletions", Integer),
    Column("changed_files", Integer),
    Column("review_comments", Integer),
    Column("details_updated_at", UTCDateTime),
    Column("details_due", Boolean),
    # When this store first held the item (schema 10), by webhook or poll, never changed by later writes: live
    # alerts announce what arrived since their last batch, whenever GitHub says it was created.
    Column("first_seen_at", UTCDateTime),
    # The long texts last: SQLite reads a row's columns in order, so every column after a 20 KB body paid for
    # walking its overflow pages (a month's search: ~8% of its SQL). A store created before keeps its order:
    # columns are read by name.
    Column("prose", Text, nullable=False, default=""),
    Column("body", Text, nullable=False, default=""),
    Index("ix_items_repo_created", "repo", "created_at"),
    Index("ix_items_repo_closed", "repo", "closed_at"),
    Index("ix_items_repo_merged", "repo", "merged_at"),
    Index("ix_items_repo_author", "repo", "author", "created_at"),  # first-time contributors (covering)
    Index("ix_items_repo_details_due", "repo", "details_due"),  # PR details to retry
    Index("ix_items_repo_first_seen", "repo", "first_seen_at"),  # live alerts: what arrived since a batch
)

comments = Table(
    "comments",
    metadata,
    Column("repo", String(200), primary_key=True),
    Column("id", BigInteger, primary_key=True, autoincrement=False),
    Column("number", Integer, nullable=False),
    Column("author", String(100), nullable=False),
    Column("author_is_bot", Boolean, nullable=False, default=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    Column("reactions", Integer, nullable=False, default=0),
    # GitHub's, as on items: tells the project's people (hot discussions) from everyone else
    Column("author_association", String(40), nullable=False, default=""),
    Column("confirms", Boolean, nullable=False, default=False),  # a short "+1" / "same here", read at sync time
    # Truncated (the narrative reads discussions, not archives), and last, as on items: the columns a window's
    # counts read come before it.
    Column("body", Text, nullable=False, default=""),
    Index("ix_comments_repo_created", "repo", "created_at"),
    Index("ix_comments_repo_number", "repo", "number"),
    Index("ix_comments_repo_number_created", "repo", "number", "created_at"),  # hot streaks: recent days only
)

# One row per (repo, listing): the cursor only moves when a listing completed.
sync_state = Table(
    "sync_state",
    metadata,
    Column("repo", String(200), primary_key=True),
    Column("resource", String(20), primary_key=True),  # issues | comments
    Column("cursor", UTCDateTime),
    Column("synced_from", UTCDateTime),  # activity before this was never asked for
    Column("last_success_at", UTCDateTime),
    Column("last_error", Text),
)

# ETag and Link "next" per URL, so a 304 page can still be followed to the next one.
http_cache = Table(
    "http_cache",
    metadata,
    Column("url", String(1000), primary_key=True),
    Column("etag", String(200), nullable=False),
    Column("next_url", String(1000)),
    Column("stored_at", UTCDateTime, nullable=False),
)

# Per-channel settings written by "/digest channel …"; the config file gives defaults for unset fields.
channels = Table(
    "channels",
    metadata,
    Column("platform", String(16), primary_key=True),  # slack | discord
    Column("channel_id", String(64), primary_key=True),
    Column("repo", String(200)),
    Column("post_time", String(5)),
    Column("timezone", String(64)),
    Column("locale", String(8)),
    Column("topics", JSON),  # the topic ids it follows, or null for the repository's default_topics
    Column("enabled", Boolean, nullable=False, default=True),
    Column("status", String(200)),  # why delivery stopped (channel_not_found, …), null when fine
    Column("updated_at", UTCDateTime, nullable=False),
    Column("updated_by", String(64)),
    Column("thread", String(8)),  # short | full: what its posts' threads carry; null: short (schema version 8)
    # The workspace it belongs to (schema 11): a Slack team id, a Discord guild id; null: single-workspace mode
    # or saved before. Posts use that workspace's token; an uninstalled workspace's channels are paused.
    Column("team_id", String(32)),
    Index("ix_channels_team", "platform", "team_id"),
)

# Daily DMs: "/digest subscribe rocm at 09:00 tz Asia/Shanghai".
subscriptions = Table(
    "subscriptions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("platform", String(16), nullable=False),
    Column("user_id", String(64), nullable=False),
    Column("query", String(500), nullable=False),
    Column("repo", String(200)),
    Column("post_time", String(5), nullable=False),
    Column("timezone", String(64), nullable=False),
    Column("locale", String(8), nullable=False),
    Column("paused", String(200)),  # why DMs stopped (dms_closed, …), null when active
    Column("notice_pending", Boolean, nullable=False, default=False),  # tell the user once, next time
    Column("created_at", UTCDateTime, nullable=False),
    Column("team_id", String(32)),  # the workspace subscribed from (schema 11): its token sends the DMs
    UniqueConstraint("platform", "user_id", "query", name="uq_subscription"),
    Index("ix_subscriptions_team", "platform", "team_id"),
)

# Requests already handled (Slack trigger ids, Discord interaction ids): a platform's retry of the same
# request, on any process, finds its key here and does nothing. Pruned after a day.
handled_requests = Table(
    "handled_requests",
    metadata,
    Column("key", String(200), primary_key=True),
    Column("created_at", UTCDateTime, nullable=False),
)

# Scheduled deliveries (channel digests, daily DMs): one row per (platform, target, repo, kind, window_start).
# The row is the claim that makes a delivery happen once across processes, restarts and retries; the message
# ids are recorded one by one as the platform accepts them, so a takeover resumes after them
# (bot/delivery/ledger.py, docs/delivery.md).
deliveries = Table(
    "deliveries",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("platform", String(16), nullable=False),
    Column("target", String(64), nullable=False),  # channel id | user id
    Column("repo", String(200), nullable=False),
    Column("kind", String(40), nullable=False),  # channel | dm:<query key> | post:<question key>
    Column("window_start", UTCDateTime, nullable=False),
    Column("window_end", UTCDateTime, nullable=False),
    Column("status", String(8), nullable=False),  # claimed | sent | failed | skipped
    Column("claimed_by", String(200), nullable=False),  # pid@host/instance of the last claimer
    Column("claimed_at", UTCDateTime, nullable=False),
    Column("lease_until", UTCDateTime),  # claimed: others may take over after it; failed: retry not before it
    Column("attempts", Integer, nullable=False, default=1),  # claims so far; also the fencing token
    Column("parts_sent", Integer, nullable=False, default=0),
    Column("message_ids", JSON, nullable=False),
    Column("last_error", Text),
    Column("completed_at", UTCDateTime),
    # post:* rows: what the answer was built from (PostRequest.to_json), so the worker can finish the post
    Column("request", JSON),
    UniqueConstraint("platform", "target", "repo", "kind", "window_start", name="uq_delivery"),
    Index("ix_deliveries_status", "status"),
    Index("ix_deliveries_window", "window_start"),
)

# "/digest mute rocm 7d": a topic left out of a channel's digests or a user's DMs, until ``until`` (null: for
# good, until unmuted).
mutes = Table(
    "mutes",
    metadata,
    Column("platform", String(16), primary_key=True),
    Column("scope", String(8), primary_key=True),  # channel | user
    Column("target", String(64), primary_key=True),  # channel id | user id
    Column("topic", String(64), primary_key=True),
    Column("until", UTCDateTime),
    Column("created_at", UTCDateTime, nullable=False),
    Column("created_by", String(64)),
)

# LLM answers by content hash of (model, prompt): re-running a digest costs no new calls.
llm_cache = Table(
    "llm_cache",
    metadata,
    Column("key", String(64), primary_key=True),  # sha256 hex
    Column("model", String(200), nullable=False),
    Column("output", Text, nullable=False),
    Column("prompt_tokens", Integer, nullable=False, default=0),
    Column("completion_tokens", Integer, nullable=False, default=0),
    Column("created_at", UTCDateTime, nullable=False),
    Index("ix_llm_cache_created", "created_at"),
)

# Per-topic item counts of whole past days (the narrative's baselines), by taxonomy and bot-list fingerprint.
# Only days the sync had fully covered are kept, so a row never changes; a new taxonomy gets new rows.
topic_days = Table(
    "topic_days",
    metadata,
    Column("repo", String(200), primary_key=True),
    Column("day_start", UTCDateTime, primary_key=True),
    Column("day_seconds", Integer, primary_key=True, autoincrement=False),
    Column("key", String(80), primary_key=True),
    Column("counts", JSON, nullable=False),  # {topic id: items}
    Column("computed_at", UTCDateTime, nullable=False),
)

# Items a sync could not read (malformed payloads), one row each until a later sync stores them (or GitHub says
# they are gone): ``digest-bot status`` and the sync's report line show them. ``key`` is the issue number or the
# comment id; a negative key is an item whose key could not be read either, and ``hold`` is the ``since`` the
# listing must start at or before to see it again (the listing's cursor is held there until it is read).
unreadable = Table(
    "unreadable",
    metadata,
    Column("repo", String(200), primary_key=True),
    Column("resource", String(20), primary_key=True),  # issues | comments
    Column("key", BigInteger, primary_key=True, autoincrement=False),
    Column("error", Text, nullable=False),
    Column("hold", UTCDateTime),
    Column("first_seen_at", UTCDateTime, nullable=False),
    Column("last_seen_at", UTCDateTime, nullable=False),
    Column("attempts", Integer, nullable=False, default=1),  # times seen malformed (in listings or alone)
)

# GitHub webhook deliveries (schema 9), by X-GitHub-Delivery: the raw body is stored before it is applied, so a
# delivery GitHub sends twice is applied once and one that fails to apply is retried by the worker, never lost.
webhook_deliveries = Table(
    "webhook_deliveries",
    metadata,
    Column("delivery_id", String(64), primary_key=True),
    Column("event", String(40), nullable=False),
    Column("action", String(40), nullable=False, default=""),
    Column("repo", String(200)),  # as the store spells it; null: not a followed repository
    Column("received_at", UTCDateTime, nullable=False),
    Column("body", Text, nullable=False),
    Column("status", String(8), nullable=False),  # pending | applied | ignored | failed
    Column("applied_at", UTCDateTime),
    Column("attempts", Integer, nullable=False, default=0),
    Column("last_error", Text),
    Index("ix_webhook_deliveries_status", "status", "received_at"),
    Index("ix_webhook_deliveries_repo", "repo", "received_at"),
)

# Issues GitHub says are gone from a repository (schema 13): deleted, or transferred to another (``moved_to``,
# "owner/name#number"). Their rows in ``items`` and ``comments`` are deleted with them, and no later write (a poll,
# a late delivery, a comment) stores them again: issue numbers are never reused, so the mark is for good.
removed_items = Table(
    "removed_items",
    metadata,
    Column("repo", String(200), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("reason", String(12), nullable=False),  # deleted | transferred
    Column("moved_to", String(220)),  # a transferred issue's new place, when the delivery said it
    Column("removed_at", UTCDateTime, nullable=False),  # when the store learnt it
)

# Live alerts (schema 10): "/digest subscribe rocm live" (a DM) and "/digest channel alert rocm" (a channel).
# New matching issues and PRs are sent in at most one message a minute per target, through the delivery ledger
# (kind "alert", window = the batch), so each batch arrives once.
alerts = Table(
    "alerts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("platform", String(16), nullable=False),
    Column("target", String(64), nullable=False),  # user id (a DM) | channel id
    Column("dm", Boolean, nullable=False),
    Column("query", String(500), nullable=False),
    Column("repo", String(200)),
    Column("locale", String(8), nullable=False),
    Column("timezone", String(64), nullable=False),
    Column("created_by", String(64)),
    Column("created_at", UTCDateTime, nullable=False),
    # Schema 13: why a DM alert stopped (the platform refused to message the user: dms_closed, cannot_dm_bot…),
    # null when active, and whether the user is still to be told; the workspace it was made in (its token sends).
    Column("paused", String(200)),
    Column("notice_pending", Boolean, nullable=False, default=False),
    Column("team_id", String(32)),
    UniqueConstraint("platform", "target", "dm", "query", name="uq_alert"),
)
