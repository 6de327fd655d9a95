"""Options anywhere: the global options (-v, --config, --debug) and the output ones (--format, --locale,
--pretty, where a command has them) before or after the subcommand; and a configuration folder holding one of
its two files, for demo, digest and query."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import httpx
import pytest

from bot.cli import main, parse_args
from bot.demo.fake_github import FakeGitHub
from bot.github.factory import build_syncer, github_client
from bot.settings import packaged_config_dir
from bot.store.store import Store
from bot.timeutil import utcnow
from bot.topics.catalog import load_checked_settings
from tests.factories import issue_payload

ROOT = Path(__file__).resolve().parents[1]
END = "2025-12-02T03:05:00Z"


# --- parsing: each form, and the later option winning ---


@pytest.mark.parametrize("argv", [["demo", "-v"], ["-v", "demo"], ["demo", "--verbose"], ["--verbose", "demo"]])
def test_verbose_before_or_after(argv: list[str]) -> None:
    args = parse_args(argv)
    assert (args.command, args.verbose, args.debug, args.config) == ("demo", True, False, None)


@pytest.mark.parametrize("argv", [
    ["demo", "--config", "DIR"], ["--config", "DIR", "demo"],
    ["query", "rocm", "--config", "DIR", "-v"], ["-v", "query", "--config", "DIR", "rocm"],
    ["--config", "DIR", "-v", "query", "rocm"], ["--config", "elsewhere", "query", "rocm", "-v", "--config", "DIR"],
])
def test_config_before_or_after(argv: list[str]) -> None:
    args = parse_args(argv)
    assert args.config == "DIR"
    assert args.verbose is ("-v" in argv)
    if args.command == "query":
        assert args.text == "rocm"


def test_defaults_when_not_given_and_output_options_on_either_side() -> None:
    args = parse_args(["digest"])
    assert (args.config, args.verbose, args.debug, args.format, args.locale, args.pretty) == (
        None, False, False, None, None, False)
    args = parse_args(["--format", "json", "--locale", "zh-CN", "--pretty", "--debug", "query", "qwen"])
    assert (args.format, args.locale, args.pretty, args.debug) == ("json", "zh-CN", True, True)
    args = parse_args(["--locale", "zh-CN", "digest", "--locale", "en"])  # the later one wins
    assert args.locale == "en"
    assert parse_args(["status", "--debug"]).debug is True


def test_an_output_option_before_a_command_without_it_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--format", "json", "status"]) == 2
    err = capsys.readouterr().err
    assert "digest-bot: --format: an option of demo, digest and query, not of status" in err
    assert "Traceback" not in err
    assert main(["status", "--format", "json"]) == 2  # after it, argparse's own refusal
    assert "unrecognized arguments: --format json" in capsys.readouterr().err


def test_verbose_after_the_command_logs_in_a_fresh_process(tmp_path: Path) -> None:
    # A fresh process: pytest's log handlers would make the CLI's logging.basicConfig a no-op here.
    folder = tmp_path / "config"
    folder.mkdir()
    (folder / "digest.toml").write_text(f'[store]\nurl = "sqlite:///{tmp_path}/s.sqlite3"\n')
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    loud = subprocess.run([sys.executable, "-m", "bot", "status", "--config", str(folder), "-v"], cwd=ROOT,
                          capture_output=True, text=True, env=env, timeout=120)
    assert loud.returncode == 0, loud.stderr
    assert "INFO bot.store.db: creating a new store" in loud.stderr
    quiet = subprocess.run([sys.executable, "-m", "bot", "status", "--config", str(folder)], cwd=ROOT,
                           capture_output=True, text=True, env=env, timeout=120)
    assert quiet.returncode == 0 and " INFO " not in quiet.stderr


# --- a folder with one of the two files: demo, digest, query ---


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    for name in ("DATABASE_URL", "DIGEST_BOT_CONFIG", "GITHUB_API_URL", "GITHUB_TOKEN", "LLM_BASE_URL", "LLM_MODEL"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def only(folder: Path, name: str, text: str | None = None) -> Path:
    folder.mkdir()
    if text is None:
        shutil.copy(packaged_config_dir() / name, folder / name)
    else:
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def notes(err: str, folder: Path) -> list[str]:
    return [line for line in err.splitlines() if line.startswith(f"digest-bot: note: {folder} has no ")]


def test_a_folder_with_only_digest_toml_for_query_and_digest_options_after(  # type: ignore[no-untyped-def]
        here: Path, capsys) -> None:
    folder = only(here / "mine", "digest.toml",
                  f'[store]\nurl = "sqlite:///{here}/mine.sqlite3"\n[[repos]]\nname = "o/r"\n')
    now = utcnow()
    github = FakeGitHub()
    github.add_repo("o/r", [issue_payload(1, now - timedelta(hours=3), title="[Bug]: ROCm MI300X hangs at start",
                                          labels=("bug", "rocm"))], [])
    settings = load_checked_settings(folder, env={})

    async def sync() -> None:
        with Store.open(settings.database_url) as store:
            async with github_client(settings, transport=httpx.MockTransport(github.handler)) as client:
                await build_syncer(store, settings, client).sync("o/r")

    asyncio.run(sync())
    end = ["--end", now.isoformat()]  # one window for the three answers compared (a second can tick between them)
    assert main(["query", "rocm", "--config", str(folder), "-v", "--format", "json", *end]) == 0
    out, err = capsys.readouterr()
    answer = json.loads(out)
    assert answer["topic"] == "rocm" and [item["number"] for item in answer["items"]] == [1]  # packaged topics
    assert notes(err, folder) == [f"digest-bot: note: {folder} has no topics.toml: using the packaged default "
                                  f"{packaged_config_dir() / 'topics.toml'}"]
    assert main(["--format", "json", "query", "rocm", "--config", str(folder), *end]) == 0
    assert json.loads(capsys.readouterr().out) == answer
    assert main(["digest", "--config", str(folder), "--format", "json", "--end", now.isoformat()]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["stats"]["new_issues"] == 1 and len(notes(err, folder)) == 1
    shutil.copytree(folder, here / "config")  # ./config with only digest.toml: the same, without --config
    assert main(["query", "rocm", "--format", "json", *end]) == 0
    out, err = capsys.readouterr()
    packaged = packaged_config_dir() / "topics.toml"
    assert json.loads(out) == answer and notes(err, Path("config")) == [
        f"digest-bot: note: config has no topics.toml: using the packaged default {packaged}"]


@pytest.mark.parametrize("name", ["digest.toml", "topics.toml"])
def test_demo_then_digest_and_query_with_a_folder_holding_one_file(  # type: ignore[no-untyped-def]
        here: Path, capsys, name: str) -> None:
    folder = only(here / "partial", name)
    missing = "topics.toml" if name == "digest.toml" else "digest.toml"
    assert main(["demo", "--config", str(folder), "-v", "--end", END, "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["window"]["end"] == END
    assert notes(err, folder) == [f"digest-bot: note: {folder} has no {missing}: using the packaged default "
                                  f"{packaged_config_dir() / missing}"]
    assert main(["digest", "--end", END, "--format", "json", "--config", str(folder)]) == 0  # the kept store
    out, err = capsys.readouterr()
    assert json.loads(out)["stats"]["merged_prs"] > 20 and len(notes(err, folder)) == 1
    assert main(["query", "rocm hangs", "--end", END, "--config", str(folder), "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["items"] and len(notes(err, folder)) == 1
