"""The generated artifacts as one set: build, write, and check for drift.

`schemas/` and `golden/` are never edited by hand. `write` makes the folders equal to what the models
and scenarios produce (removing stale files); `check` reports every difference with a readable diff,
which is what `turnwire generate --check` and CI run.
"""

from __future__ import annotations

import contextlib
import difflib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from turnwire.canonical import file_bytes
from turnwire.generate import report, session, snapshots, tools
from turnwire.generate.golden import goldens
from turnwire.generate.schemas import protocol_schemas
from turnwire.resources import data_root

MANAGED_DIRS = ("schemas", "golden")
"""Folders whose whole content is generated."""


def build() -> dict[str, bytes]:
    """Every generated file, by path relative to the data root (e.g. `schemas/ai-sdk-v7/...`)."""
    all_schemas: dict[str, dict[str, Any]] = dict(protocol_schemas())
    all_goldens: dict[str, bytes] = dict(goldens())
    for area in (snapshots, tools, session, report):
        for path, schema in area.schemas().items():
            if path in all_schemas:
                raise ValueError(f"two generators write schemas/{path}")
            all_schemas[path] = schema
        for path, data in area.goldens().items():
            if path in all_goldens:
                raise ValueError(f"two generators write golden/{path}")
            all_goldens[path] = data
    out = {f"schemas/{path}": file_bytes(schema) for path, schema in all_schemas.items()}
    out.update({f"golden/{path}": data for path, data in all_goldens.items()})
    return dict(sorted(out.items()))


def _on_disk(root: Path) -> dict[str, bytes]:
    found: dict[str, bytes] = {}
    for top in MANAGED_DIRS:
        base = root / top
        if base.is_dir():
            for path in sorted(base.rglob("*")):
                if path.is_file():
                    found[path.relative_to(root).as_posix()] = path.read_bytes()
    return found


def write(root: Path | None = None) -> list[str]:
    """Write every artifact under `root` and delete stale ones; returns the paths that changed."""
    root = root or data_root()
    wanted = build()
    present = _on_disk(root)
    changed: list[str] = []
    for rel, data in wanted.items():
        if present.get(rel) != data:
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            changed.append(rel)
    for rel in present.keys() - wanted.keys():
        (root / rel).unlink()
        changed.append(rel)
    return sorted(changed)


@dataclass(frozen=True)
class Drift:
    """One generated file that differs from what is checked in."""

    path: str
    kind: str  # "changed" | "missing" | "unexpected"
    diff: str


def _readable(rel: str, data: bytes) -> list[str]:
    """Lines to diff: JSON files pretty-printed (they are stored as one JCS line)."""
    text = data.decode("utf-8", errors="replace")
    if rel.endswith(".json"):
        with contextlib.suppress(ValueError):
            text = json.dumps(json.loads(text), indent=2, ensure_ascii=False, sort_keys=True) + "\n"
    return text.splitlines(keepends=True)


def check(root: Path | None = None) -> list[Drift]:
    """Every difference between the checked-in artifacts under `root` and freshly generated ones."""
    root = root or data_root()
    wanted = build()
    present = _on_disk(root)
    drifts: list[Drift] = []
    for rel in sorted(wanted.keys() | present.keys()):
        new, old = wanted.get(rel), present.get(rel)
        if new == old:
            continue
        if old is None:
            drifts.append(Drift(rel, "missing", f"{rel}: not checked in (run `turnwire generate`)\n"))
        elif new is None:
            drifts.append(Drift(rel, "unexpected", f"{rel}: checked in but no longer generated\n"))
        else:
            diff = "".join(
                difflib.unified_diff(
                    _readable(rel, old),
                    _readable(rel, new),
                    fromfile=f"{rel} (checked in)",
                    tofile=f"{rel} (generated)",
                    n=2,
                )
            )
            if not diff:  # same content, different bytes (formatting, newline)
                diff = f"{rel}: same JSON, different bytes (not canonical JCS + newline)\n"
            drifts.append(Drift(rel, "changed", diff))
    return drifts
