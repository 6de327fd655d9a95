"""An item's kinds (the failure a bug report describes, the kind of change a PR makes) are worked out once by
the sync and read back by digests; stored kinds from other rules are never trusted."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from msgspec import structs

from bot.demo.fake_github import FakeGitHub
from bot.github.client import GitHubClient
from bot.github.payloads import item_from_payload
from bot.github.sync import Syncer
from bot.settings import load_settings
from bot.store.records import ItemRecord
from bot.store.store import Store
from bot.topics.catalog import taxonomy_for_sync
from bot.topics.kind_rules import bug_kind_of, change_kind_of
from bot.topics.kinds import KINDS_KEY, bug_kind, change_kind, with_kinds
from tests.factories import issue_payload, item_record

ROOT = Path(__file__).resolve().parents[1]
DAYS = sorted((ROOT / "tests" / "data" / "editorial" / "days").glob("*.json"))
NOW = datetime(2025, 12, 2, tzinfo=UTC)


def day_items(path: Path) -> list[ItemRecord]:
    day = json.loads(path.read_text())
    return [item_from_payload(day["repo"], payload, lambda _: False) for payload in day["issues"]]


@pytest.mark.parametrize("path", DAYS[:4], ids=lambda p: p.stem)
def test_stored_kinds_are_what_the_rules_say(path: Path) -> None:
    items = day_items(path)
    assert len(items) > 50
    for item in items:
        stored = with_kinds(item)
        assert stored.kinds_key == KINDS_KEY
        assert bug_kind(stored) == bug_kind_of(item)
        assert change_kind(stored) == (change_kind_of(item) if item.is_pr else (None, ""))


def test_stored_kinds_are_read_and_stale_ones_recomputed() -> None:
    crash = item_record(1, NOW, title="[Bug] Server crashes on startup")
    assert bug_kind(crash) == "crash"  # nothing stored: worked out
    stored = structs.replace(crash, bug_kind="hang", kinds_key=KINDS_KEY)
    assert bug_kind(stored) == "hang"  # read, not worked out again (the build's whole point)
    assert bug_kind(structs.replace(stored, kinds_key="older-rules")) == "crash"
    pr = item_record(2, NOW, title="[Perf] 2x faster sampler", pr=True)
    assert change_kind(pr) == ("speedup", "2x")
    assert change_kind(structs.replace(pr, change_kind="internal", change_value="", kinds_key=KINDS_KEY)) == (
        "internal", "")


async def test_the_sync_stores_kinds_that_the_store_reads_back(store: Store, tmp_path: Path) -> None:
    shutil.copy(ROOT / "config" / "topics.toml", tmp_path)
    (tmp_path / "digest.toml").write_text('[[repos]]\nname = "o/r"\n')
    settings = load_settings(tmp_path, env={})
    fake = FakeGitHub()
    fake.add_repo("o/r", [issue_payload(1, NOW - timedelta(hours=1), title="[Bug] vLLM hangs with TP=2"),
                          issue_payload(2, NOW - timedelta(hours=2), title="[Model] Add Gemma 4", pr=True)], [])
    async with GitHubClient(transport=httpx.MockTransport(fake.handler)) as client:
        await Syncer(store, client, clock=lambda: NOW, taxonomy=taxonomy_for_sync(settings)).sync("o/r")
    hang, model = store.item("o/r", 1), store.item("o/r", 2)
    assert hang is not None and model is not None
    assert (hang.kinds_key, hang.bug_kind, hang.change_kind) == (KINDS_KEY, "hang", None)
    assert (model.kinds_key, model.bug_kind, model.change_kind, model.change_value) == (
        KINDS_KEY, None, "new_model", "")
    window = store.window_activity("o/r", NOW - timedelta(days=1), NOW).items
    assert window[1].bug_kind == "hang" and window[2].kinds_key == KINDS_KEY  # the digest's read keeps them
