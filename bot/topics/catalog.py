"""Which taxonomy a repository uses: topics.toml plus the repository's own file, loaded once per change; and
the start-up check of the whole configuration (``load_checked_settings``: every problem at once)."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path

from bot.errors import ConfigError, UserError
from bot.settings import (
    ConfigProblem,
    RepoSettings,
    Settings,
    config_error,
    config_files,
    problems_of,
    read_settings,
    toml_line,
)
from bot.topics.taxonomy import Taxonomy


def load_taxonomy(settings: Settings, repo: str | None = None, *, restrict: bool = True) -> Taxonomy:
    """The repository's taxonomy: topics.toml plus its own topics_file; its followed topics when ``restrict``."""
    repo_settings = next((r for r in settings.repos if r.name == repo), None)
    paths = [settings.topics_path]
    extra = settings.repo_topics_path(repo_settings) if repo_settings is not None else None
    if extra is not None:
        paths.append(extra)
    taxonomy = _load_cached(tuple(paths))
    followed = repo_settings.topics if repo_settings is not None and restrict else None
    if followed is not None:
        unknown = sorted(set(followed) - set(taxonomy.ids()))
        if unknown:
            raise UserError(f"{settings.digest_path}: repos.topics: unknown topic(s) {', '.join(unknown)}")
    return taxonomy.restricted(followed)


def load_checked_settings(config: str | Path | None = None, env: Mapping[str, str] = os.environ) -> Settings:
    """What start-up reads: ``load_settings`` and then every topic file and every topic id the configuration
    names. Raises one ``ConfigError`` listing every problem found, in digest.toml, topics.toml, a repository's
    topics_file and the environment, so a configuration is fixed in one go, not one error per start."""
    settings, problems = read_settings(config, env)  # a folder that does not exist raises here, alone
    if settings is None:  # digest.toml itself is wrong: its topic ids cannot be checked, the topics file can
        problems += _taxonomy_problems((config_files(config, env).topics,))
    else:
        problems += check_topics(settings)
    if problems or settings is None:
        raise config_error(problems)
    return settings


def check_topics(settings: Settings) -> list[ConfigProblem]:
    """Every problem of the topic files in use and of the topic ids digest.toml names (``repos.topics``,
    ``repos.default_topics``): what would otherwise fail the first sync, digest or command that reads them."""
    problems = _taxonomy_problems((settings.topics_path,))
    if problems:
        return problems
    text = _text(settings.digest_path)
    for index, repo in enumerate(settings.repos):
        extra = settings.repo_topics_path(repo)
        if extra is not None:
            if not extra.is_file():
                problems.append(ConfigProblem(
                    str(settings.digest_path), f"repos.{index}.topics_file", f"{extra}: file not found",
                    toml_line(text, ("repos", index, "topics_file")),
                    fix="create it ([[topic]] tables, as in topics.toml), next to digest.toml, or remove "
                        "topics_file"))
                continue
            found = _taxonomy_problems((settings.topics_path, extra))
            if found:
                problems += found
                continue
        problems += _unknown_topics(settings, index, repo, text)
    return problems


def _unknown_topics(settings: Settings, index: int, repo: RepoSettings, text: str) -> list[ConfigProblem]:
    ids = load_taxonomy(settings, repo.name, restrict=False).ids()
    problems = []
    for key, named in (("topics", repo.topics or []), ("default_topics", repo.default_topics)):
        unknown = [topic for topic in named if topic not in ids]
        if unknown:
            some = ", ".join(sorted(ids)[:8])
            problems.append(ConfigProblem(
                str(settings.digest_path), f"repos.{index}.{key}", f"unknown topic(s) {', '.join(unknown)}",
                toml_line(text, ("repos", index, key)),
                fix=f"use ids of {settings.topics_path} (such as {some}), or add a [[topic]] with that id"))
    return problems


def _taxonomy_problems(paths: tuple[Path, ...]) -> list[ConfigProblem]:
    try:
        _load_cached(paths)  # what the first sync or digest then reads: loaded once
    except ConfigError as err:
        return problems_of(err)
    return []


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


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
