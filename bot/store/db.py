"""Engine creation, schema versioning and the dialect-aware upsert every writer shares."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import (
    Connection,
    Engine,
    Index,
    Table,
    create_engine,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    tuple_,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

from bot.errors import ConfigError
from bot.redact import Redactor, url_credentials
from bot.store import schema
from bot.timeutil import utcnow

_log = logging.getLogger(__name__)

# Ordered, append-only. Each step runs once, in one transaction, and bumps schema_version. A new store is
# created from today's tables in one go and stamped with the latest version (no steps run); an older store runs
# the steps after its version. Steps create the tables and indexes they introduced by name, from today's
# definitions, so a later step that alters one of them must check what exists first (or this moves to Alembic).
Migration = Callable[[Connection], None]


def _initial_schema(conn: Connection) -> None:
    for table in (schema.items, schema.comments, schema.sync_state, schema.http_cache, schema.channels,
                  schema.subscriptions, schema.handled_requests, schema.deliveries):
        table.create(conn, checkfirst=True)


def _narrative_tables(conn: Connection) -> None:
    schema.mutes.create(conn, checkfirst=True)
    schema.llm_cache.create(conn, checkfirst=True)
    for name in ("ix_items_repo_author", "ix_comments_repo_number_created"):  # first-timers, hot streaks
        _index(name).create(conn, checkfirst=True)


def _topic_days(conn: Connection) -> None:
    schema.topic_days.create(conn, checkfirst=True)


def _index(name: str) -> Index:
    return next(index for table in schema.metadata.tables.values() for index in table.indexes if index.name == name)


def _unreadable(conn: Connection) -> None:
    schema.unreadable.create(conn, checkfirst=True)


def _post_requests(conn: Connection) -> None:
    # deliveries.request: step 1 creates the table from today's definition, so the column may exist already.
    if "request" in {column["name"] for column in inspect(conn).get_columns(schema.deliveries.name)}:
        return
    column_type = schema.deliveries.c.request.type.compile(dialect=conn.dialect)
    conn.execute(text(f"ALTER TABLE {schema.deliveries.name} ADD COLUMN request {column_type}"))


def _comment_associations(conn: Connection) -> None:
    # comments.author_association and comments.confirms: step 1 creates the table from today's definition, so
    # they may exist already. Comments stored before read "" (nobody's a maintainer) and false (no "+1") until
    # the sync sees them again.
    existing = {column["name"] for column in inspect(conn).get_columns(schema.comments.name)}
    for name, default in (("author_association", "''"), ("confirms", "false")):
        if name not in existing:
            column_type = schema.comments.c[name].type.compile(dialect=conn.dialect)
            conn.execute(
                text(f"ALTER TABLE {schema.comments.name} ADD COLUMN {name} {column_type} NOT NULL DEFAULT {default}")
            )


def _channel_thread(conn: Connection) -> None:
    # channels.thread (short | full): like step 5, step 1 may have created the table with it already.
    _add_column(conn, schema.channels, "thread")


def _add_column(conn: Connection, table: Table, name: str) -> None:
    """``ALTER TABLE … ADD COLUMN`` of ``table.c[name]`` as today's schema defines it, unless it is there."""
    if name in {column["name"] for column in inspect(conn).get_columns(table.name)}:
        return
    column_type = table.c[name].type.compile(dialect=conn.dialect)
    conn.execute(text(f"ALTER TABLE {table.name} ADD COLUMN {name} {column_type}"))


def _pr_details(conn: Connection) -> None:
    # items: step 1 creates the table from today's definition, so the columns may exist already.
    _add_columns(conn, schema.items, ("additions", "deletions", "changed_files", "review_comments",
                                      "details_updated_at", "details_due"))
    _index("ix_items_repo_details_due").create(conn, checkfirst=True)


def _add_columns(conn: Connection, table: Table, names: Sequence[str]) -> None:
    """Add the named columns, as today's definition has them, where the table lacks them (all nullable)."""
    present = {column["name"] for column in inspect(conn).get_columns(table.name)}
    for name in names:
        if name not in present:
            column_type = table.c[name].type.compile(dialect=conn.dialect)
            conn.execute(text(f"ALTER TABLE {table.name} ADD COLUMN {name} {column_type}"))


def _webhook_deliveries(conn: Connection) -> None:
    schema.webhook_deliveries.create(conn, checkfirst=True)


def _live_alerts(conn: Connection) -> None:
    # items.first_seen_at: rows stored before read null, so nothing older than this step is ever announced.
    _add_columns(conn, schema.items, ("first_seen_at",))
    _index("ix_items_repo_first_seen").create(conn, checkfirst=True)
    schema.alerts.create(conn, checkfirst=True)


def _item_kinds(conn: Connection) -> None:
    # items: step 1 creates the table from today's definition, so the columns may exist already. Items stored
    # before have no kinds_key: a digest works their kinds out as it reads them, the sync stores them next time.
    _add_columns(conn, schema.items, ("bug_kind", "change_kind", "change_value", "kinds_key"))


def _workspaces(conn: Connection) -> None:
    # channels.team_id, subscriptions.team_id (many Slack workspaces, many Discord guilds): rows stored before
    # read null, the single workspace of SLACK_BOT_TOKEN.
    _add_columns(conn, schema.channels, ("team_id",))
    _add_columns(conn, schema.subscriptions, ("team_id",))
    for name in ("ix_channels_team", "ix_subscriptions_team"):
        _index(name).create(conn, checkfirst=True)


def _removed_items(conn: Connection) -> None:
    # Deleted and transferred issues: nothing was marked before, so nothing to fill in.
    schema.removed_items.create(conn, checkfirst=True)


def _alert_pauses(conn: Connection) -> None:
    # alerts.paused, alerts.notice_pending: a user whose DMs refuse the bot has their live alerts paused like
    # their daily DMs (never retried batch after batch); alerts.team_id: the workspace an alert was made in (its
    # token sends it). Rows stored before read active, not to be told, and no workspace (single-workspace mode).
    _add_columns(conn, schema.alerts, ("paused", "team_id"))
    if "notice_pending" not in {column["name"] for column in inspect(conn).get_columns(schema.alerts.name)}:
        column_type = schema.alerts.c.notice_pending.type.compile(dialect=conn.dialect)
        conn.execute(text(f"ALTER TABLE {schema.alerts.name} ADD COLUMN notice_pending {column_type} "
                          "NOT NULL DEFAULT false"))


def _text_facts(conn: Connection) -> None:
    # items.text_facts: rows stored before read null (and their kinds_key is an older one): a digest works their
    # facts out as it reads them, and the sync stores them a batch per sync.
    _add_columns(conn, schema.items, ("text_facts",))


MIGRATIONS: list[tuple[int, Migration]] = [
    (1, _initial_schema), (2, _narrative_tables), (3, _topic_days), (4, _unreadable), (5, _post_requests),
    (6, _comment_associations), (7, _pr_details), (8, _channel_thread), (9, _item_kinds),
    (10, _webhook_deliveries), (11, _live_alerts), (12, _workspaces), (13, _removed_items), (14, _alert_pauses),
    (15, _text_facts),
]
SCHEMA_VERSION = MIGRATIONS[-1][0]


def create_store_engine(url: str) -> Engine:
    try:
        parsed = make_url(url)
    except ArgumentError:
        shown = Redactor(url_credentials(url))(url)  # unparsable, so found by hand: never echo its password
        raise ConfigError(f"store URL {shown!r} is not a SQLAlchemy URL (e.g. sqlite:///data/bot.db)") from None
    # JSON columns (labels, topic matches, text facts: thousands a digest or a month's search) read by orjson, a
    # third of json's time; written by json as before.
    kwargs: dict[str, Any] = {"json_deserializer": orjson.loads}
    if parsed.get_backend_name() == "sqlite" and parsed.database and parsed.database != ":memory:":
        Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        kwargs["connect_args"] = {"timeout": 30}
    elif parsed.get_backend_name() == "postgresql":
        kwargs["pool_pre_ping"] = True
    try:
        engine = create_engine(parsed, **kwargs)
    except (NoSuchModuleError, ImportError) as err:
        raise ConfigError(
            f"no database driver for {parsed.drivername!r} ({err}); for PostgreSQL: pip install 'digest-bot[postgres]'"
        ) from None
    if parsed.get_backend_name() == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


MMAP_BYTES = 1 << 30


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # WAL lets the web process read while the worker writes.
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    # Reads map the file instead of copying each page through read(): a month's search or a day's digest reads
    # thousands of pages (~15% of a 30-day query's SQL, bench_cli). A year of a busy repository is ~450 MB;
    # past 1 GiB, pages are read as before. Writes are unchanged (WAL).
    cursor.execute(f"PRAGMA mmap_size={MMAP_BYTES}")
    cursor.close()


def migrate(engine: Engine) -> int:
    """Bring the schema to ``SCHEMA_VERSION``; returns the version found before."""
    try:
        with engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                # Workers starting together on one database: one creates or migrates, the others wait, then
                # find it done (released at commit).
                conn.execute(text("SELECT pg_advisory_xact_lock(hashtext('digest-bot:migrate:' || current_schema()))"))
            schema.schema_version.create(conn, checkfirst=True)
            current = conn.execute(select(func.max(schema.schema_version.c.version))).scalar() or 0
            if current > SCHEMA_VERSION:
                raise ConfigError(
                    f"the database is at schema version {current}, newer than this digest-bot ({SCHEMA_VERSION}):"
                    " upgrade digest-bot"
                )
            if current == 0 and not inspect(conn).has_table(schema.items.name):
                _log.info("creating a new store at schema version %d", SCHEMA_VERSION)
                schema.metadata.create_all(conn, checkfirst=True)
                conn.execute(insert(schema.schema_version).values(version=SCHEMA_VERSION, applied_at=utcnow()))
                return current
            for version, step in MIGRATIONS:
                if version > current:
                    _log.info("migrating store to schema version %d", version)
                    step(conn)
                    conn.execute(insert(schema.schema_version).values(version=version, applied_at=utcnow()))
            return current
    except DBAPIError as err:
        raise ConfigError(f"cannot open the store at {engine.url.render_as_string()}: {err.orig}") from None


def upsert(
    conn: Connection, table: Table, rows: Sequence[dict[str, Any]], keys: Sequence[str],
    *, keep: Sequence[str] = (), insert_only: Mapping[str, Any] | None = None, newer_only: str | None = None,
) -> None:
    """Insert or update by primary key, idempotently, in the caller's transaction. ``keep``: columns whose
    stored value a row's None does not overwrite (what another writer fills in, such as a PR's details).
    ``insert_only``: values a new row gets that an update never changes (when the store first saw it).
    ``newer_only``: a column (``updated_at``) a row must not be older in to replace the stored one (webhook
    deliveries arrive out of order and late)."""
    if not rows:
        return
    dialect = conn.dialect.name
    if dialect in ("sqlite", "postgresql"):
        # Imported here, by writers only: the PostgreSQL dialect's module alone is a tenth of a read command's
        # start-up on SQLite.
        import importlib

        module: Any = importlib.import_module(f"sqlalchemy.dialects.{dialect}")
        stmt = module.insert(table)
        updates = {
            name: func.coalesce(stmt.excluded[name], table.c[name]) if name in keep else stmt.excluded[name]
            for name in rows[0]
            if name not in keys
        }
        if insert_only:
            rows = [{**row, **insert_only} for row in rows]
        where = table.c[newer_only] <= stmt.excluded[newer_only] if newer_only else None
        # executemany: one cached statement; SQLAlchemy batches it into multi-row VALUES itself.
        conn.execute(stmt.on_conflict_do_update(index_elements=list(keys), set_=updates, where=where), list(rows))
        return
    if insert_only:
        rows = [{**row, **insert_only} for row in rows]
    # Portable fallback: delete then insert, inside the same transaction.
    key_cols = [table.c[name] for name in keys]
    key_values = [tuple(row[name] for name in keys) for row in rows]
    conn.execute(table.delete().where(tuple_(*key_cols).in_(key_values)))
    conn.execute(insert(table), list(rows))
