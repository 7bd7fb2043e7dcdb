"""Generated artifacts of tool configs, MCP servers and the /run request (schemas, golden/run-request/).

`schemas()` returns JSON Schemas by path under `schemas/`; `goldens()` returns golden files (bytes) by
path under `golden/`. `turnwire.generate.artifacts` collects them with every other generated file.

The goldens are not written by hand: each is a stored agent config run through the real pipeline —
`ToolResolver`, `MCPResolver`, `SessionConfig.to_run_request`, `RunRequest.to_wire` — with a fixed
secret provider whose values are obvious placeholders (`<secret:NAME>`) and a fixed gateway catalogue,
so the goldens pin the pipeline's output and can never pick up a real secret from the environment.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import TypeAdapter

from turnwire.canonical import file_bytes
from turnwire.generate.schemas import build_schema, schema_id
from turnwire.tools.config import GatewayToolConfig, tool_config_adapter
from turnwire.tools.mcp import MCPResolver, MCPServerConfig
from turnwire.tools.ports import MappingSecretProvider
from turnwire.tools.resolved import GatewayToolResolution
from turnwire.tools.resolver import ToolResolver
from turnwire.tools.run_request import RunTrace, run_request_adapter
from turnwire.tools.session_config import AgentTools, SessionConfig
from turnwire.tools.spec import CallbackToolSpec, ToolCallback, tool_spec_adapter

GOLDEN_DIR = "run-request"


def placeholder(name: str) -> str:
    """The obvious stand-in a golden carries where a real secret would go."""
    return f"<secret:{name}>"


def schemas() -> dict[str, dict[str, Any]]:
    """JSON Schemas by path relative to `schemas/`."""
    return {
        "ToolConfig.schema.json": build_schema(
            tool_config_adapter(),
            schema_id_=schema_id(None, "ToolConfig"),
            title="ToolConfig",
            description="A stored tool configuration (snake_case), discriminated by type: "
            "builtin, gateway, code, client.",
        ),
        "ToolSpec.schema.json": build_schema(
            tool_spec_adapter(),
            schema_id_=schema_id(None, "ToolSpec"),
            title="ToolSpec",
            description="A resolved tool spec as the /run wire carries it (camelCase), discriminated by kind: "
            "callback, code, client.",
        ),
        "MCPServerConfig.schema.json": build_schema(
            TypeAdapter(MCPServerConfig),
            schema_id_=schema_id(None, "MCPServerConfig"),
            title="MCPServerConfig",
            description="A stored MCP server configuration: stdio requires command, http requires url; "
            "secrets map env vars to secret names.",
        ),
        "RunRequest.schema.json": build_schema(
            run_request_adapter(),
            schema_id_=schema_id(None, "RunRequest"),
            title="RunRequest",
            description="The body of POST /run: camelCase keys from a closed set; sessionId, trace and "
            "toolCallback are null when absent.",
        ),
    }


# ---- the fixed world the goldens are generated in ---------------------------------------------------------
SECRET_NAMES = (
    "ANTHROPIC_API_KEY",
    "GITHUB_TOKEN",
    "OPENAI_API_KEY",
    "OTLP_AUTHORIZATION",
    "TOOL_CALLBACK_AUTHORIZATION",
    "WEATHER_API_KEY",
    "github-token",
)
"""Every secret name the goldens use; the provider answers each with its placeholder."""

_CATALOGUE: Mapping[str, tuple[str, str]] = {
    "tools__composio__github__GET_THE_AUTHENTICATED_USER__github-tvn": ("get_user", "Get a user"),
}
"""Gateway slug → (default tool name, description), as a gateway would look them up."""

TOOL_CALLBACK_ENDPOINT = "https://api.example/tools/call"


class CatalogueGateway:
    """A gateway resolver over a fixed catalogue: the goldens' stand-in for a real gateway."""

    async def resolve(self, tools: Sequence[GatewayToolConfig]) -> GatewayToolResolution:
        """Callback specs for catalogue entries, keeping each config's name, approval and render."""
        specs = []
        for config in tools:
            default_name, description = _CATALOGUE[config.slug]
            specs.append(
                CallbackToolSpec(
                    name=config.name or default_name,
                    description=description,
                    call_ref=config.slug,
                    needs_approval=config.needs_approval,
                    render=config.render,
                )
            )
        callback = ToolCallback(
            endpoint=TOOL_CALLBACK_ENDPOINT,
            authorization="Access " + placeholder("TOOL_CALLBACK_AUTHORIZATION"),
        )
        return GatewayToolResolution(tool_specs=specs, tool_callback=callback)


@dataclass(frozen=True)
class RunCase:
    """One golden: a stored agent config, the session around it, and the harness call."""

    slug: str
    agent: Mapping[str, Any]
    session: Mapping[str, Any]
    request: Mapping[str, Any]
    secret_env: Mapping[str, str] = field(default_factory=dict)


_GATEWAY_TOOL = {
    "type": "gateway",
    "integration": "github",
    "action": "GET_THE_AUTHENTICATED_USER",
    "connection": "github-tvn",
    "name": "get_user",
}
_HI = [{"role": "user", "content": "hi"}]

CASES: tuple[RunCase, ...] = (
    RunCase(
        slug="pi",
        agent={"tools": ["read", "write", _GATEWAY_TOOL]},
        session={
            "secrets": {"OPENAI_API_KEY": placeholder("OPENAI_API_KEY")},
            "session_id": "sess-1",
            "trace": {
                "traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
                "baggage": None,
                "endpoint": "https://otlp.example/v1/traces",
                "authorization": "Access " + placeholder("OTLP_AUTHORIZATION"),
                "capture_content": True,
            },
        },
        request={
            "backend": "pi",
            "harness": "pi",
            "sandbox": "local",
            "model": "openai-codex/gpt-5.5",
            "messages": _HI,
            "agents_md": "You are a helpful assistant.",
            "system_prompt": "You are Pi.",
            "append_system_prompt": "Be terse.",
        },
    ),
    RunCase(
        slug="claude",
        agent={"tools": [_GATEWAY_TOOL]},
        session={
            "secrets": {"ANTHROPIC_API_KEY": placeholder("ANTHROPIC_API_KEY")},
            "permission_policy": "deny",
        },
        request={
            "backend": "rivet",
            "harness": "claude",
            "sandbox": "local",
            "model": "claude-sonnet-4-6",
            "messages": _HI,
            "agents_md": "You are a helpful assistant.",
        },
    ),
    RunCase(
        slug="local-tools",
        agent={
            "tools": [
                "read",
                {
                    "type": "code",
                    "name": "weather",
                    "description": "Current weather for a city",
                    "runtime": "node",
                    "script": "export default async ({ city }) => fetchWeather(city, process.env.WEATHER_API_KEY)",
                    "input_schema": {
                        "type": "object",
                        "properties": {"city": {"type": "string"}},
                        "required": ["city"],
                    },
                    "secrets": ["WEATHER_API_KEY"],
                    "needs_approval": True,
                    "render": {"component": "weather-card"},
                },
                {"type": "client", "name": "pick_file", "description": "Ask the user to pick a file"},
            ],
            "mcp_servers": [
                {
                    "name": "github",
                    "command": "npx",
                    "args": ["-y", "@modelcontextprotocol/server-github"],
                    "env": {"LOG": "info"},
                    "secrets": {"GITHUB_TOKEN": "github-token"},
                    "tools": ["create_issue"],
                },
                {"name": "docs", "transport": "http", "url": "https://mcp.example/docs"},
            ],
        },
        session={"secrets": {"OPENAI_API_KEY": placeholder("OPENAI_API_KEY")}, "session_id": "sess-2"},
        request={
            "backend": "local",
            "harness": "pi",
            "sandbox": "local",
            "model": "openai-codex/gpt-5.5",
            "messages": [{"role": "user", "content": [{"type": "text", "text": "Weather in Lisbon?"}]}],
            "agents_md": None,
        },
    ),
)


async def _wire(case: RunCase) -> dict[str, Any]:
    provider = MappingSecretProvider({name: placeholder(name) for name in SECRET_NAMES})
    agent = AgentTools.model_validate(dict(case.agent))
    tools = await ToolResolver(secret_provider=provider, gateway_resolver=CatalogueGateway()).resolve(agent.tools)
    servers = await MCPResolver(secret_provider=provider).resolve(agent.mcp_servers)
    session_fields = dict(case.session)
    if session_fields.get("trace") is not None:
        session_fields["trace"] = RunTrace.model_validate(session_fields["trace"])
    session = SessionConfig.from_resolved(tools, mcp_servers=servers, **session_fields)
    return session.to_run_request(**case.request).to_wire()


def run_request_wires() -> dict[str, dict[str, Any]]:
    """Each golden's `/run` body by case slug (parsed, before canonical encoding)."""

    async def all_cases() -> dict[str, dict[str, Any]]:
        return {case.slug: await _wire(case) for case in CASES}

    return asyncio.run(all_cases())


def goldens() -> dict[str, bytes]:
    """Golden files by path relative to `golden/`."""
    return {f"{GOLDEN_DIR}/{slug}.json": file_bytes(wire) for slug, wire in run_request_wires().items()}
