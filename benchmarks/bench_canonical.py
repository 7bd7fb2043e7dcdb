#!/usr/bin/env python3
"""Benchmark turnwire.canonical against orjson parsing and the pure-Python rfc8785 package.

Not a test. Run: ``.venv/bin/python benchmarks/bench_canonical.py [--parts N] [--small N] [--rounds N]``.

Payloads are synthetic, seeded UIMessage-like documents (text / reasoning / tool / source / data
parts with non-ASCII text, escapes, float scores and integral floats such as ``120.0``). Every
contender is checked byte-for-byte against ``rfc8785.dumps`` first, then timed in interleaved
rounds (each function once per round, in turn) with ``timeit``; the median over rounds is
reported. "x orjson parse" is the time divided by ``orjson.loads`` of the same document's
bytes, in the same run, so it is comparable across machines.
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import statistics
import timeit
from collections.abc import Callable
from typing import Any

import orjson
import rfc8785

from turnwire import canonical

_VOCAB_TEXT = """agent tool stream schema token latency result query source citation model message part
the of and to in is that it for on are as with be this from or by not what all when can"""
VOCAB = _VOCAB_TEXT.split()
EXOTIC = ["naïve", "日本語", "emoji😀", "Привет", "مرحبا", "🚀", '"quoted"', "tab\there", "C:\\path", "line\n"]


def words(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(EXOTIC) if rng.random() < 0.05 else rng.choice(VOCAB) for _ in range(n))


def ident(rng: random.Random, prefix: str) -> str:
    return f"{prefix}_{rng.getrandbits(64):016x}"


def part(rng: random.Random) -> dict[str, Any]:
    kind = rng.choices(["text", "reasoning", "tool", "source", "data", "step"], [30, 15, 15, 15, 15, 10])[0]
    if kind == "text":
        return {"type": "text", "text": words(rng, rng.randint(40, 120)), "state": "done"}
    if kind == "reasoning":
        p: dict[str, Any] = {"type": "reasoning", "text": words(rng, rng.randint(30, 80)), "state": "done"}
        if rng.random() < 0.3:
            p["providerMetadata"] = {"anthropic": {"signature": f"{rng.getrandbits(256):064x}"}}
        return p
    if kind == "tool":
        hits = [
            {
                "title": words(rng, 6),
                "url": f"https://example.com/{rng.choice(VOCAB)}/{rng.getrandbits(32):08x}",
                "snippet": words(rng, 30),
                "score": round(rng.random(), 4),
                "rank": i + 1,
            }
            for i in range(rng.randint(3, 5))
        ]
        latency = rng.uniform(5, 500) if rng.random() < 0.5 else float(rng.randint(5, 500))
        return {
            "type": "tool-search",
            "toolCallId": ident(rng, "call"),
            "state": "output-available",
            "input": {"query": words(rng, 5), "maxResults": 5, "filters": {"lang": "en", "safe": True}},
            "output": {"results": hits, "totalResults": rng.randint(10, 100_000), "latencyMs": latency},
        }
    if kind == "source":
        return {
            "type": "source-url",
            "sourceId": ident(rng, "src"),
            "url": f"https://docs.example.org/{rng.choice(VOCAB)}?q={rng.getrandbits(24):06x}&lang=en",
            "title": words(rng, 8),
        }
    if kind == "data":
        start = rng.randint(0, 5000)
        return {
            "type": "data-citation",
            "id": ident(rng, "cit"),
            "data": {
                "sourceId": ident(rng, "src"),
                "start": start,
                "end": start + rng.randint(10, 400),
                "quote": words(rng, 15),
                "confidence": rng.random(),
            },
        }
    return {"type": "step-start"}


def message(rng: random.Random, nparts: int) -> dict[str, Any]:
    return {
        "id": ident(rng, "msg"),
        "role": "assistant",
        "metadata": {
            "model": "example-model-1",
            "createdAt": 1_730_000_000_000 + rng.randint(0, 10**9),
            "usage": {"inputTokens": rng.randint(10, 9999), "outputTokens": rng.randint(10, 9999)},
            "temperature": 1.0,
        },
        "parts": [part(rng) for _ in range(nparts)],
    }


def interleaved(fns: dict[str, Callable[[], object]], rounds: int, target_s: float) -> dict[str, float]:
    """Median seconds per call; every function runs once per round, round-robin."""
    numbers = {}
    for name, fn in fns.items():  # warm-up and calibration
        one = timeit.timeit(fn, number=1)
        numbers[name] = max(1, int(target_s / max(one, 1e-9)))
    samples: dict[str, list[float]] = {name: [] for name in fns}
    gc.collect()
    gc.freeze()  # fixtures stay out of GC scans; the measured code's garbage does not
    try:
        for _ in range(rounds):
            for name, fn in fns.items():
                samples[name].append(timeit.timeit(fn, number=numbers[name]) / numbers[name])
    finally:
        gc.unfreeze()
    return {name: statistics.median(ts) for name, ts in samples.items()}


def report(title: str, results: dict[str, float], base: str, nitems: int, item: str, out_bytes: int) -> None:
    print(f"\n### {title}\n")
    print("| approach | median ms | per item | MB/s (canonical bytes) | x orjson parse |")
    print("|---|---:|---:|---:|---:|")
    for name, secs in results.items():
        print(
            f"| {name} | {secs * 1e3:.2f} | {secs / nitems * 1e6:.2f} µs/{item} "
            f"| {out_bytes / secs / 1e6:.1f} | {secs / results[base]:.2f}x |"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--parts", type=int, default=5000, help="parts in the big message")
    ap.add_argument("--small", type=int, default=2000, help="number of small messages (1-6 parts)")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--target", type=float, default=0.2, help="seconds per sample")
    args = ap.parse_args()

    rng = random.Random(8785)
    big = message(rng, args.parts)
    small = [message(rng, rng.randint(1, 6)) for _ in range(args.small)]
    big_wire = orjson.dumps(big)
    small_wire = [orjson.dumps(d) for d in small]
    big_canon = canonical.dumps(big)
    small_canon_bytes = sum(len(canonical.dumps(d)) for d in small)

    # correctness first: a fast wrong answer is worthless
    assert big_canon == rfc8785.dumps(big), "big document differs from rfc8785"
    assert all(canonical.dumps(d) == rfc8785.dumps(d) for d in small), "a small document differs"
    assert canonical.dumps(canonical.loads(big_wire)) == big_canon

    print("## turnwire.canonical benchmark\n")
    print(
        f"- Python {platform.python_version()} ({platform.python_implementation()}), {platform.machine()}, "
        f"orjson {orjson.__version__}, rfc8785 {rfc8785.__version__}"
    )
    print(
        f"- big: 1 message, {args.parts} parts, {len(big_wire) / 1e6:.2f} MB wire, "
        f"{len(big_canon) / 1e6:.2f} MB canonical"
    )
    print(
        f"- small: {args.small} messages, {sum(map(len, small_wire)) / 1e6:.2f} MB wire total, "
        f"{sum(map(len, small_wire)) / args.small:.0f} B/doc avg"
    )
    print("- byte-identical to rfc8785.dumps: big yes, all small yes")
    print(f"- timing: {args.rounds} interleaved rounds, median; ~{args.target}s per sample")

    dumps, loads, ref = canonical.dumps, canonical.loads, rfc8785.dumps
    big_fns: dict[str, Callable[[], object]] = {
        "orjson.loads (baseline)": lambda: orjson.loads(big_wire),
        "turnwire.canonical.loads": lambda: loads(big_wire),
        "orjson.dumps(OPT_SORT_KEYS) (not JCS, floor)": lambda: orjson.dumps(big, option=orjson.OPT_SORT_KEYS),
        "turnwire.canonical.dumps": lambda: dumps(big),
        "rfc8785.dumps": lambda: ref(big),
        "bytes->canonical: canonical.loads + dumps": lambda: dumps(loads(big_wire)),
        "bytes->canonical: orjson.loads + rfc8785.dumps": lambda: ref(orjson.loads(big_wire)),
    }
    big_res = interleaved(big_fns, args.rounds, args.target)
    report(f"big document ({args.parts} parts)", big_res, "orjson.loads (baseline)", args.parts, "part", len(big_canon))

    def each(fn: Callable[[Any], object], items: list[Any]) -> Callable[[], None]:
        def run() -> None:
            for x in items:
                fn(x)

        return run

    small_fns: dict[str, Callable[[], object]] = {
        "orjson.loads (baseline)": each(orjson.loads, small_wire),
        "turnwire.canonical.loads": each(loads, small_wire),
        "orjson.dumps(OPT_SORT_KEYS) (not JCS, floor)": each(
            lambda d: orjson.dumps(d, option=orjson.OPT_SORT_KEYS), small
        ),
        "turnwire.canonical.dumps": each(dumps, small),
        "rfc8785.dumps": each(ref, small),
        "bytes->canonical: canonical.loads + dumps": each(lambda b: dumps(loads(b)), small_wire),
        "bytes->canonical: orjson.loads + rfc8785.dumps": each(lambda b: ref(orjson.loads(b)), small_wire),
    }
    res = interleaved(small_fns, args.rounds, args.target)
    report(
        f"small documents ({args.small} docs, times are per batch)",
        res,
        "orjson.loads (baseline)",
        args.small,
        "doc",
        small_canon_bytes,
    )
    ours, theirs = "turnwire.canonical.dumps", "rfc8785.dumps"
    print(
        f"\n{ours} vs {theirs}: {big_res[theirs] / big_res[ours]:.1f}x faster (big), "
        f"{res[theirs] / res[ours]:.1f}x faster (small)"
    )


if __name__ == "__main__":
    main()
