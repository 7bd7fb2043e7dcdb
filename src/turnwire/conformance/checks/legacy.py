"""Legacy-key regressions: the deny-scan of `conformance/legacy-keys.yaml` over every recorded artefact.

Retired keys come back through old serialisers, unaliased dumps and copy-pasted fixtures; readers may
still accept some of them, which is exactly why a writer that emits one goes unnoticed. Every artefact a
recording holds is scanned at the locations the registry names: the at-rest snapshot (including the
whole retired `{turn, timeline, artifacts}` body), a stored UIMessage, the prior message, and the
message the stream folds into (a data or tool chunk can carry a snake_case key into it). The registry
names no chunk-level locations, so chunks are scanned through the message they fold into.
"""

from __future__ import annotations

from collections.abc import Iterator

from turnwire.conformance.artefacts import at_rest_kind, legacy_artefact
from turnwire.conformance.catalogue import check
from turnwire.conformance.checks._recorded import report
from turnwire.conformance.context import CheckContext
from turnwire.conformance.model import ReportedFinding
from turnwire.snapshot import deny_scan

_MESSAGE = "ui-message"


def _has_artefact(context: CheckContext) -> str | None:
    if any(r.stream is not None or r.at_rest is not None or r.prior is not None for r in context.recordings):
        return None
    return "the target provided no artefact (stream, at-rest or prior message) to scan"


@check("legacy.deny-scan", requirements=("LEGACY-KEY-EMITTED",), applies=_has_artefact)
def legacy_deny_scan(context: CheckContext) -> Iterator[ReportedFinding]:
    """No artefact carries a key the legacy-key registry retires, at the location it is retired from."""
    for rec in context.recordings:
        if rec.at_rest is not None:
            artefact = legacy_artefact(at_rest_kind(rec.at_rest))
            if artefact is not None:
                yield from report(deny_scan(rec.at_rest, artefact), rec, context, "at-rest")
        in_prior: set[str | None] = set()
        if rec.prior is not None:
            found = deny_scan(rec.prior, _MESSAGE)
            in_prior = {f.json_path for f in found}
            yield from report(found, rec, context, "prior")
        read = rec.read(context.profile)
        if read is not None and read.message is not None:
            # the fold starts from the prior: its keys are reported once, against the prior
            folded = [f for f in deny_scan(read.message, _MESSAGE) if f.json_path not in in_prior]
            yield from report(folded, rec, context, "stream")
