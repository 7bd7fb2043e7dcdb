"""The two configs around resolution: the agent's stored tools, and the session a run is built from.

`AgentTools` is the tool part of a stored agent config: `tools` accepts every legacy shape (a single
config is wrapped into a list) and coerces strictly — a bad item raises `ToolConfigurationError` with
its index rather than loading half a config.

`SessionConfig` is what a service holds after resolution: secrets, policy, trace, and the resolved
tools. Older sessions stored the tools as `builtin_tools` / `custom_tools`; those keys are still read
(and exposed as read-only properties) but never written. `to_run_request` builds the `/run` body.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator

from turnwire.tools.compat import coerce_tool_configs
from turnwire.tools.config import ToolConfig
from turnwire.tools.mcp import MCPServerConfig, ResolvedMCPServer, parse_mcp_server_configs
from turnwire.tools.resolved import ResolvedToolSet, coerce_tool_specs
from turnwire.tools.run_request import RunMessage, RunRequest, RunTrace
from turnwire.tools.secrets import Secret
from turnwire.tools.spec import ToolCallback, ToolSpec

__all__ = ["AgentTools", "SessionConfig"]


class AgentTools(BaseModel):
    """The tools and MCP servers of a stored agent config."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tools: list[ToolConfig] = Field(default_factory=list)
    mcp_servers: list[MCPServerConfig] = Field(default_factory=list)

    @field_validator("tools", mode="before")
    @classmethod
    def _coerce_tools(cls, value: object) -> object:
        if value is None:
            return []
        if isinstance(value, Mapping):
            value = [value]
        return coerce_tool_configs(value).tool_configs  # type: ignore[arg-type]

    @field_validator("mcp_servers", mode="before")
    @classmethod
    def _parse_servers(cls, value: object) -> object:
        if isinstance(value, Mapping):
            value = [value]
        return parse_mcp_server_configs(value)  # type: ignore[arg-type]


class SessionConfig(BaseModel):
    """A session after resolution: everything a `/run` body needs besides the harness and the turn."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    secrets: dict[str, Secret] = Field(default_factory=dict, repr=False)
    permission_policy: str = Field(default="auto", min_length=1)
    trace: RunTrace | None = None
    session_id: str | None = None
    builtin_names: list[str] = Field(
        default_factory=list, validation_alias=AliasChoices("builtin_names", "builtin_tools")
    )
    tool_specs: list[ToolSpec] = Field(
        default_factory=list, validation_alias=AliasChoices("tool_specs", "custom_tools")
    )
    tool_callback: ToolCallback | None = None
    mcp_servers: list[ResolvedMCPServer] = Field(default_factory=list)

    @field_validator("tool_specs", mode="before")
    @classmethod
    def _coerce_specs(cls, value: object) -> object:
        return coerce_tool_specs(value)

    @classmethod
    def from_resolved(
        cls, tools: ResolvedToolSet, *, mcp_servers: list[ResolvedMCPServer] | None = None, **fields: Any
    ) -> SessionConfig:
        """A session holding a resolved tool set (and MCP servers), plus the other `fields`."""
        return cls(
            builtin_names=tools.builtin_names,
            tool_specs=tools.tool_specs,
            tool_callback=tools.tool_callback,
            mcp_servers=mcp_servers or [],
            **fields,
        )

    @property
    def builtin_tools(self) -> list[str]:
        """Read-only old name of `builtin_names`."""
        return list(self.builtin_names)

    @property
    def custom_tools(self) -> list[dict[str, Any]]:
        """Read-only old name of `tool_specs`, as wire dicts."""
        return [spec.to_wire() for spec in self.tool_specs]

    def to_run_request(
        self,
        *,
        backend: str,
        harness: str,
        sandbox: str,
        model: str,
        messages: list[RunMessage] | list[dict[str, Any]],
        agents_md: str | None = None,
        system_prompt: str | None = None,
        append_system_prompt: str | None = None,
        skills: list[dict[str, Any]] | None = None,
    ) -> RunRequest:
        """The `/run` body for one turn of this session on the given harness."""
        return RunRequest.model_validate(
            {
                "backend": backend,
                "harness": harness,
                "sandbox": sandbox,
                "session_id": self.session_id,
                "agents_md": agents_md,
                "model": model,
                "messages": messages,
                "secrets": self.secrets,
                "trace": self.trace,
                "tools": self.builtin_names,
                "custom_tools": self.tool_specs,
                "tool_callback": self.tool_callback,
                "permission_policy": self.permission_policy,
                "system_prompt": system_prompt,
                "append_system_prompt": append_system_prompt,
                "skills": skills,
                "mcp_servers": self.mcp_servers,
            }
        )
