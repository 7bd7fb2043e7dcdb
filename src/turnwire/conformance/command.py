"""`turnwire check`: pick the target, run the selected checks, write the report, return the exit code.

The CLI (`turnwire.cli`) only parses arguments into `CheckArgs`; this module holds the little logic
the command has, so it can be tested without a subprocess. Exit codes (see docs/conformance.md):

* 0: no MUST finding outside the baseline, no stale baseline entry, no check error;
* 1: any of those (the report says which);
* 2: turnwire could not run: bad arguments, a missing or unreadable file, a bad baseline or target
  profile, a target unreachable at start. Always one line on stderr (`CheckError`), never a traceback.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from turnwire.conformance.baseline import Baseline, BaselineError, load_baseline
from turnwire.conformance.catalogue import Check, load_catalogue, select
from turnwire.conformance.context import CheckContext
from turnwire.conformance.model import CheckResult, ConformanceReport
from turnwire.conformance.report import Format, render, render_terminal
from turnwire.conformance.runner import run
from turnwire.conformance.targets.recording import RecordingError, RecordingFiles, build_context, describe
from turnwire.profiles import DEFAULT_PROFILE, Profile

__all__ = ["EXIT_ERROR", "CheckArgs", "CheckError", "check_command", "execute"]

EXIT_ERROR = 2


class CheckError(Exception):
    """`turnwire check` cannot run; the message is the one line the user sees (exit 2)."""


@dataclass
class CheckArgs:
    """The arguments of `turnwire check`, as parsed."""

    url: str | None = None
    stream: Path | None = None
    at_rest: Path | None = None
    prior: Path | None = None
    headers: Path | None = None
    scenario: str | None = None
    target_profile: Path | None = None
    profile: Profile = DEFAULT_PROFILE
    format: Format = "terminal"
    output: Path | None = None
    baseline: Path | None = None
    select: list[str] = field(default_factory=list)
    timeout: float | None = None
    max_bytes: int | None = None
    payloads: bool = False


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _validate(args: CheckArgs) -> None:
    recording_only = [
        flag
        for flag, value in (
            ("--at-rest", args.at_rest),
            ("--prior", args.prior),
            ("--headers", args.headers),
            ("--scenario", args.scenario),
        )
        if value is not None
    ]
    if args.stream is not None and args.url is not None:
        raise CheckError("give a URL or --stream, not both")
    if args.stream is None and recording_only:
        raise CheckError(f"{', '.join(recording_only)} describe a recording and need --stream FILE.sse")
    if args.stream is not None and args.target_profile is not None:
        raise CheckError("--target-profile describes a live runtime; a recording (--stream) has none")
    if args.timeout is not None and not args.timeout > 0:
        raise CheckError("--timeout must be a positive number of seconds")
    if args.max_bytes is not None and args.max_bytes < 1:
        raise CheckError("--max-bytes must be a positive number of bytes")
    if args.output is not None and not args.output.parent.is_dir():
        raise CheckError(f"--output {args.output}: folder {args.output.parent} does not exist")


def _checks(patterns: list[str]) -> list[Check]:
    catalogue = load_catalogue()
    wanted = [p for raw in patterns for p in raw.split(",") if p.strip()]
    unmatched = [p for p in wanted if not select(catalogue, [p])]
    if unmatched:
        raise CheckError(f"--select {unmatched[0]!r} matches no check (see docs/conformance.md for the list)")
    return select(catalogue, wanted)


def _options(args: CheckArgs) -> dict[str, Any]:
    options: dict[str, Any] = {"payloads": args.payloads}
    if args.timeout is not None:
        options["timeout_s"] = args.timeout
        options["total_timeout_s"] = args.timeout
    if args.max_bytes is not None:
        options["max_bytes"] = args.max_bytes
        options["max_response_bytes"] = args.max_bytes
    return options


def _target(args: CheckArgs, options: dict[str, Any]) -> tuple[CheckContext, Callable[[], None], str]:
    if args.stream is not None:
        files = RecordingFiles(args.stream, args.at_rest, args.prior, args.headers, args.scenario)
        try:
            return build_context(files, profile=args.profile, options=options), lambda: None, describe(files)
        except RecordingError as exc:
            raise CheckError(_first_line(exc)) from None
    try:
        from turnwire.conformance.targets import live
    except ImportError:
        raise CheckError("live targets are not available in this build; check a recording with --stream") from None
    try:
        context, close = live.build_context(
            args.url, profile=args.profile, target_profile=args.target_profile, options=options
        )
    except Exception as exc:  # whatever stops the target from starting is "could not run", one line
        raise CheckError(_first_line(exc)) from None
    return context, close, args.url or "embedded reference runtime"


@contextlib.contextmanager
def _progress(total: int, stream: IO[str]) -> Iterator[Callable[[Check, CheckResult], None] | None]:
    """A rich progress bar on `stream` when it is a terminal; nothing otherwise (CI logs stay clean)."""
    if not stream.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    with Progress(
        TextColumn("checking"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.description}"),
        console=Console(file=stream),
        transient=True,
    ) as progress:
        task = progress.add_task("", total=total)

        def advance(check: Check, result: CheckResult) -> None:
            progress.update(task, advance=1, description=f"{check.name}: {result.status.value}")

        yield advance


def execute(args: CheckArgs, *, progress_stream: IO[str] | None = None) -> ConformanceReport:
    """Run `turnwire check` up to the report; raises `CheckError` when it cannot run."""
    _validate(args)
    baseline: Baseline | None = None
    if args.baseline is not None:
        try:
            baseline = load_baseline(args.baseline)
        except BaselineError as exc:
            raise CheckError(_first_line(exc)) from None
    checks = _checks(args.select)
    options = _options(args)
    context, close, target = _target(args, options)
    try:
        with _progress(len(checks), progress_stream or sys.stderr) as hook:
            return run(context, checks, target=target, baseline=baseline, on_result=hook)
    finally:
        close()


def check_command(args: CheckArgs, *, stdout: IO[str] | None = None, stderr: IO[str] | None = None) -> int:
    """The whole command: run, write the report (stdout or `--output`), return the exit code."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    try:
        report = execute(args, progress_stream=err)
    except CheckError as exc:
        print(f"turnwire: error: {exc}", file=err)
        return EXIT_ERROR
    color = args.output is None and out.isatty()
    document = render(report, args.format, color=color)
    if args.output is None:
        out.write(document)
        return report.exit_code
    try:
        args.output.write_text(document, encoding="utf-8")
    except OSError as exc:
        print(f"turnwire: error: cannot write --output {args.output}: {exc.strerror or exc}", file=err)
        return EXIT_ERROR
    if args.format == "terminal":
        print(f"report written to {args.output} (exit {report.exit_code})", file=out)
    else:
        out.write(render_terminal(report, color=out.isatty()))
        print(f"{args.format} report written to {args.output}", file=out)
    return report.exit_code
