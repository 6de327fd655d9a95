"""Use cases shared by the CLI, the chat apps and the scheduler: settings + store in, digest out."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from datetime import datetime, timedelta
from pathlib import Path

from bot.digest.build import BuildOptions, DigestBuilder
from bot.digest.model import Digest, QueryResult, Window
from bot.digest.window import default_window
from bot.errors import UserError
from bot.settings import Settings
from bot.store.store import Store
from bot.timeutil import iso_z
from bot.topics.query import WindowSpec, parse_query
from bot.topics.search import search, suggest, topic_named
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


def build_digest_for(
    store: Store,
    settings: Settings,
    repo: str,
    window: Window,
    *,
    locale: str | None = None,
    topics: Sequence[str] | None = None,
    hide_topics: Collection[str] = (),
    analyse: bool = True,
) -> tuple[Digest, str | None]:
    """The digest plus, when the store cannot fully cover the window, one sentence saying why.

    ``topics`` narrows the repository's topics (a channel's choice); ``hide_topics`` drops some (mutes). Both
    act on the taxonomy, so topic sections, trends and the summary agree on what a topic's items are.
    ``analyse=False`` never asks the LLM, even when one is configured (the demo: no network)."""
    synced = store.last_synced(repo)
    if synced is None:
        raise UserError(f"nothing synced for {repo} yet: run `digest-bot sync --repo {repo}` first")
    warning = None
    if synced < window.end:
        warning = (
            f"note: {repo} was last synced at {iso_z(synced)}, before the window's end {iso_z(window.end)};"
            " the digest may miss the latest activity (run digest-bot sync)"
        )
    taxonomy = load_taxonomy(settings, repo)
    if topics is not None:
        taxonomy = taxonomy.restricted(topics)
    muted = None
    if hide_topics:
        hidden = set(hide_topics)
        muted = load_taxonomy(settings, repo, restrict=False).restricted(sorted(hidden))
        taxonomy = taxonomy.restricted([topic for topic in taxonomy.ids() if topic not in hidden])
    builder = DigestBuilder(
        store,
        taxonomy,
        BuildOptions(
            hot_min_comments=settings.digest.hot_min_comments,
            locale=locale or settings.digest.locale,
            bots_key=settings.bots_key,
        ),
        is_bot=settings.is_bot,
        muted=muted,
    )
    digest = builder.build(repo, window)
    if analyse and settings.llm_enabled:
        from bot.analysis.analyst import analyse_digest_blocking  # only deployments with an LLM load it

        digest = analyse_digest_blocking(store, settings, digest)
    return digest, warning


def render(answer: Digest | QueryResult, fmt: str) -> str:
    """Text for the terminal: Markdown, the JSON contract, or the exact Slack/Discord payloads as JSON (a
    preview: paste a Slack payload's blocks into Block Kit Builder)."""
    if fmt in ("slack", "discord"):
        import json

        if fmt == "slack":
            from formatters.slack_blocks import render_slack_digest as digest_payloads
            from formatters.slack_blocks import render_slack_query as query_payloads
        else:
            from formatters.discord_embeds import render_discord_digest as digest_payloads
            from formatters.discord_embeds import render_discord_query as query_payloads
        if isinstance(answer, Digest):
            payloads = digest_payloads(answer, locale=answer.locale)
        else:
            payloads = query_payloads(answer, locale=answer.locale)
        return json.dumps(payloads, ensure_ascii=False, indent=2) + "\n"
    if fmt == "json":
        from formatters.json_format import render_json

        return render_json(answer) + "\n"
    if isinstance(answer, QueryResult):
        from formatters.markdown import render_markdown_query

        return render_markdown_query(answer)
    from formatters.markdown import render_markdown

    return render_markdown(answer)


DEFAULT_SEARCH_WINDOW = WindowSpec("relative", amount=timedelta(days=7), text="7d")


def answer_query(
    store: Store,
    settings: Settings,
    text: str,
    *,
    repo: str | None,
    now: datetime,
    locale: str | None = None,
) -> Digest | QueryResult:
    """``/digest <text>``: the digest when the text has no words or filters, else the matching items."""
    query = parse_query(text)
    repo = query.repo or repo
    if repo is None:
        raise UserError("which repository? add repo:owner/name to the query, or set the channel's repository")
    known = store.repos()
    if repo not in known:
        hint = f" (synced: {', '.join(known[:5])})" if known else ""
        raise UserError(f"{repo} has not been synced{hint}")
    zone = settings.digest.zone
    locale = locale or settings.digest.locale
    if query.is_empty:
        window = query.window.resolve(now, zone) if query.window else default_window(
            now, zone, settings.digest.post_time)
        digest, _ = build_digest_for(store, settings, repo, window, locale=locale)
        return digest
    window = (query.window or DEFAULT_SEARCH_WINDOW).resolve(now, zone)
    taxonomy = load_taxonomy(settings, repo, restrict=False)
    activity = store.window_activity(repo, window.start, window.end)
    items = search(query, activity, window, taxonomy, settings.is_bot)
    notes = list(query.notes)
    synced_from = store.synced_from(repo)
    if synced_from is not None and window.start < synced_from:
        notes.append(f"activity before {synced_from.astimezone(zone):%Y-%m-%d %H:%M} was never synced")
    topic = topic_named(taxonomy, query.words[0]) if len(query.words) == 1 else None
    suggestions: list[str] = []
    if not items:
        suggestions = [f"topic {name}" for name in suggest(taxonomy, query)]
        if query.window is None or (window.end - window.start) < timedelta(days=30):
            suggestions.append("a wider window, e.g. 30d")
    parsed = query.as_dict()
    if notes:
        parsed["notes"] = notes
    return QueryResult(
        repo=repo,
        query=text,
        window=window,
        items=tuple(items),
        topic=topic.id if topic else None,
        topic_title=topic.display_name(locale) if topic else None,
        parsed=parsed,
        suggestions=tuple(suggestions),
        locale=locale,
    )
