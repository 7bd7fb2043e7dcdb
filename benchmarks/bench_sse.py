#!/usr/bin/env python3
"""Benchmark the SSE decoder against the cost of just parsing the same JSON payloads.

Builds a realistic UI message stream (start, one text part made of ~50k `text-delta` chunks,
finish, `[DONE]`), then times, in one run:

* `orjson.loads` of each payload (the baseline: the unavoidable cost of parsing the data);
* `decode()` of the whole body;
* `decode()` + `parse_json_events()`;
* `decode()` fed in 4 KiB pieces (as a network delivers it), alone and + `parse_json_events()`;
* `decode()` fed one piece per event (worst realistic case: one flush per chunk).

Prints µs/event (best and median over `--repeat` interleaved rounds) and the ratio of best times
to the baseline.

    .venv/bin/python benchmarks/bench_sse.py [--deltas 50000] [--repeat 9]
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import statistics
import time
from collections.abc import Callable

import orjson

from turnwire.sse import SSEDecoder, SSEEvent, decode, encode_stream, parse_json_events

# words of the text deltas, with multi-byte UTF-8 and what JSON must escape
_PLAIN_WORDS = (
    "the of and to in is that for it as was with be by on not he this are or his from at which but "
    "stream chunk token model agent tool result: café naïve 東京 😀"
)
WORDS = [*_PLAIN_WORDS.split(), '"quoted"', "back\\slash", "new\nline"]


def build_stream(n_deltas: int, seed: int = 7) -> tuple[bytes, list[bytes]]:
    """A UI message stream with `n_deltas` text deltas; also the JSON payload of every event."""
    rng = random.Random(seed)
    chunks: list[object] = [
        {"type": "start", "messageId": "msg_0123456789"},
        {"type": "start-step"},
        {"type": "text-start", "id": "txt_0"},
    ]
    for _ in range(n_deltas):
        delta = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4)))
        chunks.append({"type": "text-delta", "id": "txt_0", "delta": delta})
    chunks += [
        {"type": "text-end", "id": "txt_0"},
        {"type": "finish-step"},
        {"type": "finish", "finishReason": "stop"},
    ]
    body = encode_stream(chunks)
    payloads = [line[6:] for line in body.split(b"\n") if line.startswith(b"data: ") and line != b"data: [DONE]"]
    if len(payloads) != len(chunks):
        raise SystemExit("payload extraction is wrong")
    return body, payloads


def measure(cases: list[tuple[str, Callable[[], None]]], rounds: int) -> dict[str, list[float]]:
    """Wall times in seconds per case; cases are interleaved round by round so that a slow spell
    of the machine hits all of them alike. GC is paused during each timed call."""
    times: dict[str, list[float]] = {name: [] for name, _ in cases}
    for _, fn in cases:
        fn()  # warm-up
    for _ in range(rounds):
        for name, fn in cases:
            gc.collect()
            gc.disable()
            try:
                t0 = time.perf_counter()
                fn()
                times[name].append(time.perf_counter() - t0)
            finally:
                gc.enable()
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deltas", type=int, default=50_000, help="number of text-delta chunks")
    ap.add_argument("--repeat", type=int, default=9, help="interleaved rounds of measurement")
    args = ap.parse_args()

    body, payloads = build_stream(args.deltas)
    n_events = len(payloads) + 1  # + [DONE]
    per_event = [body[i : i + n] for i, n in _event_spans(body)]
    assert b"".join(per_event) == body

    # correctness first: every way of feeding gives the same result
    ref = decode(body)
    chunks, findings = parse_json_events(ref.events, end_offset=ref.size)
    if (
        len(ref.events) != n_events
        or ref.findings
        or findings
        or len(chunks) != len(payloads)
        or decode(body, chunk_sizes=4096) != ref
        or decode(body, chunk_sizes=[len(p) for p in per_event]) != ref
    ):
        raise SystemExit("decoder result differs between feeding modes or has findings")

    def baseline() -> None:
        loads = orjson.loads
        for p in payloads:
            loads(p)

    def decode_whole() -> None:
        decode(body)

    def decode_parse() -> None:
        d = decode(body)
        parse_json_events(d.events, end_offset=d.size)

    def decode_4k() -> None:
        decode(body, chunk_sizes=4096)

    def decode_4k_parse() -> None:
        d = decode(body, chunk_sizes=4096)
        parse_json_events(d.events, end_offset=d.size)

    def decode_per_event() -> None:
        dec = SSEDecoder()
        out: list[SSEEvent] = []
        for piece in per_event:
            out += dec.feed(piece)
        dec.close()

    cases: list[tuple[str, Callable[[], None]]] = [
        ("orjson.loads per payload (baseline)", baseline),
        ("decode() whole body", decode_whole),
        ("decode() + parse_json_events()", decode_parse),
        ("decode() fed 4 KiB pieces", decode_4k),
        ("decode() 4 KiB + parse_json_events()", decode_4k_parse),
        ("decode() fed 1 piece per event", decode_per_event),
    ]
    times = measure(cases, args.repeat)
    print(f"python {platform.python_version()} on {platform.machine()}, orjson {orjson.__version__}")
    print(
        f"stream: {n_events:,} events ({args.deltas:,} text-delta), {len(body) / 1e6:.3f} MB, "
        f"{-(-len(body) // 4096):,} pieces of 4 KiB; {args.repeat} interleaved rounds"
    )
    print("best = fastest round (least disturbed by other load); x baseline compares best times")
    print()
    print(
        f"| {'what':<38} | {'best ms':>8} | {'µs/event':>8} | {'median µs/ev':>12} | {'MB/s':>6} | {'x baseline':>10} |"
    )
    print(f"|{'-' * 40}|{'-' * 9}:|{'-' * 9}:|{'-' * 13}:|{'-' * 7}:|{'-' * 11}:|")
    base = min(times[cases[0][0]])
    for name, _ in cases:
        best = min(times[name])
        med = statistics.median(times[name])
        print(
            f"| {name:<38} | {best * 1e3:8.2f} | {best * 1e6 / n_events:8.3f} | "
            f"{med * 1e6 / n_events:12.3f} | {len(body) / best / 1e6:6.1f} | {best / base:10.2f} |"
        )


def _event_spans(body: bytes) -> list[tuple[int, int]]:
    """(start, length) of every `...\\n\\n`-terminated event in `body`."""
    spans = []
    start = 0
    while start < len(body):
        end = body.index(b"\n\n", start) + 2
        spans.append((start, end - start))
        start = end
    return spans


if __name__ == "__main__":
    main()
