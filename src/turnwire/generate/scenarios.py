"""Scenarios: the scripted agent turns, defined once as data.

Each file `conformance/scenarios/<slug>.yaml` holds one scripted turn. The same script drives the
golden generator, the reference runtime's scripted model and the conformance runner, so a turn is never
written twice. Format::

    slug: tool-approval-approved          # must equal the file name without ".yaml"
    title: Tool call approved by the user # one line
    description: >-                       # what the turn exercises, one or two sentences
      ...
    variants:                             # one entry per distinct wire shape
      - profiles: [ai-sdk-v7]             # which profiles this variant serves
        chunks:                           # UI message stream chunks, in order, one JSON object each
          - {"type": "start", "messageId": "msg-1"}
          - ...
      - profiles: [ai-sdk-v6]
        prior: {...}                      # optional: the UIMessage the client already holds
        chunks: [...]                     #   (a continuation); the stream then extends it

Rules: a profile appears in at most one variant of a scenario (a profile absent from every variant
does not run the scenario); every chunk is a JSON object whose `type` is a string; values are plain
JSON (the YAML loader keeps date-like scalars as strings). The stream's `data: [DONE]` terminator is
not a chunk and is not listed. Ids are the ones `turnwire.normalise.Normaliser` produces (`msg-1`,
`text-1`, `call-1`, `approval-1`, `source-1`, `data-1`), so a script is already in normal form.

A malformed file, a duplicate slug, a slug that differs from its file name or a profile listed in two
variants raises `ScenarioError`, which names the file. (Scenario files are turnwire's own data, so
these are errors, not findings.)
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from turnwire.profiles import ALL_PROFILES, Profile
from turnwire.resources import conformance_dir

__all__ = ["Scenario", "ScenarioError", "Variant", "load_scenarios", "scenarios_dir"]

_SLUG = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"


class ScenarioError(ValueError):
    """A scenario file is malformed, or the set of scenario files is inconsistent."""


class Variant(BaseModel):
    """One wire shape of a scenario, shared by the profiles it lists."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    profiles: list[Profile] = Field(min_length=1)
    prior: dict[str, Any] | None = None
    chunks: list[dict[str, Any]] = Field(min_length=1)

    @field_validator("profiles")
    @classmethod
    def _distinct_profiles(cls, profiles: list[Profile]) -> list[Profile]:
        seen: set[Profile] = set()
        for p in profiles:
            if p in seen:
                raise ValueError(f"profile {p.value} is listed twice")
            seen.add(p)
        return profiles

    @field_validator("chunks")
    @classmethod
    def _chunks_have_type(cls, chunks: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for i, chunk in enumerate(chunks):
            if not isinstance(chunk.get("type"), str):
                raise ValueError(f"chunk {i} has no string 'type': {chunk!r}")
        return chunks


class Scenario(BaseModel):
    """One scripted turn, with a variant per wire shape."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    slug: str = Field(pattern=_SLUG)
    title: str = Field(min_length=1)
    description: str = Field(min_length=1)
    variants: list[Variant] = Field(min_length=1)

    @model_validator(mode="after")
    def _profile_in_one_variant(self) -> Scenario:
        seen: set[Profile] = set()
        for variant in self.variants:
            for p in variant.profiles:
                if p in seen:
                    raise ValueError(f"profile {p.value} appears in more than one variant")
                seen.add(p)
        return self

    @property
    def profiles(self) -> list[Profile]:
        """Every profile this scenario serves, in `ALL_PROFILES` order."""
        listed = {p for v in self.variants for p in v.profiles}
        return [p for p in ALL_PROFILES if p in listed]

    def variant(self, profile: Profile) -> Variant | None:
        """The variant serving `profile`, or None when the scenario does not apply to it."""
        for v in self.variants:
            if profile in v.profiles:
                return v
        return None


class _Loader(yaml.SafeLoader):
    """A safe YAML loader that keeps timestamp-like scalars as strings (JSON has no dates)."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def scenarios_dir() -> Path:
    """The default scenario folder: `conformance/scenarios/`."""
    return conformance_dir() / "scenarios"


def _json_problem(value: Any, where: str) -> str | None:
    """Describe the first value that is not plain JSON, or return None."""
    if value is None or isinstance(value, bool | int | str):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{where}: {value!r} is not a JSON number"
    if isinstance(value, list):
        for i, item in enumerate(value):
            problem = _json_problem(item, f"{where}[{i}]")
            if problem:
                return problem
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"{where}: key {key!r} is not a string"
            problem = _json_problem(item, f"{where}.{key}")
            if problem:
                return problem
        return None
    return f"{where}: {type(value).__name__} {value!r} is not a JSON value"


def _describe(error: ValidationError) -> str:
    lines = []
    for e in error.errors():
        loc = ".".join(str(p) for p in e["loc"]) or "(top level)"
        lines.append(f"  {loc}: {e['msg']}")
    return "\n".join(lines)


def _load_file(path: Path) -> Scenario:
    try:
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)
    except (yaml.YAMLError, UnicodeDecodeError) as e:
        raise ScenarioError(f"{path}: not valid YAML: {e}") from None
    if not isinstance(raw, dict):
        raise ScenarioError(f"{path}: expected a mapping at the top level, got {type(raw).__name__}")
    problem = _json_problem(raw, "$")
    if problem:
        raise ScenarioError(f"{path}: not plain JSON data: {problem}")
    try:
        return Scenario.model_validate(raw)
    except ValidationError as e:
        raise ScenarioError(f"{path}: invalid scenario:\n{_describe(e)}") from None


def load_scenarios(directory: Path | None = None) -> list[Scenario]:
    """Load every `*.yaml` scenario in `directory` (default: `scenarios_dir()`), sorted by slug.

    Raises `ScenarioError` naming the offending file when a file is malformed, two files share a slug,
    or a slug differs from its file name.
    """
    folder = scenarios_dir() if directory is None else Path(directory)
    if not folder.is_dir():
        raise ScenarioError(f"{folder}: scenario folder not found")
    loaded = [(path, _load_file(path)) for path in sorted(folder.glob("*.yaml"))]
    by_slug: dict[str, Path] = {}
    for path, scenario in loaded:
        if scenario.slug in by_slug:
            other = by_slug[scenario.slug]
            raise ScenarioError(f"{path}: duplicate slug {scenario.slug!r} (also in {other})")
        by_slug[scenario.slug] = path
    for path, scenario in loaded:
        if scenario.slug != path.stem:
            raise ScenarioError(f"{path}: slug {scenario.slug!r} differs from the file name {path.stem!r}")
    return sorted((s for _, s in loaded), key=lambda s: s.slug)
