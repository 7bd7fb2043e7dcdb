"""Live targets: the target profile file, the HTTP client's bounds and manners, and `build_context`.

The embedded reference runtime passes every MUST in every profile that has live checks; a target
profile decides what is driven and which checks apply.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from live_fixtures import BreakerServer, Exchange, Rule

from turnwire.conformance.catalogue import load_catalogue, select
from turnwire.conformance.context import LiveTurn
from turnwire.conformance.model import Capability, Status
from turnwire.conformance.runner import run
from turnwire.conformance.targets.embedded import EmbeddedRuntime
from turnwire.conformance.targets.http import HttpRuntime
from turnwire.conformance.targets.live import build_context
from turnwire.conformance.targets.profile import (
    DEFAULT_CAPABILITIES,
    Casing,
    CreateTurnTemplate,
    Limits,
    TargetProfile,
    TargetProfileError,
    load_target_profile,
    render_template,
)
from turnwire.profiles import Profile

EXAMPLE = """
capabilities = ["streaming", "snapshot"]
casing = "snake"
scenarios = ["text", "multi-step"]
headers = { Authorization = "Bearer s3cret-token" }

[routes]
create_turn = "/v1/chats/{chat_id}/turns"
events = "/v1/chats/{chat_id}/turns/{turn_id}/events"
cursor = "after_sequence"

[create_turn]
body = { query = "{query}", scenario = "{scenario}", options = { profile = "{profile}", ttl = "{approval_ttl_s}" } }
turn_id = "turn.turn_id"

[limits]
total_timeout_s = 12.5
max_response_bytes = 1000000
"""


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BreakerServer]:
    with BreakerServer(tmp_path_factory.mktemp("targets")) as server:
        yield server


# ---- the target profile ------------------------------------------------------------------------------------


def test_defaults_describe_the_reference_runtime() -> None:
    target = TargetProfile()
    assert target.capabilities == DEFAULT_CAPABILITIES
    assert Capability.LEGACY_PLANTING not in target.capabilities  # needs `turnwire serve --test-hooks`
    assert set(TargetProfile.embedded().capabilities) == set(Capability)
    assert target.routes.events == "/chats/{chat_id}/turns/{turn_id}/events"
    assert target.create_turn.turn_id_path(target.casing) == ("turn", "turn_id")


def test_a_profile_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "target.toml"
    path.write_text(EXAMPLE, encoding="utf-8")
    target = load_target_profile(path)
    assert target.capabilities == (Capability.STREAMING, Capability.SNAPSHOT)
    assert target.scenarios == ("text", "multi-step")
    assert target.routes.create_turn == "/v1/chats/{chat_id}/turns"
    assert target.routes.snapshot == "/chats/{chat_id}/turns/{turn_id}"  # unset routes keep the default
    assert target.limits.total_timeout_s == 12.5
    assert target.limits.read_timeout_s == 10.0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("capabilities = [", "not valid TOML"),
        ('capabilities = ["teleport"]', "capabilities"),
        ("colour = 1", "colour"),
        ('[routes]\nevents = "no-slash"', "starting with '/'"),
        ('[routes]\nevents = "/x/{run_id}"', "unknown placeholder"),
        ("[limits]\ntotal_timeout_s = 0", "total_timeout_s"),
        ('[create_turn]\nbody = { q = "{qery}" }', "unknown placeholder"),
        ('headers = { "Bad Name" = "x" }', "not an HTTP header name"),
        ('headers = { X-Token = "a\\nb" }', "single line"),
    ],
)
def test_a_bad_profile_file_is_one_clear_error(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "target.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(TargetProfileError, match=message) as caught:
        load_target_profile(path)
    assert "\n" not in str(caught.value)


def test_header_values_take_environment_variables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "target.toml"
    path.write_text('headers = { Authorization = "Bearer ${TW_TEST_TOKEN}" }', encoding="utf-8")
    monkeypatch.setenv("TW_TEST_TOKEN", "t0ken")
    assert load_target_profile(path).headers == {"Authorization": "Bearer t0ken"}
    monkeypatch.delenv("TW_TEST_TOKEN")
    with pytest.raises(TargetProfileError, match="TW_TEST_TOKEN is not set"):
        load_target_profile(path)


def test_a_missing_profile_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(TargetProfileError, match="cannot read"):
        load_target_profile(tmp_path / "nope.toml")


def test_templates_fill_values_and_leave_out_unset_keys() -> None:
    template = CreateTurnTemplate().body_template(Casing.SNAKE)
    body = render_template(template, {"query": "q", "scenario": "text", "profile": "ai-sdk-v7", "approval_ttl_s": 0.5})
    assert body == {"query": "q", "scenario": "text", "profile": "ai-sdk-v7", "approval_ttl_s": 0.5}
    nested = render_template({"a": {"b": "{scenario}"}, "c": "turn {scenario}!", "d": ["{profile}"]}, {"scenario": "s"})
    assert nested == {"a": {"b": "s"}, "c": "turn s!", "d": [None]}


def test_camel_casing_respells_the_keys_turnwire_builds() -> None:
    assert Casing.CAMEL.keys({"interrupt_id": 1, "decision": {"updated_input": "x"}}) == {
        "interruptId": 1,
        "decision": {"updatedInput": "x"},
    }
    assert set(CreateTurnTemplate().body_template(Casing.CAMEL)) >= {"approvalTtlS", "clientIdempotencyKey"}
    assert CreateTurnTemplate().turn_id_path(Casing.CAMEL) == ("turn", "turnId")


def test_options_override_the_limits() -> None:
    limits = Limits().override({"total_timeout_s": 3, "max_response_bytes": None, "unrelated": 1})
    assert limits.total_timeout_s == 3
    assert limits.max_response_bytes == Limits().max_response_bytes
    with pytest.raises(TargetProfileError, match="total_timeout_s"):
        Limits().override({"total_timeout_s": -1})


# ---- the HTTP client -----------------------------------------------------------------------------------------


def test_credentials_never_reach_an_exchange_and_redirects_are_not_followed(broken: BreakerServer) -> None:
    def redirect(ex: Exchange) -> None:
        ex.status, ex.headers, ex.body = 307, [(b"location", b"http://127.0.0.1:9/elsewhere")], b""

    broken.rule = Rule(name="redirect", matches=lambda m, p: p.endswith("/run"), answer=redirect)
    runtime = HttpRuntime(broken.api_url, TargetProfile(headers={"Authorization": "Bearer s3cret-token"}))
    try:
        exchange = runtime.run({"x": 1})
    finally:
        broken.rule = None
        runtime.close()
    assert exchange.status == 307
    assert exchange.error is None
    assert exchange.request_headers["Authorization"] == "**********"
    assert "s3cret" not in repr(exchange)


def test_ids_in_routes_are_quoted(broken: BreakerServer) -> None:
    runtime = HttpRuntime(broken.api_url)
    try:
        assert runtime.url("/chats/{chat_id}", chat_id="a/b c").endswith("/chats/a%2Fb%20c")
    finally:
        runtime.close()


def test_a_profile_route_template_and_cursor_parameter_are_used(broken: BreakerServer) -> None:
    seen: list[str] = []

    def spy(method: str, path: str) -> bool:
        seen.append(f"{method} {path}")
        return False

    broken.rule = Rule(name="spy", matches=spy)
    target = TargetProfile(routes={"cursor": "after_sequence"})  # type: ignore[arg-type]
    runtime = HttpRuntime(broken.api_url, target)
    try:
        turn = runtime.create_turn("text", profile=Profile.V7)
        assert isinstance(turn, LiveTurn)
        reply = runtime.stream(turn, last_event_id="3")
    finally:
        broken.rule = None
        runtime.close()
    assert reply.url.endswith("/events?after_sequence=3")
    assert "last-event-id" not in {k.lower() for k in reply.request_headers}
    assert reply.body.startswith(b"id: 4\n")
    assert any(line.startswith("POST /api/v2/agent/chats/tw-") for line in seen)


# ---- build_context ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("profile", [Profile.V7, Profile.V6])
def test_the_embedded_reference_runtime_passes_every_must(profile: Profile) -> None:
    context, close = build_context(None, profile=profile, target_profile=None, options={})
    try:
        report = run(context, select(load_catalogue()))
    finally:
        close()
    failed = [str(rf.finding) for r in report.results for rf in r.findings]
    assert failed == []
    assert report.exit_code == 0
    live = {r.check: r.status for r in report.results if r.check.startswith("live.")}
    assert set(live.values()) == {Status.PASSED}
    names = {r.name for r in context.recordings}
    assert "tool-approval-request" in names
    if profile is Profile.V6:  # the answer is a continuation: the ask is its own recording
        assert {"tool-approval-approved (ask)", "tool-approval-denied (ask)"} <= names
        assert next(r for r in context.recordings if r.name == "tool-approval-approved").prior is not None
    assert all(r.at_rest is not None and r.at_rest_exchange is not None for r in context.recordings)


def test_a_target_profile_decides_what_is_driven_and_what_applies(tmp_path: Path) -> None:
    path = tmp_path / "target.toml"
    path.write_text('capabilities = ["streaming"]\nscenarios = ["text", "tool-approval-approved"]\n', encoding="utf-8")
    context, close = build_context(None, profile=Profile.V7, target_profile=path, options={"secrets": "k"})
    try:
        report = run(context, select(load_catalogue(), ["live.", "at-rest.snapshot"]))
    finally:
        close()
    assert [r.name for r in context.recordings] == ["text"]  # the approval turn needs resume
    assert context.recordings[0].at_rest is None  # no snapshot claimed
    by_name = {r.check: r for r in report.results}
    assert by_name["live.resume.outcomes"].status is Status.NOT_APPLICABLE
    assert "does not claim resume" in (by_name["live.resume.outcomes"].reason or "")
    assert by_name["live.http.not-found"].status is Status.PASSED
    assert by_name["at-rest.snapshot"].status is Status.NOT_APPLICABLE
    assert "k" in context.options["secrets"]


def test_the_embedded_runtime_leaves_nothing_behind() -> None:
    embedded = EmbeddedRuntime().start()
    folder = embedded._folder
    assert (folder / "reference.db").exists()
    runtime = HttpRuntime(embedded.api_url)
    try:
        answer = runtime.run(json.loads(b"{}"))
    finally:
        runtime.close()
        embedded.stop()
    assert answer.status == 422
    assert not folder.exists()
