"""pytest plugin: `pytest --turnwire-target URL` runs the conformance catalogue as test items.

Why a plugin: teams that already gate CI on pytest get one item per check, named by the check
(`turnwire::live.resume.outcomes`), selectable with `-k` and `-m turnwire`, reported by whatever
pytest reporter they use. The verdict rules are the runner's (`turnwire.conformance.runner`), so an
item says what `turnwire check` says: a MUST finding fails it, a not-applicable check is skipped with
its reason, SHOULD/MAY findings pass with a warning, a turnwire bug is an error.

Options: `--turnwire-target URL` (the runtime's API base; `embedded` starts the reference runtime),
`--turnwire-profile ai-sdk-v7`, `--turnwire-target-profile FILE` (TOML), `--turnwire-select PATTERN`.
Without `--turnwire-target` the plugin adds nothing and changes nothing. A target that cannot be
checked at all ends the session with exit code 2, as `turnwire check` does.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from _pytest._code.code import TerminalRepr

    from turnwire.conformance.catalogue import Check
    from turnwire.conformance.context import CheckContext
    from turnwire.conformance.model import CheckResult

EMBEDDED = "embedded"
"""The `--turnwire-target` value that starts the embedded reference runtime."""

_MARKER = "turnwire"
_STATE = pytest.StashKey["_Target"]()


class TurnwireWarning(UserWarning):
    """A SHOULD or MAY finding: reported, not failing the item."""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("turnwire", "turnwire conformance checks")
    group.addoption(
        "--turnwire-target",
        metavar="URL",
        help=f"run the turnwire conformance catalogue against this runtime API base ('{EMBEDDED}': the reference "
        "runtime started on loopback)",
    )
    group.addoption(
        "--turnwire-profile",
        default="ai-sdk-v7",
        choices=["ai-sdk-v5", "ai-sdk-v6", "ai-sdk-v7"],
        help="protocol profile for --turnwire-target (default ai-sdk-v7)",
    )
    group.addoption("--turnwire-target-profile", metavar="FILE", help="target profile (TOML) for --turnwire-target")
    group.addoption(
        "--turnwire-select", action="append", metavar="PATTERN", help="only checks whose name starts with PATTERN"
    )


def _enabled(config: pytest.Config) -> bool:
    return config.getoption("--turnwire-target", default=None) is not None


def pytest_configure(config: pytest.Config) -> None:
    if not _enabled(config):
        return
    config.addinivalue_line("markers", f"{_MARKER}: a turnwire conformance check (added by --turnwire-target)")
    config.stash[_STATE] = _Target(config)


def pytest_unconfigure(config: pytest.Config) -> None:
    target = config.stash.get(_STATE, None)
    if target is not None:
        target.close()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Append one item per selected check (before -k / -m deselect, so they apply to the checks too)."""
    if not _enabled(config):
        return
    from turnwire.conformance.catalogue import load_catalogue, select

    patterns = [p for raw in config.getoption("--turnwire-select") or [] for p in raw.split(",") if p.strip()]
    catalogue = TurnwireCatalogue.from_parent(session, name="turnwire", nodeid="turnwire")
    added: list[pytest.Item] = []
    for check in select(load_catalogue(), patterns):
        item = CheckItem.from_parent(catalogue, name=check.name, check=check)
        item.add_marker(_MARKER)
        added.append(item)
    # report them as collected, so counts and --collect-only include them
    report = pytest.CollectReport(nodeid=catalogue.nodeid, outcome="passed", longrepr=None, result=list(added))
    session.ihook.pytest_collectreport(report=report)
    items.extend(added)


class _Target:
    """The session's target: built on first use (not at collection), released at the end."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self._context: CheckContext | None = None
        self._close: Callable[[], None] | None = None

    def context(self) -> CheckContext:
        if self._context is None:
            self._context, self._close = self._build()
        return self._context

    def _build(self) -> tuple[CheckContext, Callable[[], None]]:
        from turnwire.conformance.targets.live import TargetUnavailable, build_context
        from turnwire.conformance.targets.profile import TargetProfileError
        from turnwire.profiles import parse_profile

        url = self.config.getoption("--turnwire-target")
        file = self.config.getoption("--turnwire-target-profile")
        try:
            return build_context(
                None if url == EMBEDDED else url,
                profile=parse_profile(self.config.getoption("--turnwire-profile")),
                target_profile=Path(file) if file else None,
                options={},
            )
        except (TargetUnavailable, TargetProfileError) as exc:
            pytest.exit(f"turnwire: error: {exc}", returncode=2)

    def close(self) -> None:
        if self._close is not None:
            self._close()
            self._close = None


class TurnwireCatalogue(pytest.Collector):
    """The parent of the check items (their node id is `turnwire::<check>`)."""

    def collect(self) -> Iterator[pytest.Item]:  # the items are added by the plugin hook
        return iter(())


class CheckFailed(Exception):
    """A check found MUST findings (the message lists every finding)."""


class CheckItem(pytest.Item):
    """One conformance check against the session's target."""

    def __init__(self, *, check: Check, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.check = check

    def runtest(self) -> None:
        from turnwire.conformance.model import Status
        from turnwire.conformance.runner import run

        context = self.config.stash[_STATE].context()
        result = run(context, [self.check]).results[0]
        if result.status is Status.NOT_APPLICABLE:
            pytest.skip(f"not applicable: {result.reason}")
        if result.status is Status.ERROR:
            raise RuntimeError(result.reason)
        musts = [rf for rf in result.findings if rf.finding.level == "MUST"]
        if musts:
            raise CheckFailed(describe(result))
        for rf in result.findings:
            warnings.warn(TurnwireWarning(f"{self.check.name}: {rf.finding}"), stacklevel=1)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str | TerminalRepr:
        if isinstance(excinfo.value, CheckFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[str, int | None, str]:
        return "turnwire", None, f"turnwire check {self.check.name}"


def describe(result: CheckResult) -> str:
    """A failed check as text: each finding with what was expected, what came, and its reproducer."""
    lines = [f"{result.check}: {len(result.findings)} finding(s) ({', '.join(result.requirements)})"]
    for rf in result.findings:
        f = rf.finding
        lines.append(f"  {f}")
        if f.expected is not None:
            lines.append(f"    expected: {f.expected}")
        if f.received is not None:
            lines.append(f"    received: {f.received}")
        rep = rf.reproducer
        if rep is not None:
            for part in (rep.request, rep.response, rep.excerpt):
                if part:
                    lines.extend("    | " + line for line in part.splitlines()[:12])
    return "\n".join(lines)
