"""B.5: legacy tool shapes fold into the canonical union; collect mode returns indexed diagnostics."""

from __future__ import annotations

import pytest

from turnwire.tools import (
    BuiltinToolConfig,
    ClientToolConfig,
    GatewayToolConfig,
    ToolConfigDiagnostic,
    ToolConfigurationError,
    coerce_tool_config,
    coerce_tool_configs,
    is_canonical_tool_config,
    parse_gateway_slug,
)

SLUG = "tools__composio__github__GET_USER__c1"


def test_canonical_instance_passes_through() -> None:
    config = ClientToolConfig(name="pick")
    assert coerce_tool_config(config) is config


def test_bare_string_is_a_builtin() -> None:
    assert coerce_tool_config("bash") == BuiltinToolConfig(name="bash")
    with pytest.raises(ToolConfigurationError, match="cannot be empty"):
        coerce_tool_config("")


def test_composio_type_becomes_gateway() -> None:
    config = coerce_tool_config({"type": "composio", "integration": "github", "action": "A", "connection": "c"})
    assert config == GatewayToolConfig(integration="github", action="A", connection="c")
    kept = coerce_tool_config(
        {"type": "composio", "provider": "other", "integration": "g", "action": "A", "connection": "c"}
    )
    assert isinstance(kept, GatewayToolConfig)
    assert kept.provider == "other"


def test_canonical_type_goes_through_the_strict_parser() -> None:
    assert coerce_tool_config({"type": "builtin", "name": "read"}) == BuiltinToolConfig(name="read")
    with pytest.raises(ToolConfigurationError, match="Invalid tool configuration"):
        coerce_tool_config({"type": "client", "name": "c", "inputSchema": {}})


def test_gateway_slug_in_openai_function_keeps_outer_metadata() -> None:
    config = coerce_tool_config(
        {
            "type": "function",
            "function": {"name": SLUG, "description": "ignored"},
            "needs_approval": 1,
            "render": {"component": "user-card"},
        }
    )
    assert config == GatewayToolConfig(
        provider="composio",
        integration="github",
        action="GET_USER",
        connection="c1",
        needs_approval=True,
        render={"component": "user-card"},
    )


def test_gateway_slug_in_name_and_dotted_form() -> None:
    assert isinstance(coerce_tool_config({"name": SLUG}), GatewayToolConfig)
    assert isinstance(coerce_tool_config({"name": "tools.composio.github.GET_USER.c1"}), GatewayToolConfig)
    render_not_a_mapping = coerce_tool_config({"name": SLUG, "render": "card"})
    assert render_not_a_mapping.render is None


@pytest.mark.parametrize(
    ("slug", "parts"),
    [
        (SLUG, ("composio", "github", "GET_USER", "c1")),
        ("tools.p.i.a.c", ("p", "i", "a", "c")),
        ("tools__p__i__a", None),
        ("tool__p__i__a__c", None),
        ("tools__p__i__a__c__d", None),
        (42, None),
    ],
)
def test_parse_gateway_slug(slug: object, parts: tuple[str, ...] | None) -> None:
    parsed = parse_gateway_slug(slug)
    if parts is None:
        assert parsed is None
    else:
        assert parsed is not None
        assert (parsed["provider"], parsed["integration"], parsed["action"], parsed["connection"]) == parts


def test_slug_with_an_empty_part_is_an_invalid_gateway() -> None:
    with pytest.raises(ToolConfigurationError, match="integration"):
        coerce_tool_config({"name": "tools__composio____A__c"})


def test_name_only_mapping_is_a_builtin() -> None:
    assert coerce_tool_config({"name": "read", "description": "dropped"}) == BuiltinToolConfig(name="read")


@pytest.mark.parametrize(
    "value",
    [
        {"type": "function", "function": {"name": "get_weather"}},
        {"type": ["builtin"], "name": "x"},
        {"name": 3},
        {"description": "no name"},
        {"type": None, "name": "x"},
    ],
)
def test_unsupported_shapes(value: object) -> None:
    with pytest.raises(ToolConfigurationError, match="Unsupported tool configuration shape"):
        coerce_tool_config(value)


@pytest.mark.parametrize("value", [3, 1.5, True, ["read"]])
def test_non_string_non_mapping(value: object) -> None:
    with pytest.raises(ToolConfigurationError, match="must be a string or mapping"):
        coerce_tool_config(value)


def test_collect_mode_returns_indexed_diagnostics() -> None:
    result = coerce_tool_configs(["read", None, {"type": "nope"}, {"name": "write"}], on_error="collect")
    assert [c.name for c in result.tool_configs if isinstance(c, BuiltinToolConfig)] == ["read", "write"]
    assert [d.index for d in result.diagnostics] == [1, 2]
    assert result.diagnostics[0] == ToolConfigDiagnostic(index=1, message="Tool configuration cannot be null")
    assert result.diagnostics[1].message == "Unsupported tool configuration shape"


def test_raise_mode_names_the_index() -> None:
    with pytest.raises(ToolConfigurationError) as info:
        coerce_tool_configs(["read", {"type": "nope"}])
    assert info.value.index == 1
    assert info.value.message == "Unsupported tool configuration shape"
    with pytest.raises(ToolConfigurationError) as info:
        coerce_tool_configs([None])
    assert (info.value.index, info.value.message) == (0, "Tool configuration cannot be null")


def test_list_container_rules() -> None:
    assert coerce_tool_configs(None).tool_configs == []
    for not_a_list in ("read", {"name": "read"}, 3):
        with pytest.raises(ToolConfigurationError, match="must be a list"):
            coerce_tool_configs(not_a_list)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="on_error"):
        coerce_tool_configs([], on_error="ignore")  # type: ignore[arg-type]


def test_is_canonical() -> None:
    assert is_canonical_tool_config({"type": "builtin", "name": "read"})
    assert not is_canonical_tool_config("read")
    assert not is_canonical_tool_config({"name": "read"})
