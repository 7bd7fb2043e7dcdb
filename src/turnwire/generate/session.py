"""Generated artifacts of the interrupt / resume contract (schemas, golden/session/).

`schemas()` returns JSON Schemas by path under `schemas/`; `goldens()` returns golden files (bytes) by
path under `golden/`. `turnwire.generate.artifacts` collects them with every other generated file.
"""

from __future__ import annotations

from typing import Any


def schemas() -> dict[str, dict[str, Any]]:
    """JSON Schemas by path relative to `schemas/`."""
    return {}


def goldens() -> dict[str, bytes]:
    """Golden files by path relative to `golden/`."""
    return {}
