"""Live checks of `/run`: the run-request wire is accepted when valid and rejected (422) when not.

The bodies are turnwire's own: the generated goldens (`golden/run-request/*.json`, the Pi and Claude
bodies and one with local tools) must be accepted, and each of them broken in one way the contract
forbids (docs/tools.md#the-run-request) must be rejected with 422 — a runtime that accepts an unknown
key today silently drops tomorrow's field, and one that accepts a snake_case key runs with a default.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from turnwire.canonical import loads
from turnwire.conformance.catalogue import check
from turnwire.conformance.checks.live_common import TRANSPORT, error_body_findings, exchange_findings, live
from turnwire.conformance.context import CheckContext
from turnwire.conformance.model import Capability, ReportedFinding
from turnwire.resources import golden_dir

_ACCEPTED = frozenset({200, 201, 202})


@cache
def golden_run_requests() -> tuple[tuple[str, dict[str, Any]], ...]:
    """(name, body) of every golden run request, sorted by name."""
    out = []
    for path in sorted((golden_dir() / "run-request").glob("*.json")):
        body = loads(path.read_bytes())
        if isinstance(body, dict):
            out.append((path.stem, body))
    return tuple(out)


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda body: body.__setitem__(key, value)


def _rename(old: str, new: str) -> Callable[[dict[str, Any]], None]:
    return lambda body: body.__setitem__(new, body.pop(old, None))


def _snake_tool_key(body: dict[str, Any]) -> None:
    body["customTools"] = [
        {"kind": "client", "name": "turnwire_probe", "description": "d", "input_schema": {"type": "object"}}
    ]


BREAKS: tuple[tuple[str, Callable[[dict[str, Any]], None]], ...] = (
    ("an unknown top-level key", _set("turnwireProbe", True)),
    ("a snake_case top-level key (session_id)", _rename("sessionId", "session_id")),
    ("no backend", lambda body: body.pop("backend")),
    ("messages that are not a list", _set("messages", "hi")),
    ("a custom tool with snake_case input_schema", _snake_tool_key),
    ("a stdio MCP server without a command", _set("mcpServers", [{"name": "files", "transport": "stdio"}])),
)
"""One way each to break a valid body; every result is invalid under docs/tools.md."""


@check("live.run.accept", requirements=["RUN-HTTP-ACCEPT", *TRANSPORT], needs={Capability.RUN}, needs_live=True)
def accept(ctx: CheckContext) -> Iterator[ReportedFinding]:
    """Every golden run request is accepted (2xx)."""
    runtime = live(ctx)
    for name, body in golden_run_requests():
        answer = runtime.run(body)
        yield from exchange_findings(
            answer, f"/run with the golden {name} body", _ACCEPTED, requirement="RUN-HTTP-ACCEPT"
        )


@check(
    "live.run.reject",
    requirements=["RUN-HTTP-REJECT", "HTTP-ERROR-BODY", *TRANSPORT],
    needs={Capability.RUN},
    needs_live=True,
)
def reject(ctx: CheckContext) -> Iterator[ReportedFinding]:
    """A run request broken in any one way the contract forbids is rejected with 422."""
    runtime = live(ctx)
    requests = golden_run_requests()
    if not requests:
        return
    name, valid = requests[0]
    for label, breaks in BREAKS:
        body = copy.deepcopy(valid)
        breaks(body)
        answer = runtime.run(body)
        what = f"/run with the {name} body and {label}"
        found = exchange_findings(answer, what, {422}, requirement="RUN-HTTP-REJECT")
        yield from found
        if not found:
            yield from error_body_findings(answer, what)
