"""The target profile: how to talk to a live runtime, and what it claims to support.

Why a file: runtimes differ in paths, in how a scripted turn is requested and in what they implement,
yet the checks are the same. A target profile (`--target-profile FILE`, TOML) maps the contract's
operations onto one runtime's HTTP surface and lists the **capabilities** it claims; claimed
capabilities decide which checks run, and an unclaimed one is reported "not applicable" by the runner.
Every default describes the reference runtime (`turnwire serve`), so checking it needs no file.

Format (every key optional; see docs/conformance-live.md):

    capabilities = ["streaming", "stream-resumption", "snapshot", "resume", "expiry", "timeline", "run"]
    casing = "snake"                 # spelling of the keys turnwire builds: "snake" or "camel"
    scenarios = []                   # scenario slugs to drive; empty: every one the protocol profile has
    headers = { Authorization = "Bearer ${TOKEN}" }   # sent with every request, masked; ${NAME}: environment

    [routes]                         # paths under the API base; {chat_id} and {turn_id} are filled in
    create_turn = "/chats/{chat_id}/turns"
    ...

    [create_turn]                    # the create-turn body; a string "{name}" is replaced by the value
    body = { query = "{query}", scenario = "{scenario}", profile = "{profile}", approval_ttl_s = "{approval_ttl_s}" }
    turn_id = "turn.turn_id"         # where the answer holds the new turn's id (dotted path)

    [limits]                         # per-request bounds (the CLI's options override them)
    connect_timeout_s = 5.0
    read_timeout_s = 10.0
    total_timeout_s = 30.0
    max_response_bytes = 4194304
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from enum import StrEnum
from pathlib import Path
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from turnwire.conformance.model import Capability

__all__ = [
    "DEFAULT_CAPABILITIES",
    "TEMPLATE_NAMES",
    "Casing",
    "CreateTurnTemplate",
    "Limits",
    "Routes",
    "TargetProfile",
    "TargetProfileError",
    "load_target_profile",
    "render_template",
]

DEFAULT_CAPABILITIES: Final = tuple(c for c in Capability if c is not Capability.LEGACY_PLANTING)
"""What `turnwire serve` supports. Planting legacy state needs its `--test-hooks`, so it is not claimed
by default; the embedded runtime starts with the hooks on and claims it."""

_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_ENV = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")

TEMPLATE_NAMES: Final = ("query", "scenario", "profile", "approval_ttl_s", "idempotency_key", "chat_id")
"""The values a create-turn body template may name."""


def _placeholders(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [name for v in value.values() for name in _placeholders(v)]
    if isinstance(value, list):
        return [name for v in value for name in _placeholders(v)]
    return _PLACEHOLDER.findall(value) if isinstance(value, str) else []


class TargetProfileError(ValueError):
    """The target profile file cannot be read or does not describe a target (a usage error: exit 2)."""


class Casing(StrEnum):
    """How the keys of the bodies turnwire builds are spelt."""

    SNAKE = "snake"
    CAMEL = "camel"

    def key(self, name: str) -> str:
        """`name` (snake_case) in this casing."""
        if self is Casing.SNAKE:
            return name
        head, *rest = name.split("_")
        return head + "".join(word[:1].upper() + word[1:] for word in rest)

    def keys(self, value: Any) -> Any:
        """`value` with every object key re-spelt (recursively)."""
        if isinstance(value, dict):
            return {self.key(str(k)): self.keys(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.keys(v) for v in value]
        return value


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Routes(_Strict):
    """Path templates under the API base (`{chat_id}`, `{turn_id}` are filled in, URL-quoted)."""

    create_turn: str = "/chats/{chat_id}/turns"
    events: str = "/chats/{chat_id}/turns/{turn_id}/events"
    snapshot: str = "/chats/{chat_id}/turns/{turn_id}"
    cancel: str = "/chats/{chat_id}/turns/{turn_id}/cancel"
    resume: str = "/chats/{chat_id}/turns/{turn_id}/resume"
    timeline: str = "/chats/{chat_id}/turns/{turn_id}/timeline"
    run: str = "/run"
    plant_session_snapshot: str = "/_test/chats/{chat_id}/session-snapshot"
    """PUT: store the body, unchecked, as the chat's session snapshot (capability legacy-planting)."""
    cursor: str = "last-event-id"
    """How a stream is resumed: `last-event-id` (the header) or a query parameter name such as
    `after_sequence` (`?after_sequence=N`)."""

    @field_validator(
        "create_turn", "events", "snapshot", "cancel", "resume", "timeline", "run", "plant_session_snapshot"
    )
    @classmethod
    def _path(cls, value: str) -> str:
        if not value.startswith("/"):
            raise ValueError(f"a route is a path starting with '/', got {value!r}")
        unknown = set(_PLACEHOLDER.findall(value)) - {"chat_id", "turn_id"}
        if unknown:
            raise ValueError(f"unknown placeholder(s) {sorted(unknown)} in route {value!r}")
        return value


class CreateTurnTemplate(_Strict):
    """How a scripted turn is requested, and where the answer names it."""

    body: dict[str, Any] | None = None
    """The JSON body; a string that is exactly `{name}` becomes the value (the key is left out when the
    value is unset), `{name}` inside a longer string is replaced by its text. Names: `query`, `scenario`,
    `profile`, `approval_ttl_s`, `idempotency_key`, `chat_id`. None: the reference runtime's body in
    the profile's casing."""
    turn_id: str | None = None
    """Dotted path of the new turn's id in the answer; None: `turn.turn_id` in the profile's casing."""
    query: str = "turnwire conformance turn"

    @field_validator("body")
    @classmethod
    def _known_placeholders(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        unknown = sorted(set(_placeholders(value)) - set(TEMPLATE_NAMES))
        if unknown:
            raise ValueError(f"unknown placeholder(s) {unknown}; known: {', '.join(TEMPLATE_NAMES)}")
        return value

    def body_template(self, casing: Casing) -> dict[str, Any]:
        """The body template in effect."""
        if self.body is not None:
            return self.body
        names = ("query", "scenario", "profile", "approval_ttl_s", "client_idempotency_key")
        values = ("{query}", "{scenario}", "{profile}", "{approval_ttl_s}", "{idempotency_key}")
        return {casing.key(n): v for n, v in zip(names, values, strict=True)}

    def turn_id_path(self, casing: Casing) -> tuple[str, ...]:
        """The path of the turn id in the answer, as keys."""
        return tuple((self.turn_id or f"turn.{casing.key('turn_id')}").split("."))


class Limits(_Strict):
    """Bounds on every request: a target that exceeds one yields findings, never a hang."""

    connect_timeout_s: float = Field(default=5.0, gt=0)
    read_timeout_s: float = Field(default=10.0, gt=0)
    """The longest wait for any single read (bytes arriving slowly reset it; the total does not)."""
    total_timeout_s: float = Field(default=30.0, gt=0)
    """The longest any one exchange may take, from connecting to the last byte."""
    max_response_bytes: int = Field(default=4 * 1024 * 1024, gt=0)
    """A response body larger than this is cut off and reported."""

    def override(self, options: Mapping[str, Any]) -> Limits:
        """These limits with any of the same names in `options` (the CLI's) taking precedence."""
        changes = {name: options[name] for name in type(self).model_fields if options.get(name) is not None}
        try:
            return self.model_validate({**self.model_dump(), **changes})
        except ValidationError as exc:
            raise TargetProfileError(f"invalid limits: {_first_error(exc)}") from None


class TargetProfile(_Strict):
    """A live runtime as turnwire drives it; the defaults are the reference runtime."""

    capabilities: tuple[Capability, ...] = DEFAULT_CAPABILITIES
    casing: Casing = Casing.SNAKE
    scenarios: tuple[str, ...] = ()
    """Scenario slugs to drive; empty: every scenario the protocol profile has."""
    headers: dict[str, str] = Field(default_factory=dict)
    """Sent with every request (authentication); values are masked in reproducers. `${NAME}` in a value
    is replaced by the environment variable NAME, so a token need not be written into the file."""
    routes: Routes = Field(default_factory=Routes)
    create_turn: CreateTurnTemplate = Field(default_factory=CreateTurnTemplate)
    limits: Limits = Field(default_factory=Limits)
    approval_ttl_s: float = Field(default=0.4, gt=0)
    """The approval TTL asked for when a check needs an approval to expire (small: the run waits it out)."""
    expiry_margin_s: float = Field(default=0.3, ge=0)
    """How long past the TTL to wait before expecting the approval to be gone (clock granularity)."""

    @field_validator("headers")
    @classmethod
    def _expand_environment(cls, headers: dict[str, str]) -> dict[str, str]:
        def expand(match: re.Match[str]) -> str:
            name = match.group(1)
            if name not in os.environ:
                raise ValueError(f"environment variable {name} is not set")
            return os.environ[name]

        out = {key: _ENV.sub(expand, value) for key, value in headers.items()}
        for key, value in out.items():
            if not _TOKEN.fullmatch(key):
                raise ValueError(f"{key!r} is not an HTTP header name")
            if any(c in value for c in "\r\n\0") or not value.isascii():
                raise ValueError(f"the value of header {key} is not a single line of ASCII text")
        return out

    @classmethod
    def embedded(cls) -> TargetProfile:
        """The reference runtime as turnwire starts it: with its test hooks, so legacy planting is claimed."""
        return cls(capabilities=tuple(Capability))

    def claims(self, capability: Capability) -> bool:
        """Whether the runtime claims `capability`."""
        return capability in self.capabilities


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err.get("loc", ())) or "(top)"
    return f"{where}: {err.get('msg', 'invalid')}"


def load_target_profile(path: Path) -> TargetProfile:
    """Read a target profile file; `TargetProfileError` with a one-line reason when it cannot be used."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise TargetProfileError(f"cannot read target profile {path}: {exc.strerror or exc}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise TargetProfileError(f"target profile {path} is not valid TOML: {exc}") from None
    try:
        return TargetProfile.model_validate(raw)
    except ValidationError as exc:
        raise TargetProfileError(f"target profile {path}: {_first_error(exc)}") from None


def render_template(template: Any, values: Mapping[str, Any]) -> Any:
    """`template` with its `{name}` placeholders filled from `values` (see `CreateTurnTemplate.body`).

    A string that is exactly one placeholder takes the value itself (a number stays a number); an
    object key whose value is such a placeholder with an unset (None) value is left out.
    """
    if isinstance(template, dict):
        out: dict[str, Any] = {}
        for key, value in template.items():
            if isinstance(value, str) and (m := _PLACEHOLDER.fullmatch(value)) and values.get(m.group(1)) is None:
                continue
            out[key] = render_template(value, values)
        return out
    if isinstance(template, list):
        return [render_template(v, values) for v in template]
    if isinstance(template, str):
        whole = _PLACEHOLDER.fullmatch(template)
        if whole is not None:
            return values.get(whole.group(1))
        return _PLACEHOLDER.sub(lambda m: "" if values.get(m.group(1)) is None else str(values[m.group(1)]), template)
    return template
