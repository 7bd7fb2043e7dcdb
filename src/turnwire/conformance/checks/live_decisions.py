"""Live checks of the decision record on the timeline, and of the legacy decision form a runtime must read.

After a resume is applied, the runtime's timeline must hold exactly one `x.permission.decision` event
for the call, after its interrupt, before the tool ran, inside the resumed run, without the original
arguments (`turnwire.resume.check_decision_log`), and saying what was decided: the action, the reason
of a reject, the replacement input of an approve. An invalid resume tried first must leave no trace.

Forward compatibility, per docs/resume.md: readers accept the legacy decision `{"decision": "approved"}`
as approve (turnwire never writes it). A runtime is such a reader, so a resume in that form is applied.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from turnwire.conformance.catalogue import check
from turnwire.conformance.checks.live_common import (
    PAUSING,
    Paused,
    exchange_findings,
    last_timeline_exchange,
    live,
    needs_approvals,
    note,
    pause,
    resume_body,
    timeline,
)
from turnwire.conformance.checks.live_resume import decision_events
from turnwire.conformance.context import CheckContext
from turnwire.conformance.model import Capability, ReportedFinding
from turnwire.findings import Finding
from turnwire.resume import check_decision_log

_UPDATED_INPUT = '{"path": "turnwire-replacement.txt"}'
_REJECT_MESSAGE = "not now, says the turnwire conformance run"


def _data(event: Mapping[str, Any]) -> Mapping[str, Any]:
    extension = event.get("extension")
    data = extension.get("data") if isinstance(extension, dict) else None
    return data if isinstance(data, dict) else {}


def content_problems(data: Mapping[str, Any], decision: Mapping[str, Any]) -> list[str]:
    """How a recorded decision payload differs from the decision that was applied (empty: it matches)."""
    problems = []
    action = decision["action"]
    if data.get("action") != action:
        problems.append(f"action {data.get('action')!r}, expected {action!r}")
    if action == "approve":
        if "decision_text" in data:
            problems.append("decision_text on an approve")
        if "updated_input" in decision and data.get("updated_input") != decision["updated_input"]:
            problems.append(f"updated_input {data.get('updated_input')!r}, expected {decision['updated_input']!r}")
        if "updated_input" in decision and data.get("has_updated_input") is not True:
            problems.append("has_updated_input is not true for an approve with a replacement")
    elif data.get("decision_text") != decision.get("message"):
        problems.append(f"decision_text {data.get('decision_text')!r}, expected {decision.get('message')!r}")
    return problems


def _one_decision(ctx: CheckContext, paused: Paused, decision: Mapping[str, Any]) -> Iterator[ReportedFinding]:
    runtime = live(ctx)
    label = f"decision log ({decision['action']})"
    invalid = runtime.resume(paused.turn, resume_body(paused.interrupt_id, {"action": "respond", "message": ""}))
    yield from exchange_findings(
        invalid, f"{label}: an invalid respond first", {422}, requirement="RESUME-HTTP-INVALID"
    )
    applied = runtime.resume(paused.turn, resume_body(paused.interrupt_id, decision))
    found = exchange_findings(applied, f"{label}: resume", {200}, requirement="RESUME-HTTP-APPLIED")
    yield from found
    if found:
        return
    events, found = timeline(ctx, paused.turn, label)
    yield from found
    if events is None:
        return
    exchange = last_timeline_exchange()
    for finding in check_decision_log(events):
        yield note(finding, exchange)
    recorded = decision_events(events)
    if not recorded:
        finding = Finding.of(
            "RESUME-DECISION-MISSING",
            f"{label}: the applied resume left no {decision['action']} decision event on the timeline",
            expected="one x.permission.decision event",
            received=f"kinds: {', '.join(str(e.get('kind')) for e in events if isinstance(e, dict))}",
        )
        yield note(finding, exchange)
        return
    problems = content_problems(_data(recorded[0]), decision)
    if problems:
        finding = Finding.of(
            "RESUME-DECISION-CONTENT",
            f"{label}: the decision event does not say what was decided: {'; '.join(problems)}",
            expected=str(dict(decision)),
            received=str(dict(_data(recorded[0]))),
        )
        yield note(finding, exchange)


@check(
    "live.resume.decision-log",
    requirements=[
        "RESUME-DECISION-AFTER-INTERRUPT",
        "RESUME-DECISION-BEFORE-TOOL",
        "RESUME-DECISION-BEFORE-IDLE",
        "RESUME-DECISION-DUPLICATE",
        "RESUME-DECISION-MISSING",
        "RESUME-DECISION-ARGS",
        "RESUME-DECISION-CONTENT",
        "EVENT-ENVELOPE",
        "EVENT-ONE-PAYLOAD",
        "EVENT-PAYLOAD-INVALID",
        "EVENT-EXTENSION-KIND",
        "EVENT-EXTENSION-UNREGISTERED",
        "EVENT-KIND-UNKNOWN",
        "RESUME-HTTP-INVALID",
        "RESUME-HTTP-APPLIED",
        *PAUSING,
    ],
    needs={Capability.STREAMING, Capability.RESUME, Capability.TIMELINE},
    needs_live=True,
    applies=needs_approvals,
)
def decision_log(ctx: CheckContext) -> Iterator[ReportedFinding]:
    """An applied approve and an applied reject each leave one decision event, in order, saying what was decided."""
    decisions: list[Mapping[str, Any]] = [
        {"action": "approve", "updated_input": _UPDATED_INPUT},
        {"action": "reject", "message": _REJECT_MESSAGE},
    ]
    for decision in decisions:
        paused = pause(ctx, f"decision log ({decision['action']})", approved=decision["action"] == "approve")
        if isinstance(paused, list):
            yield from paused
            continue
        yield from _one_decision(ctx, paused, decision)


@check(
    "live.compat.legacy-decision",
    requirements=["COMPAT-LEGACY-DECISION", *PAUSING],
    needs={Capability.STREAMING, Capability.RESUME},
    needs_live=True,
    applies=needs_approvals,
)
def legacy_decision(ctx: CheckContext) -> Iterator[ReportedFinding]:
    """A resume whose decision is the legacy {"decision": "approved"} is applied as an approve."""
    paused = pause(ctx, "legacy decision")
    if isinstance(paused, list):
        yield from paused
        return
    runtime = live(ctx)
    body = resume_body(paused.interrupt_id, {"decision": "approved"})
    applied = runtime.resume(paused.turn, body)
    found = exchange_findings(
        applied, "resume with the legacy decision form", {200}, requirement="COMPAT-LEGACY-DECISION"
    )
    yield from found
    if found or Capability.TIMELINE not in ctx.capabilities:
        return
    events, found = timeline(ctx, paused.turn, "legacy decision")
    yield from found
    recorded = decision_events(events or [])
    actions = [_data(e).get("action") for e in recorded]
    if events is not None and actions != ["approve"]:
        finding = Finding.of(
            "COMPAT-LEGACY-DECISION",
            "the legacy decision {'decision': 'approved'} was not recorded as one approve",
            expected="one x.permission.decision event with action approve",
            received=f"actions {actions}",
        )
        yield note(finding, last_timeline_exchange())
