"""Where turnwire's checked-in data lives.

The language-neutral data (`conformance/`), the generated `schemas/` and `golden/` sit at the top of
the repository so that other implementations can read them. A wheel carries copies under
`turnwire/_data/`; a source checkout (or editable install) reads the repository's own folders, so
`turnwire generate` writes exactly the files that are checked in.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent
_REPO_ROOT = _PACKAGE_DIR.parent.parent


def data_root() -> Path:
    """The folder holding `conformance/`, `schemas/` and `golden/`."""
    if (_REPO_ROOT / "conformance").is_dir() and (_REPO_ROOT / "pyproject.toml").is_file():
        return _REPO_ROOT
    return _PACKAGE_DIR / "_data"


def conformance_dir() -> Path:
    """`conformance/`: scenarios and requirement registries."""
    return data_root() / "conformance"


def schemas_dir() -> Path:
    """`schemas/`: generated JSON Schemas."""
    return data_root() / "schemas"


def golden_dir() -> Path:
    """`golden/`: generated golden fixtures."""
    return data_root() / "golden"
