"""Every live check fails on a runtime broken for it, and passes on the reference runtime.

One reference runtime runs behind a `Breaker` middleware for the whole module; each case switches on
one break (a status rewritten, an event id shifted, a timeline reordered, a request swallowed) and runs
the one check it targets. The same server with no break passes every live check, so a failure here is
the break's doing, not the harness's.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from live_fixtures import BreakerServer, Exchange, Rule, live_context

from turnwire.conformance.catalogue import load_catalogue
from turnwire.conformance.model import Capability, CheckResult, Status
from turnwire.conformance.runner import run_check
from turnwire.conformance.targets.live import build_context
from turnwire.profiles import Profile
from turnwire.requirements import registry

CATALOGUE = load_catalogue()
LIVE_CHECKS = sorted(name for name in CATALOGUE if name.startswith("live."))


def on(method: str, pattern: str) -> Callable[[str, str], bool]:
    rx = re.compile(pattern)
    return lambda m, path: m == method and rx.search(path) is not None


def status(old: int, new: int, body: bytes | None = None) -> Callable[[Exchange], None]:
    def rewrite(ex: Exchange) -> None:
        if ex.status == old:
            ex.status = new
            if body is not None:
                ex.body = body

    return rewrite


def answer(code: int, body: dict[str, object] | None = None) -> Callable[[Exchange], None]:
    def reply(ex: Exchange) -> None:
        ex.status = code
        ex.headers = [(b"content-type", b"application/json")]
        ex.body = json.dumps(body if body is not None else {"error": "broken", "message": "broken"}).encode()

    return reply


def no_content(ex: Exchange) -> None:
    ex.status, ex.headers, ex.body = 204, [], b""


def shift_last_event_id(ex: Exchange) -> None:
    cursor = ex.request_headers.get("last-event-id")
    if cursor is not None and cursor.isdigit():
        ex.request_headers["last-event-id"] = str(max(0, int(cursor) - 1))


def drop_ids(ex: Exchange) -> None:
    ex.body = b"".join(line for line in ex.body.splitlines(keepends=True) if not line.startswith(b"id:"))


def unsendable_ids(ex: Exchange) -> None:
    ex.body = re.sub(rb"(?m)^id: (\d+)$", lambda m: "id: №".encode() + m.group(1), ex.body)


def drop_approval_request(ex: Exchange) -> None:
    events = ex.body.split(b"\n\n")
    ex.body = b"\n\n".join(e for e in events if b'"tool-approval-request"' not in e)


def timeline(edit: Callable[[list[dict[str, object]]], list[dict[str, object]]]) -> Callable[[Exchange], None]:
    def rewrite(ex: Exchange) -> None:
        if ex.status == 200:
            ex.body = json.dumps(edit(json.loads(ex.body))).encode()

    return rewrite


def is_decision(event: dict[str, object]) -> bool:
    return event.get("kind") == "x.permission.decision"


def duplicate_decisions(events: list[dict[str, object]]) -> list[dict[str, object]]:
    out = []
    for e in events:
        out.append(e)
        if is_decision(e):
            out.append({**e, "event_id": f"{e['event_id']}-again"})
    return out


def decision_after_tool(events: list[dict[str, object]]) -> list[dict[str, object]]:
    decisions = [e for e in events if is_decision(e)]
    rest = [e for e in events if not is_decision(e)]
    ends = [i for i, e in enumerate(rest) if e.get("kind") == "span.tool_call_end"]
    at = ends[-1] + 1 if ends else len(rest)
    return rest[:at] + decisions + rest[at:]


def forget_replacement(events: list[dict[str, object]]) -> list[dict[str, object]]:
    for e in events:
        extension = e.get("extension")
        if is_decision(e) and isinstance(extension, dict):
            extension["data"] = {k: v for k, v in extension["data"].items() if "updated_input" not in k}
    return events


@dataclass(frozen=True)
class Case:
    check: str
    rule: Rule
    requirements: frozenset[str]


def case(check: str, name: str, requirements: set[str], **rule: Callable[..., object]) -> Case:
    return Case(check, Rule(name=name, **rule), frozenset(requirements))  # type: ignore[arg-type]


RESUME = r"/resume$"
TIMELINE = r"/timeline$"
NEGATIVE: list[Case] = [
    case("live.http.not-found", "unknown turn answers 200", {"HTTP-NOT-FOUND"},
         matches=on("GET", r"/turns/[^/]+$"), response=status(404, 200, b"{}")),
    case("live.replay.last-event-id", "Last-Event-ID off by one", {"REPLAY-SUFFIX", "REPLAY-FOLD"},
         matches=on("GET", r"/events$"), request=shift_last_event_id),
    case("live.replay.last-event-id", "events without ids", {"REPLAY-ID"},
         matches=on("GET", r"/events$"), response=drop_ids),
    case("live.replay.last-event-id", "ids a client cannot send back", {"REPLAY-ID"},
         matches=on("GET", r"/events$"), response=unsendable_ids),
    case("live.resume.outcomes", "a repeat is applied again", {"RESUME-HTTP-REPEAT", "RESUME-HTTP-CONFLICT"},
         matches=on("POST", RESUME), response=status(409, 200, b'{"applied": true}')),
    case("live.resume.outcomes", "invalid decisions answer 409", {"RESUME-HTTP-INVALID"},
         matches=on("POST", RESUME), response=status(422, 409)),
    case("live.resume.outcomes", "the valid decision fails", {"RESUME-HTTP-APPLIED"},
         matches=on("POST", RESUME), response=status(200, 500)),
    case("live.resume.outcomes", "errors are plain text", {"HTTP-ERROR-BODY"},
         matches=on("POST", RESUME), response=status(409, 409, b"conflict")),
    case("live.resume.outcomes", "no pause at the approval", {"TURN-APPROVAL-PAUSE"},
         matches=on("GET", r"/events$"), response=drop_approval_request),
    case("live.resume.expired", "expired answers 409", {"RESUME-HTTP-EXPIRED"},
         matches=on("POST", RESUME), response=status(410, 409)),
    case("live.resume.concurrent", "every concurrent resume is applied", {"RESUME-HTTP-ONCE"},
         matches=on("POST", RESUME), response=status(409, 200, b'{"applied": true}')),
    case("live.resume.concurrent", "two decision events", {"RESUME-HTTP-ONCE"},
         matches=on("GET", TIMELINE), response=timeline(duplicate_decisions)),
    case("live.resume.legacy-snapshot", "planting is ignored, the resume applies", {"RESUME-HTTP-LEGACY-SNAPSHOT"},
         matches=on("PUT", r"/session-snapshot$"), answer=no_content),
    case("live.resume.decision-log", "the decision after the tool result", {"RESUME-DECISION-BEFORE-TOOL"},
         matches=on("GET", TIMELINE), response=timeline(decision_after_tool)),
    case("live.resume.decision-log", "the decision recorded twice", {"RESUME-DECISION-DUPLICATE"},
         matches=on("GET", TIMELINE), response=timeline(duplicate_decisions)),
    case("live.resume.decision-log", "no decision event", {"RESUME-DECISION-MISSING"},
         matches=on("GET", TIMELINE), response=timeline(lambda es: [e for e in es if not is_decision(e)])),
    case("live.resume.decision-log", "the replacement input forgotten", {"RESUME-DECISION-CONTENT"},
         matches=on("GET", TIMELINE), response=timeline(forget_replacement)),
    case("live.compat.legacy-decision", "the legacy decision form is refused", {"COMPAT-LEGACY-DECISION"},
         matches=on("POST", RESUME), response=status(200, 422)),
    case("live.turns.cancel", "cancel acknowledged, nothing cancelled", {"TURN-CANCEL"},
         matches=on("POST", r"/cancel$"), answer=answer(200, {"turn_id": "t", "status": "CANCELLED"})),
    case("live.run.accept", "every run request is refused", {"RUN-HTTP-ACCEPT"},
         matches=on("POST", r"/run$"), answer=answer(422)),
    case("live.run.reject", "every run request is accepted", {"RUN-HTTP-REJECT"},
         matches=on("POST", r"/run$"), response=status(422, 200, b'{"ok": true}')),
]  # fmt: skip


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BreakerServer]:
    with BreakerServer(tmp_path_factory.mktemp("broken")) as server:
        yield server


def run_live(server: BreakerServer, name: str, profile: Profile = Profile.V7, rule: Rule | None = None) -> CheckResult:
    server.rule = rule
    context, runtime = live_context(server.api_url, profile)
    try:
        return run_check(CATALOGUE[name], context)
    finally:
        server.rule = None
        runtime.close()


@pytest.mark.parametrize("item", NEGATIVE, ids=[f"{c.check}: {c.rule.name}" for c in NEGATIVE])
def test_the_check_fails_on_a_runtime_broken_for_it(broken: BreakerServer, item: Case) -> None:
    result = run_live(broken, item.check, rule=item.rule)
    assert result.status is Status.FAILED, result
    found = {rf.finding.requirement for rf in result.findings}
    assert item.requirements <= found, (sorted(found), result.findings[:3])
    assert all(rf.reproducer is not None for rf in result.findings if rf.finding.requirement in item.requirements)


@pytest.mark.parametrize("profile", [Profile.V7, Profile.V6])
@pytest.mark.parametrize("name", LIVE_CHECKS)
def test_the_check_passes_on_the_reference_runtime(broken: BreakerServer, name: str, profile: Profile) -> None:
    result = run_live(broken, name, profile)
    assert result.status in (Status.PASSED, Status.NOT_APPLICABLE), [str(rf.finding) for rf in result.findings]
    if name != "live.http.recording":  # the one check that only reports what build_context recorded
        assert result.status is Status.PASSED


def test_approval_checks_are_not_applicable_in_ai_sdk_v5(broken: BreakerServer) -> None:
    result = run_live(broken, "live.resume.outcomes", Profile.V5)
    assert result.status is Status.NOT_APPLICABLE
    assert "ai-sdk-v5 has no tool approvals" in (result.reason or "")


def test_unclaimed_capabilities_make_checks_not_applicable(broken: BreakerServer) -> None:
    context, runtime = live_context(broken.api_url, capabilities=frozenset({Capability.STREAMING}))
    try:
        result = run_check(CATALOGUE["live.run.accept"], context)
    finally:
        runtime.close()
    assert result.status is Status.NOT_APPLICABLE
    assert "does not claim run" in (result.reason or "")


def test_failures_while_recording_are_reported(broken: BreakerServer) -> None:
    def breaks(ex: Exchange) -> bool:
        snapshot = ex.method == "GET" and re.search(r"/turns/[^/]+$", ex.path) is not None
        create_text = ex.method == "POST" and ex.path.endswith("/turns") and b'"scenario":"text"' in ex.request_body
        if snapshot or create_text:
            answer(500)(ex)
            return True
        return False

    broken.rule = Rule(name="creating text and every snapshot answer 500", matches=lambda m, p: True, answer=breaks)
    try:
        context, close = build_context(broken.api_url, profile=Profile.V7, target_profile=None, options={})
        try:
            result = run_check(CATALOGUE["live.http.recording"], context)
        finally:
            close()
    finally:
        broken.rule = None
    assert result.status is Status.FAILED
    found = [rf.finding.requirement for rf in result.findings]
    assert set(found) == {"HTTP-STATUS", "TURN-CREATE"}
    assert found.count("TURN-CREATE") == 1
    assert found.count("HTTP-STATUS") == len(context.recordings)  # one failed snapshot per recording
    assert "text" not in {r.name for r in context.recordings}


def test_a_runtime_that_goes_away_mid_run_is_a_connect_finding(tmp_path: Path) -> None:
    with BreakerServer(tmp_path) as server:
        url = server.api_url
    context, runtime = live_context(url)
    try:
        result = run_check(CATALOGUE["live.run.accept"], context)
    finally:
        runtime.close()
    assert result.status is Status.FAILED
    assert {rf.finding.requirement for rf in result.findings} == {"HTTP-CONNECT"}


def test_every_live_check_has_a_negative_fixture() -> None:
    covered = {c.check for c in NEGATIVE} | {"live.http.recording"}  # recording: hostile targets and the test above
    assert set(LIVE_CHECKS) <= covered


HOSTILE_ONLY = {"HTTP-TIMEOUT", "HTTP-RESET", "HTTP-SIZE", "HTTP-MALFORMED", "HTTP-JSON"}  # test_live_hostile.py
ELSEWHERE = {"HTTP-STATUS", "HTTP-CONNECT", "TURN-CREATE"}  # the two tests above, and test_live_hostile.py


def test_every_live_requirement_has_a_negative_fixture() -> None:
    live_ids = {
        req.id for req in registry().values() if req.check is not None and req.check.startswith("catalogue:live.")
    }
    covered = {r for c in NEGATIVE for r in c.requirements} | HOSTILE_ONLY | ELSEWHERE
    assert live_ids - covered == set()
