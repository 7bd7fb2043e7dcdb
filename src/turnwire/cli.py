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


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the `turnwire` command."""
    parser = argparse.ArgumentParser(prog="turnwire", description="Conformance kit for AI-agent runtimes.")
    sub = parser.add_subparsers(dest="command", required=True)
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
