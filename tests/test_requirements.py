"""The requirement registry and the code stay in step, both ways."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from turnwire.findings import Finding, Level
from turnwire.requirements import registry, requirement

SRC = Path(__file__).resolve().parents[1] / "src" / "turnwire"
FAMILIES = sorted({req_id.split("-", 1)[0] for req_id in registry()})
ID = re.compile(r'"((?:' + "|".join(FAMILIES) + r')-[A-Z0-9-]+)"')


def ids_in_source() -> set[str]:
    found: set[str] = set()
    for path in SRC.rglob("*.py"):
        found |= set(ID.findall(path.read_text(encoding="utf-8")))
    # f-string families built in turnwire.protocol.validate: f"{family}-SCHEMA" etc.
    for family in ("CHUNK", "PART"):
        found |= {f"{family}-{what}" for what in ("SCHEMA", "NULL-FIELD", "EXTRA-KEY", "UNKNOWN-TYPE")}
    return found


def test_every_id_used_in_code_is_registered() -> None:
    missing = sorted(i for i in ids_in_source() if i not in registry())
    assert missing == []


def test_every_registered_requirement_is_checked_by_code() -> None:
    unused = sorted(set(registry()) - ids_in_source())
    assert unused == []


def test_entries_are_complete() -> None:
    for req in registry().values():
        assert req.statement.endswith("."), req.id
        assert req.source, req.id
        assert req.check, req.id
        assert ":" in req.check, req.id


def test_finding_level_comes_from_the_registry() -> None:
    f = Finding.of("CHUNK-EXTRA-KEY", "x")
    assert f.level is Level.SHOULD
    assert requirement("SSE-UTF8").level is Level.MUST


def test_unknown_id_is_a_bug_not_a_finding() -> None:
    with pytest.raises(KeyError, match="NOPE"):
        Finding.of("NOPE", "x")
