"""Loads the compiled core, with an error that says how to get it."""

from __future__ import annotations

from typing import Any


class SolverUnavailable(ImportError):
    """The compiled double-dummy core is missing (not built, or no C compiler)."""


def load_core() -> Any:
    """The ``engine.dds._dds`` extension module, or a SolverUnavailable explaining the fix."""
    try:
        from engine.dds import _dds  # type: ignore[attr-defined]
    except ImportError as exc:
        raise SolverUnavailable(
            "engine.dds needs its compiled C core (engine/dds/_dds), which is not built. "
            "Build it with `pip install -e .` or `python setup.py build_ext --inplace` "
            "from the project root; this needs a C compiler (gcc or clang, e.g. "
            "`apt-get install build-essential`) and the Python headers (python3-dev). "
            f"Import error: {exc}"
        ) from exc
    return _dds
