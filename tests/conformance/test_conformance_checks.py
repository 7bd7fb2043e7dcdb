"""Every recording check can fail: a broken recording per check, each proven to fail with its requirement id;
and the goldens (every profile and scenario, with their message and prior) pass every recording check."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from turnwire.conformance import (
    CheckContext,
    Recording,
    RecordingFiles,
    Status,
    load_catalogue,
    recording_context,
    run,
    run_check,
)
from turnwire.findings import Level
from turnwire.profiles import ALL_PROFILES, Profile
from turnwire.resources import golden_dir

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CATALOGUE = load_catalogue()
RECORDING_CHECKS = sorted(n for n, c in CATALOGUE.items() if not c.needs_live)


def context(
    stream: str,
    *,
    at_rest: str | None = None,
    prior: str | None = None,
    headers: str | None = None,
    scenario: str | None = None,
    profile: Profile = Profile.V7,
    payloads: bool = False,
) -> CheckContext:
    def path(name: str | None) -> Path | None:
        return None if name is None else FIXTURES / name

    files = RecordingFiles(FIXTURES / stream, path(at_rest), path(prior), path(headers), scenario)
    return recording_context(files, profile=profile, options={"payloads": payloads})


# (check, requirement it must report, the recording) — at least one per recording check
NEGATIVE = [
    ("sse.framing", "SSE-UNTERMINATED-EVENT", {"stream": "framing-unterminated.sse"}),
    ("sse.framing", "SSE-DATA-JSON", {"stream": "framing-bad-json.sse"}),
    ("sse.headers", "SSE-HEADER-CONTENT-TYPE", {"stream": "ok.sse", "headers": "headers-plain-text.json"}),
    ("stream.chunks-valid", "CHUNK-UNKNOWN-TYPE", {"stream": "chunk-unknown-type.sse"}),
    ("stream.lifecycle", "FOLD-DELTA-WITHOUT-START", {"stream": "lifecycle-delta-without-start.sse"}),
    ("stream.prior", "PART-NULL-FIELD", {"stream": "ok.sse", "prior": "prior-invalid.json"}),
    ("stream.chunk-boundaries", "STREAM-SPLIT-INVARIANT", {"stream": "split-crlf-multiline.sse"}),
    ("at-rest.wire-equal", "ATREST-PARTS-EQUAL", {"stream": "ok.sse", "at_rest": "atrest-parts-differ.json"}),
    ("at-rest.wire-equal", "ATREST-PARTS-EQUAL", {"stream": "ok.sse", "at_rest": "atrest-missing-part.json"}),
    ("at-rest.wire-equal", "ATREST-MESSAGE-EQUAL", {"stream": "ok.sse", "at_rest": "atrest-metadata-differs.json"}),
    ("at-rest.shape", "ATREST-SHAPE", {"stream": "ok.sse", "at_rest": "atrest-unknown-shape.json"}),
    ("at-rest.message", "PART-NULL-FIELD", {"stream": "ok.sse", "at_rest": "atrest-message-invalid.json"}),
    ("at-rest.snapshot", "SNAPSHOT-STATUS", {"stream": "ok.sse", "at_rest": "atrest-snapshot-bad-status.json"}),
    ("at-rest.snapshot", "SNAPSHOT-SCHEMA", {"stream": "ok.sse", "at_rest": "atrest-legacy-envelope.json"}),
    (
        "at-rest.data-payloads",
        "SNAPSHOT-DATA-PAYLOAD",
        {"stream": "ok.sse", "at_rest": "atrest-snapshot-bad-payload.json", "payloads": True},
    ),
    ("golden.equal", "GOLDEN-EQUAL", {"stream": "golden-text-changed.sse", "scenario": "text"}),
    ("legacy.deny-scan", "LEGACY-KEY-EMITTED", {"stream": "ok.sse", "at_rest": "atrest-legacy-envelope.json"}),
    ("legacy.deny-scan", "LEGACY-KEY-EMITTED", {"stream": "legacy-snake-key.sse"}),
]


@pytest.mark.parametrize(("name", "requirement", "files"), NEGATIVE, ids=[f"{n}-{r}" for n, r, _ in NEGATIVE])
def test_broken_recording_fails_its_check(name: str, requirement: str, files: dict[str, object]) -> None:
    result = run_check(CATALOGUE[name], context(**files))  # type: ignore[arg-type]
    assert result.status is Status.FAILED, result.reason
    ids = {rf.finding.requirement for rf in result.findings}
    assert requirement in ids
    assert ids <= set(CATALOGUE[name].requirements)  # a check reports only what it lists
    for rf in result.findings:
        assert rf.reproducer is not None
        assert rf.reproducer.excerpt or rf.reproducer.response


def test_every_recording_check_has_a_negative_fixture() -> None:
    assert {n for n, _, _ in NEGATIVE} == set(RECORDING_CHECKS)


def test_clean_recording_passes_every_recording_check() -> None:
    ctx = context("ok.sse", at_rest="ok-message.json", headers="ok-headers.json")
    report = run(ctx, [CATALOGUE[n] for n in RECORDING_CHECKS])
    assert [r.check for r in report.results if r.status is Status.FAILED] == []
    assert report.exit_code == 0


def test_clean_snapshot_passes_and_equals_the_wire() -> None:
    ctx = context("ok.sse", at_rest="atrest-snapshot.json")
    for name in ("at-rest.snapshot", "at-rest.wire-equal", "legacy.deny-scan", "at-rest.shape"):
        assert run_check(CATALOGUE[name], ctx).status is Status.PASSED, name


def test_legacy_envelope_is_a_deny_scan_finding_per_retired_key() -> None:
    result = run_check(CATALOGUE["legacy.deny-scan"], context("ok.sse", at_rest="atrest-legacy-envelope.json"))
    paths = sorted(rf.finding.json_path or "" for rf in result.findings)
    assert paths == ["$.artifacts", "$.timeline", "$.turn"]
    assert all(rf.finding.level is Level.MUST for rf in result.findings)


def test_wire_equal_names_the_differing_part_and_both_sides() -> None:
    result = run_check(CATALOGUE["at-rest.wire-equal"], context("ok.sse", at_rest="atrest-parts-differ.json"))
    [rf] = result.findings
    assert rf.finding.json_path == "$.parts[1]"
    assert '"Hello world"' in (rf.finding.expected or "")
    assert '"Hello world!"' in (rf.finding.received or "")


def test_wire_equal_continues_the_prior_message() -> None:
    # a continuation golden: the stream alone does not fold into the stored message, the prior plus the stream does
    base = golden_dir() / "ai-sdk-v6" / "tool-approval-approved"
    rec = Recording(
        name="cont",
        stream=(base / "stream.sse").read_bytes(),
        at_rest=json.loads((base / "message.json").read_text()),
        prior=json.loads((base / "prior.json").read_text()),
    )
    ctx = CheckContext(profile=Profile.V6, capabilities=frozenset(), recordings=[rec])
    assert run_check(CATALOGUE["at-rest.wire-equal"], ctx).status is Status.PASSED
    rec_without = Recording(name="cont", stream=rec.stream, at_rest=rec.at_rest)
    ctx = CheckContext(profile=Profile.V6, capabilities=frozenset(), recordings=[rec_without])
    assert run_check(CATALOGUE["at-rest.wire-equal"], ctx).status is Status.FAILED


def test_chunk_boundaries_pass_for_crlf_with_one_data_line_per_event() -> None:
    data = (FIXTURES / "split-crlf-single-line.sse").read_bytes()
    assert b"\r\n" in data  # the fixture must keep its CRLF bytes
    result = run_check(CATALOGUE["stream.chunk-boundaries"], context("split-crlf-single-line.sse"))
    assert result.status is Status.PASSED


def test_chunk_boundary_finding_points_at_the_cr() -> None:
    data = (FIXTURES / "split-crlf-multiline.sse").read_bytes()
    result = run_check(CATALOGUE["stream.chunk-boundaries"], context("split-crlf-multiline.sse"))
    [rf] = result.findings
    offset = rf.finding.byte_offset
    assert offset is not None
    assert data[offset : offset + 2] == b"\r\n"
    assert data[offset - len(b'"text-delta",') : offset] == b'"text-delta",'
    assert rf.finding.chunk_index == 4
    assert rf.finding.level is Level.SHOULD


def test_golden_equality_fails_for_a_stream_that_is_not_the_scenario() -> None:
    result = run_check(CATALOGUE["golden.equal"], context("ok.sse", scenario="text", profile=Profile.V5))
    assert result.status is Status.FAILED
    assert {rf.finding.requirement for rf in result.findings} == {"GOLDEN-EQUAL"}


def test_golden_equality_ignores_generated_ids_and_timestamps() -> None:
    golden = (golden_dir() / "ai-sdk-v7" / "text" / "stream.sse").read_bytes()
    live = golden.replace(b"msg-1", b"msg_01HZX").replace(b"text-1", b"aitxt-9f2")
    rec = Recording(name="live", stream=live, scenario="text")
    ctx = CheckContext(profile=Profile.V7, capabilities=frozenset(), recordings=[rec])
    assert run_check(CATALOGUE["golden.equal"], ctx).status is Status.PASSED


def _goldens() -> list[tuple[Profile, Path]]:
    return [(p, d) for p in ALL_PROFILES for d in sorted((golden_dir() / p.value).iterdir()) if d.is_dir()]


@pytest.mark.parametrize(("profile", "folder"), _goldens(), ids=[f"{p.value}/{d.name}" for p, d in _goldens()])
def test_goldens_pass_every_recording_check(profile: Profile, folder: Path) -> None:
    prior = folder / "prior.json"
    files = RecordingFiles(
        folder / "stream.sse", folder / "message.json", prior if prior.exists() else None, None, folder.name
    )
    ctx = recording_context(files, profile=profile)
    report = run(ctx, [CATALOGUE[n] for n in RECORDING_CHECKS])
    must = [str(rf.finding) for r in report.results for rf in r.findings if rf.finding.level is Level.MUST]
    assert must == []
    assert report.summary.errors == 0
    ran = {r.check for r in report.results if r.status is not Status.NOT_APPLICABLE}
    assert {"at-rest.wire-equal", "golden.equal", "stream.chunk-boundaries", "sse.framing"} <= ran


def test_a_split_dependent_decoder_is_a_turnwire_error_not_a_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    import turnwire.conformance.splits as splits

    real = splits.decode

    def flaky(data: bytes, *, chunk_sizes: object = None) -> object:
        decoded = real(data)
        return dataclasses.replace(decoded, events=decoded.events[:-1]) if chunk_sizes else decoded

    monkeypatch.setattr(splits, "decode", flaky)
    result = run_check(CATALOGUE["stream.chunk-boundaries"], context("ok.sse"))
    assert result.status is Status.ERROR
    assert "SplitInvarianceBug" in (result.reason or "")
    assert result.findings == []
