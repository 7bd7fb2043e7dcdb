"""A stateful property test of the resume engine.

Hypothesis drives a store through any sequence of resumes (valid, invalid, legacy, for the right or a
wrong interrupt and run), repeats of the applied decision, clock steps (so asks expire), tool results
and new interrupts. Whatever the sequence: no interrupt is applied twice, every stored change follows
the transition table, every applied resume yields exactly one decision event, and the resulting event
log passes the ordering checks.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from turnwire.resume import (
    Applied,
    Conflict,
    ConflictReason,
    Expired,
    IllegalTransition,
    Invalid,
    Outcome,
    PendingToolStatus,
    check_decision_log,
    check_snapshot,
    check_snapshot_transition,
    encode_event,
    load_snapshot,
    new_pending_snapshot,
    record_result,
    resume,
    transition_table,
)

T0 = datetime(2026, 3, 3, 11, 59, tzinfo=UTC)

decisions = st.sampled_from(
    [
        {"action": "approve"},
        {"action": "approve", "updated_input": "{}", "has_updated_input": True},
        {"action": "approve", "updated_input": "", "has_updated_input": True},
        {"action": "reject"},
        {"action": "reject", "message": "no"},
        {"action": "respond", "message": "explain"},
        {"decision": "approved"},
        # invalid ones
        {"action": ""},
        {"action": "respond"},
        {"action": "allow"},
        {"decision": "denied"},
        {"action": "approve", "extra": 1},
    ]
)


class ResumeStore(RuleBasedStateMachine):
    """A session store that serializes resumes, as the reference runtime's row lock does."""

    def __init__(self) -> None:
        super().__init__()
        self.now = T0
        self.interrupts = 0
        self.stored: dict[str, Any] = {}
        self.events: list[dict[str, Any]] = []
        self.outcomes: list[Outcome] = []
        self.applied: Counter[str] = Counter()
        self.last_applied: tuple[dict[str, Any], str, str | None] | None = None
        self._interrupt()

    # ---- helpers -------------------------------------------------------------------------------------

    def _event(self, kind: str, slot: str, payload: dict[str, Any]) -> None:
        self.events.append(
            {
                "event_id": f"evt-{len(self.events)}",
                "timestamp": self.now.isoformat(),
                "kind": kind,
                "turn_id": "r1",
                slot: payload,
            }
        )

    def _interrupt(self) -> None:
        self.interrupts += 1
        n = self.interrupts
        snapshot = new_pending_snapshot(
            interrupt_id=f"int-{n}",
            tool_name="tool",
            tool_use_id=f"call-{n}",
            tool_args={"n": n},
            expires_at=self.now + timedelta(seconds=120),
            thread_id="t1",
            run_id="r1",
            now=self.now,
        )
        self.stored = snapshot.to_json()
        self._event("session.status_running", "lifecycle", {})
        ask = {"interrupt_id": f"int-{n}", "tool_name": "tool", "tool_use_id": f"call-{n}", "tool_args": {"n": n}}
        self._event("agent.interrupt", "agent_interrupt", ask)
        self._event("session.status_idle", "lifecycle", {})

    def _status(self) -> PendingToolStatus:
        call = load_snapshot(self.stored).pending_tool_call
        assert call is not None
        return call.status

    def _current(self) -> str:
        return f"int-{self.interrupts}"

    def _resume(self, decision: dict[str, Any], interrupt_id: str, run_id: str | None) -> Outcome:
        before = self.stored
        outcome = resume(before, decision, interrupt_id, run_id, self.now)
        self.outcomes.append(outcome)
        if isinstance(outcome, Applied):
            assert self.applied[interrupt_id] == 0, f"{interrupt_id} applied twice"
            assert self.now <= outcome.call.expires_at, "applied after the ask expired"
            self.applied[interrupt_id] += 1
            self.last_applied = (decision, interrupt_id, run_id)
            self.stored = outcome.snapshot.to_json()
            self._event("session.status_running", "lifecycle", {})
            self.events.append(encode_event(outcome.event))  # exactly one event per applied resume
            self._event("session.status_idle", "lifecycle", {})
        elif isinstance(outcome, Expired):
            assert outcome.snapshot.pending_tool_call is not None
            assert outcome.snapshot.pending_tool_call.status is PendingToolStatus.EXPIRED
            if outcome.changed:
                self.stored = outcome.snapshot.to_json()
            else:
                assert outcome.snapshot == load_snapshot(before)
        assert check_snapshot_transition(before, self.stored) == []
        return outcome

    # ---- rules ---------------------------------------------------------------------------------------

    @rule(decision=decisions, right_interrupt=st.booleans(), run=st.sampled_from([None, "r1", "r2"]))
    def send_resume(self, decision: dict[str, Any], right_interrupt: bool, run: str | None) -> None:
        interrupt_id = self._current() if right_interrupt else "int-0"
        outcome = self._resume(decision, interrupt_id, run)
        if isinstance(outcome, Applied):
            assert right_interrupt
            assert run in (None, "r1")
        if not right_interrupt and not isinstance(outcome, Invalid):
            assert isinstance(outcome, Conflict)
            assert outcome.reason is ConflictReason.INTERRUPT_MISMATCH

    @precondition(lambda self: self.last_applied is not None)
    @rule()
    def repeat_the_applied_decision(self) -> None:
        assert self.last_applied is not None
        decision, interrupt_id, run_id = self.last_applied
        outcome = self._resume(decision, interrupt_id, run_id)
        assert isinstance(outcome, Conflict)
        expected = (
            ConflictReason.ALREADY_APPLIED if interrupt_id == self._current() else ConflictReason.INTERRUPT_MISMATCH
        )
        assert outcome.reason is expected

    @rule(seconds=st.integers(0, 200))
    def step_the_clock(self, seconds: int) -> None:
        self.now += timedelta(seconds=seconds)

    @rule()
    def tool_returns(self) -> None:
        before = load_snapshot(self.stored)
        if self._status() is not PendingToolStatus.APPROVED_EXECUTING:
            try:
                record_result(before, {"ok": True}, self.now)
            except IllegalTransition:
                return
            raise AssertionError("a result was recorded for a call that was not approved")
        call = before.pending_tool_call
        assert call is not None
        ids = {"tool_name": call.tool_name, "tool_use_id": f"call-{self.interrupts}"}
        self._event("span.tool_call_start", "span", ids)
        self.stored = record_result(before, {"ok": True}, self.now).to_json()
        self._event("span.tool_call_end", "span", ids)
        assert check_snapshot_transition(before.to_json(), self.stored) == []

    @precondition(lambda self: transition_table().statuses[self._status()].terminal)
    @rule()
    def next_interrupt(self) -> None:
        self._interrupt()

    # ---- invariants ------------------------------------------------------------------------------------

    @invariant()
    def stored_snapshot_is_valid_v2(self) -> None:
        assert check_snapshot(self.stored) == []

    @invariant()
    def nothing_applied_twice(self) -> None:
        assert all(count == 1 for count in self.applied.values())

    @invariant()
    def one_decision_event_per_applied_resume(self) -> None:
        decisions_logged = [e for e in self.events if e["kind"] == "x.permission.decision"]
        assert len(decisions_logged) == sum(isinstance(o, Applied) for o in self.outcomes)

    @invariant()
    def the_log_passes_the_ordering_checks(self) -> None:
        assert check_decision_log(self.events, self.outcomes) == []


ResumeStore.TestCase.settings = settings(max_examples=60, stateful_step_count=30, deadline=None)
TestResumeStore = ResumeStore.TestCase
