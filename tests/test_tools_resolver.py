"""B.3: the offline resolver — one batched secret request, env scoped per tool, policies, ports, duplicates."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence

import pytest

from turnwire.tools import (
    BuiltinToolConfig,
    CallbackToolSpec,
    ClientToolSpec,
    CodeToolSpec,
    DuplicateToolNameError,
    EnvironmentSecretProvider,
    GatewayResolver,
    GatewayToolConfig,
    GatewayToolResolution,
    GatewayToolResolutionError,
    MappingSecretProvider,
    MissingSecretPolicy,
    MissingToolSecretError,
    ResolvedToolSet,
    SecretProvider,
    SecretProviderError,
    ToolCallback,
    ToolConfigurationError,
    ToolResolver,
    UnsupportedToolProviderError,
)

GATEWAY = {"type": "gateway", "integration": "github", "action": "GET_USER", "connection": "c1"}


class RecordingProvider:
    """A secret provider that remembers every request."""

    def __init__(self, values: Mapping[str, str]) -> None:
        self.values = dict(values)
        self.calls: list[list[str]] = []

    async def get_many(self, names: Sequence[str]) -> Mapping[str, str]:
        self.calls.append(list(names))
        return {n: self.values[n] for n in names if n in self.values}


class RecordingGateway:
    """A gateway resolver that turns each config into a callback spec named after it (or `name`)."""

    def __init__(self) -> None:
        self.received: list[GatewayToolConfig] = []

    async def resolve(self, tools: Sequence[GatewayToolConfig]) -> GatewayToolResolution:
        self.received.extend(tools)
        specs = [
            CallbackToolSpec(
                name=t.name or t.action.lower(),
                description=t.action,
                call_ref=t.slug,
                needs_approval=t.needs_approval,
                render=t.render,
            )
            for t in tools
        ]
        return GatewayToolResolution(tool_specs=specs, tool_callback=ToolCallback(endpoint="https://gw/cb"))


def resolve(configs: object, **kwargs: object) -> ResolvedToolSet:
    return asyncio.run(ToolResolver(**kwargs).resolve(configs))  # type: ignore[arg-type]


def code(name: str, *secrets: str, **extra: object) -> dict[str, object]:
    return {"type": "code", "name": name, "script": f"run_{name}()", "secrets": list(secrets), **extra}


def test_ports_are_protocols() -> None:
    assert isinstance(EnvironmentSecretProvider(), SecretProvider)
    assert isinstance(MappingSecretProvider({}), SecretProvider)
    assert isinstance(RecordingGateway(), GatewayResolver)


def test_builtin_names_in_order() -> None:
    resolved = resolve(["read", {"type": "builtin", "name": "write"}, {"name": "bash"}])
    assert resolved.builtin_names == ["read", "write", "bash"]
    assert resolved.tool_specs == []
    assert resolved.tool_callback is None


def test_one_batched_sorted_secret_request() -> None:
    provider = RecordingProvider({"A": "value-a", "B": "value-b"})
    resolve([code("second", "B", "A"), code("first", "A")], secret_provider=provider)
    assert provider.calls == [["A", "B"]]


def test_no_secret_request_without_declared_secrets() -> None:
    provider = RecordingProvider({})
    resolve(["read", code("c"), {"type": "client", "name": "x"}], secret_provider=provider)
    assert provider.calls == []


def test_env_is_scoped_per_tool() -> None:
    provider = RecordingProvider({"A": "value-a", "B": "value-b"})
    resolved = resolve([code("one", "A"), code("two", "B")], secret_provider=provider)
    one, two = resolved.tool_specs
    assert isinstance(one, CodeToolSpec)
    assert isinstance(two, CodeToolSpec)
    assert one.to_wire()["env"] == {"A": "value-a"}
    assert two.to_wire()["env"] == {"B": "value-b"}


def test_code_spec_fields_come_from_the_config() -> None:
    resolved = resolve(
        [
            code(
                "weather",
                runtime="node",
                description="Weather",
                input_schema={"type": "object", "required": ["city"]},
                needs_approval=True,
                render={"c": 1},
            )
        ]
    )
    (spec,) = resolved.tool_specs
    assert spec.to_wire() == {
        "name": "weather",
        "description": "Weather",
        "inputSchema": {"type": "object", "required": ["city"]},
        "needsApproval": True,
        "render": {"c": 1},
        "kind": "code",
        "runtime": "node",
        "code": "run_weather()",
    }


def test_client_configs_become_client_specs_and_description_defaults_to_name() -> None:
    resolved = resolve([{"type": "client", "name": "pick", "needs_approval": True}])
    (spec,) = resolved.tool_specs
    assert isinstance(spec, ClientToolSpec)
    assert (spec.kind, spec.description, spec.needs_approval) == ("client", "pick", True)


def test_missing_secret_error_policy() -> None:
    provider = RecordingProvider({"A": "value-a"})
    with pytest.raises(MissingToolSecretError) as info:
        resolve([code("fetch", "A", "TOKEN", "TOKEN")], secret_provider=provider)
    assert info.value.secret_names == ("TOKEN",)
    assert info.value.tool_name == "fetch"


def test_missing_secret_omit_policy() -> None:
    resolved = resolve(
        [code("fetch", "TOKEN")],
        secret_provider=RecordingProvider({}),
        missing_secret_policy=MissingSecretPolicy.OMIT,
    )
    (spec,) = resolved.tool_specs
    assert isinstance(spec, CodeToolSpec)
    assert spec.env == {}
    assert "env" not in spec.to_wire()


def test_environment_is_the_default_provider(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TW_TEST_SECRET", "from-the-env")
    monkeypatch.delenv("TW_TEST_ABSENT", raising=False)
    found = asyncio.run(EnvironmentSecretProvider().get_many(["TW_TEST_SECRET", "TW_TEST_ABSENT"]))
    assert found == {"TW_TEST_SECRET": "from-the-env"}
    resolved = resolve([code("c", "TW_TEST_SECRET")])
    assert resolved.tool_specs[0].to_wire()["env"] == {"TW_TEST_SECRET": "from-the-env"}
    assert asyncio.run(EnvironmentSecretProvider({"X": "1"}).get_many(["X", "Y"])) == {"X": "1"}


def test_gateway_without_a_resolver_is_unsupported() -> None:
    with pytest.raises(UnsupportedToolProviderError, match="Unsupported tool provider: composio") as info:
        resolve([GATEWAY])
    assert info.value.provider == "composio"


def test_gateway_specs_come_first_and_metadata_survives() -> None:
    gateway = RecordingGateway()
    resolved = resolve(
        [{"type": "client", "name": "pick"}, {**GATEWAY, "needs_approval": True, "render": {"x": 1}}, "read"],
        gateway_resolver=gateway,
    )
    assert gateway.received == [
        GatewayToolConfig(
            integration="github", action="GET_USER", connection="c1", needs_approval=True, render={"x": 1}
        )
    ]
    assert [s.name for s in resolved.tool_specs] == ["get_user", "pick"]
    first = resolved.tool_specs[0]
    assert isinstance(first, CallbackToolSpec)
    assert (first.call_ref, first.needs_approval, first.render) == (
        "tools__composio__github__GET_USER__c1",
        True,
        {"x": 1},
    )
    assert resolved.tool_callback == ToolCallback(endpoint="https://gw/cb")
    assert resolved.builtin_names == ["read"]


def test_legacy_slug_resolves_through_the_gateway() -> None:
    resolved = resolve(
        [{"type": "function", "function": {"name": "tools__composio__github__GET_USER__c1"}}],
        gateway_resolver=RecordingGateway(),
    )
    assert [s.kind for s in resolved.tool_specs] == ["callback"]


@pytest.mark.parametrize(
    ("configs", "name"),
    [
        (["read", "read"], "read"),
        (["read", {"type": "client", "name": "read"}], "read"),
        ([{"type": "client", "name": "x"}, {"type": "client", "name": "x"}], "x"),
        ([code("get_user"), GATEWAY], "get_user"),
    ],
)
def test_duplicate_names_are_rejected(configs: list[object], name: str) -> None:
    with pytest.raises(DuplicateToolNameError) as info:
        resolve(configs, gateway_resolver=RecordingGateway())
    assert info.value.name == name


def test_bad_configs_raise_configuration_errors_with_index() -> None:
    with pytest.raises(ToolConfigurationError) as info:
        resolve(["read", 3])
    assert info.value.index == 1


class Exploding:
    async def get_many(self, names: Sequence[str]) -> Mapping[str, str]:
        raise RuntimeError("vault down; token=abc123-secret")

    async def resolve(self, tools: Sequence[GatewayToolConfig]) -> GatewayToolResolution:
        raise ConnectionError("gateway unreachable")


class Wrong:
    async def get_many(self, names: Sequence[str]) -> Mapping[str, str]:
        return {n: 5 for n in names}  # type: ignore[misc]

    async def resolve(self, tools: Sequence[GatewayToolConfig]) -> GatewayToolResolution:
        return {"tool_specs": []}  # type: ignore[return-value]


def test_failing_ports_become_typed_errors() -> None:
    with pytest.raises(SecretProviderError, match=r"secret provider failed \(RuntimeError\)") as info:
        resolve([code("c", "A")], secret_provider=Exploding())
    assert "abc123-secret" not in str(info.value)
    with pytest.raises(SecretProviderError, match="non-string value for A"):
        resolve([code("c", "A")], secret_provider=Wrong())
    with pytest.raises(GatewayToolResolutionError, match="ConnectionError"):
        resolve([GATEWAY], gateway_resolver=Exploding())
    with pytest.raises(GatewayToolResolutionError, match="not a GatewayToolResolution"):
        resolve([GATEWAY], gateway_resolver=Wrong())


def test_resolver_repr_names_no_secret() -> None:
    resolver = ToolResolver(secret_provider=MappingSecretProvider({"A": "value-in-provider"}))
    assert "value-in-provider" not in repr(resolver)
    assert resolver.missing_secret_policy is MissingSecretPolicy.ERROR


def test_canonical_instances_resolve() -> None:
    resolved = resolve([BuiltinToolConfig(name="read")])
    assert resolved.builtin_names == ["read"]
