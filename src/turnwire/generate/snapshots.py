"""Generated artifacts of the at-rest turn snapshot (AgentTurnSnapshot schemas, golden/snapshot/).

`schemas()` returns JSON Schemas by path under `schemas/`; `goldens()` returns golden files (bytes) by
path under `golden/`. `turnwire.generate.artifacts` collects them with every other generated file.

Schemas: `<profile>/AgentTurnSnapshot.schema.json` per profile (the parts are that profile's), and
`AgentTurnSnapshot.schema.json` for the default profile. Goldens: per case of
`turnwire.snapshot.cases`, `snapshot/<slug>/sources.json` (the rows) and `snapshot/<slug>/snapshot.json`
(their assembly). A golden is only written when the snapshot keeps the contract in every profile and
carries no retired key; otherwise generation stops with `SnapshotGoldenError`.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from pydantic import TypeAdapter

from turnwire.canonical import file_bytes
from turnwire.generate.schemas import build_schema, schema_id
from turnwire.profiles import ALL_PROFILES, DEFAULT_PROFILE, Profile
from turnwire.snapshot.cases import CASES, SnapshotCase
from turnwire.snapshot.check import check_snapshot
from turnwire.snapshot.envelope import snapshot_model
from turnwire.snapshot.projection import assemble_snapshot

NAME = "AgentTurnSnapshot"


class SnapshotGoldenError(ValueError):
    """A snapshot case does not produce a clean golden (the case or a rule is wrong)."""


@cache
def _schema(profile: Profile, *, default: bool) -> dict[str, Any]:
    scope = "the default profile, " if default else ""
    return build_schema(
        TypeAdapter(snapshot_model(profile)),
        schema_id_=schema_id(None if default else profile, NAME),
        title=NAME if default else f"{NAME} ({profile.value})",
        description=(
            f"One agent turn at rest as the snapshot endpoint serves it: a snake_case envelope (null for an "
            f"absent value) holding the UIMessage parts of {scope}{profile.value}."
        ),
    )


def schemas() -> dict[str, dict[str, Any]]:
    """JSON Schemas by path relative to `schemas/` (built once per process; callers get their own copies)."""
    out = {f"{p.value}/{NAME}.schema.json": _schema(p, default=False) for p in ALL_PROFILES}
    out[f"{NAME}.schema.json"] = _schema(DEFAULT_PROFILE, default=True)
    return copy.deepcopy(out)


def case_golden(case: SnapshotCase) -> dict[str, bytes]:
    """The golden files of one case, by path relative to `golden/`."""
    snapshot = assemble_snapshot(case.sources)
    problems = [str(f) for p in ALL_PROFILES for f in check_snapshot(snapshot, p, payloads=True)]
    if problems:
        listed = "\n  ".join(problems)
        raise SnapshotGoldenError(f"snapshot case {case.slug} breaks the contract:\n  {listed}")
    where = f"snapshot/{case.slug}"
    return {
        f"{where}/sources.json": file_bytes(case.sources.model_dump(mode="json")),
        f"{where}/snapshot.json": file_bytes(snapshot),
    }


def goldens() -> dict[str, bytes]:
    """Golden files by path relative to `golden/`."""
    out: dict[str, bytes] = {}
    for case in CASES:
        out.update(case_golden(case))
    return out
