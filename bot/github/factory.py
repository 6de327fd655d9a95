"""The one place a GitHub client and a syncer are made from the settings (CLI, worker, demo, benchmarks)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import httpx

from bot.github.client import GitHubClient
from bot.github.sync import Progress, Syncer
from bot.settings import Settings
from bot.store.store import Store
from bot.timeutil import utcnow
from bot.topics.catalog import taxonomy_for_sync


def github_client(settings: Settings, *, api_url: str | None = None,
                  transport: httpx.AsyncBaseTransport | None = None) -> GitHubClient:
    sync = settings.sync
    return GitHubClient(api_url=api_url or settings.github_api_url, token=settings.github_token,
                        timeout=sync.timeout_seconds, max_retries=sync.max_retries,
                        max_rate_limit_wait=sync.max_rate_limit_wait_seconds, transport=transport)


def build_syncer(store: Store, settings: Settings, client: GitHubClient, *, progress: Progress | None = None,
                 lookback: timedelta | None = None, clock: Callable[[], datetime] = utcnow) -> Syncer:
    return Syncer(store, client, is_bot=settings.is_bot,
                  lookback=lookback or timedelta(days=settings.sync.lookback_days),
                  overlap=timedelta(seconds=settings.sync.overlap_seconds), progress=progress, clock=clock,
                  taxonomy=taxonomy_for_sync(settings), pr_details_max=settings.sync.pr_details_max)
