"""Recordings written by the real AI SDK's own server helpers pass `turnwire check --stream`; planted defects
in copies of them are reported with their requirement ids.

`record.mjs` makes each pinned major (5, 6, 7) write a few streams with `createUIMessageStream` +
`createUIMessageStreamResponse`, with the response headers and the message the SDK's own
`readUIMessageStream` folds the body into (the at-rest side, so wire ≡ at-rest is judged against the SDK).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from sdk import ORACLE_DIR, Judge

from turnwire.cli import main

Recording = tuple[str, str]  # (profile, name)


@pytest.fixture(scope="module")
def recordings(sdk_judge: Judge, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Recording]]:
    """Run record.mjs once (after the `sdk_judge` fixture installed the pinned SDKs)."""
    out = tmp_path_factory.mktemp("sdk-recordings")
    proc = subprocess.run(
        [shutil.which("node") or "node", str(ORACLE_DIR / "record.mjs"), str(out)],
        cwd=ORACLE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    written = [(r["profile"], r["name"]) for r in json.loads(proc.stdout)]
    assert {p for p, _ in written} == {"ai-sdk-v5", "ai-sdk-v6", "ai-sdk-v7"}
    return out, written


def check(folder: Path, profile: str, name: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, object]]:
    base = folder / f"{profile}.{name}"
    code = main(
        [
            "check",
            "--profile",
            profile,
            "--stream",
            f"{base}.sse",
            "--headers",
            f"{base}.headers.json",
            "--at-rest",
            f"{base}.message.json",
            "--format",
            "json",
        ]
    )
    out, err = capsys.readouterr()
    assert err == "" or "error" not in err, err
    return code, json.loads(out)


def requirements(report: dict[str, object]) -> set[str]:
    results = report["results"]
    assert isinstance(results, list)
    return {f["finding"]["requirement"] for r in results for f in r["findings"]}


@pytest.mark.oracle
def test_sdk_recordings_pass(recordings: tuple[Path, list[Recording]], capsys: pytest.CaptureFixture[str]) -> None:
    folder, written = recordings
    for profile, name in written:
        code, report = check(folder, profile, name, capsys)
        assert code == 0, (profile, name, requirements(report))
        assert requirements(report) == set(), (profile, name)
        statuses = {r["check"]: r["status"] for r in report["results"]}  # type: ignore[attr-defined]
        for ran in ("sse.framing", "sse.headers", "stream.lifecycle", "at-rest.wire-equal", "stream.chunk-boundaries"):
            assert statuses[ran] == "passed", (profile, name, ran)


def _edit(path: Path, change: Callable[[str], str]) -> None:
    text = path.read_text(encoding="utf-8")
    changed = change(text)
    assert changed != text, path
    path.write_text(changed, encoding="utf-8", newline="")


def _json_edit(path: Path, change: Callable[[dict[str, object]], None]) -> None:
    value = json.loads(path.read_text(encoding="utf-8"))
    change(value)
    path.write_text(json.dumps(value), encoding="utf-8")


def _crlf_and_split(text: str) -> str:
    text = text.replace('data: {"type":"text-delta",', 'data: {"type":"text-delta",\ndata: ', 1)
    return text.replace("\n", "\r\n")


def _snake_key(message: dict[str, object]) -> None:
    parts = message["parts"]
    assert isinstance(parts, list)
    parts.append({"type": "source-url", "source_id": "src-z", "sourceId": "src-z", "url": "https://example.com"})


def _other_text(message: dict[str, object]) -> None:
    parts = message["parts"]
    assert isinstance(parts, list)
    for part in parts:
        if part.get("type") == "text":
            part["text"] += " (edited at rest)"


# (what is planted, which file of the text recording, how, the requirement id reported, exit code)
PLANTED = [
    ("last event without its blank line", "sse", lambda t: t.removesuffix("\n"), "SSE-UNTERMINATED-EVENT", 1),
    ("unknown chunk type", "sse", lambda t: t.replace('"text-end"', '"text-stop"', 1), "CHUNK-UNKNOWN-TYPE", 1),
    (
        "delta before its start",
        "sse",
        lambda t: t.replace('data: {"type":"text-start","id":"txt-a"}\n\n', "", 1),
        "FOLD-DELTA-WITHOUT-START",
        1,
    ),
    ("CRLF and a chunk over two data lines", "sse", _crlf_and_split, "STREAM-SPLIT-INVARIANT", 0),
    (
        "wrong content-type",
        "headers.json",
        lambda t: t.replace("text/event-stream", "text/plain"),
        "SSE-HEADER-CONTENT-TYPE",
        0,
    ),
    ("stored text differs from the wire", "message.json", _other_text, "ATREST-PARTS-EQUAL", 1),
    ("retired snake_case key at rest", "message.json", _snake_key, "LEGACY-KEY-EMITTED", 1),
]


@pytest.mark.oracle
@pytest.mark.parametrize(("what", "suffix", "plant", "requirement", "code"), PLANTED, ids=[p[0] for p in PLANTED])
@pytest.mark.parametrize("profile", ["ai-sdk-v5", "ai-sdk-v6", "ai-sdk-v7"])
def test_planted_defects_are_reported(
    recordings: tuple[Path, list[Recording]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    profile: str,
    what: str,
    suffix: str,
    plant: Callable[..., object],
    requirement: str,
    code: int,
) -> None:
    folder, _ = recordings
    for kind in ("sse", "headers.json", "message.json"):
        name = f"{profile}.text.{kind}"
        (tmp_path / name).write_bytes((folder / name).read_bytes())
    target = tmp_path / f"{profile}.text.{suffix}"
    if suffix == "message.json":
        _json_edit(target, plant)  # type: ignore[arg-type]
    else:
        _edit(target, plant)  # type: ignore[arg-type]
    exit_code, report = check(tmp_path, profile, "text", capsys)
    assert requirement in requirements(report), what
    assert exit_code == code, (what, requirements(report))
