"""The reference runtime's HTTP surface: errors (404, 409, 422, 503 — never 500), idempotency, cancel,
`/run`, response headers, the OpenAPI document, lazy expiry, and the snapshot's shape."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from refkit import AgentClient, interrupt_id, new_chat

from turnwire.profiles import Profile
from turnwire.reference import API_PREFIX, ReferenceServer, Store
from turnwire.resources import golden_dir
from turnwire.snapshot import ARTEFACT, check_snapshot, deny_scan
from turnwire.sse import check_headers


@pytest.fixture(scope="module")
def client(server: ReferenceServer) -> Iterator[AgentClient]:
    c = AgentClient(server.api_url)
    yield c
    c.close()


def error(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert set(body) <= {"error", "message", "reason"}
    assert isinstance(body["message"], str)
    return body


# ---- 404 -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "suffix"),
    [("GET", ""), ("GET", "/events"), ("GET", "/timeline"), ("POST", "/cancel"), ("POST", "/resume")],
)
def test_unknown_chat_and_turn_are_404(client: AgentClient, method: str, suffix: str) -> None:
    chat = new_chat()
    turn = client.create_ok(chat, "text")["turn_id"]
    body = {"interrupt_id": "x", "decision": {"action": "approve"}} if suffix == "/resume" else None
    for path in (f"/chats/{new_chat()}/turns/{turn}", f"/chats/{chat}/turns/turn_unknown"):
        got = client.http.request(method, path + suffix, json=body)
        assert error(got, 404)["error"] == "not-found"
    other = new_chat()
    client.create_ok(other, "text")
    assert client.http.request(method, f"/chats/{other}/turns/{turn}{suffix}", json=body).status_code == 404


def test_unknown_route_is_404_in_the_same_shape(server: ReferenceServer) -> None:
    assert error(httpx.get(server.base_url + "/nowhere"), 404)["error"] == "not-found"
    assert error(httpx.delete(server.api_url + "/run"), 405)["error"] == "method-not-allowed"


# ---- 422 names the field ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"scenario": "text"}, "query"),
        ({"query": "q"}, "scenario"),
        ({"query": 7, "scenario": "text"}, "query"),
        ({"query": "q", "scenario": "Not A Slug"}, "scenario"),
        ({"query": "q", "scenario": "no-such-scenario"}, "scenario"),
        ({"query": "q", "scenario": "tool-approval-request", "profile": "ai-sdk-v5"}, "scenario"),
        ({"query": "q", "scenario": "text", "profile": "ai-sdk-v9"}, "profile"),
        ({"query": "q", "scenario": "text", "approval_ttl_s": 0}, "approval_ttl_s"),
        ({"query": "q", "scenario": "text", "approval_ttl_s": "10"}, "approval_ttl_s"),
        ({"query": "q", "scenario": "text", "approval_ttl_s": 1e12}, "approval_ttl_s"),
        ({"query": "q\u0000", "scenario": "text"}, "query"),
        ({"query": "q", "scenario": "text", "client_idempotency_key": ""}, "client_idempotency_key"),
    ],
)
def test_malformed_create_is_422_naming_the_field(client: AgentClient, body: dict[str, Any], field: str) -> None:
    got = error(client.http.post(f"/chats/{new_chat()}/turns", json=body), 422)
    assert got["error"] == "invalid"
    assert got["message"].startswith(f"{field}: "), got["message"]


def test_bodies_that_are_not_json_objects_are_422(client: AgentClient) -> None:
    for content in (b"{", b"[]", b'"text"', b"\xff\xfe", b"\xe4\x80\xcb\xa2\xff"):
        got = client.http.post(
            f"/chats/{new_chat()}/turns", content=content, headers={"content-type": "application/json"}
        )
        assert error(got, 422)["error"] == "invalid"
    lone_surrogate = b'{"query": "\\ud800", "scenario": "text"}'
    got = client.http.post(
        f"/chats/{new_chat()}/turns", content=lone_surrogate, headers={"content-type": "application/json"}
    )
    assert error(got, 422)["message"].startswith("query: ")


@pytest.mark.parametrize("chat", ["has space", "x" * 129, "-leading", "é"])
def test_bad_ids_in_paths_are_422(client: AgentClient, chat: str) -> None:
    got = client.http.post(f"/chats/{chat}/turns", json={"query": "q", "scenario": "text"})
    assert error(got, 422)["message"].startswith("chat_id: ")


def test_bad_cursors_are_422(client: AgentClient) -> None:
    chat = new_chat()
    turn = client.create_ok(chat, "text")["turn_id"]
    url = f"/chats/{chat}/turns/{turn}/events"
    assert error(client.http.get(url, params={"after_sequence": -1}), 422)["message"].startswith("after_sequence: ")
    assert error(client.http.get(url, headers={"Last-Event-ID": "abc"}), 422)["message"].startswith("Last-Event-ID: ")
    beyond = client.events(chat, turn, after=10_000)
    assert beyond.chunks == []
    assert beyond.done  # the turn is finished: nothing after the cursor, and the stream is complete


# ---- idempotency and the create answer ----------------------------------------------------------------------


def test_same_idempotency_key_returns_the_same_turn(client: AgentClient) -> None:
    chat = new_chat()
    first = client.create(chat, "text", client_idempotency_key="k-1")
    again = client.create(chat, "text", client_idempotency_key="k-1")
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json() == again.json()
    other_chat = client.create(new_chat(), "text", client_idempotency_key="k-1")
    assert other_chat.json()["turn"]["turn_id"] != first.json()["turn"]["turn_id"]  # keys are per chat
    different = client.create(chat, "file", client_idempotency_key="k-1")
    assert error(different, 409)["reason"] == "idempotency-key-reused"


def test_concurrent_creates_with_one_key_make_one_turn(server: ReferenceServer) -> None:
    chat = new_chat()
    body = {"query": "q", "scenario": "text", "client_idempotency_key": "same"}

    async def burst() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=server.api_url, timeout=60) as http:
            return await asyncio.gather(*(http.post(f"/chats/{chat}/turns", json=body) for _ in range(20)))

    responses = asyncio.run(burst())
    assert sorted(r.status_code for r in responses) == [200] * 19 + [201]  # the new chat's row is created once
    assert len({r.json()["turn"]["turn_id"] for r in responses}) == 1


def test_create_answer_points_at_the_stream(client: AgentClient) -> None:
    chat = new_chat()
    created = client.create(chat, "text", "ai-sdk-v5")
    body = created.json()
    turn = body["turn"]
    assert turn["chat_id"] == chat
    assert turn["profile"] == "ai-sdk-v5"
    assert turn["status"] == "COMPLETED"
    assert body["stream_url"].endswith(f"{API_PREFIX}/chats/{chat}/turns/{turn['turn_id']}/events")
    assert httpx.get(body["stream_url"]).status_code == 200


# ---- snapshot ---------------------------------------------------------------------------------------------


def test_snapshot_is_the_served_contract_shape(client: AgentClient) -> None:
    chat = new_chat()
    turn = client.create_ok(chat, "error", "ai-sdk-v6")["turn_id"]
    snapshot = client.snapshot(chat, turn)
    assert check_snapshot(snapshot, Profile.V6) == []
    assert deny_scan(snapshot, ARTEFACT) == []
    assert snapshot["status"] == "FAILED"
    assert snapshot["error_text"] == "An error occurred."
    assert snapshot["finished_at"] is not None
    assert snapshot["input_text"] == "q"


# ---- cancel -----------------------------------------------------------------------------------------------


def test_cancel_a_paused_v7_turn_aborts_its_stream(client: AgentClient) -> None:
    chat = new_chat()
    turn = client.create_ok(chat, "tool-approval-request")["turn_id"]
    assert client.cancel(chat, turn).json() == {"turn_id": turn, "status": "CANCELLED"}
    assert client.cancel(chat, turn).json() == {"turn_id": turn, "status": "CANCELLED"}  # idempotent
    stream = client.events(chat, turn)
    assert stream.done
    assert stream.chunks[-1] == {"type": "abort", "reason": "cancelled by the client"}
    snapshot = client.snapshot(chat, turn)
    assert snapshot["status"] == "CANCELLED"
    assert snapshot["error_text"] == "cancelled by the client"
    assert client.create(chat, "text").status_code == 201  # the chat is free again


def test_cancel_a_paused_v6_turn_leaves_its_complete_stream(client: AgentClient) -> None:
    chat = new_chat()
    turn = client.create_ok(chat, "tool-approval-request", "ai-sdk-v6")["turn_id"]
    before = client.events(chat, turn)
    assert client.cancel(chat, turn).status_code == 200
    assert client.events(chat, turn).raw == before.raw


def test_cancel_a_finished_turn_is_409(client: AgentClient) -> None:
    chat = new_chat()
    turn = client.create_ok(chat, "text")["turn_id"]
    assert error(client.cancel(chat, turn), 409)["reason"] == "turn-finished"


# ---- expiry -----------------------------------------------------------------------------------------------


def test_expiry_is_applied_on_access(client: AgentClient) -> None:
    chat = new_chat()
    turn = client.create_ok(chat, "tool-approval-approved", approval_ttl_s=0.2)["turn_id"]
    waiting = client.snapshot(chat, turn)
    assert waiting["status"] == "RUNNING"
    iid = interrupt_id(waiting)
    time.sleep(0.35)
    stream = client.events(chat, turn)  # the access that notices the expiry
    assert stream.done
    assert stream.chunks[-1] == {"type": "finish", "finishReason": "tool-calls"}
    done = client.snapshot(chat, turn)
    assert done["status"] == "COMPLETED"
    assert interrupt_id(done) == iid  # the part still asks: nobody answered
    kinds = [e["kind"] for e in client.timeline(chat, turn)]
    assert kinds == ["session.status_running", "agent.interrupt", "session.status_idle"]


# ---- /run -------------------------------------------------------------------------------------------------


def run_golden(name: str) -> dict[str, Any]:
    body: dict[str, Any] = json.loads((golden_dir() / "run-request" / f"{name}.json").read_text())
    return body


@pytest.mark.parametrize("name", ["pi", "claude", "local-tools"])
def test_run_accepts_the_wire(client: AgentClient, name: str) -> None:
    body = run_golden(name)
    got = client.http.post("/run", json=body)
    assert got.status_code == 200, got.text
    answer = got.json()
    assert answer["ok"] is True
    assert answer["session_id"] == body["sessionId"]
    assert "<secret:" not in got.text  # secrets are never echoed


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda b: b.update(session_id=b.pop("sessionId")), "$.session_id"),
        (lambda b: b.pop("model"), "$"),
        (lambda b: b.update(tools="read"), "$.tools"),
        (lambda b: b["customTools"][0].update(kind="mystery"), "$.customTools[0]"),
    ],
    ids=["snake-case-key", "missing-key", "wrong-type", "unknown-tool-kind"],
)
def test_run_rejects_an_invalid_wire_naming_the_field(client: AgentClient, change: Any, field: str) -> None:
    body = run_golden("pi")
    change(body)
    got = error(client.http.post("/run", json=body), 422)
    assert got["message"].startswith(field), got["message"]
    assert "<secret:" not in got["message"]


def test_run_rejects_what_is_not_json(client: AgentClient) -> None:
    got = client.http.post("/run", content=b"nope", headers={"content-type": "application/json"})
    assert error(got, 422)["message"].startswith("body:")


# ---- the stream's framing ---------------------------------------------------------------------------------


def test_events_carry_the_sdk_headers_and_ids(client: AgentClient) -> None:
    chat = new_chat()
    turn = client.create_ok(chat, "multi-step")["turn_id"]
    stream = client.events(chat, turn)
    assert check_headers(stream.headers) == []
    assert stream.headers["x-vercel-ai-ui-message-stream"] == "v1"
    assert stream.ids == list(range(1, len(stream.chunks) + 1))
    assert stream.raw.endswith(b"data: [DONE]\n\n")


# ---- the OpenAPI document ---------------------------------------------------------------------------------


def test_openapi_documents_every_route(server: ReferenceServer) -> None:
    doc = httpx.get(server.base_url + "/openapi.json").json()
    paths = doc["paths"]
    base = f"{API_PREFIX}/chats/{{chat_id}}/turns"
    assert set(paths) == {
        base,
        f"{base}/{{turn_id}}",
        f"{base}/{{turn_id}}/events",
        f"{base}/{{turn_id}}/cancel",
        f"{base}/{{turn_id}}/resume",
        f"{base}/{{turn_id}}/timeline",
        f"{API_PREFIX}/run",
    }  # the test hooks stay out of it
    schemas = doc["components"]["schemas"]
    for name in ("AgentTurnSnapshot", "ResumeRequest", "SessionEvent", "RunRequest", "ErrorBody"):
        assert name in schemas
    assert "text" in schemas["CreateTurnRequest"]["properties"]["scenario"]["enum"]
    assert "422" in paths[f"{base}/{{turn_id}}/resume"]["post"]["responses"]


def test_test_hooks_are_off_by_default(tmp_path: Path) -> None:
    with ReferenceServer(str(tmp_path / "plain.db")) as plain:
        put = httpx.put(plain.api_url + "/_test/chats/c/session-snapshot", content=b"{}")
        assert put.status_code in (404, 405)


# ---- a busy store -----------------------------------------------------------------------------------------


def test_a_locked_database_is_503_and_never_leaks_the_driver_message(tmp_path: Path) -> None:
    path = tmp_path / "busy.db"
    store = Store.open(str(path), busy_timeout_s=0.2)
    blocker = sqlite3.connect(path, isolation_level=None)
    try:
        with ReferenceServer(store) as busy:
            blocker.execute("BEGIN IMMEDIATE")  # another writer holds the database's write lock
            started = time.monotonic()
            got = httpx.post(busy.api_url + f"/chats/{new_chat()}/turns", json={"query": "q", "scenario": "text"})
            assert time.monotonic() - started < 5
            assert error(got, 503)["error"] == "unavailable"
            assert "locked" not in got.text.lower()
            blocker.execute("ROLLBACK")
            again = httpx.post(busy.api_url + f"/chats/{new_chat()}/turns", json={"query": "q", "scenario": "text"})
            assert again.status_code == 201
    finally:
        blocker.close()
        store.close()
