"""Resume-point invariance: reconnecting with `Last-Event-ID` N returns exactly the rest of the stream.

Real clients duplicate or lose parts exactly here: a reconnect that replays one event too many shows a
text delta twice, one too few loses it, and neither is visible in a stream read in one go. For several
cursors across a live stream — the turn of the longest scenario and, when the runtime resumes
approvals, an approval turn read across its pause — the reply to each cursor must be exactly the
events after it (same ids, JCS-equal chunks, the same ending), and the prefix up to the cursor plus
that reply must fold to the same message as the whole stream.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from turnwire.canonical import CanonicalError, dumps
from turnwire.conformance.catalogue import check
from turnwire.conformance.checks.live_common import (
    PAUSING,
    LiveStream,
    Paused,
    approval_scenario,
    create_findings,
    exchange_findings,
    live,
    longest_scenario,
    note,
    option,
    pause,
    resume_body,
)
from turnwire.conformance.context import CheckContext, HttpExchange, LiveTurn
from turnwire.conformance.model import Capability, ReportedFinding
from turnwire.findings import Finding
from turnwire.fold import fold


def _jcs(value: Any) -> bytes | None:
    try:
        return dumps(value)
    except (CanonicalError, RecursionError):
        return None


def _sendable(event_id: str) -> bool:
    """Whether a client can send `event_id` back in a Last-Event-ID header (visible ASCII, no edge spaces)."""
    return event_id.isascii() and event_id.isprintable() and event_id == event_id.strip()


def cursor_indexes(count: int, wanted: int, must: tuple[int, ...] = ()) -> list[int]:
    """Up to `wanted` event indexes spread over `count` events: the first, the last, evenly between, and `must`."""
    if count <= 0:
        return []
    if count <= wanted:
        picked = set(range(count))
    else:
        step = (count - 1) / max(1, wanted - 1)
        picked = {round(i * step) for i in range(wanted)}
    picked |= {i for i in must if 0 <= i < count}
    return sorted(picked)


def _first_difference(got: list[tuple[str | None, bytes | None]], want: list[tuple[str | None, bytes | None]]) -> str:
    for i, (a, b) in enumerate(zip(got, want, strict=False)):
        if a != b:
            return f"event {i} of the reply is id {a[0]!r}, expected id {b[0]!r}" + (
                "" if a[0] != b[0] else " (same id, different chunk)"
            )
    if len(got) > len(want):
        return f"{len(got) - len(want)} event(s) too many, the first with id {got[len(want)][0]!r}"
    return f"{len(want) - len(got)} event(s) missing, the first with id {want[len(got)][0]!r}"


def _check_stream(
    ctx: CheckContext, turn: LiveTurn, label: str, must: tuple[int, ...] = ()
) -> Iterator[ReportedFinding]:
    """Read the turn's stream whole, then from several cursors, and compare."""
    runtime = live(ctx)
    whole_exchange = runtime.stream(turn)
    found = exchange_findings(whole_exchange, f"{label}: stream", {200})
    if found:
        yield from found
        return
    whole = LiveStream.read(whole_exchange)
    if not whole.chunks:
        return
    missing = [i for i, event_id in enumerate(whole.ids) if not event_id]
    repeated = len({i for i in whole.ids if i}) != len([i for i in whole.ids if i])
    unsendable = [i for i, event_id in enumerate(whole.ids) if event_id and not _sendable(event_id)]
    if missing or repeated or unsendable:
        if missing:
            detail = f"event {missing[0]} has no id"
        elif repeated:
            detail = "two events share an id"
        else:
            detail = f"the id {whole.ids[unsendable[0]]!r} of event {unsendable[0]} cannot be an HTTP header value"
            missing = unsendable
        finding = Finding.of(
            "REPLAY-ID",
            f"{label}: {detail}; a client cannot resume this stream with Last-Event-ID",
            expected="every event with its own id",
            received=detail,
            chunk_index=missing[0] if missing else None,
        )
        yield note(finding, whole_exchange)
        return
    expected_message = _jcs(fold(whole.chunks, ctx.profile).message)
    events = [(i, _jcs(c)) for i, c in zip(whole.ids, whole.chunks, strict=True)]
    last = len(events) - 1
    for k in cursor_indexes(len(events), int(option(ctx, "replay_cursors", 8)), must):
        cursor = whole.ids[k]
        assert cursor is not None
        reply_exchange = runtime.stream(turn, last_event_id=cursor)
        what = f"{label}: reconnect with Last-Event-ID {cursor}"
        found = exchange_findings(reply_exchange, what, {200})
        if found:
            yield from found
            continue
        reply = LiveStream.read(reply_exchange)
        got = [(i, _jcs(c)) for i, c in zip(reply.ids, reply.chunks, strict=True)]
        if k == last:
            # after the last event only new events may follow (another stream of the turn, or nothing)
            seen = {i for i, _ in events}
            again = [i for i, _ in got if i in seen]
            if again:
                finding = Finding.of(
                    "REPLAY-SUFFIX",
                    f"{what}: the reply repeats event(s) the client already has ({', '.join(map(str, again[:5]))})",
                    expected="no event at or before the cursor",
                    received=f"{len(got)} event(s), ids {[i for i, _ in got][:8]}",
                    chunk_index=k,
                )
                yield note(finding, reply_exchange)
            continue
        want = events[k + 1 :]
        if got != want or reply.done != whole.done:
            detail = _first_difference(got, want) if got != want else "the reply ends differently"
            finding = Finding.of(
                "REPLAY-SUFFIX",
                f"{what}: the reply is not exactly the events after the cursor: {detail}",
                expected=f"{len(want)} event(s) after id {cursor}" + (", then [DONE]" if whole.done else ""),
                received=f"{len(got)} event(s)" + (", then [DONE]" if reply.done else ", no [DONE]"),
                chunk_index=k,
            )
            yield note(finding, reply_exchange)
        resumed = _jcs(fold([*whole.chunks[: k + 1], *reply.chunks], ctx.profile).message)
        if resumed != expected_message:
            finding = Finding.of(
                "REPLAY-FOLD",
                f"{what}: the events before the cursor plus the reply fold to another message than the whole stream",
                expected="the message the whole stream folds to",
                received="a different message (parts duplicated, lost or changed)",
                chunk_index=k,
            )
            yield note(finding, reply_exchange)


def _resumed(ctx: CheckContext, paused: Paused) -> Iterator[ReportedFinding]:
    body = resume_body(paused.interrupt_id, {"action": "approve"})
    applied = live(ctx).resume(paused.turn, body)
    found = exchange_findings(applied, "replay: resume the approval", {200}, requirement="RESUME-HTTP-APPLIED")
    yield from found
    if not found:
        pause_at = len(paused.first.chunks) - 1
        yield from _check_stream(ctx, paused.turn, "replay across a resumed approval", must=(pause_at, pause_at - 1))


@check(
    "live.replay.last-event-id",
    requirements=["REPLAY-ID", "REPLAY-SUFFIX", "REPLAY-FOLD", "RESUME-HTTP-APPLIED", *PAUSING],
    needs={Capability.STREAMING, Capability.STREAM_RESUMPTION},
    needs_live=True,
)
def replay(ctx: CheckContext) -> Iterator[ReportedFinding]:
    """Reconnecting with Last-Event-ID N returns exactly the events after N; prefix plus reply fold alike."""
    slug = longest_scenario(ctx.profile)
    created = live(ctx).create_turn(slug, profile=ctx.profile)
    if isinstance(created, HttpExchange):
        yield from create_findings(created, f"replay: create a turn of {slug}")
        return
    yield from _check_stream(ctx, created, f"replay of {slug}")
    if Capability.RESUME in ctx.capabilities and approval_scenario(ctx.profile) is not None:
        paused = pause(ctx, "replay")
        if isinstance(paused, list):
            yield from paused
        else:
            yield from _resumed(ctx, paused)
