"""Report formats: the JSON validates against its generated schema, JUnit parses, the terminal summary reads,
and every finding carries id, level, expected, received, location and a reproducer in every format."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from turnwire.conformance import (
    ConformanceReport,
    RecordingFiles,
    load_catalogue,
    parse_baseline,
    recording_context,
    render,
    run,
)
from turnwire.profiles import Profile
from turnwire.resources import schemas_dir

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _report(
    stream: str = "chunk-unknown-type.sse", at_rest: str | None = "atrest-parts-differ.json"
) -> ConformanceReport:
    files = RecordingFiles(FIXTURES / stream, FIXTURES / at_rest if at_rest else None, None, None, None)
    return run(recording_context(files, profile=Profile.V7), load_catalogue().values(), target="fixture")


@pytest.fixture(scope="module")
def report() -> ConformanceReport:
    return _report()


def test_json_report_validates_against_the_generated_schema(report: ConformanceReport) -> None:
    schema = json.loads((schemas_dir() / "ConformanceReport.schema.json").read_text(encoding="utf-8"))
    document = json.loads(render(report, "json"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(document, schema, cls=jsonschema.Draft202012Validator)
    assert ConformanceReport.model_validate(document).summary == report.summary


def test_every_finding_carries_what_a_reader_needs(report: ConformanceReport) -> None:
    document = json.loads(render(report, "json"))
    findings = [rf for r in document["results"] for rf in r["findings"]]
    assert {rf["finding"]["requirement"] for rf in findings} >= {"CHUNK-UNKNOWN-TYPE", "ATREST-PARTS-EQUAL"}
    for rf in findings:
        f = rf["finding"]
        assert f["level"] in ("MUST", "SHOULD", "MAY")
        assert "expected" in f
        assert "received" in f
        assert any(k in f for k in ("byte_offset", "chunk_index", "json_path"))
        assert rf["reproducer"].get("excerpt") or rf["reproducer"].get("response")


def test_junit_parses_with_one_testcase_per_check(report: ConformanceReport) -> None:
    root = ET.fromstring(render(report, "junit"))
    cases = root.findall("./testsuite/testcase")
    assert sorted(c.get("name") or "" for c in cases) == sorted(r.check for r in report.results)
    assert int(root.get("tests", "0")) == len(cases)
    failed = {c.get("name") for c in cases if c.find("failure") is not None}
    assert {"stream.chunks-valid", "at-rest.wire-equal"} <= failed
    text = "".join(c.findtext("failure") or "" for c in cases)
    assert "CHUNK-UNKNOWN-TYPE" in text
    assert "expected:" in text
    skipped = [c for c in cases if c.find("skipped") is not None]
    assert skipped
    assert all((c.find("skipped").get("message") or "").startswith("not applicable") for c in skipped)  # type: ignore[union-attr]
    assert all((c.get("classname") or "").startswith("turnwire.ai-sdk-v7.") for c in cases)


def test_junit_baselined_and_should_findings_do_not_fail_a_testcase() -> None:
    files = RecordingFiles(FIXTURES / "chunk-unknown-type.sse", None, None, None, None)
    baseline = parse_baseline([{"requirement": "CHUNK-UNKNOWN-TYPE", "reason": "planted"}])
    report = run(recording_context(files, profile=Profile.V7), load_catalogue().values(), baseline=baseline)
    assert report.exit_code == 0
    root = ET.fromstring(render(report, "junit"))
    assert root.get("failures") == "0"
    case = root.find(".//testcase[@name='stream.chunks-valid']")
    assert case is not None
    assert "[baselined]" in (case.findtext("system-out") or "")


def test_junit_stale_baseline_is_a_failing_testcase() -> None:
    files = RecordingFiles(FIXTURES / "ok.sse", None, None, None, None)
    baseline = parse_baseline([{"requirement": "CHUNK-UNKNOWN-TYPE", "reason": "was broken"}])
    report = run(recording_context(files, profile=Profile.V7), load_catalogue().values(), baseline=baseline)
    root = ET.fromstring(render(report, "junit"))
    stale = root.find(".//testcase[@name='baseline.stale']")
    assert stale is not None
    assert "CHUNK-UNKNOWN-TYPE" in (stale.find("failure").get("message") or "")  # type: ignore[union-attr]


def test_junit_survives_control_characters_from_the_target(tmp_path: Path) -> None:
    stream = tmp_path / "ctl.sse"
    stream.write_bytes(b'data: {"type":"text-delta","delta":"\x1b\x00\x07"}\n\ndata: [DONE]\n\n')
    report = run(recording_context(RecordingFiles(stream), profile=Profile.V7), load_catalogue().values())
    assert any("\x1b" in (rf.finding.received or "") for r in report.results for rf in r.findings)
    root = ET.fromstring(render(report, "junit"))
    assert root.find(".//testcase[@name='sse.framing']/failure") is not None


def test_terminal_summary(report: ConformanceReport) -> None:
    text = render(report, "terminal")
    assert "stream.chunks-valid" in text
    assert "MUST CHUNK-UNKNOWN-TYPE at chunk 2" in text
    assert "not-applicable" in text
    assert "FAIL (exit 1)" in text
    assert "\x1b[" not in text  # no colour unless asked


def test_terminal_does_not_interpret_markup_from_the_target(tmp_path: Path) -> None:
    stream = tmp_path / "s.sse"
    stream.write_text('data: {"type":"[bold]x[/bold]"}\n\ndata: [DONE]\n\n', encoding="utf-8")
    report = run(recording_context(RecordingFiles(stream), profile=Profile.V7), load_catalogue().values())
    assert "[bold]x[/bold]" in render(report, "terminal")
