"""The `turnwire` command: a thin front door over the library (no logic of its own).

Exit codes: 0 success, 1 the thing checked is wrong (e.g. generated files drifted), 2 the command could
not run (bad arguments, malformed data) — with a one-line error, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_ERROR = 2


def _generate(args: argparse.Namespace) -> int:
    from turnwire.generate import artifacts

    root = Path(args.root) if args.root else None
    if args.check:
        drifts = artifacts.check(root)
        if not drifts:
            print("generated files are up to date")
            return EXIT_OK
        for drift in drifts:
            sys.stdout.write(drift.diff)
        print(f"{len(drifts)} generated file(s) differ from the models; run `turnwire generate`", file=sys.stderr)
        return EXIT_FAILED
    changed = artifacts.write(root)
    for rel in changed:
        print(f"wrote {rel}")
    print(f"{len(changed)} file(s) changed")
    return EXIT_OK


def _serve(args: argparse.Namespace) -> int:
    from turnwire.reference.server import serve

    with contextlib.suppress(KeyboardInterrupt):
        serve(args.db, args.host, args.port, test_hooks=args.test_hooks)
    return EXIT_OK


def _check(args: argparse.Namespace) -> int:
    from turnwire.conformance.command import CheckArgs, check_command
    from turnwire.profiles import parse_profile

    return check_command(
        CheckArgs(
            url=args.url,
            stream=args.stream,
            at_rest=args.at_rest,
            prior=args.prior,
            headers=args.headers,
            scenario=args.scenario,
            target_profile=args.target_profile,
            profile=parse_profile(args.profile),
            format=args.format,
            output=args.output,
            baseline=args.baseline,
            select=args.select or [],
            timeout=args.timeout,
            max_bytes=args.max_bytes,
            payloads=args.payloads,
        )
    )


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (`turnwire: error: ...`, exit 2), like every other error."""

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("turnwire").strip()
        self.exit(EXIT_ERROR, f"turnwire: error: {command + ': ' if command else ''}{message}\n")


def _add_check(sub: argparse._SubParsersAction[_Parser]) -> None:
    chk = sub.add_parser(
        "check",
        help="check a runtime (URL), the embedded reference runtime (no target) or a recording (--stream)",
        description="Run the conformance checks; exit 0 pass, 1 a MUST failure, 2 could not run.",
    )
    chk.add_argument("url", nargs="?", help="the runtime's API base URL; none: start the embedded reference runtime")
    rec = chk.add_argument_group("recording target")
    rec.add_argument("--stream", type=Path, help="a recorded UI message stream (SSE bytes)")
    rec.add_argument("--at-rest", type=Path, help="what the runtime stored: an AgentTurnSnapshot or a UIMessage (JSON)")
    rec.add_argument("--prior", type=Path, help="the UIMessage the client held before the stream (JSON)")
    rec.add_argument("--headers", type=Path, help="the stream's response headers: a JSON object of name to value")
    rec.add_argument("--scenario", help="the scripted scenario the stream plays (enables golden equality)")
    chk.add_argument("--target-profile", type=Path, help="TOML file describing a live runtime (routes, capabilities)")
    chk.add_argument(
        "--profile", default="ai-sdk-v7", choices=["ai-sdk-v5", "ai-sdk-v6", "ai-sdk-v7"], help="protocol profile"
    )
    chk.add_argument("--format", default="terminal", choices=["terminal", "json", "junit"], help="report format")
    chk.add_argument("--output", type=Path, help="write the report to this file (the summary still goes to stdout)")
    chk.add_argument("--baseline", type=Path, help="YAML list of {requirement, reason}: expected failures")
    chk.add_argument(
        "--select", action="append", metavar="PATTERN", help="run only checks whose name starts with PATTERN (repeat)"
    )
    chk.add_argument("--timeout", type=float, help="seconds any one request to a live target may take")
    chk.add_argument("--max-bytes", type=int, help="largest response (or recording file) read, in bytes")
    chk.add_argument("--payloads", action="store_true", help="also check the backend's typed data payloads at rest")
    chk.set_defaults(run=_check)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the `turnwire` command."""
    parser = _Parser(prog="turnwire", description="Conformance kit for AI-agent runtimes.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    gen = sub.add_parser("generate", help="write (or --check) the generated schemas/ and golden/")
    gen.add_argument("--check", action="store_true", help="exit 1 with a diff when a checked-in file differs")
    gen.add_argument("--root", help="folder holding schemas/ and golden/ (default: the repository)")
    gen.set_defaults(run=_generate)
    srv = sub.add_parser("serve", help="run the reference runtime (an agent runtime with a scripted model)")
    srv.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    srv.add_argument("--port", type=int, default=8000, help="port to listen on; 0 picks a free one (default: 8000)")
    srv.add_argument(
        "--db",
        default="turnwire-reference.db",
        help="SQLite file path or postgresql:// URL (default: turnwire-reference.db in the working directory)",
    )
    srv.add_argument("--test-hooks", action="store_true", help="enable the routes that plant stored state for tests")
    srv.set_defaults(run=_serve)
    _add_check(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
    except (ValueError, OSError) as exc:
        first, *_ = str(exc).splitlines() or [type(exc).__name__]
        print(f"turnwire: error: {first}", file=sys.stderr)
        if len(str(exc).splitlines()) > 1:
            print(str(exc), file=sys.stderr)
        return EXIT_ERROR
    return code


if __name__ == "__main__":
    raise SystemExit(main())
