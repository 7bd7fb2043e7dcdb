"""`--format json`: the `ConformanceReport` model as JSON; its schema is `schemas/ConformanceReport.schema.json`."""

from __future__ import annotations

from turnwire.conformance.model import ConformanceReport

__all__ = ["render_json"]


def render_json(report: ConformanceReport) -> str:
    """The report as indented JSON text (one trailing newline), valid against the generated schema."""
    return report.model_dump_json(indent=2, exclude_none=True) + "\n"
