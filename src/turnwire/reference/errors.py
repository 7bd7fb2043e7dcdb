"""The reference runtime's request errors: one class per HTTP answer that is not a success.

The runtime raises these; the app turns each into `{"error": <code>, "message": ...}` with its status.
Resume outcomes (`turnwire.resume.outcomes`) carry their own codes and statuses and are answered from
that table, and a store that does not answer in time raises `turnwire.reference.store.StoreUnavailable`
(503), so neither is repeated here.
"""

from __future__ import annotations

from typing import ClassVar

__all__ = ["ApiError", "RequestConflict", "RequestInvalid", "TurnNotFound"]


class ApiError(Exception):
    """Base class: a request the runtime answers with an error body."""

    status: ClassVar[int] = 500
    code: ClassVar[str] = "internal"

    def __init__(self, message: str, *, reason: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason


class TurnNotFound(ApiError):
    """The chat, or the turn in that chat, does not exist (404)."""

    status = 404
    code = "not-found"


class RequestConflict(ApiError):
    """The request is well formed but the turn's state does not allow it (409)."""

    status = 409
    code = "conflict"


class RequestInvalid(ApiError):
    """The request is malformed or names something that cannot be played (422); the message names the field."""

    status = 422
    code = "invalid"
