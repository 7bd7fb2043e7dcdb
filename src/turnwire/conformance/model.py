"""What a conformance run produces: capabilities, check results and the report.

The report is a model (not ad-hoc dicts) so that `--format json` has a generated schema
(`schemas/ConformanceReport.schema.json`) that CI tooling can rely on.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from turnwire.findings import Finding, Level


class Capability(StrEnum):
    """What a runtime claims to support; claimed capabilities decide which checks run."""

    STREAMING = "streaming"
    STREAM_RESUMPTION = "stream-resumption"
    SNAPSHOT = "snapshot"
    RESUME = "resume"
    EXPIRY = "expiry"
    TIMELINE = "timeline"
    RUN = "run"
    LEGACY_PLANTING = "legacy-planting"


class Status(StrEnum):
    """The verdict on one check."""

    PASSED = "passed"
    FAILED = "failed"  # at least one finding (its levels decide the exit code)
    NOT_APPLICABLE = "not-applicable"  # the target does not claim what the check needs; reported, not skipped
    ERROR = "error"  # turnwire itself could not run the check (a bug in turnwire, reported, never hidden)


class Reproducer(BaseModel):
    """How to see a finding again: the HTTP exchange or the SSE excerpt (secrets redacted)."""

    model_config = ConfigDict(extra="forbid")

    request: str | None = None
    """e.g. `GET http://127.0.0.1:8000/api/v2/agent/chats/c/turns/t/events` with relevant headers."""
    response: str | None = None
    """Status line, headers and a bounded excerpt of the body."""
    excerpt: str | None = None
    """A bounded excerpt of the recorded bytes around the finding."""


class ReportedFinding(BaseModel):
    """A finding as the report carries it: the finding plus where to reproduce it."""

    model_config = ConfigDict(extra="forbid")

    finding: Finding
    reproducer: Reproducer | None = None
    baselined: bool = False
    """Listed in the baseline file as an expected failure."""


class CheckResult(BaseModel):
    """The outcome of one check against one target."""

    model_config = ConfigDict(extra="forbid")

    check: str
    """Hierarchical check name, e.g. `stream.chunks-valid` or `live.resume.concurrent`."""
    requirements: list[str]
    """Requirement ids this check tests."""
    description: str = ""
    """One line: what the check verifies."""
    status: Status
    findings: list[ReportedFinding] = Field(default_factory=list)
    reason: str | None = None
    """Why it was not applicable, or what went wrong for status error."""
    duration_s: float = 0.0


class Summary(BaseModel):
    """Counts over the run."""

    model_config = ConfigDict(extra="forbid")

    passed: int = 0
    failed: int = 0
    not_applicable: int = 0
    errors: int = 0
    must_failures: int = 0
    """MUST findings not covered by the baseline: the run fails when this is not 0."""
    baselined: int = 0
    """Findings the baseline lists as expected failures (reported, not failing the run)."""
    stale_baseline: list[str] = Field(default_factory=list)
    """Baseline entries whose requirement produced no finding (they fail the run too)."""
    baseline_not_exercised: list[str] = Field(default_factory=list)
    """Baseline entries whose requirement no check that ran tests (not applicable or not selected):
    neither stale nor confirmed, so they are listed instead of failing the run."""


class ConformanceReport(BaseModel):
    """Everything `turnwire check` found."""

    model_config = ConfigDict(extra="forbid")

    turnwire_version: str
    target: str
    """What was checked: a URL, `embedded`, or the recording's file names."""
    profile: str
    capabilities: list[Capability]
    results: list[CheckResult]
    summary: Summary
    duration_s: float = 0.0
    """Wall time of the whole run."""
    exit_code: int = 0
    """0: no MUST failure outside the baseline, no stale baseline entry, no check error; 1 otherwise."""

    def worst_level(self) -> Level | None:
        """The strongest level among non-baselined findings."""
        levels = {rf.finding.level for r in self.results for rf in r.findings if not rf.baselined}
        for level in (Level.MUST, Level.SHOULD, Level.MAY):
            if level in levels:
                return level
        return None
