"""turnwire's fold against the real SDK on broken streams, not only on goldens.

Each scenario's chunks are mutated deterministically (a chunk dropped, duplicated, moved to the end,
or repeated after `finish`) and both turnwire's `fold` and the SDK's `readUIMessageStream` fold the
result. They must agree on the message the client ends up holding (JCS-equal) and on whether the
client failed. All mutations keep every chunk schema-valid, so only the fold itself is exercised.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from sdk import Judge, stream_job, to_sse

from turnwire.canonical import dumps
from turnwire.fold import fold
from turnwire.generate.scenarios import load_scenarios
from turnwire.profiles import ALL_PROFILES, Profile

SEED = 20261121
PER_VARIANT = 12


def mutations(chunks: list[dict[str, Any]], rng: random.Random) -> list[tuple[str, list[dict[str, Any]]]]:
    out: list[tuple[str, list[dict[str, Any]]]] = []
    n = len(chunks)
    for _ in range(PER_VARIANT):
        i = rng.randrange(n)
        kind = rng.choice(["drop", "duplicate", "to-end", "after-finish", "swap"])
        c = list(chunks)
        if kind == "drop":
            del c[i]
        elif kind == "duplicate":
            c.insert(i, c[i])
        elif kind == "to-end":
            c.append(c.pop(i))
        elif kind == "after-finish":
            c.append(c[i])
        else:
            j = rng.randrange(n)
            c[i], c[j] = c[j], c[i]
        out.append((f"{kind}@{i}", c))
    return out


def cases() -> list[tuple[str, str, list[dict[str, Any]], dict[str, Any] | None]]:
    rng = random.Random(SEED)
    out = []
    for scenario in load_scenarios():
        for profile in ALL_PROFILES:
            variant = scenario.variant(profile)
            if variant is None:
                continue
            for name, chunks in mutations(variant.chunks, rng):
                out.append((f"{profile.value}/{scenario.slug}/{name}", profile.value, chunks, variant.prior))
    return out


@pytest.mark.oracle
def test_fold_agrees_with_the_sdk_on_mutated_streams(sdk_judge: Judge) -> None:
    all_cases = cases()
    results = sdk_judge([stream_job(profile, to_sse(chunks), prior) for _, profile, chunks, prior in all_cases])
    disagreements = []
    for (name, profile, chunks, prior), sdk in zip(all_cases, results, strict=True):
        assert "fatal" not in sdk, (name, sdk)
        stream = sdk["stream"]
        assert stream["invalid_chunk"] is None, name  # every mutated chunk stays schema-valid
        ours = fold(chunks, Profile(profile), prior=prior)
        ours_failed = ours.stopped_at is not None
        sdk_failed = len(stream["errors"]) > len(ours.errors)
        same_message = (ours.message is None and stream["message"] is None) or (
            ours.message is not None
            and stream["message"] is not None
            and dumps(ours.message) == dumps(stream["message"])
        )
        if not same_message or ours_failed != sdk_failed:
            disagreements.append((name, ours.message, stream["message"], ours_failed, stream["errors"]))
    assert len(all_cases) > 300
    assert disagreements == []
