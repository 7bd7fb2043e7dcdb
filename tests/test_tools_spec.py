"""B.2: resolved tool specs — the `kind` union, camelCase wire, omission rules, coercion, callback."""

from __future__ import annotations

import pytest
from pydantic import SecretStr, ValidationError

from turnwire.tools import (
    CallbackToolSpec,
    ClientToolSpec,
    CodeToolSpec,
    GatewayToolResolution,
    InvalidToolSpecError,
    MissingSecretPolicy,
    ResolvedToolSet,
    ToolCallback,
    coerce_tool_spec,
)
from turnwire.tools.spec import tool_spec_adapter

EMPTY = {"type": "object", "properties": {}}


def test_kind_discriminates_the_union() -> None:
    adapter = tool_spec_adapter()
    assert type(adapter.validate_python({"kind": "client", "name": "t", "description": "t"})) is ClientToolSpec
    assert type(adapter.validate_python({"kind": "code", "name": "t", "description": "t", "code": "x"})) is CodeToolSpec
    callback = adapter.validate_python({"kind": "callback", "name": "t", "description": "t", "callRef": "r"})
    assert type(callback) is CallbackToolSpec
    with pytest.raises(ValidationError, match="union_tag_invalid"):
        adapter.validate_python({"kind": "mcp", "name": "t", "description": "t"})


def test_full_code_spec_wire() -> None:
    spec = CodeToolSpec(
        name="weather",
        description="Weather",
        input_schema={"type": "object", "properties": {"city": {"type": "string"}}},
        needs_approval=True,
        render={"component": "card"},
        runtime="node",
        code="run()",
        env={"API_KEY": SecretStr("k-1")},
    )
    assert spec.to_wire() == {
        "name": "weather",
        "description": "Weather",
        "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
        "needsApproval": True,
        "render": {"component": "card"},
        "kind": "code",
        "runtime": "node",
        "code": "run()",
        "env": {"API_KEY": "k-1"},
    }


def test_client_and_callback_wire_keep_only_what_carries_information() -> None:
    assert ClientToolSpec(name="t", description="t").to_wire() == {
        "name": "t",
        "description": "t",
        "inputSchema": EMPTY,
        "kind": "client",
    }
    callback = CallbackToolSpec(name="u", description="Get", call_ref="tools__composio__g__A__c")
    assert callback.to_wire() == {
        "name": "u",
        "description": "Get",
        "inputSchema": EMPTY,
        "kind": "callback",
        "callRef": "tools__composio__g__A__c",
    }
    assert "callRef" not in ClientToolSpec(name="t", description="t").to_wire()


def test_needs_approval_env_and_render_are_omitted_at_their_defaults() -> None:
    wire = CodeToolSpec(name="c", description="c", code="x", needs_approval=False, env={}, render=None).to_wire()
    assert set(wire) == {"name", "description", "inputSchema", "kind", "runtime", "code"}
    wire = CodeToolSpec(name="c", description="c", code="x", needs_approval=True, env={"A": SecretStr("1")}).to_wire()
    assert wire["needsApproval"] is True
    assert wire["env"] == {"A": "1"}
    assert "render" not in wire


def test_input_accepts_snake_or_camel_and_output_is_camel() -> None:
    camel = CallbackToolSpec.model_validate(
        {"name": "t", "description": "t", "inputSchema": {"type": "object"}, "needsApproval": True, "callRef": "r"}
    )
    snake = CallbackToolSpec.model_validate(
        {"name": "t", "description": "t", "input_schema": {"type": "object"}, "needs_approval": True, "call_ref": "r"}
    )
    assert camel == snake
    assert set(snake.to_wire()) == {"name", "description", "inputSchema", "needsApproval", "kind", "callRef"}


def test_specs_forbid_extra_keys_and_are_frozen() -> None:
    with pytest.raises(ValidationError, match="extra_forbidden"):
        ClientToolSpec.model_validate({"name": "t", "description": "t", "callRef": "r"})
    spec = ClientToolSpec(name="t", description="t")
    with pytest.raises(ValidationError, match="frozen"):
        spec.name = "u"  # type: ignore[misc]


def test_code_env_is_hidden_from_repr_and_plain_dumps() -> None:
    spec = CodeToolSpec(name="c", description="c", code="x", env={"TOKEN": SecretStr("s3cr3t-value")})
    assert "s3cr3t-value" not in repr(spec)
    assert "s3cr3t-value" not in str(spec)
    assert "s3cr3t-value" not in str(spec.model_dump())
    assert "s3cr3t-value" not in spec.model_dump_json()
    assert spec.to_wire()["env"] == {"TOKEN": "s3cr3t-value"}


class TestCoerceToolSpec:
    def test_instance_passes_through(self) -> None:
        spec = ClientToolSpec(name="t", description="t")
        assert coerce_tool_spec(spec) is spec

    @pytest.mark.parametrize("value", ["t", 3, None, ["name", "t"]])
    def test_non_mapping_is_rejected(self, value: object) -> None:
        with pytest.raises(InvalidToolSpecError, match="tool spec must be a mapping"):
            coerce_tool_spec(value)

    @pytest.mark.parametrize(
        ("raw", "kind"),
        [
            ({"name": "t", "callRef": "r"}, "callback"),
            ({"name": "t", "call_ref": "r"}, "callback"),
            ({"name": "t", "code": "x"}, "code"),
            ({"name": "t"}, "client"),
        ],
    )
    def test_missing_kind_is_inferred(self, raw: dict[str, object], kind: str) -> None:
        assert coerce_tool_spec(raw).kind == kind

    def test_null_code_does_not_make_a_code_spec(self) -> None:
        # Inferred as client, where `code` is an unknown key.
        with pytest.raises(InvalidToolSpecError, match="code: Extra inputs"):
            coerce_tool_spec({"name": "t", "code": None})

    def test_description_and_input_schema_default(self) -> None:
        spec = coerce_tool_spec({"name": "t"})
        assert (spec.description, spec.input_schema) == ("t", EMPTY)
        spec = coerce_tool_spec({"name": "t", "description": None})
        assert spec.description == "t"

    def test_snake_input_schema_without_kind_is_kept(self) -> None:
        # The seed added a camel default beside a snake key and then failed; turnwire keeps the snake one.
        spec = coerce_tool_spec({"name": "t", "input_schema": {"type": "object", "required": ["a"]}})
        assert spec.input_schema == {"type": "object", "required": ["a"]}

    def test_invalid_mapping_raises_without_echoing_values(self) -> None:
        with pytest.raises(InvalidToolSpecError) as info:
            coerce_tool_spec({"kind": "code", "name": "t", "env": {"A": "top-secret-value"}})
        assert "code: Field required" in str(info.value)
        assert "top-secret-value" not in str(info.value)


def test_tool_callback_wire_and_repr() -> None:
    assert ToolCallback(endpoint="https://x/cb").to_wire() == {"endpoint": "https://x/cb", "authorization": None}
    callback = ToolCallback(endpoint="https://x/cb", authorization=SecretStr("Access tok-9f8e7d"))
    assert callback.to_wire() == {"endpoint": "https://x/cb", "authorization": "Access tok-9f8e7d"}
    assert "tok-9f8e7d" not in repr(callback)
    assert "tok-9f8e7d" not in str(callback.model_dump())


def test_missing_secret_policy_values() -> None:
    assert [p.value for p in MissingSecretPolicy] == ["error", "omit"]
    assert MissingSecretPolicy("omit") is MissingSecretPolicy.OMIT


class TestResolvedToolSet:
    def test_old_names_are_read(self) -> None:
        resolved = ResolvedToolSet.model_validate(
            {"builtin_tools": ["read"], "custom_tools": [{"name": "t", "callRef": "r"}]}
        )
        assert resolved.builtin_names == ["read"]
        assert isinstance(resolved.tool_specs[0], CallbackToolSpec)  # coerced: kind inferred
        assert resolved.builtin_tools == ["read"]
        assert resolved.custom_tools == [
            {"name": "t", "description": "t", "inputSchema": EMPTY, "kind": "callback", "callRef": "r"}
        ]

    def test_old_names_are_never_written(self) -> None:
        resolved = ResolvedToolSet.model_validate({"builtin_tools": ["read"], "custom_tools": []})
        for dumped in (resolved.model_dump(), resolved.model_dump(by_alias=True)):
            assert set(dumped) == {"builtin_names", "tool_specs", "tool_callback"}
        assert "builtin_tools" not in resolved.model_dump_json(by_alias=True)

    def test_bad_spec_items_raise_typed_errors(self) -> None:
        with pytest.raises(InvalidToolSpecError):
            ResolvedToolSet.model_validate({"custom_tools": ["not-a-spec"]})


def test_gateway_resolution_requires_the_callback() -> None:
    with pytest.raises(ValidationError, match="tool_callback"):
        GatewayToolResolution.model_validate({"tool_specs": []})
    resolution = GatewayToolResolution(tool_callback=ToolCallback(endpoint="e"))
    assert resolution.tool_specs == []
