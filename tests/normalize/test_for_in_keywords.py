"""`enumerate` with its iterable given by keyword: `for i, x in enumerate(iterable=a)` is valid Python (and so is
`enumerate(start=k, iterable=a)`), but ForInToIndex reads only the positional spelling and `start=` after a
positional iterable, so the call is taken for an array and the loop fails to compile with Numba's internal
"AssertionError (and no message)" at the user's line. Fixed: normalize/for_in.py reads `iterable=` as it reads
`start=` (enumerate's arguments as positions).

Mutation testing found the class: normalize/for_in.py `_is_call` 7 (`a.keyword and a.star`, which lets every
keyword call through) compiles the first two spellings to what Python computes, and nothing else told it from
the original (the subset check refuses `*` arguments and zip's keywords before the normalizer sees them)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

import cuvil

from ..helpers import define


def _weighted(call: str):
    return define(f"""
        def weighted(a, k):
            s = 0.0
            for i, x in {call}:
                s += i * x + k
            return s
        """)


_SPELLINGS = {name: _weighted(call) for name, call in [
    ("iterable", "enumerate(iterable=a)"),
    ("iterable-start", "enumerate(iterable=a, start=k)"),
    ("start-iterable", "enumerate(start=k, iterable=a)"),
    ("start-expression-iterable", "enumerate(start=k * 2 - 1, iterable=a)"),
]}


@pytest.mark.parametrize("spelling", list(_SPELLINGS))
@settings(max_examples=8, deadline=None, phases=(Phase.generate,))  # no shrinking: each try recompiles
@given(values=st.lists(st.floats(-100, 100), min_size=1, max_size=9), k=st.integers(-5, 5))
def test_enumerate_with_its_iterable_by_keyword_compiles_to_what_python_computes(spelling, values, k):
    fn = _SPELLINGS[spelling]
    a = np.array(values, dtype=np.float64)
    expected = fn(a, k)
    got = cuvil.jit(fn)(a, k)
    assert type(got) is float
    assert got == expected
