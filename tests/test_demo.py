"""`digest-bot demo`: the real sync and builder on the bundled sample, no token, no network."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from datetime import timedelta
from pathlib import Path

from bot.cli import main
from bot.demo.generator import generate_repo
from bot.demo.run import SAMPLE_DAYS, SAMPLE_END
from bot.github.payloads import item_from_payload
from bot.settings import is_bot_login
from bot.topics.items import item_topics
from bot.topics.taxonomy import Taxonomy

ROOT = Path(__file__).resolve().parents[1]
END = "2025-12-02T03:05:00Z"  # SAMPLE_END: the world as it was drawn


def test_demo_prints_a_full_digest_as_json(capsys, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)  # no ./config: the packaged defaults
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert main(["demo", "--format", "json", "--end", END]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert data["repo"] == "vllm-project/vllm"
    assert data["window"] == {"start": "2025-12-01T03:05:00Z", "end": "2025-12-02T03:05:00Z",
                              "timezone": "Asia/Shanghai"}
    stats = data["stats"]
    assert stats["new_prs"] > 50 and stats["merged_prs"] > 20 and stats["new_issues"] > 20
    assert all(len(data["appendix"][key]) == value for key, value in stats.items())
    ids = {section["id"] for section in data["sections"]}
    assert {"hot", "key_changes", "notable", "topic:rocm"} <= ids
    assert all(section["items"] for section in data["sections"] if section["id"] in ("hot", "key_changes"))
    # Key changes by impact, with the PRs' sizes fetched at sync time: at most 10, open work in review among
    # them, internal clean-ups ("Remove useless syncwarp") not.
    key = next(section["items"] for section in data["sections"] if section["id"] == "key_changes")
    assert len(key) == 10 and {item["why"]["kind"] for item in key} == {"merged", "in_review"}
    assert all(any(s["kind"] == "lines" for s in item["why"]["signals"]) for item in key)
    assert not any(word in item["title"] for item in key for word in ("useless", "unused", "dead code", "typo"))
    assert "for PR details" in err
    assert "in-process fake GitHub (no network)" in err
    # Nothing left behind but the store, where the other commands find it (tests/test_demo_store.py).
    assert [p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")] == ["data", "data/digest-bot.sqlite3"]
    # The same world made 3 days and 5 hours later (the last post time before then: 3 days later): the same
    # digest, every time 3 days on.
    later = (SAMPLE_END + timedelta(days=3, hours=5)).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert main(["demo", "--format", "json", "--end", later]) == 0
    moved = json.loads(capsys.readouterr().out)
    assert moved["window"]["end"] == "2025-12-05T03:05:00Z"
    assert moved["stats"] == stats
    assert [(s["id"], [i["number"] for i in s["items"]]) for s in moved["sections"]] == [
        (s["id"], [i["number"] for i in s["items"]]) for s in data["sections"]]
    assert moved["narrative"]["summary"] == data["narrative"]["summary"]


def test_demo_is_deterministic_markdown(capsys, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    assert main(["demo", "--end", END]) == 0
    first = capsys.readouterr().out
    assert main(["demo", "--end", END]) == 0  # the second refreshes the store the first kept
    assert capsys.readouterr().out == first
    assert first.startswith("# vllm-project/vllm daily report")


def test_sample_covers_every_topic_with_bots_and_templates() -> None:
    sample = generate_repo(end=SAMPLE_END, days=SAMPLE_DAYS)
    taxonomy = Taxonomy.load(ROOT / "config" / "topics.toml")
    counts: Counter[str] = Counter()
    for payload in sample.issues:
        item = item_from_payload("vllm-project/vllm", payload, is_bot_login)
        counts.update(match.topic_id for match in item_topics(taxonomy, item))
    assert {topic: n for topic, n in counts.items() if n < 5} == {}
    assert set(taxonomy.ids()) <= set(counts)
    assert any(p["user"]["type"] == "Bot" for p in sample.issues)
    assert any("PLEASE FILL IN THE PR DESCRIPTION" in (p["body"] or "") for p in sample.issues)
    assert len(sample.issues) / SAMPLE_DAYS > 100  # hundreds of items and comments a day
    assert len(sample.comments) / SAMPLE_DAYS > 400


def test_demo_command_runs_from_a_fresh_process_without_network(tmp_path: Path) -> None:
    # The socket guard of conftest does not reach a subprocess: block it here with a proxy that cannot work.
    env = {"PATH": "/usr/bin:/bin", "HTTPS_PROXY": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9",
           "HOME": str(tmp_path)}
    result = subprocess.run([sys.executable, "-m", "bot", "demo", "--locale", "zh-CN"], capture_output=True,
                            text=True, cwd=tmp_path, env=env, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "开发动态报告" in result.stdout


def test_demo_previews_the_exact_platform_payloads(capsys, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import discord
    from slack_sdk.models.blocks import Block

    monkeypatch.chdir(tmp_path)
    assert main(["demo", "--format", "slack", "--locale", "zh-CN"]) == 0
    slack = json.loads(capsys.readouterr().out)
    assert "开发动态报告" in slack[0]["text"]
    for payload in slack:
        assert len(payload["blocks"]) <= 50
        for block in payload["blocks"]:
            Block.parse(block).validate_json()
    assert main(["demo", "--format", "discord"]) == 0
    messages = json.loads(capsys.readouterr().out)
    assert all(m["allowed_mentions"] == {"parse": []} for m in messages)
    assert all(sum(len(discord.Embed.from_dict(e)) for e in m["embeds"]) <= 6000 for m in messages)
