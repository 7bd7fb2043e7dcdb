"""Schemathesis against the runtime's own `/openapi.json`, over HTTP, on SQLite and PostgreSQL.

Generated requests (a bounded number per operation, derandomized so a red run reproduces) — valid ones
and, in negative mode, ones that break the document — must never get a 5xx, and every answer must be
documented: its status code, its content type and — for JSON — its body must match the schema the
document declares. The SSE route is left out (a stream is checked by the scenario tests, chunk by
chunk).

Each operation is driven through Hypothesis directly (`APIOperation.as_strategy`), one test item per
operation: schemathesis' own pytest loader does not run under this pytest version.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from turnwire.reference import API_PREFIX, ReferenceServer

MAX_EXAMPLES = 30
TURN = f"{API_PREFIX}/chats/{{chat_id}}/turns/{{turn_id}}"
OPERATIONS = [
    ("POST", f"{API_PREFIX}/chats/{{chat_id}}/turns"),
    ("GET", TURN),
    ("POST", f"{TURN}/cancel"),
    ("POST", f"{TURN}/resume"),
    ("GET", f"{TURN}/timeline"),
    ("POST", f"{API_PREFIX}/run"),
]
SKIPPED = [("GET", f"{TURN}/events")]  # the SSE route: checked by the scenario tests
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture(scope="module")
def document(server: ReferenceServer) -> dict[str, Any]:
    body: dict[str, Any] = httpx.get(server.base_url + "/openapi.json").json()
    return body


@pytest.fixture(scope="module")
def api(server: ReferenceServer, document: dict[str, Any]) -> Any:
    schema = schemathesis.openapi.from_dict(document)
    schema.config.update(base_url=server.base_url)
    return schema


def test_every_documented_operation_is_fuzzed(document: dict[str, Any]) -> None:
    documented = {(method.upper(), path) for path, item in document["paths"].items() for method in item}
    assert documented == set(OPERATIONS) | set(SKIPPED)


@pytest.mark.parametrize(
    ("method", "path"), OPERATIONS, ids=[f"{m} {p.removeprefix(API_PREFIX)}" for m, p in OPERATIONS]
)
@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=["valid", "invalid"])
def test_no_5xx_and_every_answer_matches_the_document(api: Any, method: str, path: str, mode: GenerationMode) -> None:
    operation = api[path][method]

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=MAX_EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def check(case: schemathesis.Case) -> None:
        case.call_and_validate(checks=CHECKS, timeout=30)

    check()
