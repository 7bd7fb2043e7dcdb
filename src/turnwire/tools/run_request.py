"""`RunRequest`: the body of `POST /run`, the request a service sends a runner to start a turn.

The wire is camelCase at the top level, and its key set is closed (`KNOWN_REQUEST_KEYS`): a runner
validating its input rejects anything else, and a snake_case key is a producer bug, not a synonym.
Thirteen keys are always sent (`ALWAYS_SENT_KEYS`); three of them — `sessionId`, `trace`,
`toolCallback` — are `null` when there is nothing to send, never absent, so a reader can tell "none"
from "an old producer". Four are sent only when set (`OMITTED_WHEN_UNSET`): the prompts, `skills`, and
`mcpServers` only when non-empty, so a run without MCP servers is byte-identical to one from a producer
that predates them.

Secrets ride only in `secrets`, a code tool's `env`, an MCP server's `env`, and the two
`authorization`s (`SECRET_LOCATIONS`); every one of those fields is a `Secret`, so only `to_wire()`
writes them in clear.
"""

from __future__ import annotations

from typing import Annotated, Any, Final

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    model_serializer,
)

from turnwire.tools.mcp import ResolvedMCPServer
from turnwire.tools.secrets import REVEAL_SECRETS, Secret
from turnwire.tools.spec import ToolCallback, ToolSpec

__all__ = [
    "ALWAYS_SENT_KEYS",
    "KNOWN_REQUEST_KEYS",
    "NULL_WHEN_ABSENT_KEYS",
    "OMITTED_WHEN_UNSET_KEYS",
    "SECRET_LOCATIONS",
    "RunMessage",
    "RunRequest",
    "RunTrace",
    "run_request_adapter",
]

NonEmpty = Annotated[str, Field(min_length=1)]

ALWAYS_SENT_KEYS: Final = (
    "backend",
    "harness",
    "sandbox",
    "sessionId",
    "agentsMd",
    "model",
    "messages",
    "secrets",
    "trace",
    "tools",
    "customTools",
    "toolCallback",
    "permissionPolicy",
)
"""Top-level keys every request carries."""

NULL_WHEN_ABSENT_KEYS: Final = ("sessionId", "trace", "toolCallback")
"""Always-sent keys whose "nothing" is `null`."""

OMITTED_WHEN_UNSET_KEYS: Final = ("systemPrompt", "appendSystemPrompt", "skills", "mcpServers")
"""Keys sent only when set (`mcpServers`: only when non-empty)."""

KNOWN_REQUEST_KEYS: Final = frozenset(ALWAYS_SENT_KEYS + OMITTED_WHEN_UNSET_KEYS)
"""Every top-level key the contract knows; no other key may appear."""

SECRET_LOCATIONS: Final = (
    "$.secrets.*",
    "$.customTools[*].env.*",
    "$.mcpServers[*].env.*",
    "$.toolCallback.authorization",
    "$.trace.authorization",
)
"""Where a secret value may appear in a request, and nowhere else."""


class RunMessage(BaseModel):
    """One conversation message: a role and text or content blocks (passed through as they are)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    role: NonEmpty
    content: str | list[dict[str, Any]]


class RunTrace(BaseModel):
    """Trace propagation for the run: W3C context, the OTLP endpoint and its credential.

    All five keys are always written (`null` when unknown).
    """

    model_config = ConfigDict(extra="forbid", frozen=True, validate_by_name=True, validate_by_alias=True)

    traceparent: str | None
    baggage: str | None
    endpoint: str | None
    authorization: Secret | None = Field(repr=False)
    capture_content: bool = Field(alias="captureContent")


class RunRequest(BaseModel):
    """The `/run` request body. Construct with snake_case names; the wire (`to_wire()`) is camelCase."""

    model_config = ConfigDict(extra="forbid", frozen=True, validate_by_name=True, validate_by_alias=True)

    backend: NonEmpty
    harness: NonEmpty
    sandbox: NonEmpty
    session_id: str | None = Field(alias="sessionId")
    agents_md: str | None = Field(alias="agentsMd")
    model: NonEmpty
    messages: list[RunMessage]
    secrets: dict[str, Secret] = Field(repr=False)
    trace: RunTrace | None
    tools: list[str]
    custom_tools: list[ToolSpec] = Field(alias="customTools")
    tool_callback: ToolCallback | None = Field(alias="toolCallback")
    permission_policy: NonEmpty = Field(alias="permissionPolicy")
    system_prompt: str | None = Field(default=None, alias="systemPrompt")
    append_system_prompt: str | None = Field(default=None, alias="appendSystemPrompt")
    skills: list[dict[str, Any]] | None = None
    mcp_servers: list[ResolvedMCPServer] = Field(default_factory=list, alias="mcpServers")

    @model_serializer(mode="wrap")
    def _omit_unset(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        for name, alias in (
            ("system_prompt", "systemPrompt"),
            ("append_system_prompt", "appendSystemPrompt"),
            ("skills", "skills"),
        ):
            if getattr(self, name) is None:
                data.pop(name, None)
                data.pop(alias, None)
        if not self.mcp_servers:
            data.pop("mcp_servers", None)
            data.pop("mcpServers", None)
        return data

    def to_wire(self) -> dict[str, Any]:
        """The body as sent: camelCase keys, unset keys omitted, secrets in clear."""
        wire: dict[str, Any] = self.model_dump(mode="json", by_alias=True, context=REVEAL_SECRETS)
        return wire


_ADAPTER: TypeAdapter[RunRequest] = TypeAdapter(RunRequest)


def run_request_adapter() -> TypeAdapter[RunRequest]:
    """The pydantic adapter of `RunRequest` (for schemas)."""
    return _ADAPTER
