"""What a check sees: the profile, the claimed capabilities, recorded turns and (for a live target)
a client of the runtime.

Recordings are the common ground: a recording target holds the files it was given; a live target
records every turn it drives (the SSE bytes, the headers, the snapshot it fetched), so the same
recording checks judge both. Checks that must talk to the runtime (resume, reconnect, /run) use
`live`, which is None for a recording.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from turnwire.conformance.model import Capability, Reproducer
from turnwire.profiles import Profile
from turnwire.stream import StreamResult, read_stream


@dataclass
class HttpExchange:
    """One bounded HTTP request/response, kept for the reproducer."""

    method: str
    url: str
    request_headers: Mapping[str, str] = field(default_factory=dict)
    request_body: bytes | None = None
    status: int | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    body: bytes = b""
    error: str | None = None
    """Set when the exchange did not complete: timeout, connection reset, size cap exceeded, ..."""

    def json(self) -> Any:
        """The body parsed as JSON, or None when it is not JSON (checks report that themselves)."""
        from turnwire.canonical import CanonicalError, loads

        try:
            return loads(self.body)
        except CanonicalError:
            return None

    def reproducer(self, *, limit: int = 2000) -> Reproducer:
        """The exchange as text for a report (secrets are redacted by the report writer)."""
        request = f"{self.method} {self.url}"
        if self.request_body:
            request += "\n\n" + self.request_body[:limit].decode("utf-8", "replace")
        if self.error is not None:
            response = f"(no complete response: {self.error})"
        else:
            head = "\n".join(f"{k}: {v}" for k, v in self.headers.items())
            response = f"HTTP {self.status}\n{head}\n\n" + self.body[:limit].decode("utf-8", "replace")
        return Reproducer(request=request, response=response)


@dataclass
class Recording:
    """One recorded turn: what a client received on the wire and what the runtime stores."""

    name: str
    stream: bytes | None = None
    headers: Mapping[str, str] | None = None
    """Response headers of the stream; header checks run only when they are known."""
    at_rest: Any = None
    """The at-rest artefact as parsed JSON: an AgentTurnSnapshot, a UIMessage, or whatever was served."""
    prior: dict[str, Any] | None = None
    """The message the client held before the stream (a continuation)."""
    scenario: str | None = None
    """The scripted scenario's slug, when the turn was scripted (golden checks apply)."""
    exchange: HttpExchange | None = None
    """How the stream was fetched (live targets), for reproducers."""
    at_rest_exchange: HttpExchange | None = None
    """How the at-rest artefact was fetched (live targets), for reproducers."""
    _read: StreamResult | None = field(default=None, repr=False)

    def read(self, profile: Profile) -> StreamResult | None:
        """The stream read end to end (decoded, validated, folded), computed once."""
        if self.stream is None:
            return None
        if self._read is None:
            self._read = read_stream(self.stream, profile, prior=self.prior)
        return self._read


@dataclass(frozen=True)
class LiveTurn:
    """A turn created on a live runtime."""

    chat_id: str
    turn_id: str
    scenario: str
    created: HttpExchange


class LiveRuntime(Protocol):
    """A client of a live runtime's HTTP surface (the reference runtime's routes by default).

    Every call is bounded by a timeout and a response-size cap and returns the exchange, never raises
    for what the target does; a failed exchange carries `error`.
    """

    base_url: str

    def create_turn(
        self,
        scenario: str,
        *,
        profile: Profile,
        approval_ttl_s: float | None = None,
        idempotency_key: str | None = None,
    ) -> LiveTurn | HttpExchange:
        """Create a turn playing `scenario`; the failed exchange when the runtime refused."""
        ...

    def stream(
        self, turn: LiveTurn, *, last_event_id: str | None = None, after_sequence: int | None = None
    ) -> HttpExchange:
        """The turn's UI message stream (from the start, or the suffix after a cursor)."""
        ...

    def snapshot(self, turn: LiveTurn) -> HttpExchange:
        """The turn's at-rest snapshot."""
        ...

    def resume(self, turn: LiveTurn, body: Mapping[str, Any]) -> HttpExchange:
        """POST a resume request for the turn."""
        ...

    def timeline(self, turn: LiveTurn) -> HttpExchange:
        """The turn's session events."""
        ...

    def cancel(self, turn: LiveTurn) -> HttpExchange:
        """Cancel the turn."""
        ...

    def run(self, body: Mapping[str, Any]) -> HttpExchange:
        """POST a run request."""
        ...


@dataclass
class CheckContext:
    """Everything a check may look at."""

    profile: Profile
    capabilities: frozenset[Capability]
    recordings: list[Recording] = field(default_factory=list)
    live: LiveRuntime | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    """Run options (timeouts, size caps, sample counts) by name."""
