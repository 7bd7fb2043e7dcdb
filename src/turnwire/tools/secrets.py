"""Secret values: how they are held, when they are written out, and how output is scrubbed of them.

The `/run` request must carry secrets (`secrets`, a code tool's `env`, an MCP server's `env`, the
`authorization` of the tool callback and of the trace), but nothing else turnwire produces may: no
repr, log line, error message, finding or golden. So every secret-bearing field is a `Secret`
(pydantic's `SecretStr`, masked in repr and str) whose serializer writes the mask unless the caller
asks for the wire explicitly with the `REVEAL_SECRETS` context — the only place that does is the
`to_wire()` of the wire models. A plain `model_dump()` (what a report would print) stays masked.

`Redactor` is the second line of defence for text that did not come from a model (a target's body, a
finding built from it): it replaces every known secret value by the mask, longest first.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Annotated, Any, Final

from pydantic import PlainSerializer, SecretStr, SerializationInfo

from turnwire.findings import Finding

__all__ = ["REDACTED", "REVEAL_SECRETS", "MissingSecretPolicy", "Redactor", "Secret", "redact", "reveal"]

REDACTED: Final = "**********"
"""What a secret value is replaced by (the same mask pydantic's `SecretStr` shows)."""

_REVEAL_KEY: Final = "turnwire.reveal_secrets"
REVEAL_SECRETS: Final[Mapping[str, bool]] = {_REVEAL_KEY: True}
"""Serialization context that makes `Secret` fields write their value: only for building the wire."""


def _serialize_secret(value: SecretStr, info: SerializationInfo) -> str:
    context = info.context
    if isinstance(context, Mapping) and context.get(_REVEAL_KEY) is True:
        return value.get_secret_value()
    return REDACTED


Secret = Annotated[SecretStr, PlainSerializer(_serialize_secret, return_type=str)]
"""A secret string field: masked in repr, str and every dump except one with `REVEAL_SECRETS`."""


def reveal(value: SecretStr | None) -> str | None:
    """The plain value of an optional secret (for code that builds the wire by hand)."""
    return None if value is None else value.get_secret_value()


class MissingSecretPolicy(StrEnum):
    """What a resolver does when the provider lacks a declared secret."""

    ERROR = "error"
    """Raise a typed missing-secret error naming the tool (or server) and the secret names."""
    OMIT = "omit"
    """Resolve anyway; the missing secrets are simply absent from `env`."""


class Redactor:
    """Replaces known secret values in text, JSON values and findings by `REDACTED`."""

    def __init__(self, secrets: Iterable[str | SecretStr] = ()) -> None:
        values = {s.get_secret_value() if isinstance(s, SecretStr) else s for s in secrets}
        values.discard("")
        # Longest first, so a secret that contains another is masked whole.
        self._values = tuple(sorted(values, key=lambda v: (-len(v), v)))

    @property
    def values(self) -> tuple[str, ...]:
        """The secret values this redactor masks (never print these)."""
        return self._values

    def __bool__(self) -> bool:
        return bool(self._values)

    def __repr__(self) -> str:
        return f"Redactor(<{len(self._values)} secret(s)>)"

    def merged(self, other: Redactor) -> Redactor:
        """A redactor masking the secrets of both."""
        return Redactor((*self._values, *other._values))

    def text(self, text: str) -> str:
        """`text` with every secret value replaced by the mask."""
        for value in self._values:
            if value in text:
                text = text.replace(value, REDACTED)
        return text

    def json(self, value: Any) -> Any:
        """A copy of a JSON value with the mask in place of secrets, in strings and object keys."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, Mapping):
            return {self.text(str(k)): self.json(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.json(v) for v in value]
        return value

    def finding(self, finding: Finding) -> Finding:
        """`finding` with its message, expected and received text redacted."""
        if not self._values:
            return finding
        return finding.model_copy(
            update={
                "message": self.text(finding.message),
                "expected": None if finding.expected is None else self.text(finding.expected),
                "received": None if finding.received is None else self.text(finding.received),
                "json_path": None if finding.json_path is None else self.text(finding.json_path),
            }
        )

    def findings(self, findings: Iterable[Finding]) -> list[Finding]:
        """Every finding redacted."""
        return [self.finding(f) for f in findings]


def redact(text: str, secrets: Iterable[str | SecretStr]) -> str:
    """`text` with every value of `secrets` replaced by `REDACTED`."""
    return Redactor(secrets).text(text)
