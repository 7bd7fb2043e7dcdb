"""UI message protocol, profile `ai-sdk-v6` (AI SDK 6.0.326).

What v6 changes against v5 (each class here subclasses its v5 namesake and adds only that):

* tool approvals come from chunks (`tool-approval-request`, `tool-output-denied`), on static and
  dynamic parts alike; the approval object gains `descriptor`, `signature` and `inputSchemaInput`;
* tool parts gain `title` and `toolMetadata`; `input-streaming` gains `inputEncoding` and
  `callProviderMetadata`; outputs gain `resultProviderMetadata`;
* tool chunks gain `providerMetadata` / `toolMetadata` / `title` / `inputEncoding` as listed below;
* `finish.finishReason` loses `unknown`; `abort` gains an optional `reason`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Discriminator, Tag

from turnwire.protocol import v5
from turnwire.protocol.v5 import (
    DataChunk,
    DataPart,
    ErrorChunk,
    FileChunk,
    FilePart,
    FinishStepChunk,
    MessageMetadataChunk,
    ReasoningDeltaChunk,
    ReasoningEndChunk,
    ReasoningPart,
    ReasoningStartChunk,
    SourceDocumentChunk,
    SourceDocumentPart,
    SourceUrlChunk,
    SourceUrlPart,
    StartChunk,
    StartStepChunk,
    StepStartPart,
    TextDeltaChunk,
    TextEndChunk,
    TextPart,
    TextStartChunk,
    ToolInputDeltaChunk,
)
from turnwire.protocol.wire import MISSING, JSONValue, ProviderMetadata, WireModel, chunk_tag, part_tag

# ---- parts: tool calls ------------------------------------------------------------------------------


class ApprovalFields(WireModel):
    """What every v6 approval object may carry besides its decision."""

    id: str
    descriptor: JSONValue | MISSING = MISSING
    signature: str | MISSING = MISSING
    input_schema_input: JSONValue | MISSING = MISSING


class ApprovalRequested(ApprovalFields):
    """Approval while waiting: `approved` and `reason` must be absent."""


class ApprovalResponded(ApprovalFields):
    """Approval once answered."""

    approved: bool
    reason: str | MISSING = MISSING


class ApprovalGranted(ApprovalFields):
    """Approval of a call that ran."""

    approved: Literal[True]
    reason: str | MISSING = MISSING


class ApprovalDenied(ApprovalFields):
    """Approval of a denied call."""

    approved: Literal[False]
    reason: str | MISSING = MISSING


class ToolPartExtras(WireModel):
    """Fields v6 adds to every tool part, static or dynamic."""

    title: str | MISSING = MISSING
    tool_metadata: dict[str, JSONValue] | MISSING = MISSING


class InputStreaming(v5.InputStreaming):
    """`input-streaming` with v6's `inputEncoding` and `callProviderMetadata`."""

    input_encoding: Literal["json", "text"] | MISSING = MISSING
    call_provider_metadata: ProviderMetadata | MISSING = MISSING


class OutputAvailable(v5.OutputAvailable):
    """`output-available` with v6's `resultProviderMetadata`."""

    result_provider_metadata: ProviderMetadata | MISSING = MISSING


class OutputError(v5.OutputError):
    """`output-error` with v6's `resultProviderMetadata`."""

    result_provider_metadata: ProviderMetadata | MISSING = MISSING


class ApprovalRequestedState(WireModel):
    """State `approval-requested`: waiting for the user's decision."""

    state: Literal["approval-requested"]
    input: JSONValue
    call_provider_metadata: ProviderMetadata | MISSING = MISSING
    approval: ApprovalRequested


class ApprovalRespondedState(WireModel):
    """State `approval-responded`: decided, not yet executed or denied."""

    state: Literal["approval-responded"]
    input: JSONValue
    call_provider_metadata: ProviderMetadata | MISSING = MISSING
    approval: ApprovalResponded


class OutputDeniedState(WireModel):
    """State `output-denied`: the user denied the call; it never ran."""

    state: Literal["output-denied"]
    input: JSONValue
    call_provider_metadata: ProviderMetadata | MISSING = MISSING
    approval: ApprovalDenied


class StaticInputStreaming(v5.StaticToolBase, ToolPartExtras, InputStreaming):
    """`tool-{name}` in `input-streaming`."""


class StaticInputAvailable(v5.StaticToolBase, ToolPartExtras, v5.InputAvailable):
    """`tool-{name}` in `input-available`."""


class StaticApprovalRequested(v5.StaticToolBase, ToolPartExtras, ApprovalRequestedState):
    """`tool-{name}` in `approval-requested`."""


class StaticApprovalResponded(v5.StaticToolBase, ToolPartExtras, ApprovalRespondedState):
    """`tool-{name}` in `approval-responded`."""


class StaticOutputAvailable(v5.StaticToolBase, ToolPartExtras, OutputAvailable):
    """`tool-{name}` in `output-available`."""

    approval: ApprovalGranted | MISSING = MISSING


class StaticOutputError(v5.StaticToolBase, ToolPartExtras, OutputError):
    """`tool-{name}` in `output-error`."""

    approval: ApprovalGranted | MISSING = MISSING


class StaticOutputDenied(v5.StaticToolBase, ToolPartExtras, OutputDeniedState):
    """`tool-{name}` in `output-denied`."""


class DynamicInputStreaming(v5.DynamicToolBase, ToolPartExtras, InputStreaming):
    """`dynamic-tool` in `input-streaming`."""


class DynamicInputAvailable(v5.DynamicToolBase, ToolPartExtras, v5.InputAvailable):
    """`dynamic-tool` in `input-available`."""


class DynamicApprovalRequested(v5.DynamicToolBase, ToolPartExtras, ApprovalRequestedState):
    """`dynamic-tool` in `approval-requested`."""


class DynamicApprovalResponded(v5.DynamicToolBase, ToolPartExtras, ApprovalRespondedState):
    """`dynamic-tool` in `approval-responded`."""


class DynamicOutputAvailable(v5.DynamicToolBase, ToolPartExtras, OutputAvailable):
    """`dynamic-tool` in `output-available`."""

    approval: ApprovalGranted | MISSING = MISSING


class DynamicOutputError(v5.DynamicToolBase, ToolPartExtras, OutputError):
    """`dynamic-tool` in `output-error`."""

    approval: ApprovalGranted | MISSING = MISSING


class DynamicOutputDenied(v5.DynamicToolBase, ToolPartExtras, OutputDeniedState):
    """`dynamic-tool` in `output-denied`."""


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
    | Annotated[DynamicApprovalRequested, Tag("dynamic-tool:approval-requested")]
    | Annotated[DynamicApprovalResponded, Tag("dynamic-tool:approval-responded")]
    | Annotated[DynamicOutputAvailable, Tag("dynamic-tool:output-available")]
    | Annotated[DynamicOutputError, Tag("dynamic-tool:output-error")]
    | Annotated[DynamicOutputDenied, Tag("dynamic-tool:output-denied")],
    Discriminator(part_tag),
]


class UIMessage(v5.UIMessage):
    """A v6 message."""

    parts: list[Part]  # type: ignore[assignment]


# ---- chunks -----------------------------------------------------------------------------------------

FinishReason = Literal["stop", "length", "content-filter", "tool-calls", "error", "other"]


class ToolChunkExtras(WireModel):
    """`toolMetadata` and `title`, added by v6 to the tool input chunks."""

    tool_metadata: dict[str, JSONValue] | MISSING = MISSING
    title: str | MISSING = MISSING


class ToolInputStartChunk(v5.ToolInputStartChunk, ToolChunkExtras):
    """v6 `tool-input-start`."""

    input_encoding: Literal["json", "text"] | MISSING = MISSING
    provider_metadata: ProviderMetadata | MISSING = MISSING


class ToolInputAvailableChunk(v5.ToolInputAvailableChunk, ToolChunkExtras):
    """v6 `tool-input-available`."""


class ToolInputErrorChunk(v5.ToolInputErrorChunk, ToolChunkExtras):
    """v6 `tool-input-error`."""


class ToolOutputAvailableChunk(v5.ToolOutputAvailableChunk):
    """v6 `tool-output-available`."""

    provider_metadata: ProviderMetadata | MISSING = MISSING
    tool_metadata: dict[str, JSONValue] | MISSING = MISSING


class ToolOutputErrorChunk(v5.ToolOutputErrorChunk):
    """v6 `tool-output-error`."""

    provider_metadata: ProviderMetadata | MISSING = MISSING
    tool_metadata: dict[str, JSONValue] | MISSING = MISSING


class ToolApprovalRequestChunk(WireModel):
    """Asks the user to approve tool call `toolCallId`; `approvalId` names the approval."""

    type: Literal["tool-approval-request"]
    approval_id: str
    tool_call_id: str
    approval_descriptor: JSONValue | MISSING = MISSING
    input_schema_input: JSONValue | MISSING = MISSING
    signature: str | MISSING = MISSING


class ToolOutputDeniedChunk(WireModel):
    """The tool call was denied; sets the part's state only."""

    type: Literal["tool-output-denied"]
    tool_call_id: str


class FinishChunk(v5.FinishChunk):
    """v6 `finish` (no `unknown` reason)."""

    finish_reason: FinishReason | MISSING = MISSING


class AbortChunk(v5.AbortChunk):
    """v6 `abort` with an optional reason."""

    reason: str | MISSING = MISSING


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
    | Annotated[ToolApprovalRequestChunk, Tag("tool-approval-request")]
    | Annotated[ToolOutputAvailableChunk, Tag("tool-output-available")]
    | Annotated[ToolOutputErrorChunk, Tag("tool-output-error")]
    | Annotated[ToolOutputDeniedChunk, Tag("tool-output-denied")]
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
