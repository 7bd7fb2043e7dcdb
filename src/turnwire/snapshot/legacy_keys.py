"""The legacy-key registry (`conformance/legacy-keys.yaml`) and the deny-scan over it.

Why a registry: a retired key is retired from one place only. `turn` is gone from the top of a
snapshot response but is still the body of the create-turn response; `error_text` is gone from parts
but is a current envelope key of the snapshot. A plain "forbidden names" list would flag the current
uses, so each entry names its artefact and the JSON location of the object it was retired from.

Two consumers read the same entries:

* `deny_scan` judges a **writer**: every registered key found at its location is a
  `LEGACY-KEY-EMITTED` finding with its JSON path, whether or not readers still accept it.
* `accept_legacy` is what a **reader** does with the entries marked `readers_accept`: the retired key
  is read as its replacement (populate by name). Keys readers no longer accept are left in place, so
  the reader's own validation rejects them.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

from turnwire.findings import Finding, json_path
from turnwire.resources import conformance_dir

__all__ = [
    "ARTEFACTS",
    "Artefact",
    "LegacyKey",
    "LegacyKeyError",
    "accept_legacy",
    "deny_scan",
    "legacy_keys",
    "load_legacy_keys",
    "registry_path",
]

Artefact = Literal["agent-turn-snapshot", "ui-message"]
"""An artefact the registry retires keys from (any other artefact has no retired keys)."""

ARTEFACTS: tuple[str, ...] = ("agent-turn-snapshot", "ui-message")

_SEGMENT = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[\*\]")
_KEY_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

Segment = str | None
"""One step of a location: a key name, or None for `[*]` (every item of an array)."""


class LegacyKeyError(ValueError):
    """The registry file is malformed (turnwire's own data, so an error, not a finding)."""


def _segments(location: str) -> tuple[Segment, ...]:
    if not location.startswith("$"):
        raise ValueError(f"location {location!r} must start with '$'")
    rest, out, pos = location[1:], [], 0
    while pos < len(rest):
        m = _SEGMENT.match(rest, pos)
        if m is None:
            raise ValueError(f"location {location!r}: cannot read {rest[pos:]!r} (use .name and [*] only)")
        out.append(m.group(1))
        pos = m.end()
    return tuple(out)


class LegacyKey(BaseModel):
    """One retired key at one location of one artefact."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    key: str = Field(min_length=1)
    artefact: Artefact
    location: str
    since: str = Field(min_length=1)
    source: str = Field(min_length=1)
    replacement: str = Field(min_length=1)
    readers_accept: bool

    @model_validator(mode="after")
    def _consistent(self) -> LegacyKey:
        _segments(self.location)
        if self.readers_accept and not _KEY_NAME.match(self.replacement):
            raise ValueError(f"{self.key}: readers accept it, so its replacement must be a key name")
        if self.readers_accept and self.replacement == self.key:
            raise ValueError(f"{self.key}: the replacement must differ from the retired key")
        return self

    @property
    def segments(self) -> tuple[Segment, ...]:
        """The location as steps (key names, None for `[*]`)."""
        return _segments(self.location)


_ENTRIES = TypeAdapter(list[LegacyKey])


def registry_path() -> Path:
    """Path of the legacy-key registry file."""
    return conformance_dir() / "legacy-keys.yaml"


def load_legacy_keys(path: Path | None = None) -> tuple[LegacyKey, ...]:
    """Read and check a registry file; raises `LegacyKeyError` naming the file when it is malformed."""
    path = registry_path() if path is None else path
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError, UnicodeDecodeError) as e:
        raise LegacyKeyError(f"{path}: cannot read: {e}") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("legacy_keys"), list):
        raise LegacyKeyError(f"{path}: expected a mapping with a 'legacy_keys' list")
    try:
        entries = tuple(_ENTRIES.validate_python(raw["legacy_keys"]))
    except ValidationError as e:
        raise LegacyKeyError(f"{path}: invalid entry: {e}") from None
    seen: set[tuple[str, str, str]] = set()
    for entry in entries:
        ident = (entry.artefact, entry.location, entry.key)
        if ident in seen:
            raise LegacyKeyError(f"{path}: {entry.key!r} at {entry.location} of {entry.artefact} is listed twice")
        seen.add(ident)
    return entries


@cache
def legacy_keys() -> tuple[LegacyKey, ...]:
    """Every registered legacy key (loaded once)."""
    return load_legacy_keys()


def _objects_at(
    value: Any, segments: tuple[Segment, ...], where: tuple[str | int, ...] = ()
) -> Iterator[tuple[dict[str, Any], tuple[str | int, ...]]]:
    """Every JSON object at `segments` below `value`, with its path (items that do not fit are skipped)."""
    if not segments:
        if isinstance(value, dict):
            yield value, where
        return
    step, rest = segments[0], segments[1:]
    if step is None:
        if isinstance(value, list):
            for i, item in enumerate(value):
                yield from _objects_at(item, rest, (*where, i))
    elif isinstance(value, dict) and step in value:
        yield from _objects_at(value[step], rest, (*where, step))


def _entries_for(artefact: str, registry: tuple[LegacyKey, ...] | None) -> list[LegacyKey]:
    return [e for e in (legacy_keys() if registry is None else registry) if e.artefact == artefact]


def deny_scan(value: Any, artefact: str, *, registry: tuple[LegacyKey, ...] | None = None) -> list[Finding]:
    """A `LEGACY-KEY-EMITTED` finding for every registered key of `artefact` found at its location.

    An artefact the registry does not name (the create-turn response, say) has no retired keys.
    Findings are ordered by JSON path.
    """
    hits: list[tuple[tuple[str | int, ...], LegacyKey]] = []
    for entry in _entries_for(artefact, registry):
        for obj, where in _objects_at(value, entry.segments):
            if entry.key in obj:
                hits.append(((*where, entry.key), entry))
    hits.sort(key=lambda hit: json_path(hit[0]))
    findings: list[Finding] = []
    for where, entry in hits:
        reading = "readers still accept it" if entry.readers_accept else "readers no longer read it"
        findings.append(
            Finding.of(
                "LEGACY-KEY-EMITTED",
                f"{entry.artefact} carries {entry.key!r}, retired at {entry.location} since {entry.since} "
                f"({reading}); replaced by: {entry.replacement}",
                expected=entry.replacement,
                received=entry.key,
                json_path=json_path(where),
            )
        )
    return findings


def accept_legacy(value: Any, artefact: str, *, registry: tuple[LegacyKey, ...] | None = None) -> Any:
    """`value` read the way readers read it: each retired key they accept becomes its replacement.

    When the replacement is already present it wins and the retired key is dropped. Keys readers no
    longer accept stay where they are. `value` itself is never changed: the result is a copy (or
    `value` unchanged when the artefact has no key readers accept).
    """
    accepted = [e for e in _entries_for(artefact, registry) if e.readers_accept]
    if not accepted:
        return value
    out = copy.deepcopy(value)
    for entry in accepted:
        for obj, _ in _objects_at(out, entry.segments):
            if entry.key in obj:
                retired = obj.pop(entry.key)
                obj.setdefault(entry.replacement, retired)
    return out
