"""The check catalogue and the requirement registry stay in step, both ways.

* every requirement a check lists is registered;
* every registered requirement is tested by at least one catalogue check, or is in `LIBRARY_ONLY`
  below with the reason no target exposes it (and the library function that tests it);
* a registry entry whose `check:` names a catalogue check (`catalogue:<name>`) names one that exists
  and lists that requirement; an allow-listed entry names its library function (`module:function`).
"""

from __future__ import annotations

import importlib
import re

import pytest

from turnwire.conformance import load_catalogue
from turnwire.requirements import registry

RUN_BODY = (
    "a rule on the /run body a service writes; a runtime target receives /run rather than writing it, so the "
    "runner checks the runtime's side (live.run.reject: bodies breaking RUN-UNKNOWN-KEY, RUN-MISSING-KEY, "
    "RUN-SCHEMA, TOOL-SPEC-SCHEMA and MCP-SERVER-SCHEMA must be refused, as RUN-HTTP-REJECT); a service's own "
    "bodies are judged with turnwire.tools.checks.check_run_request"
)
STORED_CONFIG = "stored tool and MCP configurations live in the service's database; no route of a runtime serves them"
SESSION_SNAPSHOT = (
    "the session snapshot is the runtime's private store; what a target shows of it is the resume outcome "
    "(live.resume.legacy-snapshot: a planted version-1 snapshot is refused, RESUME-HTTP-LEGACY-SNAPSHOT)"
)

LIBRARY_ONLY: dict[str, str] = {
    "RUN-UNKNOWN-KEY": RUN_BODY,
    "RUN-MISSING-KEY": RUN_BODY,
    "RUN-SCHEMA": RUN_BODY,
    "RUN-OMIT-EMPTY": RUN_BODY,
    "RUN-SECRET-PLACEMENT": RUN_BODY,
    "TOOL-SPEC-KIND": RUN_BODY,
    "TOOL-SPEC-SCHEMA": RUN_BODY,
    "TOOL-SPEC-WIRE-FORM": RUN_BODY,
    "TOOL-DUPLICATE-NAME": RUN_BODY,
    "MCP-SERVER-SCHEMA": RUN_BODY,
    "MCP-EMPTY-FIELD": RUN_BODY,
    "TOOL-CONFIG-SCHEMA": STORED_CONFIG,
    "TOOL-CONFIG-LEGACY": STORED_CONFIG,
    "MCP-CONFIG-SCHEMA": STORED_CONFIG,
    "RESUME-SNAPSHOT-VERSION": SESSION_SNAPSHOT,
    "RESUME-SNAPSHOT-SCHEMA": SESSION_SNAPSHOT,
    "RESUME-TRANSITION": SESSION_SNAPSHOT,
    "LEGACY-PROJECTION": (
        "needs the turn's stored rows (turn, artifacts, runtime state) next to the served snapshot; a target "
        "serves only the snapshot, so turnwire.snapshot.check_assembly judges rows a test seeds"
    ),
}
"""Requirements no target-observable artefact can test, with the reason (kept as short as the truth allows)."""

CATALOGUE = load_catalogue()
COVERED = {req for c in CATALOGUE.values() for req in c.requirements}


def test_every_requirement_a_check_lists_is_registered() -> None:
    unknown = sorted((c.name, r) for c in CATALOGUE.values() for r in c.requirements if r not in registry())
    assert unknown == []


def test_every_registered_requirement_is_tested_by_a_check_or_allow_listed() -> None:
    untested = sorted(set(registry()) - COVERED - LIBRARY_ONLY.keys())
    assert untested == []


def test_allow_list_holds_only_untested_registered_requirements() -> None:
    assert sorted(set(LIBRARY_ONLY) - set(registry())) == []
    # a requirement a check now tests must leave the allow-list (the list only shrinks)
    assert sorted(set(LIBRARY_ONLY) & COVERED) == []
    assert all(len(reason) > 40 for reason in LIBRARY_ONLY.values())


def test_allow_listed_entries_name_the_library_function_that_tests_them() -> None:
    for req_id in LIBRARY_ONLY:
        target = registry()[req_id].check or ""
        assert not target.startswith("catalogue:"), req_id
        module, _, attr = target.partition(":")
        obj = importlib.import_module(module)
        for name in attr.split("."):
            obj = getattr(obj, name)
        assert callable(obj), req_id


def test_catalogue_check_fields_name_a_check_that_lists_the_requirement() -> None:
    for req in registry().values():
        if req.check and req.check.startswith("catalogue:"):
            name = req.check.removeprefix("catalogue:")
            assert name in CATALOGUE, (req.id, name)
            assert req.id in CATALOGUE[name].requirements, (req.id, name)


@pytest.mark.parametrize("name", sorted(CATALOGUE))
def test_check_names_are_hierarchical_and_described(name: str) -> None:
    assert re.fullmatch(r"[a-z][a-z-]*(\.[a-z][a-z0-9-]*)+", name)
    check = CATALOGUE[name]
    assert check.requirements, name
    assert check.description, name


def test_recording_checks_cover_the_issue_list() -> None:
    wanted = {
        "sse.framing",
        "sse.headers",
        "stream.chunks-valid",
        "stream.lifecycle",
        "stream.chunk-boundaries",
        "at-rest.wire-equal",
        "at-rest.snapshot",
        "at-rest.message",
        "golden.equal",
        "legacy.deny-scan",
    }
    assert wanted <= set(CATALOGUE)
