"""Ordering checks over a session's event log: the decision is a fact recorded at the right moment.

A permission decision event is only worth something if it sits where it happened: after the
interrupt that asked, before the tool ran (or its result arrived), inside the run that resumed (before
that run's idle status), once per applied resume, never for a resume that was not applied, and
without the original tool arguments.

Which events are which — the keys these checks read from payloads this contract otherwise leaves open:

* the interrupt: kind `agent.interrupt`, payload `agent_interrupt` with `tool_use_id` and/or
  `tool_name`, and optionally `tool_args` (the arguments the human was asked about);
* the tool's execution and result: kinds `span.tool_call_start` / `span.tool_call_end`, payload `span`
  with `tool_use_id` and/or `tool_name`;
* run boundaries: kinds `session.status_running` and `session.status_idle`;
* the decision: kind `x.permission.decision`.

Events belong to one tool call when they name the same `tool_use_id`, or — for a call without one —
the same `tool_name`. Every function here returns findings and never raises on a target's log.
"""

from __future__ import annotations

import contextlib
import json
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from turnwire.canonical import CanonicalError, dumps, equal
from turnwire.findings import Finding
from turnwire.resume.events import SessionEvent, decode_event
from turnwire.resume.outcomes import Applied, Outcome
from turnwire.resume.permission import PERMISSION_DECISION_KIND
from turnwire.resume.registry import PayloadRegistry
from turnwire.resume.snapshot import PendingToolCall

__all__ = [
    "IDLE_KIND",
    "INTERRUPT_KIND",
    "RUNNING_KIND",
    "TOOL_KINDS",
    "CallKey",
    "call_key",
    "check_decision_log",
]

INTERRUPT_KIND = "agent.interrupt"
TOOL_KINDS = ("span.tool_call_start", "span.tool_call_end")
RUNNING_KIND = "session.status_running"
IDLE_KIND = "session.status_idle"

CallKey = tuple[str, str]
"""How events are matched to a tool call: `("tool_use_id", id)` or, without one, `("tool_name", name)`."""


def call_key(payload: object) -> CallKey | None:
    """The call an event payload (a JSON object or a pending call) is about, or None if it names none."""
    if isinstance(payload, PendingToolCall):
        payload = payload.to_json()
    if not isinstance(payload, Mapping):
        return None
    use_id, name = payload.get("tool_use_id"), payload.get("tool_name")
    if isinstance(use_id, str) and use_id:
        return ("tool_use_id", use_id)
    if isinstance(name, str) and name:
        return ("tool_name", name)
    return None


def _data_json(event: SessionEvent) -> dict[str, Any]:
    data = event.payload
    if isinstance(data, BaseModel):
        dumped: dict[str, Any] = data.model_dump(mode="json", by_alias=True)
        return dumped
    return data if isinstance(data, dict) else {}


def _walk(value: object, path: str) -> Iterator[tuple[str, object]]:
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _walk(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk(v, f"{path}[{i}]")


def _spellings(args: dict[str, Any]) -> set[str]:
    """The usual text forms of an argument object: canonical, compact, and Python's default."""
    out = {json.dumps(args), json.dumps(args, separators=(",", ":"), ensure_ascii=False)}
    with contextlib.suppress(CanonicalError):
        out.add(dumps(args).decode("utf-8"))
    return out


def _carried_arguments(data: dict[str, Any], originals: list[dict[str, Any]], base: str) -> str | None:
    """Where in a decision payload the original arguments appear (as an object or as text), if anywhere.

    The human's own replacement (`updated_input` of an approve that says `has_updated_input`) is theirs
    to write, so it is not searched.
    """
    human_text = "updated_input" if data.get("has_updated_input") is True else None
    for args in originals:
        if not args:
            continue  # `{}` is found everywhere and says nothing
        texts = _spellings(args)
        for path, value in _walk(data, base):
            if human_text is not None and path == f"{base}.{human_text}":
                continue
            if isinstance(value, dict) and value is not data and equal(value, args):
                return path
            if isinstance(value, str) and any(t in value for t in texts):
                return path
    return None


def check_decision_log(
    events: Sequence[object],
    outcomes: Sequence[Outcome] = (),
    *,
    registry: PayloadRegistry | None = None,
) -> list[Finding]:
    """Findings for the permission decisions in one session's event log (JSON values or `SessionEvent`s).

    `outcomes` are the engine's answers to the resumes that produced the log, when known: they add the
    checks "exactly one decision event per applied resume" and "none for a resume not applied". Event
    findings from decoding the log (`EVENT-*`) are reported too.
    """
    findings: list[Finding] = []
    decoded: list[SessionEvent | None] = []
    for i, raw in enumerate(events):
        result = decode_event(raw, registry, json_path=f"$[{i}]")
        findings.extend(result.findings)
        decoded.append(result.event)

    interrupts: dict[CallKey, list[int]] = defaultdict(list)
    interrupt_args: dict[int, dict[str, Any]] = {}
    tools: dict[CallKey, list[int]] = defaultdict(list)
    statuses: list[tuple[int, str]] = []
    decisions: dict[CallKey, list[int]] = defaultdict(list)
    data_at: dict[int, dict[str, Any]] = {}
    for i, event in enumerate(decoded):
        if event is None:
            continue
        if event.kind == INTERRUPT_KIND:
            key = call_key(event.payload)
            if key is not None:
                interrupts[key].append(i)
                if isinstance(event.payload, dict) and isinstance(event.payload.get("tool_args"), dict):
                    interrupt_args[i] = event.payload["tool_args"]
        elif event.kind in TOOL_KINDS:
            key = call_key(event.payload)
            if key is not None:
                tools[key].append(i)
        elif event.kind in (RUNNING_KIND, IDLE_KIND):
            statuses.append((i, event.kind))
        elif event.kind == PERMISSION_DECISION_KIND:
            data_at[i] = _data_json(event)
            key = call_key(data_at[i])
            if key is not None:
                decisions[key].append(i)

    outcome_args: dict[CallKey, list[dict[str, Any]]] = defaultdict(list)
    for outcome in outcomes:
        if outcome.call is not None and (key := call_key(outcome.call)) is not None:
            outcome_args[key].append(outcome.call.tool_args)

    for key, indices in decisions.items():
        for n, i in enumerate(indices):
            findings.extend(
                _check_one(i, n, key, interrupts[key], tools[key], statuses, data_at[i], interrupt_args, outcome_args)
            )
    findings.extend(_check_outcomes(outcomes, decisions))
    return findings


def _check_one(
    i: int,
    n: int,
    key: CallKey,
    interrupts: list[int],
    tools: list[int],
    statuses: list[tuple[int, str]],
    data: dict[str, Any],
    interrupt_args: dict[int, dict[str, Any]],
    outcome_args: dict[CallKey, list[dict[str, Any]]],
) -> list[Finding]:
    out: list[Finding] = []
    who = f"{key[0]} {key[1]!r}"
    where = f"$[{i}]"
    if n >= 1:
        out.append(
            Finding.of(
                "RESUME-DECISION-DUPLICATE",
                f"a second permission decision event for the tool call with {who}",
                expected="one decision event per tool call",
                received=f"{n + 1} decision events",
                json_path=where,
            )
        )
    before = [j for j in interrupts if j < i]
    if not before:
        out.append(
            Finding.of(
                "RESUME-DECISION-AFTER-INTERRUPT",
                f"the permission decision for {who} is not preceded by its {INTERRUPT_KIND} event",
                expected=f"an {INTERRUPT_KIND} event for {who} before the decision",
                received="none" if not interrupts else f"first at event {interrupts[0]}",
                json_path=where,
            )
        )
    start = before[-1] if before else -1
    early = [j for j in tools if start < j < i]
    if early:
        out.append(
            Finding.of(
                "RESUME-DECISION-BEFORE-TOOL",
                f"the tool call with {who} ran (or returned) before its permission decision was recorded",
                expected="the decision event before the tool's execution and result",
                received=f"tool span at event {early[0]}, decision at event {i}",
                json_path=where,
            )
        )
    between = [(j, kind) for j, kind in statuses if start < j < i]
    if between and between[-1][1] == IDLE_KIND:
        out.append(
            Finding.of(
                "RESUME-DECISION-BEFORE-IDLE",
                f"the permission decision for {who} was recorded after the session went idle, outside a running run",
                expected=f"the decision after a {RUNNING_KIND} and before the next {IDLE_KIND}",
                received=f"{IDLE_KIND} at event {between[-1][0]}, decision at event {i}",
                json_path=where,
            )
        )
    originals = [interrupt_args[start]] if start in interrupt_args else []
    originals += outcome_args.get(key, [])
    path = _carried_arguments(data, originals, f"{where}.extension.data")
    if path is not None:
        out.append(
            Finding.of(
                "RESUME-DECISION-ARGS",
                f"the permission decision for {who} carries the original tool arguments",
                expected="action, tool identity, decision text and updated input only",
                received=f"the original arguments at {path}",
                json_path=path,
            )
        )
    return out


def _check_outcomes(outcomes: Sequence[Outcome], decisions: Mapping[CallKey, list[int]]) -> list[Finding]:
    out: list[Finding] = []
    applied: Counter[CallKey] = Counter()
    for outcome in outcomes:
        if isinstance(outcome, Applied) and (key := call_key(outcome.call)) is not None:
            applied[key] += 1
    for key, count in applied.items():
        got = len(decisions.get(key, []))
        if got < count:
            out.append(
                Finding.of(
                    "RESUME-DECISION-MISSING",
                    f"an applied resume of the tool call with {key[0]} {key[1]!r} has no permission decision event",
                    expected=f"{count} decision event(s)",
                    received=f"{got}",
                    json_path="$",
                )
            )
    reported: set[CallKey] = set()
    for outcome in outcomes:
        if isinstance(outcome, Applied) or outcome.call is None:
            continue
        key = call_key(outcome.call)
        if key is None or key in applied or key in reported or not decisions.get(key):
            continue
        reported.add(key)
        for i in decisions[key]:
            out.append(
                Finding.of(
                    "RESUME-DECISION-NOT-APPLIED",
                    f"a permission decision event was recorded for the tool call with {key[0]} {key[1]!r}, "
                    f"whose resume was not applied ({outcome.kind.value})",
                    expected="no decision event for a resume that was not applied",
                    received=f"decision at event {i}",
                    json_path=f"$[{i}]",
                )
            )
    return out
