"""A fake Slack Web API on 127.0.0.1: records calls, answers like Slack, and misbehaves on request.

Posted messages are kept (``messages``: channel, ts, thread_ts, blocks, ``metadata``) and served back by
``conversations.history`` (top-level messages, newest first) and ``conversations.replies`` (the parent, then
the replies), paged with ``limit``/``cursor``, filtered by ``oldest``; ``metadata`` is included only with
``include_all_metadata``, as on Slack. ``server_error(..., acted=True)`` posts the message and then answers
5xx; ``time_out(...)`` posts it and never answers (the client's timeout fires): both are the ambiguous
failures a sender cannot tell from "nothing happened".

Used with the real slack_sdk client (``AsyncWebClient(base_url=fake.base_url + "/api/")``) and for
``response_url`` posts (``fake.response_url(name)``). Many workspaces: ``grant(code, team, token)`` makes an
OAuth code that ``oauth.v2.access`` exchanges once for that workspace's bot token, and ``auth.test`` answers
with the token's own team (``team_of(call)`` tells which workspace's token made a call). ``grant(…,
enterprise="E…")``: a workspace of an Enterprise Grid organization, answered in the shape of Slack's documented
example (``"enterprise": {"id", "name"}``, no ``is_enterprise_install``); ``org_wide=True``: an org-wide
install (``"team": null``, ``"is_enterprise_install": true``). ``auth.revoke`` revokes the calling token.

Waiting is event-driven: ``wait_for`` blocks on a
condition notified by every request, never on a sleep.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit


@dataclass
class Call:
    method: str  # "chat.postMessage", or "response:<name>" for response_url posts
    data: dict[str, Any]
    headers: dict[str, str]
    status: int = 200
    hang: threading.Event | None = field(default=None, repr=False, compare=False)


@dataclass
class _Fault:
    status: int
    body: dict[str, Any]
    headers: dict[str, str]
    times: int
    when: Callable[[Call], bool] | None
    acted: bool = False  # do the work first, then answer the fault
    hang: threading.Event | None = None  # never answer (until set, then drop the connection)


@dataclass
class FakeSlack:
    admins: set[str] = field(default_factory=set)
    calls: list[Call] = field(default_factory=list)
    client_id: str = "111.222"
    client_secret: str = "shh-client-secret"
    tokens: dict[str, str] = field(default_factory=dict)  # bot token -> team id (auth.test answers with it)

    def __post_init__(self) -> None:
        self._faults: dict[str, list[_Fault]] = {}
        self._holds: dict[str, tuple[int, threading.Event]] = {}
        self._cond = threading.Condition()
        self._ts = int(time.time())  # real-time ts: clients bound history look-ups with ``oldest``
        self.messages: list[dict[str, Any]] = []
        self.base_url = ""
        self._codes: dict[str, tuple[str, str, str, str, str | None, bool]] = {}
        self._revoked: set[str] = set()
        self.enterprises: dict[str, str] = {}  # bot token -> Enterprise Grid organization id

    # --- control ---

    def fail(self, method: str, error: str, *, times: int = 1, when: Callable[[Call], bool] | None = None) -> None:
        """Answer ``method`` with ``{"ok": false, "error": error}`` (HTTP 200, like Slack)."""
        self._add(method, _Fault(200, {"ok": False, "error": error}, {}, times, when))

    def rate_limit(self, method: str, *, retry_after: int | str = 1, times: int = 1,
                   when: Callable[[Call], bool] | None = None) -> None:
        self._add(method, _Fault(429, {"ok": False, "error": "ratelimited"}, {"Retry-After": str(retry_after)},
                                 times, when))

    def calm(self, method: str) -> None:
        """Drop every fault still pending for ``method`` (a storm is over)."""
        with self._cond:
            self._faults.pop(method, None)

    def server_error(self, method: str, *, status: int = 503, times: int = 1, acted: bool = False,
                     when: Callable[[Call], bool] | None = None) -> None:
        """Answer ``status``; with ``acted`` after doing the work (a message is posted all the same)."""
        self._add(method, _Fault(status, {"ok": False, "error": "fatal_error"}, {}, times, when, acted=acted))

    def time_out(self, method: str, *, times: int = 1, when: Callable[[Call], bool] | None = None) -> threading.Event:
        """Do the work, then leave the request unanswered until the returned event is set (the client's
        timeout fires first). Set it when the test ends."""
        release = threading.Event()
        self._add(method, _Fault(0, {}, {}, times, when, acted=True, hang=release))
        return release

    def posted(self, channel: str | None = None) -> list[dict[str, Any]]:
        """Messages that exist in Slack (posted, whatever the poster was told), oldest first."""
        with self._cond:
            return [m for m in self.messages if channel is None or m["channel"] == channel]

    def headlines(self) -> Counter[str]:
        """Top-level messages (a post's headline, not its thread replies) per channel."""
        with self._cond:
            return Counter(str(m["channel"]) for m in self.messages if not m["thread_ts"])

    def repeats(self) -> int:
        """Messages accepted more than once (same channel, blocks and text): what a doubled post leaves."""
        with self._cond:
            parts = Counter((m["channel"], json.dumps(m["blocks"], sort_keys=True), m["text"]) for m in self.messages)
        return sum(n - 1 for n in parts.values() if n > 1)

    def _add(self, method: str, fault: _Fault) -> None:
        with self._cond:
            self._faults.setdefault(method, []).append(fault)

    def hold(self, method: str, *, after: int) -> threading.Event:
        """Leave the call of ``method`` after the first ``after`` unanswered (recorded with status 0) until the
        returned event is set: the platform never accepted it, as when the sender dies mid-request."""
        release = threading.Event()
        with self._cond:
            self._holds[method] = (after, release)
        return release

    def grant(self, code: str, team: str, token: str, *, team_name: str | None = None,
              user: str = "UINSTALLER", enterprise: str | None = None, org_wide: bool = False) -> None:
        """Slack's side of an OAuth install: ``code`` (given to the browser) is exchanged once for ``token``.
        ``enterprise``: the workspace is in that Enterprise Grid organization; ``org_wide``: the install is for
        the whole organization (no workspace)."""
        with self._cond:
            self._codes[code] = (team, team_name or f"Team {team}", token, user, enterprise, org_wide)
            self.tokens[token] = team
            if enterprise is not None:
                self.enterprises[token] = enterprise

    def revoke(self, token: str) -> None:
        """The workspace removed the app: its token stops working (``invalid_auth``)."""
        with self._cond:
            self.tokens.pop(token, None)
            self._revoked.add(token)

    @staticmethod
    def token_of(call: Call) -> str | None:
        auth = call.headers.get("authorization", "")
        return auth.removeprefix("Bearer ").strip() if auth.startswith("Bearer ") else call.data.get("token")

    def team_of(self, call: Call) -> str | None:
        """The workspace whose token made ``call`` (None: a token the fake never issued)."""
        token = self.token_of(call)
        return self.tokens.get(token) if token else None

    def response_url(self, name: str = "r1") -> str:
        return f"{self.base_url}/response/{name}"

    def of(self, method: str, *, ok_only: bool = True) -> list[Call]:
        with self._cond:
            return [c for c in self.calls if c.method == method and (c.status == 200 or not ok_only)]

    def wait_for(self, predicate: Callable[[list[Call]], bool], timeout: float = 60.0) -> list[Call]:
        with self._cond:
            if not self._cond.wait_for(lambda: predicate(self.calls), timeout=timeout):
                raise AssertionError(f"timed out waiting; calls so far: {[c.method for c in self.calls]}")
            return list(self.calls)

    async def until(self, predicate: Callable[[list[Call]], bool], timeout: float = 60.0) -> list[Call]:  # noqa: ASYNC109
        """``wait_for`` for async tests: waits in a thread so the event loop keeps serving the app."""
        import asyncio

        return await asyncio.to_thread(self.wait_for, predicate, timeout)

    # --- serving ---

    def _answer(self, call: Call) -> tuple[int, dict[str, Any], dict[str, str]]:
        with self._cond:
            chosen = None
            for fault in self._faults.get(call.method, []):
                if fault.times > 0 and (fault.when is None or fault.when(call)):
                    fault.times -= 1
                    chosen = fault
                    break
        if chosen is None:
            return 200, self._ok(call), {}
        if chosen.acted:
            self._ok(call)
        call.hang = chosen.hang
        return chosen.status, chosen.body, chosen.headers

    def _ok(self, call: Call) -> dict[str, Any]:
        data = call.data
        if call.method.startswith("response:"):
            return {"ok": True}
        if call.method == "oauth.v2.access":
            return self._exchange(call)
        if self.token_of(call) in self._revoked:
            return {"ok": False, "error": "invalid_auth"}
        if call.method == "chat.postMessage":
            with self._cond:
                self._ts += 1
                ts = f"{self._ts}.000100"
                stored = {"channel": data.get("channel"), "ts": ts, "thread_ts": data.get("thread_ts") or None,
                          "text": data.get("text"), "blocks": data.get("blocks"), "metadata": data.get("metadata")}
                self.messages.append(stored)
            return {"ok": True, "channel": data.get("channel"), "ts": ts,
                    "message": {"text": data.get("text"), "ts": ts, "thread_ts": data.get("thread_ts")}}
        if call.method in ("conversations.history", "conversations.replies"):
            return self._history(call.method, data)
        if call.method == "conversations.open":
            users = str(data.get("users", ""))
            return {"ok": True, "channel": {"id": "D" + users.split(",")[0]}}
        if call.method == "users.info":
            user = str(data.get("user"))
            return {"ok": True, "user": {"id": user, "is_admin": user in self.admins,
                                         "is_owner": False, "deleted": False}}
        if call.method == "auth.test":
            team = self.team_of(call) or "T1"
            answer = {"ok": True, "user_id": "UBOT", "bot_id": "BBOT", "team_id": team,
                      "url": f"https://{team.lower()}.slack.com/"}
            enterprise = self.enterprises.get(self.token_of(call) or "")
            if enterprise is not None:
                answer["enterprise_id"] = enterprise
            return answer
        if call.method == "auth.revoke":
            token = self.token_of(call)
            if token:
                self.revoke(token)
            return {"ok": True, "revoked": True}
        return {"ok": True}

    def _exchange(self, call: Call) -> dict[str, Any]:
        import base64

        expected = "Basic " + base64.b64encode(f"{self.client_id}:{self.client_secret}".encode()).decode()
        given = call.headers.get("authorization", "")
        sent = (str(call.data.get("client_id")), str(call.data.get("client_secret")))
        if given != expected and sent != (self.client_id, self.client_secret):
            return {"ok": False, "error": "invalid_client_id"}
        with self._cond:
            grant = self._codes.pop(str(call.data.get("code")), None)
        if grant is None:
            return {"ok": False, "error": "invalid_code"}
        team, name, token, user, enterprise, org_wide = grant
        if enterprise is not None and org_wide:  # the whole organization: no workspace
            return {"ok": True, "app_id": "A1", "authed_user": {"id": user}, "scope": "commands,chat:write",
                    "token_type": "bot", "access_token": token, "bot_user_id": "UBOT", "team": None,
                    "enterprise": {"id": enterprise, "name": f"Org {enterprise}"}, "is_enterprise_install": True}
        if enterprise is not None:  # the shape of Slack's documented oauth.v2.access example response
            return {"access_token": token, "app_id": "A1",
                    "authed_user": {"id": user, "scope": "chat:write", "token_type": "user"},
                    "bot_user_id": "UBOT", "enterprise": {"id": enterprise, "name": f"Org {enterprise}"}, "ok": True,
                    "scope": "commands,chat:write", "team": {"id": team, "name": name}, "token_type": "bot"}
        return {"ok": True, "app_id": "A1", "authed_user": {"id": user}, "scope": "commands,chat:write",
                "token_type": "bot", "access_token": token, "bot_user_id": "UBOT", "team": {"id": team, "name": name},
                "enterprise": None, "is_enterprise_install": False}

    def _history(self, method: str, data: dict[str, Any]) -> dict[str, Any]:
        channel = str(data.get("channel"))
        oldest = float(data.get("oldest") or 0)
        with self._cond:
            mine = [m for m in self.messages if m["channel"] == channel]
        if method == "conversations.history":
            found = [m for m in reversed(mine) if m["thread_ts"] in (None, m["ts"]) and float(m["ts"]) > oldest]
        else:
            parent = next((m for m in mine if m["ts"] == data.get("ts")), None)
            if parent is None:
                return {"ok": False, "error": "thread_not_found"}
            found = [parent, *(m for m in mine if m["thread_ts"] == parent["ts"] and float(m["ts"]) > oldest)]
        start = int(data.get("cursor") or 0)
        limit = int(data.get("limit") or 100)
        page = found[start:start + limit]
        with_metadata = str(data.get("include_all_metadata")).lower() in ("1", "true")
        messages = [{"type": "message", "ts": m["ts"], "text": m["text"], "bot_id": "BBOT",
                     **({"thread_ts": m["thread_ts"]} if m["thread_ts"] else {}),
                     **({"metadata": m["metadata"]} if with_metadata and m["metadata"] else {})} for m in page]
        more = start + limit < len(found)
        return {"ok": True, "messages": messages, "has_more": more,
                "response_metadata": {"next_cursor": str(start + limit) if more else ""}}

    @contextmanager
    def serve(self) -> Iterator[str]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length).decode("utf-8")
                url = urlsplit(self.path)
                path = url.path
                if path.startswith("/api/"):
                    method = path[len("/api/"):]
                elif path.startswith("/response/"):
                    method = "response:" + path[len("/response/"):]
                else:
                    self._send(404, {"ok": False, "error": "unknown_method"}, {})
                    return
                content_type = self.headers.get("Content-Type", "")
                if "json" in content_type:
                    data = json.loads(raw or "{}")
                else:
                    data = dict(parse_qsl(raw))
                    for key in ("blocks", "attachments"):
                        if isinstance(data.get(key), str):
                            data[key] = json.loads(data[key])
                data = {**dict(parse_qsl(url.query)), **data}  # slack_sdk sends some arguments as params
                call = Call(method, data, {k.lower(): v for k, v in self.headers.items()})
                with fake._cond:
                    held = fake._holds.get(method)
                    answered = sum(1 for c in fake.calls if c.method == method and c.status)
                    if held is not None and answered >= held[0]:
                        del fake._holds[method]  # one call is held; later ones are answered normally
                        call.status = 0
                        fake.calls.append(call)
                        fake._cond.notify_all()
                if call.status == 0 and held is not None:
                    held[1].wait(60)
                    self.close_connection = True
                    return
                status, body, headers = fake._answer(call)
                call.status = status
                with fake._cond:
                    fake.calls.append(call)
                    fake._cond.notify_all()
                if call.hang is not None:  # acted, and never answers: the client gives up on its own
                    call.hang.wait(60)
                    self.close_connection = True
                    return
                self._send(status, body, headers)

            do_GET = do_POST  # users.info and friends are GETs with query parameters

            def _send(self, status: int, body: dict[str, Any], headers: dict[str, str]) -> None:
                payload = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(payload)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        self.base_url = f"http://127.0.0.1:{server.server_address[1]}"
        try:
            yield self.base_url
        finally:
            server.shutdown()
            server.server_close()
            thread.join(timeout=5)
