"""Playback: every change to a turn, made inside one write transaction that holds the chat's lock.

Why its own module: these are the steps the scripted model takes — start a turn and play it to its end
or its approval pause, expire an ask, play what follows a decision, cancel — and each must leave the
stored turn, its stream, its folded message, the chat's session snapshot and the timeline consistent
with one another. Keeping them together, with the connection and the time fixed for the whole
transaction (`Playback`), makes that one place to read. `turnwire.reference.runtime` decides *when*
each step runs and opens the transactions.

The stream is stored chunk by chunk with a per-turn sequence, in *segments*: one segment is one
complete UI message stream. Every turn has one, except an ai-sdk-v6 approval turn whose answer arrives
as a continuation (a second stream with a prior message). The at-rest message is the fold of the
current segment, continuing its prior, refolded as chunks are stored.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from pydantic import MISSING
from sqlalchemy import Connection

from turnwire.canonical import CanonicalError, JSONValue, loads
from turnwire.normalise import Family
from turnwire.profiles import Profile
from turnwire.reference.scripted import (
    IdMinter,
    Script,
    ScriptBook,
    answer_approval,
    fold_message,
    tool_result,
    with_decision,
)
from turnwire.reference.store import ChatRow, Store, TurnRow, json_text
from turnwire.resume import (
    IDLE_KIND,
    INTERRUPT_KIND,
    RUNNING_KIND,
    TOOL_KINDS,
    AgentSessionSnapshot,
    Applied,
    Conflict,
    Expired,
    Invalid,
    Outcome,
    PendingToolCall,
    PendingToolStatus,
    ResumeAction,
    SessionEvent,
    SnapshotError,
    encode_event,
    ensure_transition,
    http_status,
    load_snapshot,
    new_pending_snapshot,
    record_result,
    tool_input,
)

__all__ = [
    "AWAITING",
    "CANCEL_REASON",
    "CONTINUING",
    "DONE",
    "TERMINAL",
    "Playback",
    "ResumeAnswer",
    "TurnRequest",
    "answer_error",
    "iso",
    "needs_settling",
    "read_snapshot_json",
    "utc_now",
]

CANCEL_REASON: Final = "cancelled by the client"
"""The abort reason (ai-sdk-v6+) and error text of a cancelled turn."""

TERMINAL: Final = frozenset({"COMPLETED", "FAILED", "CANCELLED"})
"""Turn statuses after which nothing changes."""

DONE: Final = "done"
"""Phase of a turn with nothing left to play."""
AWAITING: Final = "awaiting-approval"
"""Phase of a turn paused at a tool approval."""
CONTINUING: Final = "continuing"
"""Phase of a turn whose decision is stored but whose continuation is not played yet."""


def utc_now() -> datetime:
    """The current time, timezone-aware (UTC)."""
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    """The ISO 8601 form every stored and served time takes: UTC, microseconds, `Z`."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def needs_settling(turn: TurnRow, now: datetime) -> bool:
    """Whether the turn has lazy work due: a continuation to play, or an ask that has run out."""
    if turn.phase == CONTINUING:
        return True
    return turn.phase == AWAITING and turn.expires_at is not None and now > _parse_time(turn.expires_at)


def read_snapshot_json(raw: str | None) -> JSONValue:
    """The stored session snapshot as JSON (text that is not JSON is passed on as the string it is)."""
    if raw is None:
        return None
    try:
        return loads(raw)
    except CanonicalError:
        return raw


@dataclass(frozen=True)
class TurnRequest:
    """A validated create-turn request."""

    query: str
    scenario: str
    profile: Profile
    approval_ttl_s: float | None = None
    client_idempotency_key: str | None = None


@dataclass(frozen=True)
class ResumeAnswer:
    """The HTTP answer to a resume: status code and JSON body."""

    status: int
    body: dict[str, Any]


def _ending(chunks: Sequence[Mapping[str, Any]]) -> tuple[str, str | None]:
    """The turn status a finished stream stands for, and its error text.

    An `error` chunk makes the turn FAILED (its text is the error), an `abort` CANCELLED (its reason is
    the error); anything else — including a stream that ends waiting for a tool approval — COMPLETED.
    """
    status, error = "COMPLETED", None
    for chunk in chunks:
        kind = chunk.get("type")
        if kind == "error" and status != "CANCELLED":
            status, error = "FAILED", str(chunk.get("errorText", ""))
        elif kind == "abort":
            reason = chunk.get("reason")
            status, error = "CANCELLED", reason if isinstance(reason, str) else None
    return status, error


def _expire_call(snapshot: AgentSessionSnapshot, call: PendingToolCall, now: datetime) -> AgentSessionSnapshot:
    """The snapshot with its pending call moved to EXPIRED (the table's PENDING_APPROVAL → EXPIRED)."""
    ensure_transition(call.status, PendingToolStatus.EXPIRED)
    expired = PendingToolCall(**{**dict(call), "status": PendingToolStatus.EXPIRED, "updated_at": now})
    return snapshot.model_copy(update={"pending_tool_call": expired})


def answer_error(status: int, error: str, message: str, reason: str | None = None) -> ResumeAnswer:
    """A resume answer that is not a success."""
    body: dict[str, Any] = {"error": error, "message": message}
    if reason is not None:
        body["reason"] = reason
    return ResumeAnswer(status, body)


class Playback:
    """The steps of the scripted model, on one locked write transaction at one moment (`now`)."""

    def __init__(self, conn: Connection, book: ScriptBook, now: datetime) -> None:
        self.conn = conn
        self.book = book
        self.now = now
        self.stamp = iso(now)

    # ---- building blocks ------------------------------------------------------------------------------

    def _script(self, turn: TurnRow) -> Script:
        return self.book.script(turn.scenario, Profile(turn.profile))

    def _event(self, turn: TurnRow, kind: str, slot: str, payload: dict[str, Any]) -> None:
        event = SessionEvent.model_validate(
            {
                "event_id": f"evt_{uuid.uuid4().hex}",
                "timestamp": self.now,
                "kind": kind,
                "turn_id": turn.turn_id,
                slot: payload,
            }
        )
        Store.add_session_event(self.conn, turn.chat_id, turn.turn_id, encode_event(event))

    def _lifecycle(self, turn: TurnRow, kind: str, reason: str | None = None) -> None:
        payload: dict[str, Any] = {"run_id": turn.turn_id}
        if reason is not None:
            payload["reason"] = reason
        self._event(turn, kind, "lifecycle", payload)

    def _append(self, turn: TurnRow, chunks: Sequence[Mapping[str, Any]], *, close: bool) -> TurnRow:
        """Store `chunks` at the end of the turn's current segment and refold its message."""
        last = Store.append_chunks(self.conn, turn.turn_id, turn.segment, turn.last_sequence + 1, chunks, self.stamp)
        segment = Store.segment_chunks(self.conn, turn.turn_id, turn.segment)
        message_id = IdMinter(turn.turn_id).id(Family.MESSAGE, "msg-1")
        values: dict[str, Any] = {
            "last_sequence": last,
            "message": fold_message(segment, Profile(turn.profile), turn.prior, message_id),
            "segment_closed": close or turn.segment_closed,
            "updated_at": self.stamp,
        }
        Store.update_turn(self.conn, turn.turn_id, values)
        return replace(turn, **values)

    def _finish(self, turn: TurnRow, *, idle: bool = True) -> TurnRow:
        """End the turn: its status follows how its last stream ended."""
        status, error = _ending(Store.segment_chunks(self.conn, turn.turn_id, turn.segment))
        return self._end(turn, status, error, idle=idle)

    def _end(self, turn: TurnRow, status: str, error: str | None, *, idle: bool) -> TurnRow:
        """Store the turn's final state; `idle`: the run was running and goes idle (a paused one already is)."""
        values: dict[str, Any] = {
            "status": status,
            "error_text": error,
            "phase": DONE,
            "segment_closed": True,
            "finished_at": self.stamp,
            "updated_at": self.stamp,
        }
        Store.update_turn(self.conn, turn.turn_id, values)
        if status == "FAILED":
            self._event(turn, "session.error", "error", {"run_id": turn.turn_id, "error_text": error or ""})
        if idle:
            self._lifecycle(turn, IDLE_KIND)
        return replace(turn, **values)

    def _store_snapshot(self, chat: ChatRow, snapshot: AgentSessionSnapshot) -> ChatRow:
        text = json_text(snapshot.to_json())
        Store.set_state_snapshot(self.conn, chat.chat_id, text, self.stamp)
        return replace(chat, state_snapshot=text)

    @staticmethod
    def pending_snapshot(chat: ChatRow, turn: TurnRow) -> AgentSessionSnapshot | None:
        """The chat's session snapshot when it is readable and holds this turn's ask, else None."""
        try:
            snapshot = load_snapshot(read_snapshot_json(chat.state_snapshot))
        except SnapshotError:
            return None
        call = snapshot.pending_tool_call
        if snapshot.run_context.run_id != turn.turn_id or call is None or call.interrupt_id != turn.interrupt_id:
            return None
        return snapshot

    # ---- steps ----------------------------------------------------------------------------------------

    def start(self, chat: ChatRow, request: TurnRequest, script: Script, ttl: float) -> TurnRow:
        """Insert a new turn and play its script to the end, or to its approval pause."""
        turn_id = f"turn_{uuid.uuid4().hex}"
        minter = IdMinter(turn_id)
        values: dict[str, Any] = {
            "turn_id": turn_id,
            "chat_id": chat.chat_id,
            "profile": request.profile.value,
            "scenario": request.scenario,
            "query": request.query,
            "client_idempotency_key": request.client_idempotency_key,
            "approval_ttl_s": ttl,
            "status": "RUNNING",
            "phase": DONE,
            "segment": 0,
            "segment_closed": False,
            "last_sequence": 0,
            "message": {"id": minter.id(Family.MESSAGE, "msg-1"), "role": "assistant", "parts": []},
            "prior": None,
            "interrupt_id": None,
            "expires_at": None,
            "error_text": None,
            "created_at": self.stamp,
            "updated_at": self.stamp,
            "started_at": self.stamp,
            "finished_at": None,
        }
        Store.insert_turn(self.conn, values)
        turn = TurnRow(**values)
        self._lifecycle(turn, RUNNING_KIND)
        plan = script.approval
        turn = self._append(turn, minter.live(script.opening, self.stamp), close=plan is None)
        if plan is None:
            return self._finish(turn)
        if plan.at_pause:
            turn = self._append(turn, minter.live(plan.at_pause, self.stamp), close=True)
        interrupt_id = minter.id(Family.APPROVAL, plan.approval_id)
        tool_use_id = minter.id(Family.TOOL_CALL, plan.tool_call_id)
        expires = self.now + timedelta(seconds=ttl)
        pending = new_pending_snapshot(
            interrupt_id=interrupt_id,
            tool_name=plan.tool_name,
            tool_args=plan.tool_args,
            expires_at=expires,
            thread_id=chat.chat_id,
            run_id=turn_id,
            now=self.now,
            tool_use_id=tool_use_id,
        )
        self._store_snapshot(chat, pending)
        ask = {
            "interrupt_id": interrupt_id,
            "tool_name": plan.tool_name,
            "tool_use_id": tool_use_id,
            "tool_args": plan.tool_args,
            "expires_at": iso(expires),
        }
        self._event(turn, INTERRUPT_KIND, "agent_interrupt", ask)
        self._lifecycle(turn, IDLE_KIND, reason="awaiting-approval")
        values = {"phase": AWAITING, "interrupt_id": interrupt_id, "expires_at": iso(expires)}
        Store.update_turn(self.conn, turn_id, values)
        return replace(turn, **values)

    def settle(self, chat: ChatRow, turn: TurnRow) -> tuple[ChatRow, TurnRow]:
        """Bring the turn up to date: play a continuation a crash left behind, expire an overdue ask."""
        if turn.phase == CONTINUING:
            return self.continue_turn(chat, turn)
        if needs_settling(turn, self.now):
            snapshot = self.pending_snapshot(chat, turn)
            call = None if snapshot is None else snapshot.pending_tool_call
            if snapshot is not None and call is not None and call.status is PendingToolStatus.PENDING_APPROVAL:
                chat = self._store_snapshot(chat, _expire_call(snapshot, call, self.now))
            turn = self._end_by_expiry(turn)
        return chat, turn

    def _end_by_expiry(self, turn: TurnRow) -> TurnRow:
        plan = self._script(turn).approval
        if plan is not None and not turn.segment_closed:
            turn = self._append(turn, IdMinter(turn.turn_id).live(plan.on_expiry, self.stamp), close=True)
        return self._finish(turn, idle=False)  # the run has been idle since it paused

    def continue_turn(self, chat: ChatRow, turn: TurnRow) -> tuple[ChatRow, TurnRow]:
        """Play what follows an applied decision: the tool (if approved), the answer, the end."""
        plan = self._script(turn).approval
        snapshot = self.pending_snapshot(chat, turn)
        call = None if snapshot is None else snapshot.pending_tool_call
        if plan is None or snapshot is None or call is None or call.decision is None:
            return chat, self._end(turn, "FAILED", "the session snapshot no longer holds the decision", idle=True)
        approved = call.status is PendingToolStatus.APPROVED_EXECUTING
        decision = call.decision
        reason = None if decision.action is ResumeAction.APPROVE or decision.message is MISSING else decision.message
        minter = IdMinter(turn.turn_id)
        chunks = minter.live(plan.answer(approved), self.stamp)
        if plan.style == "same-stream":
            chunks = with_decision(chunks, approved, reason)
        span: dict[str, Any] = {"tool_name": call.tool_name}
        if call.tool_use_id is not MISSING:
            span["tool_use_id"] = call.tool_use_id
        ran_on = tool_input(call)
        if ran_on is not None:  # approved and not yet executed: the tool runs now
            self._event(turn, TOOL_KINDS[0], "span", {**span, "input": ran_on})
        turn = self._append(turn, chunks, close=True)
        if ran_on is not None:
            result = tool_result(chunks, minter.id(Family.TOOL_CALL, plan.tool_call_id)) or {}
            self._event(turn, TOOL_KINDS[1], "span", {**span, "result": result})
            chat = self._store_snapshot(chat, record_result(snapshot, result, self.now))
        return chat, self._finish(turn)

    def cancel(self, turn: TurnRow) -> TurnRow:
        """End a paused turn as CANCELLED (an open stream gets an `abort` chunk)."""
        if not turn.segment_closed:
            abort: dict[str, Any] = {"type": "abort"}
            if Profile(turn.profile).major >= 6:
                abort["reason"] = CANCEL_REASON
            turn = self._append(turn, [abort], close=True)
        return self._end(turn, "CANCELLED", CANCEL_REASON, idle=False)  # paused: the run is already idle

    def record_outcome(self, chat: ChatRow, turn: TurnRow, outcome: Outcome) -> ResumeAnswer:
        """Store what the resume engine decided and phrase the answer (the continuation is played later)."""
        status = http_status(outcome)
        if isinstance(outcome, Applied):
            return self._record_applied(chat, turn, outcome)
        if isinstance(outcome, Expired):
            if outcome.changed:
                self._store_snapshot(chat, outcome.snapshot)
                if turn.phase == AWAITING:
                    self._end_by_expiry(turn)
            expired_at = iso(outcome.call.expires_at)
            return answer_error(status, "expired", f"the approval {outcome.call.interrupt_id} expired at {expired_at}")
        if isinstance(outcome, Conflict):
            return answer_error(status, "conflict", outcome.message, outcome.reason.value)
        assert isinstance(outcome, Invalid)
        return answer_error(status, "invalid", str(outcome.error), outcome.reason)

    def _record_applied(self, chat: ChatRow, turn: TurnRow, outcome: Applied) -> ResumeAnswer:
        """The decision and its event, stored together; a new-stream answer gets its prior now."""
        self._store_snapshot(chat, outcome.snapshot)
        self._lifecycle(turn, RUNNING_KIND, reason="resumed")
        Store.add_session_event(self.conn, turn.chat_id, turn.turn_id, encode_event(outcome.event))
        decided = outcome.snapshot.pending_tool_call
        assert decided is not None
        assert decided.decision is not None
        approved = decided.status is PendingToolStatus.APPROVED_EXECUTING
        values: dict[str, Any] = {"phase": CONTINUING, "updated_at": self.stamp}
        plan = self._script(turn).approval
        if plan is not None and plan.style == "new-stream":
            decision = decided.decision
            reason = None if approved or decision.message is MISSING else decision.message
            prior = answer_approval(turn.message, decided.interrupt_id, approved, reason)
            values |= {"segment": turn.segment + 1, "segment_closed": False, "prior": prior, "message": prior}
        Store.update_turn(self.conn, turn.turn_id, values)
        body = {
            "applied": True,
            "outcome": "applied",
            "turn_id": turn.turn_id,
            "interrupt_id": decided.interrupt_id,
            "action": decided.decision.action.value,
            "event_id": outcome.event.event_id,
            "status": "RUNNING",
        }
        return ResumeAnswer(http_status(outcome), body)
