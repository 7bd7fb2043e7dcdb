"""Live checks of resume: the outcome table over HTTP, expiry, exactly-once under concurrency, legacy state.

The resume contract (docs/resume.md) is a pure engine plus a runtime that calls it under a lock. These
checks ask the runtime itself: a paused turn answers invalid decisions 422 and changes nothing,
conflicting ones 409, the first valid one 200, its repeat 409; an expired approval 410; twenty
resumes at once apply exactly once; a legacy session snapshot planted in the store is refused (422),
never coerced. Each step that a later step depends on stops the check when it fails.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from turnwire.conformance.catalogue import check
from turnwire.conformance.checks.live_common import (
    PAUSING,
    Paused,
    error_body_findings,
    exchange_findings,
    last_timeline_exchange,
    live,
    needs_approvals,
    note,
    option,
    pause,
    resume_body,
    timeline,
)
from turnwire.conformance.context import CheckContext, HttpExchange
from turnwire.conformance.model import Capability, ReportedFinding
from turnwire.findings import Finding
from turnwire.resume import PERMISSION_DECISION_KIND

_APPROVE: Mapping[str, Any] = {"action": "approve"}


def _expect(
    ctx: CheckContext, paused: Paused, what: str, body: Mapping[str, Any], status: int, requirement: str
) -> tuple[HttpExchange, list[ReportedFinding]]:
    """POST `body` as a resume of the paused turn; findings when the answer is not `status`."""
    exchange = live(ctx).resume(paused.turn, body)
    found = exchange_findings(exchange, what, {status}, requirement=requirement)
    if not found and status != 200:
        found = error_body_findings(exchange, what)
    return exchange, found


def decision_events(events: list[Any]) -> list[dict[str, Any]]:
    """The `x.permission.decision` events of a timeline."""
    return [e for e in events if isinstance(e, dict) and e.get("kind") == PERMISSION_DECISION_KIND]


def invalid_bodies(interrupt_id: str) -> list[tuple[str, dict[str, Any]]]:
    """Resume requests the contract reads as invalid (422), each with what is wrong with it."""
    return [
        ("a respond without a message", resume_body(interrupt_id, {"action": "respond"})),
        ("an unknown action", resume_body(interrupt_id, {"action": "maybe"})),
        ("an empty action", resume_body(interrupt_id, {"action": ""})),
        ("a legacy decision other than approved", resume_body(interrupt_id, {"decision": "denied"})),
        ("an unknown key in the request", {**resume_body(interrupt_id, _APPROVE), "turnwire_probe": True}),
        ("no interrupt id", {"decision": dict(_APPROVE)}),
    ]


@check(
    "live.resume.outcomes",
    requirements=[
        "RESUME-HTTP-INVALID",
        "RESUME-HTTP-CONFLICT",
        "RESUME-HTTP-APPLIED",
        "RESUME-HTTP-REPEAT",
        "HTTP-ERROR-BODY",
        *PAUSING,
    ],
    needs={Capability.STREAMING, Capability.RESUME},
    needs_live=True,
    applies=needs_approvals,
)
def outcomes(ctx: CheckContext) -> Iterator[ReportedFinding]:
    """Invalid decisions answer 422, mismatched ones 409, the first valid one 200, its repeat 409."""
    paused = pause(ctx, "resume outcomes")
    if isinstance(paused, list):
        yield from paused
        return
    iid = paused.interrupt_id
    for label, body in invalid_bodies(iid):
        yield from _expect(ctx, paused, f"resume with {label}", body, 422, "RESUME-HTTP-INVALID")[1]
    mismatched = [
        ("resume naming another interrupt", resume_body(f"{iid}-other", _APPROVE)),
        ("resume naming another run", resume_body(iid, _APPROVE, run_id="tw-another-run")),
    ]
    for label, body in mismatched:
        yield from _expect(ctx, paused, label, body, 409, "RESUME-HTTP-CONFLICT")[1]
    _, found = _expect(ctx, paused, "the first valid resume", resume_body(iid, _APPROVE), 200, "RESUME-HTTP-APPLIED")
    yield from found
    if found:
        return
    yield from _expect(ctx, paused, "the same resume again", resume_body(iid, _APPROVE), 409, "RESUME-HTTP-REPEAT")[1]
    other = resume_body(iid, {"action": "reject", "message": "changed my mind"})
    yield from _expect(ctx, paused, "another decision after the applied one", other, 409, "RESUME-HTTP-CONFLICT")[1]


@check(
    "live.resume.expired",
    requirements=["RESUME-HTTP-EXPIRED", "RESUME-DECISION-NOT-APPLIED", "HTTP-ERROR-BODY", *PAUSING],
    needs={Capability.STREAMING, Capability.RESUME, Capability.EXPIRY},
    needs_live=True,
    applies=needs_approvals,
)
def expired(ctx: CheckContext) -> Iterator[ReportedFinding]:
    """A decision after the approval's TTL answers 410 (again on a repeat) and records no decision."""
    ttl = float(option(ctx, "approval_ttl_s", 0.4))
    started = time.monotonic()
    paused = pause(ctx, "expiry", approval_ttl_s=ttl)
    if isinstance(paused, list):
        yield from paused
        return
    time.sleep(max(0.0, started + ttl + float(option(ctx, "expiry_margin_s", 0.3)) - time.monotonic()))
    body = resume_body(paused.interrupt_id, _APPROVE)
    for label in ("a resume after the approval expired", "the same resume again"):
        yield from _expect(ctx, paused, label, body, 410, "RESUME-HTTP-EXPIRED")[1]
    if Capability.TIMELINE in ctx.capabilities:
        events, found = timeline(ctx, paused.turn, "expiry")
        yield from found
        recorded = decision_events(events or [])
        if recorded:
            finding = Finding.of(
                "RESUME-DECISION-NOT-APPLIED",
                f"a permission decision event was recorded for an expired approval ({len(recorded)} event(s))",
                expected="no decision event",
                received=f"{len(recorded)} x.permission.decision event(s)",
            )
            yield note(finding, last_timeline_exchange())


def _burst(ctx: CheckContext, paused: Paused, count: int) -> list[HttpExchange]:
    """`count` resumes of one interrupt sent at once from as many threads (half approve, half reject)."""
    runtime = live(ctx)
    gate = threading.Barrier(count)

    def one(i: int) -> HttpExchange:
        decision = dict(_APPROVE) if i % 2 else {"action": "reject", "message": f"no ({i})"}
        with contextlib.suppress(threading.BrokenBarrierError):  # start anyway: a weaker race, the same verdict
            gate.wait(timeout=10)
        return runtime.resume(paused.turn, resume_body(paused.interrupt_id, decision))

    with ThreadPoolExecutor(max_workers=count, thread_name_prefix="turnwire-resume") as pool:
        return list(pool.map(one, range(count)))


@check(
    "live.resume.concurrent",
    requirements=["RESUME-HTTP-ONCE", *PAUSING],
    needs={Capability.STREAMING, Capability.RESUME},
    needs_live=True,
    applies=needs_approvals,
)
def concurrent(ctx: CheckContext) -> Iterator[ReportedFinding]:
    """Resumes of one interrupt sent at once apply exactly once: one 200, every other 409, one decision event."""
    paused = pause(ctx, "concurrent resumes")
    if isinstance(paused, list):
        yield from paused
        return
    count = max(2, int(option(ctx, "resume_concurrency", 20)))
    answers = _burst(ctx, paused, count)
    for i, exchange in enumerate(answers):
        yield from exchange_findings(exchange, f"concurrent resume {i}", {200, 409}, requirement="RESUME-HTTP-ONCE")
    applied = [e for e in answers if e.error is None and e.status == 200]
    if len(applied) != 1:
        finding = Finding.of(
            "RESUME-HTTP-ONCE",
            f"{count} concurrent resumes of one interrupt were applied {len(applied)} times",
            expected="exactly one 200, every other 409",
            received=", ".join(f"{n} x {s}" for s, n in _tally(answers).items()),
        )
        yield note(finding, applied[1] if len(applied) > 1 else answers[0])
    if Capability.TIMELINE in ctx.capabilities:
        events, found = timeline(ctx, paused.turn, "concurrent resumes")
        yield from found
        recorded = decision_events(events or [])
        if events is not None and len(recorded) != 1:
            finding = Finding.of(
                "RESUME-HTTP-ONCE",
                f"{count} concurrent resumes of one interrupt left {len(recorded)} permission decision events",
                expected="exactly one x.permission.decision event",
                received=f"{len(recorded)}",
            )
            yield note(finding, last_timeline_exchange())


def _tally(answers: list[HttpExchange]) -> dict[str, int]:
    out: dict[str, int] = {}
    for exchange in answers:
        key = "failed" if exchange.error is not None else str(exchange.status)
        out[key] = out.get(key, 0) + 1
    return dict(sorted(out.items()))


def legacy_snapshots(paused: Paused) -> list[tuple[str, dict[str, Any]]]:
    """Session snapshots of retired shapes that name the paused call (a runtime must refuse, not coerce them)."""
    call = {
        "interrupt_id": paused.interrupt_id,
        "tool_name": "tool",
        "tool_args": {},
        "status": "PENDING_APPROVAL",
        "expires_at": "2999-01-01T00:00:00Z",
    }
    return [
        ("an unversioned (seed 004 legacy) snapshot", {"pending_tool_call": {"status": "PENDING_APPROVAL"}}),
        ("an unversioned snapshot naming the call", {"pending_tool_call": call}),
        ("a version 1 snapshot", {"version": 1, "pending_tool_call": call, "run_context": {}}),
    ]


@check(
    "live.resume.legacy-snapshot",
    requirements=["RESUME-HTTP-LEGACY-SNAPSHOT", "HTTP-ERROR-BODY", *PAUSING],
    needs={Capability.STREAMING, Capability.RESUME, Capability.LEGACY_PLANTING},
    needs_live=True,
    applies=needs_approvals,
)
def legacy_snapshot(ctx: CheckContext) -> Iterator[ReportedFinding]:
    """A resume against a legacy session snapshot planted in the store answers 422 (refused, never coerced)."""
    from turnwire.canonical import dumps
    from turnwire.conformance.targets.http import HttpRuntime

    runtime = live(ctx)
    if not isinstance(runtime, HttpRuntime):
        return
    paused = pause(ctx, "legacy snapshot")
    if isinstance(paused, list):
        yield from paused
        return
    for label, snapshot in legacy_snapshots(paused):
        planted = runtime.plant_session_snapshot(paused.turn, dumps(snapshot))
        found = exchange_findings(planted, f"plant {label}", {200, 201, 204})
        yield from found
        if found:
            return
        body = resume_body(paused.interrupt_id, _APPROVE)
        yield from _expect(ctx, paused, f"resume against {label}", body, 422, "RESUME-HTTP-LEGACY-SNAPSHOT")[1]
