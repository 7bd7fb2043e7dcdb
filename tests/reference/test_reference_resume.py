"""Resume over HTTP, on SQLite and PostgreSQL: exactly once under concurrency, and seed 004's route cases.

Seed 004 (the strict interrupt/resume refactor), task 5: an expired pending call answers 410, a legacy
snapshot in the store 422, a repeat and a run_id mismatch 409. The decision is a durable fact recorded
with the state change, before the tool runs, exactly once.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from refkit import AgentClient, client_answer, interrupt_id, jcs, new_chat

from turnwire.canonical import dumps, loads
from turnwire.findings import Level
from turnwire.fold import fold
from turnwire.profiles import Profile
from turnwire.reference import ReferenceRuntime, ReferenceServer, Store, TurnRequest
from turnwire.reference.db import chats
from turnwire.reference.playback import Playback
from turnwire.resume import PERMISSION_DECISION_KIND, check_decision_log
from turnwire.stream import read_stream

DECISION = PERMISSION_DECISION_KIND


@pytest.fixture(scope="module")
def client(server: ReferenceServer) -> Iterator[AgentClient]:
    c = AgentClient(server.api_url)
    yield c
    c.close()


@pytest.fixture(scope="module")
def store(db_url: str) -> Iterator[Store]:
    s = Store.open(db_url)
    yield s
    s.close()


def session_snapshot(store: Store, chat: str) -> Any:
    with store.read() as conn:
        row = Store.get_chat(conn, chat)
    assert row is not None
    assert row.state_snapshot is not None
    return loads(row.state_snapshot)


def plant(store: Store, chat: str, raw: object) -> None:
    with store.write() as conn:
        conn.execute(chats.update().where(chats.c.chat_id == chat).values(state_snapshot=dumps(raw).decode()))


def paused(
    client: AgentClient, scenario: str = "tool-approval-approved", profile: str = "ai-sdk-v7", **kw: Any
) -> tuple[str, str, str]:
    chat = new_chat()
    turn = client.create_ok(chat, scenario, profile, **kw)["turn_id"]
    return chat, turn, interrupt_id(client.snapshot(chat, turn))


def decisions(client: AgentClient, chat: str, turn: str) -> list[dict[str, Any]]:
    return [e for e in client.timeline(chat, turn) if e["kind"] == DECISION]


# ---- exactly once ----------------------------------------------------------------------------------------


def test_100_concurrent_resumes_apply_exactly_once(server: ReferenceServer, client: AgentClient, store: Store) -> None:
    chat, turn, iid = paused(client)
    url = f"/chats/{chat}/turns/{turn}/resume"
    bodies = [
        {
            "interrupt_id": iid,
            "decision": {"action": "approve"} if i % 2 else {"action": "reject", "message": f"no {i}"},
        }
        for i in range(100)
    ]

    async def burst() -> list[httpx.Response]:
        limits = httpx.Limits(max_connections=100, max_keepalive_connections=100)
        async with httpx.AsyncClient(base_url=server.api_url, timeout=60, limits=limits) as http:
            return await asyncio.gather(*(http.post(url, json=body) for body in bodies))

    responses = asyncio.run(burst())
    assert Counter(r.status_code for r in responses) == {200: 1, 409: 99}
    assert all(r.json()["error"] == "conflict" for r in responses if r.status_code == 409)
    winner = next(r.json() for r in responses if r.status_code == 200)

    timeline = client.timeline(chat, turn)
    assert [e["extension"]["data"]["action"] for e in timeline if e["kind"] == DECISION] == [winner["action"]]
    assert check_decision_log(timeline) == []
    with store.read() as conn:
        assert Store.count_session_events(conn, turn, DECISION) == 1
    call = session_snapshot(store, chat)["pending_tool_call"]
    assert call["status"] == ("EXECUTED" if winner["action"] == "approve" else "REJECTED")
    final = client.snapshot(chat, turn)
    assert final["status"] == "COMPLETED"
    states = [p["state"] for p in final["parts"] if p["type"].startswith("tool-")]
    assert states == (["output-available"] if winner["action"] == "approve" else ["output-denied"])


# ---- seed 004, task 5 ------------------------------------------------------------------------------------


def test_expired_pending_call_answers_410_and_becomes_expired(client: AgentClient, store: Store) -> None:
    chat, turn, iid = paused(client, approval_ttl_s=0.2)
    time.sleep(0.35)
    gone = client.resume(chat, turn, {"interrupt_id": iid, "decision": {"action": "approve"}})
    assert gone.status_code == 410
    assert gone.json()["error"] == "expired"
    assert session_snapshot(store, chat)["pending_tool_call"]["status"] == "EXPIRED"
    assert decisions(client, chat, turn) == []
    again = client.resume(chat, turn, {"interrupt_id": iid, "decision": {"action": "reject"}})
    assert again.status_code == 410
    stream = client.events(chat, turn)
    assert stream.done
    assert [c["type"] for c in stream.chunks[-2:]] == ["finish-step", "finish"]
    assert stream.chunks[-1]["finishReason"] == "tool-calls"


@pytest.mark.parametrize(
    ("legacy", "reason"),
    [
        ({"pending_tool_call": {"status": "PENDING_APPROVAL"}}, "unversioned-snapshot"),
        (
            {"version": 1, "pending_tool_call": None, "run_context": {"thread_id": "t1", "run_id": "r1"}},
            "unsupported-snapshot-version",
        ),
        ({"version": 2, "pending_tool_call": {"status": "PENDING_APPROVAL"}}, "malformed-snapshot"),
    ],
    ids=["unversioned", "version-1", "malformed-v2"],
)
def test_legacy_snapshot_in_the_store_answers_422(
    client: AgentClient, store: Store, legacy: object, reason: str
) -> None:
    chat, turn, iid = paused(client)
    plant(store, chat, legacy)
    refused = client.resume(chat, turn, {"interrupt_id": iid, "decision": {"action": "approve"}})
    assert refused.status_code == 422
    assert refused.json()["error"] == "invalid"
    assert refused.json()["reason"] == reason
    assert session_snapshot(store, chat) == legacy  # refused, never coerced or rewritten
    assert decisions(client, chat, turn) == []


def test_legacy_snapshot_planted_over_the_test_hook(client: AgentClient) -> None:
    chat, turn, iid = paused(client)
    planted = client.http.put(f"/_test/chats/{chat}/session-snapshot", content=b'{"pending_tool_call": {}}')
    assert planted.status_code == 204
    refused = client.resume(chat, turn, {"interrupt_id": iid, "decision": {"action": "approve"}})
    assert refused.status_code == 422
    assert client.http.put("/_test/chats/no-such-chat/session-snapshot", content=b"{}").status_code == 404


def test_repeat_answers_409_already_applied_and_changes_nothing(client: AgentClient, store: Store) -> None:
    chat, turn, iid = paused(client)
    body = {"interrupt_id": iid, "decision": {"action": "approve"}}
    assert client.resume(chat, turn, body).status_code == 200
    before = (session_snapshot(store, chat), client.timeline(chat, turn), client.events(chat, turn).raw)
    repeat = client.resume(chat, turn, body)
    assert repeat.status_code == 409
    assert repeat.json()["reason"] == "already-applied"
    other = client.resume(chat, turn, {"interrupt_id": iid, "decision": {"action": "reject"}})
    assert other.status_code == 409
    assert other.json()["reason"] == "already-decided"
    assert (session_snapshot(store, chat), client.timeline(chat, turn), client.events(chat, turn).raw) == before


def test_run_id_mismatch_answers_409_and_the_right_run_applies(client: AgentClient) -> None:
    chat, turn, iid = paused(client)
    wrong = client.resume(chat, turn, {"interrupt_id": iid, "run_id": "another-run", "decision": {"action": "approve"}})
    assert wrong.status_code == 409
    assert wrong.json()["reason"] == "run-mismatch"
    assert decisions(client, chat, turn) == []
    right = client.resume(chat, turn, {"interrupt_id": iid, "run_id": turn, "decision": {"action": "approve"}})
    assert right.status_code == 200


def test_interrupt_mismatch_answers_409(client: AgentClient) -> None:
    chat, turn, _ = paused(client)
    wrong = client.resume(chat, turn, {"interrupt_id": "approval_other", "decision": {"action": "approve"}})
    assert wrong.status_code == 409
    assert wrong.json()["reason"] == "interrupt-mismatch"


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"decision": {"action": ""}}, "empty-action"),
        ({"decision": {"action": "maybe"}}, "unknown-action"),
        ({"decision": {"action": "respond"}}, "empty-respond-message"),
        ({"decision": {"action": "respond", "message": ""}}, "empty-respond-message"),
        ({"decision": {"action": "approve", "extra": 1}}, "malformed-decision"),
        ({}, "malformed-request"),
        ({"decision": {"action": "approve"}, "surprise": True}, "malformed-request"),
    ],
)
def test_invalid_decisions_answer_422_and_record_nothing(
    client: AgentClient, store: Store, body: dict[str, Any], reason: str
) -> None:
    chat, turn, iid = paused(client)
    before = session_snapshot(store, chat)
    refused = client.resume(chat, turn, {"interrupt_id": iid, **body} if body else body)
    assert refused.status_code == 422, refused.text
    assert refused.json()["reason"] == reason
    assert session_snapshot(store, chat) == before
    assert decisions(client, chat, turn) == []


def test_a_body_that_is_not_json_answers_422_naming_the_body(client: AgentClient) -> None:
    chat, turn, _ = paused(client)
    refused = client.http.post(f"/chats/{chat}/turns/{turn}/resume", content=b"{not json")
    assert refused.status_code == 422
    assert refused.json()["message"].startswith("body:")


def test_the_legacy_decision_form_is_read_as_approve(client: AgentClient) -> None:
    chat, turn, iid = paused(client)
    applied = client.resume(chat, turn, {"interrupt_id": iid, "decision": {"decision": "approved"}})
    assert applied.status_code == 200
    assert applied.json()["action"] == "approve"


# ---- what a decision records and plays ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("decision", "recorded"),
    [
        (
            {"action": "approve", "updated_input": '{"path":"/tmp/safe.txt"}', "has_updated_input": True},
            {"action": "approve", "updated_input": '{"path":"/tmp/safe.txt"}', "has_updated_input": True},
        ),
        (
            {"action": "approve", "updated_input": "", "has_updated_input": True},
            {"action": "approve", "has_updated_input": True},
        ),
        ({"action": "reject"}, {"action": "reject", "decision_text": "rejected by user"}),
        (
            {"action": "respond", "message": "Please explain first."},
            {"action": "respond", "decision_text": "Please explain first."},
        ),
    ],
    ids=["approve-updated-input", "approve-explicit-empty", "reject-default", "respond"],
)
@pytest.mark.parametrize("profile", ["ai-sdk-v6", "ai-sdk-v7"])
def test_decision_event_precedes_the_tool_and_carries_no_arguments(
    client: AgentClient, decision: dict[str, Any], recorded: dict[str, Any], profile: str
) -> None:
    chat, turn, iid = paused(client, "tool-approval-request", profile)
    applied = client.resume(chat, turn, {"interrupt_id": iid, "decision": decision})
    assert applied.status_code == 200, applied.text
    timeline = client.timeline(chat, turn)
    assert check_decision_log(timeline) == []
    [event] = [e for e in timeline if e["kind"] == DECISION]
    data = event["extension"]["data"]
    assert {k: v for k, v in data.items() if k not in ("tool_name", "tool_use_id")} == recorded
    assert data["tool_name"] == "deleteFile"
    kinds = [e["kind"] for e in timeline]
    approved = decision["action"] == "approve"
    tail = [DECISION, "span.tool_call_start", "span.tool_call_end"] if approved else [DECISION]
    assert kinds == [
        "session.status_running",
        "agent.interrupt",
        "session.status_idle",
        "session.status_running",
        *tail,
        "session.status_idle",
    ]
    if approved and decision.get("has_updated_input"):
        start = next(e for e in timeline if e["kind"] == "span.tool_call_start")
        assert start["span"]["input"] == decision["updated_input"]  # the tool ran on the replacement
    assert_stream_is_the_snapshot(client, chat, turn, Profile(profile), iid)


def assert_stream_is_the_snapshot(client: AgentClient, chat: str, turn: str, profile: Profile, iid: str) -> None:
    """The turn's last stream is valid for the profile and folds (after the prior) to the snapshot's parts."""
    first = client.events(chat, turn)
    prior = None
    last = first
    if profile is Profile.V6:
        call = next(e for e in client.timeline(chat, turn) if e["kind"] == DECISION)["extension"]["data"]
        approved = call["action"] == "approve"
        prior = client_answer(fold(first.chunks, profile).message or {}, iid, approved, call.get("decision_text"))
        last = client.events(chat, turn, after=first.ids[-1])
    assert last.done
    read = read_stream(last.raw, profile, prior=prior)
    assert [f for f in read.findings if f.level is Level.MUST] == []
    assert read.message is not None
    assert jcs(read.message["parts"]) == jcs(client.snapshot(chat, turn)["parts"])


def test_v7_paused_stream_ends_without_done_and_a_reconnect_gets_the_rest(client: AgentClient) -> None:
    chat, turn, iid = paused(client, "tool-approval-denied")
    first = client.events(chat, turn)
    assert not first.done
    assert first.chunks[-1]["type"] == "tool-approval-request"
    assert client.events(chat, turn, last_event_id=str(first.ids[-1])).chunks == []  # nothing yet, no [DONE]
    reason = "Not in this workspace."
    assert (
        client.resume(
            chat, turn, {"interrupt_id": iid, "decision": {"action": "reject", "message": reason}}
        ).status_code
        == 200
    )
    rest = client.events(chat, turn, last_event_id=str(first.ids[-1]))
    assert rest.done
    assert rest.chunks[0] == {"type": "tool-approval-response", "approvalId": iid, "approved": False, "reason": reason}
    whole = read_stream(first.raw[: len(first.raw)] + rest.raw, Profile.V7)
    assert whole.message is not None
    assert jcs(whole.message["parts"]) == jcs(client.snapshot(chat, turn)["parts"])


def test_v6_answer_is_a_second_stream_continuing_the_prior(client: AgentClient) -> None:
    chat, turn, iid = paused(client, "tool-approval-request", "ai-sdk-v6")
    first = client.events(chat, turn)
    assert first.done
    assert first.chunks[-1] == {"type": "finish", "finishReason": "tool-calls"}
    assert not client.events(chat, turn, after=first.ids[-1]).done  # the answer has not started
    assert client.resume(chat, turn, {"interrupt_id": iid, "decision": {"action": "approve"}}).status_code == 200
    snapshot = client.snapshot(chat, turn)
    assert client.events(chat, turn).chunks == first.chunks  # no cursor: the first stream, again
    second = client.events(chat, turn, after=first.ids[-1])
    assert second.done
    assert second.chunks[0]["type"] == "start"
    assert second.chunks[0]["messageId"] == first.chunks[0]["messageId"]
    prior = client_answer(fold(first.chunks, Profile.V6).message or {}, iid, True, None)
    assert jcs(fold(second.chunks, Profile.V6, prior=prior).message["parts"]) == jcs(snapshot["parts"])  # type: ignore[index]
    assert snapshot["timeline_cursor"] == second.ids[-1]


def test_cancelled_turn_cannot_be_resumed(client: AgentClient) -> None:
    chat, turn, iid = paused(client)
    assert client.cancel(chat, turn).json() == {"turn_id": turn, "status": "CANCELLED"}
    refused = client.resume(chat, turn, {"interrupt_id": iid, "decision": {"action": "approve"}})
    assert refused.status_code == 409
    assert refused.json()["reason"] == "turn-cancelled"


def test_turn_without_an_approval_has_nothing_to_resume(client: AgentClient) -> None:
    chat = new_chat()
    turn = client.create_ok(chat, "text")["turn_id"]
    refused = client.resume(chat, turn, {"interrupt_id": "x", "decision": {"action": "approve"}})
    assert refused.status_code == 409
    assert refused.json()["reason"] == "no-pending-call"


def test_one_pending_approval_per_chat(client: AgentClient) -> None:
    chat, turn, iid = paused(client)
    blocked = client.create(chat, "text")
    assert blocked.status_code == 409
    assert blocked.json()["reason"] == "approval-pending"
    assert client.resume(chat, turn, {"interrupt_id": iid, "decision": {"action": "approve"}}).status_code == 200
    later = client.create_ok(chat, "text")
    other = client.resume(chat, turn, {"interrupt_id": iid, "decision": {"action": "approve"}})
    assert other.status_code == 409  # still decided once
    assert later["status"] == "COMPLETED"


# ---- the crash window between the decision and the tool ---------------------------------------------------


def test_decision_commits_before_the_tool_runs_and_survives_a_failure_there(
    db_url: str, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = ReferenceRuntime(store)
    chat = new_chat()
    turn, _ = runtime.create_turn(chat, TurnRequest(query="q", scenario="tool-approval-approved", profile=Profile.V7))
    iid = turn.interrupt_id
    assert iid is not None

    def crash(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("the process died while the tool ran")

    monkeypatch.setattr(Playback, "continue_turn", crash)
    with pytest.raises(RuntimeError):
        runtime.resume(chat, turn.turn_id, {"interrupt_id": iid, "decision": {"action": "approve"}})
    monkeypatch.undo()

    call = session_snapshot(store, chat)["pending_tool_call"]
    assert call["status"] == "APPROVED_EXECUTING"  # the decision is stored ...
    with store.read() as conn:
        assert Store.count_session_events(conn, turn.turn_id, DECISION) == 1  # ... and recorded, before the tool
        assert Store.count_session_events(conn, turn.turn_id, "span.tool_call_start") == 0
    repeat = runtime.resume(chat, turn.turn_id, {"interrupt_id": iid, "decision": {"action": "approve"}})
    assert repeat.status == 409  # the next access finished the turn first; the decision is not applied twice
    assert runtime.turn(chat, turn.turn_id).status == "COMPLETED"
    assert session_snapshot(store, chat)["pending_tool_call"]["status"] == "EXECUTED"
    with store.read() as conn:
        assert Store.count_session_events(conn, turn.turn_id, DECISION) == 1
        assert Store.count_session_events(conn, turn.turn_id, "span.tool_call_end") == 1
