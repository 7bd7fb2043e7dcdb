"""The session event envelope: one fact on a session's durable timeline.

Every event has an id, a timestamp, a kind, the turn it belongs to and exactly one active payload (a
second payload would make the event mean two things; none would make it mean nothing). Built-in kinds
are the runtime's own (messages, lifecycle statuses, spans, interrupts); any other kind is an
extension kind, starts with `x.`, and carries its data in the `extension` payload, typed through the
payload registry. The payloads of built-in kinds are JSON objects this contract does not constrain,
except for the few keys the ordering checks read (see `turnwire.resume.ordering`).

`decode_event` judges a target's event and returns findings; `encode_event` writes one of ours and
raises when it is not encodable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import MISSING, AwareDatetime, ValidationError, model_validator

from turnwire.canonical import CanonicalError, JSONValue
from turnwire.findings import Finding
from turnwire.resume._base import ContractModel, JSONObject, NonEmptyStr, describe, validate_json_value
from turnwire.resume.registry import EXTENSION_PREFIX, PayloadRegistry, default_registry, is_extension_kind

__all__ = [
    "BUILTIN_KINDS",
    "PAYLOAD_FIELDS",
    "DecodedEvent",
    "ExtensionEvent",
    "SessionEvent",
    "decode_event",
    "encode_event",
]

BUILTIN_KINDS: tuple[str, ...] = (
    "message",
    "messages_replaced",
    "message_updated",
    "message_inserted",
    "messages_deleted",
    "turn_end",
    "rollback",
    "session.status_running",
    "session.status_idle",
    "session.status_rescheduled",
    "session.error",
    "span.model_request_start",
    "span.model_request_end",
    "span.tool_call_start",
    "span.tool_call_end",
    "user.interrupt",
    "agent.interrupt",
)
"""The runtime's own event kinds; every other kind is an extension kind."""

PAYLOAD_FIELDS: tuple[str, ...] = (
    "message",
    "messages_replaced",
    "message_updated",
    "message_inserted",
    "messages_deleted",
    "turn_end",
    "rollback",
    "lifecycle",
    "error",
    "span",
    "user_observation",
    "agent_interrupt",
    "extension",
)
"""The envelope's payload slots; exactly one of them is present in an event."""


class ExtensionEvent(ContractModel):
    """The payload slot of an extension event: its data, typed by the kind's registered model."""

    data: Any = MISSING


def _envelope_rules(schema: dict[str, Any]) -> None:
    """Exactly one payload; the extension payload exactly with an `x.` kind; kinds built-in or `x.`."""
    ext = {"pattern": "^" + EXTENSION_PREFIX.replace(".", "\\.") + "."}
    schema["oneOf"] = [{"required": [name]} for name in PAYLOAD_FIELDS]
    schema["properties"]["kind"] = {"anyOf": [{"enum": list(BUILTIN_KINDS)}, {"type": "string", **ext}]}
    schema["allOf"] = [
        {"if": {"required": ["extension"]}, "then": {"properties": {"kind": ext}}},
        {"if": {"properties": {"kind": ext}, "required": ["kind"]}, "then": {"required": ["extension"]}},
    ]


class SessionEvent(ContractModel, json_schema_extra=_envelope_rules):
    """One event of a session timeline."""

    event_id: NonEmptyStr
    timestamp: AwareDatetime
    kind: NonEmptyStr
    turn_id: NonEmptyStr
    session_id: NonEmptyStr | MISSING = MISSING
    message: JSONObject | MISSING = MISSING
    messages_replaced: JSONObject | MISSING = MISSING
    message_updated: JSONObject | MISSING = MISSING
    message_inserted: JSONObject | MISSING = MISSING
    messages_deleted: JSONObject | MISSING = MISSING
    turn_end: JSONObject | MISSING = MISSING
    rollback: JSONObject | MISSING = MISSING
    lifecycle: JSONObject | MISSING = MISSING
    error: JSONObject | MISSING = MISSING
    span: JSONObject | MISSING = MISSING
    user_observation: JSONObject | MISSING = MISSING
    agent_interrupt: JSONObject | MISSING = MISSING
    extension: ExtensionEvent | MISSING = MISSING

    @model_validator(mode="after")
    def _one_payload_and_a_matching_kind(self) -> SessionEvent:
        problem = _kind_problem(self.kind, self.active_payloads())
        if problem is not None:
            raise ValueError(problem[1])
        return self

    def active_payloads(self) -> list[str]:
        """The names of the payload slots this event uses (exactly one for a valid event)."""
        return [name for name in PAYLOAD_FIELDS if getattr(self, name) is not MISSING]

    @property
    def payload(self) -> Any:
        """The active payload: the extension's data for an extension event, else the payload object."""
        if self.extension is not MISSING:
            return self.extension.data
        return getattr(self, self.active_payloads()[0])


def _kind_problem(kind: object, active: list[str]) -> tuple[str, str] | None:
    """The first envelope rule `kind` and the active payload slots break, as (requirement id, message)."""
    if len(active) != 1:
        return "EVENT-ONE-PAYLOAD", f"a session event has exactly one active payload, got {len(active)}"
    if not isinstance(kind, str) or not kind:
        return None  # the model's own validation reports a missing or empty kind
    if active == ["extension"] and not is_extension_kind(kind):
        return "EVENT-EXTENSION-KIND", f"extension event kind {kind!r} must start with {EXTENSION_PREFIX!r}"
    if active != ["extension"] and kind.startswith(EXTENSION_PREFIX):
        return "EVENT-EXTENSION-KIND", f"event kind {kind!r} is an extension kind but carries the {active[0]} payload"
    if not kind.startswith(EXTENSION_PREFIX) and kind not in BUILTIN_KINDS:
        return "EVENT-KIND-UNKNOWN", f"event kind {kind!r} is neither built-in nor an extension kind (x.*)"
    return None


@dataclass(frozen=True)
class DecodedEvent:
    """A target's event as read: the typed event (None when unreadable) and what was wrong with it."""

    event: SessionEvent | None
    findings: list[Finding] = field(default_factory=list)


def decode_event(raw: object, registry: PayloadRegistry | None = None, *, json_path: str = "$") -> DecodedEvent:
    """Read one session event from its JSON value; never raises on a target's data.

    The envelope rules give `EVENT-ONE-PAYLOAD`, `EVENT-EXTENSION-KIND`, `EVENT-KIND-UNKNOWN` or
    `EVENT-ENVELOPE` findings (and no event); an extension's data is then decoded by the registry,
    which may add `EVENT-EXTENSION-UNREGISTERED` or `EVENT-PAYLOAD-INVALID` (the event is kept, its data
    raw).
    """
    registry = registry or default_registry()
    if isinstance(raw, SessionEvent):
        raw = raw.model_dump(mode="json")
    if not isinstance(raw, dict):
        return DecodedEvent(
            None,
            [
                Finding.of(
                    "EVENT-ENVELOPE", f"a session event is a JSON object, got {type(raw).__name__}", json_path=json_path
                )
            ],
        )
    active = [name for name in PAYLOAD_FIELDS if name in raw]
    problem = _kind_problem(raw.get("kind"), active)
    if problem is not None:
        where = f"{json_path}.kind" if problem[0] != "EVENT-ONE-PAYLOAD" else json_path
        return DecodedEvent(None, [Finding.of(problem[0], problem[1], received=_kind_text(raw), json_path=where)])
    try:
        event = validate_json_value(SessionEvent, raw)
    except (ValidationError, CanonicalError) as exc:
        why = describe(exc) if isinstance(exc, ValidationError) else str(exc)
        return DecodedEvent(
            None, [Finding.of("EVENT-ENVELOPE", f"not a valid session event: {why}", json_path=json_path)]
        )
    if event.extension is MISSING:
        return DecodedEvent(event)
    data, findings = registry.decode(event.kind, event.extension.data, json_path=f"{json_path}.extension.data")
    typed = event.model_copy(update={"extension": ExtensionEvent(data=data)})
    return DecodedEvent(typed, findings)


def _kind_text(raw: dict[str, Any]) -> str:
    kind = raw.get("kind")
    return kind if isinstance(kind, str) else repr(kind)


def encode_event(event: SessionEvent, registry: PayloadRegistry | None = None) -> dict[str, JSONValue]:
    """The JSON of one of our events; an extension's data goes through the registry (which may raise)."""
    registry = registry or default_registry()
    out: dict[str, JSONValue] = event.model_dump(mode="json", exclude={"extension"})
    if event.extension is not MISSING:
        data = event.extension.data
        out["extension"] = {} if data is MISSING else {"data": registry.encode(event.kind, data)}
    return out
