"""B.1: stored tool configs — the `type` union, snake_case, unknown keys rejected, strict parsing."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from turnwire.tools import (
    BuiltinToolConfig,
    ClientToolConfig,
    CodeToolConfig,
    GatewayToolConfig,
    ToolConfigError,
    ToolConfigurationError,
    parse_tool_config,
    parse_tool_configs,
)
from turnwire.tools.config import tool_config_adapter

EMPTY = {"type": "object", "properties": {}}


@pytest.mark.parametrize(
    ("raw", "cls"),
    [
        ({"type": "builtin", "name": "read"}, BuiltinToolConfig),
        ({"type": "gateway", "integration": "github", "action": "GET_USER", "connection": "c1"}, GatewayToolConfig),
        ({"type": "code", "name": "c", "script": "print(1)"}, CodeToolConfig),
        ({"type": "client", "name": "pick"}, ClientToolConfig),
    ],
)
def test_type_discriminates_the_union(raw: dict[str, object], cls: type) -> None:
    config = parse_tool_config(raw)
    assert type(config) is cls
    assert config.type == raw["type"]


def test_defaults_of_each_member() -> None:
    gateway = parse_tool_config({"type": "gateway", "integration": "github", "action": "A", "connection": "c"})
    assert isinstance(gateway, GatewayToolConfig)
    assert (gateway.provider, gateway.name, gateway.needs_approval, gateway.render) == ("composio", None, False, None)
    code = parse_tool_config({"type": "code", "name": "c", "script": "x"})
    assert isinstance(code, CodeToolConfig)
    assert (code.runtime, code.input_schema, code.secrets, code.description) == ("python", EMPTY, [], None)
    client = parse_tool_config({"type": "client", "name": "c"})
    assert isinstance(client, ClientToolConfig)
    assert client.input_schema == EMPTY


def test_gateway_reference_and_slug() -> None:
    config = GatewayToolConfig(integration="github", action="GET_USER", connection="c1")
    assert config.reference == "tools.composio.github.GET_USER.c1"
    assert config.slug == "tools__composio__github__GET_USER__c1"


def test_camel_case_key_on_a_config_is_rejected() -> None:
    with pytest.raises(ToolConfigurationError, match="inputSchema: Extra inputs are not permitted"):
        parse_tool_config({"type": "client", "name": "c", "inputSchema": EMPTY})
    with pytest.raises(ValidationError, match="extra_forbidden"):
        CodeToolConfig.model_validate({"name": "c", "script": "x", "needsApproval": True})


def test_unknown_key_and_unknown_type_are_rejected() -> None:
    with pytest.raises(ToolConfigurationError, match="Extra inputs"):
        parse_tool_config({"type": "code", "name": "c", "script": "x", "timeout": 3})
    with pytest.raises(ToolConfigurationError, match="does not match any of the expected tags"):
        parse_tool_config({"type": "function", "name": "c"})


@pytest.mark.parametrize(
    "raw",
    [
        {"type": "builtin", "name": ""},
        {"type": "code", "name": "c", "script": ""},
        {"type": "code", "name": "c", "script": "x", "runtime": "ruby"},
        {"type": "gateway", "integration": "", "action": "a", "connection": "c"},
        {"type": "gateway", "integration": "i", "action": "a"},
    ],
)
def test_field_rules_are_enforced(raw: dict[str, object]) -> None:
    with pytest.raises(ToolConfigurationError, match=r"^Invalid tool configuration: "):
        parse_tool_config(raw)


def test_strict_parser_rejects_legacy_shapes() -> None:
    for legacy in (
        {"name": "read"},
        "read",
        {"type": "composio", "integration": "g", "action": "a", "connection": "c"},
    ):
        with pytest.raises(ToolConfigurationError):
            parse_tool_config(legacy)


def test_list_parser_names_the_failing_index() -> None:
    with pytest.raises(ToolConfigurationError) as info:
        parse_tool_configs([{"type": "builtin", "name": "a"}, {"type": "builtin"}])
    assert info.value.index == 1
    assert str(info.value).startswith("tool configuration 1: Invalid tool configuration")
    assert ToolConfigError is ToolConfigurationError


def test_configs_are_immutable_and_dump_snake_case() -> None:
    config = CodeToolConfig(name="c", script="x", needs_approval=True)
    with pytest.raises(ValidationError):
        config.name = "d"  # type: ignore[misc]
    dumped = tool_config_adapter().dump_python(config, mode="json", by_alias=True)
    assert set(dumped) == {"type", "name", "description", "runtime", "script", "input_schema", "secrets"} | {
        "needs_approval",
        "render",
    }
