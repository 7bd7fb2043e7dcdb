"""Tests for turnwire.fold: the AI SDK client's stream fold, rule by rule and per profile.

Where the expected values come from: every expected message in `SDK_CASES`, and every value in
`DOC_PREFIXES_V7` / `PARTIAL_CASES`, was produced by the real AI SDK (ai@5.0.277, ai@6.0.326,
ai@7.0.173): `readUIMessageStream` (last yielded snapshot, through JSON) and `parsePartialJson` run on
exactly these inputs by a scratch Node script (/tmp/aisdk/fold-oracle.mjs, not committed), then pasted
here. The same script compared `fold` with the SDK on ~30,000 random, often protocol-breaking streams
(last message, stop index and error texts all equal) and `parse_partial_json` on ~90,000 prefixes.
The finding expectations are turnwire's own rules.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strategies import cut as _cut
from strategies import json_values, valid_streams
from turnwire.findings import Level
from turnwire.fold import Folder, FoldResult, fix_json, fold, parse_partial_json
from turnwire.profiles import ALL_PROFILES, Profile

V5, V6, V7 = Profile.V5, Profile.V6, Profile.V7
START = {"type": "start", "messageId": "m"}
FINISH = {"type": "finish"}


@dataclass(frozen=True)
class SdkCase:
    chunks: list[dict[str, Any]]
    prior: dict[str, Any] | None
    sdk: dict[tuple[Profile, ...], tuple[dict[str, Any] | None, int | None]]
    """profiles -> (the SDK's last snapshot as JSON, index of the chunk where the SDK threw)"""


def reqs(result: FoldResult) -> list[str]:
    return [f.requirement for f in result.findings]


# ---------------------------------------------------------------------------------------------------
# SDK golden cases (expected values: real AI SDK output, see the module docstring)
# ---------------------------------------------------------------------------------------------------

SDK_CASES: dict[str, SdkCase] = {
    "text": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "text-start", "id": "t", "providerMetadata": {"p": {"a": 1}}},
            {"type": "text-delta", "id": "t", "delta": "He"},
            {"type": "text-delta", "id": "t", "delta": "llo", "providerMetadata": {"p": {"a": 2}}},
            {"type": "text-end", "id": "t"},
            {"type": "reasoning-start", "id": "r"},
            {"type": "reasoning-delta", "id": "r", "delta": "think"},
            {"type": "reasoning-end", "id": "r", "providerMetadata": {"p": {"b": 1}}},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): (
                {
                    "id": "m",
                    "parts": [
                        {"providerMetadata": {"p": {"a": 2}}, "state": "done", "text": "Hello", "type": "text"},
                        {
                            "id": "r",
                            "providerMetadata": {"p": {"b": 1}},
                            "state": "done",
                            "text": "think",
                            "type": "reasoning",
                        },
                    ],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "citations": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "text-start", "id": "t"},
            {"type": "text-delta", "id": "t", "delta": "x"},
            {
                "type": "text-end",
                "id": "t",
                "citations": [
                    {
                        "source": {"type": "source", "sourceType": "url", "id": "s1", "url": "https://a"},
                        "startIndex": 0,
                        "endIndex": 1,
                    }
                ],
            },
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (
                V5,
                V6,
            ): ({"id": "m", "parts": [{"state": "done", "text": "x", "type": "text"}], "role": "assistant"}, None),
            (V7,): (
                {
                    "id": "m",
                    "parts": [
                        {
                            "citations": [
                                {
                                    "endIndex": 1,
                                    "source": {"id": "s1", "sourceType": "url", "type": "source", "url": "https://a"},
                                    "startIndex": 0,
                                }
                            ],
                            "state": "done",
                            "text": "x",
                            "type": "text",
                        }
                    ],
                    "role": "assistant",
                },
                None,
            ),
        },
    ),
    "file": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "file", "url": "https://f", "mediaType": "image/png", "providerMetadata": {"p": {"x": 1}}},
            {"type": "file", "url": "https://g", "mediaType": "image/png"},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (V5,): (
                {
                    "id": "m",
                    "parts": [
                        {"mediaType": "image/png", "type": "file", "url": "https://f"},
                        {"mediaType": "image/png", "type": "file", "url": "https://g"},
                    ],
                    "role": "assistant",
                },
                None,
            ),
            (
                V6,
                V7,
            ): (
                {
                    "id": "m",
                    "parts": [
                        {
                            "mediaType": "image/png",
                            "providerMetadata": {"p": {"x": 1}},
                            "type": "file",
                            "url": "https://f",
                        },
                        {"mediaType": "image/png", "type": "file", "url": "https://g"},
                    ],
                    "role": "assistant",
                },
                None,
            ),
        },
    ),
    "sources": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "source-url", "sourceId": "s1", "url": "https://a"},
            {"type": "source-url", "sourceId": "s2", "url": "https://b", "title": "B", "providerMetadata": {"p": {}}},
            {"type": "source-document", "sourceId": "s3", "mediaType": "text/plain", "title": "Doc"},
            {
                "type": "source-document",
                "sourceId": "s4",
                "mediaType": "text/plain",
                "title": "Doc",
                "filename": "d.txt",
            },
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): (
                {
                    "id": "m",
                    "parts": [
                        {"sourceId": "s1", "type": "source-url", "url": "https://a"},
                        {
                            "providerMetadata": {"p": {}},
                            "sourceId": "s2",
                            "title": "B",
                            "type": "source-url",
                            "url": "https://b",
                        },
                        {"mediaType": "text/plain", "sourceId": "s3", "title": "Doc", "type": "source-document"},
                        {
                            "filename": "d.txt",
                            "mediaType": "text/plain",
                            "sourceId": "s4",
                            "title": "Doc",
                            "type": "source-document",
                        },
                    ],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "v7parts": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "custom", "kind": "openai.x"},
            {"type": "custom", "kind": "k", "providerMetadata": {"p": {}}},
            {"type": "reasoning-file", "url": "https://r", "mediaType": "image/png", "providerMetadata": {"p": {}}},
            {"type": "steering-message", "id": "s", "parts": [{"type": "text", "text": "go"}]},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (V7,): (
                {
                    "id": "m",
                    "parts": [
                        {"kind": "openai.x", "type": "custom"},
                        {"kind": "k", "providerMetadata": {"p": {}}, "type": "custom"},
                        {
                            "mediaType": "image/png",
                            "providerMetadata": {"p": {}},
                            "type": "reasoning-file",
                            "url": "https://r",
                        },
                        {"id": "s", "parts": [{"text": "go", "type": "text"}], "type": "steering-message"},
                    ],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "tool-stream": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "start-step"},
            {
                "type": "tool-input-start",
                "toolCallId": "c",
                "toolName": "w",
                "providerMetadata": {"p": {"s": 1}},
                "title": "W",
                "toolMetadata": {"m": 1},
            },
            {"type": "tool-input-delta", "toolCallId": "c", "inputTextDelta": '{"city":"Pa'},
        ],
        prior=None,
        sdk={
            (V5,): (
                {
                    "id": "m",
                    "parts": [
                        {"type": "step-start"},
                        {
                            "input": {"city": "Pa"},
                            "rawInput": '{"city":"Pa',
                            "state": "input-streaming",
                            "toolCallId": "c",
                            "type": "tool-w",
                        },
                    ],
                    "role": "assistant",
                },
                None,
            ),
            (
                V6,
                V7,
            ): (
                {
                    "id": "m",
                    "parts": [
                        {"type": "step-start"},
                        {
                            "callProviderMetadata": {"p": {"s": 1}},
                            "input": {"city": "Pa"},
                            "rawInput": '{"city":"Pa',
                            "state": "input-streaming",
                            "title": "W",
                            "toolCallId": "c",
                            "toolMetadata": {"m": 1},
                            "type": "tool-w",
                        },
                    ],
                    "role": "assistant",
                },
                None,
            ),
        },
    ),
    "tool-stream-text": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "tool-input-start", "toolCallId": "c", "toolName": "w", "inputEncoding": "text"},
            {"type": "tool-input-delta", "toolCallId": "c", "inputTextDelta": '{"city":"Pa'},
        ],
        prior=None,
        sdk={
            (
                V6,
                V7,
            ): (
                {
                    "id": "m",
                    "parts": [
                        {
                            "input": '{"city":"Pa',
                            "inputEncoding": "text",
                            "rawInput": '{"city":"Pa',
                            "state": "input-streaming",
                            "toolCallId": "c",
                            "type": "tool-w",
                        }
                    ],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "tool-full": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "start-step"},
            {
                "type": "tool-input-start",
                "toolCallId": "c",
                "toolName": "w",
                "providerExecuted": True,
                "inputEncoding": "json",
                "title": "W",
            },
            {"type": "tool-input-delta", "toolCallId": "c", "inputTextDelta": '{"city":"Paris"}'},
            {
                "type": "tool-input-available",
                "toolCallId": "c",
                "toolName": "w",
                "input": {"city": "Paris"},
                "providerMetadata": {"p": {"call": 1}},
            },
            {"type": "tool-output-available", "toolCallId": "c", "output": {"t": 1}, "preliminary": True},
            {
                "type": "tool-output-available",
                "toolCallId": "c",
                "output": {"t": 2},
                "providerMetadata": {"p": {"res": 1}},
                "toolMetadata": {"m": 2},
            },
            {"type": "finish-step"},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (V5,): (
                {
                    "id": "m",
                    "parts": [
                        {"type": "step-start"},
                        {
                            "callProviderMetadata": {"p": {"call": 1}},
                            "input": {"city": "Paris"},
                            "output": {"t": 2},
                            "providerExecuted": True,
                            "state": "output-available",
                            "toolCallId": "c",
                            "type": "tool-w",
                        },
                    ],
                    "role": "assistant",
                },
                None,
            ),
            (
                V6,
                V7,
            ): (
                {
                    "id": "m",
                    "parts": [
                        {"type": "step-start"},
                        {
                            "callProviderMetadata": {"p": {"call": 1}},
                            "input": {"city": "Paris"},
                            "output": {"t": 2},
                            "providerExecuted": True,
                            "resultProviderMetadata": {"p": {"res": 1}},
                            "state": "output-available",
                            "title": "W",
                            "toolCallId": "c",
                            "toolMetadata": {"m": 2},
                            "type": "tool-w",
                        },
                    ],
                    "role": "assistant",
                },
                None,
            ),
        },
    ),
    "tool-input-error": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {
                "type": "tool-input-error",
                "toolCallId": "s",
                "toolName": "w",
                "input": "{bad",
                "errorText": "Invalid",
                "providerMetadata": {"p": {"e": 1}},
            },
            {
                "type": "tool-input-error",
                "toolCallId": "d",
                "toolName": "mcp",
                "input": {"q": 1},
                "errorText": "nope",
                "dynamic": True,
            },
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (V5,): (
                {
                    "id": "m",
                    "parts": [
                        {
                            "callProviderMetadata": {"p": {"e": 1}},
                            "errorText": "Invalid",
                            "rawInput": "{bad",
                            "state": "output-error",
                            "toolCallId": "s",
                            "type": "tool-w",
                        },
                        {
                            "errorText": "nope",
                            "input": {"q": 1},
                            "state": "output-error",
                            "toolCallId": "d",
                            "toolName": "mcp",
                            "type": "dynamic-tool",
                        },
                    ],
                    "role": "assistant",
                },
                None,
            ),
            (V6,): (
                {
                    "id": "m",
                    "parts": [
                        {
                            "errorText": "Invalid",
                            "rawInput": "{bad",
                            "resultProviderMetadata": {"p": {"e": 1}},
                            "state": "output-error",
                            "toolCallId": "s",
                            "type": "tool-w",
                        },
                        {
                            "errorText": "nope",
                            "input": {"q": 1},
                            "state": "output-error",
                            "toolCallId": "d",
                            "toolName": "mcp",
                            "type": "dynamic-tool",
                        },
                    ],
                    "role": "assistant",
                },
                None,
            ),
            (V7,): (
                {
                    "id": "m",
                    "parts": [
                        {
                            "errorText": "Invalid",
                            "input": "{bad",
                            "resultProviderMetadata": {"p": {"e": 1}},
                            "state": "output-error",
                            "toolCallId": "s",
                            "type": "tool-w",
                        },
                        {
                            "errorText": "nope",
                            "input": {"q": 1},
                            "state": "output-error",
                            "toolCallId": "d",
                            "toolName": "mcp",
                            "type": "dynamic-tool",
                        },
                    ],
                    "role": "assistant",
                },
                None,
            ),
        },
    ),
    "tool-input-error-after-start": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "tool-input-start", "toolCallId": "s", "toolName": "w"},
            {"type": "tool-input-delta", "toolCallId": "s", "inputTextDelta": "{bad"},
            {
                "type": "tool-input-error",
                "toolCallId": "s",
                "toolName": "w",
                "input": "{bad",
                "errorText": "Invalid",
                "providerMetadata": {"p": {"e": 1}},
            },
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (V5,): (
                {
                    "id": "m",
                    "parts": [
                        {
                            "errorText": "Invalid",
                            "rawInput": "{bad",
                            "state": "output-error",
                            "toolCallId": "s",
                            "type": "tool-w",
                        }
                    ],
                    "role": "assistant",
                },
                None,
            ),
            (V6,): (
                {
                    "id": "m",
                    "parts": [
                        {
                            "errorText": "Invalid",
                            "rawInput": "{bad",
                            "resultProviderMetadata": {"p": {"e": 1}},
                            "state": "output-error",
                            "toolCallId": "s",
                            "type": "tool-w",
                        }
                    ],
                    "role": "assistant",
                },
                None,
            ),
            (V7,): (
                {
                    "id": "m",
                    "parts": [
                        {
                            "errorText": "Invalid",
                            "input": "{bad",
                            "resultProviderMetadata": {"p": {"e": 1}},
                            "state": "output-error",
                            "toolCallId": "s",
                            "type": "tool-w",
                        }
                    ],
                    "role": "assistant",
                },
                None,
            ),
        },
    ),
    "tool-output-error": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "tool-input-available", "toolCallId": "c", "toolName": "w", "input": {"a": 1}},
            {"type": "tool-output-error", "toolCallId": "c", "errorText": "boom", "providerExecuted": True},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): (
                {
                    "id": "m",
                    "parts": [
                        {
                            "errorText": "boom",
                            "input": {"a": 1},
                            "providerExecuted": True,
                            "state": "output-error",
                            "toolCallId": "c",
                            "type": "tool-w",
                        }
                    ],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "approval-v6": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "tool-input-available", "toolCallId": "c", "toolName": "del", "input": {"p": "x"}},
            {
                "type": "tool-approval-request",
                "toolCallId": "c",
                "approvalId": "ap",
                "approvalDescriptor": {"d": 1},
                "inputSchemaInput": None,
                "signature": "sig",
                "reason": "r",
                "isAutomatic": True,
            },
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (V6,): (
                {
                    "id": "m",
                    "parts": [
                        {
                            "approval": {
                                "descriptor": {"d": 1},
                                "id": "ap",
                                "inputSchemaInput": None,
                                "signature": "sig",
                            },
                            "input": {"p": "x"},
                            "state": "approval-requested",
                            "toolCallId": "c",
                            "type": "tool-del",
                        }
                    ],
                    "role": "assistant",
                },
                None,
            ),
            (V7,): (
                {
                    "id": "m",
                    "parts": [
                        {
                            "approval": {
                                "descriptor": {"d": 1},
                                "id": "ap",
                                "inputSchemaInput": None,
                                "isAutomatic": True,
                                "requestReason": "r",
                                "signature": "sig",
                            },
                            "input": {"p": "x"},
                            "state": "approval-requested",
                            "toolCallId": "c",
                            "type": "tool-del",
                        }
                    ],
                    "role": "assistant",
                },
                None,
            ),
        },
    ),
    "approval-v7-denied": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "tool-input-available", "toolCallId": "c", "toolName": "del", "input": {"p": "x"}},
            {"type": "tool-approval-request", "toolCallId": "c", "approvalId": "ap", "reason": "destructive"},
            {
                "type": "tool-approval-response",
                "approvalId": "ap",
                "approved": False,
                "reason": "no",
                "providerExecuted": True,
                "providerMetadata": {"p": {"r": 1}},
            },
            {"type": "tool-output-denied", "toolCallId": "c"},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (V7,): (
                {
                    "id": "m",
                    "parts": [
                        {
                            "approval": {"approved": False, "id": "ap", "reason": "no", "requestReason": "destructive"},
                            "callProviderMetadata": {"p": {"r": 1}},
                            "input": {"p": "x"},
                            "providerExecuted": True,
                            "state": "output-denied",
                            "toolCallId": "c",
                            "type": "tool-del",
                        }
                    ],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "approval-v7-approved": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "tool-input-available", "toolCallId": "c", "toolName": "del", "input": {"p": "x"}},
            {"type": "tool-approval-request", "toolCallId": "c", "approvalId": "ap", "isAutomatic": False},
            {"type": "tool-approval-response", "approvalId": "ap", "approved": True},
            {"type": "tool-output-available", "toolCallId": "c", "output": "deleted"},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (V7,): (
                {
                    "id": "m",
                    "parts": [
                        {
                            "approval": {"approved": True, "id": "ap"},
                            "input": {"p": "x"},
                            "output": "deleted",
                            "state": "output-available",
                            "toolCallId": "c",
                            "type": "tool-del",
                        }
                    ],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "denied-without-response": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "tool-input-available", "toolCallId": "c", "toolName": "del", "input": {"p": "x"}},
            {"type": "tool-approval-request", "toolCallId": "c", "approvalId": "ap"},
            {"type": "tool-output-denied", "toolCallId": "c"},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (
                V6,
                V7,
            ): (
                {
                    "id": "m",
                    "parts": [
                        {
                            "approval": {"id": "ap"},
                            "input": {"p": "x"},
                            "state": "output-denied",
                            "toolCallId": "c",
                            "type": "tool-del",
                        }
                    ],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "continue-v6": SdkCase(
        chunks=[
            {"type": "start"},
            {"type": "tool-output-denied", "toolCallId": "c"},
            {"type": "tool-output-available", "toolCallId": "k", "output": "deleted"},
            {"type": "start-step"},
            {"type": "text-start", "id": "t"},
            {"type": "text-delta", "id": "t", "delta": "ok"},
            {"type": "text-end", "id": "t"},
            {"type": "finish-step"},
            {"type": "finish"},
        ],
        prior={
            "id": "m",
            "role": "assistant",
            "parts": [
                {"type": "step-start"},
                {
                    "type": "tool-del",
                    "toolCallId": "c",
                    "state": "approval-responded",
                    "input": {"p": "x"},
                    "approval": {"id": "ap", "approved": False, "reason": "no"},
                },
                {
                    "type": "tool-del",
                    "toolCallId": "k",
                    "state": "approval-responded",
                    "input": {"p": "y"},
                    "approval": {"id": "ap2", "approved": True},
                },
            ],
        },
        sdk={
            (
                V6,
                V7,
            ): (
                {
                    "id": "m",
                    "parts": [
                        {"type": "step-start"},
                        {
                            "approval": {"approved": False, "id": "ap", "reason": "no"},
                            "input": {"p": "x"},
                            "state": "output-denied",
                            "toolCallId": "c",
                            "type": "tool-del",
                        },
                        {
                            "approval": {"approved": True, "id": "ap2"},
                            "input": {"p": "y"},
                            "output": "deleted",
                            "state": "output-available",
                            "toolCallId": "k",
                            "type": "tool-del",
                        },
                        {"type": "step-start"},
                        {"state": "done", "text": "ok", "type": "text"},
                    ],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "data": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "data-p", "id": "d", "data": {"pct": 10}},
            {"type": "data-toast", "data": "hi", "transient": True},
            {"type": "data-note", "data": "n", "transient": False, "extra": 1},
            {"type": "data-p", "id": "d", "data": {"pct": 100}, "extra": 2},
            {"type": "data-q", "id": "d", "data": 1},
            {"type": "data-p", "data": "noid"},
            {"type": "data-p", "data": "noid2"},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): (
                {
                    "id": "m",
                    "parts": [
                        {"data": {"pct": 100}, "id": "d", "type": "data-p"},
                        {"data": "n", "extra": 1, "transient": False, "type": "data-note"},
                        {"data": 1, "id": "d", "type": "data-q"},
                        {"data": "noid", "type": "data-p"},
                        {"data": "noid2", "type": "data-p"},
                    ],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "step-then-fatal": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "text-start", "id": "t"},
            {"type": "text-end", "id": "t"},
            {"type": "start-step"},
            {"type": "text-delta", "id": "zz", "delta": "x"},
        ],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): ({"id": "m", "parts": [{"state": "done", "text": "", "type": "text"}], "role": "assistant"}, 4)
        },
    ),
    "forget-at-finish-step": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "start-step"},
            {"type": "text-start", "id": "t"},
            {"type": "text-delta", "id": "t", "delta": "a"},
            {"type": "finish-step"},
            {"type": "text-delta", "id": "t", "delta": "b"},
            {"type": "text-end", "id": "t"},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (
                V5,
                V6,
            ): (
                {
                    "id": "m",
                    "parts": [{"type": "step-start"}, {"state": "streaming", "text": "a", "type": "text"}],
                    "role": "assistant",
                },
                5,
            ),
            (V7,): (
                {
                    "id": "m",
                    "parts": [{"type": "step-start"}, {"state": "done", "text": "ab", "type": "text"}],
                    "role": "assistant",
                },
                None,
            ),
        },
    ),
    "reset-step": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "start-step"},
            {"type": "text-start", "id": "t"},
            {"type": "text-end", "id": "t"},
            {"type": "finish-step"},
            {"type": "start-step"},
            {"type": "text-start", "id": "u"},
            {"type": "text-delta", "id": "u", "delta": "drop me"},
            {"type": "reset-step"},
            {"type": "text-start", "id": "v"},
            {"type": "text-delta", "id": "v", "delta": "keep"},
            {"type": "text-end", "id": "v"},
            {"type": "finish-step"},
            {"type": "finish", "finishReason": "interrupted"},
        ],
        prior=None,
        sdk={
            (V7,): (
                {
                    "id": "m",
                    "parts": [
                        {"type": "step-start"},
                        {"state": "done", "text": "", "type": "text"},
                        {"type": "step-start"},
                        {"state": "done", "text": "keep", "type": "text"},
                    ],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "metadata": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m", "messageMetadata": {"a": {"x": 1, "arr": [1, 2]}, "k": "v"}},
            {"type": "message-metadata", "messageMetadata": {"a": {"y": 2, "arr": [3]}, "n": None}},
            {"type": "message-metadata", "messageMetadata": {"a": {"x": {"deep": True}}}},
            {
                "type": "finish",
                "finishReason": "stop",
                "messageMetadata": {"k": {"now": "obj"}, "constructor": 1, "__proto__": {"z": 1}},
            },
        ],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): (
                {
                    "id": "m",
                    "metadata": {"a": {"arr": [3], "x": {"deep": True}, "y": 2}, "k": {"now": "obj"}, "n": None},
                    "parts": [],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "metadata-string-base": SdkCase(
        chunks=[{"type": "start", "messageMetadata": "ab"}, {"type": "message-metadata", "messageMetadata": {"x": 1}}],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): ({"id": "", "metadata": "ab", "parts": [], "role": "assistant"}, 1)
        },
    ),
    "metadata-string-override": SdkCase(
        chunks=[
            {"type": "start", "messageMetadata": {"a": 1}},
            {"type": "message-metadata", "messageMetadata": "xy"},
            {"type": "message-metadata", "messageMetadata": [5]},
        ],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): ({"id": "", "metadata": {"0": 5, "1": "y", "a": 1}, "parts": [], "role": "assistant"}, None)
        },
    ),
    "metadata-number-base-empty": SdkCase(
        chunks=[{"type": "start", "messageMetadata": 7}, {"type": "message-metadata", "messageMetadata": {}}],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): ({"id": "", "metadata": {}, "parts": [], "role": "assistant"}, None)
        },
    ),
    "metadata-array-base": SdkCase(
        chunks=[
            {"type": "start", "messageMetadata": [{"a": 1}, 2]},
            {"type": "message-metadata", "messageMetadata": {"0": {"b": 2}}},
        ],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): ({"id": "", "metadata": {"0": {"a": 1, "b": 2}, "1": 2}, "parts": [], "role": "assistant"}, None)
        },
    ),
    "new-id-resets": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "text-start", "id": "t"},
            {"type": "text-delta", "id": "t", "delta": "x"},
            {"type": "start", "messageId": "m2"},
            {"type": "text-delta", "id": "t", "delta": "y"},
        ],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): ({"id": "m2", "parts": [], "role": "assistant"}, 4)
        },
    ),
    "same-id-keeps": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "text-start", "id": "t"},
            {"type": "start", "messageId": "m", "messageMetadata": {"a": 1}},
            {"type": "text-delta", "id": "t", "delta": "y"},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): (
                {
                    "id": "m",
                    "metadata": {"a": 1},
                    "parts": [{"state": "streaming", "text": "y", "type": "text"}],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "prior-new-id": SdkCase(
        chunks=[
            {"type": "start", "messageId": "new"},
            {"type": "text-start", "id": "t"},
            {"type": "text-end", "id": "t"},
            {"type": "finish"},
        ],
        prior={
            "id": "old",
            "role": "assistant",
            "metadata": {"keep": 1},
            "parts": [{"type": "text", "text": "before", "state": "done"}],
        },
        sdk={
            (
                V5,
                V6,
                V7,
            ): ({"id": "new", "parts": [{"state": "done", "text": "", "type": "text"}], "role": "assistant"}, None)
        },
    ),
    "prior-no-write": SdkCase(
        chunks=[
            {"type": "start"},
            {"type": "start-step"},
            {"type": "finish-step"},
            {"type": "abort", "reason": "x"},
            {"type": "finish"},
        ],
        prior={
            "id": "old",
            "role": "assistant",
            "metadata": {"keep": 1},
            "parts": [{"type": "text", "text": "before", "state": "done"}],
        },
        sdk={
            (
                V5,
                V6,
                V7,
            ): (None, None)
        },
    ),
    "prior-user": SdkCase(
        chunks=[{"type": "start"}, {"type": "text-start", "id": "t"}, {"type": "finish"}],
        prior={"id": "u1", "role": "user", "parts": [{"type": "text", "text": "hi"}]},
        sdk={
            (
                V5,
                V6,
                V7,
            ): ({"id": "u1", "parts": [{"state": "streaming", "text": "", "type": "text"}], "role": "assistant"}, None)
        },
    ),
    "prior-streaming-tool": SdkCase(
        chunks=[
            {"type": "start"},
            {"type": "tool-input-delta", "toolCallId": "c", "inputTextDelta": '"x"}'},
            {"type": "finish"},
        ],
        prior={
            "id": "m",
            "role": "assistant",
            "parts": [
                {"type": "step-start"},
                {
                    "type": "dynamic-tool",
                    "toolName": "t",
                    "toolCallId": "c",
                    "state": "input-streaming",
                    "input": {},
                    "rawInput": '{"q":',
                    "title": "T",
                },
            ],
        },
        sdk={
            (
                V5,
                V6,
                V7,
            ): (
                {
                    "id": "m",
                    "parts": [
                        {"type": "step-start"},
                        {
                            "input": {"q": "x"},
                            "rawInput": '{"q":"x"}',
                            "state": "input-streaming",
                            "title": "T",
                            "toolCallId": "c",
                            "toolName": "t",
                            "type": "dynamic-tool",
                        },
                    ],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "v5-dynamic-missing-flag": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "tool-input-available", "toolCallId": "c", "toolName": "mcp", "input": {}, "dynamic": True},
            {"type": "tool-output-available", "toolCallId": "c", "output": 1},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (V5,): (
                {
                    "id": "m",
                    "parts": [
                        {
                            "input": {},
                            "state": "input-available",
                            "toolCallId": "c",
                            "toolName": "mcp",
                            "type": "dynamic-tool",
                        }
                    ],
                    "role": "assistant",
                },
                2,
            ),
            (
                V6,
                V7,
            ): (
                {
                    "id": "m",
                    "parts": [
                        {
                            "input": {},
                            "output": 1,
                            "state": "output-available",
                            "toolCallId": "c",
                            "toolName": "mcp",
                            "type": "dynamic-tool",
                        }
                    ],
                    "role": "assistant",
                },
                None,
            ),
        },
    ),
    "v5-dynamic-flag-on-static": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "tool-input-available", "toolCallId": "c", "toolName": "w", "input": {}},
            {"type": "tool-output-available", "toolCallId": "c", "output": 1, "dynamic": True},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (V5,): (
                {
                    "id": "m",
                    "parts": [{"input": {}, "state": "input-available", "toolCallId": "c", "type": "tool-w"}],
                    "role": "assistant",
                },
                2,
            ),
            (
                V6,
                V7,
            ): (
                {
                    "id": "m",
                    "parts": [
                        {"input": {}, "output": 1, "state": "output-available", "toolCallId": "c", "type": "tool-w"}
                    ],
                    "role": "assistant",
                },
                None,
            ),
        },
    ),
    "unknown-output": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "tool-output-available", "toolCallId": "nope", "output": 1},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): ({"id": "m", "parts": [], "role": "assistant"}, 1)
        },
    ),
    "unknown-delta": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "tool-input-delta", "toolCallId": "nope", "inputTextDelta": "{"},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): ({"id": "m", "parts": [], "role": "assistant"}, 1)
        },
    ),
    "unknown-approval": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "tool-approval-response", "approvalId": "nope", "approved": True},
            {"type": "finish"},
        ],
        prior=None,
        sdk={(V7,): ({"id": "m", "parts": [], "role": "assistant"}, 1)},
    ),
    "unknown-denied": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "tool-output-denied", "toolCallId": "nope"},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (
                V6,
                V7,
            ): ({"id": "m", "parts": [], "role": "assistant"}, 1)
        },
    ),
    "output-after-terminal": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "tool-input-available", "toolCallId": "c", "toolName": "w", "input": {}},
            {"type": "tool-output-error", "toolCallId": "c", "errorText": "e"},
            {"type": "tool-output-available", "toolCallId": "c", "output": 2},
            {"type": "tool-input-available", "toolCallId": "c", "toolName": "w", "input": {"again": 1}},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): (
                {
                    "id": "m",
                    "parts": [{"input": {"again": 1}, "state": "input-available", "toolCallId": "c", "type": "tool-w"}],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "duplicate-start": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "text-start", "id": "t"},
            {"type": "text-delta", "id": "t", "delta": "a"},
            {"type": "text-start", "id": "t"},
            {"type": "text-delta", "id": "t", "delta": "b"},
            {"type": "text-end", "id": "t"},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): (
                {
                    "id": "m",
                    "parts": [
                        {"state": "streaming", "text": "a", "type": "text"},
                        {"state": "done", "text": "b", "type": "text"},
                    ],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "error-abort": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "error", "errorText": "boom"},
            {"type": "text-start", "id": "t"},
            {"type": "abort", "reason": "user"},
        ],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): ({"id": "m", "parts": [{"state": "streaming", "text": "", "type": "text"}], "role": "assistant"}, None)
        },
    ),
    "dynamic-input-mismatch": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "tool-input-start", "toolCallId": "c", "toolName": "w", "dynamic": True},
            {"type": "tool-input-available", "toolCallId": "c", "toolName": "w", "input": {}},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): (
                {
                    "id": "m",
                    "parts": [
                        {"state": "input-streaming", "toolCallId": "c", "toolName": "w", "type": "dynamic-tool"},
                        {"input": {}, "state": "input-available", "toolCallId": "c", "type": "tool-w"},
                    ],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "start-only": SdkCase(
        chunks=[{"type": "start"}, {"type": "start-step"}],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): (None, None)
        },
    ),
    "dynamic-full": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "tool-input-start", "toolCallId": "d", "toolName": "mcp", "dynamic": True, "title": "MCP"},
            {"type": "tool-input-delta", "toolCallId": "d", "inputTextDelta": '{"q":[1,'},
            {
                "type": "tool-input-available",
                "toolCallId": "d",
                "toolName": "mcp",
                "input": {"q": [1, 2]},
                "dynamic": True,
                "providerExecuted": True,
            },
            {
                "type": "tool-output-available",
                "toolCallId": "d",
                "output": "part",
                "preliminary": True,
                "dynamic": True,
                "providerExecuted": False,
            },
            {"type": "tool-output-available", "toolCallId": "d", "output": "all", "dynamic": True},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (V5,): (
                {
                    "id": "m",
                    "parts": [
                        {
                            "input": {"q": [1, 2]},
                            "output": "all",
                            "providerExecuted": True,
                            "state": "output-available",
                            "toolCallId": "d",
                            "toolName": "mcp",
                            "type": "dynamic-tool",
                        }
                    ],
                    "role": "assistant",
                },
                None,
            ),
            (
                V6,
                V7,
            ): (
                {
                    "id": "m",
                    "parts": [
                        {
                            "input": {"q": [1, 2]},
                            "output": "all",
                            "providerExecuted": False,
                            "state": "output-available",
                            "title": "MCP",
                            "toolCallId": "d",
                            "toolName": "mcp",
                            "type": "dynamic-tool",
                        }
                    ],
                    "role": "assistant",
                },
                None,
            ),
        },
    ),
    "delta-after-available": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "tool-input-start", "toolCallId": "c", "toolName": "w"},
            {"type": "tool-input-delta", "toolCallId": "c", "inputTextDelta": '{"a":1'},
            {"type": "tool-input-available", "toolCallId": "c", "toolName": "w", "input": {"a": 1}},
            {"type": "tool-input-delta", "toolCallId": "c", "inputTextDelta": ',"b":2}'},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): (
                {
                    "id": "m",
                    "parts": [
                        {
                            "input": {"a": 1, "b": 2},
                            "rawInput": '{"a":1,"b":2}',
                            "state": "input-streaming",
                            "toolCallId": "c",
                            "type": "tool-w",
                        }
                    ],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "input-start-twice": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "tool-input-start", "toolCallId": "c", "toolName": "w"},
            {"type": "tool-input-delta", "toolCallId": "c", "inputTextDelta": '{"a":1}'},
            {"type": "tool-input-available", "toolCallId": "c", "toolName": "w", "input": {"a": 1}},
            {"type": "tool-output-available", "toolCallId": "c", "output": 1},
            {"type": "tool-input-start", "toolCallId": "c", "toolName": "w"},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): (
                {
                    "id": "m",
                    "parts": [{"state": "input-streaming", "toolCallId": "c", "type": "tool-w"}],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "input-error-title": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "tool-input-start", "toolCallId": "c", "toolName": "w", "title": "Start title"},
            {
                "type": "tool-input-error",
                "toolCallId": "c",
                "toolName": "w",
                "input": {"x": 1},
                "errorText": "bad",
                "title": "Ignored",
                "toolMetadata": {"m": 1},
            },
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (V6,): (
                {
                    "id": "m",
                    "parts": [
                        {
                            "errorText": "bad",
                            "rawInput": {"x": 1},
                            "state": "output-error",
                            "title": "Start title",
                            "toolCallId": "c",
                            "toolMetadata": {"m": 1},
                            "type": "tool-w",
                        }
                    ],
                    "role": "assistant",
                },
                None,
            ),
            (V7,): (
                {
                    "id": "m",
                    "parts": [
                        {
                            "errorText": "bad",
                            "input": {"x": 1},
                            "state": "output-error",
                            "title": "Start title",
                            "toolCallId": "c",
                            "toolMetadata": {"m": 1},
                            "type": "tool-w",
                        }
                    ],
                    "role": "assistant",
                },
                None,
            ),
        },
    ),
    "metadata-null": SdkCase(
        chunks=[
            {"type": "start"},
            {"type": "message-metadata", "messageMetadata": None},
            {"type": "finish", "messageMetadata": None},
        ],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): (None, None)
        },
    ),
    "finish-metadata-writes": SdkCase(
        chunks=[{"type": "start"}, {"type": "finish", "finishReason": "stop", "messageMetadata": {"done": True}}],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): ({"id": "", "metadata": {"done": True}, "parts": [], "role": "assistant"}, None)
        },
    ),
    "steps-no-write": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "start-step"},
            {"type": "finish-step"},
            {"type": "start-step"},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): ({"id": "m", "parts": [], "role": "assistant"}, None)
        },
    ),
    "bare-start-then-text": SdkCase(
        chunks=[
            {"type": "start"},
            {"type": "start-step"},
            {"type": "text-start", "id": "t"},
            {"type": "text-delta", "id": "t", "delta": "hi"},
            {"type": "text-end", "id": "t"},
            {"type": "finish-step"},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): (
                {
                    "id": "",
                    "parts": [{"type": "step-start"}, {"state": "done", "text": "hi", "type": "text"}],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "approval-request-twice": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "tool-input-available", "toolCallId": "c", "toolName": "del", "input": {}},
            {"type": "tool-approval-request", "toolCallId": "c", "approvalId": "a1", "signature": "s"},
            {"type": "tool-approval-request", "toolCallId": "c", "approvalId": "a2"},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (
                V6,
                V7,
            ): (
                {
                    "id": "m",
                    "parts": [
                        {
                            "approval": {"id": "a2"},
                            "input": {},
                            "state": "approval-requested",
                            "toolCallId": "c",
                            "type": "tool-del",
                        }
                    ],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "approval-response-twice": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "tool-input-available", "toolCallId": "c", "toolName": "del", "input": {}},
            {"type": "tool-approval-request", "toolCallId": "c", "approvalId": "a1"},
            {"type": "tool-approval-response", "approvalId": "a1", "approved": True, "reason": "ok"},
            {"type": "tool-approval-response", "approvalId": "a1", "approved": False},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (V7,): (
                {
                    "id": "m",
                    "parts": [
                        {
                            "approval": {"approved": False, "id": "a1", "reason": "ok"},
                            "input": {},
                            "state": "approval-responded",
                            "toolCallId": "c",
                            "type": "tool-del",
                        }
                    ],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "output-error-after-stream": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "tool-input-start", "toolCallId": "c", "toolName": "w"},
            {"type": "tool-input-delta", "toolCallId": "c", "inputTextDelta": '{"a"'},
            {"type": "tool-output-error", "toolCallId": "c", "errorText": "gave up"},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): (
                {
                    "id": "m",
                    "parts": [
                        {
                            "errorText": "gave up",
                            "input": {},
                            "rawInput": '{"a"',
                            "state": "output-error",
                            "toolCallId": "c",
                            "type": "tool-w",
                        }
                    ],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "proto-input": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "tool-input-start", "toolCallId": "c", "toolName": "w"},
            {"type": "tool-input-delta", "toolCallId": "c", "inputTextDelta": '{"__proto__":{"x":1}, "a":1e400'},
        ],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): (
                {
                    "id": "m",
                    "parts": [
                        {
                            "rawInput": '{"__proto__":{"x":1}, "a":1e400',
                            "state": "input-streaming",
                            "toolCallId": "c",
                            "type": "tool-w",
                        }
                    ],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "example": SdkCase(
        chunks=[
            {"type": "start", "messageId": "msg_1", "messageMetadata": {"model": "demo-1"}},
            {"type": "start-step"},
            {"type": "reasoning-start", "id": "r1"},
            {"type": "reasoning-delta", "id": "r1", "delta": "Need the weather first."},
            {"type": "reasoning-end", "id": "r1"},
            {"type": "tool-input-start", "toolCallId": "call_1", "toolName": "getWeather"},
            {"type": "tool-input-delta", "toolCallId": "call_1", "inputTextDelta": '{"city":'},
            {"type": "tool-input-delta", "toolCallId": "call_1", "inputTextDelta": '"Paris"}'},
            {
                "type": "tool-input-available",
                "toolCallId": "call_1",
                "toolName": "getWeather",
                "input": {"city": "Paris"},
            },
            {"type": "tool-output-available", "toolCallId": "call_1", "output": {"tempC": 18}},
            {"type": "finish-step"},
            {"type": "start-step"},
            {"type": "source-url", "sourceId": "src_1", "url": "https://example.com/paris", "title": "Paris weather"},
            {"type": "data-citation", "id": "cit_1", "data": {"sourceId": "src_1", "quote": "18C and sunny"}},
            {"type": "text-start", "id": "t1"},
            {"type": "text-delta", "id": "t1", "delta": "It is 18°C "},
            {"type": "text-delta", "id": "t1", "delta": "in Paris."},
            {"type": "text-end", "id": "t1"},
            {
                "type": "tool-input-available",
                "toolCallId": "call_2",
                "toolName": "deleteFile",
                "input": {"path": "notes.txt"},
            },
            {"type": "tool-approval-request", "approvalId": "appr_1", "toolCallId": "call_2"},
            {"type": "finish-step"},
            {"type": "message-metadata", "messageMetadata": {"usage": {"totalTokens": 42}}},
            {"type": "finish", "finishReason": "tool-calls"},
        ],
        prior=None,
        sdk={
            (
                V6,
                V7,
            ): (
                {
                    "id": "msg_1",
                    "metadata": {"model": "demo-1", "usage": {"totalTokens": 42}},
                    "parts": [
                        {"type": "step-start"},
                        {"id": "r1", "state": "done", "text": "Need the weather first.", "type": "reasoning"},
                        {
                            "input": {"city": "Paris"},
                            "output": {"tempC": 18},
                            "state": "output-available",
                            "toolCallId": "call_1",
                            "type": "tool-getWeather",
                        },
                        {"type": "step-start"},
                        {
                            "sourceId": "src_1",
                            "title": "Paris weather",
                            "type": "source-url",
                            "url": "https://example.com/paris",
                        },
                        {
                            "data": {"quote": "18C and sunny", "sourceId": "src_1"},
                            "id": "cit_1",
                            "type": "data-citation",
                        },
                        {"state": "done", "text": "It is 18°C in Paris.", "type": "text"},
                        {
                            "approval": {"id": "appr_1"},
                            "input": {"path": "notes.txt"},
                            "state": "approval-requested",
                            "toolCallId": "call_2",
                            "type": "tool-deleteFile",
                        },
                    ],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "example-v5": SdkCase(
        chunks=[
            {"type": "start", "messageId": "msg_1", "messageMetadata": {"model": "demo-1"}},
            {"type": "start-step"},
            {"type": "reasoning-start", "id": "r1"},
            {"type": "reasoning-delta", "id": "r1", "delta": "Need the weather first."},
            {"type": "reasoning-end", "id": "r1"},
            {"type": "tool-input-start", "toolCallId": "call_1", "toolName": "getWeather"},
            {"type": "tool-input-delta", "toolCallId": "call_1", "inputTextDelta": '{"city":'},
            {"type": "tool-input-delta", "toolCallId": "call_1", "inputTextDelta": '"Paris"}'},
            {
                "type": "tool-input-available",
                "toolCallId": "call_1",
                "toolName": "getWeather",
                "input": {"city": "Paris"},
            },
            {"type": "tool-output-available", "toolCallId": "call_1", "output": {"tempC": 18}},
            {"type": "finish-step"},
            {"type": "start-step"},
            {"type": "source-url", "sourceId": "src_1", "url": "https://example.com/paris", "title": "Paris weather"},
            {"type": "data-citation", "id": "cit_1", "data": {"sourceId": "src_1", "quote": "18C and sunny"}},
            {"type": "text-start", "id": "t1"},
            {"type": "text-delta", "id": "t1", "delta": "It is 18°C "},
            {"type": "text-delta", "id": "t1", "delta": "in Paris."},
            {"type": "text-end", "id": "t1"},
            {
                "type": "tool-input-available",
                "toolCallId": "call_2",
                "toolName": "deleteFile",
                "input": {"path": "notes.txt"},
            },
            {"type": "finish-step"},
            {"type": "message-metadata", "messageMetadata": {"usage": {"totalTokens": 42}}},
            {"type": "finish", "finishReason": "tool-calls"},
        ],
        prior=None,
        sdk={
            (V5,): (
                {
                    "id": "msg_1",
                    "metadata": {"model": "demo-1", "usage": {"totalTokens": 42}},
                    "parts": [
                        {"type": "step-start"},
                        {"id": "r1", "state": "done", "text": "Need the weather first.", "type": "reasoning"},
                        {
                            "input": {"city": "Paris"},
                            "output": {"tempC": 18},
                            "state": "output-available",
                            "toolCallId": "call_1",
                            "type": "tool-getWeather",
                        },
                        {"type": "step-start"},
                        {
                            "sourceId": "src_1",
                            "title": "Paris weather",
                            "type": "source-url",
                            "url": "https://example.com/paris",
                        },
                        {
                            "data": {"quote": "18C and sunny", "sourceId": "src_1"},
                            "id": "cit_1",
                            "type": "data-citation",
                        },
                        {"state": "done", "text": "It is 18°C in Paris.", "type": "text"},
                        {
                            "input": {"path": "notes.txt"},
                            "state": "input-available",
                            "toolCallId": "call_2",
                            "type": "tool-deleteFile",
                        },
                    ],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "delta-across-steps": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "start-step"},
            {"type": "tool-input-start", "toolCallId": "c", "toolName": "w"},
            {"type": "tool-input-delta", "toolCallId": "c", "inputTextDelta": '{"a":[1'},
            {"type": "finish-step"},
            {"type": "start-step"},
            {"type": "tool-input-delta", "toolCallId": "c", "inputTextDelta": ",2"},
            {"type": "tool-input-delta", "toolCallId": "c", "inputTextDelta": "]}"},
            {"type": "tool-output-available", "toolCallId": "c", "output": 1},
            {"type": "finish-step"},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): (
                {
                    "id": "m",
                    "parts": [
                        {"type": "step-start"},
                        {
                            "input": {"a": [1]},
                            "rawInput": '{"a":[1',
                            "state": "input-streaming",
                            "toolCallId": "c",
                            "type": "tool-w",
                        },
                        {"type": "step-start"},
                        {
                            "input": {"a": [1, 2]},
                            "output": 1,
                            "state": "output-available",
                            "toolCallId": "c",
                            "type": "tool-w",
                        },
                    ],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "restart-across-steps": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "start-step"},
            {"type": "tool-input-start", "toolCallId": "c", "toolName": "w", "dynamic": True},
            {"type": "tool-input-delta", "toolCallId": "c", "inputTextDelta": '{"a":"x'},
            {"type": "finish-step"},
            {"type": "start-step"},
            {"type": "tool-input-start", "toolCallId": "c", "toolName": "w", "dynamic": True},
            {"type": "tool-input-delta", "toolCallId": "c", "inputTextDelta": "[tr"},
            {"type": "finish-step"},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (
                V5,
                V6,
                V7,
            ): (
                {
                    "id": "m",
                    "parts": [
                        {"type": "step-start"},
                        {
                            "input": {"a": "x"},
                            "rawInput": '{"a":"x',
                            "state": "input-streaming",
                            "toolCallId": "c",
                            "toolName": "w",
                            "type": "dynamic-tool",
                        },
                        {"type": "step-start"},
                        {
                            "input": [True],
                            "rawInput": "[tr",
                            "state": "input-streaming",
                            "toolCallId": "c",
                            "toolName": "w",
                            "type": "dynamic-tool",
                        },
                    ],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
    "reset-step-pending": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "start-step"},
            {"type": "tool-input-start", "toolCallId": "c", "toolName": "w"},
            {"type": "tool-input-delta", "toolCallId": "c", "inputTextDelta": '{"k":nu'},
            {"type": "finish-step"},
            {"type": "start-step"},
            {"type": "text-start", "id": "t"},
            {"type": "reset-step"},
            {"type": "tool-input-delta", "toolCallId": "c", "inputTextDelta": "ll}"},
            {"type": "finish"},
        ],
        prior=None,
        sdk={
            (V7,): (
                {
                    "id": "m",
                    "parts": [
                        {"type": "step-start"},
                        {
                            "input": {"k": None},
                            "rawInput": '{"k":nu',
                            "state": "input-streaming",
                            "toolCallId": "c",
                            "type": "tool-w",
                        },
                        {"type": "step-start"},
                    ],
                    "role": "assistant",
                },
                8,
            )
        },
    ),
    "approval-on-streaming": SdkCase(
        chunks=[
            {"type": "start", "messageId": "m"},
            {"type": "tool-input-start", "toolCallId": "c", "toolName": "w"},
            {"type": "tool-input-delta", "toolCallId": "c", "inputTextDelta": '{"k":1'},
            {"type": "tool-approval-request", "toolCallId": "c", "approvalId": "a"},
            {"type": "tool-input-delta", "toolCallId": "c", "inputTextDelta": "2}"},
            {"type": "start-step"},
        ],
        prior=None,
        sdk={
            (
                V6,
                V7,
            ): (
                {
                    "id": "m",
                    "parts": [
                        {
                            "approval": {"id": "a"},
                            "input": {"k": 12},
                            "rawInput": '{"k":12}',
                            "state": "input-streaming",
                            "toolCallId": "c",
                            "type": "tool-w",
                        }
                    ],
                    "role": "assistant",
                },
                None,
            )
        },
    ),
}


def _sdk_params() -> list[Any]:
    out = []
    for name, case in SDK_CASES.items():
        for profiles, expected in case.sdk.items():
            for profile in profiles:
                out.append(pytest.param(case, profile, expected, id=f"{name}-{profile.value}"))
    return out


@pytest.mark.parametrize(("case", "profile", "expected"), _sdk_params())
def test_fold_equals_sdk(case: SdkCase, profile: Profile, expected: tuple[Any, int | None]) -> None:
    message, stopped_at = expected
    result = fold(case.chunks, profile, prior=case.prior)
    assert result.message == message
    assert result.stopped_at == stopped_at


def _fold(name: str, profile: Profile) -> FoldResult:
    case = SDK_CASES[name]
    return fold(case.chunks, profile, prior=case.prior)


def _part(name: str, profile: Profile, index: int) -> dict[str, Any]:
    message = _fold(name, profile).message
    assert message is not None
    part: dict[str, Any] = message["parts"][index]
    return part


# ---------------------------------------------------------------------------------------------------
# Fold rules, one by one (the folds below are SDK_CASES, so the values are the SDK's)
# ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_text_part_has_no_id_reasoning_part_copies_it(profile: Profile) -> None:
    text, reasoning = _part("text", profile, 0), _part("text", profile, 1)
    assert "id" not in text
    assert reasoning["id"] == "r"
    assert text["text"] == "Hello"
    assert text["state"] == reasoning["state"] == "done"
    # providerMetadata: the last chunk that carries one wins (text-start {a:1}, then delta {a:2})
    assert text["providerMetadata"] == {"p": {"a": 2}}
    assert reasoning["providerMetadata"] == {"p": {"b": 1}}


def test_text_end_citations_only_in_v7() -> None:
    assert "citations" in _part("citations", V7, 0)
    assert "citations" not in _part("citations", V6, 0)
    assert "citations" not in _part("citations", V5, 0)


def test_file_part_drops_provider_metadata_in_v5_only() -> None:
    assert "providerMetadata" not in _part("file", V5, 0)
    assert _part("file", V6, 0)["providerMetadata"] == {"p": {"x": 1}}
    assert _part("file", V7, 0)["providerMetadata"] == {"p": {"x": 1}}
    assert "filename" not in _part("file", V7, 0)


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_source_parts_keep_only_given_keys(profile: Profile) -> None:
    assert _part("sources", profile, 0) == {"type": "source-url", "sourceId": "s1", "url": "https://a"}
    assert "filename" not in _part("sources", profile, 2)
    assert _part("sources", profile, 3)["filename"] == "d.txt"


def test_v7_custom_reasoning_file_and_steering_parts() -> None:
    message = _fold("v7parts", V7).message
    assert message is not None
    assert [p["type"] for p in message["parts"]] == ["custom", "custom", "reasoning-file", "steering-message"]
    assert "providerMetadata" not in message["parts"][0]


@pytest.mark.parametrize("profile", [V5, V6])
def test_v7_only_chunks_are_ignored_by_older_profiles(profile: Profile) -> None:
    chunks = [START, {"type": "custom", "kind": "a.b"}, {"type": "reset-step"}, FINISH]
    result = fold(chunks, profile)
    assert result.message == {"id": "m", "role": "assistant", "parts": []}
    assert result.findings == []


def test_tool_input_streaming_partial_json_and_raw_input() -> None:
    part = _part("tool-stream", V7, 1)
    assert part["state"] == "input-streaming"
    assert part["input"] == {"city": "Pa"}
    assert part["rawInput"] == '{"city":"Pa'
    # v6+: providerMetadata of tool-input-start becomes callProviderMetadata; title/toolMetadata kept
    assert part["callProviderMetadata"] == {"p": {"s": 1}}
    assert part["title"] == "W"
    # v5 reads none of these from tool-input-start
    v5 = _part("tool-stream", V5, 1)
    assert not {"callProviderMetadata", "title", "toolMetadata"} & set(v5)


@pytest.mark.parametrize("profile", [V6, V7])
def test_input_encoding_text_keeps_raw_text(profile: Profile) -> None:
    part = _part("tool-stream-text", profile, 0)
    assert part["input"] == part["rawInput"] == '{"city":"Pa'
    assert part["inputEncoding"] == "text"


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_input_available_clears_raw_input_and_encoding_output_keeps_call_metadata(profile: Profile) -> None:
    part = _part("tool-full", profile, 1)
    assert part["state"] == "output-available"
    assert part["output"] == {"t": 2}
    assert not {"rawInput", "inputEncoding", "preliminary"} & set(part)  # the final output drops preliminary
    assert part["callProviderMetadata"] == {"p": {"call": 1}}
    assert part["providerExecuted"] is True
    if profile is V5:
        assert "resultProviderMetadata" not in part
    else:
        assert part["resultProviderMetadata"] == {"p": {"res": 1}}
        assert part["toolMetadata"] == {"m": 2}


def test_static_tool_input_error_raw_input_v5_v6_input_v7() -> None:
    assert _part("tool-input-error", V5, 0)["rawInput"] == "{bad"
    assert "input" not in _part("tool-input-error", V6, 0)
    assert _part("tool-input-error", V7, 0)["input"] == "{bad"
    for profile in ALL_PROFILES:
        dynamic = _part("tool-input-error", profile, 1)
        assert dynamic["type"] == "dynamic-tool"
        assert dynamic["input"] == {"q": 1}
    # the input error's providerMetadata: callProviderMetadata in v5 (only on a new part), result... in v6+
    assert _part("tool-input-error", V5, 0)["callProviderMetadata"] == {"p": {"e": 1}}
    assert "callProviderMetadata" not in _part("tool-input-error-after-start", V5, 0)
    assert _part("tool-input-error", V6, 0)["resultProviderMetadata"] == {"p": {"e": 1}}


def test_tool_input_error_ignores_its_title() -> None:
    assert _part("input-error-title", V6, 0)["title"] == "Start title"
    assert _part("input-error-title", V7, 0)["toolMetadata"] == {"m": 1}


def test_dynamic_tool_v5_output_ignores_provider_executed() -> None:
    assert _part("dynamic-full", V5, 0)["providerExecuted"] is True  # from tool-input-available
    assert _part("dynamic-full", V6, 0)["providerExecuted"] is False  # from the output chunk
    assert _part("dynamic-full", V7, 0)["title"] == "MCP"


def test_approval_request_fields_per_profile() -> None:
    assert _part("approval-v6", V6, 0)["approval"] == {
        "id": "ap",
        "descriptor": {"d": 1},
        "inputSchemaInput": None,
        "signature": "sig",
    }
    assert _part("approval-v6", V7, 0)["approval"] == {
        "id": "ap",
        "descriptor": {"d": 1},
        "inputSchemaInput": None,
        "requestReason": "r",
        "isAutomatic": True,
        "signature": "sig",
    }


def test_v7_approval_response_then_denied_or_output_keeps_approval() -> None:
    denied = _part("approval-v7-denied", V7, 0)
    assert denied["state"] == "output-denied"
    assert denied["approval"] == {"id": "ap", "requestReason": "destructive", "approved": False, "reason": "no"}
    assert denied["callProviderMetadata"] == {"p": {"r": 1}}
    approved = _part("approval-v7-approved", V7, 0)
    assert approved["state"] == "output-available"
    assert approved["approval"] == {"id": "ap", "approved": True}


@pytest.mark.parametrize("profile", [V6, V7])
def test_output_denied_only_sets_state(profile: Profile) -> None:
    part = _part("denied-without-response", profile, 0)
    assert part["state"] == "output-denied"
    assert part["approval"] == {"id": "ap"}


@pytest.mark.parametrize("profile", [V6, V7])
def test_continuation_from_approval_responded(profile: Profile) -> None:
    result = _fold("continue-v6", profile)
    assert result.findings == []
    assert result.message is not None
    denied, done = result.message["parts"][1], result.message["parts"][2]
    assert denied["state"] == "output-denied"
    assert denied["approval"] == {"id": "ap", "approved": False, "reason": "no"}
    assert done["state"] == "output-available"
    assert done["approval"] == {"id": "ap2", "approved": True}


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_data_parts(profile: Profile) -> None:
    message = _fold("data", profile).message
    assert message is not None
    parts = message["parts"]
    assert parts[0] == {"type": "data-p", "id": "d", "data": {"pct": 100}}  # replaced in place, extra not copied
    assert parts[1] == {"type": "data-note", "data": "n", "transient": False, "extra": 1}  # the chunk itself
    assert not any(p["type"] == "data-toast" for p in parts)  # transient: never stored
    assert [p["type"] for p in parts].count("data-p") == 3  # no id: never merged


def test_step_start_alone_yields_no_snapshot() -> None:
    # the SDK threw right after a start-step: the last yielded snapshot lacks the step-start part
    for profile in ALL_PROFILES:
        result = _fold("step-then-fatal", profile)
        assert result.stopped_at == 4
        assert result.message == {
            "id": "m",
            "role": "assistant",
            "parts": [{"type": "text", "text": "", "state": "done"}],
        }


def test_finish_step_forgets_open_parts_in_v5_v6_not_v7() -> None:
    assert _fold("forget-at-finish-step", V5).stopped_at == 5
    assert _fold("forget-at-finish-step", V6).stopped_at == 5
    v7 = _fold("forget-at-finish-step", V7)
    assert v7.stopped_at is None
    assert v7.findings == []


def test_reset_step_drops_the_step_but_keeps_its_marker() -> None:
    result = _fold("reset-step", V7)
    assert result.message is not None
    assert [p.get("text") for p in result.message["parts"]] == [None, "", None, "keep"]
    assert result.finish_reason == "interrupted"


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_metadata_deep_merge(profile: Profile) -> None:
    result = _fold("metadata", profile)
    assert result.message is not None
    # objects merge recursively, arrays and other values are replaced, later wins, null is kept;
    # "__proto__", "constructor" and "prototype" keys are skipped by the merge
    assert result.message["metadata"] == {
        "a": {"x": {"deep": True}, "arr": [3], "y": 2},
        "k": {"now": "obj"},
        "n": None,
    }
    assert result.finish_reason == "stop"


def test_metadata_merge_of_non_objects() -> None:
    assert _fold("metadata-string-override", V7).message == {
        "id": "",
        "role": "assistant",
        "parts": [],
        "metadata": {"a": 1, "0": 5, "1": "y"},
    }
    assert _fold("metadata-array-base", V7).message == {
        "id": "",
        "role": "assistant",
        "parts": [],
        "metadata": {"0": {"a": 1, "b": 2}, "1": 2},
    }
    fatal = _fold("metadata-string-base", V6)
    assert fatal.stopped_at == 1
    assert fatal.message == {"id": "", "role": "assistant", "parts": [], "metadata": "ab"}


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_start_with_new_id_resets_same_id_keeps(profile: Profile) -> None:
    reset = _fold("new-id-resets", profile)
    assert reset.message == {"id": "m2", "role": "assistant", "parts": []}
    assert reset.stopped_at == 4  # the text part was dropped with its id
    kept = _fold("same-id-keeps", profile)
    assert kept.message is not None
    assert kept.message["parts"] == [{"type": "text", "text": "y", "state": "streaming"}]


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_prior_message(profile: Profile) -> None:
    assert _fold("prior-new-id", profile).message == {
        "id": "new",
        "role": "assistant",
        "parts": [{"type": "text", "text": "", "state": "done"}],
    }
    # nothing written: the SDK's iterable yields nothing at all, even with a prior message
    assert _fold("prior-no-write", profile).message is None
    # a prior that is not an assistant message: a fresh assistant message that takes its id
    assert _fold("prior-user", profile).message == {
        "id": "u1",
        "role": "assistant",
        "parts": [{"type": "text", "text": "", "state": "streaming"}],
    }
    # a prior tool part still streaming its input can be continued by deltas
    assert _part("prior-streaming-tool", profile, 1)["input"] == {"q": "x"}


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_chunks_that_write_nothing(profile: Profile) -> None:
    assert _fold("metadata-null", profile).message is None
    assert _fold("start-only", profile).message is None
    assert _fold("steps-no-write", profile).message == {"id": "m", "role": "assistant", "parts": []}
    assert _fold("finish-metadata-writes", profile).message == {
        "id": "",
        "role": "assistant",
        "parts": [],
        "metadata": {"done": True},
    }


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_error_and_abort_chunks(profile: Profile) -> None:
    result = _fold("error-abort", profile)
    assert result.errors == ["boom"]
    assert result.aborted
    assert not result.finished
    assert result.finish_reason is None
    assert "FOLD-FINISH" not in reqs(result)  # an abort ends a stream legitimately
    assert result.message is not None
    assert result.message["parts"] == [{"type": "text", "text": "", "state": "streaming"}]


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_each_part_keeps_the_partial_input_of_its_own_deltas(profile: Profile) -> None:
    # a delta after a step boundary starts a second part; the first keeps the parse of the text it saw
    assert _part("delta-across-steps", profile, 1)["input"] == {"a": [1]}
    assert _part("delta-across-steps", profile, 3)["input"] == {"a": [1, 2]}
    assert _part("restart-across-steps", profile, 1)["input"] == {"a": "x"}
    assert _part("restart-across-steps", profile, 3)["input"] == [True]


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_proto_key_in_streamed_input_fails_partial_parse(profile: Profile) -> None:
    part = _part("proto-input", profile, 0)
    assert "input" not in part
    assert part["rawInput"].startswith('{"__proto__"')


# ---------------------------------------------------------------------------------------------------
# Findings: one broken stream per violation kind, and clean streams without any
# ---------------------------------------------------------------------------------------------------

EXAMPLE = SDK_CASES["example"].chunks


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_clean_streams_have_no_findings(profile: Profile) -> None:
    names = ["text", "tool-full", "data", "sources", "dynamic-full", "bare-start-then-text"]
    names.append("example-v5" if profile is V5 else "example")
    for name in names:
        result = _fold(name, profile)
        assert result.findings == [], name
        assert result.stopped_at is None
        assert result.finished


def test_findings_carry_registry_level_index_and_expectations() -> None:
    result = fold([START, {"type": "text-delta", "id": "t", "delta": "x"}], V7)
    (finding,) = result.findings
    assert finding.requirement == "FOLD-DELTA-WITHOUT-START"
    assert finding.level is Level.MUST
    assert finding.chunk_index == 1
    assert finding.expected == 'text-start "t" before text-delta'
    assert finding.received == 'text-delta "t"'
    assert "fails here" in finding.message


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_start_first(profile: Profile) -> None:
    not_first = fold([{"type": "text-start", "id": "t"}, {"type": "text-end", "id": "t"}, FINISH], profile)
    assert reqs(not_first) == ["FOLD-START-FIRST"]
    assert not_first.findings[0].chunk_index == 0
    second = fold([START, {"type": "start"}, FINISH], profile)
    assert reqs(second) == ["FOLD-START-FIRST"]
    assert second.findings[0].chunk_index == 1
    empty = fold([], profile)
    assert reqs(empty) == ["FOLD-START-FIRST", "FOLD-FINISH"]
    assert empty.message is None


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_continuation_id(profile: Profile) -> None:
    prior = SDK_CASES["prior-new-id"].prior
    assert reqs(_fold("prior-new-id", profile)) == ["FOLD-CONTINUATION-ID"]
    for start in ({"type": "start"}, {"type": "start", "messageId": "old"}):
        result = fold(
            [start, {"type": "text-start", "id": "t"}, {"type": "text-end", "id": "t"}, FINISH], profile, prior=prior
        )
        assert result.findings == []
        assert result.message is not None
        assert result.message["id"] == "old"
        assert result.message["metadata"] == {"keep": 1}
        assert [p["text"] for p in result.message["parts"]] == ["before", ""]


@pytest.mark.parametrize("profile", ALL_PROFILES)
@pytest.mark.parametrize("kind", ["text", "reasoning"])
def test_delta_without_start_is_fatal(profile: Profile, kind: str) -> None:
    chunks = [
        START,
        {"type": f"{kind}-start", "id": "a"},
        {"type": f"{kind}-delta", "id": "a", "delta": "ok"},
        {"type": f"{kind}-end", "id": "a"},
        {"type": f"{kind}-delta", "id": "a", "delta": "late"},
        {"type": "data-x", "data": 1},
        FINISH,
    ]
    result = fold(chunks, profile)
    assert reqs(result) == ["FOLD-DELTA-WITHOUT-START"]
    assert result.stopped_at == 4
    assert "already ended at index 3" in result.findings[0].message
    assert result.message is not None
    assert result.message["parts"][0]["text"] == "ok"
    assert len(result.message["parts"]) == 1  # nothing after the failure is applied
    assert not result.finished


def test_delta_after_finish_step_names_the_v5_v6_rule() -> None:
    result = _fold("forget-at-finish-step", V6)
    assert reqs(result) == ["FOLD-DELTA-WITHOUT-START"]
    assert "finish-step" in result.findings[0].message


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_duplicate_start_and_part_not_ended(profile: Profile) -> None:
    result = _fold("duplicate-start", profile)
    assert reqs(result) == ["FOLD-DUPLICATE-START", "FOLD-PART-NOT-ENDED"]
    assert [f.chunk_index for f in result.findings] == [3, 1]


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_part_not_ended(profile: Profile) -> None:
    chunks = [START, {"type": "start-step"}, {"type": "reasoning-start", "id": "r"}, {"type": "finish-step"}, FINISH]
    result = fold(chunks, profile)
    assert reqs(result) == ["FOLD-PART-NOT-ENDED"]
    assert result.findings[0].chunk_index == 2
    ended = fold([*chunks[:3], {"type": "reasoning-end", "id": "r"}, *chunks[3:]], profile)
    assert ended.findings == []


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_tool_unknown_call(profile: Profile) -> None:
    for name in ("unknown-output", "unknown-delta"):
        result = _fold(name, profile)
        assert reqs(result) == ["FOLD-TOOL-UNKNOWN-CALL"]
        assert result.stopped_at == 1
        assert result.message == {"id": "m", "role": "assistant", "parts": []}


@pytest.mark.parametrize("profile", [V6, V7])
def test_tool_unknown_call_for_denial_and_approval_request(profile: Profile) -> None:
    assert reqs(_fold("unknown-denied", profile)) == ["FOLD-TOOL-UNKNOWN-CALL"]
    request = fold([START, {"type": "tool-approval-request", "toolCallId": "x", "approvalId": "a"}, FINISH], profile)
    assert reqs(request) == ["FOLD-TOOL-UNKNOWN-CALL"]
    assert request.stopped_at == 1


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_tool_state_order(profile: Profile) -> None:
    result = _fold("output-after-terminal", profile)
    assert reqs(result) == ["FOLD-TOOL-STATE-ORDER", "FOLD-TOOL-STATE-ORDER"]
    assert [f.chunk_index for f in result.findings] == [3, 4]
    assert result.findings[0].json_path == "$.parts[0]"
    assert "output-error" in (result.findings[0].received or "")
    for name, index in (("delta-after-available", 4), ("input-start-twice", 5), ("output-error-after-stream", 3)):
        again = _fold(name, profile)
        # (input-start-twice also leaves the call streaming: FOLD-TOOL-INPUT-NOT-ENDED once registered)
        assert [r for r in reqs(again) if r != "FOLD-TOOL-INPUT-NOT-ENDED"] == ["FOLD-TOOL-STATE-ORDER"], name
        assert again.findings[0].chunk_index == index


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_preliminary_outputs_are_in_order(profile: Profile) -> None:
    flag = {"dynamic": True} if profile is V5 else {}
    chunks = [
        START,
        {"type": "tool-input-available", "toolCallId": "c", "toolName": "t", "input": {}, "dynamic": True},
        {"type": "tool-output-available", "toolCallId": "c", "output": 1, "preliminary": True, **flag},
        {"type": "tool-output-available", "toolCallId": "c", "output": 2, "preliminary": True, **flag},
        {"type": "tool-output-available", "toolCallId": "c", "output": 3, **flag},
        FINISH,
    ]
    assert fold(chunks, profile).findings == []
    late = fold(
        [*chunks[:-1], {"type": "tool-output-error", "toolCallId": "c", "errorText": "e", **flag}, FINISH], profile
    )
    assert reqs(late) == ["FOLD-TOOL-STATE-ORDER"]


@pytest.mark.parametrize("profile", [V6, V7])
def test_tool_state_order_around_approvals(profile: Profile) -> None:
    assert reqs(_fold("denied-without-response", profile)) == ["FOLD-TOOL-STATE-ORDER"]
    assert reqs(_fold("approval-request-twice", profile)) == ["FOLD-TOOL-STATE-ORDER"]
    unanswered = [
        START,
        {"type": "tool-input-available", "toolCallId": "c", "toolName": "t", "input": {}},
        {"type": "tool-approval-request", "toolCallId": "c", "approvalId": "a"},
        {"type": "tool-output-available", "toolCallId": "c", "output": 1},
        FINISH,
    ]
    result = fold(unanswered, profile)
    assert reqs(result) == ["FOLD-TOOL-STATE-ORDER"]
    assert "approval is answered" in result.findings[0].message
    assert result.message is not None
    assert result.message["parts"][0]["approval"] == {"id": "a"}  # kept through the output
    # after a denial in the prior message, an output is out of order, a denial is not
    prior = SDK_CASES["continue-v6"].prior
    output = fold(
        [{"type": "start"}, {"type": "tool-output-available", "toolCallId": "c", "output": 1}, FINISH],
        profile,
        prior=prior,
    )
    assert reqs(output) == ["FOLD-TOOL-STATE-ORDER"]


def test_tool_state_order_v7_approval_response_twice() -> None:
    result = _fold("approval-response-twice", V7)
    assert reqs(result) == ["FOLD-TOOL-STATE-ORDER"]
    assert result.findings[0].chunk_index == 4


def test_approval_unknown_is_fatal_in_v7() -> None:
    result = _fold("unknown-approval", V7)
    assert reqs(result) == ["FOLD-APPROVAL-UNKNOWN"]
    assert result.stopped_at == 1


def test_dynamic_flag_v5_outputs() -> None:
    for name in ("v5-dynamic-missing-flag", "v5-dynamic-flag-on-static"):
        v5 = _fold(name, V5)
        assert reqs(v5) == ["FOLD-DYNAMIC-FLAG"], name
        assert v5.stopped_at == 2
        for profile in (V6, V7):  # v6 and v7 find the part by toolCallId whatever the flag says
            assert _fold(name, profile).findings == []


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_dynamic_flag_on_input_chunks(profile: Profile) -> None:
    result = _fold("dynamic-input-mismatch", profile)
    assert reqs(result) == ["FOLD-DYNAMIC-FLAG"]
    assert result.stopped_at is None  # tolerated: the SDK adds a second part
    assert result.message is not None
    assert [p["type"] for p in result.message["parts"]] == ["dynamic-tool", "tool-w"]


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_step_balance(profile: Profile) -> None:
    ok = [
        START,
        {"type": "start-step"},
        {"type": "finish-step"},
        {"type": "start-step"},
        {"type": "finish-step"},
        FINISH,
    ]
    assert fold(ok, profile).findings == []
    twice = fold([START, {"type": "start-step"}, {"type": "start-step"}, {"type": "finish-step"}, FINISH], profile)
    assert reqs(twice) == ["FOLD-STEP-BALANCE"]
    assert twice.findings[0].chunk_index == 2
    unopened = fold([START, {"type": "finish-step"}, FINISH], profile)
    assert reqs(unopened) == ["FOLD-STEP-BALANCE"]
    assert reqs(_fold("steps-no-write", profile)) == ["FOLD-STEP-BALANCE"]  # finish with an open step


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_after_finish_is_reported_once_and_still_applied(profile: Profile) -> None:
    late = [{"type": "data-late", "data": 1}, {"type": "data-late", "data": 2}]
    result = fold([START, FINISH, *late], profile)
    assert reqs(result) == ["FOLD-AFTER-FINISH"]
    assert result.findings[0].chunk_index == 2
    assert result.message is not None
    assert [p["data"] for p in result.message["parts"]] == [1, 2]


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_finish_missing(profile: Profile) -> None:
    result = fold([START, {"type": "text-start", "id": "t"}, {"type": "text-end", "id": "t"}], profile)
    assert reqs(result) == ["FOLD-FINISH"]
    assert not result.finished
    aborted = fold([START, {"type": "abort"}], profile)
    assert aborted.findings == []
    assert aborted.aborted


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_metadata_merge_findings(profile: Profile) -> None:
    fatal = _fold("metadata-string-base", profile)
    assert fatal.stopped_at == 1  # the SDK throws a TypeError merging into string metadata
    tolerated = _fold("metadata-string-override", profile)
    assert tolerated.stopped_at is None
    assert reqs(fatal) == ["FOLD-METADATA-MERGE"]
    assert reqs(tolerated) == ["FOLD-METADATA-MERGE", "FOLD-METADATA-MERGE", "FOLD-FINISH"]
    assert _fold("metadata", profile).findings == []


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_tool_input_not_ended(profile: Profile) -> None:
    chunks = [
        START,
        {"type": "tool-input-start", "toolCallId": "c", "toolName": "t"},
        {"type": "tool-input-delta", "toolCallId": "c", "inputTextDelta": "{"},
        FINISH,
    ]
    result = fold(chunks, profile)
    assert fold([*chunks[:3], {"type": "abort"}], profile).findings == []
    assert reqs(result) == ["FOLD-TOOL-INPUT-NOT-ENDED"]
    assert result.findings[0].chunk_index == 1


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_bad_prior_and_bad_chunk_do_not_raise(profile: Profile) -> None:
    bad_prior = fold([START, FINISH], profile, prior={"id": "x", "role": "assistant", "parts": "nope"})
    assert reqs(bad_prior) == ["MESSAGE-SCHEMA"]
    assert bad_prior.stopped_at == 0
    assert bad_prior.message is None
    no_type = fold([START, {"id": "t"}, FINISH], profile)
    assert reqs(no_type) == ["CHUNK-SCHEMA"]
    assert no_type.stopped_at == 1


# ---------------------------------------------------------------------------------------------------
# Result fields, Folder, immutability
# ---------------------------------------------------------------------------------------------------


def test_result_fields() -> None:
    result = fold(EXAMPLE, V7)
    assert result.finish_reason == "tool-calls"
    assert result.finished
    assert not result.aborted
    assert result.errors == []
    assert result.stopped_at is None


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_folder_feeds_incrementally(profile: Profile) -> None:
    folder = Folder(profile)
    for chunk in EXAMPLE[:5]:
        folder.feed(chunk)  # default index: the count fed so far
    partial = folder.result()
    assert partial.message is not None
    assert partial.message["parts"][1]["text"] == "Need the weather first."
    assert reqs(partial) == ["FOLD-FINISH"]  # as if the stream ended now
    for index, chunk in enumerate(EXAMPLE[5:], start=5):
        folder.feed(chunk, index)
    assert folder.result() == folder.result() == fold(EXAMPLE, profile)


def test_folder_ignores_chunks_after_the_stop() -> None:
    folder = Folder(V7)
    folder.feed(START, 0)
    folder.feed({"type": "text-delta", "id": "x", "delta": "a"}, 1)
    folder.feed({"type": "error", "errorText": "later"}, 2)
    result = folder.result()
    assert result.stopped_at == 1
    assert result.errors == []


def test_inputs_are_not_mutated() -> None:
    case = SDK_CASES["continue-v6"]
    chunks, prior = copy.deepcopy(case.chunks), copy.deepcopy(case.prior)
    data_chunks = [
        START,
        {"type": "data-x", "id": "d", "data": {"a": 1}},
        {"type": "data-x", "id": "d", "data": {"b": 2}},
    ]
    data_copy = copy.deepcopy(data_chunks)
    result = fold(chunks, V6, prior=prior)
    fold(data_chunks, V6)
    assert chunks == case.chunks
    assert prior == case.prior
    assert data_chunks == data_copy
    assert result.message is not None
    result.message["parts"].clear()  # the result is the caller's own copy
    assert fold(chunks, V6, prior=prior).message != result.message


# ---------------------------------------------------------------------------------------------------
# parse_partial_json / fix_json (expected values: the SDK's parsePartialJson, see the module docstring)
# ---------------------------------------------------------------------------------------------------

DOC = '{"city":"Paris","n":-12.5e+3,"ok":true,"arr":[1,[2,{"x":"y"}],[]],"nil":null}'
DOC_PREFIXES_V7: list[tuple[str, Any]] = [
    ("failed-parse", None),
    ("repaired-parse", {}),
    ("repaired-parse", {}),
    ("repaired-parse", {}),
    ("repaired-parse", {}),
    ("repaired-parse", {}),
    ("repaired-parse", {}),
    ("repaired-parse", {}),
    ("repaired-parse", {}),
    ("repaired-parse", {"city": ""}),
    ("repaired-parse", {"city": "P"}),
    ("repaired-parse", {"city": "Pa"}),
    ("repaired-parse", {"city": "Par"}),
    ("repaired-parse", {"city": "Pari"}),
    ("repaired-parse", {"city": "Paris"}),
    ("repaired-parse", {"city": "Paris"}),
    ("repaired-parse", {"city": "Paris"}),
    ("repaired-parse", {"city": "Paris"}),
    ("repaired-parse", {"city": "Paris"}),
    ("repaired-parse", {"city": "Paris"}),
    ("repaired-parse", {"city": "Paris"}),
    ("repaired-parse", {"city": "Paris"}),
    ("repaired-parse", {"city": "Paris", "n": -1}),
    ("repaired-parse", {"city": "Paris", "n": -12}),
    ("repaired-parse", {"city": "Paris", "n": -12}),
    ("repaired-parse", {"city": "Paris", "n": -12.5}),
    ("repaired-parse", {"city": "Paris", "n": -12.5}),
    ("repaired-parse", {"city": "Paris", "n": -12.5}),
    ("repaired-parse", {"city": "Paris", "n": -12.5}),
    ("repaired-parse", {"city": "Paris", "n": -12.5}),
    ("repaired-parse", {"city": "Paris", "n": -12.5}),
    ("repaired-parse", {"city": "Paris", "n": -12.5}),
    ("repaired-parse", {"city": "Paris", "n": -12.5}),
    ("repaired-parse", {"city": "Paris", "n": -12.5}),
    ("repaired-parse", {"city": "Paris", "n": -12.5}),
    ("repaired-parse", {"city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [], "city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [1], "city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [1], "city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [1, []], "city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [1, [2]], "city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [1, [2]], "city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [1, [2, {}]], "city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [1, [2, {}]], "city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [1, [2, {}]], "city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [1, [2, {}]], "city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [1, [2, {}]], "city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [1, [2, {"x": ""}]], "city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [1, [2, {"x": "y"}]], "city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [1, [2, {"x": "y"}]], "city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [1, [2, {"x": "y"}]], "city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [1, [2, {"x": "y"}]], "city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [1, [2, {"x": "y"}]], "city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [1, [2, {"x": "y"}], []], "city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [1, [2, {"x": "y"}], []], "city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [1, [2, {"x": "y"}], []], "city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [1, [2, {"x": "y"}], []], "city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [1, [2, {"x": "y"}], []], "city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [1, [2, {"x": "y"}], []], "city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [1, [2, {"x": "y"}], []], "city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [1, [2, {"x": "y"}], []], "city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [1, [2, {"x": "y"}], []], "city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [1, [2, {"x": "y"}], []], "city": "Paris", "n": -12500, "ok": True}),
    ("repaired-parse", {"arr": [1, [2, {"x": "y"}], []], "city": "Paris", "n": -12500, "nil": None, "ok": True}),
    ("repaired-parse", {"arr": [1, [2, {"x": "y"}], []], "city": "Paris", "n": -12500, "nil": None, "ok": True}),
    ("repaired-parse", {"arr": [1, [2, {"x": "y"}], []], "city": "Paris", "n": -12500, "nil": None, "ok": True}),
    ("repaired-parse", {"arr": [1, [2, {"x": "y"}], []], "city": "Paris", "n": -12500, "nil": None, "ok": True}),
    ("successful-parse", {"arr": [1, [2, {"x": "y"}], []], "city": "Paris", "n": -12500, "nil": None, "ok": True}),
]
PARTIAL_CASES: list[tuple[Profile, str, str, Any]] = [
    (V5, "", "failed-parse", None),
    (V6, "", "failed-parse", None),
    (V7, "", "failed-parse", None),
    (V5, " ", "failed-parse", None),
    (V6, " ", "failed-parse", None),
    (V7, " ", "failed-parse", None),
    (V5, "-", "failed-parse", None),
    (V6, "-", "failed-parse", None),
    (V7, "-", "failed-parse", None),
    (V5, "[x", "failed-parse", None),
    (V6, "[x", "failed-parse", None),
    (V7, "[x", "repaired-parse", []),
    (V5, "[ x", "failed-parse", None),
    (V6, "[ x", "failed-parse", None),
    (V7, "[ x", "repaired-parse", []),
    (V5, "[-", "failed-parse", None),
    (V6, "[-", "failed-parse", None),
    (V7, "[-", "repaired-parse", []),
    (V5, '{"a":"\\u00', "failed-parse", None),
    (V6, '{"a":"\\u00', "repaired-parse", {"a": ""}),
    (V7, '{"a":"\\u00', "repaired-parse", {"a": ""}),
    (V5, '{"a":"b\\u00e9', "repaired-parse", {"a": "bé"}),
    (V6, '{"a":"b\\u00e9', "repaired-parse", {"a": "bé"}),
    (V7, '{"a":"b\\u00e9', "repaired-parse", {"a": "bé"}),
    (V5, "[1😀", "failed-parse", None),
    (V6, "[1😀", "failed-parse", None),
    (V7, "[1😀", "failed-parse", None),
    (V5, "[ 5", "repaired-parse", [5]),
    (V6, "[ 5", "repaired-parse", [5]),
    (V7, "[ 5", "repaired-parse", [5]),
    (V5, '{"e":1e400,"f":-1e999}', "successful-parse", {"e": None, "f": None}),
    (V6, '{"e":1e400,"f":-1e999}', "successful-parse", {"e": None, "f": None}),
    (V7, '{"e":1e400,"f":-1e999}', "successful-parse", {"e": None, "f": None}),
    (V5, '{"__proto__":1}', "failed-parse", None),
    (V6, '{"__proto__":1}', "failed-parse", None),
    (V7, '{"__proto__":1}', "failed-parse", None),
    (V5, '{"a":{"__proto__":{}}}', "failed-parse", None),
    (V6, '{"a":{"__proto__":{}}}', "failed-parse", None),
    (V7, '{"a":{"__proto__":{}}}', "failed-parse", None),
    (V5, '{"constructor":{"prototype":1}}', "failed-parse", None),
    (V6, '{"constructor":{"prototype":1}}', "failed-parse", None),
    (V7, '{"constructor":{"prototype":1}}', "failed-parse", None),
    (V5, '{"constructor":1}', "successful-parse", {"constructor": 1}),
    (V6, '{"constructor":1}', "successful-parse", {"constructor": 1}),
    (V7, '{"constructor":1}', "successful-parse", {"constructor": 1}),
    (V5, "nul", "repaired-parse", None),
    (V6, "nul", "repaired-parse", None),
    (V7, "nul", "repaired-parse", None),
    (V5, "[tru", "repaired-parse", [True]),
    (V6, "[tru", "repaired-parse", [True]),
    (V7, "[tru", "repaired-parse", [True]),
    (V5, '{"a":fa', "repaired-parse", {"a": False}),
    (V6, '{"a":fa', "repaired-parse", {"a": False}),
    (V7, '{"a":fa', "repaired-parse", {"a": False}),
    (V5, '{"a":1,"b":', "repaired-parse", {"a": 1}),
    (V6, '{"a":1,"b":', "repaired-parse", {"a": 1}),
    (V7, '{"a":1,"b":', "repaired-parse", {"a": 1}),
    (V5, '"abc', "repaired-parse", "abc"),
    (V6, '"abc', "repaired-parse", "abc"),
    (V7, '"abc', "repaired-parse", "abc"),
    (V5, "12.", "repaired-parse", 12),
    (V6, "12.", "repaired-parse", 12),
    (V7, "12.", "repaired-parse", 12),
    (V5, "1e", "repaired-parse", 1),
    (V6, "1e", "repaired-parse", 1),
    (V7, "1e", "repaired-parse", 1),
    (V5, '{"a":[1,2', "repaired-parse", {"a": [1, 2]}),
    (V6, '{"a":[1,2', "repaired-parse", {"a": [1, 2]}),
    (V7, '{"a":[1,2', "repaired-parse", {"a": [1, 2]}),
    (V5, '{"a":"x\\', "repaired-parse", {"a": "x"}),
    (V6, '{"a":"x\\', "repaired-parse", {"a": "x"}),
    (V7, '{"a":"x\\', "repaired-parse", {"a": "x"}),
    (V5, "[1,]", "repaired-parse", [1]),
    (V6, "[1,]", "repaired-parse", [1]),
    (V7, "[1,]", "repaired-parse", [1]),
    (V5, '{"a":1}x', "repaired-parse", {"a": 1}),
    (V6, '{"a":1}x', "repaired-parse", {"a": 1}),
    (V7, '{"a":1}x', "repaired-parse", {"a": 1}),
    (V5, '"\\ud83d', "repaired-parse", "\ud83d"),
    (V6, '"\\ud83d', "repaired-parse", "\ud83d"),
    (V7, '"\\ud83d', "repaired-parse", "\ud83d"),
    (V5, '["a",tr', "repaired-parse", ["a", True]),
    (V6, '["a",tr', "repaired-parse", ["a", True]),
    (V7, '["a",tr', "repaired-parse", ["a", True]),
    (V5, '{"k":"v"} ', "successful-parse", {"k": "v"}),
    (V6, '{"k":"v"} ', "successful-parse", {"k": "v"}),
    (V7, '{"k":"v"} ', "successful-parse", {"k": "v"}),
    (V5, "[1 , 2", "repaired-parse", [1, 2]),
    (V6, "[1 , 2", "repaired-parse", [1, 2]),
    (V7, "[1 , 2", "repaired-parse", [1, 2]),
]


def test_partial_json_every_cut_point_of_a_document() -> None:
    assert len(DOC_PREFIXES_V7) == len(DOC) + 1
    for cut, (state, value) in enumerate(DOC_PREFIXES_V7):
        parsed = parse_partial_json(DOC[:cut], V7)
        assert (parsed.state, parsed.value) == (state, value), DOC[:cut]


@pytest.mark.parametrize(("profile", "text", "state", "value"), PARTIAL_CASES)
def test_partial_json_matches_sdk(profile: Profile, text: str, state: str, value: Any) -> None:
    parsed = parse_partial_json(text, profile)
    assert parsed.state == state
    if state != "failed-parse":
        assert parsed.value == value


def test_fix_json_closes_and_drops() -> None:
    assert fix_json('{"a":[1,{"b":"c') == '{"a":[1,{"b":"c"}]}'
    assert fix_json('{"a":tr') == '{"a":true}'
    assert fix_json('{"a":1,"b":') == '{"a":1}'
    assert fix_json("[1e") == "[1]"
    assert fix_json("[x", V6) == "[x]"
    assert fix_json("[x", V7) == "[]"


def _inside_string(text: str) -> bool:
    inside = escaped = False
    for ch in text:
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = inside
        elif ch == '"':
            inside = not inside
    return inside


def _unrepairable(text: str, profile: Profile) -> bool:
    """Prefixes of valid JSON the SDK itself cannot repair (checked with parsePartialJson on ~90,000
    prefixes of documents from this strategy): the empty text, a lone "-", and before v7 a "-" right
    after "[" (v5 and v6 count that "-" as valid and produce "[-]")."""
    if text in ("", "-"):
        return True
    return profile is not V7 and text.endswith("[-") and not _inside_string(text[:-1])


def _has_escaped_key(doc: Any) -> bool:
    """Whether any object key needs an escape in JSON (a quote, a backslash or a control character)."""
    if isinstance(doc, dict):
        return any(json.dumps(k)[1:-1] != k or _has_escaped_key(v) for k, v in doc.items())
    if isinstance(doc, list):
        return any(_has_escaped_key(v) for v in doc)
    return False


def test_sdk_does_not_repair_escaped_keys() -> None:
    # checked against the SDK's parsePartialJson: fixJson closes the key at the escaped quote
    assert parse_partial_json('{"\\":"', V5).state == "failed-parse"
    assert parse_partial_json('{"\\":"', V7).state == "failed-parse"
    assert parse_partial_json('{"a":"', V7).value == {"a": ""}


@settings(max_examples=200, deadline=None)
@given(doc=json_values, ascii_only=st.booleans(), profile=st.sampled_from(ALL_PROFILES))
def test_partial_json_prefix_property(doc: Any, ascii_only: bool, profile: Profile) -> None:
    text = json.dumps(doc, ensure_ascii=ascii_only)
    whole = parse_partial_json(text, profile)
    assert whole.state == "successful-parse"
    assert whole.value == doc
    if _has_escaped_key(doc):
        return  # the SDK's fixJson does not know escapes inside object keys: such prefixes may not repair
    for cut in range(len(text)):
        parsed = parse_partial_json(text[:cut], profile)
        if profile is V5 and "\\u" in text[:cut]:
            continue  # v5 treats \u as a one-character escape, so a cut inside \uXXXX may not repair
        assert (parsed.state == "failed-parse") == _unrepairable(text[:cut], profile), text[:cut]


# ---------------------------------------------------------------------------------------------------
# Properties over generated well-formed streams
# ---------------------------------------------------------------------------------------------------


_DELTAS = {"text-delta": "delta", "reasoning-delta": "delta", "tool-input-delta": "inputTextDelta"}


def _same_part(a: dict[str, Any], b: dict[str, Any]) -> bool:
    key = "toolCallId" if a["type"] == "tool-input-delta" else "id"
    return a["type"] == b["type"] and a["type"] in _DELTAS and a.get(key) == b.get(key)


def _regroup(draw: st.DrawFn, chunks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Merge runs of consecutive deltas of one part, then re-split each at random points."""
    merged: list[dict[str, Any]] = []
    for chunk in chunks:
        if merged and _same_part(merged[-1], chunk) and draw(st.booleans()):
            field = _DELTAS[chunk["type"]]
            merged[-1] = {**merged[-1], field: merged[-1][field] + chunk[field]}
        else:
            merged.append(chunk)
    out: list[dict[str, Any]] = []
    for chunk in merged:
        if chunk["type"] in _DELTAS:
            field = _DELTAS[chunk["type"]]
            out.extend({**chunk, field: piece} for piece in _cut(draw, chunk[field]))
        else:
            out.append(chunk)
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), profile=st.sampled_from(ALL_PROFILES))
def test_valid_streams_fold_clean_and_ignore_delta_boundaries(data: st.DataObject, profile: Profile) -> None:
    chunks = data.draw(valid_streams(profile))
    result = fold(chunks, profile)
    assert result.findings == []
    assert result.stopped_at is None
    assert result.finished
    assert result.finish_reason == "stop"
    assert result.message is not None
    assert result.message["id"] == chunks[0]["messageId"]
    # every text/reasoning part holds exactly the concatenation of its deltas, and is done
    texts = [p for p in result.message["parts"] if p["type"] in ("text", "reasoning")]
    expected = []
    for chunk in chunks:
        if chunk["type"] in ("text-start", "reasoning-start"):
            expected.append("")
        elif chunk["type"] in ("text-delta", "reasoning-delta"):
            expected[-1] += chunk["delta"]
    assert [p["text"] for p in texts] == expected
    assert all(p["state"] == "done" for p in texts)
    # no tool part is left streaming its input
    assert all(p.get("state") != "input-streaming" for p in result.message["parts"])
    # merging and re-splitting consecutive deltas (same concatenated text) changes nothing
    regrouped = _regroup(data.draw, chunks)
    again = fold(regrouped, profile)
    assert again.message == result.message
    assert again.findings == []
    # the incremental form agrees
    folder = Folder(profile)
    for index, chunk in enumerate(chunks):
        folder.feed(chunk, index)
    assert folder.result() == result


_FUZZ_TYPES = [
    "start", "finish", "message-metadata", "error", "abort", "start-step", "finish-step", "reset-step",
    "text-start", "text-delta", "text-end", "reasoning-start", "reasoning-delta", "reasoning-end", "file",
    "source-url", "custom", "steering-message", "tool-input-start", "tool-input-delta", "tool-input-available",
    "tool-input-error", "tool-approval-request", "tool-approval-response", "tool-output-denied",
    "tool-output-available", "tool-output-error", "data-x", "bogus",
]  # fmt: skip
_FUZZ_KEYS = [
    "id", "delta", "messageId", "messageMetadata", "toolCallId", "toolName", "inputTextDelta", "input",
    "output", "dynamic", "approvalId", "approved", "data", "transient", "providerMetadata", "inputEncoding",
    "preliminary", "errorText",
]  # fmt: skip
_fuzz_values = st.one_of(st.sampled_from(["c", "a", "text", "{", '"x"']), json_values)
_fuzz_chunks = st.lists(
    st.builds(
        lambda t, rest: {"type": t, **rest},
        st.sampled_from(_FUZZ_TYPES),
        st.dictionaries(st.sampled_from(_FUZZ_KEYS), _fuzz_values, max_size=4),
    ),
    max_size=12,
)


@settings(max_examples=300, deadline=None)
@given(chunks=_fuzz_chunks, profile=st.sampled_from(ALL_PROFILES))
def test_fold_never_raises(chunks: list[dict[str, Any]], profile: Profile) -> None:
    result = fold(chunks, profile)
    json.dumps(result.message)  # plain JSON, whatever came in
    if result.stopped_at is not None:  # a fatal stop is always reported
        assert any(f.level is Level.MUST and f.chunk_index == result.stopped_at for f in result.findings)


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_part_cut_off_by_error_or_abort_is_not_unended(profile: Profile) -> None:
    opened = [START, {"type": "text-start", "id": "t"}, {"type": "text-delta", "id": "t", "delta": "x"}]
    assert reqs(fold([*opened, FINISH], profile)) == ["FOLD-PART-NOT-ENDED"]
    assert fold([*opened, {"type": "error", "errorText": "boom"}, FINISH], profile).findings == []
    assert fold([*opened, {"type": "abort"}], profile).findings == []
    # an error before the part opened does not excuse it
    early_error = [START, {"type": "error", "errorText": "boom"}, *opened[1:], FINISH]
    assert reqs(fold(early_error, profile)) == ["FOLD-PART-NOT-ENDED"]
