"""Chunk-boundary invariance: does the message a client folds depend on where the network split the bytes?

A conforming SSE reader (the WHATWG algorithm; turnwire's `SSEDecoder`, the AI SDK's
`eventsource-parser` 3.x behind `TextDecoderStream`) is split-invariant by construction, whatever
the bytes: re-splitting a recording and decoding it with such a reader can never show a producer
defect, only a reader bug. So this module does two things:

1. **Self-check** (turnwire's own invariant): the recording re-split at a bounded, deterministic set of
   points (every CR/LF boundary examined below, points inside multi-byte UTF-8 sequences, evenly
   spaced points) decodes to exactly the events of the whole recording. A difference is a bug in
   turnwire and raises `SplitInvarianceBug` (the runner reports the check as `error`).
2. **The reader real clients write.** Hand-written line readers, and Python `requests`'
   `iter_lines()`, end a line at a CR that closes a network read without remembering it, so when the
   read boundary falls between the CR and the LF of a CRLF they see two line ends, i.e. a blank line,
   which dispatches the event early. turnwire models that reader exactly: decoding the bytes with that
   one CRLF read as two line ends. A stream written the AI SDK's way (LF line ends, one `data:` line
   per event) is immune; a producer that writes CRLF line ends *and* spreads a chunk over several
   `data:` lines (or writes `\\r` and `\\n` in separate writes across a multi-line event) hands such
   clients a truncated JSON payload at some boundaries. The finding is `STREAM-SPLIT-INVARIANT`.

Invalid UTF-8 is not a boundary problem for incremental decoders (a streaming UTF-8 decoder gives the
same replacement characters however the bytes are split); it is `SSE-UTF8`'s finding.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from turnwire.canonical import CanonicalError, dumps
from turnwire.profiles import Profile
from turnwire.sse import SSEEvent, decode
from turnwire.stream import StreamResult, read_stream

__all__ = ["MAX_POINTS", "BoundaryDefect", "SplitInvarianceBug", "boundary_defects", "crlf_points", "split_points"]

MAX_POINTS = 1024
"""Most CRLF boundaries examined per recording (a deterministic, evenly spread sample beyond that)."""
MAX_SELF_CHECK = 16
"""Most re-splits of the self-check (each decodes the whole recording)."""
SELF_CHECK_BUDGET = 4 * 1024 * 1024
"""Bytes the self-check decodes per recording at most (at least two re-splits)."""


_CR = re.compile(rb"\r")
_CONTINUATION = re.compile(rb"[\x80-\xbf]")


class SplitInvarianceBug(AssertionError):
    """turnwire's own decoder gave different events for different splits of the same bytes (a turnwire bug)."""


@dataclass(frozen=True)
class BoundaryDefect:
    """A read boundary at which the line reader real clients write folds a different message."""

    offset: int
    """Byte offset of the CR whose LF starts the next read."""
    chunk_index: int | None
    """The first chunk (JSON event) the line reader sees differently."""
    whole: str
    """What the whole-bytes reading gives at that chunk (data excerpt)."""
    split: str
    """What the line reader gives there."""


def _sample(points: list[int], limit: int) -> list[int]:
    if len(points) <= limit:
        return points
    step = len(points) / limit
    return [points[int(i * step)] for i in range(limit)]


def crlf_points(data: bytes) -> list[int]:
    """Offsets of the LF of every CRLF (a read boundary there splits the pair), sampled to the budget."""
    points: list[int] = []
    at = data.find(b"\r\n")
    while at != -1:
        points.append(at + 1)
        at = data.find(b"\r\n", at + 2)
    return _sample(points, MAX_POINTS)


def split_points(data: bytes) -> list[int]:
    """Deterministic split points for the self-check: CR/LF boundaries, inside UTF-8 sequences, evenly spaced."""
    n = len(data)
    if n < 2:
        return []
    limit = max(2, SELF_CHECK_BUDGET // n) if n > SELF_CHECK_BUDGET // MAX_SELF_CHECK else MAX_SELF_CHECK
    eol = [m.end() for m in itertools.islice(_CR.finditer(data), max(1, limit // 4))]
    multibyte = [m.start() for m in itertools.islice(_CONTINUATION.finditer(data), max(1, limit // 4))]
    even = [max(1, n * k // (limit // 2 + 1)) for k in range(1, limit // 2 + 1)]
    return sorted({p for p in (*eol, *multibyte, *even) if 0 < p < n})


def _datas(data: bytes, sizes: list[int] | None = None) -> list[str]:
    return [e.data for e in decode(data, chunk_sizes=sizes).events]


def self_check(data: bytes) -> None:
    """Raise `SplitInvarianceBug` when turnwire's decoder is not split-invariant on `data`."""
    whole = _datas(data)
    for p in split_points(data):
        if _datas(data, [p]) != whole:
            raise SplitInvarianceBug(f"turnwire's SSE decoder gives other events when the bytes are split at {p}")


def _key(result: StreamResult) -> tuple[bytes, int | None]:
    try:
        message = dumps(result.message)
    except CanonicalError:
        message = repr(result.message).encode()
    return message, result.rejected_at


def _excerpt(text: str | None) -> str:
    if text is None:
        return "(no event)"
    return repr(text if len(text) <= 120 else text[:120] + "…")


def _window(events: list[SSEEvent], size: int, point: int) -> tuple[int, int]:
    """The bytes of the event holding `point`: from its first field line to the next event's.

    A dispatched event starts in a clean decoder state (after a blank line, or at the start), so the
    line reader's extra line end at `point` can only change the events decoded from this window.
    """
    starts = [e.byte_offset for e in events]
    i = bisect.bisect_right(starts, point) - 1
    begin = starts[i] if i >= 0 else 0
    end = starts[i + 1] if i + 1 < len(starts) else size
    return begin, end


def boundary_defects(
    data: bytes,
    profile: Profile,
    *,
    prior: Mapping[str, Any] | None = None,
    whole: StreamResult | None = None,
    limit: int = 3,
) -> list[BoundaryDefect]:
    """The CRLF boundaries (at most `limit`) at which a line reader that forgets a read's trailing CR folds
    another message. Each boundary is first judged on its own event's bytes; only a boundary that changes
    that event's data costs a whole re-fold."""
    points = crlf_points(data)
    if not points:
        return []
    decoded = decode(data).events
    base_events = [e.data for e in decoded]
    base: StreamResult | None = whole
    defects: list[BoundaryDefect] = []
    for p in points:
        begin, end = _window(decoded, len(data), p)
        window = data[begin:end]
        local = p - begin
        view = window[: local - 1] + b"\n\n" + window[local + 1 :]
        if _datas(view) == _datas(window):
            continue
        if base is None:
            base = read_stream(data, profile, prior=prior)
        full = data[:begin] + view + data[end:]
        events = _datas(full)
        result = read_stream(full, profile, prior=prior)
        if _key(result) == _key(base):
            continue
        first = next(
            (i for i, (a, b) in enumerate(zip(base_events, events, strict=False)) if a != b),
            min(len(base_events), len(events)),
        )
        done_before = sum(1 for d in base_events[:first] if d == "[DONE]")
        defects.append(
            BoundaryDefect(
                offset=p - 1,
                chunk_index=first - done_before,
                whole=_excerpt(base_events[first] if first < len(base_events) else None),
                split=_excerpt(events[first] if first < len(events) else None),
            )
        )
        if len(defects) >= limit:
            break
    return defects
