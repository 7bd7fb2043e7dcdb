"""The reference runtime's operations: what each route asks for, in which transactions, under which lock.

Why one service between the routes and the store: every rule that decides what a client sees lives
here (and in `turnwire.reference.playback`, the steps themselves), once, whatever the transport. The
routes only translate HTTP; the store only knows rows.

A turn is played by the scripted model inside the transaction that creates it, up to its end or to its
approval pause, so a committed turn is always consistent. What happens later happens on a request:

* **resume** — in one write transaction that first locks the chat's row (the session row), the stored
  session snapshot and the request go through the pure resume engine (`turnwire.resume`); an applied
  decision stores the new snapshot and the `x.permission.decision` event together and commits *before*
  the tool runs; a second transaction then plays the continuation (the tool's span events, its output,
  the answer) and records the tool's result. A crash between the two leaves the turn in phase
  "continuing", finished on the next access or at start-up.
* **expiry** — evaluated lazily: any access to a turn whose approval is overdue moves the pending call
  to EXPIRED and ends the turn (the resume then answers 410).
* **cancel** — ends a paused turn (an `abort` chunk when its stream is still open).

Every write transaction locks the chat's row first. A store that does not answer in time raises
`StoreUnavailable`, which the app answers with 503.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from sqlalchemy import Connection

from turnwire.canonical import JSONValue
from turnwire.profiles import Profile
from turnwire.reference.errors import RequestConflict, RequestInvalid, TurnNotFound
from turnwire.reference.playback import (
    AWAITING,
    CONTINUING,
    TERMINAL,
    Playback,
    ResumeAnswer,
    TurnRequest,
    answer_error,
    iso,
    needs_settling,
    read_snapshot_json,
    utc_now,
)
from turnwire.reference.scripted import ScriptBook, UnknownScenario
from turnwire.reference.store import ChatRow, Store, StreamEventRow, TurnRow, json_text
from turnwire.resume import Applied, SnapshotError, load_snapshot, resume_request
from turnwire.snapshot import SCHEMA_VERSION, snapshot_model

__all__ = ["DEFAULT_APPROVAL_TTL_S", "ReferenceRuntime", "StreamPage"]

DEFAULT_APPROVAL_TTL_S: Final = 300.0
"""How long an approval waits for a decision when the turn does not say."""


@dataclass(frozen=True)
class StreamPage:
    """Events of one stream (segment) after a cursor, and what the stream does next.

    `complete`: the segment is finished, send `[DONE]` after the events. `waiting`: the segment is
    still being written, look again shortly. Neither: the turn is paused at an approval, end the
    response without `[DONE]` (reconnect after the resume).
    """

    events: list[StreamEventRow]
    complete: bool
    waiting: bool
    profile: Profile


def _read_turn(conn: Connection, chat_id: str, turn_id: str) -> TurnRow:
    if Store.get_chat(conn, chat_id) is None:
        raise TurnNotFound(f"unknown chat {chat_id!r}")
    turn = Store.get_turn(conn, turn_id)
    if turn is None or turn.chat_id != chat_id:
        raise TurnNotFound(f"unknown turn {turn_id!r} in chat {chat_id!r}")
    return turn


def _locked_turn(conn: Connection, chat_id: str, turn_id: str) -> tuple[ChatRow, TurnRow]:
    chat = Store.lock_chat(conn, chat_id)
    if chat is None:
        raise TurnNotFound(f"unknown chat {chat_id!r}")
    turn = Store.get_turn(conn, turn_id)
    if turn is None or turn.chat_id != chat_id:
        raise TurnNotFound(f"unknown turn {turn_id!r} in chat {chat_id!r}")
    return chat, turn


class ReferenceRuntime:
    """The service behind the routes: every operation is one or two short transactions."""

    def __init__(
        self,
        store: Store,
        book: ScriptBook | None = None,
        *,
        clock: Callable[[], datetime] = utc_now,
        default_approval_ttl_s: float = DEFAULT_APPROVAL_TTL_S,
    ) -> None:
        self.store = store
        self.book = book or ScriptBook()
        self.clock = clock
        self.default_approval_ttl_s = default_approval_ttl_s

    def _now(self) -> datetime:
        now = self.clock()
        if now.tzinfo is None:
            raise ValueError("the runtime's clock must return timezone-aware times")
        return now

    def _settled(self, chat_id: str, turn_id: str) -> TurnRow:
        """The turn, after any lazy work it was due; raises `TurnNotFound`."""
        now = self._now()
        with self.store.read() as conn:
            turn = _read_turn(conn, chat_id, turn_id)
        if not needs_settling(turn, now):
            return turn
        with self.store.write() as conn:
            chat, turn = _locked_turn(conn, chat_id, turn_id)
            return Playback(conn, self.book, now).settle(chat, turn)[1]

    def recover(self) -> int:
        """Finish every continuation a crash interrupted; returns how many turns were finished."""
        with self.store.read() as conn:
            pending = Store.turns_in_phase(conn, CONTINUING)
        for turn in pending:
            self._settled(turn.chat_id, turn.turn_id)
        return len(pending)

    # ---- turns --------------------------------------------------------------------------------------

    def create_turn(self, chat_id: str, request: TurnRequest) -> tuple[TurnRow, bool]:
        """Create and play a turn; returns it and whether it is new (False: an idempotent repeat).

        Raises `RequestInvalid` for a scenario the profile lacks, `RequestConflict` when the idempotency
        key was used for another request or the chat already has a turn waiting for an approval.
        """
        try:
            script = self.book.script(request.scenario, request.profile)
        except UnknownScenario as exc:
            raise RequestInvalid(f"scenario: {exc}") from None
        ttl = self.default_approval_ttl_s if request.approval_ttl_s is None else request.approval_ttl_s
        now = self._now()
        with self.store.write() as conn:
            chat = Store.lock_or_create_chat(conn, chat_id, iso(now))
            key = request.client_idempotency_key
            existing = None if key is None else Store.find_turn_by_key(conn, chat_id, key)
            if existing is not None:
                same = (existing.query, existing.scenario, existing.profile, existing.approval_ttl_s) == (
                    request.query,
                    request.scenario,
                    request.profile.value,
                    ttl,
                )
                if not same:
                    raise RequestConflict(
                        f"client_idempotency_key {key!r} was already used for a different turn request "
                        f"(turn {existing.turn_id})",
                        reason="idempotency-key-reused",
                    )
                return existing, False
            play = Playback(conn, self.book, now)
            unfinished = Store.turns_in_phase(conn, CONTINUING, chat_id=chat_id)
            for waiting in [*unfinished, *Store.turns_in_phase(conn, AWAITING, chat_id=chat_id)]:
                chat, settled = play.settle(chat, waiting)
                if settled.phase == AWAITING:
                    raise RequestConflict(
                        f"chat {chat_id!r} has a turn waiting for a tool approval ({settled.turn_id}); "
                        "resume or cancel it first",
                        reason="approval-pending",
                    )
            return play.start(chat, request, script, ttl), True

    def turn(self, chat_id: str, turn_id: str) -> TurnRow:
        """The turn, up to date (lazy expiry applied)."""
        return self._settled(chat_id, turn_id)

    def snapshot(self, chat_id: str, turn_id: str) -> dict[str, Any]:
        """The turn's AgentTurnSnapshot (checked against the profile's snapshot model)."""
        turn = self._settled(chat_id, turn_id)
        body: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION,
            "turn_id": turn.turn_id,
            "chat_id": turn.chat_id,
            "runtime_kind": "agent_runtime",
            "input_text": turn.query,
            "role": "assistant",
            "status": turn.status,
            "parts": list(turn.message.get("parts", [])),
            "error_text": turn.error_text if turn.status in ("FAILED", "CANCELLED") else None,
            "timeline_cursor": turn.last_sequence,
            "started_at": turn.started_at,
            "finished_at": turn.finished_at,
            "created_at": turn.created_at,
            "updated_at": turn.updated_at,
        }
        # a check on ourselves (a failure is a bug here, not a client error); served as built
        snapshot_model(Profile(turn.profile)).model_validate_json(json_text(body))
        return body

    def stream_page(self, chat_id: str, turn_id: str, after: int) -> StreamPage:
        """The events after `after` of the stream (segment) the cursor leads into; see `StreamPage`."""
        self._settled(chat_id, turn_id)
        with self.store.read() as conn:
            turn = _read_turn(conn, chat_id, turn_id)  # the turn first: its state bounds the events read next
            rows = Store.stream_after(conn, turn_id, after)
        profile = Profile(turn.profile)
        if rows:
            segment = rows[0].segment
            rows = [r for r in rows if r.segment == segment]
            if segment < turn.segment or turn.segment_closed:
                return StreamPage(rows, complete=True, waiting=False, profile=profile)
        elif turn.status in TERMINAL:
            return StreamPage([], complete=True, waiting=False, profile=profile)
        return StreamPage(rows, complete=False, waiting=turn.phase == CONTINUING, profile=profile)

    def timeline(self, chat_id: str, turn_id: str) -> list[dict[str, Any]]:
        """The turn's session events, oldest first."""
        self._settled(chat_id, turn_id)
        with self.store.read() as conn:
            _read_turn(conn, chat_id, turn_id)
            return Store.session_events(conn, turn_id)

    def cancel(self, chat_id: str, turn_id: str) -> TurnRow:
        """Cancel the turn: a paused turn ends CANCELLED; cancelling again is a no-op; a finished one is 409."""
        now = self._now()
        with self.store.write() as conn:
            chat, turn = _locked_turn(conn, chat_id, turn_id)
            play = Playback(conn, self.book, now)
            chat, turn = play.settle(chat, turn)
            if turn.status == "CANCELLED":
                return turn
            if turn.status in TERMINAL:
                raise RequestConflict(f"turn {turn_id} is already {turn.status}", reason="turn-finished")
            return play.cancel(turn)

    # ---- resume -------------------------------------------------------------------------------------

    def resume(self, chat_id: str, turn_id: str, body: JSONValue) -> ResumeAnswer:
        """Apply a resume request to the turn's pending approval, at most once (see the module docstring)."""
        now = self._now()
        with self.store.write() as conn:
            chat, turn = _locked_turn(conn, chat_id, turn_id)
            play = Playback(conn, self.book, now)
            chat, turn = play.settle(chat, turn)
            refusal = self._refusal(chat, turn)
            if refusal is not None:
                return refusal
            outcome = resume_request(read_snapshot_json(chat.state_snapshot), body, now)
            answer = play.record_outcome(chat, turn, outcome)
        if isinstance(outcome, Applied):  # committed: the decision is a fact; now the tool runs
            with self.store.write() as conn:
                chat, turn = _locked_turn(conn, chat_id, turn_id)
                if turn.phase == CONTINUING:
                    chat, turn = Playback(conn, self.book, now).continue_turn(chat, turn)
            answer.body["status"] = turn.status
        return answer

    @staticmethod
    def _refusal(chat: ChatRow, turn: TurnRow) -> ResumeAnswer | None:
        """A 409 for a turn that has nothing this resume could apply to, before the engine is asked."""
        if turn.status == "CANCELLED":
            return answer_error(409, "conflict", f"turn {turn.turn_id} was cancelled", "turn-cancelled")
        if chat.state_snapshot is None or turn.interrupt_id is None:
            return answer_error(409, "conflict", f"turn {turn.turn_id} has no pending tool call", "no-pending-call")
        try:
            run_id = load_snapshot(read_snapshot_json(chat.state_snapshot)).run_context.run_id
        except SnapshotError:
            return None  # unreadable: the engine says why (invalid, 422)
        if run_id != turn.turn_id:
            return answer_error(
                409, "conflict", f"the chat's pending approval belongs to turn {run_id}", "run-mismatch"
            )
        return None

    # ---- test hooks ---------------------------------------------------------------------------------

    def put_session_snapshot(self, chat_id: str, raw: str) -> None:
        """Store `raw` as the chat's session snapshot, unchecked: a test hook to plant legacy shapes."""
        now = iso(self._now())
        with self.store.write() as conn:
            if Store.lock_chat(conn, chat_id) is None:
                raise TurnNotFound(f"unknown chat {chat_id!r}")
            Store.set_state_snapshot(conn, chat_id, raw, now)
