"""digest-bot's command line: parse, call, print. User errors are one line on stderr, never a traceback."""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import shlex
import sys
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from bot import __version__
from bot.errors import ConfigError, UserError
from bot.locales import LOCALES
from bot.redact import install_log_redaction, redact, remember_env, remember_secrets
from bot.settings import Settings, check_repo, packaged_config_dir
from bot.timeutil import iso_z, parse_iso, utcnow

if TYPE_CHECKING:
    from bot.analysis.analyst import AnalysisReport
    from bot.app.service import DigestService
    from bot.github.sync import SyncReport
    from bot.model import Digest

_log = logging.getLogger(__name__)
T = TypeVar("T")


FORMATS = ("markdown", "terminal", "json", "slack", "discord", "html")


def _repo_arg(value: str) -> str:
    try:
        return check_repo(value)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _time_arg(value: str) -> datetime:
    try:
        return parse_iso(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"not an ISO 8601 time: {value!r} (e.g. 2025-12-01T03:05:00Z or 2025-12-01)"
        ) from None


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        # argparse prints usage plus the error; keep it, but exit like every other user error.
        self.print_usage(sys.stderr)
        raise UserError(message)


# Options accepted before or after the subcommand (`digest-bot -v demo`, `digest-bot demo -v`). Each parser
# that takes one adds it with default=SUPPRESS, so an option given on one side is never clobbered by the other
# side's default; ``_fill_defaults`` puts the defaults in afterwards.
_GLOBAL: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "config": (("--config",), {"help": "folder (or digest.toml) of the configuration; default ./config"}),
    "verbose": (("-v", "--verbose"), {"action": "store_true", "help": "log what happens"}),
    "debug": (("--debug",), {"action": "store_true", "help": "show tracebacks of unexpected errors"}),
}
_OUTPUT: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "format": (("--format",), {"choices": FORMATS,
                               "help": "default: laid out on a terminal (terminal), plain Markdown in a pipe or file "
                                       "(markdown); slack/discord: the exact payloads that would be sent (JSON); "
                                       "html: the report page"}),
    "locale": (("--locale",), {"choices": LOCALES}),
    "pretty": (("--pretty",), {"action": "store_true",
                               "help": "indent JSON output (json, slack, discord) for reading"}),
}
_DEFAULTS: dict[str, object] = {"config": None, "verbose": False, "debug": False, "format": None, "locale": None,
                                "pretty": False}
# The subcommands that take the output options (before or after their name).
_WITH_OUTPUT = frozenset({"demo", "digest", "query"})


def _add_options(parser: argparse.ArgumentParser, options: dict[str, tuple[tuple[str, ...], dict[str, Any]]],
                 *, note: str = "") -> None:
    for dest, (flags, kwargs) in options.items():
        extra = {"help": f"{kwargs['help']}{note}"} if "help" in kwargs and note else {}
        parser.add_argument(*flags, dest=dest, default=argparse.SUPPRESS, **{**kwargs, **extra})


def _fill_defaults(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """The defaults of the options not given; an output option before a subcommand that has none is an error."""
    if args.command not in _WITH_OUTPUT:
        given = [_OUTPUT[dest][0][0] for dest in _OUTPUT if hasattr(args, dest)]
        if given:
            parser.error(f"{' and '.join(given)}: an option of demo, digest and query, not of {args.command}")
    for dest, value in _DEFAULTS.items():
        if not hasattr(args, dest):
            setattr(args, dest, value)


def _add_output_args(parser: argparse.ArgumentParser) -> None:
    _add_options(parser, _OUTPUT)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="digest-bot", description=__doc__,
                     epilog="Options go before or after the command: digest-bot demo -v --config DIR")
    parser.add_argument("--version", action="version", version=f"digest-bot {__version__}")
    _add_options(parser, _GLOBAL)
    _add_options(parser, _OUTPUT, note=" (demo, digest, query)")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def command(name: str, help: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help)
        _add_options(sub, _GLOBAL)
        return sub

    demo = command("demo", "build a digest of a bundled sample and keep its store for the other commands: no token, "
                           "no network")
    demo.add_argument("--end", type=_time_arg,
                      help="the sample as of this time (ISO 8601): its last day is the default window then; "
                           "default now")
    _add_output_args(demo)

    sync = command("sync", "fetch a repository's issues, PRs and comments into the store")
    sync.add_argument("--repo", type=_repo_arg, help="OWNER/NAME (default: every repository in the config)")
    sync.add_argument("--since", type=_time_arg, help="ISO 8601; default: the stored cursor or the look-back")

    digest = command("digest", "print the digest of a window from the store")
    digest.add_argument("--repo", type=_repo_arg, help="OWNER/NAME (default: the first configured)")
    digest.add_argument("--start", type=_time_arg, help="ISO 8601 (UTC unless an offset is given)")
    digest.add_argument("--end", type=_time_arg, help="ISO 8601; default: the last configured post time")
    _add_output_args(digest)

    query = command("query", 'answer a query such as "rocm" or "qwen hangs 7d" from the store')
    query.add_argument("text", help="topic, words, filters (label:, author:, is:, repo:) and a window (7d, …)")
    query.add_argument("--repo", type=_repo_arg, help="OWNER/NAME (default: the first configured)")
    query.add_argument("--end", type=_time_arg, help="answer as if it were this time (ISO 8601); default now")
    _add_output_args(query)

    serve = command("serve", "the Slack app over HTTP: /slack/events and /healthz on $PORT")
    serve.add_argument("--port", type=int, help="default $PORT or 3000")
    serve.add_argument("--host", help="default $HOST, else 0.0.0.0 in a container or on a PaaS ($PORT set), "
                                      "else 127.0.0.1 (docs/reliability.md)")

    run = command("run", "the worker: sync, schedule, post; Slack Socket Mode and/or Discord")
    run.add_argument("--role", choices=("all", "worker", "planner", "gateway"), default="all",
                     help="with the task engine (PostgreSQL): run tasks, plan, hold the chat gateway, or all "
                          "three (default; docs/scaling.md)")
    command("status", "last sync per repository, last post per channel, pending deliveries, unreadable items")
    return parser


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line, with every option's default in place (wherever the options were given)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    _fill_defaults(parser, args)
    return args


# The language of the command line's own messages: --locale, else the configured one once the settings are read.
_locale = "en"


def _words() -> dict[str, str]:
    from formatters.locale import strings

    words: dict[str, str] = strings(_locale)["cli"]
    return words


def main(argv: Sequence[str] | None = None) -> int:
    global _locale
    # Secrets first: whatever fails from here on (settings included) is printed and logged redacted.
    remember_env(os.environ)
    debug = False
    _locale = "en"
    try:
        args = parse_args(argv)
        debug = args.debug
        _locale = getattr(args, "locale", None) or "en"
        logging.basicConfig(
            level=logging.INFO if args.verbose or args.debug else logging.WARNING,
            format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        )
        install_log_redaction()
        handler: Callable[[argparse.Namespace], int] = HANDLERS[args.command]
        return handler(args)
    except UserError as err:
        words = _words()
        text = words["config"].format(error=err) if isinstance(err, ConfigError) else str(err)
        print(redact(words["prefix"] + text), file=sys.stderr)
        return err.exit_code
    except KeyboardInterrupt:
        print(_words()["prefix"] + _words()["interrupted"], file=sys.stderr)
        return 130
    except Exception as err:
        if debug:
            # The traceback, redacted (Python's own would print URLs and tokens in exception messages).
            import traceback

            print(redact(traceback.format_exc()), file=sys.stderr, end="")
            return 1
        words = _words()
        print(redact(words["prefix"] + words["unexpected"].format(error=f"{type(err).__name__}: {err}")),
              file=sys.stderr)
        return 1


# Commands that answer once and exit: they neither need the cyclic garbage collector (reference counting frees
# what a build makes) nor its last full collection at exit (~85 ms on a big digest).
ONE_SHOT = frozenset({"demo", "digest", "query", "status"})


def run(argv: Sequence[str] | None = None) -> None:
    """The console script: ``main``, and for a one-shot command, no collector while it runs and no collection
    at exit (output flushed first; the store and its files are closed by then)."""
    args = sys.argv[1:] if argv is None else list(argv)
    one_shot = bool(ONE_SHOT.intersection(args))
    if one_shot:
        gc.disable()
    code = main(args)
    if not one_shot:
        raise SystemExit(code)
    sys.stdout.flush()
    sys.stderr.flush()
    logging.shutdown()
    os._exit(code)


def _settings(args: argparse.Namespace) -> Settings:
    """The configuration, checked whole before anything starts (every problem at once, ``ConfigError``); each
    file the folder lacks is the packaged default's, said once here."""
    global _locale
    from bot.topics.catalog import load_checked_settings

    settings = load_checked_settings(args.config)
    remember_secrets(*settings.secret_values())  # e.g. a store password from digest.toml, not the environment
    _locale = getattr(args, "locale", None) or settings.digest.locale
    for name in settings.fallbacks:
        note = _words()["fallback"].format(folder=settings.config_dir, name=name,
                                           path=packaged_config_dir() / name)
        _stderr(_words()["prefix"] + note)
    return settings


def cmd_demo(args: argparse.Namespace) -> int:
    from bot.demo.run import APART, kept_store, run_demo
    from bot.platforms.console import output_format, print_markdown

    settings = _settings(args)
    kept = kept_store(settings)
    if kept.path is None:
        raise UserError(_words()["demo_taken"].format(path=APART.absolute()))
    fmt = output_format(args.format, sys.stdout)
    output = run_demo(fmt="markdown" if fmt == "terminal" else fmt, locale=args.locale, settings=settings,
                      info=_synced, pretty=args.pretty, now=args.end or utcnow(), keep=kept.path)
    if fmt == "terminal":
        print_markdown(output, sys.stdout)
    else:
        sys.stdout.write(output)
    sys.stdout.flush()  # stdout is the digest alone; where its store is, and what to try next, after it on stderr
    _stderr(_demo_next(settings, kept.path, kept.apart, args.end, args.locale))
    return 0


def _demo_next(settings: Settings, path: Path, apart: str, end: datetime | None, locale: str | None) -> str:
    """Where the demo's store is and three commands that answer from it, as typed in a shell from here."""
    from bot.demo.run import SAMPLE_REPO, sqlite_file

    words = _words()
    extra = ""
    if settings.allowed_repo(SAMPLE_REPO) is None:  # this configuration does not follow the sample: the packaged
        extra += f" --config {shlex.quote(str(packaged_config_dir()))}"  # one does (and its default store)
    if settings.default_repo != SAMPLE_REPO and not extra:
        extra += f" --repo {SAMPLE_REPO}"
    if end is not None:
        extra += f" --end {iso_z(end)}"
    if locale is not None and locale != settings.digest.locale:  # answers in the language the demo spoke
        extra += f" --locale {locale}"
    env = ""
    if sqlite_file(settings.database_url) != path or extra.startswith(" --config"):
        env = f"DATABASE_URL={shlex.quote(f'sqlite:///{path}')} "
    commands = [f"{env}digest-bot query {_shell_quote(words['demo_query_hangs'])}{extra}",
                f"{env}digest-bot query {_shell_quote(words['demo_query_week'])}{extra}",
                f"{env}digest-bot digest --format html{extra} > digest.html"]
    where = words["demo_kept"].format(path=path) if not apart else words[f"demo_apart_{apart}"].format(path=path)
    return words["prefix"] + where + "\n" + "\n".join(f"  {command}" for command in commands)


def _shell_quote(text: str) -> str:
    """``text`` as one shell word, in double quotes as people type it (what's new…) when that is safe."""
    return f'"{text}"' if not any(c in text for c in '"$`\\!') else shlex.quote(text)


def cmd_sync(args: argparse.Namespace) -> int:
    from bot.github.factory import build_syncer, github_client
    from bot.store.store import Store

    settings = _settings(args)
    repos = [args.repo] if args.repo else [repo.name for repo in settings.repos]
    if not repos:
        raise UserError(_words()["no_repo"])

    async def run() -> None:
        if args.repo:
            repos[0] = await _allowed_repo(settings, args.repo)
        with Store.open(settings.database_url) as store, _Progress() as progress:
            async with github_client(settings) as client:
                syncer = build_syncer(store, settings, client, progress=progress.update)
                for repo in repos:
                    report = await syncer.sync(repo, since=args.since)
                    progress.close()
                    print(report.line())

    asyncio.run(run())
    return 0


async def _allowed_repo(settings: Settings, repo: str) -> str:
    """``repo`` as followed, or a user error: the CLI syncs only what the bot may read (docs/access.md)."""
    from bot.app.access import RepoAccess
    from bot.github.factory import github_client

    admitted = await RepoAccess(settings, github=lambda: github_client(settings)).admit(repo)
    if admitted is None:
        words = _words()
        extra = words["not_public"] if settings.file.access.allow_public else ""
        raise UserError(words["not_allowed"].format(repo=repo, extra=extra,
                                                    path=settings.digest_path))
    return admitted


def _answer(settings: Settings, make: Callable[[DigestService], T]) -> T:
    """Run one use case against the configured store; a refusal becomes a user error (one line, no traceback)."""
    from bot.app.service import DigestService
    from bot.store.store import Store

    with Store.open(settings.database_url) as store:
        service = DigestService(store, settings)
        try:
            return make(service)
        except Exception as err:
            from bot.app.notices import Refused  # already loaded by whatever raised one; a digest says none

            if not isinstance(err, Refused):
                raise
            from bot.platforms.console import notice_text

            raise UserError("\n".join(notice_text(notice, _locale)
                                      for notice in (err.notice, *err.notes))) from None
        finally:
            service.close()


def cmd_digest(args: argparse.Namespace) -> int:
    from bot.digest.window import resolve_window
    from bot.platforms.console import show

    settings = _settings(args)
    repo = args.repo or settings.default_repo
    if repo is None:
        raise UserError(_words()["no_repo"])
    window = resolve_window(
        start=args.start,
        end=args.end,
        now=utcnow(),
        zone=settings.digest.zone,
        post_time=settings.digest.post_time,
    )

    reports: list[AnalysisReport] = []

    def build(service: DigestService) -> Digest:
        synced = service.last_synced(repo)
        if synced is not None and synced < window.end:
            _stderr(_words()["stale"].format(repo=repo, synced=iso_z(synced), end=iso_z(window.end)))
        digest = service.build_digest(service.default_context(repo=repo, locale=args.locale), window,
                                      analyse=False, series=args.format == "html")
        if not settings.llm_enabled:
            return digest
        from bot.analysis.analyst import analyse_blocking  # only deployments with an LLM load it

        digest, report = analyse_blocking(service.store, settings, digest)
        if report is not None:
            reports.append(report)
        return digest

    show(_answer(settings, build), args.format, sys.stdout, pretty=args.pretty)
    # stdout is the digest alone (it is piped); what the analysis took goes to stderr, after it (docs/llm.md).
    sys.stdout.flush()
    for report in reports:
        _stderr(_words()["llm"].format(line=report.line()))
    return 0


def cmd_query(args: argparse.Namespace) -> int:
    from bot.commands.grammar import Ask, Why, parse_command
    from bot.model import QueryResult
    from bot.platforms.console import show
    from bot.topics.query import parse_query

    settings = _settings(args)
    repo = args.repo or settings.default_repo
    command = parse_command(args.text)
    if isinstance(command, Why):  # the chat command's use case, said in its words
        from bot.platforms.console import render_why

        why = _answer(settings, lambda service: service.why(
            service.default_context(repo=repo, locale=args.locale), command.number, now=args.end or utcnow()))
        sys.stdout.write(render_why(why, args.format, locale=args.locale or settings.digest.locale))
        return 0
    if isinstance(command, Ask):  # the command parsed the text once: its query goes down as it is
        query = command.query
    else:
        from bot.app.notices import Invalid  # loaded already: the grammar made one
        from bot.platforms.console import notice_text

        if isinstance(command, Invalid) and command.problem == "say_why":
            raise UserError(notice_text(command, _locale))
        query = parse_query(args.text)
    answer, notes = _answer(settings, lambda service: service.answer_noted(
        service.default_context(repo=repo, locale=args.locale), query, now=args.end or utcnow()))
    show(answer, args.format, sys.stdout, pretty=args.pretty)
    if notes and not isinstance(answer, QueryResult):  # a query answer says its notes in every format
        from bot.platforms.console import notice_text

        sys.stdout.flush()
        for note in notes:
            _stderr(notice_text(note, args.locale or settings.digest.locale))
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from bot.platforms.runtime import default_host, serve_http
    from bot.platforms.shutdown import Shutdown

    settings = _settings(args)
    port = args.port or int(os.environ.get("PORT") or 3000)
    shutdown = Shutdown()  # SIGTERM: gone within 25 s (docs/scaling.md, "Stopping")
    try:
        asyncio.run(serve_http(settings, host=args.host or default_host(), port=port, shutdown=shutdown))
    finally:
        shutdown.disarm()  # asyncio.run's clean-up (the threads it joins) is over: nothing left to bound
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from bot.platforms.runtime import run_worker
    from bot.platforms.shutdown import Shutdown

    shutdown = Shutdown()  # SIGTERM: gone within 25 s (docs/scaling.md, "Stopping")
    try:
        asyncio.run(run_worker(_settings(args), role=args.role, shutdown=shutdown))
    finally:
        shutdown.disarm()  # asyncio.run's clean-up (the threads it joins) is over: nothing left to bound
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    import json

    from bot.scheduler import delivery_status
    from bot.store.store import Store

    settings = _settings(args)
    with Store.open(settings.database_url) as store:
        # Redacted again: rows stored by an older digest-bot may hold errors written before redaction.
        status = delivery_status(store, settings)
        # How `serve` offers the report pages (docs/reports.md): "public", "signed" or "off".
        status["reports"] = settings.reports_mode
        status["engine"] = _engine_status(settings)
        print(redact(json.dumps(status, indent=2, default=str)))
    return 0


def _engine_status(settings: Settings) -> dict[str, object]:
    """The task engine's workers, queues, oldest waiting task and failures (docs/scaling.md), or why this
    deployment runs as a single process."""
    from bot.runtime.engine import conninfo_for, engine_status, engine_unavailable

    why = engine_unavailable(settings.database_url) or (None if settings.file.engine.enabled else
                                                         "engine.enabled is false")
    conninfo = conninfo_for(settings.database_url)
    if why is not None or conninfo is None:
        return {"mode": "single process (no task engine)", "why": why}
    return engine_status(conninfo, stalled_seconds=settings.file.engine.stalled_seconds)


def _stderr(message: str) -> None:
    print(redact(message), file=sys.stderr)


def _synced(report: SyncReport) -> None:
    """The demo's sync in one line, in the command line's language."""
    rate = f"{report.rate_remaining}/{report.rate_limit}" if report.rate_remaining is not None else "?"
    _stderr(_words()["demo"].format(repo=report.repo, items=report.items, comments=report.comments,
                                    requests=report.requests, details=report.detail_requests, rate=rate))


class _Progress:
    """A tqdm bar per listing on a terminal; silent when stderr is not one (logs, CI, pipes)."""

    def __init__(self) -> None:
        self._bar = None
        self._resource: str | None = None
        self._enabled = sys.stderr.isatty()

    def __enter__(self) -> _Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def update(self, resource: str, done: int, total: int | None) -> None:
        if not self._enabled:
            return
        from tqdm import tqdm

        if resource != self._resource:
            self.close()
            self._resource = resource
            self._bar = tqdm(desc=f"{resource:>8}", total=total, unit="page", leave=False, file=sys.stderr)
        assert self._bar is not None
        if total and (self._bar.total or 0) < total:
            self._bar.total = total
        self._bar.update(done - self._bar.n)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
        self._bar = None
        self._resource = None


HANDLERS: dict[str, Callable[[argparse.Namespace], int]] = {
    "demo": cmd_demo,
    "sync": cmd_sync,
    "digest": cmd_digest,
    "query": cmd_query,
    "serve": cmd_serve,
    "run": cmd_run,
    "status": cmd_status,
}
