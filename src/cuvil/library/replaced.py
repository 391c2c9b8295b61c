"""NumPy functions whose Numba implementation cannot be made to give NumPy's answer, and Cuvil's own compiled
helper for each (CPU): lower/replaced.py calls the helper with the user's arguments where every keyword is one it
takes (anything else stays Numba's, which refuses it), and the type rules type the helper as the NumPy function.

    np.histogram(a, 20, (0, 1))   →  histogram(a, 20, (0, 1))     runtime/histograms.py: edges, NaN, constant data
    np.kron(a, b)                 →  kron(a, b)                   runtime/products.py: NumPy's result dtype
    np.linalg.slogdet(a)          →  slogdet(a)                   runtime/linalg.py: float32 stays float32
    np.trapezoid(y)               →  trapezoid(y)                 runtime/integrals.py: uint8 pairs wrap
    np.copyto(dst, src)           →  copyto(dst, src)             runtime/copies.py: Numba has none
"""

from __future__ import annotations

import numpy as np

REPLACED: dict[str, tuple[str, str, frozenset[str]]] = {  # NumPy's name → (module, helper, keywords it takes)
    "numpy.histogram": ("cuvil.runtime.histograms", "histogram", frozenset({"bins", "range"})),
    "numpy.kron": ("cuvil.runtime.products", "kron", frozenset()),
    "numpy.linalg.slogdet": ("cuvil.runtime.linalg", "slogdet", frozenset()),
    "numpy.linalg.cond": ("cuvil.runtime.linalg", "cond", frozenset()),
    "numpy.linalg.pinv": ("cuvil.runtime.linalg", "pinv", frozenset()),
    "numpy.linalg.inv": ("cuvil.runtime.linalg", "inv", frozenset()),
    "numpy.linalg.solve": ("cuvil.runtime.linalg", "solve", frozenset()),
    "numpy.correlate": ("cuvil.runtime.products", "correlate", frozenset()),
    "numpy.cross": ("cuvil.runtime.products", "cross", frozenset()),
    "numpy.trapezoid": ("cuvil.runtime.integrals", "trapezoid", frozenset({"x", "dx"})),
    "numpy.tile": ("cuvil.runtime.tiles", "tile", frozenset()),  # Numba has none
    "numpy.copyto": ("cuvil.runtime.copies", "copyto", frozenset()),  # Numba has none; no casting= or where=
}

HELPERS: dict[str, str] = {f"{module}.{helper}": name for name, (module, helper, _) in REPLACED.items()}
"""A helper's dotted name → the NumPy function it stands for."""


def trapezoid_dtype(y: np.dtype, x: np.dtype | None) -> np.dtype:
    """NumPy's dtype of np.trapezoid(y, x) (of y alone: x None), a Python `dx` weak."""
    pair = np.result_type(y, x) if x is not None else y
    return np.result_type(pair, 1.0)
