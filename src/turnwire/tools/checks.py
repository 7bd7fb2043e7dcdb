"""Checks: judging what a target produced — a `/run` body, stored tool and MCP configs — as findings.

The resolver raises, because it is a library building specs; these functions judge someone else's
output, so they never raise on bad input and return `Finding`s with a registered requirement id, what
was expected, what was received and the JSON path. Each one is a plain function over the value.

Findings never quote a secret. Values under a secret location (`SECRET_LOCATIONS`) are never excerpted,
and every finding passes through a `Redactor` that knows the secrets of the body itself (the values
under those locations) plus any the caller names — the values a harness configured for its target.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Final

from pydantic import BaseModel, SecretStr, ValidationError
from pydantic_core import ErrorDetails

from turnwire.findings import Finding, excerpt, json_path, value_at
from turnwire.tools.compat import coerce_tool_config, is_canonical_tool_config
from turnwire.tools.errors import ToolConfigurationError
from turnwire.tools.mcp import MCPServerConfig, ResolvedMCPServer
from turnwire.tools.run_request import (
    ALWAYS_SENT_KEYS,
    KNOWN_REQUEST_KEYS,
    NULL_WHEN_ABSENT_KEYS,
    SECRET_LOCATIONS,
    RunRequest,
)
from turnwire.tools.secrets import REDACTED, Redactor
from turnwire.tools.spec import SNAKE_TO_WIRE, TOOL_SPEC_KINDS

__all__ = [
    "MIN_DISCOVERED_SECRET_LENGTH",
    "check_mcp_server_configs",
    "check_run_request",
    "check_secret_placement",
    "check_tool_configs",
    "run_request_redactor",
]

Path = tuple[str | int, ...]

MIN_DISCOVERED_SECRET_LENGTH: Final = 6
"""Values found under a secret location shorter than this are not hunted for elsewhere in the body.

A three-letter "secret" would turn up inside ordinary words; secrets the caller names explicitly are
searched for whatever their length.
"""

_EMPTY_MCP_FIELDS: Final = ("command", "args", "env", "url", "tools")


# ---- helpers -------------------------------------------------------------------------------------------
def _is_secret_location(path: Path) -> bool:
    """True for a path at or under one of `SECRET_LOCATIONS` (`$.secrets` itself included)."""
    n = len(path)
    if n >= 1 and path[0] == "secrets":
        return True
    if n >= 3 and path[0] in ("customTools", "mcpServers") and isinstance(path[1], int) and path[2] == "env":
        return True
    return n >= 2 and path[0] in ("toolCallback", "trace") and path[1] == "authorization"


def _masked(value: object, path: Path) -> object:
    """A copy of `value` (found at `path` of the body) with every secret location replaced by the mask."""
    if _is_secret_location(path):
        return REDACTED
    if isinstance(value, Mapping):
        return {k: _masked(v, (*path, str(k))) for k, v in value.items()}
    if isinstance(value, list):
        return [_masked(v, (*path, i)) for i, v in enumerate(value)]
    return value


def _excerpt(value: object, path: Path = (), limit: int = 120) -> str:
    """A short JSON rendering of `value` found at `path`, its secret locations masked."""
    if _is_secret_location(path):
        return REDACTED
    return excerpt(_masked(value, path), limit)


def _errors(model: type[BaseModel], data: object, *, by_name: bool = True) -> list[ErrorDetails]:
    try:
        model.model_validate(data, by_name=by_name)
    except ValidationError as exc:
        return exc.errors(include_input=False, include_url=False, include_context=False)
    return []


def _walk_strings(value: object, path: Path = ()) -> Iterator[tuple[Path, str, bool]]:
    """Every string in a JSON value: (path, text, is_key)."""
    if isinstance(value, str):
        yield path, value, False
    elif isinstance(value, Mapping):
        for k, v in value.items():
            if isinstance(k, str):
                yield (*path, k), k, True
            yield from _walk_strings(v, (*path, str(k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk_strings(v, (*path, i))


def run_request_redactor(body: object, secrets: Iterable[str | SecretStr] = ()) -> Redactor:
    """A redactor for findings about `body`: the caller's `secrets` and the body's own secret values."""
    found: list[str | SecretStr] = list(secrets)
    for path, text, is_key in _walk_strings(body):
        if not is_key and _is_secret_location(path) and len(text) >= MIN_DISCOVERED_SECRET_LENGTH:
            found.append(text)
    return Redactor(found)


# ---- the /run request ----------------------------------------------------------------------------------
def _camel(key: str) -> str:
    head, *rest = key.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _top_level_keys(body: Mapping[str, Any]) -> list[Finding]:
    out: list[Finding] = []
    for key in body:
        if key in KNOWN_REQUEST_KEYS:
            continue
        hint = f"; the wire spells it {_camel(key)}" if _camel(key) in KNOWN_REQUEST_KEYS else ""
        out.append(
            Finding.of(
                "RUN-UNKNOWN-KEY",
                f"the /run body has a key the contract does not know: {key}{hint}",
                expected="only " + ", ".join(sorted(KNOWN_REQUEST_KEYS)),
                received=key,
                json_path=json_path([key]),
            )
        )
    for key in ALWAYS_SENT_KEYS:
        if key in body:
            continue
        why = " (null when there is none, never left out)" if key in NULL_WHEN_ABSENT_KEYS else ""
        out.append(
            Finding.of(
                "RUN-MISSING-KEY",
                f"the /run body lacks {key}, which every request carries{why}",
                expected=f"{key} present",
                received="absent",
                json_path="$",
            )
        )
    for key in ("systemPrompt", "appendSystemPrompt", "skills"):
        if key in body and body[key] is None:
            out.append(
                Finding.of(
                    "RUN-OMIT-EMPTY",
                    f"{key} is sent as null; it is sent only when set",
                    expected=f"{key} omitted",
                    received="null",
                    json_path=json_path([key]),
                )
            )
    if body.get("mcpServers") == []:
        out.append(
            Finding.of(
                "RUN-OMIT-EMPTY",
                "mcpServers is sent empty; it is sent only when there is a server",
                expected="mcpServers omitted",
                received="[]",
                json_path="$.mcpServers",
            )
        )
    return out


def _top_level_values(body: Mapping[str, Any]) -> list[Finding]:
    data = {k: v for k, v in body.items() if k in KNOWN_REQUEST_KEYS}
    if isinstance(data.get("customTools"), list):
        data["customTools"] = []  # judged one by one, with their own requirement ids
    data.pop("mcpServers", None)  # judged entry by entry (and its type) in check_run_request
    out: list[Finding] = []
    for error in _errors(RunRequest, data, by_name=False):
        loc: Path = tuple(error["loc"])
        if error["type"] == "missing" and len(loc) == 1:
            continue  # RUN-MISSING-KEY
        out.append(
            Finding.of(
                "RUN-SCHEMA",
                f"{error['msg']}",
                received=_excerpt(value_at(body, loc), loc),
                json_path=json_path(loc),
            )
        )
    return out


def _custom_tool(item: object, base: Path) -> list[Finding]:
    if not isinstance(item, Mapping):
        return [
            Finding.of(
                "TOOL-SPEC-SCHEMA",
                "a tool spec is a JSON object",
                expected="object",
                received=_excerpt(item, base),
                json_path=json_path(base),
            )
        ]
    out: list[Finding] = []
    data: dict[Any, Any] = dict(item)
    for snake, camel in SNAKE_TO_WIRE.items():
        if snake in item:
            out.append(
                Finding.of(
                    "TOOL-SPEC-SCHEMA",
                    f"tool spec key {snake} is snake_case; the wire spells it {camel}",
                    expected=camel,
                    received=snake,
                    json_path=json_path((*base, snake)),
                )
            )
            value = data.pop(snake)
            data.setdefault(camel, value)
    kind = item.get("kind")
    if not isinstance(kind, str) or kind not in TOOL_SPEC_KINDS:
        message = "tool spec has no kind" if "kind" not in item else "tool spec has an unknown kind"
        out.append(
            Finding.of(
                "TOOL-SPEC-KIND",
                f"{message}; runners pick the executor from kind",
                expected="kind: " + " | ".join(TOOL_SPEC_KINDS),
                received="absent" if "kind" not in item else _excerpt(kind),
                json_path=json_path((*base, "kind")),
            )
        )
        return out
    for error in _errors(TOOL_SPEC_KINDS[kind], data):
        loc: Path = (*base, *error["loc"])
        out.append(
            Finding.of(
                "TOOL-SPEC-SCHEMA",
                f"{kind} tool spec: {error['msg']}",
                received=_excerpt(value_at(item, tuple(error["loc"])), loc),
                json_path=json_path(loc),
            )
        )
    for key, default in (("needsApproval", False), ("env", {}), ("render", None)):
        if key in item and item[key] == default and type(item[key]) is type(default):
            out.append(
                Finding.of(
                    "TOOL-SPEC-WIRE-FORM",
                    f"tool spec sends {key} with its default; it is written only when it carries information",
                    expected=f"{key} omitted",
                    received=_excerpt(item[key], (*base, key)),
                    json_path=json_path((*base, key)),
                )
            )
    return out


def _mcp_server(item: object, base: Path) -> list[Finding]:
    if not isinstance(item, Mapping):
        return [
            Finding.of(
                "MCP-SERVER-SCHEMA",
                "an MCP server entry is a JSON object",
                expected="object",
                received=_excerpt(item, base),
                json_path=json_path(base),
            )
        ]
    out: list[Finding] = []
    for error in _errors(ResolvedMCPServer, item):
        loc: Path = (*base, *error["loc"])
        out.append(
            Finding.of(
                "MCP-SERVER-SCHEMA",
                f"MCP server entry: {error['msg']}",
                received=_excerpt(value_at(item, tuple(error["loc"])), loc),
                json_path=json_path(loc),
            )
        )
    for key in _EMPTY_MCP_FIELDS:
        if key in item and item[key] in (None, [], {}):
            out.append(
                Finding.of(
                    "MCP-EMPTY-FIELD",
                    f"MCP server entry sends an empty {key}; empty fields are omitted",
                    expected=f"{key} omitted",
                    received=_excerpt(item[key], (*base, key)),
                    json_path=json_path((*base, key)),
                )
            )
    return out


def _duplicates(named: Iterable[tuple[str, Path]], what: str) -> list[Finding]:
    seen: dict[str, Path] = {}
    reported: set[str] = set()
    out: list[Finding] = []
    for name, path in named:
        if name in seen and name not in reported:
            reported.add(name)
            out.append(
                Finding.of(
                    "TOOL-DUPLICATE-NAME",
                    f"two {what} share the model-visible name {name!r} (first at {json_path(seen[name])})",
                    expected="unique tool names",
                    received=name,
                    json_path=json_path(path),
                )
            )
        seen.setdefault(name, path)
    return out


def _request_names(body: Mapping[str, Any]) -> Iterator[tuple[str, Path]]:
    tools = body.get("tools")
    if isinstance(tools, list):
        for i, name in enumerate(tools):
            if isinstance(name, str):
                yield name, ("tools", i)
    specs = body.get("customTools")
    if isinstance(specs, list):
        for i, spec in enumerate(specs):
            if isinstance(spec, Mapping) and isinstance(spec.get("name"), str):
                yield spec["name"], ("customTools", i, "name")


def check_secret_placement(body: object, secrets: Iterable[str | SecretStr] = ()) -> list[Finding]:
    """RUN-SECRET-PLACEMENT: secret values appear only under `SECRET_LOCATIONS`.

    The secrets hunted for are the caller's `secrets` and the body's own values under those locations
    (at least `MIN_DISCOVERED_SECRET_LENGTH` long). A string anywhere else that contains one — a
    message, a prompt, a header-like field, an object key — is a finding at that path.
    """
    redactor = run_request_redactor(body, secrets)
    if not redactor:
        return []
    out: list[Finding] = []
    for path, text, is_key in _walk_strings(body):
        if not is_key and _is_secret_location(path):
            continue
        if any(value in text for value in redactor.values):
            where = "an object key" if is_key else "a value"
            out.append(
                Finding.of(
                    "RUN-SECRET-PLACEMENT",
                    f"a secret appears in {where} outside the places secrets belong",
                    expected="secrets only at " + ", ".join(SECRET_LOCATIONS),
                    received=redactor.text(_excerpt(text)),
                    json_path=json_path(path),
                )
            )
    return redactor.findings(out)


def check_run_request(body: object, *, secrets: Iterable[str | SecretStr] = ()) -> list[Finding]:
    """Every finding about a `/run` request body (parsed JSON), in a stable order.

    Top-level keys (RUN-UNKNOWN-KEY, RUN-MISSING-KEY, RUN-OMIT-EMPTY), their values (RUN-SCHEMA),
    each custom tool (TOOL-SPEC-KIND, TOOL-SPEC-SCHEMA, TOOL-SPEC-WIRE-FORM), each MCP server
    (MCP-SERVER-SCHEMA, MCP-EMPTY-FIELD), unique tool names (TOOL-DUPLICATE-NAME) and where secrets
    appear (RUN-SECRET-PLACEMENT). `secrets` are values the target was given, also hunted for.
    """
    secrets = list(secrets)
    if not isinstance(body, Mapping):
        finding = Finding.of(
            "RUN-SCHEMA",
            "the /run body is not a JSON object",
            expected="object",
            received=type(body).__name__,
            json_path="$",
        )
        return [finding]
    out = _top_level_keys(body) + _top_level_values(body)
    specs = body.get("customTools")
    if isinstance(specs, list):
        for i, item in enumerate(specs):
            out += _custom_tool(item, ("customTools", i))
    servers = body.get("mcpServers")
    if isinstance(servers, list):
        for i, item in enumerate(servers):
            out += _mcp_server(item, ("mcpServers", i))
    elif "mcpServers" in body:
        out.append(
            Finding.of(
                "RUN-SCHEMA",
                "mcpServers is a list of MCP server entries",
                expected="array",
                received=_excerpt(servers, ("mcpServers",)),
                json_path="$.mcpServers",
            )
        )
    out += _duplicates(_request_names(body), "tools")
    out += check_secret_placement(body, secrets)
    return run_request_redactor(body, secrets).findings(out)


# ---- stored configs ------------------------------------------------------------------------------------
def check_tool_configs(values: object, *, path: Path = ()) -> list[Finding]:
    """Stored tool configs: canonical (TOOL-CONFIG-LEGACY if only a legacy shape), loadable
    (TOOL-CONFIG-SCHEMA), and with unique names (TOOL-DUPLICATE-NAME). `path` locates the list."""
    if values is None:
        return []
    if not isinstance(values, list):
        return [
            Finding.of(
                "TOOL-CONFIG-SCHEMA",
                "stored tool configurations are a list",
                expected="array",
                received=_excerpt(values),
                json_path=json_path(path),
            )
        ]
    out: list[Finding] = []
    named: list[tuple[str, Path]] = []
    for i, value in enumerate(values):
        where: Path = (*path, i)
        if value is None:
            out.append(
                Finding.of(
                    "TOOL-CONFIG-SCHEMA",
                    "a stored tool configuration is null",
                    expected="a tool configuration",
                    received="null",
                    json_path=json_path(where),
                )
            )
            continue
        try:
            config = coerce_tool_config(value)
        except ToolConfigurationError as exc:
            out.append(
                Finding.of(
                    "TOOL-CONFIG-SCHEMA",
                    exc.message,
                    expected="a tool configuration of type " + " | ".join(("builtin", "gateway", "code", "client")),
                    received=_excerpt(value),
                    json_path=json_path(where),
                )
            )
            continue
        if not is_canonical_tool_config(value):
            out.append(
                Finding.of(
                    "TOOL-CONFIG-LEGACY",
                    f"a stored tool configuration has a legacy shape; it loads as a {config.type} config",
                    expected=_excerpt(config.model_dump(mode="json"), limit=400),
                    received=_excerpt(value),
                    json_path=json_path(where),
                )
            )
        name = config.name
        if name:
            named.append((name, where))
    out += _duplicates(named, "stored tools")
    return out


def check_mcp_server_configs(values: object, *, path: Path = ()) -> list[Finding]:
    """Stored MCP server configs (MCP-CONFIG-SCHEMA): snake_case, known keys, address per transport."""
    if values is None:
        return []
    if not isinstance(values, list):
        return [
            Finding.of(
                "MCP-CONFIG-SCHEMA",
                "stored MCP server configurations are a list",
                expected="array",
                received=_excerpt(values),
                json_path=json_path(path),
            )
        ]
    out: list[Finding] = []
    for i, value in enumerate(values):
        for error in _errors(MCPServerConfig, value):
            loc = tuple(error["loc"])
            out.append(
                Finding.of(
                    "MCP-CONFIG-SCHEMA",
                    f"stored MCP server: {error['msg']}",
                    received=_excerpt(value_at(value, loc)) if loc else _excerpt(value),
                    json_path=json_path((*path, i, *loc)),
                )
            )
    return out
