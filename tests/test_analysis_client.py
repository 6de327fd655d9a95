"""ChatClient against a real local HTTP server: the request it sends and every outcome's typed error."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest

from bot.analysis.client import (
    ChatClient,
    Completion,
    LLMBadOutput,
    LLMError,
    LLMRejected,
    LLMTimeout,
    LLMUnavailable,
    estimate_prompt_tokens,
    estimate_tokens,
)
from tests.fakes.openai_api import FakeLLM, Reply

MESSAGES = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Say hi."}]


@pytest.fixture
def fake() -> Iterator[FakeLLM]:
    server = FakeLLM(responder=lambda request: "Hi there.")
    with server.serve():
        yield server


async def complete(fake: FakeLLM, *, api_key: str | None = None, call_timeout: float = 5.0) -> Completion:
    async with ChatClient(fake.base_url, "test-model", api_key, timeout=call_timeout, temperature=0.3) as client:
        return await client.complete(MESSAGES, max_tokens=123)


async def test_posts_an_openai_chat_request_and_reads_text_and_usage(fake: FakeLLM) -> None:
    fake.script(Reply(prompt_tokens=17, completion_tokens=3, finish_reason="length"))
    answer = await complete(fake)
    assert answer == Completion("Hi there.", 17, 3, "length")
    [request] = fake.requests
    assert request.path == "/v1/chat/completions"
    assert request.body == {"model": "test-model", "messages": MESSAGES, "max_tokens": 123, "temperature": 0.3}
    assert request.headers["content-type"] == "application/json"
    assert "authorization" not in request.headers


async def test_bearer_key_only_when_configured(fake: FakeLLM) -> None:
    await complete(fake, api_key="sk-secret")
    await complete(fake, api_key=None)
    assert fake.requests[0].headers["authorization"] == "Bearer sk-secret"
    assert "authorization" not in fake.requests[1].headers


async def test_missing_usage_is_estimated(fake: FakeLLM) -> None:
    fake.script(Reply(usage=False))
    answer = await complete(fake)
    assert answer.prompt_tokens == estimate_prompt_tokens(MESSAGES) > 0
    assert answer.completion_tokens == estimate_tokens("Hi there.") > 0


def test_token_estimate_counts_cjk_per_character() -> None:
    assert estimate_tokens("abcd" * 10) == 10
    assert estimate_tokens("中文摘要") == 4
    assert estimate_tokens("") == 0


@pytest.mark.parametrize(
    ("reply", "error", "reason"),
    [
        (Reply(status=500), LLMUnavailable, "unavailable"),
        (Reply(status=503), LLMUnavailable, "unavailable"),
        (Reply(status=429), LLMUnavailable, "unavailable"),
        (Reply(status=400), LLMRejected, "rejected"),
        (Reply(status=401), LLMRejected, "rejected"),
        (Reply(status=404), LLMRejected, "rejected"),
        (Reply(raw=b"<html>gateway says hi</html>"), LLMBadOutput, "bad output"),
        (Reply(raw=b'{"object": "chat.completion"}'), LLMBadOutput, "bad output"),
        (Reply(raw=b"[1, 2, 3]"), LLMBadOutput, "bad output"),
        (Reply(choices=False), LLMBadOutput, "bad output"),
        (Reply(content=""), LLMBadOutput, "bad output"),
        (Reply(content="   \n"), LLMBadOutput, "bad output"),
        (Reply(raw=b'{"choices": [{"message": {"content": null}}]}'), LLMBadOutput, "bad output"),
    ],
)
async def test_each_outcome_maps_to_one_typed_error(
    fake: FakeLLM, reply: Reply, error: type[LLMError], reason: str
) -> None:
    fake.script(reply)
    with pytest.raises(error) as caught:
        await complete(fake)
    assert caught.value.reason == reason


async def test_error_status_is_kept_and_message_names_it(fake: FakeLLM) -> None:
    fake.script(Reply(status=401))
    with pytest.raises(LLMRejected) as caught:
        await complete(fake)
    assert caught.value.status == 401
    assert "401" in str(caught.value) and "fake error" in str(caught.value)


async def test_a_slow_answer_times_out_within_the_per_call_timeout(fake: FakeLLM) -> None:
    fake.delay = 30
    started = time.monotonic()
    with pytest.raises(LLMTimeout):
        await complete(fake, call_timeout=0.5)
    assert time.monotonic() - started < 5  # generous: the point is "not 30 s"


async def test_a_closed_port_is_unavailable() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    async with ChatClient(f"http://127.0.0.1:{port}/v1", "m", timeout=5, temperature=0) as client:
        with pytest.raises(LLMUnavailable):
            await client.complete(MESSAGES, max_tokens=10)


async def test_base_url_trailing_slash_is_tolerated(fake: FakeLLM) -> None:
    async with ChatClient(fake.base_url + "/", "m", timeout=5, temperature=0) as client:
        await client.complete(MESSAGES, max_tokens=10)
    assert fake.requests[0].path == "/v1/chat/completions"


async def test_complete_outside_async_with_is_a_programming_error() -> None:
    client = ChatClient("http://127.0.0.1:9/v1", "m", timeout=1, temperature=0)
    with pytest.raises(RuntimeError):
        await client.complete(MESSAGES, max_tokens=10)
