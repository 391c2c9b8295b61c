"""The disk-cache key (runtime/cache_key.py) tells apart what compiled code would tell apart: a captured array
by its dtype, shape and bytes (a mutation audit survivor hashed dtype and shape only, so an edited table in
the next process loaded the old machine code with the old values baked in)."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from cuvil.options import Options
from cuvil.runtime import cache_key
from tests.helpers import define

TABLES = arrays(st.sampled_from([np.float64, np.int32]), st.integers(0, 4).map(lambda n: (n,)),
                elements=st.integers(-3, 3))


def _key_with(table: np.ndarray) -> str:
    fn = define("""
        def f(i):
            return W[i]
        """, env={"W": table})
    fn.__code__ = _KEYED.__code__  # one file, one first line: only the captured value differs
    return cache_key.key(fn, Options())


_KEYED = define("""
    def f(i):
        return W[i]
    """, env={"W": None})


@given(a=TABLES, data=st.data())
def test_captured_arrays_are_keyed_by_dtype_shape_and_bytes(a, data):
    b = data.draw(arrays(a.dtype, a.shape, elements=st.integers(-3, 3)) | st.just(a.copy()), label="b")
    assert (_key_with(a) == _key_with(b)) == (a.tobytes() == b.tobytes())


@given(a=TABLES.filter(lambda t: t.size % 2 == 0 and t.size > 0))
def test_the_same_bytes_as_another_dtype_or_shape_are_another_key(a):
    other = np.int64 if a.dtype == np.float64 else np.uint32
    assert _key_with(a) != _key_with(a.view(other))
    assert _key_with(a) != _key_with(a.reshape(2, -1))
