"""Benchmark: `turnwire check` — the recording checks on a 10 000-chunk stream, and the default run.

Reports, in one run:

* **check throughput**: every check that applies to a recording (framing, chunks, lifecycle, chunk
  boundaries, wire ≡ at-rest, legacy keys, ...) run by the runner on one 10 000-chunk recording with
  its folded message as the at-rest artefact, as µs per chunk, MB/s, and a ratio to the cheapest
  possible work on the same bytes (`orjson.loads` of each `data:` payload);
* **peak memory** of that run: the Python heap peak (tracemalloc, measured in a separate round so
  the timing is not skewed) and the process's maximum resident set size;
* **wall time of the default `turnwire check`** (embedded reference runtime, every check), as
  subprocesses: the median of a few runs, and the best.

Run: `.venv/bin/python benchmarks/bench_check.py [ROUNDS]` (default 5). Figures for the README, not a
timed test.
"""

from __future__ import annotations

import os
import platform
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import orjson

from turnwire.conformance.catalogue import load_catalogue, select
from turnwire.conformance.context import CheckContext, Recording
from turnwire.conformance.runner import run
from turnwire.profiles import Profile
from turnwire.sse import UI_MESSAGE_STREAM_HEADERS, encode_stream
from turnwire.stream import read_stream

CHUNKS = 10_000


def ten_thousand_chunks() -> list[dict[str, object]]:
    """A long assistant turn of exactly 10 000 chunks: steps of reasoning, a streamed tool call and text."""
    chunks: list[dict[str, object]] = [{"type": "start", "messageId": "msg-1"}]
    step = 0
    while True:
        block: list[dict[str, object]] = [{"type": "start-step"}, {"type": "reasoning-start", "id": f"r{step}"}]
        block += [{"type": "reasoning-delta", "id": f"r{step}", "delta": f"thinking {i} "} for i in range(20)]
        block.append({"type": "reasoning-end", "id": f"r{step}"})
        call = f"call-{step}"
        block.append({"type": "tool-input-start", "toolCallId": call, "toolName": "search"})
        block += [
            {"type": "tool-input-delta", "toolCallId": call, "inputTextDelta": p}
            for p in ['{"q":', '"paris', ' weather"}']
        ]
        block.append(
            {"type": "tool-input-available", "toolCallId": call, "toolName": "search", "input": {"q": "paris weather"}}
        )
        block.append({"type": "tool-output-available", "toolCallId": call, "output": {"tempC": 18.5, "hits": [1, 2]}})
        block.append({"type": "text-start", "id": f"t{step}"})
        if len(chunks) + len(block) + 40 + 3 > CHUNKS:
            break
        block += [{"type": "text-delta", "id": f"t{step}", "delta": f"It is {i} degrees. "} for i in range(40)]
        block += [{"type": "text-end", "id": f"t{step}"}, {"type": "finish-step"}]
        chunks += block
        step += 1
    # fill the last step with text so the turn has exactly CHUNKS chunks
    last = [{"type": "start-step"}, {"type": "text-start", "id": "t-last"}]
    tail = [{"type": "text-end", "id": "t-last"}, {"type": "finish-step"}, {"type": "finish", "finishReason": "stop"}]
    fill = CHUNKS - len(chunks) - len(last) - len(tail)
    last += [{"type": "text-delta", "id": "t-last", "delta": f"word {i} "} for i in range(fill)]
    chunks += last + tail
    assert len(chunks) == CHUNKS
    return chunks


def recording_context(wire: bytes, message: object) -> CheckContext:
    """A fresh context (nothing cached) holding the recording and its folded message at rest."""
    recording = Recording(
        name="bench", stream=wire, headers=dict(UI_MESSAGE_STREAM_HEADERS), at_rest=message, scenario=None
    )
    return CheckContext(profile=Profile.V7, capabilities=frozenset(), recordings=[recording])


def best_and_median(fn: object, rounds: int) -> tuple[float, float]:
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def default_check_wall_times(runs: int) -> list[float]:
    """Wall time of `turnwire check` (no target: the embedded reference runtime) as a subprocess."""
    turnwire = Path(sys.executable).with_name("turnwire")
    command = [str(turnwire)] if turnwire.exists() else [sys.executable, "-m", "turnwire.cli"]
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        done = subprocess.run([*command, "check"], capture_output=True, text=True, check=False)
        times.append(time.perf_counter() - t0)
        if done.returncode != 0:
            raise SystemExit(f"turnwire check exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return times


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    wire = encode_stream(ten_thousand_chunks())
    payloads = [line[6:] for line in wire.split(b"\n") if line.startswith(b"data: ") and line != b"data: [DONE]"]
    message = read_stream(wire, Profile.V7).message
    checks = [c for c in select(load_catalogue()) if not c.needs_live]

    def baseline() -> None:
        for p in payloads:
            orjson.loads(p)

    report = run(recording_context(wire, message), checks)
    ran = [r.check for r in report.results if r.status.value in ("passed", "failed")]
    problems = [str(rf.finding) for r in report.results for rf in r.findings]

    base_best, _ = best_and_median(baseline, rounds)
    check_best, check_median = best_and_median(lambda: run(recording_context(wire, message), checks), rounds)

    tracemalloc.start()
    run(recording_context(wire, message), checks)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    maxrss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    walls = default_check_wall_times(max(3, rounds // 2 + 1))

    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPU(s)")
    print(f"recording: {CHUNKS} chunks, {len(wire) / 1e6:.2f} MB; {len(ran)} checks ran: {', '.join(ran)}")
    if problems:
        print(f"findings on the benchmark recording (should be none): {problems[:3]}")
    print("| measure | value |")
    print("|---|---:|")
    print(f"| orjson.loads of every payload (baseline) | {base_best * 1e3:.1f} ms |")
    print(f"| recording checks, best of {rounds} | {check_best * 1e3:.0f} ms |")
    print(f"| recording checks, median | {check_median * 1e3:.0f} ms |")
    print(f"| per chunk | {check_best / CHUNKS * 1e6:.1f} µs |")
    print(f"| throughput | {len(wire) / check_best / 1e6:.2f} MB/s |")
    print(f"| ratio to the orjson baseline | {check_best / base_best:.0f}x |")
    print(f"| peak Python heap during the checks (tracemalloc) | {peak / 1e6:.1f} MB |")
    print(f"| max resident set size of this process | {maxrss_kib / 1024:.0f} MiB |")
    median = statistics.median(walls)
    print(f"| `turnwire check` (embedded, every check) wall time, median of {len(walls)} | {median:.2f} s |")
    print(f"| `turnwire check` wall time, best | {min(walls):.2f} s |")


if __name__ == "__main__":
    main()
