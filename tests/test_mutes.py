"""Muted topics: the store (SQLite and PostgreSQL), the item topics a muted search is filtered by, and the
mute notices in both locales."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from msgspec import structs

from bot.app.notices import Muted, MuteView, Unmuted
from bot.app.notices import Mutes as MutesNotice
from bot.github.payloads import item_from_payload
from bot.settings import Settings, load_settings
from bot.store import schema
from bot.store.mutes import CHANNEL, USER, Mutes
from bot.store.store import Store
from bot.topics.catalog import load_taxonomy
from bot.topics.items import classify, stored_topic_ids
from formatters.notices import render_notice
from formatters.safety import discord_markdown, slack_mrkdwn
from tests.factories import issue_payload

ROOT = Path(__file__).resolve().parents[1]
NOW = datetime(2025, 12, 2, 4, 0, tzinfo=UTC)


def test_mute_list_unmute_per_platform_scope_and_target(store: Store) -> None:
    mutes = Mutes(store)
    mutes.mute("slack", CHANNEL, "C1", "rocm", NOW + timedelta(days=7), "U1", now=NOW)
    mutes.mute("slack", CHANNEL, "C1", "cuda", None, "U1", now=NOW)
    mutes.mute("slack", USER, "U1", "qwen", None, "U1", now=NOW)
    mutes.mute("discord", CHANNEL, "C1", "moe", None, "U9", now=NOW)
    assert mutes.active("slack", CHANNEL, "C1", NOW) == {"cuda": None, "rocm": NOW + timedelta(days=7)}
    assert mutes.active("slack", USER, "U1", NOW) == {"qwen": None}
    assert mutes.active("slack", CHANNEL, "C2", NOW) == {}
    assert mutes.active("discord", CHANNEL, "C1", NOW) == {"moe": None}
    until = mutes.active("slack", CHANNEL, "C1", NOW)["rocm"]
    assert until is not None and until.tzinfo is not None and until.utcoffset() == timedelta(0)  # aware UTC
    assert mutes.active_all(USER, NOW) == {("slack", "U1"): {"qwen": None}}
    assert set(mutes.active_all(CHANNEL, NOW)) == {("slack", "C1"), ("discord", "C1")}

    # Muting again replaces the duration (an upsert, not a second row).
    mutes.mute("slack", CHANNEL, "C1", "rocm", None, "U2", now=NOW)
    assert mutes.active("slack", CHANNEL, "C1", NOW)["rocm"] is None

    assert mutes.unmute("slack", CHANNEL, "C1", "rocm", now=NOW) == 1
    assert mutes.unmute("slack", CHANNEL, "C1", "rocm", now=NOW) == 0
    assert mutes.unmute("slack", CHANNEL, "C1", None, now=NOW) == 1  # all: cuda
    assert mutes.active("slack", CHANNEL, "C1", NOW) == {}
    assert mutes.active("slack", USER, "U1", NOW) == {"qwen": None}  # other scopes untouched
    assert mutes.active("discord", CHANNEL, "C1", NOW) == {"moe": None}  # other platforms untouched
    with pytest.raises(ValueError, match="scope"):
        mutes.mute("slack", "guild", "G1", "rocm", None, now=NOW)


def test_an_expired_mute_has_no_effect_and_is_pruned(store: Store) -> None:
    mutes = Mutes(store)
    mutes.mute("slack", CHANNEL, "C1", "rocm", NOW + timedelta(hours=24), "U1", now=NOW)
    assert mutes.active("slack", CHANNEL, "C1", NOW + timedelta(hours=23, minutes=59)) == {
        "rocm": NOW + timedelta(hours=24)}
    later = NOW + timedelta(hours=24)  # ``until`` itself: over
    assert mutes.active("slack", CHANNEL, "C1", later) == {}
    assert mutes.active_all(CHANNEL, later) == {}
    assert mutes.unmute("slack", CHANNEL, "C1", None, now=later) == 0  # nothing active was lifted
    mutes.mute("slack", CHANNEL, "C1", "cuda", NOW - timedelta(minutes=1), "U1", now=NOW)  # born expired
    mutes.mute("slack", CHANNEL, "C1", "qwen", None, "U1", now=NOW)  # the next mute prunes the expired rows
    with store.engine.connect() as conn:
        topics = sorted(row.topic for row in conn.execute(schema.mutes.select()))
    assert topics == ["qwen"]


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    shutil.copy(ROOT / "config" / "topics.toml", tmp_path)
    (tmp_path / "digest.toml").write_text('[[repos]]\nname = "o/r"\n')
    return load_settings(tmp_path, env={})


def test_item_topics_come_from_the_sync_when_current_and_are_matched_again_when_not(store: Store,
                                                                                   settings: Settings) -> None:
    taxonomy = load_taxonomy(settings, "o/r", restrict=False)
    rocm = item_from_payload("o/r", issue_payload(1, NOW, title="[ROCm] MI300X hangs"), lambda login: False)
    cuda = item_from_payload("o/r", issue_payload(2, NOW, title="[CUDA] H100 crash"), lambda login: False)
    # Stored matches under the current fingerprint are trusted as they are (here: deliberately "wrong")...
    stored = structs.replace(classify(taxonomy, rocm), topics=(("qwen", 9, ("stored",)),))
    # ...while matches under an older fingerprint are recomputed.
    stale = structs.replace(classify(taxonomy, cuda), topics=(("qwen", 9, ("old",)),), topics_key="old-fingerprint")
    store.save_page([stored, stale])
    found, current = stored_topic_ids(store, taxonomy, "o/r", [1, 2, 3])
    assert found[1] == ("qwen",) and not current
    assert "cuda" in found[2] and "qwen" not in found[2]
    assert 3 not in found  # not in the store
    assert stored_topic_ids(store, taxonomy, "o/r", []) == ({}, True)


@pytest.mark.parametrize("escape", [slack_mrkdwn, discord_markdown])
def test_mute_notices_render_in_both_locales_with_local_times_and_escaped_values(escape: object) -> None:
    mutes = [MuteView("rocm", "AMD / ROCm", "2025-12-09 12:00"), MuteView("<!channel>", "<@U1>", None)]
    zone = "Asia/Shanghai"
    notices = {
        "muted": Muted(personal=False, timezone=zone, mute=mutes[0]),
        "mutes": MutesNotice(personal=False, timezone=zone, mutes=tuple(mutes)),
        "none": MutesNotice(personal=True, timezone=zone, mutes=()),
        "unmuted": Unmuted(personal=False, timezone=zone, topic=None, removed=2, mutes=tuple(mutes[:1])),
        "not_muted": Unmuted(personal=False, timezone=zone, topic="<@U2>", removed=0, mutes=()),
    }
    rendered = {
        locale: {name: render_notice(notice, locale=locale, escape=escape)  # type: ignore[arg-type]
                 for name, notice in notices.items()}
        for locale in ("en", "zh-CN")
    }
    en, zh = rendered["en"], rendered["zh-CN"]
    assert en["muted"].startswith("Muted in this channel's digests: rocm (AMD / ROCm) until 2025-12-09 12:00 "
                                  "(Asia/Shanghai)")
    assert "until unmuted" in en["mutes"] and "Nothing is muted in your daily DMs" in en["none"]
    assert en["unmuted"].startswith("Unmuted all 2 topics") and "Still muted: rocm" in en["unmuted"]
    assert zh["muted"].startswith("已在本频道的摘要中屏蔽：rocm（AMD / ROCm），直到 2025-12-09 12:00（Asia/Shanghai）")
    assert "直到取消屏蔽" in zh["mutes"] and "你的每日私信中没有屏蔽任何主题" in zh["none"]
    assert zh["unmuted"].startswith("已在本频道的摘要中取消屏蔽全部 2 个主题") and "仍在屏蔽：rocm" in zh["unmuted"]
    assert "并未被屏蔽" in zh["not_muted"]
    for text in (*en.values(), *zh.values()):
        assert "<!channel>" not in text and "<@U1>" not in text and "<@U2>" not in text


def test_slack_asks_who_is_an_admin_only_for_commands_that_change_a_channel() -> None:
    from bot.commands.grammar import parse_command
    from bot.platforms.slack_app import changes_channel

    assert changes_channel(parse_command("mute rocm 7d")) and changes_channel(parse_command("unmute all"))
    assert changes_channel(parse_command("channel time 10:00"))
    for text in ("mute", "mute rocm for me", "unmute all for me", "channel", "rocm", "subscribe rocm"):
        assert not changes_channel(parse_command(text)), text
