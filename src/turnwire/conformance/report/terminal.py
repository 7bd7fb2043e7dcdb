"""The terminal summary: a table of checks, then every finding with its evidence, then the verdict.

Rendered with `rich` to a string, so the same text goes to a terminal (with colour), a pipe or
`--output` (without). Nothing a target sent is interpreted as rich markup.
"""

from __future__ import annotations

import io

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from turnwire.conformance.model import CheckResult, ConformanceReport, ReportedFinding, Status
from turnwire.findings import Level

__all__ = ["STATUS_STYLE", "render_terminal", "status_label"]

STATUS_STYLE: dict[Status, str] = {
    Status.PASSED: "green",
    Status.FAILED: "red",
    Status.NOT_APPLICABLE: "dim",
    Status.ERROR: "bold magenta",
}
_EXCERPT_LINES = 12


def status_label(result: CheckResult) -> str:
    """The status as shown: a failure with only baselined or non-MUST findings says so."""
    if result.status is not Status.FAILED:
        return result.status.value
    live = [rf for rf in result.findings if not rf.baselined]
    if not live:
        return "failed (baselined)"
    if not any(rf.finding.level is Level.MUST for rf in live):
        return "failed (no MUST)"
    return "failed"


def _note(result: CheckResult) -> str:
    if result.status in (Status.NOT_APPLICABLE, Status.ERROR):
        return result.reason or ""
    if result.findings:
        levels = [rf.finding.level.value for rf in result.findings]
        return ", ".join(f"{levels.count(lv)} {lv}" for lv in ("MUST", "SHOULD", "MAY") if lv in levels)
    return ""


def _finding(console: Console, rf: ReportedFinding) -> None:
    f = rf.finding
    style = "red" if f.level is Level.MUST and not rf.baselined else "yellow"
    head = Text("  ")
    head.append(f"{f.level} {f.requirement}", style=style + " bold")
    if rf.baselined:
        head.append(" (baselined)", style="dim")
    head.append(f" at {f.where()}: {f.message}")
    console.print(head)
    for label, value in (("expected", f.expected), ("received", f.received)):
        if value is not None:
            console.print(Text(f"      {label}: {value}"))
    rep = rf.reproducer
    if rep is None:
        return
    for label, value in (("request", rep.request), ("response", rep.response), ("excerpt", rep.excerpt)):
        if not value:
            continue
        lines = value.splitlines()
        shown = lines[:_EXCERPT_LINES]
        console.print(Text(f"      {label}:", style="dim"))
        for line in shown:
            console.print(Text("        " + line, style="dim"))
        if len(lines) > len(shown):
            console.print(Text(f"        … {len(lines) - len(shown)} more lines (see --format json)", style="dim"))


def render_terminal(report: ConformanceReport, *, color: bool = False, width: int = 120) -> str:
    """The report as terminal text."""
    buf = io.StringIO()
    console = Console(
        file=buf, width=width, force_terminal=color, color_system="standard" if color else None, highlight=False
    )
    caps = ", ".join(c.value for c in report.capabilities) or "none"
    console.print(Text(f"turnwire {report.turnwire_version} check · {report.target} · {report.profile}", style="bold"))
    console.print(Text(f"capabilities: {caps}", style="dim"))
    table = Table(box=box.SIMPLE, show_edge=False, pad_edge=False)
    table.add_column("check", no_wrap=True)
    table.add_column("status", no_wrap=True)
    table.add_column("notes", overflow="fold")
    for r in report.results:
        table.add_row(Text(r.check), Text(status_label(r), style=STATUS_STYLE[r.status]), Text(_note(r)))
    console.print(table)
    failing = [r for r in report.results if r.findings]
    if failing:
        console.print(Text("findings", style="bold"))
        for r in failing:
            console.print(Text(f"{r.check}", style="bold"))
            for rf in r.findings:
                _finding(console, rf)
    s = report.summary
    line = Text()
    line.append(f"{s.passed} passed", style="green")
    line.append(f", {s.failed} failed", style="red" if s.failed else "")
    line.append(f", {s.not_applicable} not applicable, {s.errors} errors")
    line.append(f"; {s.must_failures} MUST finding(s) outside the baseline")
    if s.baselined:
        line.append(f", {s.baselined} baselined")
    console.print(line)
    if s.stale_baseline:
        console.print(
            Text(
                f"stale baseline entries (no finding any more, remove them): {', '.join(s.stale_baseline)}", style="red"
            )
        )
    if s.baseline_not_exercised:
        console.print(Text(f"baseline entries not exercised by this run: {', '.join(s.baseline_not_exercised)}"))
    verdict = "PASS" if report.exit_code == 0 else "FAIL"
    console.print(Text(f"{verdict} (exit {report.exit_code}) in {report.duration_s:.2f} s", style="bold"))
    return buf.getvalue()
