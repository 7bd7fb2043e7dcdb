"""Checks over a target's output: every finding id has a known-bad input, and good output is clean."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from turnwire.canonical import loads
from turnwire.findings import Finding, Level
from turnwire.resources import golden_dir
from turnwire.tools import (
    REDACTED,
    check_mcp_server_configs,
    check_run_request,
    check_secret_placement,
    check_tool_configs,
    run_request_redactor,
)

SECRET = "sk-live-0123456789abcdef"
AUTH = "Bearer cb-token-fedcba9876"


def good() -> dict[str, Any]:
    return {
        "backend": "pi",
        "harness": "pi",
        "sandbox": "local",
        "sessionId": None,
        "agentsMd": None,
        "model": "m",
        "messages": [{"role": "user", "content": "hi"}],
        "secrets": {"OPENAI_API_KEY": SECRET},
        "trace": None,
        "tools": ["read"],
        "customTools": [
            {
                "name": "weather",
                "description": "w",
                "inputSchema": {"type": "object"},
                "kind": "code",
                "runtime": "python",
                "code": "x",
                "env": {"WEATHER_KEY": "wk-000111222333"},
            },
            {"name": "u", "description": "u", "inputSchema": {}, "kind": "callback", "callRef": "r"},
        ],
        "toolCallback": {"endpoint": "https://cb", "authorization": AUTH},
        "permissionPolicy": "auto",
        "mcpServers": [{"name": "gh", "transport": "stdio", "command": "npx", "env": {"GITHUB_TOKEN": "ghp-4455"}}],
    }


def ids(findings: list[Finding]) -> list[str]:
    return [f.requirement for f in findings]


def assert_no_secret(findings: list[Finding], *secrets: str) -> None:
    for f in findings:
        for text in (str(f), repr(f), f.model_dump_json()):
            for secret in (SECRET, AUTH, "wk-000111222333", *secrets):
                assert secret not in text, (secret, text)


def test_good_body_and_goldens_are_clean() -> None:
    assert check_run_request(good()) == []
    for path in sorted((golden_dir() / "run-request").glob("*.json")):
        assert check_run_request(loads(path.read_bytes())) == [], path.name


def test_not_an_object() -> None:
    (finding,) = check_run_request(["not", "a", "body"])
    assert (finding.requirement, finding.json_path, finding.level) == ("RUN-SCHEMA", "$", Level.MUST)


def test_unknown_and_snake_case_keys() -> None:
    body = good()
    body["prompt"] = "x"
    body["session_id"] = body.pop("sessionId")
    findings = check_run_request(body)
    assert ids(findings) == ["RUN-UNKNOWN-KEY", "RUN-UNKNOWN-KEY", "RUN-MISSING-KEY"]
    assert findings[0].json_path == "$.prompt"
    assert "the wire spells it sessionId" in findings[1].message
    assert "null when there is none" in findings[2].message


@pytest.mark.parametrize("key", ["toolCallback", "trace", "sessionId", "customTools", "permissionPolicy"])
def test_missing_always_sent_key(key: str) -> None:
    body = good()
    del body[key]
    assert ids(check_run_request(body)) == ["RUN-MISSING-KEY"]


def test_wrong_top_level_values() -> None:
    body = good()
    body["tools"] = "read"
    body["trace"] = {"traceparent": "x"}
    body["messages"] = [{"role": "user"}]
    findings = check_run_request(body)
    assert set(ids(findings)) == {"RUN-SCHEMA"}
    paths = {f.json_path for f in findings}
    assert "$.tools" in paths
    assert "$.trace.captureContent" in paths
    assert "$.messages[0].content" in paths
    assert all(f.level is Level.MUST for f in findings)


def test_secret_map_with_bad_values_is_not_excerpted() -> None:
    body = good()
    body["secrets"] = {"A": SECRET, "B": 5}
    findings = check_run_request(body)
    assert ids(findings) == ["RUN-SCHEMA"]
    assert findings[0].json_path == "$.secrets.B"
    assert findings[0].received == REDACTED


def test_empty_and_null_optional_keys() -> None:
    body = good()
    body["mcpServers"] = []
    body["systemPrompt"] = None
    findings = check_run_request(body)
    assert ids(findings) == ["RUN-OMIT-EMPTY", "RUN-OMIT-EMPTY"]
    assert all(f.level is Level.SHOULD for f in findings)
    body["mcpServers"] = {"name": "gh"}
    assert ids(check_run_request(body)) == ["RUN-OMIT-EMPTY", "RUN-SCHEMA"]


def test_tool_spec_kind() -> None:
    body = good()
    del body["customTools"][1]["kind"]
    body["customTools"].append({"name": "z", "description": "z", "inputSchema": {}, "kind": "mcp"})
    findings = check_run_request(body)
    assert ids(findings) == ["TOOL-SPEC-KIND", "TOOL-SPEC-KIND"]
    assert findings[0].json_path == "$.customTools[1].kind"
    assert findings[0].received == "absent"
    assert findings[1].received == '"mcp"'


def test_tool_spec_schema() -> None:
    body = good()
    body["customTools"][1]["call_ref"] = body["customTools"][1].pop("callRef")
    body["customTools"].append({"name": "c", "description": "c", "kind": "client", "callRef": "r"})
    body["customTools"].append("read")
    body["customTools"].append({"name": "k", "description": "k", "kind": "code"})
    findings = check_run_request(body)
    assert ids(findings) == ["TOOL-SPEC-SCHEMA"] * 4
    assert [f.json_path for f in findings] == [
        "$.customTools[1].call_ref",
        "$.customTools[2].callRef",
        "$.customTools[3]",
        "$.customTools[4].code",
    ]
    assert "the wire spells it callRef" in findings[0].message


def test_tool_spec_wire_form() -> None:
    body = good()
    body["customTools"][1].update({"needsApproval": False, "render": None})
    body["customTools"][0]["env"] = {}
    findings = check_run_request(body)
    assert ids(findings) == ["TOOL-SPEC-WIRE-FORM"] * 3
    assert all(f.level is Level.SHOULD for f in findings)
    body["customTools"][1]["needsApproval"] = True
    assert len(check_run_request(body)) == 2


def test_duplicate_tool_names() -> None:
    body = good()
    body["tools"] = ["read", "weather", "read"]
    findings = check_run_request(body)
    assert ids(findings) == ["TOOL-DUPLICATE-NAME", "TOOL-DUPLICATE-NAME"]
    assert {f.received for f in findings} == {"read", "weather"}


def test_mcp_server_entries() -> None:
    body = good()
    body["mcpServers"] = [
        {"name": "gh", "transport": "stdio"},
        {"name": "docs", "transport": "http", "url": "https://d", "secrets": {"T": "t"}},
        {"name": "x", "transport": "stdio", "command": "c", "args": [], "env": {}, "url": None},
        3,
    ]
    findings = check_run_request(body)
    assert ids(findings) == ["MCP-SERVER-SCHEMA", "MCP-SERVER-SCHEMA"] + ["MCP-EMPTY-FIELD"] * 3 + ["MCP-SERVER-SCHEMA"]
    assert "requires command" in findings[0].message
    assert findings[1].json_path == "$.mcpServers[1].secrets"
    assert [f.json_path for f in findings[2:5]] == [f"$.mcpServers[2].{k}" for k in ("args", "env", "url")]


def test_secret_outside_its_places() -> None:
    body = good()
    body["messages"].append({"role": "user", "content": f"my key is {SECRET}"})
    body["agentsMd"] = f"callback uses {AUTH}"
    body["customTools"][1]["description"] = "uses wk-000111222333"
    findings = check_run_request(body)
    assert ids(findings) == ["RUN-SECRET-PLACEMENT"] * 3
    assert {f.json_path for f in findings} == {
        "$.agentsMd",
        "$.messages[1].content",
        "$.customTools[1].description",
    }
    assert_no_secret(findings)
    by_path = {f.json_path: f for f in findings}
    assert by_path["$.messages[1].content"].received == f'"my key is {REDACTED}"'
    assert by_path["$.agentsMd"].level is Level.MUST


def test_caller_named_secrets_are_hunted_whatever_their_length() -> None:
    body = good()
    body["model"] = "abc"
    assert check_secret_placement(body) == []
    (finding,) = check_secret_placement(body, ["abc"])
    assert finding.json_path == "$.model"
    assert "abc" not in str(finding)


def test_secret_as_an_object_key() -> None:
    body = good()
    body["customTools"][1]["inputSchema"] = {"properties": {SECRET: {}}}
    (finding,) = check_run_request(body)
    assert finding.requirement == "RUN-SECRET-PLACEMENT"
    assert "object key" in finding.message
    assert_no_secret([finding])


def test_findings_never_quote_secrets_from_bad_entries() -> None:
    body = good()
    body["customTools"][0]["env"] = {"WEATHER_KEY": 7, "OTHER": "ok-but-secret-123"}
    body["customTools"][0]["bogus"] = True
    body["mcpServers"][0]["secrets"] = {"X": "ghp-4455"}
    body["toolCallback"]["authorization"] = ["oops", AUTH]
    findings = check_run_request(body)
    assert findings
    assert_no_secret(findings, "ok-but-secret-123", "ghp-4455")


def test_redactor_of_a_body() -> None:
    body = good()
    body["secrets"]["SHORT"] = "abc"
    redactor = run_request_redactor(body, ["extra-secret"])
    assert set(redactor.values) == {SECRET, AUTH, "wk-000111222333", "ghp-4455", "extra-secret"}
    assert "abc" not in redactor.values  # shorter than the discovery minimum


# ---- stored configs -----------------------------------------------------------------------------------------------
def test_canonical_tool_configs_are_clean() -> None:
    assert check_tool_configs([{"type": "builtin", "name": "read"}, {"type": "client", "name": "c"}]) == []
    assert check_tool_configs(None) == []


def test_legacy_and_invalid_tool_configs() -> None:
    findings = check_tool_configs(["read", {"name": "write"}, {"type": "client", "name": "c", "inputSchema": {}}, None])
    assert ids(findings) == ["TOOL-CONFIG-LEGACY", "TOOL-CONFIG-LEGACY", "TOOL-CONFIG-SCHEMA", "TOOL-CONFIG-SCHEMA"]
    assert findings[0].expected is not None
    assert '"type":"builtin"' in findings[0].expected
    assert [f.json_path for f in findings] == ["$[0]", "$[1]", "$[2]", "$[3]"]
    (not_a_list,) = check_tool_configs({"name": "read"}, path=("agent", "tools"))
    assert (not_a_list.requirement, not_a_list.json_path) == ("TOOL-CONFIG-SCHEMA", "$.agent.tools")


def test_duplicate_stored_tool_names() -> None:
    findings = check_tool_configs([{"type": "builtin", "name": "x"}, {"type": "client", "name": "x"}])
    assert ids(findings) == ["TOOL-DUPLICATE-NAME"]
    assert findings[0].json_path == "$[1]"


def test_mcp_server_configs() -> None:
    assert check_mcp_server_configs([{"name": "gh", "command": "npx", "secrets": {"T": "gh"}}]) == []
    findings = check_mcp_server_configs(
        [{"name": "gh"}, {"name": "d", "transport": "http", "url": "u", "mcpTools": []}, "x"]
    )
    assert ids(findings) == ["MCP-CONFIG-SCHEMA"] * 3
    assert [f.json_path for f in findings] == ["$[0]", "$[1].mcpTools", "$[2]"]
    assert "requires command" in findings[0].message
    assert ids(check_mcp_server_configs({"name": "gh"})) == ["MCP-CONFIG-SCHEMA"]


def test_checks_do_not_mutate_their_input() -> None:
    body = good()
    body["customTools"][1]["call_ref"] = "r"
    before = copy.deepcopy(body)
    check_run_request(body)
    assert body == before
