"""Serving the reference runtime with uvicorn: in the foreground, in a thread, or in a child process.

Why three ways: `turnwire serve` runs it in the foreground; tests and the conformance runner need a
real server on a free loopback port that they can start and stop around their work (`ReferenceServer`,
a thread — cheap, in-process), and a crash test needs a server it can kill with SIGKILL
(`ServerProcess`, a child running `turnwire serve`). Every way binds the socket itself, so port 0
means "any free port" and the caller learns the real one before the first request.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import IO, Any, Final

import uvicorn

from turnwire.reference.app import create_app
from turnwire.reference.routes import API_PREFIX
from turnwire.reference.store import Store

__all__ = ["DEFAULT_DB", "DEFAULT_HOST", "DEFAULT_PORT", "ReferenceServer", "ServerProcess", "serve"]

DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 8000
DEFAULT_DB: Final = "turnwire-reference.db"
"""The default database: a SQLite file in the working directory."""

_ANNOUNCE = re.compile(r"listening on (http://\S+?)" + re.escape(API_PREFIX))


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only on sockets that say they are TCP, and
    # without it every response waits ~40 ms for the client's delayed ACK (Nagle)
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(2048)  # connections queue from now on, even before uvicorn accepts the first one
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def _url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def _config(app: Any) -> uvicorn.Config:
    return uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on", timeout_graceful_shutdown=2)


def serve(
    db: str = DEFAULT_DB,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    *,
    test_hooks: bool = False,
    announce: Callable[[str], None] | None = None,
) -> None:
    """Serve the runtime in the foreground until interrupted (Ctrl-C, SIGTERM).

    Prints `listening on http://HOST:PORT/api/v2/agent` once the socket is bound (port 0 picks a free
    port, and the line says which).
    """
    app = create_app(db, test_hooks=test_hooks)
    sock = _bind(host, port)
    say = announce or (lambda line: print(line, flush=True))
    say(f"turnwire reference runtime listening on {_url(host, sock.getsockname()[1])}{API_PREFIX} (database: {db})")
    try:
        uvicorn.Server(_config(app)).run(sockets=[sock])
    finally:
        sock.close()


class ReferenceServer:
    """The runtime on a loopback port, served by uvicorn in a background thread.

    Use as a context manager: `with ReferenceServer(db) as server: httpx.get(server.api_url + ...)`.
    `db` is a database URL or path, or an open `Store` (left open when the server stops). Keyword
    options go to `create_app` (`test_hooks`, `stream`, `clock`, ...).
    """

    def __init__(self, db: str | Store, *, host: str = DEFAULT_HOST, port: int = 0, **app_options: Any) -> None:
        self.db = db
        self.host = host
        self.app = create_app(db, **app_options)
        self._sock = _bind(host, port)
        self.port: int = self._sock.getsockname()[1]
        self._server = uvicorn.Server(_config(self.app))
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        """`http://HOST:PORT`."""
        return _url(self.host, self.port)

    @property
    def api_url(self) -> str:
        """The API base: `http://HOST:PORT/api/v2/agent`."""
        return self.base_url + API_PREFIX

    def start(self, timeout: float = 20.0) -> ReferenceServer:
        """Start serving; returns once the server accepts requests (RuntimeError if it cannot start)."""
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._sock]}, name=f"turnwire-ref-{self.port}", daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive():
                raise RuntimeError("the reference runtime stopped during start-up")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the reference runtime did not start within {timeout} s")
            time.sleep(0.01)
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Stop serving and wait for the thread (bounded); safe to call twice, or without `start()`."""
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive():
                self._server.force_exit = True
                self._thread.join(timeout)
        self._sock.close()
        if not isinstance(self.db, Store):  # the app opened the store: close it even if it never served
            self.app.state.runtime.store.close()

    def __enter__(self) -> ReferenceServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


class ServerProcess:
    """`turnwire serve` in a child process on a free loopback port (for tests that kill the server)."""

    def __init__(self, db: str, *, host: str = DEFAULT_HOST, test_hooks: bool = False) -> None:
        self.db = db
        self.host = host
        self.test_hooks = test_hooks
        self.process: subprocess.Popen[str] | None = None
        self.base_url = ""

    @property
    def api_url(self) -> str:
        """The API base of the running child."""
        return self.base_url + API_PREFIX

    def start(self, timeout: float = 30.0) -> ServerProcess:
        """Start the child and wait for its `listening on` line (RuntimeError if it does not come)."""
        command = [sys.executable, "-m", "turnwire.cli", "serve", "--host", self.host, "--port", "0", "--db", self.db]
        if self.test_hooks:
            command.append("--test-hooks")
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, start_new_session=True
        )
        assert self.process.stdout is not None
        deadline = time.monotonic() + timeout
        seen: list[str] = []
        found = None
        while found is None and time.monotonic() < deadline:
            line = _read_line(self.process.stdout, deadline - time.monotonic())
            if not line:  # end of output (the child exited) or no line in time
                break
            seen.append(line.rstrip())
            found = _ANNOUNCE.search(line)
        if found is None:
            self.kill()
            raise RuntimeError("turnwire serve did not announce its address; its output: " + " | ".join(seen[-5:]))
        self.base_url = found.group(1)
        threading.Thread(target=_drain, args=(self.process.stdout,), daemon=True).start()
        return self

    def kill(self) -> None:
        """SIGKILL the child (no clean-up of any kind) and reap it."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
        if self.process is not None:
            self.process.wait(timeout=10)

    def terminate(self, timeout: float = 10.0) -> None:
        """Stop the child gently (SIGTERM), killing it if it does not stop in time."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()


def _read_line(stream: IO[str], timeout: float) -> str | None:
    """The first line of `stream`, or None when none arrives within `timeout` seconds."""
    result: list[str] = []
    reader = threading.Thread(target=lambda: result.append(stream.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    return result[0] if result else None


def _drain(stream: IO[str]) -> None:
    """Read and drop the child's output, so a full pipe never blocks it."""
    for _ in stream:
        pass
