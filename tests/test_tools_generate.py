"""Generation of the tool schemas and run-request goldens: names, ids, JCS bytes, placeholders only."""

from __future__ import annotations

import re

from turnwire.canonical import file_bytes, loads
from turnwire.generate import artifacts
from turnwire.generate import tools as generator
from turnwire.generate.schemas import DIALECT, schema_id
from turnwire.resources import data_root
from turnwire.tools import SECRET_LOCATIONS

PLACEHOLDER = re.compile(r"^(Access )?<secret:[A-Za-z0-9_.-]+>$")
NAMES = ("ToolConfig", "ToolSpec", "MCPServerConfig", "RunRequest")


def test_schema_files_have_the_agreed_names_and_ids() -> None:
    schemas = generator.schemas()
    assert sorted(schemas) == sorted(f"{name}.schema.json" for name in NAMES)
    for name in NAMES:
        schema = schemas[f"{name}.schema.json"]
        assert schema["$schema"] == DIALECT
        assert schema["$id"] == schema_id(None, name) == f"urn:turnwire:schema:{name}:v1"
        assert schema["title"] == name
        assert schema["description"].endswith(".")


def test_artifacts_are_checked_in_as_jcs() -> None:
    built = artifacts.build()
    for name in NAMES:
        rel = f"schemas/{name}.schema.json"
        assert (data_root() / rel).read_bytes() == built[rel] == file_bytes(generator.schemas()[f"{name}.schema.json"])
    goldens = {rel: data for rel, data in built.items() if rel.startswith("golden/run-request/")}
    assert sorted(goldens) == [
        "golden/run-request/claude.json",
        "golden/run-request/local-tools.json",
        "golden/run-request/pi.json",
    ]
    for rel, data in goldens.items():
        assert (data_root() / rel).read_bytes() == data
        assert data == file_bytes(loads(data))


def test_goldens_are_deterministic() -> None:
    assert generator.goldens() == generator.goldens()
    assert generator.schemas() == generator.schemas()


def _secret_values(body: dict[str, object]) -> list[str]:
    out: list[str] = []
    secrets = body.get("secrets")
    assert isinstance(secrets, dict)
    out += secrets.values()
    for key in ("toolCallback", "trace"):
        holder = body.get(key)
        if isinstance(holder, dict) and holder.get("authorization") is not None:
            out.append(holder["authorization"])
    for key in ("customTools", "mcpServers"):
        for entry in body.get(key, []):  # type: ignore[attr-defined]
            out += entry.get("env", {}).values()
    return out


def test_goldens_carry_placeholders_at_every_secret_location() -> None:
    assert len(SECRET_LOCATIONS) == 5
    seen = 0
    for slug, body in generator.run_request_wires().items():
        for value in _secret_values(body):
            if value == "info":  # the plain (non-secret) MCP env value of local-tools
                continue
            assert PLACEHOLDER.match(value), (slug, value)
            seen += 1
    assert seen >= 8


def test_catalogue_gateway_keeps_config_metadata() -> None:
    import asyncio

    from turnwire.tools import GatewayToolConfig

    config = GatewayToolConfig(
        integration="github",
        action="GET_THE_AUTHENTICATED_USER",
        connection="github-tvn",
        needs_approval=True,
        render={"x": 1},
    )
    resolution = asyncio.run(generator.CatalogueGateway().resolve([config]))
    (spec,) = resolution.tool_specs
    assert (spec.name, spec.needs_approval, spec.render) == ("get_user", True, {"x": 1})
    assert resolution.tool_callback.to_wire()["authorization"] == "Access <secret:TOOL_CALLBACK_AUTHORIZATION>"
