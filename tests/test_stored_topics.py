"""Topic matches computed once by the sync, reused by digests and searches while the taxonomy is unchanged."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
from msgspec import structs

from bot.demo.fake_github import FakeGitHub
from bot.github.client import GitHubClient
from bot.github.sync import Syncer, SyncReport
from bot.settings import Settings, load_settings
from bot.store.store import Store
from bot.topics.catalog import load_taxonomy, taxonomy_for_sync
from bot.topics.items import item_topics
from tests.factories import issue_payload

ROOT = Path(__file__).resolve().parents[1]
NOW = datetime(2025, 12, 2, tzinfo=UTC)


def _settings(folder: Path, repo_keys: str = "") -> Settings:
    shutil.copy(ROOT / "config" / "topics.toml", folder)
    (folder / "digest.toml").write_text('[[repos]]\nname = "o/r"\n' + repo_keys)
    return load_settings(folder, env={})


async def _sync(store: Store, fake: FakeGitHub, settings: Settings) -> SyncReport:
    async with GitHubClient(transport=httpx.MockTransport(fake.handler)) as client:
        return await Syncer(store, client, clock=lambda: NOW, taxonomy=taxonomy_for_sync(settings)).sync("o/r")


async def test_sync_stores_matches_that_digests_reuse(store: Store, tmp_path: Path) -> None:
    (tmp_path / "extra.toml").write_text('[[topic]]\nid = "widgets"\nname = "Widgets"\nkeywords = ["widget"]\n')
    settings = _settings(tmp_path, 'topics_file = "extra.toml"\n')
    fake = FakeGitHub()
    fake.add_repo("o/r", [issue_payload(1, NOW - timedelta(hours=1), title="[ROCm] Fix the widget on MI300X"),
                          issue_payload(2, NOW - timedelta(days=3), title="The widget breaks")], [])
    await _sync(store, fake, settings)
    item = store.item("o/r", 1)
    taxonomy = load_taxonomy(settings, "o/r")
    assert item.topics_key == taxonomy.fingerprint
    stored = item_topics(taxonomy, item)
    assert {m.topic_id for m in stored} >= {"rocm", "widgets"}  # the repository's own topic file counts
    recomputed = item_topics(taxonomy, structs.replace(item, topics_key="stale"))
    assert [(m.topic_id, m.score, m.evidence) for m in stored] == [(m.topic_id, m.score, m.evidence)
                                                                   for m in recomputed]
    assert all(m.evidence for m in stored)  # the stored evidence reads back typed
    # A changed taxonomy is noticed: its fingerprint differs, so stored matches are not trusted.
    (tmp_path / "extra.toml").write_text('[[topic]]\nid = "widgets"\nname = "W"\nkeywords = ["gizmo"]\n')
    changed = load_taxonomy(settings, "o/r")
    assert changed.fingerprint != taxonomy.fingerprint
    assert "widgets" not in {m.topic_id for m in item_topics(changed, item)}
    # The next sync re-matches stored items with the new taxonomy: #1 as it is re-read (the cursor's overlap),
    # #2, untouched on GitHub, from the store.
    report = await _sync(store, fake, settings)
    assert report.items == 1 and report.reclassified == 1
    for number in (1, 2):
        again = store.item("o/r", number)
        assert again.topics_key == changed.fingerprint and "widgets" not in {t for t, _, _ in again.topics}
    report = await _sync(store, fake, settings)
    assert report.reclassified == 0


async def test_items_stored_with_older_kind_rules_are_redone_by_the_next_sync(store: Store, tmp_path: Path) -> None:
    """A release that changes bot.topics.kind_rules changes KINDS_KEY: the next syncs re-do the stored kinds
    a batch at a time, so digests read them again instead of importing and running the rules for each item."""
    from sqlalchemy import update

    from bot.store import schema
    from bot.topics.kinds import KINDS_KEY

    settings = _settings(tmp_path)
    fake = FakeGitHub()
    fake.add_repo("o/r", [issue_payload(1, NOW - timedelta(hours=1), title="[Bug]: server hangs on startup"),
                          issue_payload(2, NOW - timedelta(days=3), title="[Bug]: segfault in the sampler")], [])
    await _sync(store, fake, settings)
    assert [store.item("o/r", n).bug_kind for n in (1, 2)] == ["hang", "crash"]
    with store.engine.begin() as conn:  # as an older release stored them
        conn.execute(update(schema.items).values(kinds_key="older-rules", bug_kind=None))
        conn.execute(update(schema.items).where(schema.items.c.number == 2).values(kinds_key=None))
    report = await _sync(store, fake, settings)
    assert report.reclassified >= 1  # #2, untouched on GitHub, from the store (#1 as it is re-read)
    again = [store.item("o/r", n) for n in (1, 2)]
    assert [(i.kinds_key, i.bug_kind) for i in again] == [(KINDS_KEY, "hang"), (KINDS_KEY, "crash")]


ENV_BODY = """### Your current environment
<details><summary>collect_env</summary>

```
vLLM Version: 0.11.1
GPU models and configuration:
GPU 0: NVIDIA H200
GPU 1: NVIDIA H200
```
</details>

### 🐛 Describe the bug
Serving Qwen/Qwen3-32B with `vllm serve Qwen/Qwen3-32B --tensor-parallel-size 2` hangs after the first request.
It worked in v0.10.2.

```
Traceback (most recent call last):
  File "x.py", line 1, in <module>
RuntimeError: CUDA error: an illegal memory access was encountered
```
"""


async def test_text_facts_are_stored_by_the_sync_and_read_back_as_worked_out(store: Store, tmp_path: Path) -> None:
    """The sync stores what an item's text says (error, hardware, version, model, parallelism, sentence) with
    its kinds; a digest's window read leaves the raw body out for those items and reads the same facts back,
    and works them out from the body for an item stored under older rules until the next sync re-does it."""
    from sqlalchemy import update

    from bot.digest.facts import forget, item_facts
    from bot.store import schema
    from bot.topics.kinds import KINDS_KEY
    from bot.topics.text_facts import text_facts_of

    settings = _settings(tmp_path)
    fake = FakeGitHub()
    fake.add_repo("o/r", [issue_payload(1, NOW - timedelta(hours=1), title="[Bug]: server hangs", body=ENV_BODY),
                          issue_payload(2, NOW - timedelta(hours=2), title="[Bug]: slow", body=ENV_BODY)], [])
    await _sync(store, fake, settings)
    stored = store.item("o/r", 1)
    assert stored.kinds_key == KINDS_KEY and stored.text_facts is not None
    worked_out = text_facts_of(stored)
    assert dict(stored.text_facts) == worked_out
    assert worked_out["hardware"] == ("H200",) and worked_out["version"] == "0.11.1"
    assert worked_out["error"].startswith("RuntimeError: CUDA error")
    assert worked_out["models"] == ("Qwen/Qwen3-32B",) and worked_out["parallel"] == ("TP=2",)

    with store.engine.begin() as conn:  # #2 as an older release stored it
        conn.execute(update(schema.items).where(schema.items.c.number == 2)
                     .values(kinds_key="older-rules", text_facts=None))
    window = (NOW - timedelta(days=1), NOW)
    activity = store.window_activity("o/r", *window, kinds_key=KINDS_KEY)
    fresh, stale = activity.items[1], activity.items[2]
    assert fresh.body == "" and stale.body == stored.body  # the body only where the facts are not stored
    forget()
    assert item_facts(fresh, activity) == item_facts(stale, activity) == item_facts(stored, activity)
    assert item_facts(fresh, activity).hardware == ("H200",)

    report = await _sync(store, fake, settings)
    assert report.reclassified >= 1
    again = store.item("o/r", 2)
    assert again.kinds_key == KINDS_KEY and dict(again.text_facts or ()) == worked_out
