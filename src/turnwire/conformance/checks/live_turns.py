"""Live check of cancel: a turn waiting for an approval can be stopped, and stays stopped.

Why with an approval: a scripted turn plays to its end at once, so the only turn a client can still
cancel is one paused at a tool approval. After the cancel the runtime must say so everywhere a client
looks — the cancel answer, the snapshot's status, a stream that ends instead of waiting — and refuse a
later decision (409): a cancelled tool call must never run.
"""

from __future__ import annotations

from collections.abc import Iterator

from turnwire.conformance.catalogue import check
from turnwire.conformance.checks.live_common import (
    PAUSING,
    LiveStream,
    exchange_findings,
    json_findings,
    live,
    needs_approvals,
    note,
    pause,
    resume_body,
)
from turnwire.conformance.context import CheckContext, HttpExchange
from turnwire.conformance.model import Capability, ReportedFinding
from turnwire.findings import Finding

_CANCELLED = "CANCELLED"


def _status_finding(what: str, body: object, exchange: HttpExchange) -> ReportedFinding | None:
    status = body.get("status") if isinstance(body, dict) else None
    if status is None or status == _CANCELLED:
        return None
    finding = Finding.of(
        "TURN-CANCEL",
        f"{what}: the cancelled turn's status is {status!r}",
        expected=_CANCELLED,
        received=str(status),
    )
    return note(finding, exchange)


@check(
    "live.turns.cancel",
    requirements=["TURN-CANCEL", *PAUSING],
    needs={Capability.STREAMING, Capability.RESUME},
    needs_live=True,
    applies=needs_approvals,
)
def cancel(ctx: CheckContext) -> Iterator[ReportedFinding]:
    """Cancelling a paused turn answers 200; its snapshot says CANCELLED, its stream ends, a resume gets 409."""
    paused = pause(ctx, "cancel")
    if isinstance(paused, list):
        yield from paused
        return
    runtime = live(ctx)
    answered = runtime.cancel(paused.turn)
    found = exchange_findings(answered, "cancel a paused turn", {200}, requirement="TURN-CANCEL")
    yield from found
    if found:
        return
    body, _ = json_findings(answered, "cancel")
    if (bad := _status_finding("cancel answer", body, answered)) is not None:
        yield bad
    if Capability.SNAPSHOT in ctx.capabilities:
        snapshot = runtime.snapshot(paused.turn)
        found = exchange_findings(snapshot, "snapshot of the cancelled turn", {200})
        yield from found
        if not found:
            body, found = json_findings(snapshot, "snapshot of the cancelled turn")
            yield from found
            status = body.get("status") if isinstance(body, dict) else None
            if status != _CANCELLED:
                bad_status = Finding.of(
                    "TURN-CANCEL",
                    f"the snapshot of the cancelled turn says {status!r}",
                    expected=_CANCELLED,
                    received=str(status),
                )
                yield note(bad_status, snapshot)
    stream = runtime.stream(paused.turn)
    found = exchange_findings(stream, "stream of the cancelled turn", {200}, requirement="TURN-CANCEL")
    yield from found
    if not found:
        read = LiveStream.read(stream)
        ended = read.done or (bool(read.chunks) and read.chunks[-1].get("type") == "abort")
        if not ended:
            unended = Finding.of(
                "TURN-CANCEL",
                "the stream of the cancelled turn neither ends with abort nor is complete",
                expected="an abort chunk, or [DONE]",
                received=f"last chunk {read.chunks[-1].get('type') if read.chunks else None!r}, no [DONE]",
            )
            yield note(unended, stream)
    late = runtime.resume(paused.turn, resume_body(paused.interrupt_id, {"action": "approve"}))
    yield from exchange_findings(late, "resume after the cancel", {409}, requirement="TURN-CANCEL")
