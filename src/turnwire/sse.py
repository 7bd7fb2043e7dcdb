"""Strict, incremental Server-Sent Events codec for the AI SDK UI message stream.

Why this module exists: the Vercel AI SDK's UI message stream is plain SSE. Each chunk travels as
`data: <JSON>` followed by a blank line, and the stream ends with `data: [DONE]`. A real client sees
the body as network reads split at arbitrary places: in the middle of a line, between the CR and LF of
one CRLF, inside a multi-byte UTF-8 sequence. So the decoder must yield exactly the same events
however the bytes are split. A conformance kit must also keep going on broken input and say where the
input is broken, so framing problems become `Finding`s with byte offsets, never exceptions.

The decoder follows the WHATWG HTML "Interpreting an event stream" rules (section 9.2.6). It works on
bytes with `split`/`find` rather than a per-byte loop, because it sits on the path a user waits on.
It adds checks that matter to an AI SDK client: invalid UTF-8, a last event without its blank line
(the client drops it silently), unknown fields, event names, and size caps.

The JSON layer (`parse_json_events`) applies the client's next step (skip `[DONE]`, parse each
`data` as JSON). The encoder writes the exact framing of the SDK's `JsonToSseTransformStream`, with
the payload in RFC 8785 canonical JSON so that recorded streams compare byte for byte.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, NoReturn

from turnwire.canonical import CanonicalError
from turnwire.canonical import dumps as canonical_dumps
from turnwire.canonical import loads as canonical_loads
from turnwire.findings import Finding

__all__ = [
    "BOM",
    "DEFAULT_MAX_EVENT_BYTES",
    "DEFAULT_MAX_LINE_BYTES",
    "DONE",
    "UI_MESSAGE_STREAM_HEADERS",
    "ChunkEvent",
    "Decoded",
    "SSEDecoder",
    "SSEEvent",
    "check_headers",
    "decode",
    "encode_done",
    "encode_event",
    "encode_stream",
    "parse_json_events",
]

BOM = b"\xef\xbb\xbf"
"""The UTF-8 byte order mark; one at the very start of the stream is stripped."""

DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024
"""Default cap on the length of one line (without its line ending)."""

DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024
"""Default cap on the summed length of the field lines of one event."""

DONE = "[DONE]"
"""The `data` of the AI SDK's end-of-stream event."""

_EOL_SPLIT = re.compile(rb"(\r\n|\r|\n)")
_LF = 0x0A
_CR = 0x0D
_COLON = 0x3A
_EXCERPT_CHARS = 120
_SIZE = "SSE-SIZE"
_WINDOW = 64 * 1024


# ------------------------------------------------------------------------------------------------
# Events
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SSEEvent:
    """One dispatched event.

    `event` is the name given by an `event:` field of this event, or None when there was none.
    `id` is the last event id in force at dispatch: per the spec it persists across events until an
    `id:` field changes it, and it is None only when no `id:` field has been seen yet. `retry` is set
    only when this event's block had a valid `retry:` field. `byte_offset` is the offset, in the whole
    stream (BOM included), of the first byte of the event's first field line; `index` counts
    dispatched events from 0.
    """

    data: str
    event: str | None = None
    id: str | None = None
    retry: int | None = None
    byte_offset: int = 0
    index: int = 0


_new = object.__new__
_setattr = object.__setattr__


def _excerpt(text: str, limit: int = _EXCERPT_CHARS) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def _find_eol(data: bytes) -> int:
    """Index of the first CR or LF in `data`, or -1."""
    n = data.find(b"\n")
    r = data.find(b"\r")
    if r < 0:
        return n
    if n < 0:
        return r
    return min(n, r)


# ------------------------------------------------------------------------------------------------
# Decoder
# ------------------------------------------------------------------------------------------------


class SSEDecoder:
    """Incremental SSE decoder: feed it bytes split anywhere, get identical events.

    `feed()` returns the events completed by the bytes fed so far; `close()` ends the stream. Problems
    with the framing are appended to `findings` (requirement ids SSE-UTF8, SSE-UNKNOWN-FIELD,
    SSE-EVENT-NAME, SSE-UNTERMINATED-EVENT, SSE-SIZE); no input bytes make it raise.

    Per the spec, an event still open at the end of the stream is not dispatched (the AI SDK client
    drops it too). It is reported as SSE-UNTERMINATED-EVENT, and `dropped` holds the event it would
    have been, if it had data. A trailing comment line without a line ending is not an event and is
    not reported.

    A line longer than `max_line_bytes`, or an event whose field lines add up to more than
    `max_event_bytes`, is reported as SSE-SIZE and discarded instead of being buffered without
    limit. An oversized field line discards the whole event it belongs to (its data would be wrong
    without it); an oversized comment line discards only itself.
    """

    __slots__ = (
        "_at_start",
        "_closed",
        "_data",
        "_discard",
        "_event_bytes",
        "_event_name",
        "_event_start",
        "_head",
        "_index",
        "_last_id",
        "_max_event",
        "_max_line",
        "_offset",
        "_pending",
        "_pending_len",
        "_received",
        "_retry",
        "_seen_event_names",
        "_seen_unknown",
        "_skip_lf",
        "_skip_line",
        "dropped",
        "findings",
    )

    def __init__(
        self,
        *,
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
        max_event_bytes: int = DEFAULT_MAX_EVENT_BYTES,
    ) -> None:
        if max_line_bytes < 1 or max_event_bytes < 1:
            raise ValueError("max_line_bytes and max_event_bytes must be positive")
        self._max_line = max_line_bytes
        self._max_event = max_event_bytes
        self.findings: list[Finding] = []
        """Framing findings, in stream order."""
        self.dropped: SSEEvent | None = None
        """The event left open at the end of the stream (not dispatched), set by `close()`."""
        # stream position
        self._at_start = True  # no byte seen past a possible BOM yet
        self._head = b""  # the first bytes while they may still be a BOM prefix
        self._offset = 0  # stream offset of the first byte of the pending line
        self._pending: list[bytes] = []  # pieces of the current partial line
        self._pending_len = 0
        self._skip_lf = False  # the last byte was a CR: an LF right after it belongs to it
        self._skip_line = False  # inside an oversized line, dropping bytes up to its line ending
        self._received = 0
        self._closed = False
        # event being built
        self._data: list[str] = []
        self._event_name: str | None = None
        self._retry: int | None = None
        self._event_start: int | None = None
        self._event_bytes = 0
        self._discard = False
        # persistent state
        self._last_id: str | None = None
        self._index = 0
        self._seen_unknown: set[str] = set()
        self._seen_event_names: set[str] = set()

    @property
    def bytes_received(self) -> int:
        """Number of bytes fed so far: the end offset of the stream once closed."""
        return self._received

    @property
    def last_event_id(self) -> str | None:
        """The last event id in force (None until an `id:` field has been seen)."""
        return self._last_id

    # -- public API ---------------------------------------------------------------------------------

    def feed(self, data: bytes) -> list[SSEEvent]:
        """Consume the next bytes of the stream; return the events they complete.

        Raises ValueError only when called after `close()` (a caller bug, not bad input).
        """
        if self._closed:
            raise ValueError("SSEDecoder.feed() called after close()")
        if not data:
            return []
        if not isinstance(data, bytes):
            data = bytes(data)
        self._received += len(data)
        out: list[SSEEvent] = []
        if len(data) <= _WINDOW:
            self._feed(data, out)
        else:
            # a big buffer is processed in windows: the result is the same (the decoder does not
            # depend on how bytes are split), and the lines of one window are freed before the next
            # are made, which is much faster than materialising every line of a large body at once
            for i in range(0, len(data), _WINDOW):
                self._feed(data[i : i + _WINDOW], out)
        return out

    def close(self) -> list[SSEEvent]:
        """End the stream; report and keep (in `dropped`) an event left open.

        Always returns an empty list: per the spec an event is only dispatched by a blank line. The
        return value keeps the `events += dec.close()` idiom symmetric with `feed()`.
        """
        if self._closed:
            return []
        self._closed = True
        if self._at_start:
            self._at_start = False
            head, self._head = self._head, b""
            if head:  # a BOM prefix cut short: ordinary (invalid) bytes after all
                self._feed(head, [])
        if self._pending:
            line = b"".join(self._pending)
            self._pending = []
            self._pending_len = 0
            self._line(line, self._offset)
            self._offset += len(line)
        if self._event_start is not None:
            dropped = None
            if self._data and not self._discard:
                dropped = SSEEvent(
                    data="\n".join(self._data),
                    event=self._event_name,
                    id=self._last_id,
                    retry=self._retry,
                    byte_offset=self._event_start,
                    index=self._index,
                )
            self.dropped = dropped
            self.findings.append(
                Finding.of(
                    "SSE-UNTERMINATED-EVENT",
                    "the stream ends inside an event (no blank line after it); the event is not dispatched",
                    expected="a blank line ending the event",
                    received="end of stream" + ("" if dropped is None else f" after data {_excerpt(dropped.data)!r}"),
                    byte_offset=self._event_start,
                )
            )
        return []

    # -- internals ----------------------------------------------------------------------------------

    def _feed(self, data: bytes, out: list[SSEEvent]) -> None:
        if self._at_start:
            head = self._head + data
            if len(head) < 3 and BOM.startswith(head):
                self._head = head
                return
            self._at_start = False
            self._head = b""
            if head.startswith(BOM):
                data = head[3:]
                self._offset = 3
            else:
                data = head
            if not data:
                return
        if self._skip_lf:
            self._skip_lf = False
            if data[0] == _LF:
                self._offset += 1
                data = data[1:]
                if not data:
                    return
        if self._skip_line:
            i = _find_eol(data)
            if i < 0:
                self._offset += len(data)
                return
            end = i + 1
            if data[i] == _CR:
                if end == len(data):
                    self._skip_lf = True
                elif data[end] == _LF:
                    end += 1
            self._offset += end
            self._skip_line = False
            data = data[end:]
            if not data:
                return
        if b"\n" not in data and b"\r" not in data:
            self._pending.append(data)
            self._pending_len += len(data)
            if self._pending_len > self._max_line:
                self._drop_partial_line()
            return
        if self._pending:
            self._pending.append(data)
            data = b"".join(self._pending)
            self._pending = []
            self._pending_len = 0
        self._lines(data, out)

    def _lines(self, buf: bytes, out: list[SSEEvent]) -> None:
        """Process the complete lines of `buf` (which starts at `self._offset`); keep the rest."""
        eols: Iterable[int]
        if b"\r" in buf:
            parts = _EOL_SPLIT.split(buf)
            rest = parts.pop()
            lines = parts[0::2]
            eols = map(len, parts[1::2])
            if buf[-1] == _CR:
                self._skip_lf = True
        else:
            lines = buf.split(b"\n")
            rest = lines.pop()
            eols = itertools.repeat(1)
        # The loop keeps the event state in locals (attribute access dominated the cost per line)
        # and writes it back around the general path, `_line()`, which works on `self`.
        pos = self._offset
        max_line = self._max_line
        max_event = self._max_event
        data = self._data
        ev_start = self._event_start
        ev_bytes = self._event_bytes
        discard = self._discard
        index = self._index
        last_id = self._last_id
        # whether `_line()` may have set an event name or retry for the current event
        general = self._event_name is not None or self._retry is not None
        append = out.append
        for line, eol in zip(lines, eols, strict=False):
            n = len(line)
            start = pos
            pos += n + eol
            if not n:
                # blank line: dispatch the event, if it has data
                if ev_start is None:
                    continue
                if data and not discard:
                    # SSEEvent(...) without the frozen-dataclass __init__ (one object.__setattr__
                    # per field), which alone cost as much as all the rest of the work per event
                    ev: SSEEvent = _new(SSEEvent)
                    _setattr(
                        ev,
                        "__dict__",
                        {
                            "data": data[0] if len(data) == 1 else "\n".join(data),
                            "event": self._event_name if general else None,
                            "id": last_id,
                            "retry": self._retry if general else None,
                            "byte_offset": ev_start,
                            "index": index,
                        },
                    )
                    append(ev)
                    index += 1
                    data = []
                elif data:
                    data = []
                ev_start = None
                ev_bytes = 0
                discard = False
                if general:
                    general = False
                    self._event_name = None
                    self._retry = None
                continue
            if not discard and n <= max_line and line.startswith(b"data:"):
                # fast path for the line that carries every chunk
                if ev_start is None:
                    ev_start = start
                if ev_bytes + n <= max_event:
                    ev_bytes += n
                    skip = 6 if line.startswith(b"data: ") else 5
                    try:
                        data.append(line[skip:].decode())
                    except UnicodeDecodeError as err:
                        data.append(self._bad_utf8(line[skip:], start + skip, err))
                    continue
                # over the event cap: the general path reports it
            self._data = data
            self._event_start = ev_start
            self._event_bytes = ev_bytes
            self._discard = discard
            self._line(line, start)
            data = self._data
            ev_start = self._event_start
            ev_bytes = self._event_bytes
            discard = self._discard
            last_id = self._last_id
            general = True
        self._data = data
        self._event_start = ev_start
        self._event_bytes = ev_bytes
        self._discard = discard
        self._index = index
        self._offset = pos
        if rest:
            self._pending = [rest]
            self._pending_len = len(rest)
            if self._pending_len > max_line:
                self._drop_partial_line()

    def _line(self, line: bytes, start: int) -> None:
        """Process one non-blank line starting at stream offset `start` (general path)."""
        if len(line) > self._max_line:
            self._line_too_long(start, is_comment=line[0] == _COLON)
            return
        if line[0] == _COLON or self._discard:
            # comment, or a line of an event already discarded: only its encoding matters
            if not line.isascii():
                try:
                    line.decode()
                except UnicodeDecodeError as err:
                    self._bad_utf8(line, start, err)
            return
        if self._event_start is None:
            self._event_start = start
        size = self._event_bytes + len(line)
        if size > self._max_event:
            self._drop_event()
            return
        self._event_bytes = size
        try:
            text = line.decode()
        except UnicodeDecodeError as err:
            text = self._bad_utf8(line, start, err)
        colon = text.find(":")
        if colon < 0:
            name, value = text, ""
        else:
            name, value = text[:colon], text[colon + 1 :]
            if value.startswith(" "):
                value = value[1:]
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event_name = value
            if value and value != "message" and value not in self._seen_event_names:
                self._seen_event_names.add(value)
                self.findings.append(
                    Finding.of(
                        "SSE-EVENT-NAME",
                        f"event name {_excerpt(value)!r}; the AI SDK client ignores it and parses the data",
                        expected='no event field (or "message")',
                        received=_excerpt(value),
                        byte_offset=start,
                    )
                )
        elif name == "id":
            if "\0" not in value:
                self._last_id = value
        elif name == "retry":
            if value.isascii() and value.isdigit():
                # more digits than int() accepts: treated as not a number
                with contextlib.suppress(ValueError):
                    self._retry = int(value)
        elif name not in self._seen_unknown:
            self._seen_unknown.add(name)
            self.findings.append(
                Finding.of(
                    "SSE-UNKNOWN-FIELD",
                    f"unknown field {_excerpt(name)!r} (ignored by clients)",
                    expected="one of data, id, event, retry, or a comment",
                    received=_excerpt(name),
                    byte_offset=start,
                )
            )

    def _bad_utf8(self, raw: bytes, start: int, err: UnicodeDecodeError) -> str:
        """Report the first invalid byte of `raw` (at stream offset `start`); decode with U+FFFD."""
        bad = raw[err.start : err.end]
        self.findings.append(
            Finding.of(
                "SSE-UTF8",
                f"invalid UTF-8 ({err.reason}); decoded as U+FFFD",
                expected="valid UTF-8",
                received="bytes " + bad.hex(" "),
                byte_offset=start + err.start,
            )
        )
        return raw.decode("utf-8", "replace")

    def _drop_event(self) -> None:
        self.findings.append(
            Finding.of(
                _SIZE,
                f"event longer than {self._max_event} bytes; discarded",
                expected=f"at most {self._max_event} bytes of field lines per event",
                received=f"more than {self._max_event} bytes",
                byte_offset=self._event_start,
            )
        )
        self._data = []
        self._discard = True

    def _line_too_long(self, start: int, *, is_comment: bool) -> None:
        self.findings.append(
            Finding.of(
                _SIZE,
                f"line longer than {self._max_line} bytes; discarded"
                + ("" if is_comment else " with the event it belongs to"),
                expected=f"lines of at most {self._max_line} bytes",
                received=f"more than {self._max_line} bytes",
                byte_offset=start,
            )
        )
        if not is_comment:
            if self._event_start is None:
                self._event_start = start
            self._data = []
            self._discard = True

    def _drop_partial_line(self) -> None:
        """The pending partial line outgrew the cap: report it and skip to its line ending."""
        self._line_too_long(self._offset, is_comment=self._pending[0][0] == _COLON)
        self._offset += self._pending_len
        self._pending = []
        self._pending_len = 0
        self._skip_line = True


@dataclass(frozen=True)
class Decoded:
    """Result of `decode()`: dispatched events, framing findings, the dropped last event, and size."""

    events: list[SSEEvent]
    findings: list[Finding]
    dropped: SSEEvent | None
    size: int


def _pieces(data: bytes, chunk_sizes: int | Sequence[int]) -> Iterator[bytes]:
    if isinstance(chunk_sizes, int):
        if chunk_sizes < 1:
            raise ValueError("chunk size must be positive")
        for i in range(0, len(data), chunk_sizes):
            yield data[i : i + chunk_sizes]
        return
    pos = 0
    for n in chunk_sizes:
        if n < 0:
            raise ValueError("chunk sizes must not be negative")
        yield data[pos : pos + n]
        pos += n
    if pos < len(data):
        yield data[pos:]


def decode(
    data: bytes,
    *,
    chunk_sizes: int | Sequence[int] | None = None,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    max_event_bytes: int = DEFAULT_MAX_EVENT_BYTES,
) -> Decoded:
    """Decode a whole stream.

    `chunk_sizes` feeds the bytes in pieces, as a network would deliver them: an int gives pieces of
    that size; a sequence gives the sizes of the first pieces in order, the remaining bytes forming
    one last piece. The result does not depend on it; it is there to test and measure that.
    """
    dec = SSEDecoder(max_line_bytes=max_line_bytes, max_event_bytes=max_event_bytes)
    if chunk_sizes is None:
        events = dec.feed(data)
    else:
        events = []
        for piece in _pieces(data, chunk_sizes):
            events += dec.feed(piece)
    events += dec.close()
    return Decoded(events=events, findings=dec.findings, dropped=dec.dropped, size=dec.bytes_received)


# ------------------------------------------------------------------------------------------------
# JSON layer
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChunkEvent:
    """One UI message stream chunk: the parsed JSON `value` of an event's data.

    `index` counts the events other than `[DONE]` from 0, in stream order. An event whose data is not
    JSON keeps its index (and the SSE-DATA-JSON finding carries it as `chunk_index`), so chunk indices
    name positions in the stream even when some events were skipped.
    """

    index: int
    value: object
    event: SSEEvent


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


def _loads_fallback(text: str) -> tuple[bool, Any]:
    """Parse what orjson refused but JavaScript's JSON.parse accepts (lone surrogate escapes).

    The stdlib parser is also strict JSON once NaN/Infinity are rejected.
    """
    try:
        return True, json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        return False, None


def parse_json_events(
    events: Iterable[SSEEvent], *, end_offset: int | None = None
) -> tuple[list[ChunkEvent], list[Finding]]:
    """Parse each event's data as JSON, as the AI SDK client does; skip `data: [DONE]`.

    An event whose data is not JSON is reported as SSE-DATA-JSON (with its byte offset and chunk
    index) and skipped. The AI SDK client stops the whole stream at the first such chunk; a caller
    that wants to mirror it keeps only the chunks before the first finding's `chunk_index`.
    Like the client, events after `[DONE]` are still parsed; the first is reported as SSE-AFTER-DONE.
    A stream without `[DONE]` is reported as SSE-DONE at `end_offset` (the stream's length, e.g.
    `Decoded.size`), when given.
    """
    chunks: list[ChunkEvent] = []
    findings: list[Finding] = []
    loads = canonical_loads  # numbers read back exactly as RFC 8785 writes them
    decode_error = CanonicalError
    done_seen = False
    after_done_reported = False
    index = 0
    for ev in events:
        data = ev.data
        if done_seen and not after_done_reported:
            after_done_reported = True
            findings.append(
                Finding.of(
                    "SSE-AFTER-DONE",
                    "an event follows data: [DONE]",
                    expected="no event after [DONE]",
                    received=_excerpt(data),
                    byte_offset=ev.byte_offset,
                )
            )
        if data == DONE:
            done_seen = True
            continue
        try:
            value = loads(data)
        except decode_error as err:
            ok, value = _loads_fallback(data)
            if not ok:
                findings.append(
                    Finding.of(
                        "SSE-DATA-JSON",
                        f"event data is not JSON ({err}); the AI SDK client stops the stream here",
                        expected="one JSON value",
                        received=_excerpt(data),
                        chunk_index=index,
                        byte_offset=ev.byte_offset,
                    )
                )
                index += 1
                continue
        chunk: ChunkEvent = _new(ChunkEvent)  # ChunkEvent(...), as in SSEDecoder._lines
        _setattr(chunk, "__dict__", {"index": index, "value": value, "event": ev})
        chunks.append(chunk)
        index += 1
    if not done_seen:
        findings.append(
            Finding.of(
                "SSE-DONE",
                "the stream does not end with data: [DONE]",
                expected="data: [DONE]",
                received="end of stream",
                byte_offset=end_offset,
            )
        )
    return chunks, findings


# ------------------------------------------------------------------------------------------------
# Encoder
# ------------------------------------------------------------------------------------------------

UI_MESSAGE_STREAM_HEADERS: Mapping[str, str] = MappingProxyType(
    {
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        "connection": "keep-alive",
        "x-vercel-ai-ui-message-stream": "v1",
        "x-accel-buffering": "no",
    }
)
"""The response headers the AI SDK sets on a UI message stream (`UI_MESSAGE_STREAM_HEADERS`)."""

_DONE_EVENT = b"data: [DONE]\n\n"


def encode_event(chunk: object, *, event_id: str | None = None) -> bytes:
    """Frame one chunk as the AI SDK does: `data: <JSON>` and a blank line.

    The JSON is RFC 8785 canonical (`turnwire.canonical.dumps`). With `event_id`, an `id:` line
    precedes the data line (the SDK client ignores it; a resuming client may use it). Raises
    ValueError for an `event_id` containing CR, LF or NUL, which cannot be framed, and
    `turnwire.canonical.CanonicalError` for a chunk that is not a JSON value.
    """
    payload = canonical_dumps(chunk)
    if event_id is None:
        return b"data: " + payload + b"\n\n"
    if "\r" in event_id or "\n" in event_id or "\0" in event_id:
        raise ValueError(f"event id {event_id!r} contains CR, LF or NUL")
    return b"id: " + event_id.encode() + b"\ndata: " + payload + b"\n\n"


def encode_done() -> bytes:
    """The end-of-stream event: `data: [DONE]` and a blank line."""
    return _DONE_EVENT


def encode_stream(chunks: Iterable[object], *, done: bool = True) -> bytes:
    """Frame a whole stream of chunks, followed by `[DONE]` unless `done` is False."""
    out = [encode_event(chunk) for chunk in chunks]
    if done:
        out.append(_DONE_EVENT)
    return b"".join(out)


def check_headers(headers: Mapping[str, str]) -> list[Finding]:
    """Check the response headers of a UI message stream (names compared case-insensitively).

    content-type must be text/event-stream (parameters such as charset are tolerated),
    x-vercel-ai-ui-message-stream must be v1, and cache-control must include no-cache.
    """
    lower = {name.lower(): value.strip() for name, value in headers.items()}
    findings: list[Finding] = []

    content_type = lower.get("content-type")
    media_type = None if content_type is None else content_type.split(";", 1)[0].strip().lower()
    if media_type != "text/event-stream":
        findings.append(
            Finding.of(
                "SSE-HEADER-CONTENT-TYPE",
                "content-type is not text/event-stream",
                expected="text/event-stream",
                received="(absent)" if content_type is None else content_type,
            )
        )

    marker = lower.get("x-vercel-ai-ui-message-stream")
    if marker != "v1":
        findings.append(
            Finding.of(
                "SSE-HEADER-STREAM-MARKER",
                "x-vercel-ai-ui-message-stream is not v1",
                expected="v1",
                received="(absent)" if marker is None else marker,
            )
        )

    cache = lower.get("cache-control")
    directives = set() if cache is None else {d.split("=", 1)[0].strip().lower() for d in cache.split(",")}
    if "no-cache" not in directives:
        findings.append(
            Finding.of(
                "SSE-HEADER-CACHE",
                "cache-control does not include no-cache",
                expected="no-cache",
                received="(absent)" if cache is None else cache,
            )
        )
    return findings
