"""The permission decision payload: the human's choice as a durable timeline fact.

When a resume is applied, the runtime records *what the human decided* — before the tool runs — as a
session extension event of kind `x.permission.decision`. The payload names the call (tool name and,
when known, the model's tool-use id) and the choice; it never repeats the original tool arguments, so
a timeline can be shown or audited without re-exposing what the human was asked to approve.

Empty values are left out (an empty string or `false` is never written): `has_updated_input: true`
with no `updated_input` is an approve that replaced the input with the empty string, while neither key
is an approve that kept the original input.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import MISSING, model_validator

from turnwire.resume._base import ContractModel, NonEmptyStr
from turnwire.resume.decision import ResumeAction, ResumeDecision
from turnwire.resume.snapshot import PendingToolCall

__all__ = ["PERMISSION_DECISION_KIND", "PermissionDecision"]

PERMISSION_DECISION_KIND = "x.permission.decision"
"""The extension kind of the permission decision event."""

_TEXT_ACTIONS = sorted([ResumeAction.REJECT.value, ResumeAction.RESPOND.value])


def _action_rules(schema: dict[str, Any]) -> None:
    """The per-action rules, in the schema as far as JSON Schema can say them."""
    schema["allOf"] = [
        {
            "if": {"properties": {"action": {"const": ResumeAction.APPROVE.value}}, "required": ["action"]},
            "then": {"properties": {"decision_text": False}},
        },
        {
            "if": {"properties": {"action": {"enum": _TEXT_ACTIONS}}, "required": ["action"]},
            "then": {"required": ["decision_text"], "properties": {"updated_input": False, "has_updated_input": False}},
        },
    ]
    schema["dependentRequired"] = {"updated_input": ["has_updated_input"]}


class PermissionDecision(ContractModel, json_schema_extra=_action_rules):
    """The payload of an `x.permission.decision` event."""

    action: ResumeAction
    tool_name: NonEmptyStr
    tool_use_id: NonEmptyStr | MISSING = MISSING
    decision_text: NonEmptyStr | MISSING = MISSING
    updated_input: NonEmptyStr | MISSING = MISSING
    has_updated_input: Literal[True] | MISSING = MISSING

    @model_validator(mode="after")
    def _fits_its_action(self) -> PermissionDecision:
        if self.action is ResumeAction.APPROVE:
            if self.decision_text is not MISSING:
                raise ValueError("an approve decision carries no decision_text")
        else:
            if self.decision_text is MISSING:
                raise ValueError(f"a {self.action} decision carries its decision_text")
            if self.updated_input is not MISSING or self.has_updated_input is not MISSING:
                raise ValueError(f"a {self.action} decision carries no updated input")
        if self.updated_input is not MISSING and self.has_updated_input is MISSING:
            raise ValueError("updated_input is present, so has_updated_input must be true")
        return self

    @property
    def replacement_input(self) -> str | None:
        """The text the tool runs on instead of its arguments, or None when the arguments are kept."""
        if self.has_updated_input is MISSING:
            return None
        return self.updated_input if self.updated_input is not MISSING else ""

    @classmethod
    def of(cls, decision: ResumeDecision, call: PendingToolCall) -> PermissionDecision:
        """The payload recording `decision` (normalized here) about `call`."""
        d = decision.normalized()
        base: dict[str, Any] = {"action": d.action, "tool_name": call.tool_name, "tool_use_id": call.tool_use_id}
        if d.action is ResumeAction.APPROVE:
            if d.replaces_input:
                base["has_updated_input"] = True
                if d.updated_input not in (MISSING, ""):
                    base["updated_input"] = d.updated_input
        else:
            base["decision_text"] = d.message
        return cls(**base)
