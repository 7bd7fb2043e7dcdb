"""A recorded UI message stream, read end to end the way the AI SDK client reads it.

wire bytes → `sse` events → JSON chunks → `protocol` validation → `fold` → message. Every stage
reports findings; none raises on bad input. Like the SDK's transport, folding stops at the first chunk
the client would reject (invalid JSON or a MUST-level chunk finding), so the folded message is the one
a real client would hold; findings for later chunks are still reported.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from turnwire.findings import Finding
from turnwire.fold import Folder, FoldResult
from turnwire.profiles import DEFAULT_PROFILE, Profile
from turnwire.protocol.validate import is_fatal, validate_chunk, validate_message
from turnwire.sse import ChunkEvent, decode, parse_json_events


@dataclass
class StreamResult:
    """What reading one stream produced."""

    chunks: list[ChunkEvent]
    fold: FoldResult
    findings: list[Finding] = field(default_factory=list)
    rejected_at: int | None = None
    """Chunk index where the SDK client would have rejected the stream (invalid chunk), else None."""

    @property
    def message(self) -> dict[str, Any] | None:
        """The message a real client ends up holding."""
        return self.fold.message


def read_stream(
    data: bytes,
    profile: Profile = DEFAULT_PROFILE,
    *,
    prior: Mapping[str, Any] | None = None,
    chunk_sizes: int | Sequence[int] | None = None,
) -> StreamResult:
    """Decode, validate and fold one recorded stream; all problems come back as findings.

    `chunk_sizes` feeds the bytes to the decoder in pieces of those sizes (as a network would deliver
    them); the result must not depend on it.
    """
    decoded = decode(data, chunk_sizes=chunk_sizes)
    chunks, json_findings = parse_json_events(decoded.events, end_offset=decoded.size)
    findings: list[Finding] = [*decoded.findings, *json_findings]
    rejected_at: int | None = None
    if json_findings:
        bad = [f.chunk_index for f in json_findings if f.requirement == "SSE-DATA-JSON" and f.chunk_index is not None]
        if bad:
            rejected_at = min(bad)
    folder = Folder(profile, prior=prior)
    for chunk in chunks:
        chunk_findings = validate_chunk(chunk.value, profile, chunk_index=chunk.index)
        findings.extend(chunk_findings)
        if rejected_at is None and is_fatal(chunk_findings):
            rejected_at = chunk.index
        if (rejected_at is None or chunk.index < rejected_at) and isinstance(chunk.value, dict):
            folder.feed(chunk.value, chunk.index)
    result = folder.result(ended=rejected_at is None)
    findings.extend(result.findings)
    if result.message is not None:
        for f in validate_message(result.message, profile):
            if f.level == "MUST":
                findings.append(
                    Finding.of(
                        "FOLD-RESULT-VALID",
                        f"the folded message is not a valid {profile} message: {f.message}",
                        expected=f.expected,
                        received=f.received,
                        json_path=f.json_path,
                    )
                )
    return StreamResult(chunks=chunks, fold=result, findings=findings, rejected_at=rejected_at)
