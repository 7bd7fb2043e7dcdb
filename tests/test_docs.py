"""The docs stay true: every test a doc names as pinning a rule exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted((ROOT / "docs").glob("*.md"))
REF = re.compile(r"`(?:tests/)?((?:[\w/]+/)?test_\w+\.py)?::(\w+\*?)(?:::(\w+))?")


def named_tests(doc: Path) -> list[tuple[str, str]]:
    """(`file`, `function`) pairs named in backticks; `::fn` continues the last file on the line.

    A trailing `*` names every test with that prefix (at least one must exist)."""
    out: list[tuple[str, str]] = []
    for line in doc.read_text(encoding="utf-8").splitlines():
        current: str | None = None
        for file, name, method in REF.findall(line):
            current = file or current
            if current is not None:
                out.append((current, method or name))
    return out


def find_test_file(name: str) -> Path | None:
    direct = ROOT / "tests" / name
    if direct.is_file():
        return direct
    matches = [p for p in (ROOT / "tests").rglob(Path(name).name) if "node_modules" not in p.parts]
    return matches[0] if len(matches) == 1 else None


@pytest.mark.parametrize("doc", DOCS, ids=[d.name for d in DOCS])
def test_every_named_test_exists(doc: Path) -> None:
    missing = []
    for file, func in named_tests(doc):
        path = find_test_file(file)
        name = re.escape(func.rstrip("*")) + (r"\w*" if func.endswith("*") else "")
        pattern = rf"^\s*(?:(?:async )?def {name}\(|class {name}\b|{name} = )"
        if path is None or not re.search(pattern, path.read_text(encoding="utf-8"), re.M):
            missing.append(f"{file}::{func}")
    assert missing == []


def test_contracts_doc_names_tests() -> None:
    assert len(named_tests(ROOT / "docs" / "contracts.md")) > 50
