"""The conformance runner: a catalogue of checks run against a target, reported as findings.

`model` (capabilities, results, the report), `catalogue` (checks register themselves), `context`
(what a check sees: recordings and a live runtime client), `checks/` (one module per family),
`targets/` (recording files, a live URL, the embedded reference runtime), `runner` (applicability,
verdicts, exit code), `baseline` (expected failures), `report/` (terminal, JSON, JUnit).

From Python::

    from turnwire.conformance import RecordingFiles, load_catalogue, recording_context, run
    context = recording_context(RecordingFiles(Path("stream.sse")), profile=Profile.V7)
    report = run(context, load_catalogue().values())
    report.exit_code  # 0 pass, 1 a MUST failure (or a stale baseline entry, or a check error)
"""

from turnwire.conformance.artefacts import AtRestKind, at_rest_kind
from turnwire.conformance.baseline import Baseline, BaselineEntry, BaselineError, load_baseline, parse_baseline
from turnwire.conformance.catalogue import Check, check, load_catalogue, select
from turnwire.conformance.context import CheckContext, HttpExchange, LiveRuntime, LiveTurn, Recording
from turnwire.conformance.model import (
    Capability,
    CheckResult,
    ConformanceReport,
    ReportedFinding,
    Reproducer,
    Status,
    Summary,
)
from turnwire.conformance.report import render
from turnwire.conformance.runner import applicability, exit_code, run, run_check
from turnwire.conformance.targets.recording import RecordingError, RecordingFiles
from turnwire.conformance.targets.recording import build_context as recording_context

__all__ = [
    "AtRestKind",
    "Baseline",
    "BaselineEntry",
    "BaselineError",
    "Capability",
    "Check",
    "CheckContext",
    "CheckResult",
    "ConformanceReport",
    "HttpExchange",
    "LiveRuntime",
    "LiveTurn",
    "Recording",
    "RecordingError",
    "RecordingFiles",
    "ReportedFinding",
    "Reproducer",
    "Status",
    "Summary",
    "applicability",
    "at_rest_kind",
    "check",
    "exit_code",
    "load_baseline",
    "load_catalogue",
    "parse_baseline",
    "recording_context",
    "render",
    "run",
    "run_check",
    "select",
]
