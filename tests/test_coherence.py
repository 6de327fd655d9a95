"""One true story on every surface (issue: "coherence by construction"), checked on generated days.

For several generated vLLM-like days, read by channels following different topics, in both locales, each
surface (Markdown, Slack, Discord, the report page, JSON) must:

- show every item the summary names, in the same rendering;
- give each item at most one full entry (elsewhere a short link);
- count right: a heading's "(N)" is what the section shows, "k of N" shows k (entries and short links);
- never say "…and 0 more".
"""

from __future__ import annotations

import asyncio
import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from msgspec import structs

from bot.app.service import DigestService
from bot.demo.fake_github import FakeGitHub
from bot.demo.generator import generate_repo
from bot.digest.window import default_window
from bot.github.factory import build_syncer, github_client
from bot.model import Digest
from formatters.discord_embeds import render_discord_digest
from formatters.html import render_html
from formatters.json_format import digest_to_dict
from formatters.markdown import render_markdown
from formatters.slack_blocks import render_slack_digest
from tests.report_demo import demo_settings
from tests.test_formatters_slack import numbers

REPO = "vllm-project/vllm"
API = "https://api.github.invalid"
DAYS = ((5, datetime(2026, 3, 4, 3, 5, tzinfo=UTC)), (42, datetime(2026, 5, 20, 3, 5, tzinfo=UTC)),
        (77, datetime(2026, 8, 11, 3, 5, tzinfo=UTC)))
READERS = ((None, "en"), (("rocm", "qwen", "quantization"), "zh-CN"), (("gpt_oss", "cuda", "spec_decode", "rocm",
                                                                        "qwen", "moe", "kernels"), "en"))
SUMMARY_ITEM = re.compile(r"(?<![\w&/])#(\d+)\b")
MORE = re.compile(r"(?:and|另有) (-?\d+) (?:more|项)")


def _digests(tmp: Path, seed: int, end: datetime) -> list[Digest]:
    settings = demo_settings()
    sample = generate_repo(end=end, days=9, items_per_day=150, comments_per_day=600, seed=seed, api_url=API)
    fake = FakeGitHub(base_url=API)
    fake.add_repo(REPO, sample.issues, sample.comments)
    fake.add_pulls(REPO, sample.pulls)
    from bot.store.store import Store

    store = Store.open(f"sqlite:///{tmp / f'day-{seed}.sqlite3'}")

    async def sync() -> None:
        async with github_client(settings, api_url=API, transport=httpx.MockTransport(fake.handler)) as client:
            await build_syncer(store, settings, client, lookback=timedelta(days=10), clock=lambda: end).sync(REPO)

    asyncio.run(sync())
    service = DigestService(store, settings, build_processes=0)
    found = []
    try:
        window = default_window(end, settings.digest.zone, settings.digest.post_time)
        for topics, locale in READERS:
            context = structs.replace(service.default_context(repo=REPO, locale=locale), topics=topics)
            found.append(service.build_digest(context, window, analyse=False))
    finally:
        service.close()
        store.close()
    return found


@pytest.fixture(scope="module", params=DAYS, ids=[f"seed{seed}" for seed, _ in DAYS])
def day(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> list[Digest]:
    seed, end = request.param
    return _digests(tmp_path_factory.mktemp("coherence"), seed, end)


def named(digest: Digest) -> set[int]:
    assert digest.narrative is not None
    return {int(n) for n in SUMMARY_ITEM.findall(digest.narrative.summary)}


def check_more(text: str) -> None:
    assert all(int(n) > 0 for n in MORE.findall(text)), MORE.findall(text)


# ------------------------------------------------------------------------------------------------ Markdown


def markdown_sections(text: str) -> list[tuple[str, str]]:
    body = text.split("\n## 📎")[0]
    return [(chunk.split("\n", 1)[0], chunk) for chunk in body.split("\n## ")[1:]]


def check_count(heading: str, shown: int) -> None:
    """"Name (N)" / "Name（N）": N shown; "Name · k of N" / "Name（共 N 项，显示 k 项）": k shown, k < N."""
    of = re.search(r"· (\d+) of (\d+)$|（共 (\d+) 项，显示 (\d+) 项）$", heading)
    if of:
        total, part = (int(of.group(2)), int(of.group(1))) if of.group(1) else (int(of.group(3)), int(of.group(4)))
        assert shown == part < total, (heading, shown)
        return
    whole = re.search(r"[（(](\d+)[)）]$", heading)
    if whole:
        assert shown == int(whole.group(1)), (heading, shown)


def test_markdown_tells_one_story(day: list[Digest]) -> None:
    for digest in day:
        text = render_markdown(digest)
        check_more(text)
        body = text.split("\n## 📎")[0]
        entries = [int(n) for n in re.findall(r"(?m)^- \[#(\d+)\]\(", body)]
        assert len(entries) == len(set(entries))  # one full entry each
        assert named(digest) <= set(entries), (named(digest), digest.narrative)
        for heading, chunk in markdown_sections(text):
            if heading.startswith(("📊", "📈")) or heading.endswith(("(0)", "（0）")):
                continue
            linked = set(re.findall(r"\[#(\d+)\]\(", chunk))
            check_count(heading, len(linked))


# ------------------------------------------------------------------------------------------- Slack, Discord


def test_slack_tells_one_story(day: list[Digest]) -> None:
    for digest in day:
        payloads = render_slack_digest(digest)
        text = json.dumps(payloads, ensure_ascii=False)
        check_more(text)
        posted = [n for payload in payloads[:-1] for n in numbers(payload)]
        assert len(posted) == len(set(posted))  # one entry in the whole post
        assert named(digest) <= set(posted)
        for block in payloads[0]["blocks"]:  # the channel message's counts
            if block["type"] != "rich_text" or len(block["elements"]) < 2:
                continue
            heading = "".join(e["text"] for e in block["elements"][0]["elements"])
            lines = block["elements"][1]["elements"]
            entries = sum(1 for line in lines if re.fullmatch(r"#\d+", line["elements"][0]["text"]))
            refs = sum(1 for line in lines for e in line["elements"][1:] if e["type"] == "link"
                       and re.fullmatch(r"#\d+", e["text"]) and not re.fullmatch(r"#\d+", line["elements"][0]["text"]))
            check_count(heading, entries + refs)


def test_discord_tells_one_story(day: list[Digest]) -> None:
    for digest in day:
        messages = render_discord_digest(digest)
        check_more(json.dumps(messages, ensure_ascii=False))
        posted: list[int] = []
        for message in messages[:-1]:
            for embed in message["embeds"]:
                posted += [int(n) for n in re.findall(r"(?m)^• \[#(\d+)\]\(", embed.get("description", ""))]
        assert len(posted) == len(set(posted))
        assert named(digest) <= set(posted)
        for embed in messages[0]["embeds"][1:]:
            description = embed.get("description", "")
            shown = len(re.findall(r"(?m)^• \[#\d+\]\(", description))
            refs_line = next((line for line in description.splitlines()
                              if not line.startswith(("•", " ")) and "[#" in line and "more" not in line
                              and "另有" not in line), "")
            shown += len(re.findall(r"\[#\d+\]\(", refs_line))
            check_count(embed["title"], shown)


# ---------------------------------------------------------------------------------------- the page, JSON


def test_the_page_and_json_tell_one_story(day: list[Digest]) -> None:
    for digest in day:
        html = render_html(digest)
        check_more(html)
        ids = [int(n) for n in re.findall(r'<li id="item-(\d+)">', html)]
        assert len(ids) == len(set(ids)) and named(digest) <= set(ids)
        for section in re.findall(r'<section id="(?:topic-[^"]+|hot|key_changes|notable)">(.*?)</section>', html,
                                  re.S):
            heading = re.sub(r"<[^>]+>", "", re.search(r"<h2>(.*?)</h2>", section, re.S).group(1)).strip()  # type: ignore[union-attr]
            linked = set(re.findall(r">#(\d+)</a>", section))
            check_count(heading.replace("&amp;", "&"), len(linked))
        data = digest_to_dict(digest)
        edition = data["edition"]
        parts = [*edition["topics"], *(edition[k] for k in ("hot", "key_changes", "notable") if edition[k])]
        entries = [n for part in parts for n in part["entries"]]
        assert len(entries) == len(set(entries)) and named(digest) <= set(entries)
