"""`cuvil.fingerprint(fn, variant=-1)`: a short hash of a variant's structure (inspect/structure.py).

Two variants with one fingerprint run the same generated code up to names and line numbers; a fingerprint is
the same in every process and on every machine for the same source, options and argument types (no address,
timestamp, path or hash seed enters it), so it can be logged and compared across runs.
"""

from __future__ import annotations

import hashlib
from typing import Any

from .structure import structure
from .variants import plans_of


def fingerprint(fn: Any, variant: int = -1) -> str:
    """16 hex digits of SHA-256 over the variant's canonical structure lines."""
    return digest(structure(plans_of(fn, variant)))


def digest(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]
