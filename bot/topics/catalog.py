"""Which taxonomy a repository uses: topics.toml plus the repository's own file, loaded once per change."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bot.errors import UserError
from bot.settings import Settings
from bot.topics.taxonomy import Taxonomy


def load_taxonomy(settings: Settings, repo: str | None = None, *, restrict: bool = True) -> Taxonomy:
    """The repository's taxonomy: topics.toml plus its own topics_file; its followed topics when ``restrict``."""
    repo_settings = next((r for r in settings.repos if r.name == repo), None)
    paths = [settings.topics_path]
    if repo_settings is not None and repo_settings.topics_file:
        paths.append(settings.config_dir / repo_settings.topics_file)
    taxonomy = _load_cached(tuple(paths))
    followed = repo_settings.topics if repo_settings is not None and restrict else None
    if followed is not None:
        unknown = sorted(set(followed) - set(taxonomy.ids()))
        if unknown:
            raise UserError(
                f"{settings.config_dir / 'digest.toml'}: repos.topics: unknown topic(s) {', '.join(unknown)}"
            )
    return taxonomy.restricted(followed)


def taxonomy_for_sync(settings: Settings) -> Callable[[str], Taxonomy]:
    """What the sync classifies items with: every topic the repository could ever show."""
    return lambda repo: load_taxonomy(settings, repo, restrict=False)


_TAXONOMIES: dict[tuple[Path, ...], tuple[tuple[float, ...], Taxonomy]] = {}


def _load_cached(paths: tuple[Path, ...]) -> Taxonomy:
    # Loading compiles hundreds of patterns; reuse it until a file changes (commands call this per request).
    stamps = tuple(path.stat().st_mtime if path.exists() else 0.0 for path in paths)
    cached = _TAXONOMIES.get(paths)
    if cached is None or cached[0] != stamps:
        cached = (stamps, Taxonomy.load(*paths))
        _TAXONOMIES[paths] = cached
    return cached[1]
