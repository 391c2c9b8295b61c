"""The generated code's own builtins (zip's `range(min(len(a), len(b)))`, casts' `int`, the lowering's `max`,
`abs`) are Python's even where the user's names shadow them: a global function `min`, a global `len = 7`, a
local `max` or `range` (compiler.py renames the user's before normalization). zip's loop stopped at the user's
`min(...)` before, and read past the end."""

from __future__ import annotations

import numpy as np

import cuvil
from tests.helpers import define

SHADOWED_GLOBALS = define("""
import numpy as np


def min(a, b):
    return a + b


def abs(x):
    return x * 10


len = 7


def dot(a, b):
    s = 0.0
    for x, y in zip(a, b):
        s += x * y
    return float(s + min(1, 2) + abs(len))
""", "dot")

SHADOWED_LOCALS = define("""
def pairs(a, b):
    max = 0.0
    range = 2
    int = 3
    for i, (x, y) in enumerate(zip(a, b)):
        max = max + x * y + i
    return float(max + range + int)
""")


def test_generated_builtins_are_pythons_under_shadowing_names():
    for fn in (SHADOWED_GLOBALS, SHADOWED_LOCALS):
        jitted = cuvil.jit(fn)
        for n, m, dtype in ((3, 4, np.float64), (3, 4, np.float64), (5, 2, np.float32)):  # first, hit, miss
            a, b = np.arange(n, dtype=dtype) + 1, np.arange(m, dtype=dtype) + 2
            expected, got = fn(a, b), jitted(a, b)
            assert type(got) is type(expected) and got == expected, (fn.__name__, n, m, got, expected)
