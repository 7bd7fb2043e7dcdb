"""A server killed with SIGKILL and started again on the same database has lost nothing it acknowledged.

`turnwire serve` runs as a child process (on SQLite and on PostgreSQL); it is killed with no chance to
clean up — once between requests, once in the middle of a stream of requests — and a new child on the
same database must serve every acknowledged turn, decision and event exactly as before.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from refkit import AgentClient, interrupt_id, jcs, new_chat

from turnwire.profiles import Profile
from turnwire.reference import ServerProcess
from turnwire.stream import read_stream


@pytest.fixture
def spawn(db_url: str) -> Iterator[list[ServerProcess]]:
    started: list[ServerProcess] = []
    yield started
    for process in started:
        process.kill()


def start(db_url: str, started: list[ServerProcess]) -> tuple[ServerProcess, AgentClient]:
    process = ServerProcess(db_url).start()
    started.append(process)
    return process, AgentClient(process.api_url)


def record(client: AgentClient, chat: str, turn: str) -> dict[str, Any]:
    """Everything a client can read about a turn: snapshot, every stream (segment), timeline."""
    streams = []
    cursor = 0
    while True:
        stream = client.events(chat, turn, after=cursor)
        if not stream.chunks:
            break
        streams.append(stream.raw.decode("utf-8"))
        cursor = stream.ids[-1]
    return {"snapshot": client.snapshot(chat, turn), "streams": streams, "timeline": client.timeline(chat, turn)}


def test_sigkill_between_requests_loses_nothing(db_url: str, spawn: list[ServerProcess]) -> None:
    first, client = start(db_url, spawn)
    made: dict[tuple[str, str], str] = {}

    def make(scenario: str, profile: str) -> tuple[str, str, str]:
        chat = new_chat()
        turn = client.create_ok(chat, scenario, profile)["turn_id"]
        made[(chat, turn)] = scenario
        return chat, turn, interrupt_id(client.snapshot(chat, turn)) if "approval" in scenario else ""

    make("text", "ai-sdk-v7")
    make("error", "ai-sdk-v5")
    chat, turn, iid = make("tool-approval-approved", "ai-sdk-v7")
    assert client.resume(chat, turn, {"interrupt_id": iid, "decision": {"action": "approve"}}).status_code == 200
    chat, turn, iid = make("tool-approval-denied", "ai-sdk-v6")
    body = {"interrupt_id": iid, "decision": {"action": "reject", "message": "keep it"}}
    assert client.resume(chat, turn, body).status_code == 200
    chat, turn, _ = make("tool-approval-request", "ai-sdk-v6")
    assert client.cancel(chat, turn).status_code == 200
    pending_chat, pending_turn, pending_iid = make("tool-approval-request", "ai-sdk-v7")
    before = {key: record(client, *key) for key in made}
    client.close()

    first.kill()  # SIGKILL

    _, again = start(db_url, spawn)
    after = {key: record(again, *key) for key in made}
    for key in made:
        assert jcs([after[key]]) == jcs([before[key]]), made[key]
    decisions = [e for key in made for e in after[key]["timeline"] if e["kind"] == "x.permission.decision"]
    assert len(decisions) == 2
    resumed = again.resume(pending_chat, pending_turn, {"interrupt_id": pending_iid, "decision": {"action": "approve"}})
    assert resumed.status_code == 200  # the pending approval survived too, and still applies once
    assert (
        again.resume(
            pending_chat, pending_turn, {"interrupt_id": pending_iid, "decision": {"action": "approve"}}
        ).status_code
        == 409
    )
    again.close()


def test_sigkill_under_load_keeps_every_acknowledged_turn(db_url: str, spawn: list[ServerProcess]) -> None:
    first, _ = start(db_url, spawn)
    acknowledged: list[tuple[str, str, str]] = []
    stop = threading.Event()

    def load() -> None:
        with httpx.Client(base_url=first.api_url, timeout=10) as http:
            i = 0
            while not stop.is_set():
                chat, profile = new_chat(), ("ai-sdk-v5", "ai-sdk-v6", "ai-sdk-v7")[i % 3]
                i += 1
                try:
                    response = http.post(
                        f"/chats/{chat}/turns", json={"query": "q", "scenario": "multi-step", "profile": profile}
                    )
                except httpx.HTTPError:
                    return  # the server is gone
                if response.status_code == 201:
                    acknowledged.append((chat, response.json()["turn"]["turn_id"], profile))

    workers = [threading.Thread(target=load) for _ in range(4)]
    for worker in workers:
        worker.start()
    while len(acknowledged) < 20:
        threading.Event().wait(0.01)
    first.kill()  # SIGKILL, with requests in flight
    stop.set()
    for worker in workers:
        worker.join(10)

    _, again = start(db_url, spawn)
    for chat, turn, profile in acknowledged:
        snapshot = again.snapshot(chat, turn)
        assert snapshot["status"] == "COMPLETED"
        stream = again.events(chat, turn)
        assert stream.done
        read = read_stream(stream.raw, Profile(profile))
        assert read.message is not None
        assert jcs(snapshot["parts"]) == jcs(read.message["parts"])
    again.close()
