"""UI message protocol, profile `ai-sdk-v7` (AI SDK 7.0.173) — turnwire's default profile.

What v7 changes against v6 (each class subclasses its v6 namesake and adds only that):

* new parts `custom`, `reasoning-file` and `steering-message`, and their chunks, plus the
  `reset-step` and `tool-approval-response` chunks (the server can answer an approval in-stream);
* `text` parts and `text-end` chunks carry `citations`; `file` parts carry `providerReference`;
* the approval object gains `requestReason` (from the request chunk's `reason`) and `isAutomatic`;
* `finish.finishReason` gains `interrupted`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Discriminator, Tag

from turnwire.protocol import v5, v6
from turnwire.protocol.v5 import (
    DataChunk,
    DataPart,
    ErrorChunk,
    FileChunk,
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
    TextStartChunk,
    ToolInputDeltaChunk,
)
from turnwire.protocol.v6 import (
    AbortChunk,
    ToolInputAvailableChunk,
    ToolInputErrorChunk,
    ToolInputStartChunk,
    ToolOutputAvailableChunk,
    ToolOutputDeniedChunk,
    ToolOutputErrorChunk,
)
from turnwire.protocol.wire import (
    MISSING,
    NonNegativeInt,
    ProviderMetadata,
    WireModel,
    chunk_tag,
    part_tag,
)

# ---- citations ----------------------------------------------------------------------------------------


class UrlCitationSource(WireModel):
    """A cited URL inside a citation."""

    type: Literal["source"]
    source_type: Literal["url"]
    id: str
    url: str
    title: str | MISSING = MISSING
    provider_metadata: ProviderMetadata | MISSING = MISSING


class DocumentCitationSource(WireModel):
    """A cited document inside a citation."""

    type: Literal["source"]
    source_type: Literal["document"]
    id: str
    media_type: str
    title: str
    filename: str | MISSING = MISSING
    provider_metadata: ProviderMetadata | MISSING = MISSING


class Citation(WireModel):
    """A span of a text part attributed to a source."""

    source: Annotated[UrlCitationSource | DocumentCitationSource, Discriminator("source_type")]
    start_index: NonNegativeInt | MISSING = MISSING
    end_index: NonNegativeInt | MISSING = MISSING
    cited_text: str | MISSING = MISSING


# ---- parts: content -------------------------------------------------------------------------------


class TextPart(v5.TextPart):
    """v7 text, with citations."""

    citations: list[Citation] | MISSING = MISSING


class FilePart(v5.FilePart):
    """v7 file, with a provider reference; `mediaType` may be a bare top-level type like `image`."""

    provider_reference: dict[str, str] | MISSING = MISSING


class CustomPart(WireModel):
    """A provider-specific part; `kind` is typed `provider.type` but not format-checked."""

    type: Literal["custom"]
    kind: str
    provider_metadata: ProviderMetadata | MISSING = MISSING


class ReasoningFilePart(WireModel):
    """A file produced as reasoning."""

    type: Literal["reasoning-file"]
    media_type: str
    url: str
    provider_metadata: ProviderMetadata | MISSING = MISSING


class SteeringText(WireModel):
    """Text inside a steering message."""

    type: Literal["text"]
    text: str
    provider_metadata: ProviderMetadata | MISSING = MISSING


class SteeringFile(WireModel):
    """A file inside a steering message."""

    type: Literal["file"]
    media_type: str
    filename: str | MISSING = MISSING
    url: str
    provider_reference: dict[str, str] | MISSING = MISSING
    provider_metadata: ProviderMetadata | MISSING = MISSING


SteeringContent = Annotated[SteeringText | SteeringFile, Discriminator("type")]


class SteeringMessagePart(WireModel):
    """A user message injected while the assistant works (experimental in the SDK)."""

    type: Literal["steering-message"]
    id: str
    parts: list[SteeringContent]


# ---- parts: tool calls ------------------------------------------------------------------------------


class ApprovalFields(v6.ApprovalFields):
    """v7 approval fields: adds `requestReason` and `isAutomatic`."""

    request_reason: str | MISSING = MISSING
    is_automatic: bool | MISSING = MISSING


class ApprovalRequested(v6.ApprovalRequested, ApprovalFields):
    """Approval while waiting: `approved` and `reason` must be absent."""


class ApprovalResponded(v6.ApprovalResponded, ApprovalFields):
    """Approval once answered."""


class ApprovalGranted(v6.ApprovalGranted, ApprovalFields):
    """Approval of a call that ran."""


class ApprovalDenied(v6.ApprovalDenied, ApprovalFields):
    """Approval of a denied call."""


class StaticApprovalRequested(v6.StaticApprovalRequested):
    """`tool-{name}` in `approval-requested`."""

    approval: ApprovalRequested


class StaticApprovalResponded(v6.StaticApprovalResponded):
    """`tool-{name}` in `approval-responded`."""

    approval: ApprovalResponded


class StaticOutputAvailable(v6.StaticOutputAvailable):
    """`tool-{name}` in `output-available`."""

    approval: ApprovalGranted | MISSING = MISSING


class StaticOutputError(v6.StaticOutputError):
    """`tool-{name}` in `output-error` (`rawInput` is deprecated in v7 but still accepted)."""

    approval: ApprovalGranted | MISSING = MISSING


class StaticOutputDenied(v6.StaticOutputDenied):
    """`tool-{name}` in `output-denied`."""

    approval: ApprovalDenied


class DynamicApprovalRequested(v6.DynamicApprovalRequested):
    """`dynamic-tool` in `approval-requested`."""

    approval: ApprovalRequested


class DynamicApprovalResponded(v6.DynamicApprovalResponded):
    """`dynamic-tool` in `approval-responded`."""

    approval: ApprovalResponded


class DynamicOutputAvailable(v6.DynamicOutputAvailable):
    """`dynamic-tool` in `output-available`."""

    approval: ApprovalGranted | MISSING = MISSING


class DynamicOutputError(v6.DynamicOutputError):
    """`dynamic-tool` in `output-error`."""

    approval: ApprovalGranted | MISSING = MISSING


class DynamicOutputDenied(v6.DynamicOutputDenied):
    """`dynamic-tool` in `output-denied`."""

    approval: ApprovalDenied


Part = Annotated[
    Annotated[TextPart, Tag("text")]
    | Annotated[ReasoningPart, Tag("reasoning")]
    | Annotated[SourceUrlPart, Tag("source-url")]
    | Annotated[SourceDocumentPart, Tag("source-document")]
    | Annotated[FilePart, Tag("file")]
    | Annotated[DataPart, Tag("data")]
    | Annotated[StepStartPart, Tag("step-start")]
    | Annotated[CustomPart, Tag("custom")]
    | Annotated[ReasoningFilePart, Tag("reasoning-file")]
    | Annotated[SteeringMessagePart, Tag("steering-message")]
    | Annotated[v6.StaticInputStreaming, Tag("tool:input-streaming")]
    | Annotated[v6.StaticInputAvailable, Tag("tool:input-available")]
    | Annotated[StaticApprovalRequested, Tag("tool:approval-requested")]
    | Annotated[StaticApprovalResponded, Tag("tool:approval-responded")]
    | Annotated[StaticOutputAvailable, Tag("tool:output-available")]
    | Annotated[StaticOutputError, Tag("tool:output-error")]
    | Annotated[StaticOutputDenied, Tag("tool:output-denied")]
    | Annotated[v6.DynamicInputStreaming, Tag("dynamic-tool:input-streaming")]
    | Annotated[v6.DynamicInputAvailable, Tag("dynamic-tool:input-available")]
    | Annotated[DynamicApprovalRequested, Tag("dynamic-tool:approval-requested")]
    | Annotated[DynamicApprovalResponded, Tag("dynamic-tool:approval-responded")]
    | Annotated[DynamicOutputAvailable, Tag("dynamic-tool:output-available")]
    | Annotated[DynamicOutputError, Tag("dynamic-tool:output-error")]
    | Annotated[DynamicOutputDenied, Tag("dynamic-tool:output-denied")],
    Discriminator(part_tag),
]


class UIMessage(v5.UIMessage):
    """A v7 message."""

    parts: list[Part]  # type: ignore[assignment]


# ---- chunks -----------------------------------------------------------------------------------------

FinishReason = Literal["stop", "length", "content-filter", "tool-calls", "error", "other", "interrupted"]


class TextEndChunk(v5.TextEndChunk):
    """v7 `text-end`, carrying the text part's citations."""

    citations: list[Citation] | MISSING = MISSING


class ToolApprovalRequestChunk(v6.ToolApprovalRequestChunk):
    """v7 `tool-approval-request`: `reason` becomes the approval's `requestReason`."""

    reason: str | MISSING = MISSING
    is_automatic: bool | MISSING = MISSING


class ToolApprovalResponseChunk(WireModel):
    """The server answers approval `approvalId` in-stream."""

    type: Literal["tool-approval-response"]
    approval_id: str
    approved: bool
    reason: str | MISSING = MISSING
    provider_executed: bool | MISSING = MISSING
    provider_metadata: ProviderMetadata | MISSING = MISSING


class CustomChunk(WireModel):
    """A provider-specific part."""

    type: Literal["custom"]
    kind: str
    provider_metadata: ProviderMetadata | MISSING = MISSING


class ReasoningFileChunk(WireModel):
    """A reasoning file."""

    type: Literal["reasoning-file"]
    url: str
    media_type: str
    provider_metadata: ProviderMetadata | MISSING = MISSING


class SteeringMessageChunk(WireModel):
    """A steering message."""

    type: Literal["steering-message"]
    id: str
    parts: list[SteeringContent]


class ResetStepChunk(WireModel):
    """Drops the parts written since the last `step-start` (keeping the marker)."""

    type: Literal["reset-step"]


class FinishChunk(v5.FinishChunk):
    """v7 `finish` (adds `interrupted`)."""

    finish_reason: FinishReason | MISSING = MISSING  # type: ignore[assignment]


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
    | Annotated[ToolApprovalResponseChunk, Tag("tool-approval-response")]
    | Annotated[ToolOutputAvailableChunk, Tag("tool-output-available")]
    | Annotated[ToolOutputErrorChunk, Tag("tool-output-error")]
    | Annotated[ToolOutputDeniedChunk, Tag("tool-output-denied")]
    | Annotated[SourceUrlChunk, Tag("source-url")]
    | Annotated[SourceDocumentChunk, Tag("source-document")]
    | Annotated[FileChunk, Tag("file")]
    | Annotated[ReasoningFileChunk, Tag("reasoning-file")]
    | Annotated[CustomChunk, Tag("custom")]
    | Annotated[SteeringMessageChunk, Tag("steering-message")]
    | Annotated[DataChunk, Tag("data")]
    | Annotated[StartStepChunk, Tag("start-step")]
    | Annotated[FinishStepChunk, Tag("finish-step")]
    | Annotated[ResetStepChunk, Tag("reset-step")]
    | Annotated[FinishChunk, Tag("finish")]
    | Annotated[AbortChunk, Tag("abort")]
    | Annotated[MessageMetadataChunk, Tag("message-metadata")]
    | Annotated[ErrorChunk, Tag("error")],
    Discriminator(chunk_tag),
]
