"""Compile options: validated when the decorator runs, frozen, and part of every cache key."""

from __future__ import annotations

import dataclasses
import os
from typing import Any

TARGETS = ("cpu", "cuda", "auto")  # auto: cuda when an array argument lives on a GPU, else cpu
PRECISIONS = (None, "fp16", "bf16", "fp32")


@dataclasses.dataclass(frozen=True)
class Options:
    target: str = "cpu"
    precision: str | None = None
    dynamic: bool | None = None
    parallel: bool | None = None
    fastmath: bool = False
    cache: bool = True
    boundscheck: bool = True  # Python's IndexError for every index (lower/checks.py); False: none, as Numba
    overflow: str = "raise"  # Python ints that overflow int64 raise OverflowError (lower/overflow.py); "wrap"
    dims: Any = ()  # declared dims: {"x.shape[0]": (1, 32), "B": (1, 32)} (cuvil/dims.py); kept as sorted pairs

    def __post_init__(self) -> None:
        if self.target not in TARGETS:
            raise ValueError(f"target must be one of {TARGETS}, not {self.target!r}")
        if self.precision not in PRECISIONS:
            raise ValueError(f"precision must be one of {PRECISIONS}, not {self.precision!r}")
        for name in ("dynamic", "parallel"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, bool):
                raise ValueError(f"{name} must be None, True or False, not {value!r}")
        for name in ("fastmath", "cache", "boundscheck"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, not {getattr(self, name)!r}")
        if self.overflow not in ("raise", "wrap"):
            raise ValueError(f"overflow must be 'raise' or 'wrap', not {self.overflow!r}")
        from .dims import normalized

        object.__setattr__(self, "dims", normalized(self.dims))  # a CuvilError naming a malformed range

    def key(self) -> tuple[tuple[str, Any], ...]:
        """Sorted (name, value) pairs: the options' part of a cache key."""
        return tuple(sorted(dataclasses.asdict(self).items()))


@dataclasses.dataclass
class Config:
    """Process-wide settings (`cuvil.config`)."""

    recompile_limit: int = 8
    # Strict: a lowering Numba refuses is a CuvilInternalError, not a warned fallback to the NumPy code as
    # written. The test suite runs strict (tests/conftest.py): a fallback's right answer must not hide the bug.
    strict: bool = dataclasses.field(default_factory=lambda: os.environ.get("CUVIL_STRICT") == "1")


config = Config()
