"""Generated artifacts of the conformance runner: the schema of `turnwire check --format json`.

`schemas()` returns `ConformanceReport.schema.json` (under `schemas/`), so CI tooling can validate a
report without importing turnwire; `goldens()` is empty (a report holds timings, so it is no golden).
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from turnwire.conformance.model import ConformanceReport
from turnwire.generate.schemas import build_schema, schema_id


def schemas() -> dict[str, dict[str, Any]]:
    """The report schema by its path under `schemas/`."""
    return {
        "ConformanceReport.schema.json": build_schema(
            TypeAdapter(ConformanceReport),
            schema_id_=schema_id(None, "ConformanceReport"),
            title="ConformanceReport",
            description="Everything `turnwire check` found: the target, each check's status and findings, the verdict.",
        )
    }


def goldens() -> dict[str, bytes]:
    """No goldens: a report is not deterministic (it holds timings)."""
    return {}
