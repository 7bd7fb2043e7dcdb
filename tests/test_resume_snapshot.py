"""Session snapshot v2 and the transition table (seed 004 tasks 1-2, counterparts named `test_seed004_*`)."""

from __future__ import annotations

import copy
import itertools
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from seed_payloads import SEED004_V1, SEED004_V2
from turnwire.findings import Level
from turnwire.resume import (
    AgentSessionSnapshot,
    IllegalTransition,
    MalformedSnapshot,
    PendingToolStatus,
    UnsupportedSnapshotVersion,
    UnversionedSnapshot,
    check_snapshot,
    check_snapshot_transition,
    ensure_transition,
    load_snapshot,
    load_transition_table,
    new_pending_snapshot,
    transition_table,
)

S = PendingToolStatus
T0 = datetime(2026, 3, 3, 11, 59, tzinfo=UTC)


def with_call(**changes: Any) -> dict[str, Any]:
    snap = copy.deepcopy(SEED004_V2)
    snap["pending_tool_call"].update(changes)
    return snap


# ---- seed 004 task 1: the strict v2 model ---------------------------------------------------------------


def test_seed004_state_snapshot_v2_model_accepts_valid_payload() -> None:
    model = load_snapshot(SEED004_V2)
    assert model.version == 2
    assert model.pending_tool_call is not None
    assert model.pending_tool_call.status is S.PENDING_APPROVAL
    assert model.pending_tool_call.expires_at == datetime(2026, 3, 3, 12, tzinfo=UTC)
    assert AgentSessionSnapshot.model_validate_json(model.model_dump_json()) == model


def test_seed004_state_snapshot_v2_rejects_wrong_version() -> None:
    with pytest.raises(UnsupportedSnapshotVersion) as info:
        load_snapshot(SEED004_V1)
    assert info.value.version == 1
    with pytest.raises(ValidationError):  # the model alone refuses it too (a ValueError, as in the seed)
        AgentSessionSnapshot.model_validate_json(json.dumps(SEED004_V1))


@pytest.mark.parametrize("version", ["2", True, 3, None, 2.5])
def test_any_version_but_2_is_refused_not_coerced(version: object) -> None:
    with pytest.raises(UnsupportedSnapshotVersion):
        load_snapshot({**SEED004_V2, "version": version})


def test_unversioned_snapshot_is_its_own_error() -> None:
    snap = {k: v for k, v in SEED004_V2.items() if k != "version"}
    with pytest.raises(UnversionedSnapshot, match="no version"):
        load_snapshot(snap)


@pytest.mark.parametrize(
    ("label", "snapshot"),
    [
        ("extra key", {**SEED004_V2, "state": "x"}),
        ("no run context", {k: v for k, v in SEED004_V2.items() if k != "run_context"}),
        ("naive timestamp", with_call(expires_at="2026-03-03T12:00:00")),
        ("unix timestamp", with_call(expires_at=1772539200)),
        ("unknown status", with_call(status="DONE")),
        ("empty interrupt id", with_call(interrupt_id="")),
        ("args not an object", with_call(tool_args=["to", "u2"])),
        ("pending with a decision", with_call(decision={"action": "approve"})),
        ("approved without a decision", with_call(status="APPROVED_EXECUTING")),
        ("rejected holding an approve", with_call(status="REJECTED", decision={"action": "approve"})),
        ("expired holding a decision", with_call(status="EXPIRED", decision={"action": "reject"})),
        ("result before execution", with_call(status="APPROVED_EXECUTING", decision={"action": "approve"}, result={})),
        ("not an object", ["version", 2]),
    ],
)
def test_malformed_v2_snapshots_are_refused(label: str, snapshot: object) -> None:
    with pytest.raises(MalformedSnapshot):
        load_snapshot(snapshot)


def test_every_status_with_what_it_may_hold_is_accepted() -> None:
    ok = [
        with_call(status="APPROVED_EXECUTING", decision={"action": "approve"}),
        with_call(status="EXECUTED", decision={"action": "approve"}, result={"ok": True}),
        with_call(status="EXECUTED", decision={"action": "approve", "updated_input": "", "has_updated_input": True}),
        with_call(status="REJECTED", decision={"action": "reject", "message": "no"}),
        with_call(status="REJECTED", decision={"action": "respond", "message": "why?"}),
        with_call(status="EXPIRED"),
        {**SEED004_V2, "pending_tool_call": None},
    ]
    for snap in ok:
        assert load_snapshot(snap).version == 2


# ---- seed 004 task 2: the service writes v2 --------------------------------------------------------------


def test_seed004_set_pending_tool_call_writes_v2_snapshot() -> None:
    snapshot = new_pending_snapshot(
        interrupt_id="int-1",
        tool_name="srv.transfer_funds",
        tool_args={"to": "u2", "amount": 100},
        expires_at=T0 + timedelta(minutes=5),
        thread_id="t1",
        run_id="r1",
        now=T0,
    )
    written = snapshot.to_json()
    assert written["version"] == 2
    assert written["run_context"]["run_id"] == "r1"
    assert written["pending_tool_call"]["status"] == "PENDING_APPROVAL"
    assert "tool_use_id" not in written["pending_tool_call"]  # absent, not null
    assert load_snapshot(written) == snapshot


# ---- checks over a target's snapshots --------------------------------------------------------------------


def test_check_snapshot_reports_version_and_schema() -> None:
    assert check_snapshot(SEED004_V2) == []
    (v1,) = check_snapshot(SEED004_V1)
    assert (v1.requirement, v1.level, v1.received, v1.json_path) == (
        "RESUME-SNAPSHOT-VERSION",
        Level.MUST,
        "1",
        "$.version",
    )
    (legacy,) = check_snapshot({"pending_tool_call": {"status": "PENDING_APPROVAL"}})
    assert (legacy.requirement, legacy.received) == ("RESUME-SNAPSHOT-VERSION", "no version")
    (bad,) = check_snapshot(with_call(status="EXECUTED"))
    assert bad.requirement == "RESUME-SNAPSHOT-SCHEMA"
    assert "decision" in bad.message


def test_check_snapshot_transition_follows_the_table() -> None:
    approved = with_call(status="APPROVED_EXECUTING", decision={"action": "approve"})
    assert check_snapshot_transition(SEED004_V2, approved) == []
    assert check_snapshot_transition(SEED004_V2, SEED004_V2) == []
    (back,) = check_snapshot_transition(approved, SEED004_V2)
    assert back.requirement == "RESUME-TRANSITION"
    assert back.received == "APPROVED_EXECUTING -> PENDING_APPROVAL"
    skipped = with_call(status="EXECUTED", decision={"action": "approve"})
    (skip,) = check_snapshot_transition(SEED004_V2, skipped)
    assert skip.received == "PENDING_APPROVAL -> EXECUTED"


def test_check_snapshot_transition_flags_a_rewritten_decision() -> None:
    rejected = with_call(status="REJECTED", decision={"action": "reject", "message": "rejected by user"})
    responded = with_call(status="REJECTED", decision={"action": "respond", "message": "why?"})
    (f,) = check_snapshot_transition(rejected, responded)
    assert f.requirement == "RESUME-TRANSITION"
    assert f.json_path == "$after.pending_tool_call.decision"


def test_check_snapshot_transition_reports_unreadable_snapshots_first() -> None:
    findings = check_snapshot_transition(SEED004_V1, SEED004_V2)
    assert [(f.requirement, f.json_path) for f in findings] == [("RESUME-SNAPSHOT-VERSION", "$before.version")]


def test_a_new_interrupt_is_not_a_transition() -> None:
    done = with_call(status="EXECUTED", decision={"action": "approve"})
    fresh = with_call(interrupt_id="int-2")
    assert check_snapshot_transition(done, fresh) == []


# ---- the transition table as data --------------------------------------------------------------------------


ALLOWED = {
    (S.PENDING_APPROVAL, S.APPROVED_EXECUTING),
    (S.APPROVED_EXECUTING, S.EXECUTED),
    (S.PENDING_APPROVAL, S.REJECTED),
    (S.PENDING_APPROVAL, S.EXPIRED),
}


def test_table_is_exactly_the_issue_state_machine() -> None:
    table = transition_table()
    assert table.initial is S.PENDING_APPROVAL
    assert {(t.source, t.target) for t in table.transitions} == ALLOWED
    assert {s for s, rule in table.statuses.items() if rule.terminal} == {S.EXECUTED, S.REJECTED, S.EXPIRED}
    assert set(table.statuses) == set(S)


@pytest.mark.parametrize(("source", "target"), list(itertools.product(S, S)))
def test_every_other_transition_is_a_typed_error(source: PendingToolStatus, target: PendingToolStatus) -> None:
    if (source, target) in ALLOWED:
        ensure_transition(source, target)
        return
    with pytest.raises(IllegalTransition) as info:
        ensure_transition(source, target)
    assert (info.value.source, info.value.target) == (source.value, target.value)


TABLE_HEAD = "initial: PENDING_APPROVAL\nstatuses:\n"
RULES = {
    "PENDING_APPROVAL": "{terminal: false, decisions: [], result: false}",
    "APPROVED_EXECUTING": "{terminal: false, decisions: [approve], result: false}",
    "EXECUTED": "{terminal: true, decisions: [approve], result: true}",
    "REJECTED": "{terminal: true, decisions: [reject, respond], result: false}",
    "EXPIRED": "{terminal: true, decisions: [], result: false}",
}


def write_table(tmp_path: Path, rules: dict[str, str], transitions: list[tuple[str, str]]) -> Path:
    body = TABLE_HEAD + "".join(f"  {s}: {r}\n" for s, r in rules.items()) + "transitions:\n"
    body += "".join(f"  - {{from: {a}, to: {b}, when: test}}\n" for a, b in transitions)
    path = tmp_path / "t.yaml"
    path.write_text(body)
    return path


def test_a_consistent_table_file_loads(tmp_path: Path) -> None:
    table = load_transition_table(write_table(tmp_path, RULES, [("PENDING_APPROVAL", "EXPIRED")]))
    assert table.allows(S.PENDING_APPROVAL, S.EXPIRED)
    assert not table.allows(S.PENDING_APPROVAL, S.REJECTED)


@pytest.mark.parametrize(
    ("label", "rules", "transitions"),
    [
        ("a status without a rule", {k: v for k, v in RULES.items() if k != "EXPIRED"}, []),
        ("a transition twice", RULES, [("PENDING_APPROVAL", "EXPIRED"), ("PENDING_APPROVAL", "EXPIRED")]),
        ("a terminal status moves", RULES, [("EXECUTED", "PENDING_APPROVAL")]),
        ("an unknown status", RULES, [("PENDING_APPROVAL", "DONE")]),
    ],
)
def test_an_inconsistent_table_file_is_refused(
    tmp_path: Path, label: str, rules: dict[str, str], transitions: list[tuple[str, str]]
) -> None:
    with pytest.raises(ValueError, match=r"\S"):
        load_transition_table(write_table(tmp_path, rules, transitions))
