"""Hypothesis strategies shared by the tests: JSON values and well-formed UI message streams.

`valid_streams(profile)` draws a stream a correct runtime could send for that profile (start, steps of
text / reasoning / tool / data / source parts, finish); tests use it for fold and wire properties.
Integers stay within +-(2**53 - 1) so every value has RFC 8785 bytes.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from turnwire.profiles import Profile

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53 - 1), 2**53 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12,
)


def cut(draw: st.DrawFn, text: str) -> list[str]:
    """`text` split at random points (empty pieces allowed)."""
    points = sorted(draw(st.lists(st.integers(0, len(text)), max_size=4)))
    pieces, prev = [], 0
    for p in [*points, len(text)]:
        pieces.append(text[prev:p])
        prev = p
    return pieces


@st.composite
def valid_streams(draw: st.DrawFn, profile: Profile) -> list[dict[str, Any]]:
    """A well-formed stream: start, steps of text/reasoning/tool/data/source parts, finish."""
    major = profile.major
    start: dict[str, Any] = {"type": "start", "messageId": draw(st.sampled_from(["m1", "msg_2"]))}
    if draw(st.booleans()):
        start["messageMetadata"] = {"model": draw(st.text(max_size=4))}
    chunks: list[dict[str, Any]] = [start]
    serial = 0
    for _ in range(draw(st.integers(0, 3))):
        chunks.append({"type": "start-step"})
        kinds = ["text", "reasoning", "tool", "data", "source"]
        for kind in draw(st.lists(st.sampled_from(kinds), max_size=5)):
            serial += 1
            if kind in ("text", "reasoning"):
                pid = f"{kind[0]}{serial}"
                chunks.append({"type": f"{kind}-start", "id": pid})
                for delta in draw(st.lists(st.text(max_size=6), max_size=4)):
                    chunks.append({"type": f"{kind}-delta", "id": pid, "delta": delta})
                chunks.append({"type": f"{kind}-end", "id": pid})
            elif kind == "tool":
                chunks.extend(draw(tool_call(major, f"call_{serial}")))
            elif kind == "data":
                chunk: dict[str, Any] = {"type": "data-progress", "data": draw(json_values)}
                if draw(st.booleans()):
                    chunk["id"] = draw(st.sampled_from(["p1", "p2"]))  # a reused id replaces the data
                if draw(st.booleans()):
                    chunk["transient"] = True  # a stored data part never carries transient: false
                chunks.append(chunk)
            else:
                chunks.append({"type": "source-url", "sourceId": f"s{serial}", "url": "https://example.com"})
        chunks.append({"type": "finish-step"})
    if draw(st.booleans()):
        chunks.append({"type": "message-metadata", "messageMetadata": {"usage": {"n": draw(st.integers(0, 9))}}})
    chunks.append({"type": "finish", "finishReason": "stop"})
    return chunks


@st.composite
def tool_call(draw: st.DrawFn, major: int, call_id: str) -> list[dict[str, Any]]:
    dynamic = draw(st.booleans())
    flag = {"dynamic": True} if dynamic else {}
    name = draw(st.sampled_from(["getWeather", "search", "get-time"]))
    doc = draw(json_values)
    out: list[dict[str, Any]] = []
    if draw(st.booleans()):  # stream the input
        out.append({"type": "tool-input-start", "toolCallId": call_id, "toolName": name, **flag})
        for piece in cut(draw, json.dumps(doc)):
            out.append({"type": "tool-input-delta", "toolCallId": call_id, "inputTextDelta": piece})
    out.append({"type": "tool-input-available", "toolCallId": call_id, "toolName": name, "input": doc, **flag})
    outcome = draw(st.sampled_from(["output", "error", "approval"] if major >= 6 else ["output", "error"]))
    if outcome == "approval":
        out.append({"type": "tool-approval-request", "toolCallId": call_id, "approvalId": f"ap_{call_id}"})
        if major < 7:
            return out  # v6: the stream ends waiting for the client's answer
        approved = draw(st.booleans())
        out.append({"type": "tool-approval-response", "approvalId": f"ap_{call_id}", "approved": approved})
        if not approved:
            out.append({"type": "tool-output-denied", "toolCallId": call_id})
            return out
    if outcome == "error":
        out.append({"type": "tool-output-error", "toolCallId": call_id, "errorText": "failed", **flag})
        return out
    for _ in range(draw(st.integers(0, 2))):
        out.append(
            {
                "type": "tool-output-available",
                "toolCallId": call_id,
                "output": draw(json_values),
                "preliminary": True,
                **flag,
            }
        )
    out.append({"type": "tool-output-available", "toolCallId": call_id, "output": draw(json_values), **flag})
    return out
