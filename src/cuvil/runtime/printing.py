"""NumPy's text for the NumPy scalars Numba prints as something else.

Numba's `print` boxes a float32 as a Python float, a float64: `print(np.float32(0.1))` showed
0.10000000149011612 where Python shows 0.1 (NumPy prints the shortest text that reads back as the same
float32). The value converts back to its own type exactly, so NumPy's str of it is Python's text. Object mode
costs a GIL round trip per call; it runs only where the program prints. lower/prints.py calls these.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def float32_text(x):
    with numba.objmode(text="unicode_type"):
        text = str(np.float32(x))
    return text


@numba.njit(cache=True)
def float16_text(x):  # a half's value, held in float32 by the compiled code
    with numba.objmode(text="unicode_type"):
        text = str(np.float16(x))
    return text


@numba.njit(cache=True)
def complex64_text(x):
    with numba.objmode(text="unicode_type"):
        text = str(np.complex64(x))
    return text
