"""Judging a served snapshot (`check_snapshot`) and reading one as a client would (`read_snapshot`).

Why two functions: a conformance check judges the *writer* and reports everything, retired keys
included; a reader has to get on with what it was sent, so it takes the retired keys the registry
says readers still accept (`legacy_keys.accept_legacy`) and then applies the same models.

What `check_snapshot` reports:

* the envelope: keys, types and values (`SNAPSHOT-SCHEMA`, `-SCHEMA-VERSION`, `-STATUS`), unknown
  keys (`SNAPSHOT-EXTRA-KEY`), and nullable keys left out instead of written as `null`
  (`SNAPSHOT-NULL-OMITTED`), because the envelope writes `null` for an absent value;
* the parts, with the profile's own message rules (the `PART-*` findings of
  `turnwire.protocol.validate_message`, same JSON paths): parts never carry `null`;
* a transient part (`data-activity`, or any part marked `transient: true`) at rest
  (`SNAPSHOT-TRANSIENT-PART`): transient parts exist only on the live stream;
* an `error_text` on a turn that is not FAILED or CANCELLED (`SNAPSHOT-ERROR-TEXT`);
* retired keys at their registered locations (`LEGACY-KEY-EMITTED`); a retired key is not
  reported a second time as an unknown key;
* with `payloads=True`, the backend's typed data payloads (`SNAPSHOT-DATA-PAYLOAD`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, get_args

from pydantic import ValidationError

from turnwire.findings import Finding, excerpt, json_path
from turnwire.profiles import DEFAULT_PROFILE, Profile
from turnwire.protocol.validate import validate_message
from turnwire.snapshot.envelope import (
    ERROR_STATUSES,
    NULLABLE_KEYS,
    SnapshotEnvelope,
    TurnStatus,
    snapshot_model,
)
from turnwire.snapshot.legacy_keys import accept_legacy, deny_scan
from turnwire.snapshot.payloads import check_payloads

__all__ = ["ARTEFACT", "TRANSIENT_PART_TYPES", "SnapshotReading", "check_snapshot", "read_snapshot"]

ARTEFACT = "agent-turn-snapshot"
"""The snapshot's name in the legacy-key registry."""

TRANSIENT_PART_TYPES: frozenset[str] = frozenset({"data-activity"})
"""Part types that are transient by definition (live progress, never stored)."""

_STATUSES: frozenset[str] = frozenset(get_args(TurnStatus))


def _envelope(value: dict[str, Any], retired: set[str | None]) -> list[Finding]:
    findings: list[Finding] = []
    try:
        SnapshotEnvelope.model_validate(value)
    except ValidationError as exc:
        for error in exc.errors():
            loc = list(error["loc"])
            where = json_path(loc)
            first = loc[0] if loc else None
            if error["type"] == "extra_forbidden":
                if where in retired:
                    continue
                findings.append(
                    Finding.of(
                        "SNAPSHOT-EXTRA-KEY",
                        f"unknown envelope key {first!r}",
                        expected="a declared envelope key",
                        received=str(first),
                        json_path=where,
                    )
                )
                continue
            req = {"schema_version": "SNAPSHOT-SCHEMA-VERSION", "status": "SNAPSHOT-STATUS"}.get(
                str(first), "SNAPSHOT-SCHEMA"
            )
            received = "absent" if error["type"] == "missing" else excerpt(error.get("input"))
            findings.append(
                Finding.of(
                    req,
                    f"{error['msg']} (received {received})",
                    expected=error["msg"],
                    received=received,
                    json_path=where,
                )
            )
    for key in NULLABLE_KEYS:
        if key not in value:
            findings.append(
                Finding.of(
                    "SNAPSHOT-NULL-OMITTED",
                    f"{key} is left out; the envelope writes null for an absent value",
                    expected="null or a value",
                    received="absent",
                    json_path=json_path([key]),
                )
            )
    return findings


def _transient(parts: list[Any]) -> list[Finding]:
    findings: list[Finding] = []
    for i, part in enumerate(parts):
        if not isinstance(part, dict):
            continue
        kind = part.get("type")
        if kind in TRANSIENT_PART_TYPES or part.get("transient") is True:
            findings.append(
                Finding.of(
                    "SNAPSHOT-TRANSIENT-PART",
                    f"transient part {kind!r} stored at rest; transient parts belong to the live stream only",
                    expected="no transient part",
                    received=excerpt(kind),
                    json_path=json_path(["parts", i]),
                )
            )
    return findings


def _error_text(value: dict[str, Any]) -> list[Finding]:
    status, text = value.get("status"), value.get("error_text")
    if status in _STATUSES and status not in ERROR_STATUSES and text is not None:
        return [
            Finding.of(
                "SNAPSHOT-ERROR-TEXT",
                f"a {status} turn carries error_text; only FAILED and CANCELLED turns do",
                expected="null",
                received=excerpt(text),
                json_path="$.error_text",
            )
        ]
    return []


def check_snapshot(value: object, profile: Profile = DEFAULT_PROFILE, *, payloads: bool = False) -> list[Finding]:
    """Findings for one served snapshot (an empty list when it keeps the contract for `profile`)."""
    if not isinstance(value, dict):
        return [
            Finding.of(
                "SNAPSHOT-SCHEMA",
                f"a snapshot is a JSON object, received {excerpt(value)}",
                expected="object",
                received=excerpt(value),
                json_path="$",
            )
        ]
    findings = deny_scan(value, ARTEFACT)
    retired = {f.json_path for f in findings}
    findings += _envelope(value, retired)
    parts = value.get("parts")
    if isinstance(parts, list):
        message = {"id": "", "role": "assistant", "parts": parts}
        findings += [
            f
            for f in validate_message(message, profile)
            if not (f.requirement == "PART-EXTRA-KEY" and f.json_path in retired)
        ]
        findings += _transient(parts)
        if payloads:
            findings += check_payloads(parts)
    findings += _error_text(value)
    return findings


@dataclass(frozen=True)
class SnapshotReading:
    """What a reader makes of a snapshot: the typed value (None when unreadable) and the writer's findings."""

    snapshot: SnapshotEnvelope | None
    findings: list[Finding]


def read_snapshot(value: object, profile: Profile = DEFAULT_PROFILE) -> SnapshotReading:
    """Read a snapshot as a client does: retired keys readers accept are read as their replacements.

    The findings are those of `check_snapshot` on `value` as sent, so a legacy key a reader copes with
    is still reported against the writer.
    """
    findings = check_snapshot(value, profile)
    try:
        snapshot: SnapshotEnvelope | None = snapshot_model(profile).model_validate(accept_legacy(value, ARTEFACT))
    except ValidationError:
        snapshot = None
    return SnapshotReading(snapshot, findings)
