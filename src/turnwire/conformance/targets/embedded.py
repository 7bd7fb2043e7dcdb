"""The embedded target: the reference runtime started on loopback for one conformance run.

Why: `turnwire check` with no target must work out of the box, and the kit needs a correct runtime to
prove its own checks against. The runtime runs in this process (uvicorn in a thread) on a free
127.0.0.1 port, on a SQLite database in a temporary folder that is removed afterwards, with its test
hooks on so that legacy state can be planted. It is reached over real HTTP, exactly like a live URL.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from types import TracebackType

__all__ = ["EmbeddedRuntime"]


class EmbeddedRuntime:
    """The reference runtime on 127.0.0.1 with a throw-away database; a context manager."""

    def __init__(self) -> None:
        from turnwire.reference.server import ReferenceServer

        self._folder = Path(tempfile.mkdtemp(prefix="turnwire-embedded-"))
        try:
            self._server = ReferenceServer(str(self._folder / "reference.db"), host="127.0.0.1", test_hooks=True)
        except BaseException:
            shutil.rmtree(self._folder, ignore_errors=True)
            raise

    @property
    def api_url(self) -> str:
        """The runtime's API base, `http://127.0.0.1:PORT/api/v2/agent`."""
        return self._server.api_url

    def start(self) -> EmbeddedRuntime:
        """Start serving (RuntimeError when the server cannot start; the folder is removed then)."""
        try:
            self._server.start()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        """Stop the server and remove its database; safe to call twice."""
        try:
            self._server.stop()
        finally:
            shutil.rmtree(self._folder, ignore_errors=True)

    def __enter__(self) -> EmbeddedRuntime:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
