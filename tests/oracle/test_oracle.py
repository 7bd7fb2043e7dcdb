"""Golden conformance: the real AI SDK must agree with every golden under `<repo>/golden`.

A golden is a folder `golden/<profile>/<slug>/` (profile = `ai-sdk-v5` | `ai-sdk-v6` | `ai-sdk-v7`)
holding `stream.sse`, `message.json` and optionally `prior.json`. For each one the SDK of that
profile must:

(a) parse every chunk of `stream.sse` (no invalid chunk);
(b) fold the stream (continuing `prior.json` if present) into exactly `message.json`, compared as
    RFC 8785 canonical bytes;
(c) accept `message.json` in `validateUIMessages`, and (d) `prior.json` too;
(e) report as stream errors exactly the `errorText`s of the stream's `error` chunks, in order.

The golden files must also be in their documented form: every `data:` payload canonical JSON,
the stream ending in `data: [DONE]` + a blank line (the SDK silently drops a last event without
the blank line), `message.json` canonical JSON plus one newline.

All goldens go to the SDK in one batch (one Node process). No goldens at all is a failure.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from sdk import Judge, stream_job, validate_job

from turnwire.canonical import dumps as canonical
from turnwire.canonical import file_bytes
from turnwire.profiles import ALL_PROFILES

REPO_ROOT = Path(__file__).resolve().parents[2]
GOLDEN_ROOT = REPO_ROOT / "golden"

pytestmark = pytest.mark.oracle

STREAM_FILE = "stream.sse"
MESSAGE_FILE = "message.json"
PRIOR_FILE = "prior.json"
DONE_EVENT = "data: [DONE]\n\n"


@dataclass(frozen=True)
class Golden:
    profile: str
    slug: str
    path: Path

    @property
    def id(self) -> str:
        return f"{self.profile}/{self.slug}"


def discover(root: Path) -> list[Golden]:
    """Every folder under `root/<profile>/` that holds a stream.sse or a message.json."""
    found: list[Golden] = []
    for profile in ALL_PROFILES:
        base = root / profile.value
        if not base.is_dir():
            continue
        folders = {p.parent for name in (STREAM_FILE, MESSAGE_FILE) for p in base.rglob(name)}
        found.extend(Golden(profile.value, d.relative_to(base).as_posix(), d) for d in sorted(folders))
    return found


GOLDENS = discover(GOLDEN_ROOT)


@dataclass
class Case:
    """One golden's files and, after the batch ran, the SDK's answers about it."""

    golden: Golden
    load_error: str | None = None
    sse: str = ""
    expected: Any = None
    expected_bytes: bytes = b""
    prior: Any = None
    has_prior: bool = False
    fold: dict[str, Any] = field(default_factory=dict)
    prior_check: dict[str, Any] | None = None


def load(golden: Golden) -> Case:
    case = Case(golden)
    try:
        case.sse = (golden.path / STREAM_FILE).read_text(encoding="utf-8")
        case.expected_bytes = (golden.path / MESSAGE_FILE).read_bytes()
        case.expected = json.loads(case.expected_bytes)
        prior_path = golden.path / PRIOR_FILE
        if prior_path.exists():
            case.has_prior = True
            case.prior = json.loads(prior_path.read_bytes())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        case.load_error = f"cannot read golden {golden.path}: {exc}"
    return case


@pytest.fixture(scope="module")
def cases(sdk_judge: Judge) -> dict[str, Case]:
    """Load all goldens and judge them in a single batch."""
    loaded = [load(g) for g in GOLDENS]
    jobs: list[dict[str, Any]] = []
    slots: list[tuple[Case, str]] = []
    for case in loaded:
        if case.load_error:
            continue
        job = stream_job(case.golden.profile, case.sse, case.prior if case.has_prior else None)
        job["messages"] = [case.expected]
        jobs.append(job)
        slots.append((case, "fold"))
        if case.has_prior:
            jobs.append(validate_job(case.golden.profile, [case.prior]))
            slots.append((case, "prior"))
    for (case, slot), result in zip(slots, sdk_judge(jobs), strict=True):
        if slot == "fold":
            case.fold = result
        else:
            case.prior_check = result
    return {case.golden.id: case for case in loaded}


def test_golden_root_is_populated() -> None:
    profiles = ", ".join(p.value for p in ALL_PROFILES)
    assert GOLDENS, f"no goldens found under {GOLDEN_ROOT}/<profile>/<slug>/ (profiles: {profiles})"


def pretty(value: Any) -> list[str]:
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False).splitlines()


def fold_diff(expected: Any, actual: Any) -> str:
    lines = difflib.unified_diff(pretty(expected), pretty(actual), MESSAGE_FILE, "SDK fold", lineterm="")
    return "\n".join(lines)


def golden_format_problems(case: Case) -> tuple[list[str], int | None]:
    """Problems with the files' documented form, and the number of chunk events (None if unknown)."""
    problems: list[str] = []
    events: int | None = None
    if not case.sse.endswith(DONE_EVENT):
        problems.append(f"{STREAM_FILE} must end with {DONE_EVENT!r}")
    else:
        body = case.sse[: -len(DONE_EVENT)]
        raw_events = body.split("\n\n")
        if raw_events[-1] != "":
            problems.append(f"{STREAM_FILE}: the event before [DONE] is not followed by a blank line")
        raw_events = raw_events[:-1]
        events = len(raw_events)
        for n, event in enumerate(raw_events):
            if not event.startswith("data: ") or "\n" in event:
                problems.append(f"{STREAM_FILE} event #{n} is not a single `data: ` line: {event[:120]!r}")
                continue
            payload = event[len("data: ") :]
            try:
                canonical_payload = canonical(json.loads(payload)).decode("utf-8")
            except ValueError as exc:
                problems.append(f"{STREAM_FILE} event #{n} is not JSON: {exc}")
                continue
            if payload != canonical_payload:
                problems.append(f"{STREAM_FILE} event #{n} is not canonical JSON:\n  {payload}")
    try:
        if case.expected_bytes != file_bytes(case.expected):
            problems.append(f"{MESSAGE_FILE} is not canonical JSON followed by one newline")
    except ValueError as exc:
        problems.append(f"{MESSAGE_FILE} has no canonical form: {exc}")
    return problems, events


@pytest.mark.parametrize("golden_id", [g.id for g in GOLDENS])
def test_sdk_agrees_with_golden(cases: dict[str, Case], golden_id: str) -> None:
    case = cases[golden_id]
    if case.load_error:
        pytest.fail(case.load_error, pytrace=False)
    result = case.fold
    if "fatal" in result:
        pytest.fail(f"{golden_id}: the judge could not run this golden: {result['fatal']}", pytrace=False)
    stream = result["stream"]
    problems: list[str] = []

    # (a) every chunk parses
    bad = stream["invalid_chunk"]
    if bad is not None:
        problems.append(f"(a) chunk #{bad['index']} (0-based, [DONE] not counted) is invalid: {bad['error']}")

    format_problems, events = golden_format_problems(case)
    problems.extend(f"golden format: {p}" for p in format_problems)

    # (e) the only stream errors are the stream's own error chunks. A fold error (unlike an
    # `error` chunk) ends the SDK's stream: later chunks are neither parsed nor folded.
    seen = len(stream["chunks"])
    expected_errors = [c.get("errorText") for c in stream["chunks"] if c.get("type") == "error"]
    if stream["errors"] != expected_errors:
        details = "\n".join(f"  {e['name']}: {e['message']}" for e in stream["error_details"])
        problems.append(
            f"(e) stream errors differ: expected the error chunks' texts {expected_errors}, the SDK "
            f"reported (after reading {seen} chunks):\n{details or '  (none)'}"
        )
    elif bad is None and events is not None and events != seen:
        problems.append(f"the SDK read {seen} chunks but {STREAM_FILE} holds {events} events")

    # (b) the fold equals message.json, canonically
    folded = stream["message"]
    if folded is None:
        problems.append("(b) the SDK produced no message snapshot")
    elif canonical(folded) != canonical(case.expected):
        problems.append(f"(b) the SDK's fold differs from {MESSAGE_FILE}:\n{fold_diff(case.expected, folded)}")

    # (c) message.json validates
    check = result["validate"]
    if not check["ok"]:
        problems.append(f"(c) validateUIMessages rejects {MESSAGE_FILE}: {check['error']}")

    # (d) prior.json validates
    if case.prior_check is not None:
        if "fatal" in case.prior_check:
            problems.append(f"(d) judge could not validate {PRIOR_FILE}: {case.prior_check['fatal']}")
        elif not case.prior_check["validate"]["ok"]:
            problems.append(f"(d) validateUIMessages rejects {PRIOR_FILE}: {case.prior_check['validate']['error']}")

    if problems:
        pytest.fail(f"{golden_id} (ai@{result['ai_version']}):\n" + "\n\n".join(problems), pytrace=False)
