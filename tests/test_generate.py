"""Generation is deterministic and `turnwire generate --check` catches any drift."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from turnwire.cli import main
from turnwire.generate import artifacts
from turnwire.resources import data_root


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A copy of the checked-in generated folders."""
    for top in artifacts.MANAGED_DIRS:
        shutil.copytree(data_root() / top, tmp_path / top)
    return tmp_path


def test_build_is_deterministic() -> None:
    assert artifacts.build() == artifacts.build()


def test_checked_in_artifacts_are_up_to_date(capsys: pytest.CaptureFixture[str]) -> None:
    assert artifacts.check() == []
    assert main(["generate", "--check"]) == 0
    assert "up to date" in capsys.readouterr().out


def test_every_stored_json_file_is_jcs_plus_newline() -> None:
    from turnwire.canonical import file_bytes, loads

    for rel, data in artifacts.build().items():
        if rel.endswith(".json"):
            assert data == file_bytes(loads(data)), rel


def test_one_changed_byte_in_any_golden_is_drift(checkout: Path, capsys: pytest.CaptureFixture[str]) -> None:
    goldens = sorted(p for p in (checkout / "golden").rglob("*") if p.is_file())
    assert goldens, "no goldens checked in"
    for path in goldens:  # one flipped byte in every golden file, all reported in one check
        flipped = bytearray(path.read_bytes())
        flipped[len(flipped) // 2] ^= 0x01
        path.write_bytes(bytes(flipped))
    drifts = artifacts.check(checkout)
    assert {d.path for d in drifts} == {p.relative_to(checkout).as_posix() for p in goldens}
    assert all(d.kind == "changed" for d in drifts)
    assert main(["generate", "--check", "--root", str(checkout)]) == 1
    out = capsys.readouterr().out
    assert all(p.relative_to(checkout).as_posix() in out for p in goldens)


def test_one_changed_byte_is_drift_and_restoring_it_is_clean(checkout: Path) -> None:
    path = checkout / "golden" / "ai-sdk-v7" / "text" / "stream.sse"
    original = path.read_bytes()
    path.write_bytes(original.replace(b"data: ", b"data:", 1))
    assert [d.path for d in artifacts.check(checkout)] == ["golden/ai-sdk-v7/text/stream.sse"]
    path.write_bytes(original)
    assert artifacts.check(checkout) == []


def test_missing_and_unexpected_files_are_drift(checkout: Path) -> None:
    victim = next((checkout / "schemas").rglob("*.json"))
    victim.unlink()
    (checkout / "golden" / "stray.txt").write_text("x")
    kinds = {(d.path, d.kind) for d in artifacts.check(checkout)}
    assert kinds == {(victim.relative_to(checkout).as_posix(), "missing"), ("golden/stray.txt", "unexpected")}


def test_generate_writes_then_checks_clean(tmp_path: Path) -> None:
    changed = artifacts.write(tmp_path)
    assert changed == sorted(artifacts.build())
    assert artifacts.check(tmp_path) == []
    assert artifacts.write(tmp_path) == []


def test_schema_drift_diff_is_readable(checkout: Path) -> None:
    path = checkout / "schemas" / "ai-sdk-v7" / "UIMessage.schema.json"
    path.write_bytes(path.read_bytes().replace(b'"minItems":1', b'"minItems":2'))
    (drift,) = artifacts.check(checkout)
    assert drift.kind == "changed"
    assert '-        "minItems": 2' in drift.diff
    assert '+        "minItems": 1' in drift.diff
