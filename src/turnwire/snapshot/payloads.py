"""Typed payloads of the serving backend's data parts, for checks that opt into them.

Why opt-in: the protocol keeps `data-{name}` parts open (`data` is any JSON), so an AI SDK client
accepts whatever a runtime puts there. This backend's renderer, though, reads fixed shapes out of
three of them, and a snapshot that breaks those shapes renders wrong even though it is a valid
message. A check that targets this backend passes `payloads=True` to `check_snapshot`; everyone else
keeps the protocol's open rule.

Casing follows what is served: the citation payload is snake_case (`cited_text`, `doc_index`), the
consent and elicitation payloads camelCase. Optional payload keys may be absent or `null`, because
that backend serialises `None` as `null` inside `data` as well.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, ValidationError

from turnwire.findings import Finding, json_path

__all__ = [
    "PAYLOAD_MODELS",
    "CharLocation",
    "CitationData",
    "CitationLocation",
    "ContentBlockLocation",
    "ElicitationData",
    "PageLocation",
    "ToolConsentData",
    "UrlCitationLocation",
    "check_payloads",
]


class _Payload(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, validate_by_alias=True, validate_by_name=False)


# ---- data-citation ---------------------------------------------------------------------------------


class CharLocation(_Payload):
    """A cited character range of a document."""

    type: Literal["char_location"]
    doc_index: int
    doc_title: str | None = None
    start_char: int
    end_char: int


class PageLocation(_Payload):
    """A cited page of a document."""

    type: Literal["page_location"]
    doc_index: int
    doc_title: str | None = None
    page_index: int


class ContentBlockLocation(_Payload):
    """A cited content block of a document."""

    type: Literal["content_block_location"]
    doc_index: int
    doc_title: str | None = None
    block_index: int


class UrlCitationLocation(_Payload):
    """A cited URL; `url` is `""` when the reference had none (the citation is still shown)."""

    type: Literal["url_citation"]
    url: str
    title: str | None = None


CitationLocation = Annotated[
    CharLocation | PageLocation | ContentBlockLocation | UrlCitationLocation, Discriminator("type")
]


class CitationData(_Payload):
    """`data` of a `data-citation` part: the quoted text and where it comes from."""

    cited_text: str
    location: CitationLocation


# ---- data-tool-consent -----------------------------------------------------------------------------


class ToolConsentData(_Payload):
    """`data` of a `data-tool-consent` part: a consent request or its decision (no raw tool input)."""

    tool_call_id: str = Field(alias="toolCallId")
    tool_name: str = Field(alias="toolName")
    metadata: dict[str, Any] = Field(default_factory=dict)
    args_preview: str = Field(alias="argsPreview")
    args_hash: str = Field(alias="argsHash", pattern=r"^[0-9a-f]{64}$")
    risk: Literal["writes_user_data", "calls_external_api", "modifies_system", "admin_only"]
    requested_at: str = Field(alias="requestedAt")
    state: Literal["pending", "approved", "denied", "expired"]


# ---- data-elicitation ------------------------------------------------------------------------------


class ElicitationData(_Payload):
    """`data` of a `data-elicitation` part: a form the user is asked to fill, and the answer."""

    elicitation_id: str = Field(alias="elicitationId")
    server_name: str = Field(alias="serverName")
    prompt: str
    schema_: dict[str, Any] = Field(default_factory=dict, alias="schema")
    response: dict[str, Any] | None = None
    state: Literal["pending", "answered", "cancelled"]


PAYLOAD_MODELS: dict[str, type[BaseModel]] = {
    "data-citation": CitationData,
    "data-tool-consent": ToolConsentData,
    "data-elicitation": ElicitationData,
}
"""The typed payload of each data part type this backend gives a fixed shape."""


def _strip_tags(loc: Sequence[int | str], root: Any) -> list[int | str]:
    """Drop the union tag pydantic puts in an error location (`location.url_citation.url`)."""
    out: list[int | str] = []
    value = root
    for p in loc:
        if isinstance(value, dict) and isinstance(p, str) and p not in value and value.get("type") == p:
            continue
        out.append(p)
        if isinstance(value, dict) and isinstance(p, str):
            value = value.get(p)
        elif isinstance(value, list) and isinstance(p, int) and 0 <= p < len(value):
            value = value[p]
        else:
            value = None
    return out


def check_payloads(parts: Sequence[Any], *, base: tuple[str | int, ...] = ("parts",)) -> list[Finding]:
    """A `SNAPSHOT-DATA-PAYLOAD` finding for each typed data part whose `data` breaks its payload model.

    Parts of other types, and parts without `data` (already a protocol finding), are not looked at.
    """
    findings: list[Finding] = []
    for i, part in enumerate(parts):
        if not isinstance(part, dict) or "data" not in part:
            continue
        kind = part.get("type")
        model = PAYLOAD_MODELS.get(kind) if isinstance(kind, str) else None
        if model is None:
            continue
        try:
            model.model_validate(part["data"])
        except ValidationError as exc:
            for error in exc.errors():
                where = json_path([*base, i, "data", *_strip_tags(error["loc"], part["data"])])
                received = "absent" if error["type"] == "missing" else repr(error.get("input"))[:120]
                findings.append(
                    Finding.of(
                        "SNAPSHOT-DATA-PAYLOAD",
                        f"{part['type']} payload: {error['msg']} (received {received})",
                        expected=error["msg"],
                        received=received,
                        json_path=where,
                    )
                )
    return findings
