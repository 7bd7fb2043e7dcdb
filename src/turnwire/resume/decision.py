"""The human's answer to a permission ask: a resume decision, and the request that carries it.

A decision is one of three actions. `approve` lets the tool run, optionally on replacement argument
text (`updated_input`); because an empty replacement is a real choice ("run it with no input") and not
the same as no replacement, `has_updated_input` says explicitly which one was meant. `reject` and
`respond` both leave the tool unexecuted: reject with an optional reason (default "rejected by user"),
respond with a message the model reads instead of a tool result, so respond without a message has
nothing to say and is invalid.

Seed 004's body `{"decision": "approved"}` is read as approve (old clients keep working) but never
written: everything turnwire writes uses `action`.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import MISSING, ValidationError, model_validator

from turnwire.canonical import CanonicalError
from turnwire.resume._base import ContractModel, NonEmptyStr, describe, validate_json_value
from turnwire.resume.errors import (
    EmptyAction,
    EmptyRespondMessage,
    MalformedDecision,
    MalformedRequest,
    UnknownAction,
)

__all__ = [
    "DEFAULT_REJECT_MESSAGE",
    "LEGACY_DECISIONS",
    "ResumeAction",
    "ResumeDecision",
    "ResumeRequest",
    "parse_decision",
    "parse_resume_request",
]

DEFAULT_REJECT_MESSAGE = "rejected by user"
"""The reason a reject records when the human gave none."""


class ResumeAction(StrEnum):
    """What the human decided about the pending tool call."""

    APPROVE = "approve"
    REJECT = "reject"
    RESPOND = "respond"


LEGACY_DECISIONS: dict[str, ResumeAction] = {"approved": ResumeAction.APPROVE}
"""Values of the legacy body `{"decision": ...}` that turnwire reads, and the action each means."""


def _respond_needs_message(schema: dict[str, Any]) -> None:
    """JSON Schema can say the respond rule, so the schema says it too."""
    schema["if"] = {"properties": {"action": {"const": ResumeAction.RESPOND.value}}, "required": ["action"]}
    schema["then"] = {"required": ["message"], "properties": {"message": {"minLength": 1}}}


class ResumeDecision(ContractModel, json_schema_extra=_respond_needs_message):
    """A resume decision as a client sends it (the `decision` of a resume request)."""

    action: ResumeAction
    message: str | MISSING = MISSING
    updated_input: str | MISSING = MISSING
    has_updated_input: bool | MISSING = MISSING

    @model_validator(mode="after")
    def _respond_has_message(self) -> ResumeDecision:
        if self.action is ResumeAction.RESPOND and self.message in (MISSING, ""):
            raise ValueError("empty response message: a respond decision needs a non-empty message")
        return self

    @property
    def replaces_input(self) -> bool:
        """True when an approve runs the tool on replacement text (possibly the empty string)."""
        if self.action is not ResumeAction.APPROVE:
            return False
        return self.has_updated_input is True or self.updated_input not in (MISSING, "")

    def normalized(self) -> ResumeDecision:
        """The decision as it is recorded: defaults filled in, fields that do not apply dropped.

        approve keeps only the replacement (`updated_input` is kept exactly when `has_updated_input`,
        which a non-empty `updated_input` implies); reject gets its message or the default; respond keeps
        its message. A message on an approve and a replacement on a reject or respond mean nothing, so
        they are not recorded.
        """
        if self.action is ResumeAction.APPROVE:
            if not self.replaces_input:
                return ResumeDecision(action=self.action)
            text = self.updated_input if self.updated_input is not MISSING else ""
            return ResumeDecision(action=self.action, updated_input=text, has_updated_input=True)
        if self.action is ResumeAction.REJECT:
            given = self.message if self.message is not MISSING else ""
            return ResumeDecision(action=self.action, message=given or DEFAULT_REJECT_MESSAGE)
        return ResumeDecision(action=self.action, message=self.message)


def parse_decision(raw: object) -> ResumeDecision:
    """Read a decision from its JSON value (or pass a `ResumeDecision` through), raising typed errors.

    Raises `EmptyAction`, `UnknownAction`, `EmptyRespondMessage` for the rules a human reader cares
    about and `MalformedDecision` for any other shape problem. The legacy `{"decision": "approved"}`
    is read as approve.
    """
    if isinstance(raw, ResumeDecision):
        return raw
    if not isinstance(raw, dict):
        raise MalformedDecision(f"a decision is a JSON object, got {type(raw).__name__}")
    if "action" not in raw and set(raw) == {"decision"}:
        legacy = raw["decision"]
        if isinstance(legacy, str) and legacy in LEGACY_DECISIONS:
            return ResumeDecision(action=LEGACY_DECISIONS[legacy])
        raise UnknownAction(f"unknown legacy decision {legacy!r}; expected one of {sorted(LEGACY_DECISIONS)}")
    action = raw.get("action")
    if action is None or action == "":
        raise EmptyAction("empty resume action; expected approve, reject or respond")
    if not isinstance(action, str):
        raise MalformedDecision(f"$.action: expected a string, got {type(action).__name__}")
    if action not in {a.value for a in ResumeAction}:
        raise UnknownAction(f"unknown resume action {action!r}; expected approve, reject or respond")
    if action == ResumeAction.RESPOND and raw.get("message") in (None, ""):
        raise EmptyRespondMessage("empty response message: a respond decision needs a non-empty message")
    try:
        return validate_json_value(ResumeDecision, raw)
    except ValidationError as exc:
        raise MalformedDecision(describe(exc)) from None
    except CanonicalError as exc:
        raise MalformedDecision(str(exc)) from None


class ResumeRequest(ContractModel):
    """The body of a resume: which interrupt, optionally which run, and the decision."""

    interrupt_id: NonEmptyStr
    run_id: NonEmptyStr | MISSING = MISSING
    decision: ResumeDecision


_REQUEST_KEYS = frozenset({"interrupt_id", "run_id", "decision"})


def parse_resume_request(raw: object) -> ResumeRequest:
    """Read a resume request body (or pass a `ResumeRequest` through), raising typed errors.

    The decision inside is read by `parse_decision` (so its typed errors and the legacy form apply);
    anything else wrong with the body raises `MalformedRequest`.
    """
    if isinstance(raw, ResumeRequest):
        return raw
    if not isinstance(raw, dict):
        raise MalformedRequest(f"a resume request is a JSON object, got {type(raw).__name__}")
    unknown = sorted(str(k) for k in set(raw) - _REQUEST_KEYS)
    if unknown:
        raise MalformedRequest(f"unknown key(s) in resume request: {', '.join(unknown)}")
    if "decision" not in raw:
        raise MalformedRequest("$.decision: the resume request has no decision")
    decision = parse_decision(raw["decision"])
    try:
        return validate_json_value(ResumeRequest, {**raw, "decision": decision.to_json()})
    except ValidationError as exc:
        raise MalformedRequest(describe(exc)) from None
    except CanonicalError as exc:
        raise MalformedRequest(str(exc)) from None
