"""Deliberately broken targets for the live checks' own tests (all on 127.0.0.1).

* `HostileServer`: a raw socket server that misbehaves at the transport level — hangs, resets, floods,
  drips, speaks garbage — whatever the request.
* `Breaker`: an ASGI middleware around the reference runtime that breaks exactly one thing (a status,
  a header, a timeline order, ...), chosen per test through `BreakerServer.rule`, so one server serves
  every negative fixture of a module.
"""

from __future__ import annotations

import asyncio
import socket
import struct
import threading
import time
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from turnwire.conformance.context import CheckContext
from turnwire.conformance.model import Capability
from turnwire.conformance.targets.http import HttpRuntime
from turnwire.conformance.targets.profile import Limits, TargetProfile
from turnwire.profiles import Profile
from turnwire.reference import ReferenceServer

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

# ---- hostile transport -----------------------------------------------------------------------------------

Behaviour = Callable[[socket.socket, threading.Event], None]


def _read_request(conn: socket.socket) -> bytes:
    """Read up to the end of the request head (bodies of the requests in these tests are small)."""
    data = b""
    conn.settimeout(5)
    while b"\r\n\r\n" not in data and len(data) < 65536:
        try:
            piece = conn.recv(4096)
        except OSError:
            return data
        if not piece:
            return data
        data += piece
    return data


def _head(status: str, headers: dict[str, str]) -> bytes:
    lines = [f"HTTP/1.1 {status}", *(f"{k}: {v}" for k, v in headers.items()), "", ""]
    return "\r\n".join(lines).encode()


def hang(conn: socket.socket, stop: threading.Event) -> None:
    """Read the request, then say nothing until the server stops."""
    _read_request(conn)
    stop.wait()


def reset(conn: socket.socket, stop: threading.Event) -> None:
    """Read the request, then abort the connection (RST)."""
    _read_request(conn)
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


def flood(conn: socket.socket, stop: threading.Event, size: int = 50 * 1024 * 1024) -> None:
    """Answer 200 with a 50 MB body."""
    _read_request(conn)
    conn.sendall(_head("200 OK", {"content-type": "application/json", "content-length": str(size)}))
    block = b"0" * (1024 * 1024)
    sent = 0
    while sent < size and not stop.is_set():
        conn.sendall(block)
        sent += len(block)


def drip(conn: socket.socket, stop: threading.Event) -> None:
    """Answer 200 and then one byte every 0.1 s, forever (no read timeout ever trips)."""
    _read_request(conn)
    conn.sendall(_head("200 OK", {"content-type": "text/event-stream", "transfer-encoding": "chunked"}))
    while not stop.wait(0.1):
        conn.sendall(b"1\r\n:\r\n")


def _body(content_type: str, body: bytes) -> Behaviour:
    def answer(conn: socket.socket, stop: threading.Event) -> None:
        _read_request(conn)
        head = {"content-type": content_type, "content-length": str(len(body)), "connection": "close"}
        conn.sendall(_head("200 OK", head) + body)

    return answer


bad_utf8 = _body("application/json", b'{"turn": {"turn_id": "t\xff\xfe"}}')
deep_json = _body("application/json", b"[" * 10_000 + b"]" * 10_000)


def no_terminator(conn: socket.socket, stop: threading.Event) -> None:
    """Answer an SSE stream with two events, then keep the connection open without ending the body."""
    _read_request(conn)
    events = b'data: {"type":"start"}\n\ndata: {"type":"start-step"}\n\n'
    conn.sendall(_head("200 OK", {"content-type": "text/event-stream", "transfer-encoding": "chunked"}))
    conn.sendall(f"{len(events):x}\r\n".encode() + events + b"\r\n")
    stop.wait()


def cut_off(conn: socket.socket, stop: threading.Event) -> None:
    """Answer an SSE stream with one event, then close the connection before the body's end."""
    _read_request(conn)
    events = b'data: {"type":"start"}\n\n'
    conn.sendall(_head("200 OK", {"content-type": "text/event-stream", "transfer-encoding": "chunked"}))
    conn.sendall(f"{len(events):x}\r\n".encode() + events + b"\r\n")


def paused_open(conn: socket.socket, stop: threading.Event) -> None:
    """Answer a stream up to a tool approval request, a little more 0.1 s later, then keep it open."""
    _read_request(conn)
    conn.sendall(_head("200 OK", {"content-type": "text/event-stream", "transfer-encoding": "chunked"}))
    for events in (
        b'id: 1\ndata: {"type":"start"}\n\nid: 2\ndata: {"type":"tool-approval-request","approvalId":"a1",'
        b'"toolCallId":"c1"}\n\n',
        b'id: 3\ndata: {"type":"finish-step"}\n\n',
    ):
        conn.sendall(f"{len(events):x}\r\n".encode() + events + b"\r\n")
        stop.wait(0.1)
    stop.wait()


def garbage(conn: socket.socket, stop: threading.Event) -> None:
    """Answer something that is not HTTP."""
    _read_request(conn)
    conn.sendall(b"HELLO THERE\r\n\r\n")


class HostileServer:
    """A loopback TCP server whose every connection gets `behaviour`; a context manager."""

    def __init__(self, behaviour: Behaviour) -> None:
        self.behaviour = behaviour
        self._stop = threading.Event()
        self._sock = socket.create_server(("127.0.0.1", 0))
        self._sock.settimeout(0.1)
        self._conns: list[socket.socket] = []
        self._thread = threading.Thread(target=self._serve, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._sock.getsockname()[1]}/api/v2/agent"

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self._conns.append(conn)
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn: socket.socket) -> None:
        try:
            self.behaviour(conn, self._stop)
        except OSError:
            pass
        finally:
            conn.close()

    def __enter__(self) -> HostileServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._sock.close()
        for conn in self._conns:
            with suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
        self._thread.join(5)


# ---- a reference runtime that breaks one thing -------------------------------------------------------------


@dataclass
class Exchange:
    """A buffered HTTP exchange a rule may rewrite."""

    method: str
    path: str
    request_headers: dict[str, str]
    request_body: bytes
    status: int = 0
    headers: list[tuple[bytes, bytes]] = field(default_factory=list)
    body: bytes = b""


@dataclass
class Rule:
    """One break: which requests it touches, and how it rewrites the request and/or the response."""

    name: str
    matches: Callable[[str, str], bool]
    request: Callable[[Exchange], None] | None = None
    response: Callable[[Exchange], None] | None = None
    answer: Callable[[Exchange], bool | None] | None = None
    """Answer without asking the runtime (it never sees the request); returning False passes it on instead."""


class Breaker:
    """ASGI middleware applying the current `Rule` of its `holder` (none: pass through)."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]], holder: dict[str, Rule | None]) -> None:
        self.app = app
        self.holder = holder

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        rule = self.holder.get("rule")
        if scope["type"] != "http" or rule is None or not rule.matches(scope["method"], scope["path"]):
            await self.app(scope, receive, send)
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        exchange = Exchange(scope["method"], scope["path"], headers, body)
        if rule.answer is None or rule.answer(exchange) is False:
            if rule.request is not None:
                rule.request(exchange)
                scope = {
                    **scope,
                    "headers": [
                        (k.encode("latin-1"), v.encode("latin-1")) for k, v in exchange.request_headers.items()
                    ],
                    "query_string": scope["query_string"],
                }
            await self._forward(scope, exchange, send)
            if rule.response is not None:
                rule.response(exchange)
        headers_out = [(k, v) for k, v in exchange.headers if k.lower() != b"content-length"]
        headers_out.append((b"content-length", str(len(exchange.body)).encode()))
        await send({"type": "http.response.start", "status": exchange.status, "headers": headers_out})
        await send({"type": "http.response.body", "body": exchange.body})

    async def _forward(self, scope: Scope, exchange: Exchange, send: Send) -> None:
        sent = False
        never = asyncio.Event()

        async def receive() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": exchange.request_body, "more_body": False}
            await never.wait()
            return {"type": "http.disconnect"}

        async def capture(message: Message) -> None:
            if message["type"] == "http.response.start":
                exchange.status = message["status"]
                exchange.headers = [(bytes(k), bytes(v)) for k, v in message.get("headers", [])]
            elif message["type"] == "http.response.body":
                exchange.body += message.get("body", b"")

        await self.app(scope, receive, capture)


class BreakerServer:
    """The reference runtime (with test hooks) behind a `Breaker`; set `rule` to break one thing."""

    def __init__(self, folder: Path) -> None:
        self.holder: dict[str, Rule | None] = {"rule": None}
        self.server = ReferenceServer(str(folder / "broken.db"), test_hooks=True)
        self.server.app.add_middleware(Breaker, holder=self.holder)

    @property
    def rule(self) -> Rule | None:
        return self.holder["rule"]

    @rule.setter
    def rule(self, value: Rule | None) -> None:
        self.holder["rule"] = value

    @property
    def api_url(self) -> str:
        return self.server.api_url

    def __enter__(self) -> BreakerServer:
        self.server.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.stop()


def live_context(
    url: str,
    profile: Profile = Profile.V7,
    *,
    limits: Limits | None = None,
    capabilities: frozenset[Capability] = frozenset(Capability),
    **options: Any,
) -> tuple[CheckContext, HttpRuntime]:
    """A context with a live runtime at `url` and no recordings (for running one live check)."""
    target = TargetProfile.embedded()
    runtime = HttpRuntime(url, target, limits=limits)
    opts = {"approval_ttl_s": 0.3, "expiry_margin_s": 0.2, "resume_concurrency": 12, "replay_cursors": 6, **options}
    return CheckContext(profile=profile, capabilities=capabilities, live=runtime, options=opts), runtime


@contextmanager
def timed() -> Iterator[list[float]]:
    """`with timed() as t: ...` then `t[0]` is the wall time in seconds."""
    out: list[float] = []
    started = time.monotonic()
    try:
        yield out
    finally:
        out.append(time.monotonic() - started)
