"""Properties: resolution either succeeds or raises a typed tool error, and secrets never leak."""

from __future__ import annotations

import asyncio
import os
import string
from collections.abc import Mapping, Sequence
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, SecretStr

from strategies import json_values
from turnwire.generate import tools as generator
from turnwire.tools import (
    CallbackToolSpec,
    CodeToolSpec,
    DuplicateToolNameError,
    GatewayToolConfig,
    GatewayToolResolution,
    InvalidToolSpecError,
    MappingSecretProvider,
    MCPResolver,
    MissingMCPSecretError,
    MissingSecretPolicy,
    MissingToolSecretError,
    ResolvedToolSet,
    RunTrace,
    SessionConfig,
    ToolCallback,
    ToolError,
    ToolResolver,
    check_run_request,
    check_tool_configs,
    coerce_tool_spec,
)
from turnwire.tools.spec import tool_spec_adapter

NAMES = st.sampled_from(["read", "write", "bash", "get_user", "weather", "x", ""])
SECRET_NAMES = st.sampled_from(["A", "B", "TOKEN", "KEY"])
SCHEMAS = st.sampled_from([{"type": "object", "properties": {}}, {"type": "object", "required": ["q"]}, {}])


class NamingGateway:
    """Resolves each gateway config to a callback spec named like the config (or its action)."""

    async def resolve(self, tools: Sequence[GatewayToolConfig]) -> GatewayToolResolution:
        specs = [
            CallbackToolSpec(
                name=t.name or t.action, description=t.action, call_ref=t.slug, needs_approval=t.needs_approval
            )
            for t in tools
        ]
        return GatewayToolResolution(tool_specs=specs, tool_callback=ToolCallback(endpoint="https://gw"))


canonical = st.one_of(
    st.builds(lambda n: {"type": "builtin", "name": n}, NAMES),
    st.builds(
        lambda i, a, c, n: {"type": "gateway", "integration": i, "action": a, "connection": c, "name": n},
        st.sampled_from(["github", ""]),
        st.sampled_from(["GET_USER", "LIST"]),
        st.sampled_from(["c1", "c2"]),
        st.one_of(st.none(), NAMES),
    ),
    st.builds(
        lambda n, s, r, sch, ap: {
            "type": "code",
            "name": n,
            "script": "run()",
            "secrets": s,
            "runtime": r,
            "input_schema": sch,
            "needs_approval": ap,
        },
        NAMES,
        st.lists(SECRET_NAMES, max_size=3),
        st.sampled_from(["python", "node", "ruby"]),
        SCHEMAS,
        st.booleans(),
    ),
    st.builds(lambda n, sch: {"type": "client", "name": n, "input_schema": sch}, NAMES, SCHEMAS),
)
legacy = st.one_of(
    NAMES,
    st.builds(lambda n: {"name": n}, NAMES),
    st.builds(
        lambda a, c: {"type": "composio", "integration": "github", "action": a, "connection": c},
        st.sampled_from(["GET_USER", ""]),
        st.sampled_from(["c1", "c2"]),
    ),
    st.builds(
        lambda slug, ap, render: {
            "type": "function",
            "function": {"name": slug},
            "needs_approval": ap,
            "render": render,
        },
        st.sampled_from(["tools__composio__github__GET_USER__c1", "tools.p.i.a.c", "tools__x__y", "get_weather"]),
        json_values,
        json_values,
    ),
)
junk = st.one_of(
    json_values,
    st.dictionaries(st.sampled_from(["type", "name", "kind", "function", "inputSchema", "secrets"]), json_values),
)
tool_items = st.one_of(canonical, legacy, junk, st.none())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    configs=st.one_of(st.lists(tool_items, max_size=6), json_values),
    found=st.dictionaries(SECRET_NAMES, st.text(min_size=1, max_size=5)),
    policy=st.sampled_from(list(MissingSecretPolicy)),
    with_gateway=st.booleans(),
)
def test_random_configs_resolve_or_raise_a_typed_tool_error(
    configs: Any, found: dict[str, str], policy: MissingSecretPolicy, with_gateway: bool
) -> None:
    resolver = ToolResolver(
        secret_provider=MappingSecretProvider(found),
        gateway_resolver=NamingGateway() if with_gateway else None,
        missing_secret_policy=policy,
    )
    try:
        resolved = asyncio.run(resolver.resolve(configs))
    except ToolError:
        return  # typed: fine. Anything else propagates and fails the test.
    assert isinstance(resolved, ResolvedToolSet)
    names = resolved.names()
    assert len(names) == len(set(names))
    for spec in resolved.tool_specs:
        if isinstance(spec, CodeToolSpec):
            assert set(spec.env) <= set(found)
            assert all(spec.env[k].get_secret_value() == found[k] for k in spec.env)
    # The stored-config check agrees: a list that resolves breaks nothing but the legacy-shape advice.
    assert {f.requirement for f in check_tool_configs(configs)} <= {"TOOL-CONFIG-LEGACY"}


secrets = st.text(alphabet=string.ascii_letters + string.digits + "-_.~+/", min_size=16, max_size=40)


def _all_text(*objects: object) -> str:
    parts: list[str] = []
    for obj in objects:
        parts += [repr(obj), str(obj)]
        if isinstance(obj, BaseModel):
            parts += [str(obj.model_dump()), obj.model_dump_json(), str(obj.model_dump(by_alias=True))]
    return "\n".join(parts)


@settings(max_examples=60, deadline=None)
@given(secret=secrets)
def test_a_random_secret_never_appears_outside_the_wire(secret: str) -> None:
    provider = MappingSecretProvider({"TOKEN": secret, "gh": secret})
    configs = [
        "read",
        {"type": "code", "name": "fetch", "script": "go()", "secrets": ["TOKEN"]},
        {"type": "client", "name": "pick"},
    ]
    resolved = asyncio.run(ToolResolver(secret_provider=provider).resolve(configs))
    servers = asyncio.run(
        MCPResolver(secret_provider=provider).resolve([{"name": "gh", "command": "npx", "secrets": {"T": "gh"}}])
    )
    trace = RunTrace(
        traceparent=None, baggage=None, endpoint="e", authorization=SecretStr(secret), capture_content=True
    )
    session = SessionConfig.from_resolved(
        resolved.model_copy(update={"tool_callback": ToolCallback(endpoint="cb", authorization=SecretStr(secret))}),
        mcp_servers=servers,
        secrets={"API": secret},
        trace=trace,
    )
    request = session.to_run_request(backend="b", harness="h", sandbox="s", model="m", messages=[])
    text = _all_text(resolved, *resolved.tool_specs, *servers, trace, session, request, provider)
    assert secret not in text

    wire = request.to_wire()
    assert wire["secrets"]["API"] == secret  # the wire does carry it, where the contract puts it
    assert wire["customTools"][0]["env"] == {"TOKEN": secret}
    assert check_run_request(wire) == []

    # Errors raised after the secrets were fetched name no value.
    errors: list[Exception] = []
    for bad in (
        [*configs, {"type": "code", "name": "other", "script": "x", "secrets": ["TOKEN", "MISSING"]}],
        [*configs, {"type": "code", "name": "fetch", "script": "x", "secrets": ["TOKEN"]}],
    ):
        with pytest.raises((MissingToolSecretError, DuplicateToolNameError)) as info:
            asyncio.run(ToolResolver(secret_provider=provider).resolve(bad))
        errors.append(info.value)
    with pytest.raises(MissingMCPSecretError) as mcp_info:
        asyncio.run(
            MCPResolver(secret_provider=provider).resolve([{"name": "x", "command": "c", "secrets": {"A": "no"}}])
        )
    errors.append(mcp_info.value)
    with pytest.raises(InvalidToolSpecError) as spec_info:
        coerce_tool_spec({"kind": "code", "name": "c", "env": {"A": secret}, "bogus": secret})
    errors.append(spec_info.value)
    for error in errors:
        assert secret not in f"{error!s} {error!r} {error.args!r}"

    # Findings about a leaking, broken body name no value either.
    leaky = dict(wire)
    leaky["messages"] = [{"role": "user", "content": f"here: {secret}"}]
    leaky["customTools"] = [*wire["customTools"], {"name": secret, "kind": "code", "env": {"X": secret}}]
    leaky["sessionId"] = 12
    findings = check_run_request(leaky)
    assert {"RUN-SECRET-PLACEMENT", "TOOL-SPEC-SCHEMA", "RUN-SCHEMA"} <= {f.requirement for f in findings}
    for finding in findings:
        assert secret not in f"{finding!s} {finding!r} {finding.model_dump_json()}"


@settings(max_examples=15, deadline=None)
@given(secret=secrets)
def test_goldens_never_pick_up_a_secret_from_the_environment(secret: str) -> None:
    clean = generator.goldens()
    assume(all(secret.encode() not in data for data in clean.values()))  # e.g. a model name is not a leak
    env = {name: secret for name in generator.SECRET_NAMES}
    with mock.patch.dict(os.environ, env):
        built = generator.goldens()
    assert built == clean
    for data in built.values():
        assert secret.encode() not in data


specs = st.one_of(
    st.builds(
        CallbackToolSpec,
        name=st.text(min_size=1, max_size=5),
        description=st.text(max_size=5),
        call_ref=st.text(min_size=1, max_size=8),
        needs_approval=st.booleans(),
        render=st.one_of(st.none(), st.dictionaries(st.text(max_size=3), json_values, max_size=2)),
    ),
    st.builds(
        CodeToolSpec,
        name=st.text(min_size=1, max_size=5),
        description=st.text(max_size=5),
        code=st.text(max_size=8),
        runtime=st.sampled_from(["python", "node"]),
        env=st.dictionaries(st.text(max_size=3), st.builds(SecretStr, st.text(max_size=5)), max_size=2),
        input_schema=st.dictionaries(st.text(max_size=3), json_values, max_size=2),
    ),
)


@settings(max_examples=200, deadline=None)
@given(spec=specs)
def test_spec_wire_round_trips(spec: Any) -> None:
    wire = spec.to_wire()
    assert coerce_tool_spec(wire) == spec
    assert tool_spec_adapter().validate_python(wire).to_wire() == wire
    assert ("needsApproval" in wire) == spec.needs_approval
    assert ("render" in wire) == (spec.render is not None)
    assert ("env" in wire) == bool(getattr(spec, "env", None))


def test_mapping_provider_is_a_plain_mapping_view() -> None:
    provider = MappingSecretProvider({"A": "1"})
    found: Mapping[str, str] = asyncio.run(provider.get_many(["A", "B"]))
    assert found == {"A": "1"}
