"""Judging chunks and stored messages against a profile, as findings.

The models say *whether* a value is valid; this module says *how bad* each problem is, following
what the AI SDK client does with it: an unknown part or chunk type, a missing or mistyped field, or a
`null` where the field must be omitted are MUST findings (the SDK rejects them); an unknown extra key
on a known chunk or part is a SHOULD finding (the SDK ignores or strips it).
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from turnwire.findings import Finding, excerpt, json_path, value_at
from turnwire.profiles import DEFAULT_PROFILE, Profile
from turnwire.protocol.registry import ProtocolModels, models
from turnwire.protocol.wire import chunk_tag, part_tag

_TAG_ERRORS = frozenset({"union_tag_invalid", "union_tag_not_found"})


def _strip_tags(loc: Sequence[int | str], root: object) -> list[int | str]:
    """Drop the union tags pydantic inserts into error locations.

    Walking the value along the location: where the value is an object that went through a tagged
    union (a part, a chunk, a citation source, ...), the first location element equal to one of its
    discriminator values is the tag, not a key — even when a key has the same name (`data`).
    """
    out: list[int | str] = []
    value = root
    tag_skipped = False
    for p in loc:
        if isinstance(value, dict) and not tag_skipped and isinstance(p, str):
            candidates = {part_tag(value), chunk_tag(value), value.get("type"), value.get("sourceType")}
            if p in candidates:
                tag_skipped = True
                continue
        out.append(p)
        tag_skipped = False
        if isinstance(value, dict) and isinstance(p, str):
            value = value.get(p)
        elif isinstance(value, list) and isinstance(p, int) and 0 <= p < len(value):
            value = value[p]
        else:
            value = None
    return out


def _classify(family: str, error: ErrorDetails) -> str:
    kind = error["type"]
    if kind == "extra_forbidden":
        return f"{family}-EXTRA-KEY"
    if error.get("input", ...) is None and kind not in {"missing"}:
        return f"{family}-NULL-FIELD"
    return f"{family}-SCHEMA"


def _type_finding(
    family: str, item: object, m: ProtocolModels, path: list[int | str], chunk_index: int | None
) -> Finding:
    """A finding for a value whose discriminator (type, or type + state) matched nothing."""
    where = json_path(path)
    if not isinstance(item, dict):
        return Finding.of(
            f"{family}-SCHEMA",
            f"expected a JSON object with a string type, received {excerpt(item)}",
            expected="object",
            received=excerpt(item),
            chunk_index=chunk_index,
            json_path=where,
        )
    kind = item.get("type")
    if family == "PART" and isinstance(kind, str) and (kind.startswith("tool-") or kind == "dynamic-tool"):
        states = m.dynamic_tool_states if kind == "dynamic-tool" else m.tool_states
        state = item.get("state")
        return Finding.of(
            "PART-SCHEMA",
            f"{kind} part has state {excerpt(state)}; {m.profile} allows {', '.join(sorted(states))}",
            expected=" | ".join(sorted(states)),
            received=excerpt(state),
            chunk_index=chunk_index,
            json_path=json_path([*path, "state"]),
        )
    if not isinstance(kind, str):
        return Finding.of(
            f"{family}-SCHEMA",
            f"expected a string type, received {excerpt(kind)}",
            expected="string",
            received=excerpt(kind),
            chunk_index=chunk_index,
            json_path=json_path([*path, "type"]),
        )
    return Finding.of(
        f"{family}-UNKNOWN-TYPE",
        f"{family.lower()} type {kind!r} does not exist in {m.profile}",
        expected=f"a {family.lower()} type of {m.profile}",
        received=excerpt(kind),
        chunk_index=chunk_index,
        json_path=json_path([*path, "type"]),
    )


def _findings(
    family: str,
    exc: ValidationError,
    root: object,
    m: ProtocolModels,
    tags: frozenset[str],
    *,
    chunk_index: int | None,
) -> list[Finding]:
    out: list[Finding] = []
    for error in exc.errors():
        path = _strip_tags(error["loc"], root)
        if error["type"] in _TAG_ERRORS:
            item = value_at(root, path)
            item_family = family if family == "CHUNK" or path else "MESSAGE"
            out.append(_type_finding(item_family, item, m, path, chunk_index))
            continue
        in_part = family == "PART" and len(path) >= 2 and path[0] == "parts"
        fam = family if family == "CHUNK" or in_part else "MESSAGE"
        req = _classify(fam, error) if fam != "MESSAGE" else "MESSAGE-SCHEMA"
        received = "absent" if error["type"] == "missing" else excerpt(error.get("input"))
        out.append(
            Finding.of(
                req,
                f"{error['msg']} (received {received})",
                expected=error["msg"],
                received=received,
                chunk_index=chunk_index,
                json_path=json_path(path),
            )
        )
    return out


def validate_chunk(
    value: object, profile: Profile = DEFAULT_PROFILE, *, chunk_index: int | None = None
) -> list[Finding]:
    """Findings for one stream chunk (an empty list when the chunk is valid for `profile`)."""
    m = models(profile)
    if not isinstance(value, dict):
        return [_type_finding("CHUNK", value, m, [], chunk_index)]
    try:
        m.chunk.validate_python(value)
    except ValidationError as exc:
        return _findings("CHUNK", exc, value, m, m.chunk_tags, chunk_index=chunk_index)
    return []


def validate_message(value: object, profile: Profile = DEFAULT_PROFILE) -> list[Finding]:
    """Findings for one stored `UIMessage` (an empty list when it is valid for `profile`)."""
    m = models(profile)
    if not isinstance(value, dict):
        return [
            Finding.of(
                "MESSAGE-SCHEMA",
                f"expected a JSON object, received {excerpt(value)}",
                expected="object",
                received=excerpt(value),
                json_path="$",
            )
        ]
    try:
        m.message.model_validate(value)
    except ValidationError as exc:
        return _findings("PART", exc, value, m, m.part_tags, chunk_index=None)
    return []


def is_fatal(findings: Sequence[Finding]) -> bool:
    """Whether the AI SDK client would reject the judged value (any MUST finding)."""
    return any(f.level == "MUST" for f in findings)
