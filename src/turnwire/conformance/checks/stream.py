"""The recorded stream as a client folds it: chunk validity, lifecycle, the prior, chunk boundaries."""

from __future__ import annotations

from collections.abc import Iterator

from turnwire.conformance.catalogue import check
from turnwire.conformance.checks._recorded import report, streams, with_ids
from turnwire.conformance.context import CheckContext
from turnwire.conformance.model import ReportedFinding
from turnwire.conformance.splits import boundary_defects, self_check
from turnwire.findings import Finding
from turnwire.protocol.validate import validate_message
from turnwire.requirements import registry

CHUNKS = ("CHUNK-UNKNOWN-TYPE", "CHUNK-SCHEMA", "CHUNK-NULL-FIELD", "CHUNK-EXTRA-KEY")
LIFECYCLE = tuple(sorted(r for r in registry() if r.startswith("FOLD-")))
PRIOR = ("MESSAGE-SCHEMA", "PART-UNKNOWN-TYPE", "PART-SCHEMA", "PART-NULL-FIELD", "PART-EXTRA-KEY")
SPLIT = "STREAM-SPLIT-INVARIANT"


@check("stream.chunks-valid", requirements=CHUNKS, needs_recording=True)
def chunks_valid(context: CheckContext) -> Iterator[ReportedFinding]:
    """Every chunk is valid for the profile: known type, required fields, no null for an absent key."""
    for rec, read in streams(context):
        yield from report(with_ids(read.findings, CHUNKS), rec, context, "stream")


@check("stream.lifecycle", requirements=LIFECYCLE, needs_recording=True)
def lifecycle(context: CheckContext) -> Iterator[ReportedFinding]:
    """The chunks fold as the AI SDK client folds them: start first, paired start/delta/end, tool states in
    order, finish last, and the folded message valid."""
    for rec, read in streams(context):
        yield from report(with_ids(read.findings, LIFECYCLE), rec, context, "stream")


def _has_prior(context: CheckContext) -> str | None:
    if any(r.prior is not None for r in context.recordings):
        return None
    return "no recording continues a prior message (give --prior FILE.json for a continuation)"


@check("stream.prior", requirements=PRIOR, applies=_has_prior)
def prior(context: CheckContext) -> Iterator[ReportedFinding]:
    """The prior message a stream continues is a valid stored message of the profile."""
    for rec in context.recordings:
        if rec.prior is None:
            continue
        found = validate_message(rec.prior, context.profile)
        read = rec.read(context.profile)
        if read is not None:  # the fold's own verdict on an unusable prior, unless validation said it already
            seen = {(f.requirement, f.json_path) for f in found}
            found += [f for f in with_ids(read.findings, PRIOR) if (f.requirement, f.json_path) not in seen]
        yield from report(found, rec, context, "prior")


@check("stream.chunk-boundaries", requirements=(SPLIT,), needs_recording=True)
def chunk_boundaries(context: CheckContext) -> Iterator[ReportedFinding]:
    """The recorded bytes re-split at many read boundaries fold to the same message."""
    for rec, read in streams(context):
        assert rec.stream is not None
        self_check(rec.stream)
        defects = boundary_defects(rec.stream, context.profile, prior=rec.prior, whole=read)
        for defect in defects:
            finding = Finding.of(
                SPLIT,
                f"a network read ending between the CR and the LF at byte {defect.offset} makes a line reader see a "
                "blank line there, so it dispatches event data cut short and folds another message",
                expected=f"event data {defect.whole} at any read boundary",
                received=defect.split,
                byte_offset=defect.offset,
                chunk_index=defect.chunk_index,
            )
            yield from report([finding], rec, context, "stream")
