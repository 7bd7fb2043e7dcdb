"""A small HTTP client for the reference runtime's tests, and the comparisons they share."""

from __future__ import annotations

import copy
import json
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx

from turnwire.canonical import dumps
from turnwire.normalise import Normaliser
from turnwire.sse import DONE, decode


def new_chat() -> str:
    """A chat id no other test uses."""
    return f"chat-{uuid.uuid4().hex[:16]}"


@dataclass
class Stream:
    """One `/events` response: its chunks with their event ids, whether `[DONE]` ended it, its bytes."""

    status: int
    headers: dict[str, str]
    raw: bytes
    ids: list[int] = field(default_factory=list)
    chunks: list[dict[str, Any]] = field(default_factory=list)
    done: bool = False


def parse_stream(response: httpx.Response) -> Stream:
    out = Stream(status=response.status_code, headers=dict(response.headers), raw=response.content)
    if response.status_code != 200:
        return out
    decoded = decode(response.content)
    assert decoded.findings == [], decoded.findings
    for event in decoded.events:
        if event.data == DONE:
            out.done = True
            continue
        assert not out.done, "an event after [DONE]"
        out.chunks.append(json.loads(event.data))
        assert event.id is not None
        out.ids.append(int(event.id))
    return out


class AgentClient:
    """The routes of one runtime, as methods (JSON in, JSON out; asserts nothing about success)."""

    def __init__(self, api_url: str, timeout: float = 30.0) -> None:
        self.http = httpx.Client(base_url=api_url, timeout=timeout)

    def close(self) -> None:
        self.http.close()

    def create(self, chat: str, scenario: str, profile: str = "ai-sdk-v7", **extra: Any) -> httpx.Response:
        return self.http.post(
            f"/chats/{chat}/turns", json={"query": "q", "scenario": scenario, "profile": profile, **extra}
        )

    def create_ok(self, chat: str, scenario: str, profile: str = "ai-sdk-v7", **extra: Any) -> dict[str, Any]:
        response = self.create(chat, scenario, profile, **extra)
        assert response.status_code == 201, response.text
        turn: dict[str, Any] = response.json()["turn"]
        return turn

    def snapshot(self, chat: str, turn: str) -> dict[str, Any]:
        response = self.http.get(f"/chats/{chat}/turns/{turn}")
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    def events(self, chat: str, turn: str, *, after: int | None = None, last_event_id: str | None = None) -> Stream:
        params = {} if after is None else {"after_sequence": after}
        headers = {} if last_event_id is None else {"Last-Event-ID": last_event_id}
        return parse_stream(self.http.get(f"/chats/{chat}/turns/{turn}/events", params=params, headers=headers))

    def resume(self, chat: str, turn: str, body: Any) -> httpx.Response:
        return self.http.post(f"/chats/{chat}/turns/{turn}/resume", json=body)

    def timeline(self, chat: str, turn: str) -> list[dict[str, Any]]:
        response = self.http.get(f"/chats/{chat}/turns/{turn}/timeline")
        assert response.status_code == 200, response.text
        events: list[dict[str, Any]] = response.json()
        return events

    def cancel(self, chat: str, turn: str) -> httpx.Response:
        return self.http.post(f"/chats/{chat}/turns/{turn}/cancel")


def interrupt_id(snapshot: dict[str, Any]) -> str:
    """The approval id of the tool part waiting for approval (the resume's interrupt id)."""
    waiting = [p for p in snapshot["parts"] if p.get("state") == "approval-requested"]
    assert len(waiting) == 1, snapshot["parts"]
    value: str = waiting[0]["approval"]["id"]
    return value


def jcs(values: list[Any]) -> list[bytes]:
    """Each value's RFC 8785 bytes: the comparison that ignores key order and nothing else."""
    return [dumps(v) for v in values]


def normal_chunks(chunks: list[dict[str, Any]]) -> list[bytes]:
    return jcs(Normaliser().chunks(chunks))


def normal_parts(parts: list[Any]) -> list[bytes]:
    message = Normaliser().message({"id": "m", "role": "assistant", "parts": parts})
    return jcs(message["parts"])


def client_answer(message: dict[str, Any], approval_id: str, approved: bool, reason: str | None) -> dict[str, Any]:
    """What an AI SDK client holds after answering the approval (`addToolApprovalResponse`), written here
    independently of the runtime's own copy of the rule."""
    out = copy.deepcopy(message)
    for part in out["parts"]:
        approval = part.get("approval")
        if part.get("state") == "approval-requested" and isinstance(approval, dict) and approval["id"] == approval_id:
            part["state"] = "approval-responded"
            approval.pop("reason", None)
            approval["approved"] = approved
            if reason is not None:
                approval["reason"] = reason
    return out
