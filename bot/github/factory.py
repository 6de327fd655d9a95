"""The one place a GitHub client and a syncer are made from the settings (CLI, worker, demo, benchmarks)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime, timedelta

import httpx

from bot.github.app_auth import AppAuth
from bot.github.client import GitHubClient, Sleep
from bot.github.sync import Progress, Syncer, SyncReport
from bot.settings import Settings
from bot.store.store import Store
from bot.timeutil import utcnow
from bot.topics.catalog import taxonomy_for_sync


def github_client(settings: Settings, *, api_url: str | None = None,
                  transport: httpx.AsyncBaseTransport | None = None, sleep: Sleep | None = None) -> GitHubClient:
    """``sleep``: how the client waits out rate limits and backoffs (the worker's ends when it stops)."""
    sync = settings.sync
    return GitHubClient(api_url=api_url or settings.github_api_url, token=settings.github_token,
                        timeout=sync.timeout_seconds, max_retries=sync.max_retries,
                        max_rate_limit_wait=sync.max_rate_limit_wait_seconds, transport=transport,
                        sleep=sleep or asyncio.sleep)


def build_syncer(store: Store, settings: Settings, client: GitHubClient, *, progress: Progress | None = None,
                 lookback: timedelta | None = None, clock: Callable[[], datetime] = utcnow) -> Syncer:
    return Syncer(store, client, is_bot=settings.is_bot,
                  lookback=lookback or timedelta(days=settings.sync.lookback_days),
                  overlap=timedelta(seconds=settings.sync.overlap_seconds), progress=progress, clock=clock,
                  taxonomy=taxonomy_for_sync(settings), pr_details_max=settings.sync.pr_details_max)


class AppSync:
    """The worker's sync as a GitHub App (``GITHUB_APP_ID``): one client and syncer per installation, so each
    installation spends its own rate-limit budget, with its token renewed before it expires."""

    def __init__(self, store: Store, settings: Settings, *, api_url: str | None = None,
                 transport: httpx.AsyncBaseTransport | None = None, auth: AppAuth | None = None,
                 sleep: Sleep | None = None) -> None:
        if auth is None:
            if settings.github_app_id is None or settings.github_app_private_key is None:
                raise ValueError("AppSync needs GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY")
            auth = AppAuth(settings.github_app_id, settings.github_app_private_key,
                           api_url=api_url or settings.github_api_url,
                           installation_id=settings.github_app_installation_id, transport=transport,
                           timeout=settings.sync.timeout_seconds)
        self.auth = auth
        self.store = store
        self.settings = settings
        self.api_url = api_url or auth.api_url
        self.transport = transport
        self.sleep = sleep or asyncio.sleep
        self.clients: dict[int, GitHubClient] = {}
        self._syncers: dict[int, Syncer] = {}

    async def sync(self, repo: str) -> SyncReport:
        installation = await self.auth.installation(repo)
        syncer = self._syncers.get(installation)
        if syncer is None:
            sync = self.settings.sync
            client = GitHubClient(api_url=self.api_url, timeout=sync.timeout_seconds,
                                  max_retries=sync.max_retries, max_rate_limit_wait=sync.max_rate_limit_wait_seconds,
                                  transport=self.transport, token_provider=self.auth.provider(installation),
                                  sleep=self.sleep)
            self.clients[installation] = client
            syncer = self._syncers[installation] = build_syncer(self.store, self.settings, client)
        return await syncer.sync(repo)

    async def aclose(self) -> None:
        for client in self.clients.values():
            await client.aclose()
        await self.auth.aclose()
