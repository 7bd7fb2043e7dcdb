"""Golden equality: a scripted scenario's stream, normalised, is the golden chunk for chunk.

Goldens are generated from `conformance/scenarios/` (the same script drives the reference runtime's
model); a runtime asked to play scenario S must put exactly S's chunks on the wire. Live output carries
its own ids and timestamps, so both sides go through `turnwire.normalise.Normaliser` (prior message
first, then the chunks, so one live id maps to one normal id everywhere) and are compared as canonical
JSON, one chunk at a time.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

from turnwire.canonical import equal
from turnwire.conformance.catalogue import check
from turnwire.conformance.checks._recorded import report, streams
from turnwire.conformance.context import CheckContext
from turnwire.conformance.model import ReportedFinding
from turnwire.conformance.reproduce import jcs_text
from turnwire.findings import Finding
from turnwire.generate.scenarios import Scenario, load_scenarios
from turnwire.normalise import Normaliser
from turnwire.profiles import Profile

__all__ = ["golden_chunks", "scenario"]

MAX_FINDINGS = 5
_SHOWN = 300


@cache
def _scenarios() -> dict[str, Scenario]:
    return {s.slug: s for s in load_scenarios()}


def scenario(slug: str) -> Scenario | None:
    """The scripted scenario called `slug`, or None."""
    return _scenarios().get(slug)


def golden_chunks(slug: str, profile: Profile) -> tuple[dict[str, Any] | None, list[dict[str, Any]]] | None:
    """The golden (prior, chunks) of scenario `slug` in `profile`, or None when it does not play there."""
    found = scenario(slug)
    variant = found.variant(profile) if found is not None else None
    if variant is None:
        return None
    return variant.prior, list(variant.chunks)


def _short(value: Any) -> str:
    text = jcs_text(value)
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "…"


def _normalised(prior: Any, chunks: list[Any]) -> list[Any]:
    norm = Normaliser()
    if isinstance(prior, dict):
        norm.message(prior)
    return [norm.chunk(c) if isinstance(c, dict) else c for c in chunks]


def _scripted(context: CheckContext) -> str | None:
    if any(r.scenario is not None and r.stream is not None for r in context.recordings):
        return None
    return "no recorded stream plays a scripted scenario (give --scenario SLUG)"


@check("golden.equal", requirements=("GOLDEN-EQUAL",), needs_recording=True, applies=_scripted)
def golden_equal(context: CheckContext) -> Iterator[ReportedFinding]:
    """A scripted scenario's stream equals its golden after normalisation (canonical JSON per chunk)."""
    for rec, read in streams(context):
        if rec.scenario is None:
            continue
        golden = golden_chunks(rec.scenario, context.profile)
        if golden is None:
            found = [
                Finding.of(
                    "GOLDEN-EQUAL",
                    f"scenario {rec.scenario!r} has no golden for {context.profile.value}",
                    expected=f"a scenario that plays in {context.profile.value}",
                    received=rec.scenario,
                )
            ]
            yield from report(found, rec, context, "stream")
            continue
        want = _normalised(golden[0], golden[1])
        got = _normalised(rec.prior, [c.value for c in read.chunks])
        differing = [i for i in range(min(len(want), len(got))) if not equal(want[i], got[i])]
        found = []
        for n, i in enumerate(differing[:MAX_FINDINGS]):
            rest = len(differing) - MAX_FINDINGS if n == MAX_FINDINGS - 1 else 0
            found.append(
                Finding.of(
                    "GOLDEN-EQUAL",
                    f"chunk {i} differs from the golden of {rec.scenario!r} after normalisation"
                    + (f"; {rest} more chunks differ" if rest > 0 else ""),
                    expected=_short(want[i]),
                    received=_short(got[i]),
                    chunk_index=read.chunks[i].index,
                )
            )
        if len(want) != len(got):
            found.append(
                Finding.of(
                    "GOLDEN-EQUAL",
                    f"the stream has {len(got)} chunks; the golden of {rec.scenario!r} has {len(want)}",
                    expected=f"{len(want)} chunks"
                    + (f", next {_short(want[len(got)])}" if len(want) > len(got) else ""),
                    received=f"{len(got)} chunks"
                    + (f", extra {_short(got[len(want)])}" if len(got) > len(want) else ""),
                    chunk_index=read.chunks[len(want)].index if len(got) > len(want) else None,
                )
            )
        yield from report(found, rec, context, "stream")
