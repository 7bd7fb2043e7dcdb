"""The expected-failures baseline (`--baseline FILE`): known debt that must not hide, nor go stale.

A team adopting turnwire on a runtime that already breaks a few requirements lists them, each with a
reason, and gates CI on everything else (the pattern of MCP conformance's `--expected-failures` and
Connect's `--known-failing`). Three rules keep the list honest:

* a listed requirement's findings are reported, marked `baselined`, and do not fail the run;
* a listed requirement that a check tested and that produced no finding is **stale**: the run fails
  until the entry is removed (otherwise the list only ever grows and a regression could hide in it);
* every entry needs a reason and a registered requirement id; anything else is a load error, because a
  baseline nobody can read is worse than none.

A listed requirement that no check tested in this run (its checks were not applicable or not
selected) is neither stale nor confirmed: it is listed in the summary as not exercised.

File format (YAML)::

    - requirement: SSE-DONE
      reason: our proxy drops the [DONE] event; tracked in OPS-123
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import yaml

from turnwire.conformance.model import CheckResult, Status
from turnwire.requirements import registry

__all__ = ["Baseline", "BaselineEntry", "BaselineError", "apply_baseline", "load_baseline", "parse_baseline"]


class BaselineError(ValueError):
    """The baseline file cannot be used (unreadable, not a list, an entry without reason or with an unknown id)."""


@dataclass(frozen=True)
class BaselineEntry:
    """One expected failure: a requirement id and why it is accepted for now."""

    requirement: str
    reason: str


@dataclass(frozen=True)
class Baseline:
    """The entries of one baseline file, by requirement id."""

    entries: tuple[BaselineEntry, ...] = ()
    source: str = "baseline"

    @property
    def requirements(self) -> frozenset[str]:
        """The listed requirement ids."""
        return frozenset(e.requirement for e in self.entries)


def parse_baseline(raw: object, *, source: str = "baseline") -> Baseline:
    """Validate a parsed baseline document; raises `BaselineError` naming `source` and the entry."""
    if not isinstance(raw, list):
        raise BaselineError(f"{source}: expected a YAML list of {{requirement, reason}} entries")
    known = registry()
    entries: list[BaselineEntry] = []
    seen: set[str] = set()
    for i, item in enumerate(raw):
        where = f"{source}: entry {i + 1}"
        if not isinstance(item, dict):
            raise BaselineError(f"{where}: expected a mapping with requirement and reason")
        extra = sorted(str(k) for k in item if k not in ("requirement", "reason"))
        if extra:
            raise BaselineError(f"{where}: unknown key(s) {', '.join(extra)}; an entry has requirement and reason")
        req = item.get("requirement")
        if not isinstance(req, str) or not req.strip():
            raise BaselineError(f"{where}: missing requirement id")
        req = req.strip()
        if req not in known:
            raise BaselineError(f"{where}: unknown requirement id {req!r} (not in the requirement registry)")
        reason = item.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise BaselineError(f"{where} ({req}): missing reason; say why this failure is accepted")
        if req in seen:
            raise BaselineError(f"{where}: {req} is listed twice")
        seen.add(req)
        entries.append(BaselineEntry(req, reason.strip()))
    return Baseline(tuple(entries), source)


def load_baseline(path: Path) -> Baseline:
    """Read and validate a baseline file; any problem is a one-line `BaselineError`."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BaselineError(f"cannot read baseline {path}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        raw = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise BaselineError(f"baseline {path} is not valid YAML: {first}") from None
    return parse_baseline(raw, source=str(path))


def apply_baseline(baseline: Baseline, results: Iterable[CheckResult]) -> tuple[list[str], list[str]]:
    """Mark the listed findings as baselined; return (stale, not exercised) requirement ids, sorted.

    A requirement counts as exercised when a check that lists it ran to a verdict (passed or failed),
    or when any finding carries it.
    """
    listed = baseline.requirements
    found: set[str] = set()
    exercised: set[str] = set()
    for result in results:
        if result.status in (Status.PASSED, Status.FAILED):
            exercised.update(result.requirements)
        for rf in result.findings:
            req = rf.finding.requirement
            found.add(req)
            exercised.add(req)
            if req in listed:
                rf.baselined = True
    stale = sorted(r for r in listed if r in exercised and r not in found)
    not_exercised = sorted(r for r in listed if r not in exercised)
    return stale, not_exercised
