"""`zip(a, b, strict=True)` is refused at decoration, at the keyword's line and column (it failed at the first
call with an internal AssertionError: normalize/for_in.py took the call for an array)."""

from __future__ import annotations

import numpy as np
import pytest

import cuvil
from tests.helpers import define


@pytest.mark.parametrize("flag", ["True", "False"])
def test_zip_with_strict_is_refused_at_the_keyword(flag):
    fn = define(f"""
def pairs(a, b):
    s = 0.0
    for i, (x, y) in enumerate(zip(a, b, strict={flag})):
        s += x * y + i
    return s
""")
    with pytest.raises(cuvil.CuvilSyntaxError) as info:
        cuvil.jit(fn)
    error = info.value
    assert error.lineno == fn.__code__.co_firstlineno + 2
    assert error.text.index("strict=") + 1 == error.offset
    assert "zip() with a keyword (strict=) is not supported" in str(error)


def test_plain_zip_still_compiles():
    plain = define("""
def dot(a, b):
    s = 0.0
    for x, y in zip(a, b):
        s += x * y
    return s
""")
    a = np.arange(3.0)
    assert cuvil.jit(plain)(a, a) == plain(a, a) == 5.0
