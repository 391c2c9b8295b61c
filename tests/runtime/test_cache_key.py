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


ITEMS = st.one_of(st.sampled_from([1.0, 2.0, 1, 2, True]), TABLES)
CAPTURED_TUPLES = st.lists(ITEMS, min_size=1, max_size=3).map(tuple)


def _same_value(a: object, b: object) -> bool:
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(map(_same_value, a, b))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and \
            (a.dtype, a.shape, a.tobytes()) == (b.dtype, b.shape, b.tobytes())
    return type(a) is type(b) and a == b


@given(a=CAPTURED_TUPLES, b=CAPTURED_TUPLES)
def test_captured_tuples_are_keyed_item_by_item(a, b):
    """A tuple of literals and arrays, as a global or a default, is keyed by each item's type and value (a
    mutmut survivor keyed every item as None: `(1.0, 2.0)` edited to `(1.0, 3.0)` kept its key)."""
    assert (_key_with(a) == _key_with(b)) == _same_value(a, b)


def test_an_edited_source_is_another_key():
    """The function's text is part of the key, read as Python reads it (linecache): the same file, line and
    bytecode with another text is another entry (a mutmut survivor left the text out)."""
    import linecache

    fn = define("""
        def f(i):
            return i + 1
        """)
    before = cache_key.key(fn, Options())
    size, mtime, lines, name = linecache.cache[fn.__code__.co_filename]
    linecache.cache[name] = (size, mtime, [line.replace("+ 1", "+ 2") for line in lines], name)
    assert cache_key.key(fn, Options()) != before
    linecache.cache[name] = (size, mtime, lines, name)
    assert cache_key.key(fn, Options()) == before
