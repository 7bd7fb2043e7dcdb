"""The reference runtime's HTTP routes under `/api/v2/agent`: translation between HTTP and the runtime.

Routes hold no rules of their own: each reads its parameters, calls `ReferenceRuntime`, and writes the
answer. Paths and bodies follow the agent-runtime backend the contract was taken from (seed 001), plus
resume, timeline and `/run`. Blocking work (the database) runs in the thread pool; the event stream is
an async generator that polls the store only while the turn is being written, for a bounded time.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Header, Path, Query, Request
from fastapi.responses import JSONResponse, StreamingResponse
from starlette.concurrency import run_in_threadpool

from turnwire.canonical import CanonicalError, JSONValue, loads
from turnwire.findings import Level
from turnwire.profiles import Profile
from turnwire.reference.bodies import (
    ID_PATTERN,
    CancelTurnResponse,
    CreateTurnRequest,
    CreateTurnResponse,
    ErrorBody,
    ResumeApplied,
    RunAccepted,
    TurnEnvelope,
)
from turnwire.reference.errors import ApiError, RequestInvalid
from turnwire.reference.playback import TurnRequest
from turnwire.reference.runtime import ReferenceRuntime, StreamPage
from turnwire.reference.store import StoreUnavailable, TurnRow
from turnwire.snapshot import SCHEMA_VERSION
from turnwire.sse import UI_MESSAGE_STREAM_HEADERS, encode_done, encode_event
from turnwire.tools import RunRequest, check_run_request

__all__ = ["API_PREFIX", "MAX_BODY_BYTES", "StreamSettings", "agent_router", "component_ref"]

API_PREFIX = "/api/v2/agent"
"""Where the routes are mounted; the runtime's API base."""

MAX_BODY_BYTES = 1024 * 1024
"""The largest request body a route reads (1 MiB)."""

_MAX_CURSOR = 2**53 - 1
_KEEPALIVE = b": keep-alive\n\n"

ChatId = Annotated[str, Path(pattern=ID_PATTERN, description="The chat's id (a chat exists once it has a turn).")]
TurnId = Annotated[str, Path(pattern=ID_PATTERN, description="The turn's id.")]


def component_ref(name: str) -> dict[str, str]:
    """A reference to a schema the app adds to the OpenAPI components (see `turnwire.reference.app`)."""
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


_ERROR_ANSWERS: dict[int, str] = {
    404: "Unknown chat or turn.",
    409: "The turn's state does not allow this.",
    410: "The approval expired.",
    422: "Malformed request; the message names the field.",
    503: "The store did not answer in time; nothing changed, retry.",
}


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The documented error answers of a route (all in the `ErrorBody` shape)."""
    return {code: {"model": ErrorBody, "description": _ERROR_ANSWERS[code]} for code in codes}


@dataclass(frozen=True)
class StreamSettings:
    """How long an event stream waits for a turn that is still being written, and how it keeps alive."""

    timeout_s: float = 15.0
    poll_interval_s: float = 0.05
    keepalive_s: float = 5.0


def _envelope(turn: TurnRow) -> TurnEnvelope:
    return TurnEnvelope(
        schema_version=SCHEMA_VERSION,
        turn_id=turn.turn_id,
        chat_id=turn.chat_id,
        status=turn.status,
        profile=turn.profile,
        scenario=turn.scenario,
        input_text=turn.query,
        client_idempotency_key=turn.client_idempotency_key,
        approval_ttl_s=turn.approval_ttl_s,
        timeline_cursor=turn.last_sequence,
        error_text=turn.error_text if turn.status in ("FAILED", "CANCELLED") else None,
        created_at=turn.created_at,
        updated_at=turn.updated_at,
        started_at=turn.started_at,
        finished_at=turn.finished_at,
    )


async def _json_body(request: Request) -> JSONValue:
    """The request body as JSON; `RequestInvalid` naming the body when it is too large or not JSON."""
    raw = await request.body()
    if len(raw) > MAX_BODY_BYTES:
        raise RequestInvalid(f"body: larger than {MAX_BODY_BYTES} bytes")
    try:
        return loads(raw)
    except CanonicalError as exc:
        raise RequestInvalid(f"body: {exc}") from None


def _cursor(after_sequence: int | None, last_event_id: str | None) -> int:
    """Where a stream resumes: `?after_sequence` wins over `Last-Event-ID`; neither means the start."""
    if after_sequence is not None:
        return after_sequence
    if last_event_id is None or not last_event_id.strip():
        return 0
    text = last_event_id.strip()
    if not text.isascii() or not text.isdigit() or int(text) > _MAX_CURSOR:
        raise RequestInvalid(
            f"Last-Event-ID: must be an event id of this stream (a non-negative integer), got {text!r}"
        )
    return int(text)


def agent_router(runtime: ReferenceRuntime, stream: StreamSettings | None = None) -> APIRouter:
    """The routes of one runtime."""
    settings = stream or StreamSettings()
    router = APIRouter(prefix=API_PREFIX)

    @router.post(
        "/chats/{chat_id}/turns",
        status_code=201,
        response_model=CreateTurnResponse,
        responses={
            200: {"model": CreateTurnResponse, "description": "The turn created earlier with this idempotency key."},
            **_errors(409, 422, 503),
        },
        summary="Create a turn: play a scenario",
    )
    def create_turn(chat_id: ChatId, body: CreateTurnRequest, request: Request) -> JSONResponse:
        """Create a turn in the chat (creating the chat) and play its scenario up to its end or its approval."""
        turn, created = runtime.create_turn(
            chat_id,
            TurnRequest(
                query=body.query,
                scenario=body.scenario,
                profile=Profile(body.profile),
                approval_ttl_s=body.approval_ttl_s,
                client_idempotency_key=body.client_idempotency_key,
            ),
        )
        url = f"{str(request.base_url).rstrip('/')}{API_PREFIX}/chats/{chat_id}/turns/{turn.turn_id}/events"
        answer = CreateTurnResponse(turn=_envelope(turn), stream_url=url)
        return JSONResponse(answer.model_dump(mode="json"), status_code=201 if created else 200)

    @router.get(
        "/chats/{chat_id}/turns/{turn_id}",
        responses={200: _json(component_ref("AgentTurnSnapshot"), "The turn's snapshot."), **_errors(404, 422, 503)},
        summary="The turn's at-rest snapshot (AgentTurnSnapshot)",
    )
    def get_turn(chat_id: ChatId, turn_id: TurnId) -> JSONResponse:
        """The turn as it is stored: the fold of its stream as parts, in the snapshot envelope."""
        return JSONResponse(runtime.snapshot(chat_id, turn_id))

    @router.get(
        "/chats/{chat_id}/turns/{turn_id}/events",
        response_class=StreamingResponse,
        responses={
            200: {
                "description": "The turn's UI message stream (server-sent events, each with `id: <sequence>`).",
                "content": {"text/event-stream": {"schema": {"type": "string"}}},
            },
            **_errors(404, 422, 503),
        },
        summary="The turn's UI message stream",
    )
    async def events(
        chat_id: ChatId,
        turn_id: TurnId,
        after_sequence: Annotated[
            int | None, Query(ge=0, le=_MAX_CURSOR, description="Replay the events after this sequence.")
        ] = None,
        last_event_id: Annotated[
            str | None, Header(alias="Last-Event-ID", description="As after_sequence (the query wins).")
        ] = None,
    ) -> StreamingResponse:
        """One UI message stream of the turn, from the cursor on; `[DONE]` ends a complete stream."""
        after = _cursor(after_sequence, last_event_id)
        first = await run_in_threadpool(runtime.stream_page, chat_id, turn_id, after)
        body = _stream(runtime, chat_id, turn_id, after, first, settings)
        return StreamingResponse(body, headers=UI_MESSAGE_STREAM_HEADERS)

    @router.post(
        "/chats/{chat_id}/turns/{turn_id}/cancel",
        response_model=CancelTurnResponse,
        responses=_errors(404, 409, 422, 503),
        summary="Cancel the turn",
    )
    def cancel_turn(chat_id: ChatId, turn_id: TurnId) -> CancelTurnResponse:
        """Cancel a turn that has not finished (cancelling a cancelled turn again changes nothing)."""
        turn = runtime.cancel(chat_id, turn_id)
        return CancelTurnResponse(turn_id=turn.turn_id, status="CANCELLED")

    @router.post(
        "/chats/{chat_id}/turns/{turn_id}/resume",
        response_model=ResumeApplied,
        responses=_errors(404, 409, 410, 422, 503),
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": component_ref("ResumeRequest")}},
            }
        },
        summary="Decide the turn's pending tool approval",
    )
    async def resume(chat_id: ChatId, turn_id: TurnId, request: Request) -> JSONResponse:
        """Apply a decision to the tool call waiting for approval; the interrupt id is its approval id."""
        body = await _json_body(request)
        answer = await run_in_threadpool(runtime.resume, chat_id, turn_id, body)
        return JSONResponse(answer.body, status_code=answer.status)

    @router.get(
        "/chats/{chat_id}/turns/{turn_id}/timeline",
        responses={
            200: _json({"type": "array", "items": component_ref("SessionEvent")}, "The turn's session events."),
            **_errors(404, 422, 503),
        },
        summary="The turn's session events",
    )
    def timeline(chat_id: ChatId, turn_id: TurnId) -> JSONResponse:
        """Interrupt, decision, tool span and run status events of the turn, oldest first."""
        return JSONResponse(runtime.timeline(chat_id, turn_id))

    @router.post(
        "/run",
        response_model=RunAccepted,
        responses=_errors(422),
        openapi_extra={
            "requestBody": {"required": True, "content": {"application/json": {"schema": component_ref("RunRequest")}}}
        },
        summary="Accept a run request (validated, acknowledged)",
    )
    async def run(request: Request) -> RunAccepted:
        """Validate a `/run` body: 422 naming the first field at fault, else an acknowledgement."""
        body = await _json_body(request)
        return _accept_run(body)

    return router


def _accept_run(body: JSONValue) -> RunAccepted:
    findings = check_run_request(body)
    fatal = [f for f in findings if f.level is Level.MUST]
    if fatal:
        first = fatal[0]
        where = first.json_path or "$"
        more = f" (and {len(fatal) - 1} more)" if len(fatal) > 1 else ""
        raise RequestInvalid(f"{where}: {first.message}{more}", reason=first.requirement)
    try:
        parsed = RunRequest.model_validate(body, by_alias=True, by_name=False)
    except ValueError as exc:
        raise RequestInvalid(f"body: {str(exc).splitlines()[0]}") from None
    warnings = [str(f) for f in findings]
    return RunAccepted(ok=True, run_id=f"run_{uuid.uuid4().hex}", session_id=parsed.session_id, warnings=warnings)


async def _stream(
    runtime: ReferenceRuntime, chat_id: str, turn_id: str, after: int, page: StreamPage, settings: StreamSettings
) -> AsyncIterator[bytes]:
    """The SSE body: events with their sequence as id, `[DONE]` when the stream is complete."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + settings.timeout_s
    beat = loop.time()
    while True:
        for event in page.events:
            yield encode_event(event.chunk, event_id=str(event.sequence))
            after = event.sequence
        if page.complete:
            yield encode_done()
            return
        if not page.waiting or loop.time() >= deadline:
            return
        if loop.time() - beat >= settings.keepalive_s:
            beat = loop.time()
            yield _KEEPALIVE
        await asyncio.sleep(settings.poll_interval_s)
        try:
            page = await run_in_threadpool(runtime.stream_page, chat_id, turn_id, after)
        except (ApiError, StoreUnavailable):
            return  # the store is busy: end here; the client reconnects with Last-Event-ID
