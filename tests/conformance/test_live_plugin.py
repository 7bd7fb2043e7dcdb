"""The pytest plugin: `pytest --turnwire-target` runs the catalogue as items; without it, nothing changes.

Each test runs pytest in a subprocess in an empty folder, as a user would (the plugin is installed
through the `pytest11` entry point, so no `-p` is needed).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from live_fixtures import BreakerServer, Exchange, Rule

QUIET_PLUGINS = ("-p", "no:cacheprovider", "-p", "no:schemathesis", "-p", "no:hypothesispytest", "-p", "no:anyio")
"""Other installed plugins, off: they cost seconds of start-up in every subprocess and play no part here."""


def pytest_run(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "pytest", *QUIET_PLUGINS, "-rs", *args]
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=120, check=False)


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BreakerServer]:
    with BreakerServer(tmp_path_factory.mktemp("plugin")) as server:
        yield server


def test_the_catalogue_runs_as_items_against_the_embedded_runtime(tmp_path: Path) -> None:
    done = pytest_run(tmp_path, "--turnwire-target", "embedded", "--collect-only", "-q")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "turnwire::live.resume.outcomes" in done.stdout
    assert "no tests collected" not in done.stdout
    done = pytest_run(tmp_path, "--turnwire-target", "embedded", "--turnwire-select", "live.run,at-rest.", "-v")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "turnwire::live.run.accept PASSED" in done.stdout
    assert "turnwire::at-rest.message SKIPPED" in done.stdout
    assert "not applicable: no at-rest artefact is a stored UIMessage" in done.stdout


def test_a_must_finding_fails_its_item(tmp_path: Path, broken: BreakerServer) -> None:
    def refuse(ex: Exchange) -> None:
        ex.status, ex.headers, ex.body = 422, [(b"content-type", b"application/json")], b'{"error": "no"}'

    broken.rule = Rule(name="/run refuses everything", matches=lambda m, p: p.endswith("/run"), answer=refuse)
    try:
        done = pytest_run(tmp_path, "--turnwire-target", broken.api_url, "--turnwire-select", "live.run", "-v")
    finally:
        broken.rule = None
    assert done.returncode == 1, done.stdout + done.stderr
    assert "turnwire::live.run.accept FAILED" in done.stdout
    assert "turnwire::live.run.reject PASSED" in done.stdout
    assert "MUST RUN-HTTP-ACCEPT" in done.stdout
    assert "Traceback" not in done.stdout


def test_an_unreachable_target_ends_the_session_with_exit_2(tmp_path: Path) -> None:
    done = pytest_run(tmp_path, "--turnwire-target", "http://127.0.0.1:1/api/v2/agent")
    assert done.returncode == 2
    assert "unreachable" in done.stdout + done.stderr


def test_without_the_option_the_plugin_adds_nothing(tmp_path: Path) -> None:
    (tmp_path / "test_one.py").write_text("def test_one():\n    assert True\n", encoding="utf-8")
    done = pytest_run(tmp_path, "--collect-only", "-q")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "test_one.py::test_one" in done.stdout
    assert "turnwire" not in done.stdout
    assert "1 test collected" in done.stdout
    assert "turnwire conformance" not in pytest_run(tmp_path, "--markers").stdout
