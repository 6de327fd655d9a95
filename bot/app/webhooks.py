"""The webhook applier as the web process and the worker make it: which repositories are followed, how items
are classified (``bot/github/webhooks.py`` does the work)."""

from __future__ import annotations

from collections.abc import Callable

from bot.app.service import DigestService
from bot.github.webhooks import WebhookApplier
from bot.store.webhooks import WebhookLog
from bot.topics.catalog import taxonomy_for_sync


def followed_repos(service: DigestService) -> Callable[[str], str | None]:
    """GitHub's ``full_name`` -> the repository as the store spells it, when the bot follows it (configured, or
    synced for a channel or subscription) and it is allowed; None otherwise. Names are case-insensitive."""

    def followed(name: str) -> str | None:
        known = [repo.name for repo in service.settings.repos] + service.store.synced_repos()
        found = next((repo for repo in known if repo.lower() == name.lower()), None)
        return None if found is None or service.refused(found) else found

    return followed


def build_applier(service: DigestService) -> WebhookApplier:
    settings = service.settings
    return WebhookApplier(WebhookLog(service.store), followed=followed_repos(service), is_bot=settings.is_bot,
                          taxonomy=taxonomy_for_sync(settings))
