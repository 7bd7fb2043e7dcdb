"""Report writers: the terminal summary (rich), the JSON document (the `ConformanceReport` model, with a
generated schema) and JUnit XML (one testcase per check), so a run reads well to a person and to CI.

`render(report, fmt)` returns the document as text; the CLI writes it to stdout or `--output`.
"""

from __future__ import annotations

from typing import Literal

from turnwire.conformance.model import ConformanceReport
from turnwire.conformance.report.json_report import render_json
from turnwire.conformance.report.junit import render_junit
from turnwire.conformance.report.terminal import render_terminal

__all__ = ["FORMATS", "Format", "render", "render_json", "render_junit", "render_terminal"]

Format = Literal["terminal", "json", "junit"]
FORMATS: tuple[Format, ...] = ("terminal", "json", "junit")


def render(report: ConformanceReport, fmt: Format, *, color: bool = False, width: int = 120) -> str:
    """The report in `fmt` as text (`color` and `width` only affect the terminal format)."""
    if fmt == "json":
        return render_json(report)
    if fmt == "junit":
        return render_junit(report)
    return render_terminal(report, color=color, width=width)
