"""UI message protocol, profile `ai-sdk-v5` (AI SDK 5.0.277).

Parts and chunks exactly as the v5 runtime schemas accept them (`uiMessagesSchema`,
`uiMessageChunkSchema`). Two v5 peculiarities are modelled on purpose:

* v5 *chunks* know only the four classic tool states, yet the v5 message validator already accepts
  `approval-requested`, `approval-responded` and `output-denied` on stored **static** tool parts (not
  on `dynamic-tool`), with an approval object of only `{id, approved?, reason?}`. No v5 chunk
  produces them; a stored v6 message still validates under v5.
* `finish.finishReason` still includes `unknown` (removed in v6).

v6 and v7 extend these classes; a field defined here means the same in every later profile.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Discriminator, Tag, ValidationInfo, field_validator

from turnwire.protocol.wire import (
    MISSING,
    JSONValue,
    ProviderMetadata,
    Role,
    WireModel,
    chunk_tag,
    data_type,
    part_tag,
    tool_type,
)

TextState = Literal["streaming", "done"]

# ---- parts: content -------------------------------------------------------------------------------


class TextPart(WireModel):
    """Assistant or user text."""

    type: Literal["text"]
    text: str
    state: TextState | MISSING = MISSING
    provider_metadata: ProviderMetadata | MISSING = MISSING


class ReasoningPart(WireModel):
    """Model reasoning text."""

    type: Literal["reasoning"]
    id: str | MISSING = MISSING
    text: str
    state: TextState | MISSING = MISSING
    provider_metadata: ProviderMetadata | MISSING = MISSING


class SourceUrlPart(WireModel):
    """A cited web source."""

    type: Literal["source-url"]
    source_id: str
    url: str
    title: str | MISSING = MISSING
    provider_metadata: ProviderMetadata | MISSING = MISSING


class SourceDocumentPart(WireModel):
    """A cited document source (`title` is required)."""

    type: Literal["source-document"]
    source_id: str
    media_type: str
    title: str
    filename: str | MISSING = MISSING
    provider_metadata: ProviderMetadata | MISSING = MISSING


class FilePart(WireModel):
    """A file, by URL or `data:` URL."""

    type: Literal["file"]
    media_type: str
    filename: str | MISSING = MISSING
    url: str
    provider_metadata: ProviderMetadata | MISSING = MISSING


class DataPart(WireModel):
    """Application data `data-{name}`; `data` is open (any JSON) and must be present."""

    type: data_type
    id: str | MISSING = MISSING
    data: JSONValue


class StepStartPart(WireModel):
    """Marks the start of a model step."""

    type: Literal["step-start"]


# ---- parts: tool calls ------------------------------------------------------------------------------
# A tool part is `tool-{name}` (static) or `dynamic-tool` (with `toolName`), in one of its states.
# Each state is its own model so that the fields a state requires or forbids are exact; the base
# classes carry what every state shares.


class Approval(WireModel):
    """The approval object of v5's validator (approval states are validator-only in v5)."""

    id: str
    approved: bool | MISSING = MISSING
    reason: str | MISSING = MISSING


class ApprovalRequested(WireModel):
    """Approval while waiting: `approved` and `reason` must be absent."""

    id: str


class ApprovalResponded(Approval):
    """Approval once answered: `approved` is required."""

    approved: bool


class ApprovalGranted(Approval):
    """Approval of a call that ran: `approved` is true."""

    approved: Literal[True]


class ApprovalDenied(Approval):
    """Approval of a denied call: `approved` is false."""

    approved: Literal[False]


class StaticToolBase(WireModel):
    """Fields of every static tool part."""

    type: tool_type
    tool_call_id: str
    provider_executed: bool | MISSING = MISSING


class DynamicToolBase(WireModel):
    """Fields of every `dynamic-tool` part. `dynamic: false` marks a static part the validator demoted."""

    type: Literal["dynamic-tool"]
    tool_name: str
    tool_call_id: str
    provider_executed: bool | MISSING = MISSING
    dynamic: Literal[False] | MISSING = MISSING


class InputStreaming(WireModel):
    """State `input-streaming`: the input is arriving; `input` is the partial parse."""

    state: Literal["input-streaming"]
    input: JSONValue | MISSING = MISSING
    raw_input: str | MISSING = MISSING


class InputAvailable(WireModel):
    """State `input-available`: the full input is known."""

    state: Literal["input-available"]
    input: JSONValue
    call_provider_metadata: ProviderMetadata | MISSING = MISSING


class OutputAvailable(WireModel):
    """State `output-available`: the tool returned `output` (may be a preliminary result)."""

    state: Literal["output-available"]
    input: JSONValue
    output: JSONValue
    call_provider_metadata: ProviderMetadata | MISSING = MISSING
    preliminary: bool | MISSING = MISSING


class OutputError(WireModel):
    """State `output-error`: the tool (or its input) failed with `errorText`."""

    state: Literal["output-error"]
    input: JSONValue | MISSING = MISSING
    raw_input: JSONValue | MISSING = MISSING
    error_text: str
    call_provider_metadata: ProviderMetadata | MISSING = MISSING


class StaticInputStreaming(StaticToolBase, InputStreaming):
    """`tool-{name}` in `input-streaming`."""


class StaticInputAvailable(StaticToolBase, InputAvailable):
    """`tool-{name}` in `input-available`."""


class StaticOutputAvailable(StaticToolBase, OutputAvailable):
    """`tool-{name}` in `output-available`."""

    approval: ApprovalGranted | MISSING = MISSING


class StaticOutputError(StaticToolBase, OutputError):
    """`tool-{name}` in `output-error`."""

    approval: ApprovalGranted | MISSING = MISSING


class StaticApprovalRequested(StaticToolBase):
    """`tool-{name}` in `approval-requested` (accepted by v5's validator only)."""

    state: Literal["approval-requested"]
    input: JSONValue
    call_provider_metadata: ProviderMetadata | MISSING = MISSING
    approval: ApprovalRequested


class StaticApprovalResponded(StaticToolBase):
    """`tool-{name}` in `approval-responded` (accepted by v5's validator only)."""

    state: Literal["approval-responded"]
    input: JSONValue
    call_provider_metadata: ProviderMetadata | MISSING = MISSING
    approval: ApprovalResponded


class StaticOutputDenied(StaticToolBase):
    """`tool-{name}` in `output-denied` (accepted by v5's validator only)."""

    state: Literal["output-denied"]
    input: JSONValue
    call_provider_metadata: ProviderMetadata | MISSING = MISSING
    approval: ApprovalDenied


class DynamicInputStreaming(DynamicToolBase, InputStreaming):
    """`dynamic-tool` in `input-streaming`."""


class DynamicInputAvailable(DynamicToolBase, InputAvailable):
    """`dynamic-tool` in `input-available`."""


class DynamicOutputAvailable(DynamicToolBase, OutputAvailable):
    """`dynamic-tool` in `output-available`."""


class DynamicOutputError(DynamicToolBase, OutputError):
    """`dynamic-tool` in `output-error`."""


Part = Annotated[
    Annotated[TextPart, Tag("text")]
    | Annotated[ReasoningPart, Tag("reasoning")]
    | Annotated[SourceUrlPart, Tag("source-url")]
    | Annotated[SourceDocumentPart, Tag("source-document")]
    | Annotated[FilePart, Tag("file")]
    | Annotated[DataPart, Tag("data")]
    | Annotated[StepStartPart, Tag("step-start")]
    | Annotated[StaticInputStreaming, Tag("tool:input-streaming")]
    | Annotated[StaticInputAvailable, Tag("tool:input-available")]
    | Annotated[StaticApprovalRequested, Tag("tool:approval-requested")]
    | Annotated[StaticApprovalResponded, Tag("tool:approval-responded")]
    | Annotated[StaticOutputAvailable, Tag("tool:output-available")]
    | Annotated[StaticOutputError, Tag("tool:output-error")]
    | Annotated[StaticOutputDenied, Tag("tool:output-denied")]
    | Annotated[DynamicInputStreaming, Tag("dynamic-tool:input-streaming")]
    | Annotated[DynamicInputAvailable, Tag("dynamic-tool:input-available")]
    | Annotated[DynamicOutputAvailable, Tag("dynamic-tool:output-available")]
    | Annotated[DynamicOutputError, Tag("dynamic-tool:output-error")],
    Discriminator(part_tag),
]


class UIMessage(WireModel):
    """A message: `id` (any string, even empty), `role`, optional `metadata`, `parts`."""

    model_config = ConfigDict(
        json_schema_extra={
            "if": {"properties": {"role": {"enum": ["user", "system"]}}},
            "then": {"properties": {"parts": {"minItems": 1}}},
        }
    )

    id: str
    role: Role
    metadata: JSONValue | MISSING = MISSING
    parts: list[Part]

    @field_validator("parts", mode="after")
    @classmethod
    def _user_and_system_have_parts(cls, parts: list[Any], info: ValidationInfo) -> list[Any]:
        role = info.data.get("role")
        if role in ("user", "system") and not parts:
            raise ValueError(f"a {role} message must contain at least one part")
        return parts


# ---- chunks -----------------------------------------------------------------------------------------

FinishReason = Literal["stop", "length", "content-filter", "tool-calls", "error", "other", "unknown"]


class StartChunk(WireModel):
    """Opens the message; `messageId` names it, `messageMetadata` merges into its metadata."""

    type: Literal["start"]
    message_id: str | MISSING = MISSING
    message_metadata: JSONValue | MISSING = MISSING


class TextStartChunk(WireModel):
    """Opens a text part with `id`."""

    type: Literal["text-start"]
    id: str
    provider_metadata: ProviderMetadata | MISSING = MISSING


class TextDeltaChunk(WireModel):
    """Appends `delta` to the open text part `id`."""

    type: Literal["text-delta"]
    id: str
    delta: str
    provider_metadata: ProviderMetadata | MISSING = MISSING


class TextEndChunk(WireModel):
    """Closes the text part `id`."""

    type: Literal["text-end"]
    id: str
    provider_metadata: ProviderMetadata | MISSING = MISSING


class ReasoningStartChunk(WireModel):
    """Opens a reasoning part with `id`."""

    type: Literal["reasoning-start"]
    id: str
    provider_metadata: ProviderMetadata | MISSING = MISSING


class ReasoningDeltaChunk(WireModel):
    """Appends `delta` to the open reasoning part `id`."""

    type: Literal["reasoning-delta"]
    id: str
    delta: str
    provider_metadata: ProviderMetadata | MISSING = MISSING


class ReasoningEndChunk(WireModel):
    """Closes the reasoning part `id`."""

    type: Literal["reasoning-end"]
    id: str
    provider_metadata: ProviderMetadata | MISSING = MISSING


class ToolInputStartChunk(WireModel):
    """Starts a tool call; `dynamic: true` makes it a `dynamic-tool` part."""

    type: Literal["tool-input-start"]
    tool_call_id: str
    tool_name: str
    provider_executed: bool | MISSING = MISSING
    dynamic: bool | MISSING = MISSING


class ToolInputDeltaChunk(WireModel):
    """Appends input text to a streaming tool call."""

    type: Literal["tool-input-delta"]
    tool_call_id: str
    input_text_delta: str


class ToolInputAvailableChunk(WireModel):
    """The full tool input."""

    type: Literal["tool-input-available"]
    tool_call_id: str
    tool_name: str
    input: JSONValue
    provider_executed: bool | MISSING = MISSING
    provider_metadata: ProviderMetadata | MISSING = MISSING
    dynamic: bool | MISSING = MISSING


class ToolInputErrorChunk(WireModel):
    """The tool input could not be parsed or validated."""

    type: Literal["tool-input-error"]
    tool_call_id: str
    tool_name: str
    input: JSONValue
    provider_executed: bool | MISSING = MISSING
    provider_metadata: ProviderMetadata | MISSING = MISSING
    dynamic: bool | MISSING = MISSING
    error_text: str


class ToolOutputAvailableChunk(WireModel):
    """The tool's output (`null` stands for an undefined result)."""

    type: Literal["tool-output-available"]
    tool_call_id: str
    output: JSONValue
    provider_executed: bool | MISSING = MISSING
    dynamic: bool | MISSING = MISSING
    preliminary: bool | MISSING = MISSING


class ToolOutputErrorChunk(WireModel):
    """The tool failed."""

    type: Literal["tool-output-error"]
    tool_call_id: str
    error_text: str
    provider_executed: bool | MISSING = MISSING
    dynamic: bool | MISSING = MISSING


class SourceUrlChunk(WireModel):
    """A web source."""

    type: Literal["source-url"]
    source_id: str
    url: str
    title: str | MISSING = MISSING
    provider_metadata: ProviderMetadata | MISSING = MISSING


class SourceDocumentChunk(WireModel):
    """A document source."""

    type: Literal["source-document"]
    source_id: str
    media_type: str
    title: str
    filename: str | MISSING = MISSING
    provider_metadata: ProviderMetadata | MISSING = MISSING


class FileChunk(WireModel):
    """A file (no `filename` on the chunk)."""

    type: Literal["file"]
    url: str
    media_type: str
    provider_metadata: ProviderMetadata | MISSING = MISSING


class DataChunk(WireModel):
    """Application data; `transient: true` is delivered but never stored."""

    type: data_type
    id: str | MISSING = MISSING
    data: JSONValue
    transient: bool | MISSING = MISSING


class StartStepChunk(WireModel):
    """Opens a model step (becomes a `step-start` part)."""

    type: Literal["start-step"]


class FinishStepChunk(WireModel):
    """Closes a model step."""

    type: Literal["finish-step"]


class FinishChunk(WireModel):
    """Ends the message."""

    type: Literal["finish"]
    finish_reason: FinishReason | MISSING = MISSING
    message_metadata: JSONValue | MISSING = MISSING


class AbortChunk(WireModel):
    """The stream was aborted (v5: no fields)."""

    type: Literal["abort"]


class MessageMetadataChunk(WireModel):
    """Merges `messageMetadata` (required, may be null) into the message metadata."""

    type: Literal["message-metadata"]
    message_metadata: JSONValue


class ErrorChunk(WireModel):
    """An error the client reports; the message is kept."""

    type: Literal["error"]
    error_text: str


Chunk = Annotated[
    Annotated[StartChunk, Tag("start")]
    | Annotated[TextStartChunk, Tag("text-start")]
    | Annotated[TextDeltaChunk, Tag("text-delta")]
    | Annotated[TextEndChunk, Tag("text-end")]
    | Annotated[ReasoningStartChunk, Tag("reasoning-start")]
    | Annotated[ReasoningDeltaChunk, Tag("reasoning-delta")]
    | Annotated[ReasoningEndChunk, Tag("reasoning-end")]
    | Annotated[ToolInputStartChunk, Tag("tool-input-start")]
    | Annotated[ToolInputDeltaChunk, Tag("tool-input-delta")]
    | Annotated[ToolInputAvailableChunk, Tag("tool-input-available")]
    | Annotated[ToolInputErrorChunk, Tag("tool-input-error")]
    | Annotated[ToolOutputAvailableChunk, Tag("tool-output-available")]
    | Annotated[ToolOutputErrorChunk, Tag("tool-output-error")]
    | Annotated[SourceUrlChunk, Tag("source-url")]
    | Annotated[SourceDocumentChunk, Tag("source-document")]
    | Annotated[FileChunk, Tag("file")]
    | Annotated[DataChunk, Tag("data")]
    | Annotated[StartStepChunk, Tag("start-step")]
    | Annotated[FinishStepChunk, Tag("finish-step")]
    | Annotated[FinishChunk, Tag("finish")]
    | Annotated[AbortChunk, Tag("abort")]
    | Annotated[MessageMetadataChunk, Tag("message-metadata")]
    | Annotated[ErrorChunk, Tag("error")],
    Discriminator(chunk_tag),
]
