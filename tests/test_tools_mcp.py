"""B.6: MCP server configs, the resolved wire entry, and the MCP resolver."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence

import pytest
from pydantic import SecretStr, ValidationError

from turnwire.tools import (
    MappingSecretProvider,
    MCPConfigurationError,
    MCPResolver,
    MCPServerConfig,
    MissingMCPSecretError,
    MissingSecretPolicy,
    ResolvedMCPServer,
    parse_mcp_server_configs,
)

GITHUB = {
    "name": "github",
    "command": "npx",
    "env": {"LOG": "info"},
    "secrets": {"GITHUB_TOKEN": "gh-secret"},
    "tools": ["create_issue"],
}


class RecordingProvider:
    def __init__(self, values: Mapping[str, str]) -> None:
        self.values = dict(values)
        self.calls: list[list[str]] = []

    async def get_many(self, names: Sequence[str]) -> Mapping[str, str]:
        self.calls.append(list(names))
        return {n: self.values[n] for n in names if n in self.values}


def resolve(configs: object, values: Mapping[str, str], **kwargs: object) -> list[ResolvedMCPServer]:
    resolver = MCPResolver(secret_provider=MappingSecretProvider(values), **kwargs)  # type: ignore[arg-type]
    return asyncio.run(resolver.resolve(configs))  # type: ignore[arg-type]


def test_stdio_requires_command_and_http_requires_url() -> None:
    with pytest.raises(ValidationError, match="requires command"):
        MCPServerConfig(name="gh")
    with pytest.raises(ValidationError, match="command\n  String should have at least 1 character"):
        MCPServerConfig(name="gh", command="")
    with pytest.raises(ValidationError, match="requires url"):
        MCPServerConfig(name="docs", transport="http")
    assert MCPServerConfig(name="docs", transport="http", url="https://m/x").url == "https://m/x"
    with pytest.raises(ValidationError, match="requires url"):
        ResolvedMCPServer(name="docs", transport="http")


def test_config_is_snake_case_with_unknown_keys_rejected() -> None:
    with pytest.raises(ValidationError, match="extra_forbidden"):
        MCPServerConfig.model_validate({**GITHUB, "mcpTools": []})
    with pytest.raises(ValidationError, match="transport"):
        MCPServerConfig.model_validate({**GITHUB, "transport": "sse"})
    config = MCPServerConfig.model_validate(GITHUB)
    assert (config.transport, config.args, config.url) == ("stdio", [], None)


def test_resolved_entry_has_no_secrets_key() -> None:
    with pytest.raises(ValidationError, match="extra_forbidden"):
        ResolvedMCPServer.model_validate({"name": "gh", "command": "npx", "secrets": {}})


def test_env_merges_plain_env_and_secret_values() -> None:
    (server,) = resolve([GITHUB], {"gh-secret": "ghp"})
    assert server.to_wire() == {
        "name": "github",
        "transport": "stdio",
        "command": "npx",
        "env": {"LOG": "info", "GITHUB_TOKEN": "ghp"},
        "tools": ["create_issue"],
    }


def test_one_batched_secret_request() -> None:
    provider = RecordingProvider({"b": "1", "a": "2"})
    servers = [
        {"name": "one", "command": "x", "secrets": {"B": "b", "A": "a"}},
        {"name": "two", "command": "y", "secrets": {"A2": "a"}},
    ]
    asyncio.run(MCPResolver(secret_provider=provider).resolve(servers))
    assert provider.calls == [["a", "b"]]


def test_missing_secret_error_and_omit() -> None:
    with pytest.raises(MissingMCPSecretError) as info:
        resolve([GITHUB], {})
    assert (info.value.server_name, info.value.secret_names) == ("github", ("gh-secret",))
    (server,) = resolve([{**GITHUB, "env": {}}], {}, missing_secret_policy=MissingSecretPolicy.OMIT)
    assert "env" not in server.to_wire()


def test_wire_omits_every_empty_field() -> None:
    server = ResolvedMCPServer(name="docs", transport="http", url="https://m/docs")
    assert server.to_wire() == {"name": "docs", "transport": "http", "url": "https://m/docs"}
    full = ResolvedMCPServer(name="gh", command="npx", args=["-y"], env={"A": SecretStr("v")}, tools=["t"])
    assert set(full.to_wire()) == {"name", "transport", "command", "args", "env", "tools"}


def test_env_values_are_hidden_from_repr() -> None:
    (server,) = resolve([GITHUB], {"gh-secret": "ghp-very-secret"})
    assert "ghp-very-secret" not in repr(server)
    assert "ghp-very-secret" not in str(server.model_dump())


def test_parse_errors_name_the_index() -> None:
    with pytest.raises(MCPConfigurationError) as info:
        parse_mcp_server_configs([GITHUB, {"name": "broken"}])
    assert info.value.index == 1
    assert "requires command" in info.value.message
    assert parse_mcp_server_configs(None) == []
    with pytest.raises(MCPConfigurationError, match="must be a list"):
        parse_mcp_server_configs(GITHUB)
