"""`digest-bot demo`: the real sync and digest code against an in-process fake GitHub serving a sample.

No token, no network, nothing left behind: the store is a SQLite file in a temporary folder.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

from bot.app.service import DigestService
from bot.demo.fake_github import FakeGitHub
from bot.demo.generator import generate_repo
from bot.digest.window import default_window
from bot.github.factory import build_syncer, github_client
from bot.github.sync import SyncReport
from bot.platforms.console import render
from bot.settings import Settings
from bot.store.store import Store

SAMPLE_END = datetime(2025, 12, 2, 3, 5, tzinfo=UTC)  # 11:05 in Asia/Shanghai
SAMPLE_DAYS = 14
SAMPLE_REPO = "vllm-project/vllm"
DEMO_API = "https://api.github.invalid"  # never resolved: MockTransport answers in-process


def sample_github() -> FakeGitHub:
    """The in-process fake GitHub serving the demo's generated sample (issues, comments, PR details)."""
    owner, name = SAMPLE_REPO.split("/")
    sample = generate_repo(owner=owner, name=name, end=SAMPLE_END, days=SAMPLE_DAYS, api_url=DEMO_API)
    fake = FakeGitHub(base_url=DEMO_API)
    fake.add_repo(SAMPLE_REPO, sample.issues, sample.comments)
    fake.add_pulls(SAMPLE_REPO, sample.pulls)
    return fake


def run_demo(*, fmt: str, locale: str | None, settings: Settings, info: Callable[[SyncReport], None],
             pretty: bool = False) -> str:
    """The sample synced into a temporary store and its digest rendered in ``fmt``; ``info`` hears how the
    sync went (the caller words it)."""
    fake = sample_github()
    with tempfile.TemporaryDirectory(prefix="digest-bot-demo-") as folder:
        store = Store.open(f"sqlite:///{Path(folder) / 'demo.sqlite3'}")
        try:
            report = asyncio.run(_sync(store, fake, settings))
            info(report)
            window = default_window(SAMPLE_END, settings.digest.zone, settings.digest.post_time)
            service = DigestService(store, _following_the_sample(settings))
            try:
                context = service.default_context(repo=SAMPLE_REPO, locale=locale)
                # no network, even with LLM_* set; the charts' data only for the page that draws them
                digest = service.build_digest(context, window, analyse=False, series=fmt == "html")
            finally:
                service.close()
        finally:
            store.close()
    return render(digest, fmt, pretty=pretty)


def _following_the_sample(settings: Settings) -> Settings:
    """The sample is served by the in-process fake, not read with a token: allowed whatever the config says."""
    access = settings.file.access.model_copy(update={"repos": [*settings.file.access.repos, SAMPLE_REPO]})
    return settings.model_copy(update={"file": settings.file.model_copy(update={"access": access})})


async def _sync(store: Store, fake: FakeGitHub, settings: Settings) -> SyncReport:
    async with github_client(settings, api_url=DEMO_API, transport=httpx.MockTransport(fake.handler)) as client:
        syncer = build_syncer(store, settings, client, lookback=timedelta(days=SAMPLE_DAYS + 1),
                              clock=lambda: SAMPLE_END)
        return await syncer.sync(SAMPLE_REPO)
