"""`turnwire check` from the command line: exit codes 0/1/2, one-line errors, formats, --output, --select,
and the main job: `turnwire check` with no target checks the embedded reference runtime end to end."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from turnwire.cli import main
from turnwire.resources import golden_dir

FIXTURES = Path(__file__).resolve().parent / "fixtures"
OK = str(FIXTURES / "ok.sse")


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["check", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_clean_recording_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "--stream", OK, "--at-rest", str(FIXTURES / "ok-message.json"))
    assert code == 0
    assert "PASS (exit 0)" in out


def test_must_failure_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "--stream", str(FIXTURES / "chunk-unknown-type.sse"))
    assert code == 1
    assert "CHUNK-UNKNOWN-TYPE" in out


def test_should_only_failure_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "--stream", OK, "--headers", str(FIXTURES / "headers-plain-text.json"))
    assert code == 0
    assert "SSE-HEADER-CONTENT-TYPE" in out


def _one_line_error(code: int, out: str, err: str, words: str) -> None:
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("turnwire: error: ")
    assert words in lines[0]
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--stream", "/nonexistent/x.sse"], "no such file"),
        (["--stream", str(FIXTURES)], "directory"),
        (["--stream", OK, "--at-rest", str(FIXTURES / "ok.sse")], "is not JSON"),
        (["--stream", OK, "--prior", str(FIXTURES / "ok-message.json"), "--headers", OK], "is not JSON"),
        (["--stream", OK, "--headers", str(FIXTURES / "ok-message.json")], "header name to string"),
        (["--stream", OK, "--prior", str(FIXTURES / "missing.json")], "no such file"),
        (["--stream", OK, "--scenario", "no-such-scenario"], "not a scenario"),
        (["--stream", OK, "--scenario", "steering-message", "--profile", "ai-sdk-v5"], "does not play"),
        (["--at-rest", str(FIXTURES / "ok-message.json")], "need --stream"),
        (["http://127.0.0.1:9", "--stream", OK], "not both"),
        (["--stream", OK, "--select", "nothing."], "matches no check"),
        (["--stream", OK, "--baseline", "/nonexistent/b.yaml"], "cannot read baseline"),
        (["--stream", OK, "--output", "/nonexistent/dir/r.json"], "does not exist"),
        (["--stream", OK, "--timeout", "0"], "--timeout"),
        (["--stream", OK, "--max-bytes", "10"], "over --max-bytes"),
        (["--stream", OK, "--profile", "ai-sdk-v4"], "invalid choice"),
        (["--stream", OK, "--bogus"], "unrecognized arguments"),
        (["--stream", OK, "--target-profile", "t.toml"], "--target-profile"),
    ],
)
def test_could_not_run_is_exit_2_with_one_line(capsys: pytest.CaptureFixture[str], args: list[str], words: str) -> None:
    try:
        code = main(["check", *args])
    except SystemExit as exc:  # argparse's own exits
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    _one_line_error(code, out, err, words)


def test_baseline_missing_reason_is_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    baseline = tmp_path / "b.yaml"
    baseline.write_text("- requirement: CHUNK-UNKNOWN-TYPE\n", encoding="utf-8")
    code, out, err = cli(capsys, "--stream", OK, "--baseline", str(baseline))
    _one_line_error(code, out, err, "missing reason")


def test_baseline_turns_a_failure_into_a_pass_and_a_stale_entry_into_a_failure(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    baseline = tmp_path / "b.yaml"
    baseline.write_text("- requirement: CHUNK-UNKNOWN-TYPE\n  reason: planted in a fixture\n", encoding="utf-8")
    code, out, _ = cli(capsys, "--stream", str(FIXTURES / "chunk-unknown-type.sse"), "--baseline", str(baseline))
    assert code == 0
    assert "baselined" in out
    code, out, _ = cli(capsys, "--stream", OK, "--baseline", str(baseline))
    assert code == 1
    assert "stale baseline entries" in out


def test_json_to_stdout_and_junit_to_output(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = cli(capsys, "--stream", str(FIXTURES / "chunk-unknown-type.sse"), "--format", "json")
    assert code == 1
    document = json.loads(out)
    assert document["exit_code"] == 1
    assert document["summary"]["must_failures"] >= 1
    target = tmp_path / "report.xml"
    code, out, _ = cli(capsys, "--stream", OK, "--format", "junit", "--output", str(target))
    assert code == 0
    assert ET.parse(target).getroot().tag == "testsuites"
    assert f"junit report written to {target}" in out
    assert "PASS (exit 0)" in out  # the summary still goes to stdout


def test_select_runs_only_matching_checks(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "--stream", OK, "--select", "sse.", "--select", "stream.lifecycle", "--format", "json")
    assert code == 0
    assert sorted(r["check"] for r in json.loads(out)["results"]) == [
        "sse.framing",
        "sse.headers",
        "stream.lifecycle",
    ]


def test_a_golden_checks_clean_with_its_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    folder = golden_dir() / "ai-sdk-v6" / "tool-approval-approved"
    code, out, _ = cli(
        capsys,
        "--stream",
        str(folder / "stream.sse"),
        "--at-rest",
        str(folder / "message.json"),
        "--prior",
        str(folder / "prior.json"),
        "--scenario",
        "tool-approval-approved",
        "--profile",
        "ai-sdk-v6",
        "--format",
        "json",
    )
    assert code == 0
    statuses = {r["check"]: r["status"] for r in json.loads(out)["results"]}
    assert statuses["golden.equal"] == statuses["at-rest.wire-equal"] == statuses["stream.prior"] == "passed"


def test_no_target_checks_the_embedded_reference_runtime(tmp_path: Path) -> None:
    """The README's main job, as a user runs it: a subprocess, no arguments but the report file."""
    target = tmp_path / "report.json"
    proc = subprocess.run(
        [sys.executable, "-m", "turnwire.cli", "check", "--format", "json", "--output", str(target)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(target.read_text(encoding="utf-8"))
    assert report["target"] == "embedded reference runtime"
    statuses = {r["check"]: r["status"] for r in report["results"]}
    for name in ("sse.framing", "stream.lifecycle", "at-rest.wire-equal", "golden.equal", "stream.chunk-boundaries"):
        assert statuses[name] == "passed", name
    assert report["summary"]["must_failures"] == 0
    assert report["summary"]["errors"] == 0


def test_unreachable_url_is_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "http://127.0.0.1:9/api/v2/agent", "--timeout", "2")
    _one_line_error(code, out, err, "127.0.0.1:9")
