"""Drive the real Vercel AI SDK (npm package `ai`, majors 5, 6 and 7) as an outside judge.

The pinned SDK releases live in `tests/oracle/package.json` / `package-lock.json`; `judge.mjs`
runs them. This module installs them on demand (`ensure_installed`) and sends a batch of jobs to
one Node process (`judge`).

How tests reach it (the `tests` tree is not a Python package):

* `tests/oracle/conftest.py` puts this folder on `sys.path` and re-exports the session fixture
  `sdk_judge`, so any test under `tests/oracle/` can simply write::

      import pytest
      from sdk import stream_job, validate_job

      @pytest.mark.oracle
      def test_something(sdk_judge):
          [result] = sdk_judge([stream_job("ai-sdk-v7", sse_text)])
          assert result["stream"]["invalid_chunk"] is None

* A conftest elsewhere can reuse the fixture with the same two lines `conftest.py` uses
  (insert `tests/oracle` into `sys.path`, then `from sdk import sdk_judge`).

A job is `{"profile": "ai-sdk-v5"|"ai-sdk-v6"|"ai-sdk-v7", "sse"?: str, "prior"?: UIMessage,
"messages"?: [UIMessage, ...]}`; see the header of `judge.mjs` for the result shape.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ORACLE_DIR = Path(__file__).resolve().parent
JUDGE_SCRIPT = ORACLE_DIR / "judge.mjs"
NODE_MODULES = ORACLE_DIR / "node_modules"
STAMP = NODE_MODULES / ".turnwire-oracle-stamp"
LOCK_FILE = ORACLE_DIR / ".install.lock"

INSTALL_TIMEOUT_S = 300.0
JUDGE_TIMEOUT_S = 120.0
MIN_NODE_MAJOR = 20

Job = dict[str, Any]
Result = dict[str, Any]
Judge = Callable[[list[Job]], list[Result]]


class OracleError(RuntimeError):
    """The SDK oracle could not be installed or run (not a verdict about the input)."""


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise OracleError(f"`{name}` is not on PATH; the AI SDK oracle needs Node >= {MIN_NODE_MAJOR} and npm")
    return path


def missing_tools() -> list[str]:
    """The names among `node` and `npm` that are not on PATH."""
    return [name for name in ("node", "npm") if shutil.which(name) is None]


def _install_fingerprint() -> str:
    digest = hashlib.sha256()
    for name in ("package.json", "package-lock.json", ".npmrc"):
        path = ORACLE_DIR / name
        digest.update(name.encode())
        digest.update(path.read_bytes() if path.exists() else b"")
    return digest.hexdigest()


def _is_current() -> bool:
    return STAMP.is_file() and STAMP.read_text(encoding="utf-8").strip() == _install_fingerprint()


@contextlib.contextmanager
def _install_lock() -> Iterator[None]:
    """Serialise installs across processes (e.g. pytest-xdist workers); a no-op without fcntl."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    with LOCK_FILE.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _check_node_version() -> None:
    out = subprocess.run(
        [_tool("node"), "--version"], capture_output=True, text=True, timeout=30, check=False
    ).stdout.strip()
    try:
        major = int(out.lstrip("v").split(".")[0])
    except ValueError:
        raise OracleError(f"could not read the Node version from {out!r}") from None
    if major < MIN_NODE_MAJOR:
        raise OracleError(f"the AI SDK oracle needs Node >= {MIN_NODE_MAJOR}, found {out}")


def ensure_installed() -> None:
    """Run `npm ci` in `tests/oracle` unless `node_modules` already matches the lock file.

    "Matches" means the stamp file written after the last successful install records the same
    hash of package.json, package-lock.json and .npmrc. Raises `OracleError` on failure.
    """
    _check_node_version()
    if _is_current():
        return
    npm = _tool("npm")
    with _install_lock():
        if _is_current():  # another process installed while we waited
            return
        cmd = [npm, "ci", "--engine-strict=false", "--ignore-scripts", "--no-audit", "--no-fund"]
        try:
            proc = subprocess.run(
                cmd, cwd=ORACLE_DIR, capture_output=True, text=True, timeout=INSTALL_TIMEOUT_S, check=False
            )
        except subprocess.TimeoutExpired:
            raise OracleError(f"`npm ci` in {ORACLE_DIR} timed out after {INSTALL_TIMEOUT_S:.0f} s") from None
        if proc.returncode != 0:
            tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-30:])
            raise OracleError(f"`npm ci` in {ORACLE_DIR} failed (exit {proc.returncode}):\n{tail}")
        STAMP.write_text(_install_fingerprint() + "\n", encoding="utf-8")


def judge(jobs: list[Job], *, timeout: float = JUDGE_TIMEOUT_S) -> list[Result]:
    """Send `jobs` to one `node judge.mjs` process and return its results, in the same order.

    Call `ensure_installed()` first (the `sdk_judge` fixture does). Raises `OracleError` if the
    process fails or answers with something other than one result per job.
    """
    if not jobs:
        return []
    payload = json.dumps(jobs, ensure_ascii=False, allow_nan=False).encode("utf-8")
    try:
        proc = subprocess.run(
            [_tool("node"), str(JUDGE_SCRIPT)],
            cwd=ORACLE_DIR,
            input=payload,
            capture_output=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise OracleError(f"judge.mjs timed out after {timeout:.0f} s on {len(jobs)} jobs") from None
    stderr = proc.stderr.decode("utf-8", "replace").strip()
    if proc.returncode != 0:
        raise OracleError(f"judge.mjs failed (exit {proc.returncode}):\n{stderr}")
    try:
        results = json.loads(proc.stdout)
    except json.JSONDecodeError as exc:
        raise OracleError(f"judge.mjs wrote invalid JSON ({exc}); stderr:\n{stderr}") from None
    if not isinstance(results, list) or len(results) != len(jobs):
        raise OracleError(f"judge.mjs answered {len(results)} results for {len(jobs)} jobs")
    return results


def to_sse(chunks: list[dict[str, Any]], *, done: bool = True) -> str:
    """SSE text as the SDK's server writes it: one `data: <json>` event per chunk, then `[DONE]`."""
    events = [f"data: {json.dumps(c, ensure_ascii=False, separators=(',', ':'))}\n\n" for c in chunks]
    if done:
        events.append("data: [DONE]\n\n")
    return "".join(events)


def stream_job(profile: str, sse: str, prior: dict[str, Any] | None = None) -> Job:
    """A job that parses and folds `sse` (optionally continuing `prior`) with `profile`'s SDK."""
    job: Job = {"profile": profile, "sse": sse}
    if prior is not None:
        job["prior"] = prior
    return job


def validate_job(profile: str, messages: list[dict[str, Any]]) -> Job:
    """A job that runs `validateUIMessages({messages})` with `profile`'s SDK."""
    return {"profile": profile, "messages": messages}


def in_ci() -> bool:
    """True when the CI environment variable is set (to anything but "", "0" or "false")."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false")


@pytest.fixture(scope="session")
def sdk_judge() -> Judge:
    """The `judge` function, after installing the pinned SDKs once per session.

    Skips when `node`/`npm` are missing, except under CI (the `CI` variable is set): there the
    oracle must run, so it fails instead.
    """
    missing = missing_tools()
    if missing:
        reason = f"AI SDK oracle unavailable: {' and '.join(missing)} not on PATH (needs Node >= {MIN_NODE_MAJOR})"
        if in_ci():
            pytest.fail(f"{reason}; CI is set, so the oracle is required", pytrace=False)
        pytest.skip(reason)
    try:
        ensure_installed()
    except OracleError as exc:
        pytest.fail(str(exc), pytrace=False)
    return judge
