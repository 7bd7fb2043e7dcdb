"""Benchmark: reading a recorded UI message stream end to end (`turnwire.stream.read_stream`).

Reports µs per event and the ratio against the cheapest possible work on the same bytes (`orjson.loads`
of each `data:` payload), measured in one run, plus each stage alone: SSE decoding, JSON parsing,
chunk validation (pydantic), the fold.
Run: `.venv/bin/python benchmarks/bench_stream.py [STEPS]` (default: 10 model steps in the turn).
The fold freezes a snapshot at each step start, as the SDK does, so its cost grows with very long turns.
"""

from __future__ import annotations

import platform
import statistics
import sys
import time
from collections.abc import Callable

import orjson

from turnwire.fold import fold
from turnwire.profiles import Profile
from turnwire.protocol import validate_chunk
from turnwire.sse import decode, encode_stream, parse_json_events
from turnwire.stream import read_stream


def realistic_chunks(steps: int = 10) -> list[dict[str, object]]:
    """A long assistant turn: per step reasoning, a streamed tool call with output, and text."""
    chunks: list[dict[str, object]] = [{"type": "start", "messageId": "msg-1"}]
    for s in range(steps):
        chunks.append({"type": "start-step"})
        chunks.append({"type": "reasoning-start", "id": f"r{s}"})
        chunks += [{"type": "reasoning-delta", "id": f"r{s}", "delta": f"thinking {i} "} for i in range(20)]
        chunks.append({"type": "reasoning-end", "id": f"r{s}"})
        call = f"call-{s}"
        chunks.append({"type": "tool-input-start", "toolCallId": call, "toolName": "search"})
        chunks += [
            {"type": "tool-input-delta", "toolCallId": call, "inputTextDelta": p}
            for p in ['{"q":', '"paris', ' weather"}']
        ]
        chunks.append(
            {"type": "tool-input-available", "toolCallId": call, "toolName": "search", "input": {"q": "paris weather"}}
        )
        chunks.append(
            {"type": "tool-output-available", "toolCallId": call, "output": {"tempC": 18.5, "hits": [1, 2, 3]}}
        )
        chunks.append({"type": "text-start", "id": f"t{s}"})
        chunks += [{"type": "text-delta", "id": f"t{s}", "delta": f"It is {i}°C. "} for i in range(40)]
        chunks.append({"type": "text-end", "id": f"t{s}"})
        chunks.append({"type": "finish-step"})
    chunks.append({"type": "finish", "finishReason": "stop"})
    return chunks


def best_of(fn: Callable[[], object], rounds: int = 7) -> tuple[float, float]:
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def main() -> None:
    profile = Profile.V7
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    chunks = realistic_chunks(steps)
    wire = encode_stream(chunks)
    payloads = [line[6:] for line in wire.split(b"\n") if line.startswith(b"data: ") and line != b"data: [DONE]"]
    n = len(payloads)
    decoded = decode(wire)
    parsed, _ = parse_json_events(decoded.events)
    values = [c.value for c in parsed]

    def validate_all() -> None:
        for v in values:
            validate_chunk(v, profile)

    rows = [
        ("orjson.loads per payload (baseline)", lambda: [orjson.loads(p) for p in payloads]),
        ("sse.decode", lambda: decode(wire)),
        ("sse.parse_json_events", lambda: parse_json_events(decoded.events)),
        ("protocol.validate_chunk (pydantic)", validate_all),
        ("fold", lambda: fold(values, profile)),
        ("read_stream (all of the above)", lambda: read_stream(wire, profile)),
        ("read_stream, fed in 4 KiB pieces", lambda: read_stream(wire, profile, chunk_sizes=4096)),
    ]
    print(f"python {platform.python_version()} on {platform.machine()}; {n} events, {len(wire) / 1e6:.2f} MB")
    print("| stage | best ms | µs/event | x baseline |")
    print("|---|---:|---:|---:|")
    base = None
    for name, fn in rows:
        best, _median = best_of(fn)
        base = base or best
        print(f"| {name} | {best * 1e3:.1f} | {best / n * 1e6:.2f} | {best / base:.1f}x |")


if __name__ == "__main__":
    main()
