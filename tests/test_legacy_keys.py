"""The legacy-key registry and the deny-scan: retired keys are found where they are retired, and only there.

Also: readers accept what the registry says they accept (populate by name), writers never emit a
retired key (no golden holds one), and a malformed registry file is an error naming the file.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from turnwire.canonical import loads
from turnwire.resources import golden_dir
from turnwire.snapshot.check import ARTEFACT, check_snapshot, read_snapshot
from turnwire.snapshot.legacy import CreateTurnResponse, LegacyTurnSnapshot
from turnwire.snapshot.legacy_keys import (
    ARTEFACTS,
    LegacyKeyError,
    accept_legacy,
    deny_scan,
    legacy_keys,
    load_legacy_keys,
)

SNAPSHOT = loads((golden_dir() / "snapshot" / "completed-turn" / "snapshot.json").read_bytes())
assert isinstance(SNAPSHOT, dict)
TOOL = {"type": "tool-search", "toolCallId": "c1", "state": "output-error", "input": {}, "errorText": "down"}
DOC = {"type": "source-document", "sourceId": "d1", "mediaType": "application/pdf", "title": "Guide"}
SNAKE = {"sourceId": "source_id", "toolCallId": "tool_call_id", "errorText": "error_text", "mediaType": "media_type"}


def with_parts(*parts: dict[str, Any]) -> dict[str, Any]:
    value = copy.deepcopy(SNAPSHOT)
    value["parts"] = [*value["parts"], *(copy.deepcopy(p) for p in parts)]  # no shared dicts
    return value


def paths(findings: list[Any]) -> list[str | None]:
    return [f.json_path for f in findings if f.requirement == "LEGACY-KEY-EMITTED"]


# ---- the registry -----------------------------------------------------------------------------------


def test_registry_names_the_retired_snapshot_body() -> None:
    top = {e.key: e for e in legacy_keys() if e.artefact == ARTEFACT and e.location == "$"}
    assert set(top) == {"turn", "timeline", "artifacts"}
    assert not any(e.readers_accept for e in top.values())
    assert all(e.since == "agent-runtime-v3.1" for e in top.values())


@pytest.mark.parametrize("artefact", ARTEFACTS)
def test_registry_names_the_snake_case_part_keys_with_their_replacements(artefact: str) -> None:
    parts = {e.key: e for e in legacy_keys() if e.artefact == artefact and e.location == "$.parts[*]"}
    assert {k: e.replacement for k, e in parts.items()} == {v: k for k, v in SNAKE.items()}
    assert all(e.readers_accept for e in parts.values())


def test_every_entry_is_complete() -> None:
    for entry in legacy_keys():
        assert entry.since
        assert entry.source
        assert entry.replacement
        assert entry.artefact in ARTEFACTS


def registry_file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "legacy-keys.yaml"
    path.write_text(body, encoding="utf-8")
    return path


ENTRY = (
    "  - {key: k, artefact: agent-turn-snapshot, location: '$', since: v, source: s,"
    " replacement: %s, readers_accept: %s}\n"
)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("nothing: here\n", "legacy_keys"),
        ("legacy_keys:\n" + ENTRY % ("the new keys", "true"), "key name"),
        ("legacy_keys:\n" + ENTRY % ("k", "true"), "differ"),
        ("legacy_keys:\n" + ENTRY.replace("'$'", "'parts[*]'") % ("x", "false"), "start with"),
        ("legacy_keys:\n" + ENTRY.replace("'$'", "'$.parts[0]'") % ("x", "false"), "cannot read"),
        ("legacy_keys:\n" + ENTRY.replace("agent-turn-snapshot", "create-turn-response") % ("x", "false"), "artefact"),
        ("legacy_keys:\n" + ENTRY % ("x", "false") + ENTRY % ("y", "false"), "listed twice"),
        ("legacy_keys: [\n", "cannot read"),
    ],
)
def test_malformed_registry_is_an_error_naming_the_file(tmp_path: Path, body: str, message: str) -> None:
    path = registry_file(tmp_path, body)
    with pytest.raises(LegacyKeyError, match=message) as info:
        load_legacy_keys(path)
    assert str(path) in str(info.value)


def test_a_registry_file_drives_the_scan(tmp_path: Path) -> None:
    registry = load_legacy_keys(registry_file(tmp_path, "legacy_keys:\n" + ENTRY % ("kk", "true")))
    assert paths(deny_scan({"k": 1}, ARTEFACT, registry=registry)) == ["$.k"]
    assert accept_legacy({"k": 1}, ARTEFACT, registry=registry) == {"kk": 1}


# ---- the deny-scan ----------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["turn", "timeline", "artifacts"])
def test_planted_top_level_key_is_found_with_its_path(key: str) -> None:
    value = {**SNAPSHOT, key: {}}
    (finding,) = deny_scan(value, ARTEFACT)
    assert (finding.requirement, finding.json_path, finding.received) == ("LEGACY-KEY-EMITTED", f"$.{key}", key)
    assert "agent-runtime-v3.1" in finding.message


@pytest.mark.parametrize("key", ["source_id", "tool_call_id", "error_text", "media_type"])
def test_planted_part_key_is_found_with_its_path(key: str) -> None:
    value = with_parts(TOOL, DOC)
    value["parts"][4][key] = "x"
    (finding,) = deny_scan(value, ARTEFACT)
    assert finding.json_path == f"$.parts[4].{key}"
    assert finding.expected == {v: k for k, v in SNAKE.items()}[key]


def _turn() -> dict[str, Any]:
    return {
        "turn_id": "turn-1",
        "chat_id": "chat-1",
        "user_id": "user-1",
        "bot_id": "bot-1",
        "request_id": "req-1",
        "client_idempotency_key": "idem-1",
        "status": "RUNNING",
        "input_text": "hello",
    }


def test_the_whole_legacy_body_is_found() -> None:
    legacy = LegacyTurnSnapshot.model_validate({"turn": _turn(), "timeline": [], "artifacts": []})
    value = legacy.model_dump(mode="json")
    assert paths(deny_scan(value, ARTEFACT)) == ["$.artifacts", "$.timeline", "$.turn"]
    findings = check_snapshot(value)
    assert paths(findings) == ["$.artifacts", "$.timeline", "$.turn"]
    assert "SNAPSHOT-EXTRA-KEY" not in {f.requirement for f in findings}  # reported once, as legacy


def test_create_turn_response_keeps_its_turn() -> None:
    response = CreateTurnResponse.model_validate({"turn": _turn(), "stream_url": "http://x/events"})
    value = response.model_dump(mode="json")
    assert "turn" in value
    assert deny_scan(value, "create-turn-response") == []


def test_envelope_error_text_is_current() -> None:
    value = {**SNAPSHOT, "status": "FAILED", "error_text": "boom"}
    assert deny_scan(value, ARTEFACT) == []
    assert check_snapshot(value) == []


def test_retired_names_elsewhere_are_not_flagged() -> None:
    value = with_parts({"type": "data-note", "data": {"turn": 1, "source_id": "s", "error_text": "e"}})
    value["parts"][0]["providerMetadata"] = {"x": {"tool_call_id": "c"}}
    assert deny_scan(value, ARTEFACT) == []
    assert deny_scan({"turn": 1, "parts": "not a list"}, "ui-message") == []


def test_ui_message_parts_are_scanned_too() -> None:
    message = {"id": "m1", "role": "assistant", "parts": [{"type": "source-url", "source_id": "s", "url": "u"}]}
    assert paths(deny_scan(message, "ui-message")) == ["$.parts[0].source_id"]
    assert deny_scan({"id": "m1", "role": "assistant", "parts": [], "turn": 1}, "ui-message") == []


def artefact_of(rel: str) -> list[str]:
    """The artefact a golden file holds; a file of another area is scanned as every artefact (strictest)."""
    name = rel.rsplit("/", 1)[-1]
    if rel.startswith("snapshot/") and name == "snapshot.json":
        return [ARTEFACT]
    if name in ("message.json", "prior.json"):
        return ["ui-message"]
    return list(ARTEFACTS)


def test_no_golden_holds_a_retired_key() -> None:
    files = sorted(p for p in golden_dir().rglob("*.json") if p.is_file())
    rels = [p.relative_to(golden_dir()).as_posix() for p in files]
    assert any(r.endswith("/message.json") for r in rels)
    assert any(r.endswith("/prior.json") for r in rels)
    assert any(r.startswith("snapshot/") for r in rels)
    for path, rel in zip(files, rels, strict=True):
        value = loads(path.read_bytes())
        for artefact in artefact_of(rel):
            assert deny_scan(value, artefact) == [], rel


# ---- readers accept, writers never emit -------------------------------------------------------------


def snake_cased(value: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(value)
    for part in out["parts"]:
        for camel, snake in SNAKE.items():
            if camel in part:
                part[snake] = part.pop(camel)
    return out


def test_reader_populates_retired_part_keys_by_name() -> None:
    sent = snake_cased(with_parts(TOOL, DOC))
    reading = read_snapshot(sent)
    assert reading.snapshot is not None
    assert reading.snapshot.model_dump(mode="json") == with_parts(TOOL, DOC)
    assert paths(reading.findings) == [
        "$.parts[1].source_id",
        "$.parts[3].error_text",
        "$.parts[3].tool_call_id",
        "$.parts[4].media_type",
        "$.parts[4].source_id",
    ]


def test_reader_does_not_accept_the_retired_body() -> None:
    assert read_snapshot({**SNAPSHOT, "timeline": []}).snapshot is None


def test_replacement_wins_when_both_are_sent() -> None:
    sent = with_parts()
    sent["parts"][1]["source_id"] = "stale"
    accepted = accept_legacy(sent, ARTEFACT)
    assert accepted["parts"][1] == SNAPSHOT["parts"][1]
    assert sent["parts"][1]["source_id"] == "stale"  # the input is not changed


def test_keys_readers_no_longer_accept_are_left_for_validation() -> None:
    sent = {**SNAPSHOT, "turn": {}}
    assert accept_legacy(sent, ARTEFACT) == sent


parts_strategy = st.lists(
    st.sampled_from([SNAPSHOT["parts"][0], SNAPSHOT["parts"][1], SNAPSHOT["parts"][2], TOOL, DOC])
)


@given(parts_strategy, st.data())
def test_snake_keys_planted_anywhere_are_all_found_and_all_read_back(parts: list[Any], data: st.DataObject) -> None:
    original = with_parts(*parts)
    sent = copy.deepcopy(original)
    planted: list[str] = []
    for i, part in enumerate(sent["parts"]):
        for camel, snake in SNAKE.items():
            if camel in part and data.draw(st.booleans()):
                part[snake] = part.pop(camel)
                planted.append(f"$.parts[{i}].{snake}")
    assert paths(deny_scan(sent, ARTEFACT)) == sorted(planted)
    assert accept_legacy(sent, ARTEFACT) == original


@given(parts_strategy)
def test_the_typed_writer_never_emits_a_retired_key(parts: list[Any]) -> None:
    reading = read_snapshot(snake_cased(with_parts(*parts)))
    assert reading.snapshot is not None
    assert deny_scan(reading.snapshot.model_dump(mode="json"), ARTEFACT) == []
