"""The live runtime client: the `LiveRuntime` protocol over httpx, bounded in time and size.

Why its own transport: a conformance run must end even when the target misbehaves. httpx bounds each
connect and each read, but a server that sends one byte every second never trips a read timeout. So
every exchange gets a **total deadline**, and a thin network backend under httpcore clamps the timeout
of every socket operation (connect, read, write) to the time left before it — the wait ends at the
deadline whatever the server does. Bodies are read as a stream and cut off at a **size cap**.

Nothing the target does makes a method here raise: timeouts, resets, refused connections, oversize
bodies and malformed HTTP come back as an `HttpExchange` whose `error` starts with a `Failure` token
(`timeout: ...`); `failure_requirement` maps it to the requirement it breaks. What the body holds
(invalid UTF-8, JSON nested 10 000 deep, a stream without terminator) is judged by the checks.
Redirects are never followed: turnwire talks only to the target it was given.
"""

from __future__ import annotations

import contextvars
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from enum import StrEnum
from typing import Any, Final
from urllib.parse import quote

import httpcore
import httpx

from turnwire.canonical import CanonicalError, dumps
from turnwire.conformance.context import HttpExchange, LiveTurn
from turnwire.conformance.model import ReportedFinding
from turnwire.conformance.targets.profile import Limits, TargetProfile, render_template
from turnwire.profiles import Profile

__all__ = [
    "MAX_TIMEOUTS_IN_A_ROW",
    "SENSITIVE_HEADERS",
    "Failure",
    "HttpRuntime",
    "failure_of",
    "failure_of_text",
    "failure_requirement",
]

SENSITIVE_HEADERS: Final = frozenset({"authorization", "proxy-authorization", "cookie", "x-api-key", "api-key"})
"""Request headers whose values never reach a reproducer."""

_MASK = "**********"
UNTIL_GRACE_S: Final = 0.5
"""After `until` is satisfied, how long reading goes on for bytes already on their way."""
MAX_TIMEOUTS_IN_A_ROW: Final = 3
"""After this many timeouts in a row the target is taken as hung: later requests fail at once."""


class Failure(StrEnum):
    """Why an exchange did not complete; each is the prefix of `HttpExchange.error`."""

    TIMEOUT = "timeout"  # no complete response within the read or total timeout
    RESET = "reset"  # the connection was reset or closed before the response was complete
    REFUSED = "refused"  # the connection could not be made (refused, unreachable, DNS)
    SIZE = "size"  # the response body exceeded the size cap (it was cut off there)
    MALFORMED = "malformed"  # the bytes are not a valid HTTP/1.1 response

    def error(self, detail: str) -> str:
        """The `HttpExchange.error` text for this failure."""
        return f"{self.value}: {detail}"


_REQUIREMENTS: Final[Mapping[Failure, str]] = {
    Failure.TIMEOUT: "HTTP-TIMEOUT",
    Failure.RESET: "HTTP-RESET",
    Failure.REFUSED: "HTTP-CONNECT",
    Failure.SIZE: "HTTP-SIZE",
    Failure.MALFORMED: "HTTP-MALFORMED",
}


def failure_of(exchange: HttpExchange) -> Failure | None:
    """The failure an exchange's `error` names (MALFORMED for an error text of unknown form)."""
    return failure_of_text(exchange.error)


def failure_of_text(error: str | None) -> Failure | None:
    """The failure an `HttpExchange.error` text names (None for no error)."""
    if error is None:
        return None
    head = error.split(":", 1)[0]
    try:
        return Failure(head)
    except ValueError:
        return Failure.MALFORMED


def failure_requirement(failure: Failure) -> str:
    """The requirement id a failure breaks."""
    return _REQUIREMENTS[failure]


# ---- the total deadline, enforced under httpcore --------------------------------------------------------

_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar("turnwire_http_deadline", default=None)


def _clamp(timeout: float | None, expired: type[Exception]) -> float | None:
    """`timeout` shortened to the time left before the current exchange's deadline."""
    deadline = _DEADLINE.get()
    if deadline is None:
        return timeout
    left = deadline - time.monotonic()
    if left <= 0:
        raise expired("the total timeout was reached")
    return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore.NetworkStream):
    """A socket stream whose every operation ends by the exchange's deadline."""

    def __init__(self, inner: httpcore.NetworkStream) -> None:
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _clamp(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, _clamp(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None) -> Any:
        inner = self._inner.start_tls(ssl_context, server_hostname, _clamp(timeout, httpcore.ConnectTimeout))
        return _DeadlineStream(inner)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _DeadlineBackend(httpcore.NetworkBackend):
    """httpcore's own socket backend, with every operation clamped to the deadline."""

    def __init__(self) -> None:
        self._inner = httpcore.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        stream = self._inner.connect_tcp(
            host, port, _clamp(timeout, httpcore.ConnectTimeout), local_address, socket_options
        )
        return _DeadlineStream(stream)

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.NetworkStream:
        stream = self._inner.connect_unix_socket(path, _clamp(timeout, httpcore.ConnectTimeout), socket_options)
        return _DeadlineStream(stream)

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


class _BodyStream(httpx.SyncByteStream):
    def __init__(self, inner: Iterable[bytes]) -> None:
        self._inner = inner

    def __iter__(self) -> Iterator[bytes]:
        yield from self._inner

    def close(self) -> None:
        close = getattr(self._inner, "close", None)
        if close is not None:
            close()


class _Transport(httpx.BaseTransport):
    """An httpx transport over an httpcore pool with the deadline backend (httpcore errors pass through)."""

    def __init__(self, max_connections: int) -> None:
        self._pool = httpcore.ConnectionPool(
            max_connections=max_connections,
            max_keepalive_connections=max_connections,
            keepalive_expiry=5.0,
            network_backend=_DeadlineBackend(),
        )

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        assert isinstance(request.stream, httpx.SyncByteStream)
        core = httpcore.Request(
            method=request.method,
            url=httpcore.URL(
                scheme=request.url.raw_scheme,
                host=request.url.raw_host,
                port=request.url.port,
                target=request.url.raw_path,
            ),
            headers=request.headers.raw,
            content=request.stream,
            extensions=request.extensions,
        )
        answer = self._pool.handle_request(core)
        assert isinstance(answer.stream, Iterable)
        return httpx.Response(
            status_code=answer.status,
            headers=answer.headers,
            stream=_BodyStream(answer.stream),
            extensions=answer.extensions,
        )

    def close(self) -> None:
        self._pool.close()


def _classify(exc: Exception) -> str:
    """The `HttpExchange.error` text for an exception raised by the transport."""
    detail = " ".join(str(exc).split()) or type(exc).__name__
    if isinstance(exc, httpcore.TimeoutException | httpx.TimeoutException | TimeoutError):
        return Failure.TIMEOUT.error(detail)
    if isinstance(exc, httpcore.ConnectError | httpx.ConnectError | ConnectionRefusedError):
        return Failure.REFUSED.error(detail)
    if isinstance(exc, httpcore.LocalProtocolError | httpx.LocalProtocolError | UnicodeEncodeError):
        return Failure.MALFORMED.error(f"the request could not be sent ({detail}); it repeats a value the target sent")
    if isinstance(exc, httpcore.RemoteProtocolError | httpx.RemoteProtocolError):
        lowered = detail.lower()
        if "disconnected" in lowered or "peer closed" in lowered or "incomplete" in lowered:
            return Failure.RESET.error(detail)
        return Failure.MALFORMED.error(detail)
    if isinstance(exc, httpcore.NetworkError | httpx.NetworkError | OSError):
        return Failure.RESET.error(detail)
    return Failure.MALFORMED.error(f"{type(exc).__name__}: {detail}")


# ---- the client -------------------------------------------------------------------------------------------


class HttpRuntime:
    """A live runtime at `base_url` (its API base), driven as its target profile says.

    Implements `turnwire.conformance.context.LiveRuntime`, plus `request` (any bounded exchange) and
    `plant_session_snapshot` (capability legacy-planting). Safe to use from several threads at once.
    """

    def __init__(self, base_url: str, target: TargetProfile | None = None, *, limits: Limits | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.target = target or TargetProfile()
        self.limits = limits or self.target.limits
        self.recording_findings: list[ReportedFinding] = []
        """Findings about the exchanges made while recording the scenarios (reported by a check)."""
        self._tripped: str | None = None
        self._timeouts_in_a_row = 0
        timeout = httpx.Timeout(
            connect=self.limits.connect_timeout_s,
            read=self.limits.read_timeout_s,
            write=self.limits.read_timeout_s,
            pool=self.limits.total_timeout_s,
        )
        self._client = httpx.Client(
            transport=_Transport(max_connections=64),
            timeout=timeout,
            follow_redirects=False,
            headers={"accept-encoding": "identity", "user-agent": "turnwire-conformance"},
        )

    def close(self) -> None:
        """Close the connection pool."""
        self._client.close()

    def trip(self, why: str) -> None:
        """Take the target as hung: every later request fails at once with a timeout saying `why`.

        Why: a run against a target that never answers would otherwise wait out the total timeout on
        every one of its requests; one timeout proves the point, the rest only cost time.
        """
        self._tripped = why

    @property
    def tripped(self) -> str | None:
        """Why the target is taken as hung, or None."""
        return self._tripped

    # ---- bounded exchanges ------------------------------------------------------------------------------

    def url(self, route: str, turn: LiveTurn | None = None, *, chat_id: str | None = None) -> str:
        """The absolute URL of a route template, with the turn's (or `chat_id`'s) ids filled in."""
        chat = chat_id if chat_id is not None else (turn.chat_id if turn is not None else "")
        path = route.replace("{chat_id}", quote(chat, safe=""))
        if turn is not None:
            path = path.replace("{turn_id}", quote(turn.turn_id, safe=""))
        return self.base_url + path

    def request(
        self,
        method: str,
        url: str,
        *,
        json_body: Any = None,
        content: bytes | None = None,
        headers: Mapping[str, str] | None = None,
        until: Callable[[bytes], bool] | None = None,
    ) -> HttpExchange:
        """One exchange, bounded by the limits; never raises for what the target does.

        `json_body` is sent as JSON (RFC 8785 bytes, or plain JSON when it is not canonicalisable).
        `until` ends reading early, without error, once it is true of the body read so far and no more
        bytes come within `UNTIL_GRACE_S` (a paused stream a runtime keeps open); bytes already on the
        way (the rest of a stream the runtime is ending) are still read.
        """
        sent_headers = {**self.target.headers, **(headers or {})}
        if json_body is not None:
            content = _json_bytes(json_body)
            sent_headers.setdefault("content-type", "application/json")
        exchange = HttpExchange(
            method=method,
            url=url,
            request_headers={k: (_MASK if k.lower() in SENSITIVE_HEADERS else v) for k, v in sent_headers.items()},
            request_body=content,
        )
        if self._tripped is not None:
            exchange.error = Failure.TIMEOUT.error(f"not sent: {self._tripped}")
            return exchange
        deadline = time.monotonic() + self.limits.total_timeout_s
        token = _DEADLINE.set(deadline)
        body = bytearray()
        stop_by: float | None = None
        try:
            with self._client.stream(method, url, content=content, headers=sent_headers) as response:
                exchange.status = response.status_code
                exchange.headers = dict(response.headers.items())
                for piece in response.iter_raw():
                    body += piece
                    if len(body) > self.limits.max_response_bytes:
                        del body[self.limits.max_response_bytes :]
                        exchange.error = Failure.SIZE.error(
                            f"the response body exceeded the cap of {self.limits.max_response_bytes} bytes"
                        )
                        break
                    if until is not None and stop_by is None and until(bytes(body)):
                        stop_by = time.monotonic() + UNTIL_GRACE_S  # read on only what comes at once
                        _DEADLINE.set(min(deadline, stop_by))
                    if time.monotonic() > deadline:
                        exchange.error = Failure.TIMEOUT.error(
                            f"the response did not end within the total timeout of {self.limits.total_timeout_s} s"
                        )
                        break
        except Exception as exc:  # everything the transport raises is about the target, never a crash
            if stop_by is not None and failure_of_text(_classify(exc)) is Failure.TIMEOUT and deadline > stop_by:
                return self._done(exchange, body)  # our own early stop: the runtime keeps the stream open
            exchange.error = _classify(exc)
            if "total timeout" in exchange.error:
                exchange.error = Failure.TIMEOUT.error(
                    f"no complete response within the total timeout of {self.limits.total_timeout_s} s"
                )
        finally:
            _DEADLINE.reset(token)
        return self._done(exchange, body)

    def _done(self, exchange: HttpExchange, body: bytearray) -> HttpExchange:
        exchange.body = bytes(body)
        self._count_timeouts(exchange)
        return exchange

    def _count_timeouts(self, exchange: HttpExchange) -> None:
        if failure_of(exchange) is not Failure.TIMEOUT:
            self._timeouts_in_a_row = 0
            return
        self._timeouts_in_a_row += 1
        if self._timeouts_in_a_row >= MAX_TIMEOUTS_IN_A_ROW and self._tripped is None:
            self.trip(f"the target timed out {self._timeouts_in_a_row} times in a row")

    # ---- LiveRuntime ------------------------------------------------------------------------------------

    def create_turn(
        self,
        scenario: str,
        *,
        profile: Profile,
        approval_ttl_s: float | None = None,
        idempotency_key: str | None = None,
        chat_id: str | None = None,
    ) -> LiveTurn | HttpExchange:
        """Create a turn playing `scenario` in a new chat (or `chat_id`); the exchange when it failed."""
        target = self.target
        chat = chat_id or f"tw-{uuid.uuid4().hex[:20]}"
        values = {
            "query": target.create_turn.query,
            "scenario": scenario,
            "profile": profile.value,
            "approval_ttl_s": approval_ttl_s,
            "idempotency_key": idempotency_key,
            "chat_id": chat,
        }
        body = render_template(target.create_turn.body_template(target.casing), values)
        exchange = self.request("POST", self.url(target.routes.create_turn, chat_id=chat), json_body=body)
        if exchange.error is not None or exchange.status not in (200, 201):
            return exchange
        turn_id = _dig(exchange.json(), target.create_turn.turn_id_path(target.casing))
        if not isinstance(turn_id, str) or not turn_id:
            return exchange
        return LiveTurn(chat_id=chat, turn_id=turn_id, scenario=scenario, created=exchange)

    def stream(
        self,
        turn: LiveTurn,
        *,
        last_event_id: str | None = None,
        after_sequence: int | None = None,
        until: Callable[[bytes], bool] | None = None,
    ) -> HttpExchange:
        """The turn's UI message stream, from the start or after a cursor.

        `last_event_id` goes in the `Last-Event-ID` header (or the profile's cursor query parameter);
        `after_sequence` in the query (`after_sequence`, or the profile's parameter).
        """
        routes = self.target.routes
        url = self.url(routes.events, turn)
        headers = {"accept": "text/event-stream"}
        query = "after_sequence" if routes.cursor == "last-event-id" else routes.cursor
        if after_sequence is not None:
            url += f"?{quote(query)}={after_sequence}"
        elif last_event_id is not None and routes.cursor == "last-event-id":
            headers["last-event-id"] = last_event_id
        elif last_event_id is not None:
            url += f"?{quote(query)}={quote(last_event_id, safe='')}"
        return self.request("GET", url, headers=headers, until=until)

    def snapshot(self, turn: LiveTurn) -> HttpExchange:
        """The turn's at-rest snapshot."""
        return self.request("GET", self.url(self.target.routes.snapshot, turn), headers={"accept": "application/json"})

    def resume(self, turn: LiveTurn, body: Mapping[str, Any]) -> HttpExchange:
        """POST a resume request (its keys re-spelt in the profile's casing)."""
        return self.request(
            "POST", self.url(self.target.routes.resume, turn), json_body=self.target.casing.keys(dict(body))
        )

    def timeline(self, turn: LiveTurn) -> HttpExchange:
        """The turn's session events."""
        return self.request("GET", self.url(self.target.routes.timeline, turn), headers={"accept": "application/json"})

    def cancel(self, turn: LiveTurn) -> HttpExchange:
        """Cancel the turn."""
        return self.request("POST", self.url(self.target.routes.cancel, turn))

    def run(self, body: Mapping[str, Any]) -> HttpExchange:
        """POST a run request (sent as given: the /run wire has its own casing)."""
        return self.request("POST", self.url(self.target.routes.run), json_body=dict(body))

    def plant_session_snapshot(self, turn: LiveTurn, raw: bytes) -> HttpExchange:
        """Store `raw`, unchecked, as the session snapshot of the turn's chat (a test door of the runtime)."""
        url = self.url(self.target.routes.plant_session_snapshot, turn)
        return self.request("PUT", url, content=raw, headers={"content-type": "application/json"})


def _json_bytes(value: Any) -> bytes:
    try:
        return dumps(value)
    except CanonicalError:
        import json

        return json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")


def _dig(value: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value
