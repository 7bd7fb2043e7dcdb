"""The recording target: `turnwire check --stream FILE.sse [--at-rest F] [--prior F] [--headers F] [--scenario S]`.

Frontend teams and third-party integrators often have only what a runtime sent: a captured stream,
the stored message, the response headers. This target turns those files into a `CheckContext` with
one recording; its capabilities are what the files provide (`streaming` for the stream, `snapshot`
for an at-rest artefact), so checks that need more are reported not applicable, never skipped.

Blame is split the way the issue's exit codes demand: a file that is missing, unreadable or (for the
JSON files) not JSON means turnwire cannot run (`RecordingError`, exit 2, one line); bytes that are a
broken *stream* are exactly what the checks judge, so the stream file is never rejected for content.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from turnwire.canonical import CanonicalError, loads
from turnwire.conformance.context import CheckContext, Recording
from turnwire.conformance.model import Capability
from turnwire.profiles import Profile

__all__ = ["RecordingError", "RecordingFiles", "build_context", "describe"]


class RecordingError(ValueError):
    """A recording file cannot be used (missing, unreadable, not JSON, wrong JSON type, unknown scenario)."""


@dataclass(frozen=True)
class RecordingFiles:
    """The files of one recording, as given on the command line."""

    stream: Path
    at_rest: Path | None = None
    prior: Path | None = None
    headers: Path | None = None
    scenario: str | None = None


def _read(path: Path, flag: str, max_bytes: int | None) -> bytes:
    try:
        size = path.stat().st_size
        if max_bytes is not None and size > max_bytes:
            raise RecordingError(f"{flag} {path} is {size} bytes, over --max-bytes {max_bytes}")
        return path.read_bytes()
    except IsADirectoryError:
        raise RecordingError(f"{flag} {path} is a directory, not a file") from None
    except FileNotFoundError:
        raise RecordingError(f"{flag} {path}: no such file") from None
    except OSError as exc:
        raise RecordingError(f"cannot read {flag} {path}: {exc.strerror or exc}") from None


def _json(path: Path, flag: str, max_bytes: int | None) -> Any:
    data = _read(path, flag, max_bytes)
    try:
        return loads(data)
    except (CanonicalError, RecursionError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else "invalid JSON"
        raise RecordingError(f"{flag} {path} is not JSON ({reason})") from None


def _headers(value: Any, path: Path) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise RecordingError(f"--headers {path} must hold one JSON object of header name to string value")
    return dict(value)


def describe(files: RecordingFiles) -> str:
    """The report's target line: the recording's file names."""
    bits = [f"stream {files.stream}"]
    for label, path in (("at-rest", files.at_rest), ("prior", files.prior), ("headers", files.headers)):
        if path is not None:
            bits.append(f"{label} {path}")
    if files.scenario is not None:
        bits.append(f"scenario {files.scenario}")
    return "recording: " + ", ".join(bits)


def build_context(files: RecordingFiles, *, profile: Profile, options: Mapping[str, Any] | None = None) -> CheckContext:
    """A context holding one recording made of `files`; raises `RecordingError` when a file cannot be used."""
    opts = dict(options or {})
    max_bytes = opts.get("max_bytes")
    limit = max_bytes if isinstance(max_bytes, int) else None
    stream = _read(files.stream, "--stream", limit)
    at_rest = _json(files.at_rest, "--at-rest", limit) if files.at_rest is not None else None
    prior: dict[str, Any] | None = None
    if files.prior is not None:
        raw = _json(files.prior, "--prior", limit)
        if not isinstance(raw, dict):
            raise RecordingError(f"--prior {files.prior} must hold one JSON object (the UIMessage the client held)")
        prior = raw
    headers = _headers(_json(files.headers, "--headers", limit), files.headers) if files.headers is not None else None
    if files.scenario is not None:
        from turnwire.conformance.checks.golden import golden_chunks, scenario

        if scenario(files.scenario) is None:
            raise RecordingError(f"--scenario {files.scenario!r} is not a scenario in conformance/scenarios/")
        if golden_chunks(files.scenario, profile) is None:
            raise RecordingError(f"--scenario {files.scenario!r} does not play in profile {profile.value}")
    capabilities = {Capability.STREAMING}
    if at_rest is not None:
        capabilities.add(Capability.SNAPSHOT)
    recording = Recording(
        name=files.stream.name,
        stream=stream,
        headers=headers,
        at_rest=at_rest,
        prior=prior,
        scenario=files.scenario,
    )
    return CheckContext(profile=profile, capabilities=frozenset(capabilities), recordings=[recording], options=opts)
