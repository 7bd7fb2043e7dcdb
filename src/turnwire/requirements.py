"""The requirement registry: every requirement turnwire checks, as data.

`conformance/requirements.yaml` lists each requirement once (id, level, statement, source). Code
refers to requirements only by id; the level a finding carries always comes from here, so changing a
requirement's level is a one-line data change.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, TypeAdapter

from turnwire.findings import Level
from turnwire.resources import conformance_dir


class Requirement(BaseModel):
    """One requirement of the contract."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    level: Level
    statement: str
    source: str
    check: str | None = None


_REQUIREMENTS = TypeAdapter(list[Requirement])


def registry_path() -> Path:
    """Path of the requirement registry file."""
    return conformance_dir() / "requirements.yaml"


@cache
def registry() -> dict[str, Requirement]:
    """All registered requirements by id (loaded once)."""
    raw = yaml.safe_load(registry_path().read_text(encoding="utf-8"))
    items = _REQUIREMENTS.validate_python(raw["requirements"])
    out: dict[str, Requirement] = {}
    for item in items:
        if item.id in out:
            raise ValueError(f"duplicate requirement id {item.id!r} in {registry_path()}")
        out[item.id] = item
    return out


def requirement(req_id: str) -> Requirement:
    """The requirement with this id; a `KeyError` here is a bug in turnwire, not in a target."""
    try:
        return registry()[req_id]
    except KeyError:
        raise KeyError(f"requirement {req_id!r} is not in {registry_path()}") from None
