"""The reference runtime as an ASGI app: routes, error answers and the OpenAPI document.

Errors are answered in one shape, `{"error": <code>, "message": ..., "reason"?: ...}`, whatever raised
them: the runtime's own (`turnwire.reference.errors`), FastAPI's request validation (422, the message
naming each field at fault), Starlette's (an unknown path is a 404 in the same shape), and anything
unexpected (500, with no detail leaked). A store that times out is a 503, so a driver's "database is
locked" never reaches a client.

The OpenAPI document (`/openapi.json`) is generated from the same models the routes use; the contract
models served or read as raw JSON (`AgentTurnSnapshot` per profile, `ResumeRequest`, `SessionEvent`,
`RunRequest`) are added to its components from their pydantic models.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse, Response
from pydantic import TypeAdapter
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from turnwire.profiles import ALL_PROFILES
from turnwire.reference.errors import ApiError
from turnwire.reference.hooks import hooks_router
from turnwire.reference.playback import utc_now
from turnwire.reference.routes import API_PREFIX, StreamSettings, agent_router
from turnwire.reference.runtime import DEFAULT_APPROVAL_TTL_S, ReferenceRuntime
from turnwire.reference.scripted import ScriptBook
from turnwire.reference.store import Store, StoreUnavailable
from turnwire.resume import ResumeRequest, SessionEvent
from turnwire.snapshot import snapshot_model
from turnwire.tools import run_request_adapter

__all__ = ["contract_components", "create_app"]

_log = logging.getLogger("turnwire.reference")

_STATUS_CODES = {404: "not-found", 405: "method-not-allowed", 413: "too-large", 415: "unsupported"}


def _error(status: int, code: str, message: str, reason: str | None = None) -> JSONResponse:
    body: dict[str, Any] = {"error": code, "message": message}
    if reason is not None:
        body["reason"] = reason
    return JSONResponse(body, status_code=status)


def _field(loc: Sequence[Any]) -> str:
    """A validation error's location as a field name: `approval_ttl_s`, `chat_id`, `items[0].x`, `body`."""
    out = ""
    for part in loc[1:]:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    if out:
        return out
    return str(loc[0]) if loc else "body"


def _validation_message(errors: Sequence[Mapping[str, Any]]) -> str:
    bits = []
    for err in errors:
        loc = tuple(err.get("loc", ()))
        if err.get("type") == "json_invalid":
            bits.append(f"body: not valid JSON ({err.get('msg', '')})")
            continue
        bits.append(f"{_field(loc)}: {err.get('msg', 'invalid')}")
    return "; ".join(bits) or "invalid request"


async def _on_api_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return _error(exc.status, exc.code, exc.message, exc.reason)


async def _on_validation_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    return _error(422, "invalid", _validation_message(list(exc.errors())))


async def _on_http_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 400:  # FastAPI's "error parsing the body" (e.g. not UTF-8): a malformed request
        return _error(422, "invalid", f"body: {exc.detail} (not valid JSON text)")
    code = _STATUS_CODES.get(exc.status_code, "internal" if exc.status_code >= 500 else "error")
    response = _error(exc.status_code, code, str(exc.detail))
    for name, value in (exc.headers or {}).items():
        response.headers[name] = value
    return response


async def _on_store_unavailable(_request: Request, exc: Exception) -> Response:
    return _error(503, "unavailable", f"the store is busy ({exc}); retry")


async def _on_unexpected(_request: Request, exc: Exception) -> Response:
    _log.error("unexpected error", exc_info=exc)
    return _error(500, "internal", "internal error")


class _Generator(GenerateJsonSchema):
    def field_title_should_be_set(self, schema: Any) -> bool:
        return False


def _component(name: str, adapter: TypeAdapter[Any], mode: JsonSchemaMode) -> dict[str, Any]:
    """`adapter`'s schema as OpenAPI components: `name` itself plus its definitions, prefixed `name__`."""
    prefix = f"{name}__"
    body = adapter.json_schema(
        by_alias=True, mode=mode, ref_template=f"#/components/schemas/{prefix}{{model}}", schema_generator=_Generator
    )
    defs: dict[str, Any] = body.pop("$defs", {})
    out = {f"{prefix}{key}": value for key, value in defs.items()}
    out[name] = body
    return out


def contract_components() -> dict[str, Any]:
    """The contract schemas the routes refer to, as OpenAPI components."""
    out: dict[str, Any] = {}
    variants = []
    for profile in ALL_PROFILES:
        model = snapshot_model(profile)
        out |= _component(model.__name__, TypeAdapter(model), "validation")
        variants.append({"$ref": f"#/components/schemas/{model.__name__}"})
    out["AgentTurnSnapshot"] = {"anyOf": variants, "description": "A turn snapshot; its parts are its profile's."}
    out |= _component("ResumeRequest", TypeAdapter(ResumeRequest), "validation")
    out |= _component("SessionEvent", TypeAdapter(SessionEvent), "validation")
    out |= _component("RunRequest", run_request_adapter(), "validation")
    return out


_DESCRIPTION = """\
The turnwire reference runtime: an agent runtime whose model is scripted. Each turn plays one scenario
of the turnwire conformance suite as a Vercel AI SDK UI message stream (profiles ai-sdk-v5, v6, v7),
keeps its at-rest snapshot equal to the fold of that stream, pauses at tool approvals, and applies a
resume decision exactly once. See docs/reference-runtime.md.
"""


def create_app(
    db: str | Store,
    *,
    test_hooks: bool = False,
    stream: StreamSettings | None = None,
    clock: Callable[[], datetime] = utc_now,
    default_approval_ttl_s: float = DEFAULT_APPROVAL_TTL_S,
    book: ScriptBook | None = None,
) -> FastAPI:
    """The reference runtime on the database `db` (a URL or path, or an open `Store`).

    `test_hooks` adds routes a conformance run needs to plant stored state (not in the OpenAPI
    document). The tables are created when missing; continuations interrupted by a crash are finished
    at start-up.
    """
    owned = not isinstance(db, Store)
    store = Store.open(db) if isinstance(db, str) else db
    runtime = ReferenceRuntime(store, book, clock=clock, default_approval_ttl_s=default_approval_ttl_s)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await run_in_threadpool(runtime.recover)
        try:
            yield
        finally:
            if owned:
                store.close()

    from turnwire import __version__

    app = FastAPI(title="turnwire reference runtime", version=__version__, description=_DESCRIPTION, lifespan=lifespan)
    app.state.runtime = runtime
    app.include_router(agent_router(runtime, stream))
    if test_hooks:
        app.include_router(hooks_router(runtime), prefix=API_PREFIX)
    app.add_exception_handler(ApiError, _on_api_error)
    app.add_exception_handler(RequestValidationError, _on_validation_error)
    app.add_exception_handler(StarletteHTTPException, _on_http_error)
    app.add_exception_handler(StoreUnavailable, _on_store_unavailable)
    app.add_exception_handler(Exception, _on_unexpected)

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
            components = schema.setdefault("components", {}).setdefault("schemas", {})
            components.update(contract_components())
            # the scenarios this runtime can play, so a client (or a fuzzer) can pick a real one
            components["CreateTurnRequest"]["properties"]["scenario"]["enum"] = runtime.book.slugs
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app
