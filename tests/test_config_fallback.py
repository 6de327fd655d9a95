"""A configuration folder that lacks a file runs on the packaged default of that file (said once at start-up),
and a configuration that cannot work stops the process at start-up with every problem at once: each with its
file, its line where known, and a fix."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import httpx
import pytest

from bot.app.service import DigestService
from bot.app.webhooks import build_applier
from bot.cli import main
from bot.demo.fake_github import FakeGitHub
from bot.errors import ConfigError
from bot.github.factory import build_syncer, github_client
from bot.model import Digest, QueryResult
from bot.settings import ConfigProblem, load_settings, packaged_config_dir, toml_line
from bot.store.store import Store
from bot.timeutil import utcnow
from bot.topics.catalog import load_checked_settings
from tests.factories import issue_payload
from tests.test_webhooks import event_body

PACKAGED_TOPICS = packaged_config_dir() / "topics.toml"


def only_digest(folder: Path, text: str = '[[repos]]\nname = "o/r"\n') -> Path:
    (folder / "digest.toml").write_text(text, encoding="utf-8")
    return folder


# --- one file missing: the packaged default of that file ---


def test_a_folder_with_only_digest_toml_reads_the_packaged_topics(tmp_path: Path) -> None:
    settings = load_checked_settings(only_digest(tmp_path), env={})
    assert settings.digest_path == tmp_path / "digest.toml" and settings.default_repo == "o/r"
    assert settings.topics_path == PACKAGED_TOPICS and settings.fallbacks == ("topics.toml",)


def test_a_folder_with_only_topics_toml_reads_the_packaged_digest_toml(tmp_path: Path) -> None:
    (tmp_path / "topics.toml").write_text('[[topic]]\nid = "rocm"\nname = "ROCm"\nkeywords = ["rocm"]\n')
    settings = load_checked_settings(tmp_path, env={})
    assert settings.topics_path == tmp_path / "topics.toml"
    assert settings.digest_path == packaged_config_dir() / "digest.toml" and settings.fallbacks == ("digest.toml",)
    # The packaged digest.toml's default_topics must exist in the folder's own topics: checked at start-up too.
    (tmp_path / "topics.toml").write_text('[[topic]]\nid = "mine"\nname = "Mine"\nkeywords = ["mine"]\n')
    with pytest.raises(ConfigError, match=r"digest\.toml: repos\.0\.default_topics: unknown topic\(s\) rocm"):
        load_checked_settings(tmp_path, env={})


def test_a_folder_with_neither_file_is_a_wrong_path_not_a_silent_default(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no digest.toml there, nor topics.toml"):
        load_checked_settings(tmp_path, env={})


def test_the_fallback_is_said_once_at_start_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    only_digest(tmp_path, f'[store]\nurl = "sqlite:///{tmp_path}/db.sqlite3"\n[[repos]]\nname = "o/r"\n')
    for name in ("GITHUB_API_URL", "LLM_BASE_URL", "PUBLIC_URL", "GITHUB_APP_ID", "GITHUB_APP_PRIVATE_KEY",
                 "DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    assert main(["--config", str(tmp_path), "status"]) == 0
    captured = capsys.readouterr()
    notes = [line for line in captured.err.splitlines() if "has no topics.toml" in line]
    assert notes == [f"digest-bot: note: {tmp_path} has no topics.toml: using the packaged default {PACKAGED_TOPICS}"]
    assert json.loads(captured.out)["last_sync"] == {"o/r": None}  # stdout stays the status alone


async def test_only_digest_toml_syncs_digests_and_applies_webhooks_with_the_packaged_taxonomy(
        tmp_path: Path, store: Store) -> None:
    settings = load_checked_settings(only_digest(tmp_path), env={})
    now = utcnow()
    fake = FakeGitHub()
    fake.add_repo("o/r", [issue_payload(1, now - timedelta(hours=3), title="[Bug]: ROCm MI300X hangs at start",
                                        labels=("bug", "rocm"))], [])
    async with github_client(settings, transport=httpx.MockTransport(fake.handler)) as client:
        report = await build_syncer(store, settings, client).sync("o/r")
    assert report.items == 1

    service = DigestService(store, settings, build_threads=1, build_processes=0)
    try:
        context = service.default_context(repo="o/r")
        digest = service.answer_now(context, "", now=now, analyse=False)
        assert isinstance(digest, Digest)
        # A GitHub webhook delivery, applied as the web process applies it, classified with the same topics.
        body = event_body("opened", issue=issue_payload(2, now - timedelta(minutes=5),
                                                        title="[ROCm] gfx942 crash in the attention kernel"))
        assert build_applier(service).receive("delivery-1", "issues", json.dumps(body).encode()) is not None
        found = service.answer_now(context, "rocm 1d", now=utcnow(), analyse=False)
        assert isinstance(found, QueryResult) and {item.number for item in found.items} == {1, 2}
        assert found.topic == "rocm"  # a topic of the packaged taxonomy
    finally:
        service.close()


# --- a configuration that cannot work: every problem at once ---

THREE_PROBLEMS = """\
[digest]
timezone = "Mars/Base"
post_time = "11:05"

[sync]
lookback_days = 0

[[repos]]
name = "vllm-project/vllm"

[[repos]]
name = "not a repo"
"""


def test_three_independent_errors_in_digest_toml_are_all_reported(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as raised:
        load_checked_settings(only_digest(tmp_path, THREE_PROBLEMS), env={})
    problems = raised.value.problems
    path = str(tmp_path / "digest.toml")
    assert [(p.file, p.key, p.line) for p in problems if isinstance(p, ConfigProblem)] == [
        (path, "digest.timezone", 2), (path, "sync.lookback_days", 6), (path, "repos.1.name", 12)]
    message = str(raised.value)
    assert message.startswith("3 problems in the configuration")
    assert "unknown time zone 'Mars/Base'" in message and "(line 2)" in message
    assert "fix: write it like timezone = \"Asia/Shanghai\" (the default)" in message
    assert "fix: write it like lookback_days = 30 (the default)" in message
    assert "must look like OWNER/NAME, got 'not a repo' (line 12)" in message
    assert message.count("\n    fix: ") == 3


def test_the_command_line_stops_before_starting_and_prints_them_all(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--config", str(only_digest(tmp_path, THREE_PROBLEMS)), "status"]) == 2
    err = capsys.readouterr().err
    assert "3 problems" in err and "digest.timezone" in err and "sync.lookback_days" in err and "repos.1.name" in err
    assert "Traceback" not in err


def test_problems_of_every_file_and_the_environment_come_together(tmp_path: Path) -> None:
    (tmp_path / "digest.toml").write_text(
        '[[repos]]\nname = "o/r"\ntopics = ["rocm", "nope"]\ndefault_topics = ["zzz"]\n'
        '[[repos]]\nname = "o/s"\ntopics_file = "missing.toml"\n')
    load_settings(tmp_path, env={})  # digest.toml itself is valid…
    with pytest.raises(ConfigError) as raised:  # …but names topics the taxonomy has not, and a missing file
        load_checked_settings(tmp_path, env={"PUBLIC_URL": "digest.example.com"})
    found = {(p.key, p.line): p for p in raised.value.problems if isinstance(p, ConfigProblem)}
    assert set(found) == {("", None), ("repos.0.topics", 3), ("repos.0.default_topics", 4), ("repos.1.topics_file", 7)}
    assert found[("", None)].message == "PUBLIC_URL must be an http(s) URL, got 'digest.example.com'"
    assert "unknown topic(s) nope" in found[("repos.0.topics", 3)].message
    assert str(PACKAGED_TOPICS) in found[("repos.0.default_topics", 4)].fix
    (tmp_path / "topics.toml").write_text('[[topic]]\nid = "Bad"\nname = "x"\n\n[[topic]]\nid = "ok"\n')
    with pytest.raises(ConfigError) as raised:  # the folder's own topics.toml: each of its problems, with lines
        load_checked_settings(tmp_path, env={})
    assert [(p.key, p.line) for p in raised.value.problems if isinstance(p, ConfigProblem)] == [
        ("topic.0.id", 2), ("topic.1.name", 5)]


@pytest.mark.parametrize(
    ("loc", "line"),
    [
        (("digest", "post_time"), 3),
        (("repos", 0, "name"), 6),
        (("repos", 1, "name"), 9),
        (("repos", 1, "topics", 0), 10),
        (("repos", 1, "missing"), 8),  # a key the table lacks: the table's header
        (("access", "repos", 1), 12),
        (("llm",), None),
        (("colour",), 1),
    ],
)
def test_toml_line_finds_the_key_or_its_table(loc: tuple[object, ...], line: int | None) -> None:
    text = ('colour = 1\n[digest]\npost_time = "25:00"  # [x]\n\n[[repos]]\nname = "a/b"\n\n[[repos]]\n'
            'name = "c/d"\ntopics = ["x"]\n[access]\nrepos = ["ok/*", "*/*"]\n')
    assert toml_line(text, loc) == line
