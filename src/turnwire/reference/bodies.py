"""The JSON bodies of the reference runtime's routes that are the runtime's own (not a contract model).

The contract models — `AgentTurnSnapshot` (`turnwire.snapshot`), `ResumeRequest` and `SessionEvent`
(`turnwire.resume`), `RunRequest` (`turnwire.tools`) — are imported where they are used; this module
holds only what the reference runtime adds around them: the create-turn request, the turn envelope, and
the small answers. They follow the serving backend's conventions (snake_case, `null` for an absent
value), and they generate the OpenAPI document, so the document and the code cannot disagree.

Every text a client sends is checked to be storable: valid Unicode (no lone surrogates) without NUL,
which PostgreSQL refuses in text columns. A request breaking that gets a 422 naming the field rather
than a database error.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from turnwire.snapshot import TurnStatus

__all__ = [
    "ID_PATTERN",
    "CancelTurnResponse",
    "CreateTurnRequest",
    "CreateTurnResponse",
    "ErrorBody",
    "ProfileName",
    "ResumeApplied",
    "RunAccepted",
    "StorableText",
    "TurnEnvelope",
]

ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$"
"""What a chat or turn id in a path may be: 1 to 128 characters, URL-safe, starting with a letter or digit."""

MAX_APPROVAL_TTL_S = 7 * 24 * 3600.0
"""The longest approval wait a turn may ask for (a week)."""

ProfileName = Literal["ai-sdk-v5", "ai-sdk-v6", "ai-sdk-v7"]


def _storable(value: str) -> str:
    if "\x00" in value:
        raise ValueError("must not contain NUL characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("must be valid Unicode text (no lone surrogates)") from None
    return value


StorableText = Annotated[str, AfterValidator(_storable)]
"""Text the runtime can store and echo: valid Unicode, no NUL."""


class CreateTurnRequest(BaseModel):
    """`POST /chats/{chat_id}/turns`: which scenario to play, in which profile.

    Keys a richer runtime accepts (collections, model choice, language, …) are ignored, so clients of
    that runtime can talk to this one.
    """

    model_config = ConfigDict(extra="ignore", strict=True)

    query: StorableText = Field(max_length=100_000, description="The user's message (kept as the turn's input_text).")
    scenario: str = Field(
        pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$",
        max_length=100,
        description="The scenario slug to play (a file of conformance/scenarios/).",
    )
    profile: ProfileName = Field(default="ai-sdk-v7", description="The UI message stream protocol version.")
    approval_ttl_s: float | None = Field(
        default=None,
        gt=0,
        le=MAX_APPROVAL_TTL_S,
        allow_inf_nan=False,
        description="Seconds a tool approval waits for a decision before it expires (default 300).",
    )
    client_idempotency_key: Annotated[StorableText, Field(min_length=1, max_length=200)] | None = Field(
        default=None, description="The same key in the same chat returns the same turn."
    )


class TurnEnvelope(BaseModel):
    """A turn as the create answer describes it (snake_case, `null` for absent values)."""

    schema_version: str
    turn_id: str
    chat_id: str
    status: TurnStatus
    profile: ProfileName
    scenario: str
    input_text: str
    client_idempotency_key: str | None
    approval_ttl_s: float
    timeline_cursor: int = Field(ge=0)
    error_text: str | None
    created_at: str
    updated_at: str
    started_at: str | None
    finished_at: str | None


class CreateTurnResponse(BaseModel):
    """The answer to a create: the turn, and where its UI message stream is."""

    turn: TurnEnvelope
    stream_url: str


class CancelTurnResponse(BaseModel):
    """The answer to a cancel."""

    turn_id: str
    status: TurnStatus


class ResumeApplied(BaseModel):
    """The answer to a resume whose decision was applied (200)."""

    applied: Literal[True]
    outcome: Literal["applied"]
    turn_id: str
    interrupt_id: str
    action: Literal["approve", "reject", "respond"]
    event_id: str = Field(description="The id of the x.permission.decision event recorded for it.")
    status: TurnStatus = Field(description="The turn's status once the decision has been played.")


class RunAccepted(BaseModel):
    """The answer to a valid `/run` request: it is acknowledged (the reference runtime runs no agent)."""

    ok: Literal[True]
    run_id: str
    session_id: str | None
    warnings: list[str] = Field(description="SHOULD-level findings about the request, if any.")


class ErrorBody(BaseModel):
    """Every error answer: a stable code, a message naming the field or the state, and a finer reason."""

    error: str = Field(description="not-found, invalid, conflict, expired, unavailable or internal.")
    message: str
    reason: str | None = Field(default=None, description="A stable code for the cause, when there is one.")
