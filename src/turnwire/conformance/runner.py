"""Run a catalogue of checks against one target and produce the report.

The runner owns the verdict rules, so every front door (the CLI, the pytest plugin, a Python caller)
reports alike:

* **Applicability before running.** A check whose needs the context does not meet (a capability the
  target does not claim, no recorded stream, no at-rest artefact, no live runtime, or its own
  `applies` test) is reported `not-applicable` with the reason; nothing is skipped silently (MCP
  conformance's rule: an untestable check must be visible).
* **Blame stays separate.** Findings are about the target (status `failed`). An exception escaping a
  check is a bug in turnwire (status `error`, with the exception text), never a finding, so a
  turnwire bug cannot masquerade as a target defect, nor silently pass.
* **Exit code.** 0 when no MUST finding outside the baseline, no stale baseline entry and no check
  error; 1 otherwise. An `error` fails the run because an incomplete verdict must not read as a pass
  in CI. Exit 2 ("could not run at all") is the CLI's, before any check runs.

Every finding leaves the runner with a reproducer (when the check or the context can give one) and
with secrets masked (`turnwire.conformance.redact`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence

from turnwire import __version__
from turnwire.conformance.baseline import Baseline, apply_baseline
from turnwire.conformance.catalogue import Check
from turnwire.conformance.context import CheckContext
from turnwire.conformance.model import CheckResult, ConformanceReport, ReportedFinding, Status, Summary
from turnwire.conformance.redact import context_secrets, redact_report
from turnwire.conformance.reproduce import attach
from turnwire.findings import Finding, Level

__all__ = ["EXIT_FAILED", "EXIT_OK", "applicability", "exit_code", "run", "run_check"]

EXIT_OK = 0
EXIT_FAILED = 1

ResultHook = Callable[[Check, CheckResult], None]


def applicability(check: Check, context: CheckContext) -> str | None:
    """Why `check` cannot run against `context` (the not-applicable reason), or None when it can."""
    if check.needs_live and context.live is None:
        return "needs a live runtime; a recording cannot answer requests"
    missing = sorted(c.value for c in check.needs - context.capabilities)
    if missing:
        claimed = ", ".join(sorted(c.value for c in context.capabilities)) or "none"
        return f"the target does not claim {', '.join(missing)} (claimed: {claimed})"
    if check.needs_recording and not any(r.stream is not None for r in context.recordings):
        return "needs a recorded stream; the target provided none"
    if check.needs_at_rest and not any(r.at_rest is not None for r in context.recordings):
        return "needs an at-rest artefact (snapshot or stored message); the target provided none"
    if check.applies is not None:
        return check.applies(context)
    return None


def _default_reproducer(finding: Finding, context: CheckContext) -> ReportedFinding:
    """A plain finding gets the stream excerpt when the context has exactly one recorded stream."""
    streams = [r for r in context.recordings if r.stream is not None]
    if len(streams) == 1 and (finding.byte_offset is not None or finding.chunk_index is not None):
        return attach(finding, streams[0], context.profile, "stream")
    return ReportedFinding(finding=finding)


def run_check(check: Check, context: CheckContext) -> CheckResult:
    """Run one check: not-applicable, passed, failed (findings) or error (an exception from turnwire)."""
    base = {"check": check.name, "requirements": list(check.requirements), "description": check.description}
    reason = applicability(check, context)
    if reason is not None:
        return CheckResult(**base, status=Status.NOT_APPLICABLE, reason=reason)
    started = time.perf_counter()
    try:
        found: list[ReportedFinding] = []
        for item in check.run(context):
            found.append(item if isinstance(item, ReportedFinding) else _default_reproducer(item, context))
    except Exception as exc:  # a bug in turnwire, reported as such, never a finding about the target
        first = (str(exc).splitlines() or [""])[0]
        return CheckResult(
            **base,
            status=Status.ERROR,
            reason=f"turnwire could not run this check ({type(exc).__name__}: {first})",
            duration_s=time.perf_counter() - started,
        )
    return CheckResult(
        **base,
        status=Status.FAILED if found else Status.PASSED,
        findings=found,
        duration_s=time.perf_counter() - started,
    )


def _summary(results: Sequence[CheckResult], stale: list[str], not_exercised: list[str]) -> Summary:
    by = {s: sum(1 for r in results if r.status is s) for s in Status}
    findings = [rf for r in results for rf in r.findings]
    return Summary(
        passed=by[Status.PASSED],
        failed=by[Status.FAILED],
        not_applicable=by[Status.NOT_APPLICABLE],
        errors=by[Status.ERROR],
        must_failures=sum(1 for rf in findings if rf.finding.level is Level.MUST and not rf.baselined),
        baselined=sum(1 for rf in findings if rf.baselined),
        stale_baseline=stale,
        baseline_not_exercised=not_exercised,
    )


def exit_code(report: ConformanceReport) -> int:
    """0 when the run passes; 1 for a MUST finding outside the baseline, a stale baseline entry or a check error."""
    s = report.summary
    return EXIT_FAILED if s.must_failures or s.stale_baseline or s.errors else EXIT_OK


def run(
    context: CheckContext,
    checks: Iterable[Check],
    *,
    target: str = "",
    baseline: Baseline | None = None,
    on_result: ResultHook | None = None,
) -> ConformanceReport:
    """Run `checks` against `context` in order; `on_result` is called after each (progress display)."""
    started = time.perf_counter()
    results: list[CheckResult] = []
    for check in checks:
        result = run_check(check, context)
        results.append(result)
        if on_result is not None:
            on_result(check, result)
    stale, not_exercised = apply_baseline(baseline, results) if baseline is not None else ([], [])
    report = ConformanceReport(
        turnwire_version=__version__,
        target=target,
        profile=context.profile.value,
        capabilities=sorted(context.capabilities),
        results=results,
        summary=_summary(results, stale, not_exercised),
        duration_s=time.perf_counter() - started,
    )
    report = report.model_copy(update={"exit_code": exit_code(report)})
    return redact_report(report, context_secrets(context))
