"""Every scenario in every profile, played by the real server over HTTP, on SQLite and PostgreSQL.

For each: the stream equals the golden chunk by chunk after normalisation; the snapshot's parts are
JCS-equal to the fold of the stream (continuing the prior message of an ai-sdk-v6 approval answer) and,
normalised, to the golden message; and a replay from any cursor (`Last-Event-ID` or `?after_sequence`)
is exactly the rest of the stream.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from refkit import AgentClient, Stream, client_answer, interrupt_id, jcs, new_chat, normal_chunks, normal_parts

from turnwire.findings import Level
from turnwire.fold import fold
from turnwire.profiles import Profile
from turnwire.reference import APPROVAL_ANSWERS, APPROVAL_REQUEST, ReferenceServer, ScriptBook
from turnwire.resources import golden_dir
from turnwire.snapshot import ARTEFACT, check_snapshot, deny_scan
from turnwire.sse import DONE, check_headers, decode
from turnwire.stream import read_stream

PAIRS = ScriptBook().pairs()
FAMILY = {APPROVAL_REQUEST, *APPROVAL_ANSWERS.values()}
EXPIRE_AFTER_S = 0.3


@pytest.fixture(scope="module")
def client(server: ReferenceServer) -> Iterator[AgentClient]:
    c = AgentClient(server.api_url)
    yield c
    c.close()


def golden(profile: Profile, slug: str) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any] | None]:
    folder = golden_dir() / profile.value / slug
    events = decode((folder / "stream.sse").read_bytes()).events
    chunks = [json.loads(e.data) for e in events if e.data != DONE]
    message = json.loads((folder / "message.json").read_text())
    prior_path = folder / "prior.json"
    prior = json.loads(prior_path.read_text()) if prior_path.exists() else None
    return chunks, message, prior


def denial_reason(profile: Profile) -> str:
    """The reason the denied golden shows, so the decision we send reproduces it."""
    chunks, _, prior = golden(profile, APPROVAL_ANSWERS[False])
    if prior is not None:
        waiting = [p for p in prior["parts"] if "approval" in p]
        reason: str = waiting[0]["approval"]["reason"]
        return reason
    response = next(c for c in chunks if c["type"] == "tool-approval-response")
    reason = response["reason"]
    return reason


def assert_replays(client: AgentClient, chat: str, turn: str, stream: Stream) -> None:
    cursors = [stream.ids[0] - 1, *stream.ids]
    for i, cursor in enumerate(cursors):
        if i % 2:
            replay = client.events(chat, turn, last_event_id=str(cursor))
        else:
            replay = client.events(chat, turn, after=cursor)
        assert replay.ids == stream.ids[i:], f"cursor {cursor}"
        assert jcs(replay.chunks) == jcs(stream.chunks[i:]), f"cursor {cursor}"
        assert replay.done, f"cursor {cursor}"


def play(client: AgentClient, chat: str, slug: str, profile: Profile) -> tuple[str, Stream, dict[str, Any] | None]:
    """Create the turn, drive it to its end, return (turn id, the scenario's stream, its prior)."""
    ttl = EXPIRE_AFTER_S if slug == APPROVAL_REQUEST else None
    turn = client.create_ok(chat, slug, profile.value, approval_ttl_s=ttl)
    tid = turn["turn_id"]
    first = client.events(chat, tid)
    assert first.ids == list(range(1, len(first.ids) + 1))
    if slug not in FAMILY:
        assert first.done
        return tid, first, None
    paused = client.snapshot(chat, tid)
    assert paused["status"] == "RUNNING"
    assert jcs(paused["parts"]) == jcs(fold(first.chunks, profile).message["parts"])  # type: ignore[index]
    assert paused["timeline_cursor"] == first.ids[-1]
    new_stream = profile is Profile.V6
    assert first.done is new_stream, "a paused stream ends without [DONE] unless it is complete"
    iid = interrupt_id(paused)
    if slug == APPROVAL_REQUEST:
        time.sleep(EXPIRE_AFTER_S + 0.1)
        assert client.snapshot(chat, tid)["status"] == "COMPLETED"  # expiry, applied lazily on access
        gone = client.resume(chat, tid, {"interrupt_id": iid, "decision": {"action": "approve"}})
        assert gone.status_code == 410, gone.text
        return tid, client.events(chat, tid), None
    approved = slug == APPROVAL_ANSWERS[True]
    reason = None if approved else denial_reason(profile)
    decision = {"action": "approve"} if approved else {"action": "reject", "message": reason}
    applied = client.resume(chat, tid, {"interrupt_id": iid, "decision": decision})
    assert applied.status_code == 200, applied.text
    if not new_stream:
        return tid, client.events(chat, tid), None
    prior = client_answer(fold(first.chunks, profile).message or {}, iid, approved, reason)
    second = client.events(chat, tid, last_event_id=str(first.ids[-1]))
    assert second.ids[0] == first.ids[-1] + 1
    return tid, second, prior


@pytest.mark.parametrize(("slug", "profile"), PAIRS, ids=[f"{p.value}-{s}" for s, p in PAIRS])
def test_scenario_over_http(client: AgentClient, slug: str, profile: Profile) -> None:
    chat = new_chat()
    tid, stream, prior = play(client, chat, slug, profile)
    golden_chunks, golden_message, _ = golden(profile, slug)

    assert stream.done
    assert check_headers(stream.headers) == []
    assert normal_chunks(stream.chunks) == normal_chunks(golden_chunks)

    read = read_stream(stream.raw, profile, prior=prior)
    assert [f for f in read.findings if f.level is Level.MUST] == []
    snapshot = client.snapshot(chat, tid)
    assert check_snapshot(snapshot, profile) == []
    assert deny_scan(snapshot, ARTEFACT) == []
    assert read.message is not None
    assert jcs(snapshot["parts"]) == jcs(read.message["parts"])
    assert normal_parts(snapshot["parts"]) == normal_parts(golden_message["parts"])
    assert snapshot["timeline_cursor"] == stream.ids[-1]

    kinds = {c["type"] for c in stream.chunks}
    expected = "FAILED" if "error" in kinds else "CANCELLED" if "abort" in kinds else "COMPLETED"
    assert snapshot["status"] == expected
    if expected == "FAILED":
        assert snapshot["error_text"] == next(c["errorText"] for c in stream.chunks if c["type"] == "error")
    if expected == "COMPLETED":
        assert snapshot["error_text"] is None

    assert_replays(client, chat, tid, stream)
