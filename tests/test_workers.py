"""Chat answers built in worker processes (``[chat] build_processes``): the same answers, refusals and bugs as
from the build threads, on a file SQLite store both can open; in-memory SQLite stays on threads."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from zoneinfo import ZoneInfoNotFoundError

import pytest
from msgspec import structs

from bot.app.context import Context
from bot.app.notices import NoRepo, QueryProblem, Refused, RepoNotSynced, Sorry
from bot.app.replies import render_capped
from bot.app.service import DigestService, RenderSpec
from bot.commands.handlers import Commands
from bot.model import Digest, QueryResult
from bot.platforms.slack_app import render_private
from bot.settings import Settings, load_settings
from bot.store.store import Store
from tests.factories import fill_rocm_prs

ROOT = Path(__file__).resolve().parents[1]
NOW = datetime(2025, 12, 2, 4, 0, tzinfo=UTC)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    shutil.copy(ROOT / "config" / "topics.toml", tmp_path)
    (tmp_path / "digest.toml").write_text('[[repos]]\nname = "o/r"\n\n[[repos]]\nname = "o/empty"\n')
    return load_settings(tmp_path, env={})


@pytest.fixture
def filled(sqlite_store: Store) -> Store:
    return fill_rocm_prs(sqlite_store, NOW)


@pytest.fixture
def services(filled: Store, settings: Settings) -> Iterator[tuple[DigestService, DigestService]]:
    """(threads, one worker process) over the same store."""
    threads = DigestService(filled, settings, build_processes=0)
    processes = DigestService(filled, settings, build_processes=1)
    try:
        yield threads, processes
    finally:
        threads.close()
        processes.close()


def ctx(channel: str = "C1") -> Context:
    return Context(platform="slack", channel_id=channel, user_id="U1", now=NOW)


async def test_a_worker_process_gives_the_answers_the_threads_give(
        services: tuple[DigestService, DigestService]) -> None:
    threads, processes = services
    context = structs.replace(threads.default_context(), repo="o/r")
    for text in ("", "rocm 3d", "since 2025-11-01", "label:nothing 30d"):
        expected = await threads.answer_with_notes(context, text, now=NOW)
        got = await processes.answer_with_notes(context, text, now=NOW)
        assert got == expected, text
    assert isinstance(expected[0], QueryResult)
    assert isinstance((await processes.answer_with_notes(context, "", now=NOW))[0], Digest)
    assert processes.pools.processes is not None  # it really was a process pool


async def test_a_rendered_answer_is_the_same_from_a_worker(services: tuple[DigestService, DigestService]) -> None:
    threads, processes = services
    answer = await threads.answer(structs.replace(threads.default_context(), repo="o/r"), "", now=NOW)
    here = render_private(answer, locale="en", timezone="UTC")
    assert await processes.in_heavy_pool(partial(render_private, answer, locale="en", timezone="UTC")) == here


async def test_built_and_rendered_in_one_call_only_the_shown_parts_come_back(
        services: tuple[DigestService, DigestService]) -> None:
    threads, processes = services
    channel = structs.replace(threads.default_context(), repo="o/r")
    spec = RenderSpec(render_private, 1)
    assert await threads.ask_rendered(ctx(), channel, "", spec) is None  # threads: the usual two steps
    rendered, notes = await processes.ask_rendered(ctx(), channel, "", spec)  # type: ignore[misc]
    answer, expected_notes = await threads.answer_with_notes(channel, "", now=NOW)
    shown, more = render_capped(render_private, answer, locale=answer.locale, timezone=channel.timezone, limit=1,
                                trailer=bool(expected_notes))
    assert (list(rendered.shown), rendered.more, rendered.locale, notes) == (shown, more, answer.locale,
                                                                             expected_notes)
    assert more > 0  # the digest has more parts than one: only what is shown crossed back


async def test_refusals_arrive_with_their_notices(services: tuple[DigestService, DigestService]) -> None:
    for service in services:
        context = service.default_context()
        with pytest.raises(Refused) as no_repo:
            await service.answer_with_notes(structs.replace(context, repo=None), "rocm", now=NOW)
        assert no_repo.value.notice == NoRepo()
        with pytest.raises(Refused) as unsynced:
            await service.answer_with_notes(structs.replace(context, repo="o/empty"), "rocm", now=NOW)
        assert unsynced.value.notice == RepoNotSynced("o/empty")
        with pytest.raises(Refused) as problem:
            await service.answer_with_notes(structs.replace(context, repo="o/r"), "labe:bug until:nope", now=NOW)
        assert isinstance(problem.value.notice, QueryProblem) and len(problem.value.notes) == 1


async def test_a_bug_in_a_worker_arrives_as_it_does_from_a_thread(
        services: tuple[DigestService, DigestService]) -> None:
    for service in services:
        broken = structs.replace(service.default_context(), repo="o/r", timezone="Nowhere/Atlantis")
        with pytest.raises(ZoneInfoNotFoundError):
            await service.answer_with_notes(broken, "rocm 3d", now=NOW)
        channel = await service.in_light_pool(service.caller_context, ctx())
        commands = Commands(service)
        # through the command handler a bug is "sorry", never a traceback, and the pool goes on answering
        nowhere = structs.replace(channel, repo="o/r", timezone="Nowhere/Atlantis")
        service.caller_context = lambda caller, nowhere=nowhere: nowhere  # type: ignore[method-assign,misc]
        assert (await commands.handle(ctx(), "rocm 3d")).notice == Sorry()
        del service.caller_context
        ok = await service.answer_with_notes(structs.replace(channel, repo="o/r"), "rocm 3d", now=NOW)
        assert isinstance(ok[0], QueryResult)


async def test_the_pool_starts_on_first_use_and_close_ends_its_workers(filled: Store, settings: Settings) -> None:
    service = DigestService(filled, settings, build_processes=2)
    assert service.pools.processes is None  # nothing started for a service that never answers in chat (the CLI)
    await service.answer(structs.replace(service.default_context(), repo="o/r"), "rocm 3d", now=NOW)
    pool = service.pools.processes
    assert pool is not None
    workers = list(pool._processes.values())
    assert workers and all(worker.is_alive() for worker in workers)
    service.close()
    assert service.pools.processes is None
    assert all(not worker.is_alive() and worker.exitcode == 0 for worker in workers)


def test_in_memory_sqlite_stays_on_threads(settings: Settings) -> None:
    with Store.open("sqlite://") as store:
        service = DigestService(store, settings, build_processes=4)
        assert service.build_processes == 0  # another process cannot open this database
        service.close()
    with Store.open("sqlite:///:memory:") as store:
        assert store.shareable_url is None
