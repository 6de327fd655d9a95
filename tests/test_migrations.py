"""Schema versions: a new store is created at the latest version; an older one runs only the later steps and
keeps its rows (SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, func, inspect, select

from bot.github.payloads import item_from_payload
from bot.store import schema
from bot.store.db import MIGRATIONS, SCHEMA_VERSION, migrate
from bot.store.store import Store
from tests.factories import issue_payload

STEPS = [version for version, _ in MIGRATIONS]  # in order; a number may be skipped (another branch's step)


def versions(store: Store) -> list[int]:
    with store.engine.connect() as conn:
        return list(conn.execute(select(schema.schema_version.c.version).order_by("version")).scalars())


def test_a_new_store_is_stamped_with_the_latest_version(store: Store) -> None:
    assert versions(store) == [SCHEMA_VERSION]
    assert migrate(store.engine) == SCHEMA_VERSION  # opening again changes nothing


def test_a_version_1_store_upgrades_and_keeps_its_rows(store: Store) -> None:
    store.save_page([item_from_payload("o/r", issue_payload(1, datetime(2025, 12, 1, tzinfo=UTC)), lambda _: False)])
    with store.engine.begin() as conn:  # back to what version 1 had
        for table in (schema.unreadable, schema.topic_days, schema.llm_cache, schema.mutes):
            table.drop(conn)
        for table, name in ((schema.items, "ix_items_repo_author"), (schema.comments,
                                                                      "ix_comments_repo_number_created")):
            next(index for index in table.indexes if index.name == name).drop(conn)
        conn.execute(delete(schema.schema_version))
        conn.execute(schema.schema_version.insert().values(version=1, applied_at=datetime.now(UTC)))

    assert migrate(store.engine) == 1
    assert versions(store) == STEPS
    with store.engine.connect() as conn:
        found = inspect(conn)
        assert all(found.has_table(t.name) for t in (schema.mutes, schema.llm_cache, schema.topic_days,
                                                     schema.unreadable))
        assert "ix_items_repo_author" in {index["name"] for index in found.get_indexes("items")}
        assert "ix_comments_repo_number_created" in {index["name"] for index in found.get_indexes("comments")}
        assert conn.execute(select(func.count()).select_from(schema.items)).scalar_one() == 1


def test_a_version_4_store_gets_the_post_request_column_and_keeps_its_ledger(store: Store) -> None:
    from sqlalchemy import text

    from bot.delivery.ledger import DeliveryKey, Ledger

    key = DeliveryKey("slack", "C1", "o/r", "channel", datetime(2025, 6, 1, 3, 5, tzinfo=UTC))
    with store.engine.begin() as conn:  # back to what version 4 had: no deliveries.request
        conn.execute(text("ALTER TABLE deliveries DROP COLUMN request"))
        conn.execute(delete(schema.schema_version))
        conn.execute(schema.schema_version.insert().values(version=4, applied_at=datetime.now(UTC)))
        conn.execute(schema.deliveries.insert().values(  # only the columns version 4 had
            platform="slack", target="C1", repo="o/r", kind="channel", window_start=key.window_start,
            window_end=key.window_start, status="sent", claimed_by="old", claimed_at=key.window_start, attempts=1,
            parts_sent=1, message_ids=["1.1"]))
    with store.engine.connect() as conn:
        assert "request" not in {c["name"] for c in inspect(conn).get_columns("deliveries")}

    assert migrate(store.engine) == 4
    assert versions(store) == [4, *(step for step in STEPS if step > 4)]
    with store.engine.connect() as conn:
        assert "request" in {c["name"] for c in inspect(conn).get_columns("deliveries")}
    ledger = Ledger(store)
    row = ledger.get(key)
    assert row is not None and row.status == "sent" and row.message_ids == ("1.1",) and row.request is None
    post = DeliveryKey("slack", "C1", "o/r", "post:x", key.window_start)
    assert ledger.claim(post, key.window_start, request={"v": 1, "text": "rocm"}) is not None
    stored = ledger.get(post)
    assert stored is not None and stored.request == {"v": 1, "text": "rocm"}


def test_a_version_5_store_gets_comment_associations_and_confirmations_and_keeps_its_comments(
    store: Store,
) -> None:
    from sqlalchemy import text

    from bot.github.payloads import comment_from_payload
    from tests.factories import comment_payload

    moment = datetime(2025, 12, 1, 4, tzinfo=UTC)
    with store.engine.begin() as conn:  # back to what version 5 had: no comments.author_association, .confirms
        conn.execute(text("ALTER TABLE comments DROP COLUMN author_association"))
        conn.execute(text("ALTER TABLE comments DROP COLUMN confirms"))
        conn.execute(delete(schema.schema_version))
        conn.execute(schema.schema_version.insert().values(version=5, applied_at=datetime.now(UTC)))
        conn.execute(  # only the columns version 5 had (the table's insert() would name the new one)
            text("INSERT INTO comments (repo, id, number, author, author_is_bot, created_at, updated_at, body,"
                 " reactions) VALUES ('o/r', 1, 7, 'maint', :no, :at, :at, 'Same here', 0)"),
            {"no": False, "at": moment.replace(tzinfo=None)},
        )
    with store.engine.connect() as conn:
        assert not {"author_association", "confirms"} & {c["name"] for c in inspect(conn).get_columns("comments")}

    assert migrate(store.engine) == 5
    assert versions(store) == [5, *(step for step in STEPS if step > 5)]
    with store.engine.connect() as conn:
        assert {"author_association", "confirms"} <= {c["name"] for c in inspect(conn).get_columns("comments")}
    window = (moment - timedelta(hours=1), moment + timedelta(hours=1))
    old = store.window_activity("o/r", *window).discussions[7]
    # Unknown until the sync reads the comment again: nobody's a maintainer, nothing confirms.
    assert (old.last_author, old.last_association, old.maintainer, old.confirmations) == ("maint", "", False, 0)
    resynced = comment_payload(1, 7, moment, user="maint", association="MEMBER", body="Same here")
    store.save_page(comments=[comment_from_payload("o/r", resynced, lambda _: False)])
    again = store.window_activity("o/r", *window).discussions[7]
    assert (again.last_association, again.maintainer, again.confirmations) == ("MEMBER", True, 1)


def test_a_version_5_store_gets_the_channels_thread_column_and_keeps_its_channels(store: Store) -> None:
    from sqlalchemy import text

    from bot.store.chat import ChannelSettings, ChatState

    chat = ChatState(store)
    chat.save_channel(ChannelSettings("slack", "C1", repo="o/r", topics=("rocm",)))
    with store.engine.begin() as conn:  # back to what version 5 had: no channels.thread
        conn.execute(text("ALTER TABLE channels DROP COLUMN thread"))
        conn.execute(delete(schema.schema_version))
        conn.execute(schema.schema_version.insert().values(version=5, applied_at=datetime.now(UTC)))

    assert migrate(store.engine) == 5
    assert versions(store) == [5, *(step for step in STEPS if step > 5)] and SCHEMA_VERSION >= 8
    kept = chat.channel("slack", "C1")
    assert kept is not None and kept.topics == ("rocm",) and kept.thread is None  # short, the default
    chat.save_channel(ChannelSettings("slack", "C1", repo="o/r", thread="full"))
    assert (chat.channel("slack", "C1") or kept).thread == "full"


def test_a_version_5_store_gets_the_pr_details_columns_and_keeps_its_items(store: Store) -> None:
    from sqlalchemy import text

    store.save_page([item_from_payload("o/r", issue_payload(1, datetime(2025, 12, 1, tzinfo=UTC), pr=True),
                                       lambda _: False)])
    with store.engine.begin() as conn:  # back to what version 5 had: no details columns
        conn.execute(text("DROP INDEX ix_items_repo_details_due"))
        for name in ("additions", "deletions", "changed_files", "review_comments", "details_updated_at",
                     "details_due"):
            conn.execute(text(f"ALTER TABLE items DROP COLUMN {name}"))
        conn.execute(delete(schema.schema_version))
        conn.execute(schema.schema_version.insert().values(version=5, applied_at=datetime.now(UTC)))

    assert migrate(store.engine) == 5
    assert versions(store) == [5, *(step for step in STEPS if step > 5)]
    with store.engine.connect() as conn:
        found = inspect(conn)
        assert {"additions", "deletions", "changed_files", "review_comments", "details_updated_at",
                "details_due"} <= {column["name"] for column in found.get_columns("items")}
        assert "ix_items_repo_details_due" in {index["name"] for index in found.get_indexes("items")}
    item = store.item("o/r", 1)
    assert item is not None and item.additions is None and not item.details_due


def test_a_version_8_store_gets_webhook_deliveries_and_live_alerts_and_keeps_its_items(store: Store) -> None:
    from sqlalchemy import text

    store.save_page([item_from_payload("o/r", issue_payload(1, datetime(2025, 12, 1, tzinfo=UTC)), lambda _: False)])
    with store.engine.begin() as conn:  # back to what version 8 had: no webhook_deliveries, alerts, first_seen_at
        schema.webhook_deliveries.drop(conn)
        schema.alerts.drop(conn)
        conn.execute(text("DROP INDEX ix_items_repo_first_seen"))
        conn.execute(text("ALTER TABLE items DROP COLUMN first_seen_at"))
        conn.execute(delete(schema.schema_version))
        conn.execute(schema.schema_version.insert().values(version=8, applied_at=datetime.now(UTC)))

    assert migrate(store.engine) == 8
    assert versions(store) == [8, *(step for step in STEPS if step > 8)]
    with store.engine.connect() as conn:
        found = inspect(conn)
        assert found.has_table("webhook_deliveries") and found.has_table("alerts")
        assert "first_seen_at" in {column["name"] for column in found.get_columns("items")}
        assert "ix_items_repo_first_seen" in {index["name"] for index in found.get_indexes("items")}
        # Items stored before read no first sighting: live alerts never announce them.
        assert conn.execute(select(schema.items.c.first_seen_at)).scalar_one() is None
    store.save_page([item_from_payload("o/r", issue_payload(2, datetime(2025, 12, 2, tzinfo=UTC)), lambda _: False)])
    with store.engine.connect() as conn:
        seen = dict(conn.execute(select(schema.items.c.number, schema.items.c.first_seen_at)).all())
    assert seen[1] is None and seen[2] is not None


def test_a_version_8_store_gets_the_workspace_columns_and_keeps_its_channels_and_subscriptions(store: Store) -> None:
    from sqlalchemy import text

    from bot.store.chat import ChannelSettings, ChatState

    chat = ChatState(store)
    chat.save_channel(ChannelSettings("slack", "C1", repo="o/r", thread="full"))
    chat.subscribe("slack", "U1", "rocm", repo="o/r", post_time="09:00", timezone="UTC", locale="en")
    with store.engine.begin() as conn:  # back to what version 8 had: no team_id columns, no indexes on them
        for table, index in (("channels", "ix_channels_team"), ("subscriptions", "ix_subscriptions_team")):
            conn.execute(text(f"DROP INDEX {index}"))
            conn.execute(text(f"ALTER TABLE {table} DROP COLUMN team_id"))
        conn.execute(delete(schema.schema_version))
        conn.execute(schema.schema_version.insert().values(version=8, applied_at=datetime.now(UTC)))

    assert migrate(store.engine) == 8
    assert versions(store) == [8, *(step for step in STEPS if step > 8)]
    with store.engine.connect() as conn:
        found = inspect(conn)
        assert "team_id" in {column["name"] for column in found.get_columns("channels")}
        assert "ix_subscriptions_team" in {index["name"] for index in found.get_indexes("subscriptions")}
    kept = chat.channel("slack", "C1")
    assert kept is not None and kept.thread == "full" and kept.team_id is None  # single-workspace rows stay so
    assert chat.team_of("slack", "C1", dm=False) is None
    chat.save_channel(ChannelSettings("slack", "C1", repo="o/r", team_id="T2"))
    chat.subscribe("slack", "U1", "rocm", repo="o/r", post_time="09:00", timezone="UTC", locale="en", team_id="T2")
    assert chat.team_of("slack", "C1", dm=False) == "T2" and chat.team_of("slack", "U1", dm=True) == "T2"
    assert chat.pause_workspace("slack", "T2") == (1, 1)
    assert chat.pause_workspace("slack", "T2") == (0, 0)  # once
    assert chat.resume_workspace("slack", "T2") == (1, 1)


def test_a_version_8_store_gets_item_kinds_and_works_them_out_until_the_sync_stores_them(store: Store) -> None:
    from sqlalchemy import text

    from bot.topics.kinds import KINDS_KEY, bug_kind

    moment = datetime(2025, 12, 1, tzinfo=UTC)
    store.save_page([item_from_payload("o/r", issue_payload(1, moment, title="[Bug] Engine crashes"), lambda _: False)])
    with store.engine.begin() as conn:  # back to what version 8 had: no kinds
        for column in ("bug_kind", "change_kind", "change_value", "kinds_key"):
            conn.execute(text(f"ALTER TABLE items DROP COLUMN {column}"))
        conn.execute(delete(schema.schema_version))
        conn.execute(schema.schema_version.insert().values(version=8, applied_at=datetime.now(UTC)))

    assert migrate(store.engine) == 8
    assert versions(store) == [8, *(step for step in STEPS if step > 8)]
    old = store.item("o/r", 1)
    assert old is not None and old.kinds_key == "" and old.bug_kind is None
    assert bug_kind(old) == "crash"  # worked out from the words, as before the sync stores it
    assert KINDS_KEY


def test_a_version_12_store_gets_removed_items_and_keeps_its_items(store: Store) -> None:
    from bot.store.records import RemovedItem
    from bot.store.store import remove_items

    for number in (1, 2):
        store.save_page([item_from_payload("o/r", issue_payload(number, datetime(2025, 12, 1, tzinfo=UTC)),
                                           lambda _: False)])
    with store.engine.begin() as conn:  # back to what version 12 had: no removed_items
        schema.removed_items.drop(conn)
        conn.execute(delete(schema.schema_version))
        conn.execute(schema.schema_version.insert().values(version=12, applied_at=datetime.now(UTC)))

    assert migrate(store.engine) == 12
    assert versions(store) == [12, *(step for step in STEPS if step > 12)]
    with store.engine.connect() as conn:
        assert inspect(conn).has_table("removed_items")
        assert conn.execute(select(func.count()).select_from(schema.items)).scalar_one() == 2
    with store.engine.begin() as conn:
        remove_items(conn, [RemovedItem("o/r", 2, "deleted")], datetime.now(UTC))
    assert store.item("o/r", 1) is not None and store.item("o/r", 2) is None
    gone = store.removed_item("o/r", 2)
    assert gone is not None and gone.reason == "deleted"


def test_a_version_13_store_gets_alert_pauses_and_keeps_its_alerts(store: Store) -> None:
    from sqlalchemy import text

    from bot.store.alerts import AlertState

    alerts = AlertState(store)
    alerts.add("slack", "U1", dm=True, query="rocm", repo="o/r", locale="en", timezone="UTC")
    with store.engine.begin() as conn:  # back to what version 13 had: no paused, notice_pending, team_id on alerts
        for column in ("paused", "notice_pending", "team_id"):
            conn.execute(text(f"ALTER TABLE alerts DROP COLUMN {column}"))
        conn.execute(delete(schema.schema_version))
        conn.execute(schema.schema_version.insert().values(version=13, applied_at=datetime.now(UTC)))

    assert migrate(store.engine) == 13
    assert versions(store) == [13, *(step for step in STEPS if step > 13)]
    (kept,) = alerts.active()  # stored before: active, nobody to tell, no workspace (single-workspace mode)
    assert (kept.query, kept.paused, kept.notice_pending, kept.team_id) == ("rocm", None, False, None)
    assert alerts.pause("slack", "U1", "dms_closed") == 1 and alerts.active() == []
    assert alerts.take_pause_notice("slack", "U1") == "dms_closed"
    assert alerts.take_pause_notice("slack", "U1") is None
    alerts.add("slack", "U1", dm=True, query="rocm", repo="o/r", locale="en", timezone="UTC", team_id="T2")
    (resumed,) = alerts.active()
    assert resumed.team_id == "T2" and resumed.paused is None


def test_a_version_14_store_gets_text_facts_and_works_them_out_until_the_sync_stores_them(store: Store) -> None:
    from sqlalchemy import text

    from bot.digest.facts import item_facts

    moment = datetime(2025, 12, 1, tzinfo=UTC)
    body = "Serving on 8xH200 with `vllm serve Qwen/Qwen3-235B-A22B --tensor-parallel-size 8` hangs at start."
    store.save_page([item_from_payload("o/r", issue_payload(1, moment, title="[Bug] Engine hangs", body=body),
                                       lambda _: False)])
    with store.engine.begin() as conn:  # back to what version 14 had: no text_facts
        conn.execute(text("ALTER TABLE items DROP COLUMN text_facts"))
        conn.execute(delete(schema.schema_version))
        conn.execute(schema.schema_version.insert().values(version=14, applied_at=datetime.now(UTC)))

    assert migrate(store.engine) == 14
    assert versions(store) == [14, *(step for step in STEPS if step > 14)]
    old = store.item("o/r", 1)
    assert old is not None and old.text_facts is None and old.body == body
    facts = item_facts(old)  # worked out from the body, as before the sync stores them
    assert facts is not None and facts.hardware == ("H200",) and facts.parallel == ("TP=8",)
