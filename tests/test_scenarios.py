"""The scenario files and their loader (`turnwire.generate.scenarios`)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from turnwire.generate.scenarios import Scenario, ScenarioError, load_scenarios
from turnwire.profiles import ALL_PROFILES, Profile

V5, V6, V7 = Profile.V5, Profile.V6, Profile.V7

REQUIRED: dict[str, tuple[Profile, ...]] = {
    "text": (V5, V6, V7),
    "reasoning-text": (V5, V6, V7),
    "tool-input-streaming": (V5, V6, V7),
    "tool-output-error": (V5, V6, V7),
    "dynamic-tool": (V5, V6, V7),
    "sources-citation": (V5, V6, V7),
    "data-transient-update": (V5, V6, V7),
    "message-metadata": (V5, V6, V7),
    "multi-step": (V5, V6, V7),
    "file": (V5, V6, V7),
    "error": (V5, V6, V7),
    "abort": (V5, V6, V7),
    "tool-approval-request": (V6, V7),
    "tool-approval-approved": (V6, V7),
    "tool-approval-denied": (V6, V7),
}

APPROVAL_CHUNKS = {"tool-approval-request", "tool-approval-response", "tool-output-denied"}
V7_ONLY_CHUNKS = {"tool-approval-response", "custom", "reasoning-file", "steering-message", "reset-step"}


def write(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


def scenario_yaml(slug: str, variants: str | None = None) -> str:
    variants = (
        variants
        or """\
        variants:
          - profiles: [ai-sdk-v5, ai-sdk-v6, ai-sdk-v7]
            chunks:
              - {"type": "start"}
              - {"type": "finish"}
        """
    )
    return f"slug: {slug}\ntitle: T\ndescription: D\n" + textwrap.dedent(variants)


@pytest.fixture(scope="module")
def scenarios() -> list[Scenario]:
    return load_scenarios()


# ---- the checked-in scenarios ---------------------------------------------------------------------


def test_sorted_by_slug(scenarios: list[Scenario]) -> None:
    slugs = [s.slug for s in scenarios]
    assert slugs == sorted(slugs)


@pytest.mark.parametrize(("slug", "profiles"), REQUIRED.items())
def test_required_scenario_present(scenarios: list[Scenario], slug: str, profiles: tuple[Profile]) -> None:
    by_slug = {s.slug: s for s in scenarios}
    assert slug in by_slug
    assert tuple(by_slug[slug].profiles) == profiles


def test_every_chunk_type_is_a_string(scenarios: list[Scenario]) -> None:
    for s in scenarios:
        for v in s.variants:
            for chunk in v.chunks:
                assert isinstance(chunk.get("type"), str), (s.slug, chunk)


def test_approval_scenarios_only_for_v6_and_v7(scenarios: list[Scenario]) -> None:
    for s in scenarios:
        if s.slug.startswith("tool-approval"):
            assert V5 not in s.profiles
            assert set(s.profiles) == {V6, V7}
        v5 = s.variant(V5)
        if v5 is not None:
            assert not {c["type"] for c in v5.chunks} & APPROVAL_CHUNKS, s.slug


def test_v7_only_chunk_types_stay_in_v7_variants(scenarios: list[Scenario]) -> None:
    for s in scenarios:
        for v in s.variants:
            if {c["type"] for c in v.chunks} & V7_ONLY_CHUNKS:
                assert v.profiles == [V7], s.slug


def test_v6_approval_replies_are_continuations(scenarios: list[Scenario]) -> None:
    by_slug = {s.slug: s for s in scenarios}
    for slug, approved in (("tool-approval-approved", True), ("tool-approval-denied", False)):
        v6 = by_slug[slug].variant(V6)
        assert v6 is not None
        assert v6.prior is not None
        tool = next(p for p in v6.prior["parts"] if p["type"].startswith("tool-"))
        assert tool["state"] == "approval-responded"
        assert tool["approval"]["approved"] is approved
        assert v6.chunks[0] == {"type": "start", "messageId": v6.prior["id"]}
        v7 = by_slug[slug].variant(V7)
        assert v7 is not None
        assert v7.prior is None
        assert [c["type"] for c in v7.chunks if c["type"].startswith("tool-approval")] == [
            "tool-approval-request",
            "tool-approval-response",
        ]


def test_every_variant_starts_and_ends_like_a_server_stream(scenarios: list[Scenario]) -> None:
    for s in scenarios:
        for v in s.variants:
            assert v.chunks[0]["type"] == "start", s.slug
            assert v.chunks[-1]["type"] in {"finish", "abort"}, s.slug


def test_variant_lookup(scenarios: list[Scenario]) -> None:
    abort = next(s for s in scenarios if s.slug == "abort")
    v5, v6 = abort.variant(V5), abort.variant(V6)
    assert v5 is not None
    assert v6 is not None
    assert v5 is not v6
    assert abort.variant(V7) is v6
    request = next(s for s in scenarios if s.slug == "tool-approval-request")
    assert request.variant(V5) is None


def test_timestamps_stay_strings(scenarios: list[Scenario]) -> None:
    meta = next(s for s in scenarios if s.slug == "message-metadata")
    variant = meta.variant(V7)
    assert variant is not None
    assert isinstance(variant.chunks[0]["messageMetadata"]["createdAt"], str)


# ---- the loader ----------------------------------------------------------------------------------


def test_load_from_folder(tmp_path: Path) -> None:
    write(tmp_path, "b.yaml", scenario_yaml("b"))
    write(tmp_path, "a.yaml", scenario_yaml("a"))
    loaded = load_scenarios(tmp_path)
    assert [s.slug for s in loaded] == ["a", "b"]
    assert loaded[0].profiles == list(ALL_PROFILES)


def test_profiles_in_canonical_order(tmp_path: Path) -> None:
    write(
        tmp_path,
        "x.yaml",
        scenario_yaml(
            "x",
            """\
            variants:
              - profiles: [ai-sdk-v7]
                chunks: [{"type": "start"}]
              - profiles: [ai-sdk-v5]
                chunks: [{"type": "start"}]
            """,
        ),
    )
    [x] = load_scenarios(tmp_path)
    assert x.profiles == [V5, V7]
    assert x.variant(V6) is None


def test_unquoted_timestamp_stays_a_string(tmp_path: Path) -> None:
    write(
        tmp_path,
        "x.yaml",
        scenario_yaml(
            "x",
            """\
            variants:
              - profiles: [ai-sdk-v7]
                chunks:
                  - {type: start, messageMetadata: {createdAt: 2026-11-21T10:00:00Z}}
            """,
        ),
    )
    [x] = load_scenarios(tmp_path)
    assert x.variants[0].chunks[0]["messageMetadata"]["createdAt"] == "2026-11-21T10:00:00Z"


@pytest.mark.parametrize(
    ("body", "match"),
    [
        pytest.param("slug: x\ntitle: [unclosed\n", "not valid YAML", id="bad-yaml"),
        pytest.param("- just\n- a list\n", "mapping", id="not-a-mapping"),
        pytest.param("slug: x\ntitle: T\ndescription: D\n", "variants", id="missing-variants"),
        pytest.param(scenario_yaml("x") + "extra: 1\n", "extra", id="unknown-key"),
        pytest.param(
            scenario_yaml("x", 'variants:\n  - profiles: [ai-sdk-v9]\n    chunks: [{"type": "start"}]\n'),
            "profiles",
            id="unknown-profile",
        ),
        pytest.param(
            scenario_yaml("x", 'variants:\n  - profiles: [ai-sdk-v7]\n    chunks: [{"id": "t"}]\n'),
            "type",
            id="chunk-without-type",
        ),
        pytest.param(
            scenario_yaml("x", 'variants:\n  - profiles: [ai-sdk-v7]\n    chunks: [{"type": 3}]\n'),
            "type",
            id="chunk-type-not-string",
        ),
        pytest.param(
            scenario_yaml("x", "variants:\n  - profiles: [ai-sdk-v7]\n    chunks: []\n"),
            "chunks",
            id="no-chunks",
        ),
        pytest.param(
            scenario_yaml("x", 'variants:\n  - profiles: [ai-sdk-v7]\n    chunks: [{"type": .nan}]\n'),
            "JSON",
            id="not-json",
        ),
    ],
)
def test_malformed_file(tmp_path: Path, body: str, match: str) -> None:
    path = write(tmp_path, "x.yaml", body)
    with pytest.raises(ScenarioError, match=match) as info:
        load_scenarios(tmp_path)
    assert str(path) in str(info.value)


def test_duplicate_slug(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", scenario_yaml("a"))
    second = write(tmp_path, "b.yaml", scenario_yaml("a"))
    with pytest.raises(ScenarioError, match="duplicate slug 'a'") as info:
        load_scenarios(tmp_path)
    assert str(second) in str(info.value)
    assert str(tmp_path / "a.yaml") in str(info.value)


def test_slug_differs_from_file_name(tmp_path: Path) -> None:
    path = write(tmp_path, "text.yaml", scenario_yaml("plain-text"))
    with pytest.raises(ScenarioError, match="differs from the file name") as info:
        load_scenarios(tmp_path)
    assert str(path) in str(info.value)


def test_bad_slug_shape(tmp_path: Path) -> None:
    write(tmp_path, "Bad_Slug.yaml", scenario_yaml("Bad_Slug"))
    with pytest.raises(ScenarioError, match="slug"):
        load_scenarios(tmp_path)


def test_profile_in_two_variants(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "x.yaml",
        scenario_yaml(
            "x",
            """\
            variants:
              - profiles: [ai-sdk-v6, ai-sdk-v7]
                chunks: [{"type": "start"}]
              - profiles: [ai-sdk-v7]
                chunks: [{"type": "start"}]
            """,
        ),
    )
    with pytest.raises(ScenarioError, match="ai-sdk-v7 appears in more than one variant") as info:
        load_scenarios(tmp_path)
    assert str(path) in str(info.value)


def test_profile_twice_in_one_variant(tmp_path: Path) -> None:
    write(
        tmp_path,
        "x.yaml",
        scenario_yaml("x", 'variants:\n  - profiles: [ai-sdk-v7, ai-sdk-v7]\n    chunks: [{"type": "start"}]\n'),
    )
    with pytest.raises(ScenarioError, match="listed twice"):
        load_scenarios(tmp_path)


def test_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="not found"):
        load_scenarios(tmp_path / "nope")


def test_scenario_error_is_a_value_error() -> None:
    assert issubclass(ScenarioError, ValueError)
