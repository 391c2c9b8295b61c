"""A ufunc whose output overlaps an input other than element for element reads the input as if copied first,
as NumPy does: `np.add(a[::-1], 1, out=a)`, `np.multiply(a[1:], 3, out=a[:-1])`, and the same array passed as
two arguments. `out=` given by keyword was not protected (only a positional output was): the result read
elements it had already written. Positional and keyword outputs, serial and parallel, first call/hit/miss."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lower.compare import jitted

FULL = ["a", "a[::-1]", "b", "b[::-1]"]  # (a and b may be the same array)
SHORT = ["a[1:]", "a[:-1]", "a[-2::-1]"]
PAIRS = [(x, out) for views in (FULL, SHORT) for x in views for out in views if out.startswith("a") or views is FULL]

def _call(ufunc: str, x: str, out: str, keyword: bool) -> str:
    return f"np.{ufunc}({x}, b[0] * 2, {'out=' if keyword else ''}{out})"


@pytest.mark.parametrize("keyword", [False, True])
@pytest.mark.parametrize("parallel", [False, True])
@settings(max_examples=12, deadline=None)
@given(data=st.data())
def test_ufunc_output_overlapping_an_input_reads_the_input_first(keyword, parallel, data):
    ufunc = data.draw(st.sampled_from(["add", "subtract", "maximum"]))
    x, out = data.draw(st.sampled_from(PAIRS))
    f = jitted(f"def f(a, b):\n    {_call(ufunc, x, out, keyword)}\n    return a, b\n", parallel=parallel)
    base = np.array(data.draw(st.lists(st.integers(-50, 50), min_size=6, max_size=6)), np.int64)
    for make in (lambda: (base[:5].copy(), base[1:].copy()),   # separate arrays
                 lambda: (lambda v: (v, v))(base[:5].copy()),  # the same array twice
                 lambda: (lambda v: (v[:5], v[1:]))(base.astype(np.float64))):  # overlapping views, another dtype
        want_args, got_args = make(), make()
        f.py_func(*want_args)
        f(*got_args)
        for want, got in zip(want_args, got_args):
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_array_equal(got, want, err_msg=f"{ufunc}({x}, out={out})")
