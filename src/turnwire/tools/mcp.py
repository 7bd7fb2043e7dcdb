"""MCP servers: the stored config, the resolved wire entry, and the resolver between them.

A stored `MCPServerConfig` (snake_case, unknown keys rejected) says how to reach a server — a local
process (`stdio`: a `command`) or a remote endpoint (`http`: a `url`); a server of either transport
without its address cannot be launched, so that is rejected here *and* in the generated schema. Secrets
are stored by reference only: `secrets` maps an env var to a secret *name*.

`MCPResolver` looks all those names up in one batched request and merges the values into `env`. The
resolved entry (`ResolvedMCPServer`) is what `/run` carries under `mcpServers`; it has no `secrets`
key, and its wire form omits every empty field, so an entry reads the same whether or not a field
exists in the producer.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, Literal, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    ValidationError,
    model_serializer,
    model_validator,
)

from turnwire.tools.errors import MCPConfigurationError, MissingMCPSecretError, describe_validation_error
from turnwire.tools.ports import EnvironmentSecretProvider, SecretProvider, fetch_secrets
from turnwire.tools.secrets import REVEAL_SECRETS, MissingSecretPolicy, Secret

__all__ = [
    "MCPResolver",
    "MCPServerConfig",
    "ResolvedMCPServer",
    "parse_mcp_server_config",
    "parse_mcp_server_configs",
]

Transport = Literal["stdio", "http"]
NonEmpty = Annotated[str, Field(min_length=1)]


def _transport_schema(schema: dict[str, Any]) -> None:
    """The transport rule in JSON Schema: `http` needs a `url`, anything else (stdio) a `command`."""
    schema["if"] = {"properties": {"transport": {"const": "http"}}, "required": ["transport"]}
    schema["then"] = {"required": ["url"], "properties": {"url": {"type": "string", "minLength": 1}}}
    schema["else"] = {"required": ["command"], "properties": {"command": {"type": "string", "minLength": 1}}}


def _check_transport(transport: str, command: str | None, url: str | None) -> None:
    if transport == "stdio" and not command:
        raise ValueError("stdio MCP server requires command")
    if transport == "http" and not url:
        raise ValueError("http MCP server requires url")


class MCPServerConfig(BaseModel):
    """A stored MCP server: how to reach it, its plain env, its secrets by name, and the tools to expose."""

    model_config = ConfigDict(extra="forbid", frozen=True, json_schema_extra=_transport_schema)

    name: NonEmpty
    transport: Transport = "stdio"
    command: NonEmpty | None = None
    args: list[str] = Field(default_factory=list)
    env: dict[str, str] = Field(default_factory=dict)
    url: NonEmpty | None = None
    secrets: dict[str, str] = Field(default_factory=dict)
    """Env var name → secret name; the value is looked up at resolution."""
    tools: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _address_present(self) -> Self:
        _check_transport(self.transport, self.command, self.url)
        return self


class ResolvedMCPServer(BaseModel):
    """An MCP server as the runner receives it: the config minus `secrets`, with their values in `env`."""

    model_config = ConfigDict(extra="forbid", frozen=True, json_schema_extra=_transport_schema)

    name: NonEmpty
    transport: Transport = "stdio"
    command: NonEmpty | None = None
    args: list[str] = Field(default_factory=list)
    env: dict[str, Secret] = Field(default_factory=dict, repr=False)
    url: NonEmpty | None = None
    tools: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _address_present(self) -> Self:
        _check_transport(self.transport, self.command, self.url)
        return self

    @model_serializer(mode="wrap")
    def _omit_empty(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        for key in ("command", "args", "env", "url", "tools"):
            if not getattr(self, key):
                data.pop(key, None)
        return data

    def to_wire(self) -> dict[str, Any]:
        """`{"name", "transport"}` plus `command`, `args`, `env`, `url`, `tools` where non-empty."""
        wire: dict[str, Any] = self.model_dump(mode="json", context=REVEAL_SECRETS)
        return wire


_CONFIG: TypeAdapter[MCPServerConfig] = TypeAdapter(MCPServerConfig)


def parse_mcp_server_config(value: object) -> MCPServerConfig:
    """Strictly parse one stored MCP server config; `MCPConfigurationError` otherwise."""
    if isinstance(value, MCPServerConfig):
        return value
    try:
        return _CONFIG.validate_python(value)
    except ValidationError as exc:
        raise MCPConfigurationError(f"Invalid MCP server configuration: {describe_validation_error(exc)}") from None


def parse_mcp_server_configs(values: Iterable[object] | None) -> list[MCPServerConfig]:
    """Strictly parse a stored list (None is empty); the error names the failing item's `index`."""
    if values is None:
        return []
    if isinstance(values, str | bytes | dict) or not isinstance(values, Iterable):
        raise MCPConfigurationError("MCP server configurations must be a list")
    out: list[MCPServerConfig] = []
    for index, value in enumerate(values):
        try:
            out.append(parse_mcp_server_config(value))
        except MCPConfigurationError as exc:
            raise MCPConfigurationError(exc.message, index=index) from None
    return out


class MCPResolver:
    """Resolves stored MCP server configs into wire entries, with one batched secret lookup."""

    def __init__(
        self,
        *,
        secret_provider: SecretProvider | None = None,
        missing_secret_policy: MissingSecretPolicy = MissingSecretPolicy.ERROR,
    ) -> None:
        self.secret_provider: SecretProvider = secret_provider or EnvironmentSecretProvider()
        self.missing_secret_policy = MissingSecretPolicy(missing_secret_policy)

    def __repr__(self) -> str:
        return (
            f"MCPResolver(secret_provider={self.secret_provider!r}, "
            f"missing_secret_policy={self.missing_secret_policy.value!r})"
        )

    async def resolve(self, configs: Iterable[object] | None) -> list[ResolvedMCPServer]:
        """Resolve in order; a server's `env` is its plain env plus the values of its secrets."""
        servers = parse_mcp_server_configs(configs)
        found = await fetch_secrets(self.secret_provider, (s for c in servers for s in c.secrets.values()))
        out: list[ResolvedMCPServer] = []
        for server in servers:
            missing = list(dict.fromkeys(s for s in server.secrets.values() if s not in found))
            if missing and self.missing_secret_policy is MissingSecretPolicy.ERROR:
                raise MissingMCPSecretError(server_name=server.name, secret_names=missing)
            env = {key: SecretStr(value) for key, value in server.env.items()}
            env.update({var: SecretStr(found[secret]) for var, secret in server.secrets.items() if secret in found})
            out.append(
                ResolvedMCPServer(
                    name=server.name,
                    transport=server.transport,
                    command=server.command,
                    args=server.args,
                    env=env,
                    url=server.url,
                    tools=server.tools,
                )
            )
        return out
