"""Ordering checks over a session event log: each planted violation is flagged, clean logs are clean."""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from strategies import json_values
from turnwire.findings import Level
from turnwire.resume import (
    Applied,
    Outcome,
    check_decision_log,
    decode_event,
    encode_event,
    new_pending_snapshot,
    resume,
)

T0 = datetime(2026, 3, 3, 11, 59, tzinfo=UTC)
ARGS = {"path": "/etc/passwd"}
SNAPSHOT = new_pending_snapshot(
    interrupt_id="permission_interrupt",
    tool_name="permission_tool",
    tool_use_id="permission_call",
    tool_args=ARGS,
    expires_at=T0 + timedelta(minutes=10),
    thread_id="thread-1",
    run_id="run-1",
    now=T0,
)
IDS = {"tool_name": "permission_tool", "tool_use_id": "permission_call"}


def ev(n: int, kind: str, slot: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {
        "event_id": f"evt-{n}",
        "timestamp": "2026-03-03T12:00:00Z",
        "kind": kind,
        "turn_id": "run-1",
        slot: payload,
    }


RUNNING = ev(0, "session.status_running", "lifecycle", {})
INTERRUPT = ev(
    1, "agent.interrupt", "agent_interrupt", {"interrupt_id": "permission_interrupt", **IDS, "tool_args": ARGS}
)
IDLE = ev(2, "session.status_idle", "lifecycle", {})
TOOL_START = ev(3, "span.tool_call_start", "span", {**IDS, "input": ARGS})
TOOL_END = ev(4, "span.tool_call_end", "span", {**IDS, "result": {"ok": True}})


def applied(decision: dict[str, Any]) -> tuple[Applied, dict[str, Any]]:
    outcome = resume(SNAPSHOT, decision, "permission_interrupt", None, T0 + timedelta(minutes=1))
    assert isinstance(outcome, Applied)
    return outcome, encode_event(outcome.event)


APPROVED, DECISION = applied({"action": "approve"})


def clean_log() -> list[dict[str, Any]]:
    return copy.deepcopy([RUNNING, INTERRUPT, IDLE, RUNNING, DECISION, TOOL_START, TOOL_END, IDLE])


def ids(findings: list[Any]) -> list[str]:
    return [f.requirement for f in findings]


def test_a_clean_log_has_no_findings() -> None:
    assert check_decision_log(clean_log(), [APPROVED]) == []
    typed = [decode_event(e).event for e in clean_log()]
    assert check_decision_log(typed, [APPROVED]) == []


def test_planted_decision_after_the_tool_result() -> None:
    log = [RUNNING, INTERRUPT, IDLE, RUNNING, TOOL_START, TOOL_END, DECISION, IDLE]
    (f,) = check_decision_log(log, [APPROVED])
    assert (f.requirement, f.level, f.json_path) == ("RESUME-DECISION-BEFORE-TOOL", Level.MUST, "$[6]")
    assert "event 4" in (f.received or "")


def test_planted_two_decisions() -> None:
    second = {**DECISION, "event_id": "evt-99"}
    log = [RUNNING, INTERRUPT, IDLE, RUNNING, DECISION, second, TOOL_START, TOOL_END, IDLE]
    (f,) = check_decision_log(log, [APPROVED])
    assert (f.requirement, f.json_path) == ("RESUME-DECISION-DUPLICATE", "$[5]")
    assert ids(check_decision_log(log)) == ["RESUME-DECISION-DUPLICATE"]  # without outcomes too


def test_planted_decision_for_an_invalid_respond() -> None:
    invalid = resume(SNAPSHOT, {"action": "respond", "message": ""}, "permission_interrupt", None, T0)
    bogus = copy.deepcopy(DECISION)
    bogus["extension"]["data"] = {"action": "respond", **IDS}  # what an invalid respond would record
    log = [RUNNING, INTERRUPT, IDLE, RUNNING, bogus, IDLE]
    assert ids(check_decision_log(log, [invalid])) == ["EVENT-PAYLOAD-INVALID", "RESUME-DECISION-NOT-APPLIED"]
    # even a well-formed decision event is wrong when its resume was not applied
    log = [RUNNING, INTERRUPT, IDLE, RUNNING, DECISION, IDLE]
    (f,) = check_decision_log(log, [invalid])
    assert (f.requirement, f.json_path) == ("RESUME-DECISION-NOT-APPLIED", "$[4]")
    assert "invalid" in f.message


def test_planted_decision_carrying_the_original_arguments() -> None:
    carrying = copy.deepcopy(DECISION)
    carrying["extension"]["data"]["tool_args"] = dict(ARGS)
    log = [RUNNING, INTERRUPT, IDLE, RUNNING, carrying, TOOL_START, TOOL_END, IDLE]
    findings = check_decision_log(log, [APPROVED])
    assert ids(findings) == ["EVENT-PAYLOAD-INVALID", "RESUME-DECISION-ARGS"]
    assert findings[1].json_path == "$[4].extension.data.tool_args"


def test_original_arguments_as_text_are_found_too() -> None:
    _, rejected = applied({"action": "reject", "message": 'refused {"path": "/etc/passwd"}'})
    log = [RUNNING, INTERRUPT, IDLE, RUNNING, rejected, IDLE]
    (f,) = check_decision_log(log)  # the originals come from the interrupt event
    assert (f.requirement, f.json_path) == ("RESUME-DECISION-ARGS", "$[4].extension.data.decision_text")


def test_the_humans_own_replacement_is_not_the_original_arguments() -> None:
    outcome, same = applied({"action": "approve", "updated_input": '{"path":"/etc/passwd"}', "has_updated_input": True})
    log = [RUNNING, INTERRUPT, IDLE, RUNNING, same, TOOL_START, TOOL_END, IDLE]
    assert check_decision_log(log, [outcome]) == []


def test_decision_without_or_before_its_interrupt() -> None:
    (f,) = check_decision_log([RUNNING, DECISION, TOOL_START, TOOL_END, IDLE])
    assert (f.requirement, f.received) == ("RESUME-DECISION-AFTER-INTERRUPT", "none")
    (f,) = check_decision_log([RUNNING, DECISION, INTERRUPT, IDLE])
    assert (f.requirement, f.received) == ("RESUME-DECISION-AFTER-INTERRUPT", "first at event 2")


def test_decision_recorded_after_the_session_went_idle() -> None:
    log = [RUNNING, INTERRUPT, IDLE, DECISION, RUNNING, TOOL_START, TOOL_END, IDLE]
    (f,) = check_decision_log(log, [APPROVED])
    assert (f.requirement, f.json_path) == ("RESUME-DECISION-BEFORE-IDLE", "$[3]")
    # the interrupted run went idle, a resumed run started: that is where the decision belongs
    assert check_decision_log([INTERRUPT, IDLE, RUNNING, DECISION, IDLE], [APPROVED]) == []


def test_applied_resume_without_its_decision_event() -> None:
    (f,) = check_decision_log([RUNNING, INTERRUPT, IDLE, RUNNING, TOOL_START, TOOL_END, IDLE], [APPROVED])
    assert (f.requirement, f.received, f.json_path) == ("RESUME-DECISION-MISSING", "0", "$")


def test_non_applied_outcomes_and_repeats() -> None:
    expired = resume(SNAPSHOT, {"action": "approve"}, "permission_interrupt", None, T0 + timedelta(hours=1))
    assert ids(check_decision_log(clean_log(), [expired])) == ["RESUME-DECISION-NOT-APPLIED"]
    assert check_decision_log([RUNNING, INTERRUPT, IDLE], [expired]) == []
    repeat = resume(APPROVED.snapshot, {"action": "approve"}, "permission_interrupt", None, T0 + timedelta(minutes=2))
    outcomes: list[Outcome] = [APPROVED, repeat]
    assert check_decision_log(clean_log(), outcomes) == []  # the repeat adds no event, and needs none


def test_calls_without_a_tool_use_id_match_by_tool_name() -> None:
    snap = new_pending_snapshot(
        interrupt_id="int-1",
        tool_name="srv.transfer_funds",
        tool_args={"to": "u2", "amount": 100},
        expires_at=T0 + timedelta(minutes=5),
        thread_id="t1",
        run_id="r1",
        now=T0,
    )
    outcome = resume(snap, {"action": "approve"}, "int-1", "r1", T0)
    assert isinstance(outcome, Applied)
    decision = encode_event(outcome.event)
    name = {"tool_name": "srv.transfer_funds"}
    interrupt = ev(1, "agent.interrupt", "agent_interrupt", {"interrupt_id": "int-1", **name})
    start, end = ev(3, "span.tool_call_start", "span", name), ev(4, "span.tool_call_end", "span", name)
    assert check_decision_log([interrupt, IDLE, RUNNING, decision, start, end, IDLE], [outcome]) == []
    late = check_decision_log([interrupt, IDLE, RUNNING, start, end, decision, IDLE], [outcome])
    assert ids(late) == ["RESUME-DECISION-BEFORE-TOOL"]


def test_events_of_other_calls_do_not_count() -> None:
    other = {"tool_name": "other_tool", "tool_use_id": "other_call"}
    log = [RUNNING, INTERRUPT, IDLE, RUNNING, ev(9, "span.tool_call_end", "span", other), DECISION, IDLE]
    assert check_decision_log(log, [APPROVED]) == []


def test_unreadable_events_are_findings_not_errors() -> None:
    findings = check_decision_log(
        [RUNNING, "garbage", {**IDLE, "kind": "bogus"}, INTERRUPT, IDLE, RUNNING, DECISION, IDLE]
    )
    assert ids(findings) == ["EVENT-ENVELOPE", "EVENT-KIND-UNKNOWN"]
    assert [f.json_path for f in findings] == ["$[1]", "$[2].kind"]


@given(st.lists(json_values | st.sampled_from(clean_log()), max_size=12))
def test_the_checker_never_raises(log: list[Any]) -> None:
    assert isinstance(check_decision_log(log, [APPROVED]), list)
