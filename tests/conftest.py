"""Test-suite set-up shared by every test.

Hypothesis explores new examples on every local run; in CI (the `CI` environment variable set) it is
derandomized, so a red CI run is reproducible and a green one does not depend on luck.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile("ci" if os.environ.get("CI", "").lower() not in ("", "0", "false") else "dev")
