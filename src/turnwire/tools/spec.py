"""`ToolSpec`: a resolved tool as the runner receives it on the `/run` wire.

Resolution turns a stored `ToolConfig` into a spec that names the tool, describes it to the model
(`description`, `inputSchema`) and says how it executes, discriminated by `kind`:

- `callback`: the runner calls back to `toolCallback.endpoint` with `callRef` (gateway tools);
- `code`: the runner runs `code` itself, with `env` holding the tool's secrets;
- `client`: the caller executes it; the runner only declares it.

The wire is camelCase; the models accept snake_case too (stored sessions written by Python code), but
always write camelCase. A wire dict keeps only what carries information: `needsApproval` only when true,
`env` only when non-empty, `render` only when set — so a spec without those reads the same as before
they existed. `kind` is always written, so a runner never has to sniff fields to pick an executor.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    ValidationError,
    model_serializer,
)

from turnwire.tools._base import empty_object_schema, require_in_schema
from turnwire.tools.errors import InvalidToolSpecError, describe_validation_error
from turnwire.tools.secrets import REVEAL_SECRETS, Secret

__all__ = [
    "SNAKE_TO_WIRE",
    "TOOL_SPEC_KINDS",
    "CallbackToolSpec",
    "ClientToolSpec",
    "CodeToolSpec",
    "ToolCallback",
    "ToolSpec",
    "coerce_tool_spec",
    "tool_spec_adapter",
]

SNAKE_TO_WIRE: Mapping[str, str] = {
    "input_schema": "inputSchema",
    "needs_approval": "needsApproval",
    "call_ref": "callRef",
}
"""Input-only snake_case spellings of spec keys, and the camelCase wire key each stands for."""


class _ToolSpecBase(BaseModel):
    """Fields every resolved spec has."""

    model_config = ConfigDict(extra="forbid", frozen=True, json_schema_extra=require_in_schema("kind"))

    name: str = Field(min_length=1)
    description: str
    input_schema: dict[str, Any] = Field(
        default_factory=empty_object_schema,
        validation_alias=AliasChoices("inputSchema", "input_schema"),
        serialization_alias="inputSchema",
    )
    needs_approval: bool = Field(
        default=False,
        validation_alias=AliasChoices("needsApproval", "needs_approval"),
        serialization_alias="needsApproval",
    )
    render: dict[str, Any] | None = None

    @model_serializer(mode="wrap")
    def _omit_defaults(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if not self.needs_approval:
            data.pop("needsApproval", None)
            data.pop("needs_approval", None)
        if self.render is None:
            data.pop("render", None)
        if not data.get("env", True):
            data.pop("env")
        return data

    def to_wire(self) -> dict[str, Any]:
        """The spec as the `/run` wire carries it (camelCase, secrets in clear, defaults omitted)."""
        wire: dict[str, Any] = self.model_dump(mode="json", by_alias=True, context=REVEAL_SECRETS)
        return wire


class CallbackToolSpec(_ToolSpecBase):
    """Executed by calling back to the tool-callback endpoint with `callRef` (gateway tools)."""

    kind: Literal["callback"] = "callback"
    call_ref: str = Field(
        min_length=1, validation_alias=AliasChoices("callRef", "call_ref"), serialization_alias="callRef"
    )


class CodeToolSpec(_ToolSpecBase):
    """Executed by the runner: `code` in `runtime`, with the tool's own secrets in `env`."""

    kind: Literal["code"] = "code"
    runtime: Literal["python", "node"] = "python"
    code: str
    env: dict[str, Secret] = Field(default_factory=dict, repr=False)


class ClientToolSpec(_ToolSpecBase):
    """Executed by the client; the runner declares it to the model and waits for the result."""

    kind: Literal["client"] = "client"


ToolSpec = Annotated[CallbackToolSpec | CodeToolSpec | ClientToolSpec, Field(discriminator="kind")]
"""A resolved tool spec, discriminated by `kind`."""

TOOL_SPEC_KINDS: Mapping[str, type[CallbackToolSpec | CodeToolSpec | ClientToolSpec]] = {
    "callback": CallbackToolSpec,
    "code": CodeToolSpec,
    "client": ClientToolSpec,
}
"""Each `kind` and its model."""

_ADAPTER: TypeAdapter[ToolSpec] = TypeAdapter(ToolSpec)


def tool_spec_adapter() -> TypeAdapter[ToolSpec]:
    """The pydantic adapter of the `ToolSpec` union (for schemas and bulk validation)."""
    return _ADAPTER


class ToolCallback(BaseModel):
    """Where the runner calls back to execute `callback` tools, and the credential it presents."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    endpoint: str = Field(min_length=1)
    authorization: Secret | None = Field(default=None, repr=False)

    def to_wire(self) -> dict[str, Any]:
        """`{"endpoint", "authorization"}`: `authorization` is written even when null."""
        wire: dict[str, Any] = self.model_dump(mode="json", context=REVEAL_SECRETS)
        return wire


def coerce_tool_spec(value: object) -> ToolSpec:
    """A spec from a spec, or from a mapping that may predate `kind` and the defaults.

    Without `kind`, it is inferred the way old runner dicts imply it: a `callRef` (`call_ref`) means
    `callback`, a non-null `code` means `code`, anything else is `client`. A missing `description`
    defaults to the name and a missing input schema (in either spelling) to the empty object schema.
    Raises `InvalidToolSpecError` for a non-mapping or a mapping that still is no spec.
    """
    if isinstance(value, CallbackToolSpec | CodeToolSpec | ClientToolSpec):
        return value
    if not isinstance(value, Mapping):
        raise InvalidToolSpecError("tool spec must be a mapping")
    data: dict[Any, Any] = dict(value)
    if "kind" not in data:
        if "callRef" in data or "call_ref" in data:
            data["kind"] = "callback"
        elif data.get("code") is not None:
            data["kind"] = "code"
        else:
            data["kind"] = "client"
    if data.get("description") is None and isinstance(data.get("name"), str):
        data["description"] = data["name"]
    if "inputSchema" not in data and "input_schema" not in data:
        data["inputSchema"] = empty_object_schema()
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as exc:
        raise InvalidToolSpecError(
            f"Invalid tool spec: {describe_validation_error(exc, tag=_hashable(data.get('kind')))}"
        ) from None


def _hashable(value: object) -> object:
    return value if isinstance(value, str) else None
