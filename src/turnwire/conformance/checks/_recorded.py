"""Shared helpers of the recording checks (not a check family: it registers nothing).

Every recording check reads the same `Recording.read(profile)` result (decoded, validated and folded
once) and keeps the findings of its own requirement ids, so each finding of the pipeline is reported by
exactly one check.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Any

from turnwire.conformance.artefacts import AtRestKind, at_rest_kind
from turnwire.conformance.context import CheckContext, Recording
from turnwire.conformance.model import ReportedFinding
from turnwire.conformance.reproduce import Artefact, attach
from turnwire.findings import Finding
from turnwire.stream import StreamResult

__all__ = ["at_rest_of", "held_message", "report", "streams", "with_ids"]


def streams(context: CheckContext) -> Iterator[tuple[Recording, StreamResult]]:
    """Every recording that has a stream, with the stream read for the context's profile."""
    for rec in context.recordings:
        read = rec.read(context.profile)
        if read is not None:
            yield rec, read


def at_rest_of(context: CheckContext, *kinds: AtRestKind) -> Iterator[tuple[Recording, AtRestKind]]:
    """Every recording whose at-rest artefact is one of `kinds` (any kind when none are given)."""
    for rec in context.recordings:
        if rec.at_rest is None:
            continue
        kind = at_rest_kind(rec.at_rest)
        if not kinds or kind in kinds:
            yield rec, kind


def with_ids(findings: list[Finding], ids: Collection[str]) -> list[Finding]:
    """The findings whose requirement is one of `ids`."""
    return [f for f in findings if f.requirement in ids]


def report(
    findings: list[Finding], rec: Recording, context: CheckContext, artefact: Artefact
) -> Iterator[ReportedFinding]:
    """The findings with the reproducer of `artefact` attached."""
    for f in findings:
        yield attach(f, rec, context.profile, artefact)


def held_message(rec: Recording, read: StreamResult) -> dict[str, Any]:
    """The message the client holds after the stream: the fold, else the prior, else an empty assistant message."""
    if read.message is not None:
        return read.message
    if isinstance(rec.prior, dict):
        return rec.prior
    return {"id": "", "role": "assistant", "parts": []}
