"""Hostile targets: whatever a target does on the wire, a run yields findings in bounded time, never a traceback.

Each server misbehaves on every connection: hangs, resets, sends 50 MB, invalid UTF-8, JSON nested
10 000 deep, a stream that never ends, a stream cut off mid-body, bytes that are not HTTP, one byte
every 0.1 s forever. The bounds are bounds, not speed targets: a request never outlives the total
timeout by more than a little, and a whole run against a hung target is cut short after it.
"""

from __future__ import annotations

import pytest
from live_fixtures import (
    Behaviour,
    HostileServer,
    bad_utf8,
    cut_off,
    deep_json,
    drip,
    flood,
    garbage,
    hang,
    no_terminator,
    paused_open,
    reset,
    timed,
)

from turnwire.conformance.catalogue import load_catalogue, select
from turnwire.conformance.checks.live_common import LiveStream, saw_approval_request
from turnwire.conformance.model import Status
from turnwire.conformance.runner import run
from turnwire.conformance.targets.http import (
    MAX_TIMEOUTS_IN_A_ROW,
    UNTIL_GRACE_S,
    Failure,
    HttpRuntime,
    failure_of,
)
from turnwire.conformance.targets.live import TargetUnavailable, build_context
from turnwire.conformance.targets.profile import Limits
from turnwire.findings import Level
from turnwire.profiles import Profile

TIMEOUT = 1.0
SLACK = 2.0
LIMITS = Limits(connect_timeout_s=TIMEOUT, read_timeout_s=TIMEOUT, total_timeout_s=TIMEOUT, max_response_bytes=1 << 20)

TRANSPORT: list[tuple[str, Behaviour, Failure | None]] = [
    ("hang", hang, Failure.TIMEOUT),
    ("reset", reset, Failure.RESET),
    ("50 MB", flood, Failure.SIZE),
    ("one byte every 0.1 s", drip, Failure.TIMEOUT),
    ("a stream without terminator", no_terminator, Failure.TIMEOUT),
    ("a stream cut off mid-body", cut_off, Failure.RESET),
    ("not HTTP", garbage, Failure.MALFORMED),
    ("invalid UTF-8", bad_utf8, None),
    ("JSON 10 000 deep", deep_json, None),
]


@pytest.mark.parametrize(("label", "behaviour", "failure"), TRANSPORT, ids=[t[0] for t in TRANSPORT])
def test_one_exchange_ends_in_time_with_the_failure_named(
    label: str, behaviour: Behaviour, failure: Failure | None
) -> None:
    with HostileServer(behaviour) as server:
        runtime = HttpRuntime(server.url, limits=LIMITS)
        with timed() as took:
            exchange = runtime.request("GET", server.url + "/chats/c/turns/t")
        runtime.close()
    assert took[0] < TIMEOUT + SLACK, label
    assert failure_of(exchange) is failure, exchange.error
    assert len(exchange.body) <= LIMITS.max_response_bytes
    if failure is None:
        assert exchange.status == 200


def test_the_size_cap_keeps_what_came_within_it() -> None:
    with HostileServer(flood) as server:
        runtime = HttpRuntime(server.url, limits=LIMITS)
        exchange = runtime.request("GET", server.url)
        runtime.close()
    assert exchange.status == 200
    assert len(exchange.body) == LIMITS.max_response_bytes
    assert "1048576 bytes" in (exchange.error or "")


def test_a_paused_stream_kept_open_is_read_up_to_the_pause_without_error() -> None:
    with HostileServer(paused_open) as server:
        runtime = HttpRuntime(server.url, limits=LIMITS.model_copy(update={"total_timeout_s": 5.0}))
        with timed() as took:
            exchange = runtime.request("GET", server.url, until=saw_approval_request)
        runtime.close()
    assert exchange.error is None
    assert took[0] < UNTIL_GRACE_S + 1.0
    assert LiveStream.read(exchange).approval_id() == "a1"
    assert b"finish-step" in exchange.body  # what came right after the pause is still read


def test_a_target_that_keeps_timing_out_is_taken_as_hung() -> None:
    with HostileServer(hang) as server:
        runtime = HttpRuntime(server.url, limits=LIMITS)
        for _ in range(MAX_TIMEOUTS_IN_A_ROW):
            assert failure_of(runtime.request("GET", server.url)) is Failure.TIMEOUT
        with timed() as took:
            fast = runtime.request("GET", server.url)
        runtime.close()
    assert failure_of(fast) is Failure.TIMEOUT
    assert "not sent" in (fast.error or "")
    assert took[0] < 0.5


WHOLE_RUN: list[tuple[str, Behaviour, str]] = [
    ("hang", hang, "HTTP-TIMEOUT"),
    ("reset", reset, "HTTP-RESET"),
    ("50 MB", flood, "HTTP-SIZE"),
    ("one byte every 0.1 s", drip, "HTTP-TIMEOUT"),
    ("a stream without terminator", no_terminator, "HTTP-TIMEOUT"),
    ("not HTTP", garbage, "HTTP-MALFORMED"),
    ("invalid UTF-8", bad_utf8, "HTTP-JSON"),
    ("JSON 10 000 deep", deep_json, "HTTP-JSON"),
]


@pytest.mark.parametrize(("label", "behaviour", "requirement"), WHOLE_RUN, ids=[t[0] for t in WHOLE_RUN])
def test_a_whole_run_yields_must_findings_in_bounded_time(label: str, behaviour: Behaviour, requirement: str) -> None:
    options = {"total_timeout_s": TIMEOUT, "read_timeout_s": TIMEOUT, "max_response_bytes": 1 << 20}
    with HostileServer(behaviour) as server, timed() as took:
        context, close = build_context(server.url, profile=Profile.V7, target_profile=None, options=options)
        try:
            report = run(context, select(load_catalogue()))
        finally:
            close()
    assert took[0] < MAX_TIMEOUTS_IN_A_ROW * TIMEOUT + 5, label
    assert [r.check for r in report.results if r.status is Status.ERROR] == []
    assert report.summary.must_failures > 0
    assert report.exit_code == 1
    found = {rf.finding.requirement for r in report.results for rf in r.findings}
    assert requirement in found, sorted(found)
    recording = next(r for r in report.results if r.check == "live.http.recording")
    assert recording.status is Status.FAILED
    assert all(rf.finding.level is Level.MUST for rf in recording.findings)


def test_nothing_listening_is_unavailable_not_a_finding() -> None:
    with HostileServer(hang) as server:
        url = server.url
    with pytest.raises(TargetUnavailable, match="unreachable"):
        build_context(url, profile=Profile.V7, target_profile=None, options={"total_timeout_s": TIMEOUT})


@pytest.mark.parametrize(
    "url", ["ftp://127.0.0.1/x", "http:///nohost", "http://127.0.0.1:port/api", "http://93.184.216.34/api"]
)
def test_targets_that_are_not_loopback_or_private_http_are_refused(url: str) -> None:
    with pytest.raises(TargetUnavailable):
        build_context(url, profile=Profile.V7, target_profile=None, options={})
