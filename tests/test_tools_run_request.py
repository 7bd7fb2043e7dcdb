"""B.7 / B.8: the `/run` request wire, the session and agent configs around it, and the goldens."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import jsonschema
import pytest
from pydantic import SecretStr, ValidationError

from turnwire.canonical import file_bytes, loads
from turnwire.generate import tools as generator
from turnwire.resources import golden_dir, schemas_dir
from turnwire.tools import (
    KNOWN_REQUEST_KEYS,
    AgentTools,
    BuiltinToolConfig,
    CallbackToolSpec,
    ClientToolSpec,
    CodeToolSpec,
    MappingSecretProvider,
    MCPResolver,
    ResolvedToolSet,
    RunRequest,
    RunTrace,
    SessionConfig,
    ToolCallback,
    ToolConfigurationError,
)
from turnwire.tools.run_request import ALWAYS_SENT_KEYS, NULL_WHEN_ABSENT_KEYS

EMPTY = {"type": "object", "properties": {}}
SLUG = "tools__composio__github__GET_THE_AUTHENTICATED_USER__github-tvn"

# The two real-world bodies of research note B.8 (Agenta PR #4763's run_request.pi.json, and the Claude
# one as the note describes it), as data.
RESEARCH_PI = {
    "backend": "pi",
    "harness": "pi",
    "sandbox": "local",
    "sessionId": "sess-1",
    "agentsMd": "You are a helpful assistant.",
    "model": "openai-codex/gpt-5.5",
    "messages": [{"role": "user", "content": "hi"}],
    "secrets": {"OPENAI_API_KEY": "sk-test"},
    "trace": {
        "traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
        "baggage": None,
        "endpoint": "https://otlp.example/v1/traces",
        "authorization": "Access tok-123",
        "captureContent": True,
    },
    "tools": ["read", "write"],
    "customTools": [
        {"name": "get_user", "description": "Get a user", "inputSchema": EMPTY, "callRef": SLUG, "kind": "callback"}
    ],
    "toolCallback": {"endpoint": "https://api.example/tools/call", "authorization": "Access tok-123"},
    "permissionPolicy": "auto",
    "systemPrompt": "You are Pi.",
    "appendSystemPrompt": "Be terse.",
}
RESEARCH_CLAUDE = {
    **{k: v for k, v in RESEARCH_PI.items() if k not in ("systemPrompt", "appendSystemPrompt")},
    "backend": "rivet",
    "harness": "claude",
    "sessionId": None,
    "trace": None,
    "tools": [],
    "permissionPolicy": "deny",
    "secrets": {"ANTHROPIC_API_KEY": "sk-ant"},
}


def schema(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads((schemas_dir() / f"{name}.schema.json").read_text()))


def golden(slug: str) -> dict[str, Any]:
    value = loads((golden_dir() / "run-request" / f"{slug}.json").read_bytes())
    assert isinstance(value, dict)
    return value


def session(**fields: Any) -> SessionConfig:
    return SessionConfig.model_validate(fields)


def request(s: SessionConfig, **overrides: Any) -> RunRequest:
    call: dict[str, Any] = {
        "backend": "pi",
        "harness": "pi",
        "sandbox": "local",
        "model": "m",
        "messages": [{"role": "user", "content": "hi"}],
        **overrides,
    }
    return s.to_run_request(**call)


# ---- the wire ----------------------------------------------------------------------------------------------
def test_top_level_keys_are_camel_case_from_the_known_set() -> None:
    wire = request(session()).to_wire()
    assert set(wire) == set(ALWAYS_SENT_KEYS)
    assert set(wire) <= KNOWN_REQUEST_KEYS
    assert all("_" not in key for key in wire)
    assert "prompt" not in wire
    assert {
        *("backend", "harness", "sandbox", "sessionId", "agentsMd", "model", "messages", "secrets", "trace"),
        *("tools", "customTools", "mcpServers", "toolCallback", "permissionPolicy"),
        *("systemPrompt", "appendSystemPrompt", "skills"),
    } == KNOWN_REQUEST_KEYS


def test_absent_session_id_trace_and_callback_are_null() -> None:
    wire = request(session()).to_wire()
    for key in NULL_WHEN_ABSENT_KEYS:
        assert key in wire
        assert wire[key] is None


def test_optional_keys_appear_only_when_set() -> None:
    bare = request(session()).to_wire()
    assert not {"systemPrompt", "appendSystemPrompt", "skills", "mcpServers"} & set(bare)
    full = request(
        session(),
        system_prompt="S",
        append_system_prompt="A",
        skills=[{"name": "release-notes"}],
    ).to_wire()
    assert (full["systemPrompt"], full["appendSystemPrompt"], full["skills"]) == ("S", "A", [{"name": "release-notes"}])


def test_mcp_servers_omitted_when_empty_and_exact_when_present() -> None:
    assert "mcpServers" not in request(session(mcp_servers=[])).to_wire()
    servers = asyncio.run(
        MCPResolver(secret_provider=MappingSecretProvider({"gh": "ghp"})).resolve(
            [{"name": "github", "command": "npx", "secrets": {"GITHUB_TOKEN": "gh"}, "tools": ["create_issue"]}]
        )
    )
    wire = request(session(mcp_servers=servers)).to_wire()
    assert wire["mcpServers"] == [
        {
            "name": "github",
            "transport": "stdio",
            "command": "npx",
            "env": {"GITHUB_TOKEN": "ghp"},
            "tools": ["create_issue"],
        }
    ]


def test_trace_and_callback_wire_shapes() -> None:
    trace = RunTrace(traceparent="00-a-b-01", baggage=None, endpoint=None, authorization=None, capture_content=False)
    wire = request(session(trace=trace, tool_callback=ToolCallback(endpoint="https://cb"))).to_wire()
    assert wire["trace"] == {
        "traceparent": "00-a-b-01",
        "baggage": None,
        "endpoint": None,
        "authorization": None,
        "captureContent": False,
    }
    assert wire["toolCallback"] == {"endpoint": "https://cb", "authorization": None}


def test_code_and_client_specs_reach_the_wire_intact() -> None:
    specs = [
        CodeToolSpec(
            name="c",
            description="c",
            code="x",
            runtime="node",
            env={"K": SecretStr("v")},
            needs_approval=True,
            render={"r": 1},
        ),
        ClientToolSpec(name="t", description="t"),
    ]
    code, client = request(session(tool_specs=specs)).to_wire()["customTools"]
    assert code == {
        "name": "c",
        "description": "c",
        "inputSchema": EMPTY,
        "kind": "code",
        "runtime": "node",
        "code": "x",
        "env": {"K": "v"},
        "needsApproval": True,
        "render": {"r": 1},
    }
    assert client == {"name": "t", "description": "t", "inputSchema": EMPTY, "kind": "client"}


def test_wire_round_trips_through_the_model() -> None:
    for slug in ("pi", "claude", "local-tools"):
        wire = golden(slug)
        model = RunRequest.model_validate(wire, by_name=False)
        assert model.to_wire() == wire


def test_wire_model_rejects_unknown_and_snake_keys() -> None:
    with pytest.raises(ValidationError, match="extra_forbidden"):
        RunRequest.model_validate({**RESEARCH_PI, "prompt": "x"}, by_name=False)
    snake = {("session_id" if k == "sessionId" else k): v for k, v in RESEARCH_PI.items()}
    with pytest.raises(ValidationError, match="session_id"):
        RunRequest.model_validate(snake, by_name=False)


def test_request_repr_and_plain_dump_hide_secrets() -> None:
    model = RunRequest.model_validate(RESEARCH_PI, by_name=False)
    for text in (repr(model), str(model), str(model.model_dump()), model.model_dump_json()):
        assert "sk-test" not in text
        assert "tok-123" not in text
    assert model.to_wire()["secrets"] == {"OPENAI_API_KEY": "sk-test"}


# ---- session and agent configs -------------------------------------------------------------------------------
def test_session_reads_old_tool_names_but_never_writes_them() -> None:
    s = SessionConfig.model_validate({"builtin_tools": ["read"], "custom_tools": [{"name": "u", "callRef": "r"}]})
    assert s.builtin_names == ["read"]
    assert isinstance(s.tool_specs[0], CallbackToolSpec)
    assert s.builtin_tools == ["read"]
    assert s.custom_tools == [
        {"name": "u", "description": "u", "inputSchema": EMPTY, "kind": "callback", "callRef": "r"}
    ]
    dumped = s.model_dump(by_alias=True)
    assert "builtin_tools" not in dumped
    assert "custom_tools" not in dumped
    assert {"builtin_names", "tool_specs"} <= set(dumped)


def test_session_defaults_and_from_resolved() -> None:
    s = SessionConfig()
    assert (s.permission_policy, s.trace, s.session_id, s.tool_callback) == ("auto", None, None, None)
    resolved = ResolvedToolSet(builtin_names=["read"], tool_specs=[ClientToolSpec(name="t", description="t")])
    s = SessionConfig.from_resolved(resolved, session_id="x")
    assert (s.builtin_names, [t.name for t in s.tool_specs], s.session_id) == (["read"], ["t"], "x")


def test_agent_tools_coerce_legacy_shapes_and_wrap_a_single_config() -> None:
    agent = AgentTools.model_validate({"tools": ["read", {"name": "write"}]})
    assert agent.tools == [BuiltinToolConfig(name="read"), BuiltinToolConfig(name="write")]
    single = AgentTools.model_validate({"tools": {"type": "builtin", "name": "bash"}})
    assert single.tools == [BuiltinToolConfig(name="bash")]
    assert AgentTools.model_validate({"tools": None}).tools == []
    with pytest.raises(ToolConfigurationError) as info:
        AgentTools.model_validate({"tools": ["read", 7]})
    assert info.value.index == 1
    servers = AgentTools.model_validate({"mcp_servers": {"name": "gh", "command": "npx"}}).mcp_servers
    assert [s.name for s in servers] == ["gh"]


# ---- goldens and schemas ----------------------------------------------------------------------------------------
def test_checked_in_goldens_equal_the_pipeline_output() -> None:
    for slug, wire in generator.run_request_wires().items():
        assert (golden_dir() / "run-request" / f"{slug}.json").read_bytes() == file_bytes(wire)


def test_pi_golden_shape() -> None:
    pi = golden("pi")
    assert set(pi) == KNOWN_REQUEST_KEYS - {"skills", "mcpServers"}
    assert pi["permissionPolicy"] == "auto"
    assert pi["tools"] == ["read", "write"]
    assert pi["customTools"] == [
        {"name": "get_user", "description": "Get a user", "inputSchema": EMPTY, "callRef": SLUG, "kind": "callback"}
    ]
    assert set(pi) - set(RESEARCH_PI) == set()


def test_claude_golden_shape() -> None:
    claude = golden("claude")
    assert (claude["backend"], claude["harness"], claude["permissionPolicy"]) == ("rivet", "claude", "deny")
    assert (claude["sessionId"], claude["trace"], claude["tools"]) == (None, None, [])
    assert not {"systemPrompt", "appendSystemPrompt", "mcpServers", "skills"} & set(claude)
    assert claude["customTools"] == golden("pi")["customTools"]


@pytest.mark.parametrize("body", [RESEARCH_PI, RESEARCH_CLAUDE], ids=["pi", "claude"])
def test_research_bodies_validate_against_the_schema_and_the_model(body: dict[str, Any]) -> None:
    assert list(schema("RunRequest").iter_errors(body)) == []
    assert RunRequest.model_validate(body, by_name=False).to_wire() == body


@pytest.mark.parametrize("slug", ["pi", "claude", "local-tools"])
def test_goldens_validate_against_the_schemas(slug: str) -> None:
    body = golden(slug)
    assert list(schema("RunRequest").iter_errors(body)) == []
    for spec in body["customTools"]:
        assert list(schema("ToolSpec").iter_errors(spec)) == []


def test_schemas_reject_what_the_models_reject() -> None:
    assert not schema("ToolConfig").is_valid({"type": "client", "name": "c", "inputSchema": EMPTY})
    assert schema("ToolConfig").is_valid({"type": "client", "name": "c", "input_schema": EMPTY})
    assert not schema("ToolConfig").is_valid({"name": "read"})  # the tag is required
    assert not schema("MCPServerConfig").is_valid({"name": "gh", "transport": "stdio"})
    assert not schema("MCPServerConfig").is_valid({"name": "gh"})
    assert not schema("MCPServerConfig").is_valid({"name": "gh", "command": None})
    assert not schema("MCPServerConfig").is_valid({"name": "docs", "transport": "http", "command": "x"})
    assert schema("MCPServerConfig").is_valid({"name": "docs", "transport": "http", "url": "https://m"})
    assert schema("MCPServerConfig").is_valid({"name": "gh", "command": "npx", "secrets": {"T": "gh"}})
    assert not schema("ToolSpec").is_valid({"name": "t", "description": "t", "input_schema": EMPTY, "kind": "client"})
    assert not schema("ToolSpec").is_valid({"name": "t", "description": "t"})  # kind is required
    assert not schema("RunRequest").is_valid({**RESEARCH_PI, "prompt": "x"})
    assert not schema("RunRequest").is_valid({k: v for k, v in RESEARCH_PI.items() if k != "toolCallback"})
    bad_server = {**RESEARCH_PI, "mcpServers": [{"name": "gh", "transport": "stdio"}]}
    assert not schema("RunRequest").is_valid(bad_server)
