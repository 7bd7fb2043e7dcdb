"""Reproducers: how a reader of a report sees a finding again without re-running anything.

A finding says what broke and where (byte offset, chunk index, JSON path); the reproducer shows the
evidence: the HTTP exchange when a live target produced it, otherwise a bounded excerpt of the
recorded bytes around the offset, or of the at-rest JSON at the path. Excerpts make control
characters visible (`\\r` matters for framing findings) and never exceed a few hundred characters, so a
50 MB body cannot blow up a report. Secrets are masked later, by the runner, on the whole report.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from turnwire.canonical import CanonicalError, dumps
from turnwire.conformance.context import HttpExchange, Recording
from turnwire.conformance.model import ReportedFinding, Reproducer
from turnwire.findings import Finding
from turnwire.profiles import Profile

__all__ = [
    "Artefact",
    "attach",
    "jcs_text",
    "resolve_path",
    "stream_excerpt",
    "value_excerpt",
]

Artefact = Literal["stream", "headers", "at-rest", "prior"]
"""Which recorded artefact a finding is about."""

EXCERPT_RADIUS = 240
"""Bytes shown on each side of a byte offset."""
VALUE_LIMIT = 1200
"""Characters of JSON shown for a value."""

_TOKEN = re.compile(r'\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]')


def jcs_text(value: object) -> str:
    """The canonical JSON text of `value`; a best-effort sorted dump when it is not canonicalisable."""
    try:
        return dumps(value).decode("utf-8")
    except (CanonicalError, RecursionError, UnicodeDecodeError):
        return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=repr)


def _bounded(text: str, limit: int = VALUE_LIMIT) -> str:
    return text if len(text) <= limit else text[:limit] + f"… ({len(text) - limit} more characters)"


def stream_excerpt(data: bytes, offset: int, *, radius: int = EXCERPT_RADIUS) -> str:
    """Bytes around `offset`, widened to whole lines where that stays bounded, with CR shown as `\\r`."""
    offset = max(0, min(offset, len(data)))
    start = max(0, offset - radius)
    end = min(len(data), offset + radius)
    line_start = data.rfind(b"\n", 0, start) + 1
    if start - line_start <= radius // 2:
        start = line_start
    line_end = data.find(b"\n", end)
    if line_end != -1 and line_end - end <= radius // 2:
        end = line_end + 1
    head = f"bytes {start}-{end} of {len(data)} (finding at byte {offset})"
    text = data[start:end].decode("utf-8", "backslashreplace").replace("\r", "\\r")
    return head + ":\n" + text


def resolve_path(value: Any, path: str) -> tuple[str, Any]:
    """The deepest object or array on `path` (`$.parts[2].sourceId`) that exists in `value`, with its path.

    A finding's path often names a key that is missing or wrong; the reader wants the object around it.
    """
    if not path.startswith("$"):
        return "$", value
    current, where = value, "$"
    for match in _TOKEN.finditer(path, 1):
        key, index, quoted = match.groups()
        if index is not None:
            if not isinstance(current, list) or int(index) >= len(current):
                break
            nxt = current[int(index)]
        else:
            name = key if key is not None else json.loads(quoted)
            if not isinstance(current, dict) or name not in current:
                break
            nxt = current[name]
        if not isinstance(nxt, dict | list):
            break
        current, where = nxt, where + match.group(0)
    return where, current


def value_excerpt(name: str, value: Any, path: str | None) -> str:
    """A bounded canonical-JSON excerpt of `value` at `path` (the whole value when no path is given)."""
    where, shown = resolve_path(value, path) if path else ("$", value)
    return f"{name} at {where}:\n" + _bounded(jcs_text(shown))


def _exchange(exchange: HttpExchange | None) -> tuple[str | None, str | None]:
    if exchange is None:
        return None, None
    rep = exchange.reproducer()
    return rep.request, rep.response


def _chunk_offset(recording: Recording, profile: Profile, index: int) -> int | None:
    read = recording.read(profile)
    if read is None:
        return None
    for chunk in read.chunks:
        if chunk.index == index:
            return chunk.event.byte_offset
    return None


def attach(finding: Finding, recording: Recording, profile: Profile, artefact: Artefact) -> ReportedFinding:
    """`finding` with the reproducer for `artefact` of `recording` attached."""
    if artefact == "stream":
        request, response = _exchange(recording.exchange)
        offset = finding.byte_offset
        if offset is None and finding.chunk_index is not None:
            offset = _chunk_offset(recording, profile, finding.chunk_index)
        excerpt = None
        if recording.stream is not None:
            if offset is not None:
                excerpt = f"{recording.name}, " + stream_excerpt(recording.stream, offset)
            elif finding.json_path is not None and (read := recording.read(profile)) and read.message is not None:
                excerpt = value_excerpt(f"{recording.name}, the folded message", read.message, finding.json_path)
        return ReportedFinding(
            finding=finding, reproducer=Reproducer(request=request, response=response, excerpt=excerpt)
        )
    if artefact == "headers":
        request, response = _exchange(recording.exchange)
        if response is None and recording.headers is not None:
            response = "\n".join(f"{k}: {v}" for k, v in recording.headers.items())
        return ReportedFinding(finding=finding, reproducer=Reproducer(request=request, response=response))
    if artefact == "at-rest":
        request, response = _exchange(recording.at_rest_exchange)
        excerpt = value_excerpt(f"{recording.name}, at-rest", recording.at_rest, finding.json_path)
        return ReportedFinding(
            finding=finding, reproducer=Reproducer(request=request, response=response, excerpt=excerpt)
        )
    excerpt = value_excerpt(f"{recording.name}, prior message", recording.prior, finding.json_path)
    return ReportedFinding(finding=finding, reproducer=Reproducer(excerpt=excerpt))
