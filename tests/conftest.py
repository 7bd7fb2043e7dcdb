"""Test-suite set-up shared by every test.

* Hypothesis explores new examples on every local run; in CI (the `CI` environment variable set) it is
  derandomized, so a red CI run is reproducible and a green one does not depend on luck.
* Every check can fail: each requirement of the registry must be reported by at least one test of the
  suite (a known-bad input that produces its finding). Every `Finding` built during the run is
  recorded; when the whole suite ran, a registered requirement that no test produced fails the session.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import settings

from turnwire.findings import Finding
from turnwire.requirements import registry

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile("ci" if os.environ.get("CI", "").lower() not in ("", "0", "false") else "dev")

PRODUCED: set[str] = set()
_original_init = Finding.__init__


def _recording_init(self: Finding, /, **data: Any) -> None:
    _original_init(self, **data)
    PRODUCED.add(self.requirement)


Finding.__init__ = _recording_init  # type: ignore[method-assign]


def _whole_suite_ran(session: pytest.Session) -> bool:
    config = session.config
    narrowed = config.getoption("keyword") or config.getoption("markexpr") or config.getoption("lf", False)
    explicit = [a for a in config.args if a not in ("tests", "tests/", str(config.rootpath / "tests"))]
    return not narrowed and not explicit and session.testsfailed == 0


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if not _whole_suite_ran(session):
        return
    never = sorted(set(registry()) - PRODUCED)
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write("\n")
        produced = len(set(registry()) & PRODUCED)
        reporter.write_line(f"requirements with a test that produces their finding: {produced}/{len(registry())}")
    if never:
        if reporter is not None:
            reporter.write_line(
                "every requirement needs a test that produces its finding; none did for: " + ", ".join(never),
                red=True,
            )
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
