"""What the live checks share: judging an exchange, reading a live stream, pausing a turn at an approval.

No check is registered here. Every helper returns findings instead of raising: a target that fails an
exchange a check depends on yields the finding that says so (a transport failure, an unexpected
status), and the check stops there rather than guessing.
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from turnwire.canonical import CanonicalError, loads
from turnwire.conformance.context import CheckContext, HttpExchange, LiveRuntime, LiveTurn
from turnwire.conformance.model import ReportedFinding
from turnwire.findings import Finding
from turnwire.profiles import Profile
from turnwire.sse import DONE, decode

__all__ = [
    "APPROVAL_ANSWERS",
    "APPROVAL_REQUEST",
    "EXCHANGE",
    "PAUSING",
    "TRANSPORT",
    "LiveStream",
    "Paused",
    "approval_scenario",
    "client_answer",
    "create_findings",
    "error_body_findings",
    "exchange_findings",
    "json_findings",
    "last_timeline_exchange",
    "live",
    "longest_scenario",
    "needs_approvals",
    "note",
    "option",
    "pause",
    "profile_scenarios",
    "read_until_pause",
    "resume_body",
    "saw_approval_request",
    "timeline",
]

APPROVAL_REQUEST: Final = "tool-approval-request"
"""The scenario (and chunk type) of a tool approval ask."""
APPROVAL_ANSWERS: Final[Mapping[bool, str]] = {True: "tool-approval-approved", False: "tool-approval-denied"}
"""The scenario that answers the ask, by whether the decision approves."""

_EXCERPT = 300

TRANSPORT: Final = ("HTTP-TIMEOUT", "HTTP-RESET", "HTTP-CONNECT", "HTTP-SIZE", "HTTP-MALFORMED")
"""What any exchange can break, whatever the check (a `Failure` of the HTTP client)."""
EXCHANGE: Final = (*TRANSPORT, "HTTP-STATUS", "HTTP-JSON")
"""What any check that judges exchanges can report besides its own requirements."""
PAUSING: Final = (*EXCHANGE, "TURN-CREATE", "TURN-APPROVAL-PAUSE")
"""What a check that pauses a turn at an approval (`pause`) can report besides its own requirements."""


def live(ctx: CheckContext) -> LiveRuntime:
    """The context's live runtime (checks that call this declare `needs_live=True`)."""
    if ctx.live is None:
        raise RuntimeError("a live check ran without a live runtime (the runner should not run it)")
    return ctx.live


def option(ctx: CheckContext, name: str, default: Any) -> Any:
    """A run option, or `default` when it is not set."""
    value = ctx.options.get(name)
    return default if value is None else value


def note(finding: Finding, exchange: HttpExchange | None) -> ReportedFinding:
    """The finding with the exchange that shows it as its reproducer."""
    return ReportedFinding(finding=finding, reproducer=None if exchange is None else exchange.reproducer())


def _excerpt(body: bytes) -> str:
    text = body[:_EXCERPT].decode("utf-8", "replace")
    return text + ("…" if len(body) > _EXCERPT else "")


def exchange_findings(
    exchange: HttpExchange, what: str, expect: Collection[int], *, requirement: str = "HTTP-STATUS"
) -> list[ReportedFinding]:
    """Findings when `exchange` failed or answered a status outside `expect` (empty: it did as expected).

    A transport failure is reported as its own requirement (`HTTP-TIMEOUT`, ...); a wrong status as
    `requirement` (the one the status code is the subject of).
    """
    from turnwire.conformance.targets.http import failure_of, failure_requirement

    failure = failure_of(exchange)
    wanted = " or ".join(str(s) for s in sorted(expect))
    if failure is not None:
        finding = Finding.of(
            failure_requirement(failure),
            f"{what}: {exchange.error}",
            expected=f"a complete HTTP {wanted} response",
            received=exchange.error,
        )
        return [note(finding, exchange)]
    if exchange.status not in expect:
        finding = Finding.of(
            requirement,
            f"{what}: answered HTTP {exchange.status}, expected {wanted}",
            expected=f"HTTP {wanted}",
            received=f"HTTP {exchange.status}: {_excerpt(exchange.body)}",
        )
        return [note(finding, exchange)]
    return []


def json_findings(exchange: HttpExchange, what: str) -> tuple[Any, list[ReportedFinding]]:
    """The body as JSON, or an `HTTP-JSON` finding when it is not JSON (bad UTF-8, too deep, truncated, ...)."""
    try:
        return loads(exchange.body), []
    except CanonicalError as exc:
        finding = Finding.of(
            "HTTP-JSON",
            f"{what}: the body is not JSON ({exc})",
            expected="a JSON body (UTF-8)",
            received=_excerpt(exchange.body),
        )
        return None, [note(finding, exchange)]
    except RecursionError:
        finding = Finding.of(
            "HTTP-JSON",
            f"{what}: the body nests too deep to read",
            expected="a JSON body of reasonable depth",
            received=_excerpt(exchange.body),
        )
        return None, [note(finding, exchange)]


def error_body_findings(exchange: HttpExchange, what: str) -> list[ReportedFinding]:
    """`HTTP-ERROR-BODY` when an error answer is not `{"error": str, "message": str, ...}`."""
    try:
        body = loads(exchange.body)
    except (CanonicalError, RecursionError):
        body = None
    if isinstance(body, dict) and isinstance(body.get("error"), str) and isinstance(body.get("message"), str):
        return []
    finding = Finding.of(
        "HTTP-ERROR-BODY",
        f"{what}: the HTTP {exchange.status} answer is not an error object with error and message",
        expected='{"error": <code>, "message": <text>}',
        received=_excerpt(exchange.body),
    )
    return [note(finding, exchange)]


# ---- live streams ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LiveStream:
    """The events of one `/events` answer: ids and chunks (JSON objects), and whether `[DONE]` ended it."""

    exchange: HttpExchange
    ids: tuple[str | None, ...]
    chunks: tuple[dict[str, Any], ...]
    done: bool

    @classmethod
    def read(cls, exchange: HttpExchange) -> LiveStream:
        """Parse an exchange's body (events whose data is not a JSON object are left out)."""
        ids: list[str | None] = []
        chunks: list[dict[str, Any]] = []
        done = False
        for event in decode(exchange.body).events:
            if event.data == DONE:
                done = True
                continue
            try:
                value = loads(event.data)
            except (CanonicalError, RecursionError):
                continue
            if isinstance(value, dict):
                ids.append(event.id)
                chunks.append(value)
        return cls(exchange, tuple(ids), tuple(chunks), done)

    def approval_id(self) -> str | None:
        """The `approvalId` of the first tool approval request: the interrupt id of the pause."""
        for chunk in self.chunks:
            if chunk.get("type") == APPROVAL_REQUEST and isinstance(chunk.get("approvalId"), str):
                return str(chunk["approvalId"])
        return None


def saw_approval_request(body: bytes) -> bool:
    """True once `body` holds a complete event with a tool approval request (reading may stop there)."""
    if APPROVAL_REQUEST.encode() not in body:
        return False
    return any('"tool-approval-request"' in event.data and event.data != DONE for event in decode(body).events)


# ---- scenarios and pausing at an approval -----------------------------------------------------------------


@cache
def _scenario_profiles() -> dict[str, frozenset[Profile]]:
    from turnwire.generate.scenarios import load_scenarios

    return {s.slug: frozenset(s.profiles) for s in load_scenarios()}


def profile_scenarios(profile: Profile) -> list[str]:
    """The slugs of every scenario with a variant for `profile`, sorted."""
    return sorted(slug for slug, profiles in _scenario_profiles().items() if profile in profiles)


def longest_scenario(profile: Profile) -> str:
    """The profile's scenario with the most chunks outside the approval family (the most cursors to try)."""
    from turnwire.generate.scenarios import load_scenarios

    family = {APPROVAL_REQUEST, *APPROVAL_ANSWERS.values()}
    sizes = {
        s.slug: len(variant.chunks)
        for s in load_scenarios()
        if s.slug not in family and (variant := s.variant(profile)) is not None and variant.prior is None
    }
    return max(sorted(sizes), key=lambda slug: sizes[slug])


def needs_approvals(ctx: CheckContext) -> str | None:
    """Applicability: why a check that pauses a turn at a tool approval cannot run in this profile."""
    if approval_scenario(ctx.profile) is None:
        return f"{ctx.profile} has no tool approvals (no approval scenario can pause a turn)"
    return None


def approval_scenario(profile: Profile, approved: bool = True) -> str | None:
    """The approval answer scenario for `profile`, or None when the profile has no tool approvals."""
    slug = APPROVAL_ANSWERS[approved]
    return slug if profile in _scenario_profiles().get(slug, frozenset()) else None


@dataclass(frozen=True)
class Paused:
    """A turn waiting for a tool approval: its first stream and the interrupt id to resume."""

    turn: LiveTurn
    interrupt_id: str
    first: LiveStream


def pause(
    ctx: CheckContext, what: str, *, approved: bool = True, approval_ttl_s: float | None = None
) -> Paused | list[ReportedFinding]:
    """Create a turn of the approval scenario and read its stream up to the approval request.

    Returns the paused turn, or the findings explaining why there is none.
    """
    runtime = live(ctx)
    slug = approval_scenario(ctx.profile, approved)
    if slug is None:
        raise RuntimeError(f"{ctx.profile} has no approval scenario (the check should not have run)")
    created = runtime.create_turn(slug, profile=ctx.profile, approval_ttl_s=approval_ttl_s)
    if isinstance(created, HttpExchange):
        return create_findings(created, f"{what}: create a turn of {slug}")
    stream = read_until_pause(runtime, created)
    found = exchange_findings(stream, f"{what}: stream of the paused turn", {200})
    if found:
        return found
    first = LiveStream.read(stream)
    interrupt = first.approval_id()
    if interrupt is None:
        finding = Finding.of(
            "TURN-APPROVAL-PAUSE",
            f"{what}: the turn of {slug} did not pause at a tool approval request",
            expected="a tool-approval-request chunk with an approvalId",
            received=f"{len(first.chunks)} chunk(s): {', '.join(str(c.get('type')) for c in first.chunks[:12])}",
        )
        return [note(finding, stream)]
    return Paused(created, interrupt, first)


def read_until_pause(runtime: LiveRuntime, turn: LiveTurn) -> HttpExchange:
    """The turn's stream, read until its approval request (a runtime may keep a paused stream open)."""
    from turnwire.conformance.targets.http import HttpRuntime

    if isinstance(runtime, HttpRuntime):
        return runtime.stream(turn, until=saw_approval_request)
    return runtime.stream(turn)  # another LiveRuntime must end the paused stream itself


def create_findings(created: HttpExchange, what: str) -> list[ReportedFinding]:
    """Why a create-turn exchange gave no turn: a failure, a status, or an answer without the turn id."""
    found = exchange_findings(created, what, {200, 201}, requirement="TURN-CREATE")
    if found:
        return found
    _, found = json_findings(created, what)
    if found:
        return found
    finding = Finding.of(
        "TURN-CREATE",
        f"{what}: the answer does not name the new turn",
        expected="the new turn's id where the target profile says (create_turn.turn_id)",
        received=_excerpt(created.body),
    )
    return [note(finding, created)]


def resume_body(interrupt_id: str, decision: Mapping[str, Any], run_id: str | None = None) -> dict[str, Any]:
    """A ResumeRequest body."""
    body: dict[str, Any] = {"interrupt_id": interrupt_id, "decision": dict(decision)}
    if run_id is not None:
        body["run_id"] = run_id
    return body


def timeline(ctx: CheckContext, turn: LiveTurn, what: str) -> tuple[list[Any] | None, list[ReportedFinding]]:
    """The turn's session events (a JSON array), or the findings for why they could not be read.

    Findings about the events themselves should use `last_timeline_exchange` as their reproducer.
    """
    exchange = live(ctx).timeline(turn)
    _LAST_TIMELINE.exchange = exchange
    found = exchange_findings(exchange, f"{what}: timeline", {200})
    if found:
        return None, found
    body, found = json_findings(exchange, f"{what}: timeline")
    if found:
        return None, found
    if not isinstance(body, list):
        finding = Finding.of(
            "HTTP-JSON",
            f"{what}: the timeline is not a JSON array of session events",
            expected="a JSON array",
            received=type(body).__name__,
        )
        return None, [note(finding, exchange)]
    return body, []


class _Last(threading.local):
    exchange: HttpExchange | None = None


_LAST_TIMELINE = _Last()


def last_timeline_exchange() -> HttpExchange | None:
    """The exchange of the last `timeline` call in this thread (the reproducer of findings about it)."""
    return _LAST_TIMELINE.exchange


def client_answer(message: Mapping[str, Any], approval_id: str, approved: bool, reason: str | None) -> dict[str, Any]:
    """The message an AI SDK client holds after answering the approval (`addToolApprovalResponse`).

    The tool part waiting in `approval-requested` with this approval id moves to `approval-responded`,
    its `approval` gaining `approved` and, when given, `reason`. This is the prior message of an
    ai-sdk-v6 answer stream.
    """
    parts: list[Any] = []
    for part in message.get("parts", []):
        approval = part.get("approval") if isinstance(part, dict) else None
        waiting = isinstance(approval, dict) and part.get("state") == "approval-requested"
        if waiting and isinstance(approval, dict) and approval.get("id") == approval_id:
            answered = {k: v for k, v in approval.items() if k != "reason"}
            answered["approved"] = approved
            if reason is not None:
                answered["reason"] = reason
            part = {**part, "state": "approval-responded", "approval": answered}
        parts.append(part)
    return {**message, "parts": parts}
