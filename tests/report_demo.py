"""The demo sample synced into a SQLite store, for the report page tests (``tests/test_reports*.py``)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path

import httpx

from bot.demo.fake_github import FakeGitHub
from bot.demo.generator import generate_repo
from bot.demo.run import DEMO_API, SAMPLE_DAYS, SAMPLE_END, SAMPLE_REPO
from bot.github.factory import build_syncer, github_client
from bot.settings import Settings, load_settings
from bot.store.store import Store

ROOT = Path(__file__).resolve().parents[1]
SECRET = "reports-7f3a9c1e5b2d4f6a8c0e"
PUBLIC_URL = "https://digest.example.test"
__all__ = ["PUBLIC_URL", "SAMPLE_END", "SAMPLE_REPO", "SECRET", "demo_settings", "sync_demo"]


def demo_settings(env: Mapping[str, str] | None = None, *, public: bool = False) -> Settings:
    """The shipped configuration (the sample's repository is its first ``[[repos]]``), with ``env``."""
    settings = load_settings(ROOT / "config", env=dict(env or {}))
    reports = settings.file.reports.model_copy(update={"public": public})
    return settings.model_copy(update={"file": settings.file.model_copy(update={"reports": reports})})


def sync_demo(path: Path, settings: Settings) -> Store:
    """A store at ``path`` holding the demo's two weeks, synced as of ``SAMPLE_END``."""
    store = Store.open(f"sqlite:///{path}")
    owner, name = SAMPLE_REPO.split("/")
    sample = generate_repo(owner=owner, name=name, end=SAMPLE_END, days=SAMPLE_DAYS, api_url=DEMO_API)
    fake = FakeGitHub(base_url=DEMO_API)
    fake.add_repo(SAMPLE_REPO, sample.issues, sample.comments)
    fake.add_pulls(SAMPLE_REPO, sample.pulls)

    async def run() -> None:
        async with github_client(settings, api_url=DEMO_API, transport=httpx.MockTransport(fake.handler)) as client:
            syncer = build_syncer(store, settings, client, lookback=timedelta(days=SAMPLE_DAYS + 1),
                                  clock=lambda: SAMPLE_END)
            await syncer.sync(SAMPLE_REPO)

    asyncio.run(run())
    return store
