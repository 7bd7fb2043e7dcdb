"""Payloads quoted from the seed PRs, shared by the tests that pin their rules (one copy)."""

from __future__ import annotations

from typing import Any

# Seed 004 (strict interrupt/resume refactor): its valid version-2 session snapshot, and the
# version-1 shape it must refuse.
SEED004_V2: dict[str, Any] = {
    "version": 2,
    "pending_tool_call": {
        "interrupt_id": "int-1",
        "tool_name": "srv.transfer_funds",
        "tool_args": {"to": "u2", "amount": 100},
        "status": "PENDING_APPROVAL",
        "expires_at": "2026-03-03T12:00:00Z",
        "decision": None,
        "result": None,
        "updated_at": "2026-03-03T11:59:00Z",
    },
    "run_context": {"thread_id": "t1", "run_id": "r1"},
}
SEED004_V1: dict[str, Any] = {
    "version": 1,
    "pending_tool_call": None,
    "run_context": {"thread_id": "t1", "run_id": "r1"},
}
