"""Make `tests/oracle/sdk.py` importable as `sdk` and provide the `sdk_judge` fixture.

`tests/` is not a package, so this folder goes on `sys.path` explicitly (independent of pytest's
import mode); test modules here then use `from sdk import ...`.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from sdk import sdk_judge  # noqa: E402

__all__ = ["sdk_judge"]
