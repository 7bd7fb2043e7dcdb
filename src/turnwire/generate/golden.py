"""Golden fixtures: per profile and scenario, the exact wire and the message it folds into.

`golden/<profile>/<slug>/stream.sse` is the scenario's chunks framed as the AI SDK frames them (each
`data:` payload the JCS of its chunk, then `data: [DONE]`); `message.json` is the fold of that stream
(starting from `prior.json` where the scenario has one), as JCS plus a newline. No clock, no
randomness: the same scenarios always give the same bytes.
"""

from __future__ import annotations

from turnwire.canonical import file_bytes
from turnwire.fold import fold
from turnwire.generate.scenarios import Scenario, load_scenarios
from turnwire.profiles import ALL_PROFILES
from turnwire.protocol.validate import validate_chunk, validate_message
from turnwire.sse import encode_stream


class GoldenError(ValueError):
    """A scenario does not produce a clean golden (its own data breaks the contract)."""


def scenario_golden(scenario: Scenario) -> dict[str, bytes]:
    """The golden files of one scenario, by path relative to `golden/`."""
    out: dict[str, bytes] = {}
    for profile in ALL_PROFILES:
        variant = scenario.variant(profile)
        if variant is None:
            continue
        where = f"{profile.value}/{scenario.slug}"
        problems = [f for i, c in enumerate(variant.chunks) for f in validate_chunk(c, profile, chunk_index=i)]
        if variant.prior is not None:
            problems += validate_message(variant.prior, profile)
        result = fold(variant.chunks, profile, prior=variant.prior)
        problems += result.findings
        if result.message is None:
            raise GoldenError(f"{where}: the stream folds into no message")
        problems += validate_message(result.message, profile)
        if problems:
            listed = "\n  ".join(str(p) for p in problems)
            raise GoldenError(f"scenario {where} breaks the contract:\n  {listed}")
        out[f"{where}/stream.sse"] = encode_stream(variant.chunks)
        out[f"{where}/message.json"] = file_bytes(result.message)
        if variant.prior is not None:
            out[f"{where}/prior.json"] = file_bytes(variant.prior)
    return out


def goldens() -> dict[str, bytes]:
    """Every golden file, by path relative to `golden/`."""
    out: dict[str, bytes] = {}
    for scenario in load_scenarios():
        out.update(scenario_golden(scenario))
    return out
