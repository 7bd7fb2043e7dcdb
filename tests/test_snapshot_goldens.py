"""The snapshot goldens (`golden/snapshot/<case>/`) against what the seed's tests pin (research A.5).

Each expectation below is written out by hand from the seed's assertions, not computed by turnwire, so
a change to a projection or assembly rule that alters a golden fails here as well as in the drift
check. The files are read from disk: what is checked in is what is judged.
"""

from __future__ import annotations

from typing import Any

import pytest

from turnwire.canonical import file_bytes, loads
from turnwire.profiles import ALL_PROFILES
from turnwire.resources import golden_dir
from turnwire.snapshot.cases import CASES
from turnwire.snapshot.check import check_snapshot, read_snapshot
from turnwire.snapshot.legacy import SnapshotSources
from turnwire.snapshot.projection import assemble_snapshot, check_assembly

SLUGS = [c.slug for c in CASES]


def golden(slug: str, name: str) -> Any:
    return loads((golden_dir() / "snapshot" / slug / name).read_bytes())


def kinds(snapshot: dict[str, Any]) -> list[str]:
    return [p["type"] for p in snapshot["parts"]]


def test_one_golden_folder_per_case_and_nothing_else() -> None:
    folders = sorted(p.name for p in (golden_dir() / "snapshot").iterdir())
    assert folders == sorted(SLUGS)
    for slug in SLUGS:
        assert sorted(p.name for p in (golden_dir() / "snapshot" / slug).iterdir()) == ["snapshot.json", "sources.json"]


@pytest.mark.parametrize("slug", SLUGS)
def test_golden_is_the_assembly_of_its_sources(slug: str) -> None:
    sources = SnapshotSources.model_validate(golden(slug, "sources.json"))
    assert golden(slug, "snapshot.json") == assemble_snapshot(sources)
    assert check_assembly(golden(slug, "snapshot.json"), sources) == []


@pytest.mark.parametrize("slug", SLUGS)
def test_golden_keeps_the_contract_in_every_profile(slug: str) -> None:
    for profile in ALL_PROFILES:
        assert check_snapshot(golden(slug, "snapshot.json"), profile, payloads=True) == []


@pytest.mark.parametrize("slug", SLUGS)
def test_golden_has_what_the_http_contract_asserts(slug: str) -> None:
    snapshot = golden(slug, "snapshot.json")
    assert snapshot["turn_id"] == "turn-1"
    assert snapshot["chat_id"] == "chat-1"
    assert snapshot["role"] == "assistant"
    assert snapshot["schema_version"] == "agent-runtime-v3.1"
    assert {"status", "parts"} <= snapshot.keys()
    assert "bot_id" not in snapshot


@pytest.mark.parametrize("slug", SLUGS)
def test_typed_writer_reproduces_the_golden_bytes(slug: str) -> None:
    path = golden_dir() / "snapshot" / slug / "snapshot.json"
    for profile in ALL_PROFILES:
        reading = read_snapshot(loads(path.read_bytes()), profile)
        assert reading.snapshot is not None
        assert file_bytes(reading.snapshot.model_dump(mode="json")) == path.read_bytes()


def test_answer_text() -> None:
    snapshot = golden("answer-text", "snapshot.json")
    assert snapshot["parts"] == [{"type": "text", "text": "ApeRAG is great"}]


def test_reference_bundle() -> None:
    snapshot = golden("reference-bundle", "snapshot.json")
    assert kinds(snapshot) == ["source-url", "data-citation", "source-url", "data-citation"]
    assert snapshot["parts"][0]["sourceId"] == "src-1"
    assert snapshot["parts"][0]["url"] == "https://example.com/a"
    assert snapshot["parts"][1]["data"]["cited_text"] == "ApeRAG is a RAG platform"
    assert snapshot["parts"][1]["data"]["location"]["url"] == "https://example.com/a"


def test_reference_without_uri() -> None:
    snapshot = golden("reference-without-uri", "snapshot.json")
    assert kinds(snapshot) == ["data-citation"]
    assert snapshot["parts"][0]["data"]["location"]["url"] == ""
    assert snapshot["parts"][0]["data"]["location"]["title"] == "PDF chapter"


def test_answer_first() -> None:
    sources = golden("answer-first", "sources.json")
    assert [a["artifact_type"] for a in sources["artifact_rows"]] == ["reference_bundle", "answer"]
    assert kinds(golden("answer-first", "snapshot.json")) == ["text", "source-url", "data-citation"]


def test_summary_skipped() -> None:
    assert golden("summary-skipped", "snapshot.json")["parts"] == []


@pytest.mark.parametrize(
    ("slug", "error_text"),
    [("error-from-payload", "upstream timeout"), ("error-from-summary", "from-summary"), ("error-none", None)],
)
def test_error_text(slug: str, error_text: str | None) -> None:
    snapshot = golden(slug, "snapshot.json")
    assert snapshot["status"] == "FAILED"
    assert snapshot["error_text"] == error_text


def test_completed_turn() -> None:
    snapshot = golden("completed-turn", "snapshot.json")
    assert (snapshot["status"], snapshot["timeline_cursor"], snapshot["error_text"]) == ("COMPLETED", 2, None)
    assert kinds(snapshot) == ["text", "source-url", "data-citation"]
    assert snapshot["parts"][0]["text"] == "Hello world"
    assert snapshot["parts"][1]["sourceId"] == "src-1"
    assert snapshot["parts"][2]["data"]["cited_text"] == "ApeRAG is great"
    assert snapshot["parts"][2]["data"]["location"]["url"] == "https://example.com/a"


def test_failed_turn() -> None:
    snapshot = golden("failed-turn", "snapshot.json")
    assert golden("failed-turn", "sources.json")["turn_row"]["error_message"] == "upstream timeout"
    assert snapshot["status"] == "FAILED"
    assert snapshot["error_text"] == "Detailed: upstream timeout after 30s"
    assert snapshot["parts"] == []


def test_queued_turn_has_no_legacy_keys() -> None:
    snapshot = golden("queued-turn", "snapshot.json")
    assert {"turn", "timeline", "artifacts"}.isdisjoint(snapshot)
    reading = read_snapshot(snapshot)
    assert reading.snapshot is not None
    assert not hasattr(reading.snapshot, "timeline")
    assert not hasattr(reading.snapshot, "artifacts")
    assert (snapshot["status"], snapshot["parts"], snapshot["started_at"]) == ("QUEUED", [], None)


# ---- LEGACY-PROJECTION: a served snapshot that differs from its rows -------------------------------


def served_and_sources(slug: str) -> tuple[dict[str, Any], SnapshotSources]:
    return golden(slug, "snapshot.json"), SnapshotSources.model_validate(golden(slug, "sources.json"))


def test_wrong_error_text_source_is_a_projection_finding() -> None:
    served, sources = served_and_sources("failed-turn")
    served["error_text"] = "upstream timeout"  # the row's message instead of the artifact's
    (finding,) = check_assembly(served, sources)
    assert (finding.requirement, finding.json_path) == ("LEGACY-PROJECTION", "$.error_text")
    assert finding.expected == '"Detailed: upstream timeout after 30s"'


def test_reordered_parts_are_projection_findings() -> None:
    served, sources = served_and_sources("answer-first")
    served["parts"] = served["parts"][1:] + served["parts"][:1]
    findings = check_assembly(served, sources)
    assert [f.json_path for f in findings] == ["$.parts[0]", "$.parts[1]", "$.parts[2]"]


def test_missing_citation_is_a_projection_finding() -> None:
    served, sources = served_and_sources("reference-without-uri")
    served["parts"] = []
    (finding,) = check_assembly(served, sources)
    assert finding.json_path == "$.parts"
    assert finding.expected == '["data-citation"]'
    assert finding.received == "[]"


def test_missing_key_and_non_object_are_projection_findings() -> None:
    served, sources = served_and_sources("completed-turn")
    del served["timeline_cursor"]
    (finding,) = check_assembly(served, sources)
    assert (finding.json_path, finding.received) == ("$.timeline_cursor", "absent")
    assert [f.json_path for f in check_assembly([served], sources)] == ["$"]


def test_later_optional_keys_are_not_projection_findings() -> None:
    served, sources = served_and_sources("completed-turn")
    served.update(runtime_kind="agent_runtime", input_text="hello")
    assert check_assembly(served, sources) == []
