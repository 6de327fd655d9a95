"""A minimal client for any OpenAI-compatible chat-completions endpoint (vLLM, OpenAI, Ollama, …).

One call, no retries: the analysis has a budget and a deadline, and every failure falls back to the
deterministic text, so a retry would only spend both. Every outcome is mapped to a typed error in one place
(``_raise_for``/``_parse``), each with a short ``reason`` the analysis counts and logs.

Structured output: a call given a JSON schema asks for it through ``response_format``, in the first form the
endpoint accepts, most precise first (``FORMS``): ``json_schema`` (OpenAI, vLLM, recent Ollama), ``json_object``
with a ``schema`` (llama-cpp-python's server, which refuses ``json_schema``), plain ``json_object``, then none
(the prompt alone asks for JSON). An error answer whose message names the format (400, 422; a 500 from
llama-cpp-python) moves to the next form at once, within the same call's timeout; the form an endpoint took is
remembered for the process (``FormMemory``, in memory: a restart finds it again with one refused request).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import re
import threading
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx

from bot import __version__

_log = logging.getLogger(__name__)

USER_AGENT = f"digest-bot/{__version__}"
MAX_RESPONSE_BYTES = 2 * 1024 * 1024  # a chat answer of a few hundred tokens; anything bigger is not one
MESSAGE_OVERHEAD_TOKENS = 4  # role and separators, per message (OpenAI's own rule of thumb)


class LLMError(Exception):
    """Base of every failed call; ``reason`` is a short label for counting and logs."""

    reason = "error"

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class LLMUnavailable(LLMError):
    """Could not connect, the server failed (5xx) or is overloaded (429)."""

    reason = "unavailable"


class LLMTimeout(LLMError):
    """No complete answer within the per-call timeout."""

    reason = "timeout"


class LLMRejected(LLMError):
    """The server refused the request (4xx other than 429: bad key, unknown model, prompt too long…)."""

    reason = "rejected"


class LLMBadOutput(LLMError):
    """An answer that is not a chat completion: not JSON, no choices, empty content."""

    reason = "bad output"


@dataclass(frozen=True, slots=True)
class Completion:
    text: str
    prompt_tokens: int
    completion_tokens: int
    finish_reason: str | None


def estimate_tokens(text: str) -> int:
    """A tokenizer-free upper-ish estimate: ~4 ASCII characters per token, one token per other character
    (CJK text is close to one token a character with common tokenizers)."""
    ascii_chars = sum(1 for char in text if char < "\x80")
    return math.ceil(ascii_chars / 4) + (len(text) - ascii_chars)


def estimate_prompt_tokens(messages: list[dict[str, str]]) -> int:
    return sum(estimate_tokens(message.get("content", "")) + MESSAGE_OVERHEAD_TOKENS for message in messages) + 3


_DEFAULT_PORTS = {"http": 80, "https": 443}

# The response_format forms, most precise first; "prompt": no response_format at all.
FORMS = ("json_schema", "json_object+schema", "json_object", "prompt")
_NAMES_FORMAT = re.compile(r"response_format|json_schema|json_object|schema|grammar", re.IGNORECASE)


class FormMemory:
    """The response_format form each endpoint accepted (endpoint id -> index in ``FORMS``), for the process.
    Thread-safe: digests analysed on several loops share it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._forms: dict[str, int] = {}

    def get(self, endpoint: str) -> int:
        with self._lock:
            return self._forms.get(endpoint, 0)

    def refused(self, endpoint: str, index: int) -> int:
        """The endpoint refused form ``index``: the next one, remembered (never back to a refused one)."""
        with self._lock:
            current = max(self._forms.get(endpoint, 0), index + 1)
            self._forms[endpoint] = min(current, len(FORMS) - 1)
            return self._forms[endpoint]

    def clear(self) -> None:
        with self._lock:
            self._forms.clear()


FORM_MEMORY = FormMemory()


def response_format(form: str, name: str, schema: dict[str, Any]) -> dict[str, Any] | None:
    if form == "json_schema":
        return {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": True}}
    if form == "json_object+schema":
        return {"type": "json_object", "schema": schema}
    if form == "json_object":
        return {"type": "json_object"}
    return None


def endpoint_id(base_url: str) -> str:
    """The API root as an identity (cache keys, shared limits): ``scheme://host[:port]/path``, lower-case scheme
    and host, no default port, no trailing slash, and nothing that may carry a secret (user info, query,
    fragment)."""
    parts = urlsplit(base_url.strip())
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if ":" in host:  # IPv6
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    netloc = host if port is None or port == _DEFAULT_PORTS.get(scheme) else f"{host}:{port}"
    return f"{scheme}://{netloc}{parts.path.rstrip('/')}"


class ChatClient:
    """``async with ChatClient(base_url, model, timeout=30, temperature=0.2) as llm: await llm.complete(...)``.

    ``base_url`` is the API root including its version, e.g. ``http://host:8000/v1``; requests go to
    ``{base_url}/chat/completions``. ``timeout`` bounds a whole call (connect, send, wait, read)."""

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        *,
        timeout: float,
        temperature: float,
        transport: httpx.AsyncBaseTransport | None = None,
        forms: FormMemory | None = None,
    ) -> None:
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.endpoint = endpoint_id(base_url)
        self.forms = forms or FORM_MEMORY
        self.model = model
        self.timeout = timeout
        self.temperature = temperature
        self._headers = {"User-Agent": USER_AGENT, "Accept": "application/json"}
        if api_key:
            self._headers["Authorization"] = f"Bearer {api_key}"
        self._transport = transport
        self._http: httpx.AsyncClient | None = None

    async def __aenter__(self) -> ChatClient:
        self._http = httpx.AsyncClient(
            timeout=httpx.Timeout(self.timeout), transport=self._transport, headers=self._headers
        )
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._http is not None:
            await self._http.aclose()
            self._http = None

    async def complete(
        self, messages: list[dict[str, str]], *, max_tokens: int, schema: dict[str, Any] | None = None,
        schema_name: str = "answer", within: float | None = None,
    ) -> Completion:
        """One answer. ``schema``: ask for JSON of that shape (``response_format``, as the endpoint takes it);
        ``within``: a bound tighter than the client's timeout for this call (what is left before a deadline)."""
        if self._http is None:
            raise RuntimeError("ChatClient is used outside 'async with'")
        limit = min(self.timeout, within) if within is not None else self.timeout
        body: dict[str, Any] = {
            "model": self.model, "messages": messages, "max_tokens": max_tokens, "temperature": self.temperature,
        }
        try:
            # httpx's timeouts are per operation (a server dribbling bytes never trips the read timeout): this
            # one bounds the whole call.
            async with asyncio.timeout(limit):
                form = self.forms.get(self.endpoint) if schema is not None else len(FORMS) - 1
                while True:
                    wanted = response_format(FORMS[form], schema_name, schema) if schema is not None else None
                    if wanted is None:
                        body.pop("response_format", None)
                    else:
                        body["response_format"] = wanted
                    status, raw = await self._post(body)
                    # llama-cpp-python answers an unknown form with a 500 naming it, others with 400 or 422.
                    refusal = status >= 400 and status != 429 and _NAMES_FORMAT.search(_error_detail(raw))
                    if wanted is None or not refusal:
                        break
                    refused = FORMS[form]
                    form = self.forms.refused(self.endpoint, form)
                    _log.info("LLM endpoint %s refused response_format %s (%s): now %s", self.endpoint, refused,
                              _error_detail(raw)[:120], FORMS[form])
        except TimeoutError:
            raise LLMTimeout(f"no answer within {limit:g} s") from None
        except httpx.TimeoutException as err:
            raise LLMTimeout(f"{type(err).__name__} after {limit:g} s") from None
        except httpx.TransportError as err:  # connect errors, resets, protocol errors
            raise LLMUnavailable(f"{type(err).__name__}: {err}") from None
        _raise_for(status, raw)
        return _parse(raw, messages)

    async def _post(self, body: dict[str, Any]) -> tuple[int, bytes]:
        assert self._http is not None
        async with self._http.stream("POST", self.url, json=body) as response:
            chunks: list[bytes] = []
            size = 0
            async for chunk in response.aiter_bytes():
                size += len(chunk)
                if size > MAX_RESPONSE_BYTES:
                    if response.is_success:
                        raise LLMBadOutput(f"answer larger than {MAX_RESPONSE_BYTES} bytes")
                    break  # an error page: its start is enough for the message
                chunks.append(chunk)
            return response.status_code, b"".join(chunks)


def _raise_for(status: int, raw: bytes) -> None:
    if 200 <= status < 300:
        return
    detail = _error_detail(raw)
    message = f"HTTP {status}" + (f": {detail}" if detail else "")
    if status == 408:
        raise LLMTimeout(message, status=status)
    if status == 429 or status >= 500:
        raise LLMUnavailable(message, status=status)
    if 400 <= status < 500:
        raise LLMRejected(message, status=status)
    raise LLMUnavailable(message, status=status)  # 1xx/3xx: not an API answer (a redirecting proxy…)


def _error_detail(raw: bytes) -> str:
    try:
        data = json.loads(raw)
        error = data.get("error") if isinstance(data, dict) else None
        text = error.get("message") if isinstance(error, dict) else error if isinstance(error, str) else None
    except (ValueError, UnicodeDecodeError):
        text = None
    if text is None:
        text = raw[:200].decode("utf-8", "replace")
    return " ".join(str(text).split())[:200]


def _parse(raw: bytes, messages: list[dict[str, str]]) -> Completion:
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise LLMBadOutput(f"answer is not JSON: {raw[:80]!r}") from None
    choices = data.get("choices") if isinstance(data, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise LLMBadOutput("answer has no choices")
    choice = choices[0]
    message = choice.get("message")
    text = message.get("content") if isinstance(message, dict) else None
    if not isinstance(text, str) or not text.strip():
        raise LLMBadOutput("answer has no content")
    finish = choice.get("finish_reason")
    usage = data.get("usage")
    usage = usage if isinstance(usage, dict) else {}
    return Completion(
        text=text,
        prompt_tokens=_count(usage.get("prompt_tokens"), lambda: estimate_prompt_tokens(messages)),
        completion_tokens=_count(usage.get("completion_tokens"), lambda: estimate_tokens(text)),
        finish_reason=finish if isinstance(finish, str) else None,
    )


def _count(value: object, estimate: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    return int(estimate())
