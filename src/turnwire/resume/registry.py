"""The extension-payload registry: which typed model each `x.` event kind carries.

A session timeline is durable, so an extension event must read back as the same typed payload it was
written with. The registry is the single map from extension kind to payload model: decoding a
registered kind yields the model; encoding checks that a payload belongs to the kind it is written
under; a typed payload no kind is registered for cannot be encoded at all (it would come back as
anonymous JSON). An unregistered kind met while *reading* a target's log is kept as raw JSON with a
SHOULD finding: another runtime's extensions are not an error, only unverifiable.

Registries are immutable: `extended` returns a new one, so no caller changes what another one reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from pydantic import MISSING, BaseModel, ValidationError

from turnwire.canonical import CanonicalError, JSONValue, dumps, loads
from turnwire.findings import Finding
from turnwire.resume._base import describe, validate_json_value
from turnwire.resume.errors import (
    DuplicateRegistration,
    ExtensionKindError,
    InvalidPayload,
    PayloadKindMismatch,
    UnregisteredPayload,
)
from turnwire.resume.permission import PERMISSION_DECISION_KIND, PermissionDecision

__all__ = ["EXTENSION_PREFIX", "PayloadRegistry", "default_registry", "is_extension_kind"]

EXTENSION_PREFIX = "x."
"""Every extension kind starts with this prefix; built-in kinds never do."""


def is_extension_kind(kind: str) -> bool:
    """True for a well-formed extension kind: `x.` followed by at least one character."""
    return kind.startswith(EXTENSION_PREFIX) and len(kind) > len(EXTENSION_PREFIX)


class PayloadRegistry:
    """An immutable map from extension kind to payload model (and back)."""

    def __init__(self, entries: Mapping[str, type[BaseModel]] | None = None) -> None:
        by_kind: dict[str, type[BaseModel]] = {}
        by_model: dict[type[BaseModel], str] = {}
        for kind, model in (entries or {}).items():
            if not is_extension_kind(kind):
                raise ExtensionKindError(f"extension kind {kind!r} must start with {EXTENSION_PREFIX!r}")
            if model in by_model:
                raise DuplicateRegistration(
                    f"payload model {model.__name__} is already registered for {by_model[model]!r}"
                )
            by_kind[kind] = model
            by_model[model] = kind
        self._by_kind = MappingProxyType(by_kind)
        self._by_model = MappingProxyType(by_model)

    def extended(self, kind: str, model: type[BaseModel]) -> PayloadRegistry:
        """A new registry with `kind` → `model` added; raises if either is already registered."""
        if kind in self._by_kind:
            raise DuplicateRegistration(f"extension kind {kind!r} is already registered")
        return PayloadRegistry({**self._by_kind, kind: model})

    @property
    def kinds(self) -> Mapping[str, type[BaseModel]]:
        """Every registered kind and its payload model."""
        return self._by_kind

    def model_for(self, kind: str) -> type[BaseModel] | None:
        """The payload model registered for `kind`, or None."""
        return self._by_kind.get(kind)

    def kind_of(self, payload: BaseModel) -> str:
        """The kind a typed payload is registered under; raises `UnregisteredPayload` when none."""
        kind = self._by_model.get(type(payload))
        if kind is None:
            known = ", ".join(f"{m.__name__} ({k})" for k, m in sorted(self._by_kind.items())) or "none"
            raise UnregisteredPayload(
                f"cannot encode a {type(payload).__name__} payload: no extension kind is registered for it "
                f"(registered: {known})"
            )
        return kind

    def encode(self, kind: str, data: object) -> JSONValue:
        """The JSON of an extension payload written under `kind`, checked against the registry.

        A typed payload must be registered, and registered for `kind`; raw JSON under a registered kind
        must validate against its model; raw JSON under an unregistered kind is written as it is.
        """
        if not is_extension_kind(kind):
            raise ExtensionKindError(f"extension kind {kind!r} must start with {EXTENSION_PREFIX!r}")
        if isinstance(data, BaseModel):
            registered = self.kind_of(data)
            if registered != kind:
                raise PayloadKindMismatch(f"a {type(data).__name__} payload belongs to {registered!r}, not {kind!r}")
            out: JSONValue = data.model_dump(mode="json", by_alias=True)
            return out
        model = self._by_kind.get(kind)
        if model is None:
            return _json(data)
        try:
            typed = validate_json_value(model, data)
        except (ValidationError, CanonicalError) as exc:
            why = describe(exc) if isinstance(exc, ValidationError) else str(exc)
            raise InvalidPayload(f"payload of {kind!r} is not a valid {model.__name__}: {why}") from None
        encoded: JSONValue = typed.model_dump(mode="json", by_alias=True)
        return encoded

    def decode(self, kind: str, data: object, *, json_path: str = "$") -> tuple[Any, list[Finding]]:
        """Read an extension payload: the typed model for a registered kind, raw JSON otherwise.

        Never raises on a target's data: an unregistered kind gives an `EVENT-EXTENSION-UNREGISTERED`
        finding, a payload that does not fit its kind's model an `EVENT-PAYLOAD-INVALID` one; in both
        cases the raw JSON is returned.
        """
        model = self._by_kind.get(kind)
        if model is None:
            return data, [
                Finding.of(
                    "EVENT-EXTENSION-UNREGISTERED",
                    f"extension kind {kind!r} has no registered payload model; its data is kept as raw JSON",
                    expected="one of " + (", ".join(sorted(self._by_kind)) or "no kinds"),
                    received=kind,
                    json_path=json_path,
                )
            ]
        if data is MISSING:
            return data, [
                Finding.of(
                    "EVENT-PAYLOAD-INVALID",
                    f"the {kind!r} event has no data; its payload is a {model.__name__}",
                    expected=model.__name__,
                    received="no data",
                    json_path=json_path,
                )
            ]
        try:
            return validate_json_value(model, data), []
        except (ValidationError, CanonicalError) as exc:
            why = describe(exc) if isinstance(exc, ValidationError) else str(exc)
            return data, [
                Finding.of(
                    "EVENT-PAYLOAD-INVALID",
                    f"the payload of {kind!r} is not a valid {model.__name__}: {why}",
                    expected=model.__name__,
                    json_path=json_path,
                )
            ]


def _json(data: object) -> JSONValue:
    """Raw JSON passes through unchanged once it is known to be JSON at all."""
    try:
        return loads(dumps(data))
    except CanonicalError as exc:
        raise InvalidPayload(f"extension data is not a JSON value: {exc}") from None


_DEFAULT = PayloadRegistry({PERMISSION_DECISION_KIND: PermissionDecision})


def default_registry() -> PayloadRegistry:
    """The registry of the payloads turnwire itself defines (`x.permission.decision`)."""
    return _DEFAULT
