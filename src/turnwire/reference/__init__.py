"""The reference runtime: a real agent-runtime server whose model is scripted.

It serves the agent-runtime HTTP surface (turns, their UI message stream with replay, their at-rest
snapshot, cancel, resume of a tool approval, the session timeline, `/run`) on FastAPI / uvicorn, stores
everything in SQLite or PostgreSQL through one SQLAlchemy Core code path, and plays the conformance
scenarios as its model, so its streams equal the goldens. It is the default target of the conformance
runner and a worked example of the whole contract. The contract in prose: docs/reference-runtime.md.

One concept per module: `db` (tables, engines, locking), `store` (transactions and queries),
`scripted` (the scripted model), `playback` (a turn's state changes), `runtime` (the operations),
`bodies` (the runtime's own JSON bodies), `routes` (HTTP), `hooks` (test-only routes), `errors`, `app`
(the ASGI app and its OpenAPI document), `server` (uvicorn: foreground, thread, child process).
"""

from turnwire.reference.app import contract_components, create_app
from turnwire.reference.errors import ApiError, RequestConflict, RequestInvalid, TurnNotFound
from turnwire.reference.playback import ResumeAnswer, TurnRequest
from turnwire.reference.routes import API_PREFIX, StreamSettings
from turnwire.reference.runtime import DEFAULT_APPROVAL_TTL_S, ReferenceRuntime, StreamPage
from turnwire.reference.scripted import (
    APPROVAL_ANSWERS,
    APPROVAL_REQUEST,
    IdMinter,
    Script,
    ScriptBook,
    UnknownScenario,
)
from turnwire.reference.server import DEFAULT_DB, DEFAULT_HOST, DEFAULT_PORT, ReferenceServer, ServerProcess, serve
from turnwire.reference.store import Store, StoreUnavailable

__all__ = [
    "API_PREFIX",
    "APPROVAL_ANSWERS",
    "APPROVAL_REQUEST",
    "DEFAULT_APPROVAL_TTL_S",
    "DEFAULT_DB",
    "DEFAULT_HOST",
    "DEFAULT_PORT",
    "ApiError",
    "IdMinter",
    "ReferenceRuntime",
    "ReferenceServer",
    "RequestConflict",
    "RequestInvalid",
    "ResumeAnswer",
    "Script",
    "ScriptBook",
    "ServerProcess",
    "Store",
    "StoreUnavailable",
    "StreamPage",
    "StreamSettings",
    "TurnNotFound",
    "TurnRequest",
    "UnknownScenario",
    "contract_components",
    "create_app",
    "serve",
]
