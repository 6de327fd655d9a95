"""Use cases shared by the CLI, the chat apps and the scheduler: settings + store in, digest out."""

from __future__ import annotations

from bot.digest.build import BuildOptions, DigestBuilder
from bot.digest.model import Digest, Window
from bot.errors import UserError
from bot.settings import Settings
from bot.store.store import Store
from bot.timeutil import iso_z
from bot.topics.taxonomy import Taxonomy


def load_taxonomy(settings: Settings, repo: str | None = None) -> Taxonomy:
    taxonomy = Taxonomy.load(settings.topics_path)
    followed = next((r.topics for r in settings.repos if r.name == repo), None)
    if followed is not None:
        unknown = sorted(set(followed) - set(taxonomy.ids()))
        if unknown:
            raise UserError(
                f"{settings.config_dir / 'digest.toml'}: repos.topics: unknown topic(s) {', '.join(unknown)}"
            )
    return taxonomy.restricted(followed)


def build_digest_for(
    store: Store, settings: Settings, repo: str, window: Window, *, locale: str | None = None
) -> tuple[Digest, str | None]:
    """The digest plus, when the store cannot fully cover the window, one sentence saying why."""
    synced = store.last_synced(repo)
    if synced is None:
        raise UserError(f"nothing synced for {repo} yet: run `digest-bot sync --repo {repo}` first")
    warning = None
    if synced < window.end:
        warning = (
            f"note: {repo} was last synced at {iso_z(synced)}, before the window's end {iso_z(window.end)};"
            " the digest may miss the latest activity (run digest-bot sync)"
        )
    builder = DigestBuilder(
        store,
        load_taxonomy(settings, repo),
        BuildOptions(
            hot_min_comments=settings.digest.hot_min_comments, locale=locale or settings.digest.locale
        ),
        is_bot=settings.is_bot,
    )
    return builder.build(repo, window), warning


def render(digest: Digest, fmt: str) -> str:
    if fmt == "json":
        from formatters.json_format import render_json

        return render_json(digest) + "\n"
    from formatters.markdown import render_markdown

    return render_markdown(digest)
