"""The scripted model: a turn plays one scenario of `conformance/scenarios/`, chunk for chunk.

Why scripted: the reference runtime must produce streams that equal the goldens (after normalisation),
so its "model" is the scenario data itself — the same data the golden generator reads. What the
runtime adds is what a real runtime adds: live ids and timestamps, persistence, and the pause at a
tool approval.

**Live ids.** Scenario data is in normal form (`msg-1`, `call-1`, `approval-1`, …). A turn replaces
each normal id with a live one derived from the turn id (`IdMinter`, the `Normaliser` run backwards:
the same id locations, the opposite direction), so two turns never share an id, normalising a turn's
stream gives back the scenario's ids, and the mapping needs no storage (a restarted server derives the
same ids). Date-time strings in the data become the time the chunk is played.

**Approval turns.** Three scenarios form the approval family: `tool-approval-request` (the ask),
`tool-approval-approved` and `tool-approval-denied` (the two answers). A turn of any of them pauses at
the first `tool-approval-request` chunk; the interrupt id is that chunk's `approvalId`. What follows
depends on the decision and on how the profile carries an approval answer, which the data says: when
the answer scenarios' variant for the profile is a *continuation* (it has a `prior`, as ai-sdk-v6's
have), the answer arrives in a new stream; otherwise (ai-sdk-v7) in the same stream.

* opening — same stream: the turn's own chunks up to the approval request; new stream: the chunks of
  `tool-approval-request` up to the request.
* at the pause — same stream: nothing, the stream stays open; new stream: the rest of
  `tool-approval-request` (finish-step, finish "tool-calls"), so the first stream is complete.
* approve — `tool-approval-approved` after its approval request (same stream), or all of it as a new
  stream; reject or respond — `tool-approval-denied` likewise.
* expiry — same stream: the rest of `tool-approval-request` after its approval request; new stream:
  nothing more.

The answer's `tool-approval-response` chunk (v7) carries the recorded decision: `approved`, and the
decision's message as `reason` for a reject or respond. In a new stream (v6) the decision lives in the
prior message instead, exactly as the AI SDK client writes it (`answer_approval`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from turnwire.fold import fold
from turnwire.generate.scenarios import Scenario, Variant, load_scenarios
from turnwire.normalise import TIMESTAMP, Family, Normaliser
from turnwire.profiles import Profile

__all__ = [
    "APPROVAL_ANSWERS",
    "APPROVAL_REQUEST",
    "APPROVAL_REQUEST_CHUNK",
    "ApprovalScript",
    "IdMinter",
    "Script",
    "ScriptBook",
    "ScriptError",
    "UnknownScenario",
    "answer_approval",
    "fold_message",
    "tool_result",
    "with_decision",
]

APPROVAL_REQUEST = "tool-approval-request"
"""The scenario of the ask; its tail is what a turn plays when the ask expires."""

APPROVAL_ANSWERS: Mapping[bool, str] = {True: "tool-approval-approved", False: "tool-approval-denied"}
"""The scenario that answers the ask, by whether the decision approves."""

APPROVAL_REQUEST_CHUNK = "tool-approval-request"
"""The chunk type a turn pauses at."""

Style = Literal["same-stream", "new-stream"]
Chunks = tuple[dict[str, Any], ...]


class ScriptError(ValueError):
    """The scenario data does not make a playable script (a bug in the data, not in a request)."""


class UnknownScenario(ValueError):
    """A turn asks for a scenario that does not exist, or one that has no variant for its profile."""


@dataclass(frozen=True)
class ApprovalScript:
    """How an approval turn continues after its pause (all chunks in normal form)."""

    style: Style
    approval_id: str
    tool_call_id: str
    tool_name: str
    tool_args: dict[str, Any]
    at_pause: Chunks
    on_approve: Chunks
    on_deny: Chunks
    on_expiry: Chunks

    def answer(self, approved: bool) -> Chunks:
        """The chunks played after a decision (same stream: the rest of it; new stream: all of it)."""
        return self.on_approve if approved else self.on_deny


@dataclass(frozen=True)
class Script:
    """What a turn of `slug` plays in `profile`: the opening chunks, and the approval plan if it pauses."""

    slug: str
    profile: Profile
    opening: Chunks
    approval: ApprovalScript | None = None


def _request_index(chunks: Sequence[Mapping[str, Any]]) -> int | None:
    for i, chunk in enumerate(chunks):
        if chunk.get("type") == APPROVAL_REQUEST_CHUNK:
            return i
    return None


def _tool_call(chunks: Sequence[Mapping[str, Any]], request: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """Name and arguments of the call the approval request asks about (from its input chunk)."""
    call_id = request.get("toolCallId")
    for chunk in chunks:
        if chunk.get("type") == "tool-input-available" and chunk.get("toolCallId") == call_id:
            name, value = chunk.get("toolName"), chunk.get("input")
            if isinstance(name, str) and name:
                return name, (dict(value) if isinstance(value, dict) else {"input": value})
    raise ScriptError(f"the approval request for {call_id!r} follows no tool-input-available chunk")


class ScriptBook:
    """Every playable script, built once from the scenario data (and checked while building)."""

    def __init__(self, scenarios: Iterable[Scenario] | None = None) -> None:
        loaded = list(load_scenarios() if scenarios is None else scenarios)
        self._scenarios: dict[str, Scenario] = {s.slug: s for s in loaded}
        self._scripts: dict[tuple[str, Profile], Script] = {}
        for scenario in loaded:
            for profile in scenario.profiles:
                self._scripts[(scenario.slug, profile)] = self._build(scenario, profile)

    @property
    def slugs(self) -> list[str]:
        """Every scenario slug, sorted."""
        return sorted(self._scenarios)

    def pairs(self) -> list[tuple[str, Profile]]:
        """Every (scenario, profile) a turn can play."""
        return sorted(self._scripts)

    def script(self, slug: str, profile: Profile) -> Script:
        """The script of `slug` in `profile`; `UnknownScenario` when there is none."""
        scenario = self._scenarios.get(slug)
        if scenario is None:
            raise UnknownScenario(f"unknown scenario {slug!r}; known scenarios: {', '.join(self.slugs)}")
        found = self._scripts.get((slug, profile))
        if found is None:
            served = ", ".join(p.value for p in scenario.profiles)
            raise UnknownScenario(f"scenario {slug!r} has no {profile.value} variant (it serves {served})")
        return found

    # ---- building -----------------------------------------------------------------------------------

    def _variant(self, slug: str, profile: Profile) -> Variant:
        scenario = self._scenarios.get(slug)
        variant = None if scenario is None else scenario.variant(profile)
        if variant is None:
            raise ScriptError(f"the approval family needs scenario {slug!r} with a {profile.value} variant")
        return variant

    def _build(self, scenario: Scenario, profile: Profile) -> Script:
        family = {APPROVAL_REQUEST, *APPROVAL_ANSWERS.values()}
        own = scenario.variant(profile)
        assert own is not None
        if scenario.slug not in family:
            return Script(scenario.slug, profile, tuple(own.chunks))
        answers = {approved: self._variant(slug, profile) for approved, slug in APPROVAL_ANSWERS.items()}
        styles = {v.prior is not None for v in answers.values()}
        if len(styles) != 1:
            raise ScriptError(f"{profile.value}: the approval answers disagree on being continuations")
        style: Style = "new-stream" if styles.pop() else "same-stream"
        ask = self._variant(APPROVAL_REQUEST, profile)
        ask_at = _request_index(ask.chunks)
        if ask_at is None or ask.prior is not None:
            raise ScriptError(f"{APPROVAL_REQUEST} ({profile.value}) has no approval request to pause at")
        if style == "same-stream" and own.prior is None and _request_index(own.chunks) is not None:
            opening_from = own
        else:
            opening_from = ask
        at = _request_index(opening_from.chunks)
        assert at is not None
        opening = tuple(opening_from.chunks[: at + 1])
        request = opening[-1]
        tool_name, tool_args = _tool_call(opening, request)
        tails: dict[bool, Chunks] = {}
        for approved, variant in answers.items():
            if style == "new-stream":
                tails[approved] = tuple(variant.chunks)
            else:
                i = _request_index(variant.chunks)
                if i is None:
                    raise ScriptError(f"{APPROVAL_ANSWERS[approved]} ({profile.value}) has no approval request")
                tails[approved] = tuple(variant.chunks[i + 1 :])
        rest_of_ask = tuple(ask.chunks[ask_at + 1 :])
        plan = ApprovalScript(
            style=style,
            approval_id=str(request.get("approvalId")),
            tool_call_id=str(request.get("toolCallId")),
            tool_name=tool_name,
            tool_args=tool_args,
            at_pause=rest_of_ask if style == "new-stream" else (),
            on_approve=tails[True],
            on_deny=tails[False],
            on_expiry=rest_of_ask if style == "same-stream" else (),
        )
        return Script(scenario.slug, profile, opening, plan)


# ---- live ids and times --------------------------------------------------------------------------------


def _stamp(value: Any, now: str) -> Any:
    if isinstance(value, str):
        return now if value == TIMESTAMP else value
    if isinstance(value, dict):
        return {k: _stamp(v, now) for k, v in value.items()}
    if isinstance(value, list):
        return [_stamp(v, now) for v in value]
    return value


class IdMinter(Normaliser):
    """The normaliser backwards: each normal id of a turn's script becomes a live id of that turn.

    Live ids are `<family>_<20 hex digits>`, a hash of (turn id, family, normal id): distinct per turn,
    stable across restarts, and normalising them yields the script's ids again.
    """

    def __init__(self, turn_id: str) -> None:
        super().__init__()
        self._seed = turn_id

    def id(self, family: Family, value: str) -> str:
        """The live id of the normal id `value` in `family`, for this turn."""
        digest = hashlib.sha256(f"{self._seed}\x00{family.value}\x00{value}".encode()).hexdigest()
        return f"{family.value}_{digest[:20]}"

    def live(self, chunks: Iterable[Mapping[str, Any]], now: str) -> list[dict[str, Any]]:
        """`chunks` with live ids, and every date-time string set to `now`."""
        return [_stamp(self.chunk(c), now) for c in chunks]


# ---- what the client holds -----------------------------------------------------------------------------


def answer_approval(message: Mapping[str, Any], approval_id: str, approved: bool, reason: str | None) -> dict[str, Any]:
    """`message` after the user's answer, as the AI SDK client writes it (`addToolApprovalResponse`).

    The tool part waiting in `approval-requested` with this approval id moves to `approval-responded`,
    its `approval` gaining `approved` and, when given, `reason`.
    """
    parts: list[Any] = []
    for part in message.get("parts", []):
        approval = part.get("approval") if isinstance(part, dict) else None
        if (
            isinstance(approval, dict)
            and part.get("state") == "approval-requested"
            and approval.get("id") == approval_id
        ):
            answered = {k: v for k, v in approval.items() if k != "reason"}
            answered["approved"] = approved
            if reason is not None:
                answered["reason"] = reason
            part = {**part, "state": "approval-responded", "approval": answered}
        parts.append(part)
    return {**message, "parts": parts}


def fold_message(
    chunks: Sequence[Mapping[str, Any]], profile: Profile, prior: Mapping[str, Any] | None, message_id: str
) -> dict[str, Any]:
    """The message a client holds after `chunks` (continuing `prior`), never None.

    When the stream yields no message at all (nothing but chunks that write nothing), the client still
    holds the prior, or an empty assistant message with `message_id`.
    """
    result = fold(chunks, profile, prior=prior)
    if result.message is not None:
        return result.message
    if prior is not None:
        return dict(prior)
    return {"id": message_id, "role": "assistant", "parts": []}


def tool_result(chunks: Iterable[Mapping[str, Any]], tool_call_id: str) -> dict[str, Any] | None:
    """The output of the call `tool_call_id` in `chunks`, as a JSON object (None when there is none)."""
    for chunk in chunks:
        if chunk.get("type") == "tool-output-available" and chunk.get("toolCallId") == tool_call_id:
            output = chunk.get("output")
            return dict(output) if isinstance(output, dict) else {"output": output}
    return None


def with_decision(chunks: Iterable[Mapping[str, Any]], approved: bool, reason: str | None) -> list[dict[str, Any]]:
    """`chunks` whose `tool-approval-response` carries the recorded decision (approved, and reason)."""
    out: list[dict[str, Any]] = []
    for chunk in chunks:
        if chunk.get("type") == "tool-approval-response":
            answered = {k: v for k, v in chunk.items() if k != "reason"}
            answered["approved"] = approved
            if reason is not None:
                answered["reason"] = reason
            out.append(answered)
        else:
            out.append(dict(chunk))
    return out
