"""A fake OpenAI-compatible chat-completions server on 127.0.0.1: records prompts, answers, misbehaves on request.

    fake = FakeLLM()
    with fake.serve():
        client = ChatClient(fake.base_url, "m", timeout=5, temperature=0)   # base_url ends in /v1
        fake.script(Reply(status=500), when=lambda r: r.number == 12)       # one part fails
        fake.delay = 2.0                                                    # every answer takes 2 s

By default each answer is valid and derived from the prompt's kind, read from the data block label the
analysis prompts carry (``<<<BEGIN DATA: digest|discussion #N|change #N>>>``). ``responder`` replaces that
default; ``script`` queues per-request behaviour (status, delay, junk body, empty choices, refusal text,
missing usage, finish reason, or an answer held until the test releases it). Waiting is event-driven
(``wait_for``); delays and holds end early when the server stops, so no test waits out a slow answer.

Servers differ, and so can the fake: ``width`` serves at most that many requests at once (the others wait in
its queue, as on a one-slot llama.cpp server), ``forms`` are the ``response_format`` forms it accepts (others
get a 400 naming the form, or ``form_status``). The well-behaved default answer is JSON of the asked schema
when a ``response_format`` is given, in the prompt's language; ``echo_answer`` (a model that parrots its prompt)
and ``liar_answer`` (a fluent model that invents figures, items and people) are the misbehaving ones.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_LABEL = re.compile(r"<<<BEGIN DATA: (digest|discussion|change)(?: #(\d+))?>>>")
_DATA = re.compile(r"<<<BEGIN DATA: [^\n]*>>>\n(.*?)<<<END DATA>>>", re.DOTALL)
FORMS = frozenset({"json_schema", "json_object+schema", "json_object", "prompt"})
_KINDS = {"digest": "summary", "discussion": "discussion", "change": "impact"}


@dataclass
class Request:
    path: str
    body: dict[str, Any]
    headers: dict[str, str]  # lower-case names

    @property
    def messages(self) -> list[dict[str, str]]:
        return list(self.body.get("messages") or [])

    @property
    def prompt(self) -> str:
        return "\n".join(str(m.get("content", "")) for m in self.messages)

    @property
    def user(self) -> str:
        return next((str(m.get("content", "")) for m in self.messages if m.get("role") == "user"), "")

    @property
    def system(self) -> str:
        return next((str(m.get("content", "")) for m in self.messages if m.get("role") == "system"), "")

    @property
    def kind(self) -> str:
        """summary | discussion | impact | unknown."""
        match = _LABEL.search(self.prompt)
        return _KINDS[match[1]] if match else "unknown"

    @property
    def number(self) -> int | None:
        match = _LABEL.search(self.prompt)
        return int(match[2]) if match and match[2] else None

    @property
    def chinese(self) -> bool:
        return "简体中文" in self.system

    @property
    def form(self) -> str:
        """The response_format form asked for: json_schema | json_object+schema | json_object | prompt."""
        wanted = self.body.get("response_format")
        if not isinstance(wanted, dict):
            return "prompt"
        if wanted.get("type") == "json_object":
            return "json_object+schema" if "schema" in wanted else "json_object"
        return str(wanted.get("type"))

    @property
    def data(self) -> str:
        match = _DATA.search(self.user)
        return match.group(1) if match else ""


@dataclass
class Reply:
    """How to answer one request. ``content=None``: the responder's answer."""

    content: str | None = None
    status: int = 200
    delay: float | None = None  # None: the server's ``delay``
    hold: threading.Event | None = None  # answer only once the test sets it (or the server stops)
    raw: bytes | None = None  # sent as the body as is (junk)
    choices: bool = True  # False: "choices": []
    usage: bool = True  # False: no "usage" object
    prompt_tokens: int | None = None  # reported usage (default: a rough count)
    completion_tokens: int | None = None
    finish_reason: str | None = "stop"


@dataclass
class _Rule:
    reply: Reply
    times: int | None
    when: Callable[[Request], bool] | None


def default_answer(request: Request) -> str:
    """A valid, grounded answer for the prompt's kind, naming the item so tests can tell answers apart: JSON of
    the schema when one is asked for (``{"summary": …}``), else the text alone; Chinese for a zh-CN prompt."""
    kind, number = request.kind, request.number
    if kind == "discussion":
        if request.chinese:
            return json.dumps({
                "question": f"#{number} 是否应该修改默认值？",
                "positions": f"alice 希望为 #{number} 修改默认值；bob 更倾向于增加一个开关。",
                "status": f"#{number} 正在等待维护者做决定。",
            }, ensure_ascii=False)
        return json.dumps({
            "question": f"Should #{number} change the default?",
            "positions": f"alice wants the change for #{number}; bob prefers a flag.",
            "status": f"#{number} waits for a maintainer decision.",
        })
    if kind == "impact":
        text = (f"#{number} 让引擎对所有人都更快。" if request.chinese
                else f"#{number} makes the engine faster for everyone.")
    else:
        text = ("今天很忙：大部分活动集中在热门讨论里，有一个回归问题需要关注。" if request.chinese
                else "A busy day: most activity was in the hot discussions, and one regression needs attention.")
    if request.form != "prompt":
        return json.dumps({kind: text}, ensure_ascii=False)
    return text


def echo_answer(request: Request) -> str:
    """A weak model parroting its prompt: the data block, delimiters and all, or a long piece of it."""
    data = request.data
    label = _LABEL.search(request.user)
    block = f"{label.group(0) if label else ''} {data}"
    if request.kind == "discussion":
        lines = [line for line in data.splitlines() if line.strip()] or [data]
        return json.dumps({"question": lines[0], "positions": " ".join(lines[1:4]) or block[:200],
                           "status": block[:250]}, ensure_ascii=False)
    if request.kind == "impact":
        return json.dumps({"impact": " ".join(data.split())[:280]}, ensure_ascii=False)
    return json.dumps({"summary": block[:700]}, ensure_ascii=False)


LIES = ("412", "97", "31337", "mallory", "trent", "#99871", "#4242", "AIR-RTC", "BIGARCTER")


def liar_answer(request: Request) -> str:
    """A fluent model that invents: figures, items and people that are nowhere in the data (``LIES``)."""
    number = request.number
    if request.chinese:
        texts = {
            "summary": ("今天非常繁忙：共有 412 个新 PR，合并了 97 个，主要由 @mallory 和 @trent 推动；"
                        "#99871 修复了 ROCm 的卡死问题。"),
            "impact": f"#{number} 让 AIR-RTC 在 BIGARCTER 上的吞吐提升了 31337 倍。",
            "question": "是否应该用 #4242 取代现有的调度器？",
            "positions": "@mallory 和 @trent 用 97 组基准测试支持这一方案。",
            "status": "已有 412 位维护者批准，将于下周合并。",
        }
    else:
        texts = {
            "summary": ("A record day: 412 new PRs and 97 merges, led by @mallory and @trent; #99871 fixed the "
                        "ROCm hang."),
            "impact": f"#{number} makes AIR-RTC 31337x faster on BIGARCTER clusters.",
            "question": "Should #4242 replace the scheduler?",
            "positions": "@mallory and @trent back it with 97 benchmarks.",
            "status": "Approved by 412 maintainers; it lands next week.",
        }
    if request.kind == "discussion":
        return json.dumps({name: texts[name] for name in ("question", "positions", "status")}, ensure_ascii=False)
    kind = "impact" if request.kind == "impact" else "summary"
    return json.dumps({kind: texts[kind]}, ensure_ascii=False)


@dataclass
class FakeLLM:
    delay: float = 0.0  # seconds before every answer (unless a Reply says otherwise)
    responder: Callable[[Request], str] = default_answer
    requests: list[Request] = field(default_factory=list)
    max_in_flight: int = 0
    width: int | None = None  # requests served at once (None: all); the others queue
    forms: frozenset[str] = FORMS  # response_format forms accepted
    form_status: int = 400  # the answer to a form it does not accept

    def __post_init__(self) -> None:
        self._rules: list[_Rule] = []
        self._cond = threading.Condition()
        self._stopping = threading.Event()
        self.in_flight = 0
        self.url = ""
        self._serving = threading.Semaphore(self.width) if self.width else None

    @property
    def base_url(self) -> str:
        """The API root, as LLM_BASE_URL would be: ``http://127.0.0.1:PORT/v1``."""
        return self.url + "/v1"

    # --- control ---

    def script(
        self, reply: Reply, *, times: int | None = None, when: Callable[[Request], bool] | None = None
    ) -> None:
        """Answer matching requests (all, or those ``when`` accepts) with ``reply``: ``times`` times, or always.
        Earlier rules win."""
        with self._cond:
            self._rules.append(_Rule(reply, times, when))

    def of(self, kind: str) -> list[Request]:
        with self._cond:
            return [r for r in self.requests if r.kind == kind]

    def wait_for(self, predicate: Callable[[list[Request]], bool], timeout: float = 60.0) -> list[Request]:
        with self._cond:
            if not self._cond.wait_for(lambda: predicate(self.requests), timeout=timeout):
                raise AssertionError(f"timed out waiting; {len(self.requests)} requests so far")
            return list(self.requests)

    # --- serving ---

    def _reply_for(self, request: Request) -> Reply:
        with self._cond:
            for rule in self._rules:
                if (rule.times is None or rule.times > 0) and (rule.when is None or rule.when(request)):
                    if rule.times is not None:
                        rule.times -= 1
                    return rule.reply
        return Reply()

    def _payload(self, request: Request, reply: Reply) -> tuple[int, bytes]:
        if reply.raw is not None:
            return reply.status, reply.raw
        if reply.status >= 400:
            return reply.status, json.dumps({"error": {"message": f"fake error {reply.status}",
                                                       "type": "server_error"}}).encode()
        content = reply.content if reply.content is not None else self.responder(request)
        body: dict[str, Any] = {
            "id": f"chatcmpl-{len(self.requests)}",
            "object": "chat.completion",
            "model": request.body.get("model"),
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                         "finish_reason": reply.finish_reason}] if reply.choices else [],
        }
        if reply.usage:
            body["usage"] = {
                "prompt_tokens": reply.prompt_tokens if reply.prompt_tokens is not None else len(request.prompt) // 4,
                "completion_tokens": reply.completion_tokens if reply.completion_tokens is not None
                else max(1, len(content or "") // 4),
            }
            body["usage"]["total_tokens"] = body["usage"]["prompt_tokens"] + body["usage"]["completion_tokens"]
        return reply.status, json.dumps(body).encode()

    @contextmanager
    def serve(self) -> Iterator[str]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # as real servers do: no 40 ms delayed-ACK stall per answer

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {}
                request = Request(self.path, body if isinstance(body, dict) else {},
                                  {k.lower(): v for k, v in self.headers.items()})
                with fake._cond:
                    fake.requests.append(request)
                    fake.in_flight += 1
                    fake.max_in_flight = max(fake.max_in_flight, fake.in_flight)
                    fake._cond.notify_all()
                status, payload = 404, b'{"error": {"message": "not found"}}'
                try:
                    if self.path.rstrip("/") == "/v1/chat/completions" and request.form not in fake.forms:
                        status, payload = fake.form_status, json.dumps({"error": {
                            "message": f"response_format type {request.form!r} is not supported",
                            "type": "invalid_request_error"}}).encode()
                    elif self.path.rstrip("/") == "/v1/chat/completions":
                        reply = fake._reply_for(request)
                        delay = fake.delay if reply.delay is None else reply.delay
                        if fake._serving is not None:  # a one-slot server: wait for the slot, then work
                            while not fake._serving.acquire(timeout=0.05):
                                if fake._stopping.is_set():
                                    self.close_connection = True
                                    return
                        try:
                            if delay > 0 and fake._stopping.wait(delay):
                                self.close_connection = True
                                return
                            if reply.hold is not None:
                                reply.hold.wait()
                                if fake._stopping.is_set():
                                    self.close_connection = True
                                    return
                            status, payload = fake._payload(request, reply)
                        finally:
                            if fake._serving is not None:
                                fake._serving.release()
                finally:
                    # Before answering: the client frees its slot only once it has the answer, so the
                    # count never overlaps the next request of the same slot.
                    with fake._cond:
                        fake.in_flight -= 1
                        fake._cond.notify_all()
                self._send(status, payload)

            def _send(self, status: int, payload: bytes) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except OSError:  # the client gave up (timeout, deadline): nothing to answer
                    self.close_connection = True

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request: Any, client_address: Any) -> None:  # clients hanging up: expected
                pass

        server = Server(("127.0.0.1", 0), Handler)
        thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        thread.start()
        self._stopping.clear()
        self.url = f"http://127.0.0.1:{server.server_address[1]}"
        try:
            yield self.base_url
        finally:
            self._stopping.set()  # release slow and held answers
            with self._cond:
                for rule in self._rules:
                    if rule.reply.hold is not None:
                        rule.reply.hold.set()
            server.shutdown()
            server.server_close()
            thread.join(timeout=5)
