"""The command line end to end: real sync over a loopback fake GitHub, digest from the store, user errors."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.cli import main
from bot.demo.fake_github import FakeGitHub
from tests.factories import comment_payload, issue_payload

ROOT = Path(__file__).resolve().parents[1]
START = datetime(2025, 12, 1, 3, 5, tzinfo=UTC)


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "config"
    folder.mkdir()
    shutil.copy(ROOT / "config" / "topics.toml", folder)
    (folder / "digest.toml").write_text(
        '[store]\nurl = "sqlite:///%s"\n[sync]\nmax_retries = 0\nlookback_days = 30\n[access]\nrepos = ["o/*"]\n'
        '[[repos]]\nname = "o/r"\n'
        % (tmp_path / "store.sqlite3")
    )
    monkeypatch.chdir(tmp_path)
    for name in ("DATABASE_URL", "GITHUB_TOKEN", "GITHUB_API_URL", "DIGEST_BOT_CONFIG", "LLM_BASE_URL", "LLM_MODEL",
                 "LLM_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    return folder


@pytest.fixture
def fake() -> FakeGitHub:
    now = datetime.now(UTC)
    fake = FakeGitHub(token="good")
    # Half an hour off the hour, so the 24 h window boundary never races the clock.
    issues = [
        issue_payload(n, now - timedelta(hours=n, minutes=-30), title=f"[Bug]: crash {n}", labels=("bug",))
        for n in range(1, 121)
    ]
    fake.add_repo("o/r", issues, [comment_payload(1, 1, now - timedelta(minutes=5))])
    return fake


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_sync_then_digest(config: Path, fake: FakeGitHub, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    with fake.serve() as base_url:
        monkeypatch.setenv("GITHUB_API_URL", base_url)
        monkeypatch.setenv("GITHUB_TOKEN", "good")
        code, out, err = run(capsys, "--config", str(config), "sync", "--repo", "o/r")
    assert code == 0, err
    assert out.strip() == "o/r: 120 items, 1 comments, 3 requests, rate limit left 4997/5000"
    end = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    code, out, err = run(capsys, "--config", str(config), "digest", "--repo", "o/r", "--end", end, "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["repo"] == "o/r" and data["stats"]["new_issues"] == 24
    code, out, _ = run(capsys, "--config", str(config), "digest", "--end", end)
    assert code == 0 and out.startswith("# o/r daily report")


def test_sync_of_a_renamed_repository_follows_it_and_says_so(config: Path, fake: FakeGitHub, capsys,  # type: ignore[no-untyped-def]
                                                              monkeypatch) -> None:
    fake.rename("o/r", "o/renamed")
    with fake.serve() as base_url:
        monkeypatch.setenv("GITHUB_API_URL", base_url)
        monkeypatch.setenv("GITHUB_TOKEN", "good")
        code, out, err = run(capsys, "--config", str(config), "sync", "--repo", "o/r")
    assert code == 0, err
    assert out.strip() == ("o/r: 120 items, 1 comments, 5 requests, rate limit left 4995/5000;"
                           " o/r moved to o/renamed: update digest.toml")


def _small_world(config: Path, capsys, monkeypatch) -> tuple[str, ...]:  # type: ignore[no-untyped-def]
    """An issue with three comments (hot) and a merged PR (a key change), synced; the digest's argv (JSON)."""
    now = datetime.now(UTC)
    github = FakeGitHub(token="good")
    github.add_repo(
        "o/r",
        [issue_payload(1, now - timedelta(hours=3), title="[Bug]: engine hangs under load", labels=("bug",)),
         issue_payload(2, now - timedelta(hours=5), title="[Perf] Faster sampler", pr=True,
                       merged=now - timedelta(hours=1), labels=("performance",))],
        [comment_payload(10 + k, 1, now - timedelta(minutes=50 - k), user=f"u{k}", body=f"Seen it too ({k})")
         for k in range(3)],
    )
    with github.serve() as base_url:
        monkeypatch.setenv("GITHUB_API_URL", base_url)
        monkeypatch.setenv("GITHUB_TOKEN", "good")
        assert run(capsys, "--config", str(config), "sync", "--repo", "o/r")[0] == 0
    end = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return ("--config", str(config), "digest", "--repo", "o/r", "--end", end, "--format", "json")


def analysis_line(err: str) -> str:
    """The one line of stderr saying what the LLM analysis took (docs/llm.md, "What a digest reports")."""
    [line] = [line for line in err.splitlines() if line.startswith("LLM analysis: ")]
    return line


def test_digest_with_an_llm_and_when_it_is_down(config: Path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from tests.fakes.openai_api import FakeLLM, Reply

    argv = _small_world(config, capsys, monkeypatch)
    llm = FakeLLM()
    with llm.serve():
        monkeypatch.setenv("LLM_BASE_URL", llm.base_url)
        monkeypatch.setenv("LLM_MODEL", "test-model")
        code, out, err = run(capsys, *argv)
        assert code == 0, err
        data = json.loads(out)
        assert data["narrative"]["summary_source"] == "llm"
        hot = next(s for s in data["sections"] if s["id"] == "hot")["items"]
        assert hot[0]["number"] == 1 and hot[0]["analysis"]["question"] == "Should #1 change the default?"
        assert "Seen it too (2)" in llm.of("discussion")[0].prompt
        calls = len(llm.requests)
        code, again, err = run(capsys, *argv)
        assert code == 0 and len(llm.requests) == calls  # cached: no new calls
        assert again == out  # stdout is the rendered digest alone, the same from the cache
        assert analysis_line(err) == (f"LLM analysis: {calls} of {calls} parts by LLM ({calls} cached), 0 requests,"
                                      " 0+0 tokens; asked 0, answered 0, accepted 0")
    down = FakeLLM()
    with down.serve():
        down.script(Reply(status=500))
        monkeypatch.setenv("LLM_BASE_URL", down.base_url)
        monkeypatch.setenv("LLM_MODEL", "another-model")  # another model: the cache does not answer
        code, out, err = run(capsys, *argv)
    assert code == 0, err
    data = json.loads(out)
    assert data["narrative"]["summary_source"] == "template"
    assert data["narrative"]["summary"].startswith("Busy day: 1 new PR")
    assert "analysis" not in next(s for s in data["sections"] if s["id"] == "hot")["items"][0]
    line = analysis_line(err)
    assert line.startswith(f"LLM analysis: 0 of {calls} parts by LLM (0 cached), ") and "; fell back: " in line
    assert line.endswith(f"; asked {len(down.requests)}, answered 0, accepted 0")


def test_digest_prints_what_the_analysis_asked_answered_and_accepted(  # type: ignore[no-untyped-def]
    config: Path, capsys, monkeypatch
) -> None:
    from tests.fakes.openai_api import FakeLLM, Request, default_answer

    argv = _small_world(config, capsys, monkeypatch)
    code, plain, err = run(capsys, *argv)
    assert code == 0 and "LLM analysis" not in err  # no LLM configured: no analysis, no line
    llm = FakeLLM()

    def summary_invents(request: Request) -> str:  # the summary invents a figure; the rest is well-behaved
        if request.kind == "summary":
            return json.dumps({"summary": "A record day: 412 new PRs were opened and most of them merged."})
        return default_answer(request)

    llm.responder = summary_invents
    with llm.serve():
        monkeypatch.setenv("LLM_BASE_URL", llm.base_url)
        monkeypatch.setenv("LLM_MODEL", "test-model")
        code, out, err = run(capsys, *argv[:-2], "--format", "markdown")
    assert code == 0, err
    asked = len(llm.requests)
    assert asked == 3  # the summary, the hot discussion, the key change
    line = analysis_line(err)
    assert re.fullmatch(
        r"LLM analysis: 2 of 3 parts by LLM \(0 cached\), 3 requests, \d+\+\d+ tokens;"
        r" fell back: invented number: 1; asked 3, answered 3, accepted 2; not grounded: invented number: 1", line
    ), line
    # stdout: the rendered digest alone; the analysis' line on stderr, after it.
    assert out.startswith("# o/r daily report") and "LLM analysis" not in out and "412" not in out
    assert err.rstrip().endswith(line)
    assert json.loads(plain)["narrative"]["summary_source"] == "template"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["sync", "--repo", "not/a/repo"], "must look like OWNER/NAME"),
        (["digest", "--end", "yesterday-ish"], "not an ISO 8601 time"),
        (["digest", "--repo", "o/never"], "nothing synced for o/never yet: run `digest-bot sync --repo o/never`"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_user_errors_are_one_clear_line(config: Path, capsys, argv: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    code, _, err = run(capsys, "--config", str(config), *argv)
    assert code == 2
    assert message in err and "Traceback" not in err


def test_github_failures_are_one_clear_line(config: Path, fake: FakeGitHub, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    with fake.serve() as base_url:
        monkeypatch.setenv("GITHUB_API_URL", base_url)
        monkeypatch.setenv("GITHUB_TOKEN", "bad")
        code, _, err = run(capsys, "--config", str(config), "sync")
        assert (code, err.strip()) == (
            3,
            "digest-bot: GitHub rejected the token (401 Bad credentials): check GITHUB_TOKEN",
        )
        monkeypatch.setenv("GITHUB_TOKEN", "good")
        code, _, err = run(capsys, "--config", str(config), "sync", "--repo", "o/gone")
        assert code == 3 and "no such repository o/gone" in err
    monkeypatch.setenv("GITHUB_API_URL", base_url)  # the server is gone now: connection refused
    code, _, err = run(capsys, "--config", str(config), "sync")
    assert code == 3 and "unreachable after 1 attempts" in err


def test_bad_config_is_one_problem_with_its_line_and_fix(config: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (config / "digest.toml").write_text('[digest]\npost_time = "noon"\n')
    code, _, err = run(capsys, "--config", str(config), "digest")
    assert code == 2
    problem, fix = err.strip().splitlines()
    assert problem.endswith("digest.toml: digest.post_time: must be a time of day HH:MM, got 'noon' (line 2)")
    assert fix == '    fix: write it like post_time = "11:05" (the default), or leave it out'


def test_console_script_runs_without_traceback(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot", "digest", "--start", "nope"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert result.returncode == 2
    assert "not an ISO 8601 time" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize(("command", "message"), [
    ("serve", "set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET in the environment"),
    ("run", "nothing to run: set SLACK_BOT_TOKEN and SLACK_APP_TOKEN"),
])
def test_chat_commands_without_tokens_say_which(config: Path, capsys, monkeypatch, command: str,  # type: ignore[no-untyped-def]
                                                message: str) -> None:
    for name in ("SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_APP_TOKEN", "DISCORD_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    code, _, err = run(capsys, "--config", str(config), command)
    assert code == 2
    assert message in err


def test_sync_and_digest_only_take_allowed_repositories(config: Path, fake: FakeGitHub, capsys,  # type: ignore[no-untyped-def]
                                                        monkeypatch) -> None:
    fake.add_repo("acme/secret", [], [], repo_fields={"private": True, "visibility": "private"})
    fake.add_repo("acme/public", [], [])
    with fake.serve() as base_url:
        monkeypatch.setenv("GITHUB_API_URL", base_url)
        monkeypatch.setenv("GITHUB_TOKEN", "good")
        code, _, err = run(capsys, "--config", str(config), "sync", "--repo", "acme/secret")
        assert code == 2 and "acme/secret is not an allowed repository" in err and "[access] repos" in err
        assert fake.requests == []  # refused before GitHub hears of it
        code, _, err = run(capsys, "--config", str(config), "digest", "--repo", "acme/secret")
        assert code == 2 and "does not follow acme/secret" in err
        text = (config / "digest.toml").read_text().replace("[access]\n", "[access]\nallow_public = true\n")
        (config / "digest.toml").write_text(text)
        code, _, err = run(capsys, "--config", str(config), "sync", "--repo", "acme/secret")
        assert code == 2 and "GitHub does not show it as public" in err
        code, out, err = run(capsys, "--config", str(config), "sync", "--repo", "acme/public")
        assert code == 0 and out.startswith("acme/public: 0 items"), err
    assert [r.path for r in fake.requests][:3] == ["/repos/acme/secret", "/repos/acme/public",
                                                  "/repos/acme/public/issues"]


class _Terminal(io.StringIO):
    """A stream that says it is a terminal (as sys.stdout does in a shell)."""

    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_the_digest_laid_out_and_a_pipe_plain_markdown() -> None:
    from bot.platforms.console import show
    from tests.formatter_strategies import post_digest

    digest = post_digest()
    piped = io.StringIO()
    show(digest, None, piped)
    assert piped.getvalue().startswith("# o/r daily report") and "\n## 🏷️ AMD / ROCm" in piped.getvalue()
    tty = _Terminal()
    show(digest, None, tty)
    laid_out = tty.getvalue()
    assert "\x1b[" in laid_out and "\x1b]8;" in laid_out  # colour, and links a terminal can open (OSC 8)
    assert "https://github.com/o/r/issues/5" in laid_out and "## " not in laid_out and "**" not in laid_out
    asked = _Terminal()
    show(digest, "markdown", asked)  # --format markdown: plain Markdown wherever it goes
    assert asked.getvalue() == piped.getvalue()


def test_a_terminal_keeps_an_entrys_lines_apart() -> None:
    """An entry's facts and sentence are lines of their own in the Markdown; the terminal keeps them so, not
    joined to the badge before them ("crash TP=2 · v0.11.2")."""
    from bot.platforms.console import print_markdown

    out = io.StringIO()
    print_markdown("- #1 **Engine crashes** — new issue · _crash_\n  TP=2 · v0.11.2\n  We run it on 2xMI325X.\n", out)
    lines = [line.strip() for line in out.getvalue().splitlines()]
    assert lines[-3].endswith("crash") and lines[-2] == "TP=2 · v0.11.2" and lines[-1] == "We run it on 2xMI325X."


# What a digest or a query never needs: the GitHub client's stack and the chat SDKs (their start-up is most of
# a command's time).
HEAVY = ("httpx", "jwt", "cryptography", "bot.github.client", "bot.github.app_auth", "slack_sdk", "slack_bolt",
         "discord", "aiohttp", "apscheduler")
LOADED = """
import io, json, sys, contextlib
from bot.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    code = main(sys.argv[1:])
print(json.dumps({"code": code, "loaded": sorted(m for m in %r if m in sys.modules), "out": out.getvalue()[:1]}))
"""


@pytest.mark.parametrize("command", [("digest", "--format", "json"), ("query", "crash 7d", "--format", "json"),
                                     ("digest",), ("query", "#3")])
def test_digest_and_query_load_no_github_client_and_no_chat_sdk(  # type: ignore[no-untyped-def]
    config: Path, fake: FakeGitHub, capsys, monkeypatch, command: tuple[str, ...]
) -> None:
    with fake.serve() as base_url:
        monkeypatch.setenv("GITHUB_API_URL", base_url)
        monkeypatch.setenv("GITHUB_TOKEN", "good")
        assert run(capsys, "--config", str(config), "sync", "--repo", "o/r")[0] == 0
    argv = ["--config", str(config), *command, "--repo", "o/r"]
    done = subprocess.run([sys.executable, "-c", LOADED % (HEAVY,), *argv], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["code"] == 0 and result["out"], done.stderr
    assert result["loaded"] == []


# What a read command does not need beyond that (issue 27): a query, the digest's modules (and for a JSON
# answer, Jinja); neither, on SQLite, the PostgreSQL dialect (the upsert's, writers only), multiprocessing (the
# process pool's) or the sync's item-kind and text-fact rules (a digest reads what the sync stored).
NOT_FOR_A_QUERY = ("bot.digest.build", "bot.digest.narrative", "jinja2", "sqlalchemy.dialects.postgresql",
                   "multiprocessing", "bot.topics.kinds", "bot.topics.kind_rules", "bot.topics.text_facts",
                   "bot.app.notices",  # an answer with nothing to say besides its items says no notice
                   "bot.model.edition", "bot.store.chat", "bot.store.alerts", "bot.store.mutes")
NOT_FOR_A_DIGEST = ("sqlalchemy.dialects.postgresql", "multiprocessing", "bot.topics.kind_rules",
                    "bot.topics.text_facts",
                    # nothing to say but the digest: no notice, no chat-settings use case
                    "bot.app.notices", "bot.app.mutes", "bot.app.channels", "bot.app.subscriptions",
                    "bot.store.chat", "bot.store.alerts", "bot.store.mutes")


@pytest.mark.parametrize(("command", "unwanted"), [
    (("query", "crash 7d", "--format", "json"), NOT_FOR_A_QUERY),
    (("query", "label:bug is:open 30d", "--format", "json"), NOT_FOR_A_QUERY),
    # Markdown is laid out by Jinja, and its module lays out digests too
    (("query", "crash 7d"), tuple(m for m in NOT_FOR_A_QUERY if m not in ("jinja2", "bot.model.edition"))),
    (("digest", "--format", "json"), NOT_FOR_A_DIGEST),
    (("digest", "--format", "markdown"), NOT_FOR_A_DIGEST),
])
def test_read_commands_load_only_what_they_use(  # type: ignore[no-untyped-def]
    config: Path, fake: FakeGitHub, capsys, monkeypatch, command: tuple[str, ...], unwanted: tuple[str, ...]
) -> None:
    with fake.serve() as base_url:
        monkeypatch.setenv("GITHUB_API_URL", base_url)
        monkeypatch.setenv("GITHUB_TOKEN", "good")
        assert run(capsys, "--config", str(config), "sync", "--repo", "o/r")[0] == 0
    argv = ["--config", str(config), *command, "--repo", "o/r"]
    done = subprocess.run([sys.executable, "-c", LOADED % (unwanted,), *argv], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["code"] == 0 and result["out"], done.stderr
    assert result["loaded"] == []


def test_json_is_compact_unless_asked_pretty(config: Path, fake: FakeGitHub, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    with fake.serve() as base_url:
        monkeypatch.setenv("GITHUB_API_URL", base_url)
        monkeypatch.setenv("GITHUB_TOKEN", "good")
        assert run(capsys, "--config", str(config), "sync", "--repo", "o/r")[0] == 0
    end = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    code, compact, _ = run(capsys, "--config", str(config), "digest", "--end", end, "--format", "json")
    code2, pretty, _ = run(capsys, "--config", str(config), "digest", "--end", end, "--format", "json", "--pretty")
    assert code == code2 == 0 and json.loads(compact) == json.loads(pretty)
    assert compact.count("\n") == 1 and '\n  "repo": "o/r"' in pretty
