"""The check catalogue: every conformance check, registered once, with what it needs.

A check is a plain function over a `CheckContext` that yields `Finding`s (the Schemathesis style:
the failure message says what was declared and what was received). It declares the requirement ids it
tests and what it needs from the target — a recording of a stream, an at-rest artefact, or claimed
capabilities of a live runtime — so the runner can report "not applicable" instead of skipping.
Check modules register themselves with `@check(...)`; `load_catalogue()` imports them all.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from turnwire.conformance.model import Capability, ReportedFinding
from turnwire.findings import Finding

if TYPE_CHECKING:
    from turnwire.conformance.context import CheckContext

CheckFn = Callable[["CheckContext"], Iterable[Finding | ReportedFinding]]
"""A check: yields plain findings, or findings with their reproducer already attached (`ReportedFinding`)."""

AppliesFn = Callable[["CheckContext"], str | None]
"""Extra applicability test: the reason the check does not apply to this context, or None when it does."""


@dataclass(frozen=True)
class Check:
    """One registered check."""

    name: str
    """Hierarchical name: `family.check` (patterns select by prefix, like Connect conformance)."""
    requirements: tuple[str, ...]
    run: CheckFn
    needs: frozenset[Capability] = field(default_factory=frozenset)
    """Capabilities a live target must claim. Empty: the check runs on whatever the context holds."""
    needs_recording: bool = False
    """Needs at least one recorded stream (live targets record the turns they drive)."""
    needs_at_rest: bool = False
    """Needs at least one at-rest artefact (snapshot or stored message)."""
    needs_live: bool = False
    """Needs a live runtime to talk to (not satisfiable by a recording)."""
    description: str = ""
    applies: AppliesFn | None = None
    """Finer applicability than the flags (e.g. "a recording with response headers"): returns the reason
    the check does not apply, or None. The runner reports that reason as not-applicable."""


_CATALOGUE: dict[str, Check] = {}


def check(
    name: str,
    *,
    requirements: Iterable[str],
    needs: Iterable[Capability] = (),
    needs_recording: bool = False,
    needs_at_rest: bool = False,
    needs_live: bool = False,
    applies: AppliesFn | None = None,
) -> Callable[[CheckFn], CheckFn]:
    """Register the decorated function as check `name` (its docstring becomes the description)."""

    def register(fn: CheckFn) -> CheckFn:
        if name in _CATALOGUE:
            raise ValueError(f"check {name!r} registered twice")
        _CATALOGUE[name] = Check(
            name=name,
            requirements=tuple(requirements),
            run=fn,
            needs=frozenset(needs),
            needs_recording=needs_recording,
            needs_at_rest=needs_at_rest,
            needs_live=needs_live,
            description=(fn.__doc__ or "").strip().splitlines()[0] if fn.__doc__ else "",
            applies=applies,
        )
        return fn

    return register


def load_catalogue() -> dict[str, Check]:
    """Every registered check by name, after importing every module of `turnwire.conformance.checks`."""
    from turnwire.conformance import checks

    for info in pkgutil.iter_modules(checks.__path__):
        importlib.import_module(f"{checks.__name__}.{info.name}")
    return dict(sorted(_CATALOGUE.items()))


def select(catalogue: dict[str, Check], patterns: Iterable[str] = ()) -> list[Check]:
    """The checks whose name starts with any of `patterns` (all checks when none are given)."""
    wanted = list(patterns)
    return [c for name, c in catalogue.items() if not wanted or any(name.startswith(p) for p in wanted)]
