"""The at-rest artefact: its own contract (snapshot or stored message) and its equality with the wire.

The wire ≡ at-rest check is the one no other conformance kit has: the message a client folds from the
stream (continuing the prior message, if any) must be what the runtime stores, part for part, as
canonical JSON (RFC 8785). A runtime that streams one thing and stores another shows the user a
different turn after a reload.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from turnwire.canonical import equal
from turnwire.conformance.artefacts import AtRestKind
from turnwire.conformance.catalogue import AppliesFn, check
from turnwire.conformance.checks._recorded import at_rest_of, held_message, report
from turnwire.conformance.context import CheckContext
from turnwire.conformance.model import ReportedFinding
from turnwire.conformance.reproduce import jcs_text
from turnwire.findings import Finding, json_path
from turnwire.protocol.validate import validate_message
from turnwire.snapshot import check_snapshot
from turnwire.snapshot.payloads import check_payloads

SNAPSHOT = (
    "SNAPSHOT-SCHEMA",
    "SNAPSHOT-SCHEMA-VERSION",
    "SNAPSHOT-STATUS",
    "SNAPSHOT-NULL-OMITTED",
    "SNAPSHOT-EXTRA-KEY",
    "SNAPSHOT-ERROR-TEXT",
    "SNAPSHOT-TRANSIENT-PART",
    "PART-UNKNOWN-TYPE",
    "PART-SCHEMA",
    "PART-NULL-FIELD",
    "PART-EXTRA-KEY",
)
MESSAGE = ("MESSAGE-SCHEMA", "PART-UNKNOWN-TYPE", "PART-SCHEMA", "PART-NULL-FIELD", "PART-EXTRA-KEY")
EQUAL = ("ATREST-PARTS-EQUAL", "ATREST-MESSAGE-EQUAL")
MAX_PART_FINDINGS = 5
"""Differing parts reported one by one at most; the rest are counted in the last finding."""
_SHOWN = 300


def _short(value: Any) -> str:
    text = jcs_text(value)
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "…"


def _applies(*kinds: AtRestKind, what: str) -> AppliesFn:
    def applies(context: CheckContext) -> str | None:
        if any(True for _ in at_rest_of(context, *kinds)):
            return None
        return f"no at-rest artefact is {what}"

    return applies


@check("at-rest.shape", requirements=("ATREST-SHAPE",), needs_at_rest=True)
def shape(context: CheckContext) -> Iterator[ReportedFinding]:
    """The at-rest artefact is an AgentTurnSnapshot (turn_id, parts) or a stored UIMessage (role, parts)."""
    for rec, _kind in at_rest_of(context, AtRestKind.UNKNOWN):
        keys = sorted(rec.at_rest) if isinstance(rec.at_rest, dict) else None
        finding = Finding.of(
            "ATREST-SHAPE",
            "the at-rest artefact is neither an AgentTurnSnapshot nor a UIMessage, so no contract applies to it",
            expected="a JSON object with turn_id and parts (snapshot) or role and parts (UIMessage)",
            received=f"an object with keys {', '.join(keys) or '(none)'}" if keys is not None else _short(rec.at_rest),
            json_path="$",
        )
        yield from report([finding], rec, context, "at-rest")


@check(
    "at-rest.snapshot",
    requirements=SNAPSHOT,
    needs_at_rest=True,
    applies=_applies(AtRestKind.SNAPSHOT, AtRestKind.LEGACY_SNAPSHOT, what="a turn snapshot"),
)
def snapshot(context: CheckContext) -> Iterator[ReportedFinding]:
    """A stored turn snapshot keeps its envelope contract and holds valid, non-transient parts."""
    for rec, _kind in at_rest_of(context, AtRestKind.SNAPSHOT, AtRestKind.LEGACY_SNAPSHOT):
        # LEGACY-KEY-EMITTED is the deny-scan check's finding (legacy.deny-scan), reported once there
        found = [f for f in check_snapshot(rec.at_rest, context.profile) if f.requirement != "LEGACY-KEY-EMITTED"]
        yield from report(found, rec, context, "at-rest")


@check(
    "at-rest.message",
    requirements=MESSAGE,
    needs_at_rest=True,
    applies=_applies(AtRestKind.MESSAGE, what="a stored UIMessage"),
)
def message(context: CheckContext) -> Iterator[ReportedFinding]:
    """A stored UIMessage is valid for the profile (what the AI SDK's validateUIMessages accepts)."""
    for rec, _kind in at_rest_of(context, AtRestKind.MESSAGE):
        yield from report(validate_message(rec.at_rest, context.profile), rec, context, "at-rest")


def _payloads_opted_in(context: CheckContext) -> str | None:
    if context.options.get("payloads") is True:
        return _applies(AtRestKind.SNAPSHOT, AtRestKind.MESSAGE, what="a snapshot or a stored UIMessage")(context)
    return "the backend's typed data payloads are opt-in (turnwire check --payloads)"


@check(
    "at-rest.data-payloads",
    requirements=("SNAPSHOT-DATA-PAYLOAD",),
    needs_at_rest=True,
    applies=_payloads_opted_in,
)
def data_payloads(context: CheckContext) -> Iterator[ReportedFinding]:
    """Opt-in: data-citation, data-tool-consent and data-elicitation parts at rest have the backend's typed shape."""
    for rec, _kind in at_rest_of(context, AtRestKind.SNAPSHOT, AtRestKind.MESSAGE):
        parts = rec.at_rest.get("parts")
        if isinstance(parts, list):
            yield from report(check_payloads(parts), rec, context, "at-rest")


def _parts_findings(held: list[Any], stored: list[Any]) -> list[Finding]:
    findings: list[Finding] = []
    differing = [i for i in range(min(len(held), len(stored))) if not equal(held[i], stored[i])]
    for n, i in enumerate(differing[:MAX_PART_FINDINGS]):
        rest = len(differing) - MAX_PART_FINDINGS if n == MAX_PART_FINDINGS - 1 else 0
        findings.append(
            Finding.of(
                "ATREST-PARTS-EQUAL",
                f"stored part {i} differs from the part the stream folds into (compared as canonical JSON)"
                + (f"; {rest} more parts differ" if rest > 0 else ""),
                expected=_short(held[i]),
                received=_short(stored[i]),
                json_path=json_path(["parts", i]),
            )
        )
    if len(held) != len(stored):
        longer, side = (held, "the stream folds into") if len(held) > len(stored) else (stored, "is stored")
        extra = [
            p.get("type") if isinstance(p, dict) else type(p).__name__ for p in longer[min(len(held), len(stored)) :]
        ]
        findings.append(
            Finding.of(
                "ATREST-PARTS-EQUAL",
                f"the stream folds into {len(held)} parts but {len(stored)} are stored; "
                f"the extra parts ({', '.join(map(str, extra[:8]))}) exist only in what {side}",
                expected=f"{len(held)} parts",
                received=f"{len(stored)} parts",
                json_path="$.parts",
            )
        )
    return findings


def _envelope_findings(held: dict[str, Any], stored: dict[str, Any]) -> list[Finding]:
    findings: list[Finding] = []
    for key in sorted((held.keys() | stored.keys()) - {"parts"}):
        if key == "id" and held.get("id") == "":
            continue  # the stream named no message id: the client makes one up, so there is nothing to compare
        mine, theirs = held.get(key), stored.get(key)
        if key in held and key in stored and equal(mine, theirs):
            continue
        findings.append(
            Finding.of(
                "ATREST-MESSAGE-EQUAL",
                f"the stored message's {key} differs from the message the stream folds into",
                expected=_short(mine) if key in held else "absent",
                received=_short(theirs) if key in stored else "absent",
                json_path=json_path([key]),
            )
        )
    return findings


def _wire_and_at_rest(context: CheckContext) -> str | None:
    for rec, _kind in at_rest_of(context, AtRestKind.SNAPSHOT, AtRestKind.MESSAGE):
        if rec.stream is not None:
            return None
    return "needs a recorded stream together with its at-rest snapshot or stored UIMessage"


@check(
    "at-rest.wire-equal",
    requirements=EQUAL,
    needs_recording=True,
    needs_at_rest=True,
    applies=_wire_and_at_rest,
)
def wire_equal(context: CheckContext) -> Iterator[ReportedFinding]:
    """What is stored equals what the stream folds into (with the prior): the parts, and the whole UIMessage."""
    for rec, kind in at_rest_of(context, AtRestKind.SNAPSHOT, AtRestKind.MESSAGE):
        read = rec.read(context.profile)
        stored = rec.at_rest
        if read is None or not isinstance(stored, dict):
            continue
        held = held_message(rec, read)
        held_parts, stored_parts = held.get("parts"), stored.get("parts")
        found: list[Finding] = []
        if isinstance(held_parts, list) and isinstance(stored_parts, list):
            found += _parts_findings(held_parts, stored_parts)
        if kind is AtRestKind.MESSAGE:
            found += _envelope_findings(held, stored)
        yield from report(found, rec, context, "at-rest")
