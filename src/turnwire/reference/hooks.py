"""Test hooks: routes that let a conformance run plant stored state a real client could never send.

Seed 004's route tests need a *legacy* session snapshot in the store to prove that a resume refuses it
(422) instead of coercing it. In-process tests write the store directly; a runner that only speaks
HTTP needs a door, and this is it. The hooks are off unless asked for (`create_app(test_hooks=True)`,
`turnwire serve --test-hooks`) and are left out of the OpenAPI document.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from turnwire.reference.bodies import ID_PATTERN
from turnwire.reference.errors import RequestInvalid
from turnwire.reference.runtime import ReferenceRuntime

__all__ = ["hooks_router"]

_MAX = 1024 * 1024


def hooks_router(runtime: ReferenceRuntime) -> APIRouter:
    """`PUT /_test/chats/{chat_id}/session-snapshot`: store the body, as is, as the chat's session snapshot."""
    router = APIRouter(prefix="/_test", include_in_schema=False)

    @router.put("/chats/{chat_id}/session-snapshot", status_code=204)
    async def plant_session_snapshot(chat_id: Annotated[str, Path(pattern=ID_PATTERN)], request: Request) -> Response:
        raw = await request.body()
        if len(raw) > _MAX:
            raise RequestInvalid(f"body: larger than {_MAX} bytes")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise RequestInvalid("body: not UTF-8 text") from None
        if "\x00" in text:
            raise RequestInvalid("body: must not contain NUL characters")
        await run_in_threadpool(runtime.put_session_snapshot, chat_id, text)
        return Response(status_code=204)

    return router
