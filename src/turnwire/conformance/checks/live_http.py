"""Live checks of the HTTP surface itself: the exchanges made while recording, and unknown ids.

A runtime that times out, resets, answers garbage or floods while turnwire records its scenarios has
failed a requirement even before any check of the content runs; `live.http.recording` reports those
exchanges. `live.http.not-found` asks every claimed turn route about a chat and a turn that do not
exist: the answer is 404 (a 200 with an empty body, a 500 or a 422 would tell a client something false).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

from turnwire.conformance.catalogue import check
from turnwire.conformance.checks.live_common import (
    EXCHANGE,
    create_findings,
    error_body_findings,
    exchange_findings,
    live,
    profile_scenarios,
)
from turnwire.conformance.context import CheckContext, HttpExchange, LiveRuntime, LiveTurn
from turnwire.conformance.model import Capability, ReportedFinding


def _recorded(ctx: CheckContext) -> str | None:
    from turnwire.conformance.targets.http import HttpRuntime

    if not isinstance(ctx.live, HttpRuntime):
        return "the live runtime recorded no scenarios (not an HTTP target)"
    return None


@check(
    "live.http.recording",
    requirements=[*EXCHANGE, "TURN-CREATE", "RESUME-HTTP-APPLIED"],
    needs_live=True,
    applies=_recorded,
)
def recording(ctx: CheckContext) -> Iterator[ReportedFinding]:
    """Every exchange made while recording the scenarios completed, in bounds, with the expected status."""
    yield from getattr(ctx.live, "recording_findings", [])


def _unknown(chat_id: str) -> LiveTurn:
    none = HttpExchange(method="", url="")
    return LiveTurn(chat_id=chat_id, turn_id=f"tw-no-such-turn-{uuid.uuid4().hex[:12]}", scenario="", created=none)


def _routes(ctx: CheckContext, runtime: LiveRuntime) -> list[tuple[str, object]]:
    """(name, call) for every turn route the target claims."""
    claimed = ctx.capabilities
    calls: list[tuple[str, object]] = [("events", runtime.stream)]
    if Capability.SNAPSHOT in claimed:
        calls.append(("snapshot", runtime.snapshot))
    if Capability.TIMELINE in claimed:
        calls.append(("timeline", runtime.timeline))
    if Capability.RESUME in claimed:
        calls.append(("cancel", runtime.cancel))
        calls.append(("resume", lambda turn: runtime.resume(turn, {"interrupt_id": "tw-none", "decision": {}})))
    return calls


@check(
    "live.http.not-found",
    requirements=["HTTP-NOT-FOUND", "HTTP-ERROR-BODY", *EXCHANGE, "TURN-CREATE"],
    needs={Capability.STREAMING},
    needs_live=True,
)
def not_found(ctx: CheckContext) -> Iterator[ReportedFinding]:
    """Every claimed turn route answers 404 for an unknown chat, and for an unknown turn in a known chat."""
    runtime = live(ctx)
    known = runtime.create_turn(profile_scenarios(ctx.profile)[0], profile=ctx.profile)
    if isinstance(known, HttpExchange):
        yield from create_findings(known, "not-found: create a turn to have a known chat")
        return
    cases = [
        ("an unknown chat", _unknown(f"tw-no-such-chat-{uuid.uuid4().hex[:12]}")),
        ("an unknown turn of a known chat", _unknown(known.chat_id)),
    ]
    for label, turn in cases:
        for name, call in _routes(ctx, runtime):
            exchange = call(turn)  # type: ignore[operator]
            assert isinstance(exchange, HttpExchange)
            what = f"{name} of {label}"
            found = exchange_findings(exchange, what, {404}, requirement="HTTP-NOT-FOUND")
            yield from found
            if not found:
                yield from error_body_findings(exchange, what)
