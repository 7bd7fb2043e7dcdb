"""Generated artifacts of the interrupt / resume contract (schemas, golden/session/).

`schemas()` returns JSON Schemas by path under `schemas/`; `goldens()` returns golden files (bytes) by
path under `golden/`. `turnwire.generate.artifacts` collects them with every other generated file.

The goldens are resume test vectors any implementation can replay: a stored snapshot, one or more
steps (a resume request at a given time, or the approved tool's result) with the outcome and the
snapshot to store after each step, and the session's event log at the end. They are produced by
running `turnwire.resume`'s engine, so they can only drift when the contract changes. Time is fixed;
nothing depends on the clock or on randomness.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic import BaseModel, TypeAdapter

from turnwire.canonical import JSONValue, file_bytes
from turnwire.generate.schemas import build_schema, schema_id
from turnwire.resume import (
    IDLE_KIND,
    INTERRUPT_KIND,
    RUNNING_KIND,
    AgentSessionSnapshot,
    Applied,
    Expired,
    PermissionDecision,
    ResumeRequest,
    SessionEvent,
    SnapshotError,
    default_registry,
    encode_event,
    load_snapshot,
    new_pending_snapshot,
    outcome_json,
    record_result,
    resume_request,
    tool_input,
)

_HEAD = ("$schema", "$id", "title")


def _schema(model: type[BaseModel], description: str) -> dict[str, Any]:
    name = model.__name__
    return build_schema(TypeAdapter(model), schema_id_=schema_id(None, name), title=name, description=description)


def _session_event_schema() -> dict[str, Any]:
    """The envelope's schema plus, per registered extension kind, "the data is that kind's payload"."""
    schema = _schema(SessionEvent, "One event of a session's durable timeline (exactly one active payload).")
    defs: dict[str, Any] = schema.setdefault("$defs", {})
    for kind, model in sorted(default_registry().kinds.items()):
        sub = _schema(model, f"The payload of a {kind!r} extension event.")
        for key in _HEAD:
            sub.pop(key)
        for name, body in sub.pop("$defs", {}).items():
            if defs.setdefault(name, body) != body:
                raise ValueError(f"two different schemas named {name} in SessionEvent")
        defs[model.__name__] = sub
        data = {"properties": {"data": {"$ref": f"#/$defs/{model.__name__}"}}, "required": ["data"]}
        schema["allOf"].append(
            {
                "if": {"properties": {"kind": {"const": kind}}, "required": ["kind"]},
                "then": {"properties": {"extension": data}, "required": ["extension"]},
            }
        )
    return schema


def schemas() -> dict[str, dict[str, Any]]:
    """JSON Schemas by path relative to `schemas/`."""
    return {
        "AgentSessionSnapshot.schema.json": _schema(
            AgentSessionSnapshot,
            "The stored session state of an interruptible run, version 2: the tool call waiting for a human.",
        ),
        "SessionEvent.schema.json": _session_event_schema(),
        "PermissionDecision.schema.json": _schema(
            PermissionDecision, "The payload of an x.permission.decision session event: the human's choice."
        ),
        "ResumeRequest.schema.json": _schema(
            ResumeRequest, "The body of a resume: which interrupt, optionally which run, and the decision."
        ),
    }


# ---- resume test vectors -------------------------------------------------------------------------------

T0 = datetime(2026, 3, 3, 11, 59, tzinfo=UTC)
"""When the run was interrupted (the pending call's `updated_at`)."""


def _at(seconds: int) -> datetime:
    return T0 + timedelta(seconds=seconds)


def _iso(when: datetime) -> str:
    text: str = TypeAdapter(datetime).dump_python(when, mode="json")
    return text


@dataclass(frozen=True)
class _Resume:
    """One resume request arriving `seconds` after T0."""

    seconds: int
    request: dict[str, JSONValue]


@dataclass(frozen=True)
class _Case:
    slug: str
    description: str
    source: str
    snapshot: JSONValue
    steps: tuple[_Resume, ...]


@dataclass
class _Log:
    """The session's event log as a vector records it."""

    turn_id: str
    events: list[dict[str, JSONValue]] = field(default_factory=list)

    def add(self, kind: str, slot: str, payload: dict[str, JSONValue], when: datetime) -> None:
        event = SessionEvent.model_validate(
            {
                "event_id": f"evt-{len(self.events) + 1}",
                "timestamp": when,
                "kind": kind,
                "turn_id": self.turn_id,
                slot: payload,
            },
            strict=False,
        )
        self.events.append(encode_event(event))

    def record(self, event: SessionEvent) -> None:
        self.events.append(encode_event(event))


def _tool_result(ran_on: JSONValue) -> dict[str, JSONValue]:
    """The scripted tool's result: it reports what it ran on, so a vector shows the input took effect."""
    return {"ok": True, "ran_on": ran_on}


def _play(case: _Case) -> dict[str, JSONValue]:
    stored: JSONValue = case.snapshot
    try:
        first: AgentSessionSnapshot | None = load_snapshot(stored)
    except SnapshotError:
        first = None  # a legacy snapshot: no run, nothing was asked in a form this contract can read
    log = _Log(turn_id=first.run_context.run_id if first else "none")
    if first is not None and first.pending_tool_call is not None:
        log.add(RUNNING_KIND, "lifecycle", {"run_id": log.turn_id}, T0)
        log.add(INTERRUPT_KIND, "agent_interrupt", _interrupt_payload(first.pending_tool_call.to_json()), T0)
        log.add(IDLE_KIND, "lifecycle", {"run_id": log.turn_id}, T0)
    steps: list[JSONValue] = []
    for step in case.steps:
        now = _at(step.seconds)
        outcome = resume_request(stored, step.request, now)
        entry: dict[str, JSONValue] = {"step": "resume", "at": _iso(now), "request": step.request}
        entry["outcome"] = outcome_json(outcome)
        steps.append(entry)
        if isinstance(outcome, Expired) and outcome.changed:
            stored = entry["snapshot"] = outcome.snapshot.to_json()
        if not isinstance(outcome, Applied):
            continue
        stored = entry["snapshot"] = outcome.snapshot.to_json()
        log.add(RUNNING_KIND, "lifecycle", {"run_id": log.turn_id}, now)
        log.record(outcome.event)
        call = outcome.snapshot.pending_tool_call
        assert call is not None
        ran_on = tool_input(call)
        if ran_on is not None:
            ids = {k: v for k, v in call.to_json().items() if k in ("tool_name", "tool_use_id")}
            log.add("span.tool_call_start", "span", {**ids, "input": ran_on}, now + timedelta(seconds=1))
            done = record_result(outcome.snapshot, _tool_result(ran_on), now + timedelta(seconds=2))
            stored = done.to_json()
            steps.append(
                {
                    "step": "tool-result",
                    "at": _iso(now + timedelta(seconds=2)),
                    "result": _tool_result(ran_on),
                    "snapshot": stored,
                }
            )
            log.add("span.tool_call_end", "span", {**ids, "result": _tool_result(ran_on)}, now + timedelta(seconds=2))
        log.add(IDLE_KIND, "lifecycle", {"run_id": log.turn_id}, now + timedelta(seconds=3))
    return {
        "description": case.description,
        "source": case.source,
        "snapshot": case.snapshot,
        "steps": steps,
        "events": list(log.events),
    }


def _interrupt_payload(call: dict[str, JSONValue]) -> dict[str, JSONValue]:
    keys = ("interrupt_id", "tool_name", "tool_use_id", "tool_args")
    return {k: call[k] for k in keys if k in call}


# The ADK permission test (seed 002 / research C.3): ask on `permission_tool`, call `permission_call`.
_ADK_ARGS: dict[str, JSONValue] = {"path": "/etc/passwd"}
_ADK = new_pending_snapshot(
    interrupt_id="permission_interrupt",
    tool_name="permission_tool",
    tool_use_id="permission_call",
    tool_args=_ADK_ARGS,
    expires_at=_at(600),
    thread_id="thread-1",
    run_id="run-1",
    now=T0,
).to_json()


def _adk(slug: str, what: str, decision: dict[str, JSONValue], test: str = "") -> _Case:
    return _Case(
        slug=f"adk/{slug}",
        description=what,
        source=f"seed 002 (eino #1070) {test or 'TestPermissionDecisionEventResumeLiveAndPersisted: ' + slug}",
        snapshot=_ADK,
        steps=(_Resume(60, {"interrupt_id": "permission_interrupt", "decision": decision}),),
    )


# The strict interrupt/resume refactor (seed 004): its valid v2 payload, exactly.
_SEED004: dict[str, JSONValue] = {
    "version": 2,
    "pending_tool_call": {
        "interrupt_id": "int-1",
        "tool_name": "srv.transfer_funds",
        "tool_args": {"to": "u2", "amount": 100},
        "status": "PENDING_APPROVAL",
        "expires_at": "2026-03-03T12:00:00Z",
        "decision": None,
        "result": None,
        "updated_at": "2026-03-03T11:59:00Z",
    },
    "run_context": {"thread_id": "t1", "run_id": "r1"},
}
_APPROVE: dict[str, JSONValue] = {"interrupt_id": "int-1", "run_id": "r1", "decision": {"action": "approve"}}

CASES: tuple[_Case, ...] = (
    _adk(
        "approve-updated-input",
        "approve with replacement input: the tool runs on the replacement text",
        {"action": "approve", "updated_input": '{"path":"/tmp/safe.txt"}', "has_updated_input": True},
    ),
    _adk(
        "approve-explicit-empty-input",
        "approve with an explicit empty replacement: the tool runs on the empty string",
        {"action": "approve", "updated_input": "", "has_updated_input": True},
    ),
    _adk(
        "reject-default",
        "reject without a message: recorded as 'rejected by user', the tool never runs",
        {"action": "reject"},
    ),
    _adk(
        "respond",
        "respond with a message: recorded with the message, the tool never runs",
        {"action": "respond", "message": "Please explain first."},
    ),
    _adk(
        "respond-empty-message",
        "respond without a message is invalid: no decision event, the tool never runs",
        {"action": "respond", "message": ""},
        test="TestAttack_InvalidRespondDoesNotPersistDecisionEvent",
    ),
    _Case(
        slug="outcomes/applied",
        description="an approve before expiry is applied (200): decision event, then the tool",
        source="seed 004 tasks 2-3",
        snapshot=_SEED004,
        steps=(_Resume(30, _APPROVE),),
    ),
    _Case(
        slug="outcomes/repeat",
        description="the applied decision sent again answers 'already applied' (409) and changes nothing",
        source="seed 004 task 3 test_resume_is_idempotent",
        snapshot=_SEED004,
        steps=(_Resume(30, _APPROVE), _Resume(40, _APPROVE)),
    ),
    _Case(
        slug="outcomes/expired",
        description="a resume after expires_at is not applied (410); the call becomes EXPIRED",
        source="seed 004 task 4 test_resume_expired_pending_returns_not_applied_and_marks_expired",
        snapshot=_SEED004,
        steps=(_Resume(61, _APPROVE),),
    ),
    _Case(
        slug="outcomes/conflict",
        description="a resume naming another run is a conflict (409); nothing changes",
        source="seed 004 task 5 (run_id mismatch), engine level",
        snapshot=_SEED004,
        steps=(_Resume(30, {**_APPROVE, "run_id": "r2"}),),
    ),
    _Case(
        slug="outcomes/invalid-legacy",
        description="an unversioned (legacy) snapshot is invalid (422), never coerced",
        source="seed 004 task 2 test_invalid_legacy_snapshot_is_rejected",
        snapshot={"pending_tool_call": {"status": "PENDING_APPROVAL"}},
        steps=(_Resume(30, _APPROVE),),
    ),
)


def vectors() -> dict[str, dict[str, JSONValue]]:
    """Every resume test vector by slug (`adk/respond`, `outcomes/repeat`, ...)."""
    return {case.slug: _play(case) for case in CASES}


def goldens() -> dict[str, bytes]:
    """Golden files by path relative to `golden/`."""
    return {f"session/{slug}.json": file_bytes(vector) for slug, vector in vectors().items()}
