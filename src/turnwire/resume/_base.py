"""What every model of the interrupt / resume contract shares: strict, closed, snake_case, JSON-judged.

Internal: nothing here is public API.

Why strict and JSON-mode: these models judge what a runtime stored or sent. In lax mode pydantic would
read `"2"` as version 2, `1` as `true` and a Unix number as a timestamp; in strict *Python* mode it
would refuse the ISO strings and enum values a JSON document actually holds. Validating the JSON text
in strict JSON mode accepts exactly the JSON spelling and nothing looser.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from turnwire.canonical import dumps
from turnwire.findings import json_path

NonEmptyStr = Annotated[str, Field(min_length=1)]
"""A string that must not be empty (ids, names, messages that carry meaning)."""

JSONObject = dict[str, Any]
"""A JSON object whose content this contract does not constrain."""


class ContractModel(BaseModel):
    """Base of every resume-contract model: unknown keys forbidden, no coercion, immutable."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    def to_json(self) -> dict[str, Any]:
        """The JSON value of this model as it is written: absent optional fields are left out."""
        data: dict[str, Any] = self.model_dump(mode="json", by_alias=True)
        return data


M = TypeVar("M", bound=BaseModel)


def validate_json_value(model: type[M], raw: object) -> M:
    """Validate a parsed JSON value in strict JSON mode.

    Raises `pydantic.ValidationError` for a shape mismatch and `turnwire.canonical.CanonicalError`
    when `raw` is not a JSON value at all (NaN, a non-string key, a Python object).
    """
    return model.model_validate_json(dumps(raw))


def describe(exc: ValidationError) -> str:
    """A one-line account of a validation error: `path: message` for each problem."""
    bits = []
    for err in exc.errors(include_url=False):
        where = json_path([p for p in err["loc"] if isinstance(p, (str, int))])
        bits.append(f"{where}: {err['msg']}")
    return "; ".join(bits)
