"""`digest-bot demo` keeps its store where the other commands find it (never over a real store), refreshes it in
one transaction, and says what to try next: commands that answer from it."""

from __future__ import annotations

import json
import shlex
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

from bot.cli import main
from bot.demo import run as demo
from bot.demo.run import APART, DEMO_MARK, SAMPLE_END, fillable, install, kept_store, made_by_demo, run_demo
from bot.settings import Settings, load_settings
from bot.store.store import Store
from bot.timeutil import utcnow
from tests.factories import issue_payload

DEFAULT = Path("data/digest-bot.sqlite3")
ISSUE_LINK = "](https://github.com/vllm-project/vllm/issues/"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh working directory with no ./config and no store configured: the packaged defaults."""
    monkeypatch.chdir(tmp_path)
    for name in ("DATABASE_URL", "DIGEST_BOT_CONFIG", "GITHUB_API_URL", "GITHUB_TOKEN", "LLM_BASE_URL", "LLM_MODEL"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def settings(**env: str) -> Settings:
    return load_settings(env=env)


def small_store(path: Path, *, numbers: range = range(1, 4), mark: bool = False) -> None:
    """A store holding a few items (as a sync leaves them); ``mark``: marked as the demo's."""
    from bot.github.payloads import item_from_payload
    from bot.settings import is_bot_login

    with Store.open(f"sqlite:///{path}") as store:
        now = utcnow()
        store.save_page([item_from_payload("o/r", issue_payload(n, now - timedelta(hours=n)), is_bot_login)
                         for n in numbers])
    if mark:
        with sqlite3.connect(path) as conn:
            conn.execute(f"PRAGMA application_id = {DEMO_MARK}")
        conn.close()


def item_count(path: Path) -> int:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT count(*) FROM items").fetchone()[0])
    finally:
        conn.close()


# --- where: the default store when the demo may fill it, else apart ---


def test_the_default_store_when_absent_empty_or_the_demos(here: Path) -> None:
    assert kept_store(settings()).path == (here / DEFAULT) and kept_store(settings()).apart == ""  # absent
    Store.open(f"sqlite:///{DEFAULT}").close()  # `digest-bot status` on a fresh machine: a store with no rows
    assert fillable(here / DEFAULT) and kept_store(settings()).apart == ""
    (here / DEFAULT).unlink()
    small_store(here / DEFAULT, mark=True)  # a demo's
    assert made_by_demo(here / DEFAULT) and kept_store(settings()).path == here / DEFAULT


def test_never_a_real_store_nor_a_configured_one(here: Path) -> None:
    small_store(here / DEFAULT)  # synced for real: never filled by the demo
    assert not fillable(here / DEFAULT)
    assert kept_store(settings()) == demo.KeptStore(here / APART, "taken")
    # A configured store (even an empty one) is left alone: the demo's goes apart…
    assert kept_store(settings(DATABASE_URL=f"sqlite:///{here / 'mine.sqlite3'}")).apart == "configured"
    assert kept_store(settings(DATABASE_URL="postgresql://u@127.0.0.1:9/x")) == demo.KeptStore(here / APART,
                                                                                              "configured")
    # …unless it is the demo's own (DATABASE_URL naming it, as the demo's hint says).
    small_store(here / "kept.sqlite3", mark=True)
    assert kept_store(settings(DATABASE_URL=f"sqlite:///{here / 'kept.sqlite3'}")) == demo.KeptStore(
        here / "kept.sqlite3")
    # Not a database at all: someone else's file.
    (here / APART).parent.mkdir(exist_ok=True)
    (here / APART).write_text("my notes\n")
    assert not fillable(here / APART) and kept_store(settings()).path is None


def test_with_the_default_and_the_place_apart_taken_the_demo_says_so(here: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    small_store(here / DEFAULT)
    small_store(here / APART)
    before = (here / DEFAULT).read_bytes(), (here / APART).read_bytes()
    assert main(["demo"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == (f"digest-bot: {here / APART} holds a store the demo did not make, and so does the store "
                           "in use: move it away, then run digest-bot demo again")
    assert ((here / DEFAULT).read_bytes(), (here / APART).read_bytes()) == before


# --- refreshed in one transaction ---


def test_a_refresh_is_one_transaction_readers_see_old_or_new(tmp_path: Path) -> None:
    target, built = tmp_path / "store.sqlite3", tmp_path / "built.sqlite3"
    small_store(target, numbers=range(1, 4), mark=True)
    small_store(built, numbers=range(1, 11))
    reader = sqlite3.connect(target, isolation_level=None)  # a `query` reading while the demo refreshes
    reader.execute("BEGIN")
    assert reader.execute("SELECT count(*) FROM items").fetchone()[0] == 3
    install(built, target)
    assert reader.execute("SELECT count(*) FROM items").fetchone()[0] == 3  # its snapshot: the old store whole
    reader.execute("COMMIT")
    assert reader.execute("SELECT count(*) FROM items").fetchone()[0] == 10  # then the new one whole
    reader.close()
    assert item_count(target) == 10 and made_by_demo(target)
    with sqlite3.connect(target) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    with Store.open(f"sqlite:///{target}") as store:  # and the bot opens it as any store
        assert store.last_synced("o/r") is None


def test_a_failure_while_building_leaves_the_old_store(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    small_store(here / DEFAULT, mark=True)
    before = (here / DEFAULT).read_bytes()

    async def broken(*args: object) -> object:
        raise OSError("disk full")

    monkeypatch.setattr(demo, "_sync", broken)
    with pytest.raises(OSError, match="disk full"):
        run_demo(fmt="json", locale=None, settings=settings(), info=lambda _: None, now=SAMPLE_END,
                 keep=here / DEFAULT)
    assert sorted(p.name for p in (here / "data").iterdir()) == ["digest-bot.sqlite3"]  # no temporary file left
    assert (here / DEFAULT).read_bytes() == before and item_count(here / DEFAULT) == 3


# --- the demo end to end: kept, refreshed, and what to try next works ---


def next_commands(err: str) -> list[str]:
    lines = err.splitlines()
    start = next(i for i, line in enumerate(lines) if "the demo's store is kept at" in line)
    return [line.strip() for line in lines[start + 1:start + 4]]


def run_hint(command: str, here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> str:
    """A hinted command line run through ``main`` as a shell would: NAME=value first, ``> file`` last."""
    words = shlex.split(command)
    while "=" in words[0]:
        name, value = words.pop(0).split("=", 1)
        monkeypatch.setenv(name, value)
    target = None
    if ">" in words:
        target = here / words[words.index(">") + 1]
        words = words[:words.index(">")]
    assert words[0] == "digest-bot"
    assert main(words[1:]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    if target is not None:
        target.write_text(out, encoding="utf-8")
    return out


def test_demo_keeps_its_store_and_the_next_three_commands_answer_from_it(  # type: ignore[no-untyped-def]
        here: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    assert main(["demo", "--format", "json"]) == 0  # today's world: no --end
    out, err = capsys.readouterr()
    assert json.loads(out)["stats"]["new_prs"] > 50
    assert f"the demo's store is kept at {here / DEFAULT}, where digest, query and status find it" in err
    assert made_by_demo(here / DEFAULT)
    assert sorted(p.name for p in (here / "data").iterdir()) == ["digest-bot.sqlite3"]
    commands = next_commands(err)
    assert commands == ['digest-bot query "rocm hangs"', 'digest-bot query "what\'s new with qwen this week"',
                        "digest-bot digest --format html > digest.html"]
    hangs = run_hint(commands[0], here, monkeypatch, capsys)
    assert hangs.startswith("# 🔎 “rocm hangs” in vllm-project/vllm") and ISSUE_LINK in hangs  # items found
    qwen = run_hint(commands[1], here, monkeypatch, capsys)
    assert "Topic: Qwen models" in qwen and ISSUE_LINK in qwen
    run_hint(commands[2], here, monkeypatch, capsys)
    page = (here / "digest.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "https://github.com/vllm-project/vllm/pull/" in page
    # The default window's digest is the demo's last day, and `status` sees the sync.
    assert main(["digest", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["stats"]["merged_prs"] > 20
    assert main(["status"]) == 0
    assert json.loads(capsys.readouterr().out)["last_sync"]["vllm-project/vllm"] is not None


def test_beside_a_real_store_the_demo_keeps_apart_and_its_hints_name_it(  # type: ignore[no-untyped-def]
        here: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    small_store(here / DEFAULT)
    before = (here / DEFAULT).read_bytes()
    end = "2025-12-02T03:05:00Z"
    assert main(["demo", "--format", "json", "--end", end, "--locale", "zh-CN"]) == 0
    err = capsys.readouterr().err
    assert (here / DEFAULT).read_bytes() == before  # untouched
    assert f"演示数据另存在 {here / APART}：默认数据库里已有不是演示生成的数据" in err
    url = f"sqlite:///{here / APART}"
    commands = next_commands(err.replace("演示数据另存在", "the demo's store is kept at"))
    assert commands[0] == f'DATABASE_URL={url} digest-bot query "这周 rocm 有没有卡住的" --end {end} --locale zh-CN'
    hangs = run_hint(commands[0], here, monkeypatch, capsys)
    assert hangs.startswith("# 🔎 在 vllm-project/vllm 中搜索“这周 rocm 有没有卡住的”") and ISSUE_LINK in hangs
    week = run_hint(commands[1], here, monkeypatch, capsys)
    assert "主题：Qwen 系列模型" in week and ISSUE_LINK in week
    monkeypatch.delenv("DATABASE_URL")
    run_hint(commands[2], here, monkeypatch, capsys)
    assert "vllm-project/vllm" in (here / "digest.html").read_text(encoding="utf-8")
    assert item_count(here / DEFAULT) == 3


def test_with_a_configuration_that_follows_other_repositories_the_hints_bring_their_own(  # type: ignore[no-untyped-def]
        here: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    from bot.settings import packaged_config_dir

    folder = here / "config"  # ./config: its own store, and only o/r followed
    folder.mkdir()
    (folder / "digest.toml").write_text(f'[store]\nurl = "sqlite:///{here}/ours.sqlite3"\n[[repos]]\nname = "o/r"\n')
    end = "2025-12-02T03:05:00Z"
    assert main(["demo", "--end", end, "--format", "json"]) == 0
    err = capsys.readouterr().err
    assert f"the demo's store is kept at {here / APART}, apart from the configured store (left as it is)" in err
    assert not (here / "ours.sqlite3").exists()
    commands = next_commands(err)
    assert commands[0] == (f'DATABASE_URL=sqlite:///{here / APART} digest-bot query "rocm hangs" '
                           f"--config {packaged_config_dir()} --end {end}")
    assert ISSUE_LINK in run_hint(commands[1], here, monkeypatch, capsys)
    assert not (here / "ours.sqlite3").exists()  # the configured store was never opened
