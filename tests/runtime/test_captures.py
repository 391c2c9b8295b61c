"""Globals, closures and callees: values are resolved at compile time, callees compiled transitively."""

from __future__ import annotations

import math
import warnings

import numba
import numpy as np
import pytest

import cuvil
from tests.helpers import define


def test_module_constants_of_each_kind():
    fn = cuvil.jit(define("""
        import math
        from math import sqrt as root
        import numpy as np
        K = 3
        SCALE = 0.5
        SHAPE = (2, 3)
        TABLE = np.arange(4.0)
        INF = float("inf")
        def f(x):
            out = np.zeros(SHAPE)
            out[0, 0] = x * K * SCALE + TABLE[3] + root(4.0) + math.pi
            return out, x < INF
        """))
    with pytest.warns(cuvil.CuvilWarning, match="global array 'TABLE' is compiled in as a constant"):
        out, finite = fn(2.0)
    assert out[0, 0] == 2.0 * 3 * 0.5 + 3.0 + 2.0 + math.pi and out.shape == (2, 3) and finite
    source = fn.source()
    assert "K = 3" in source and "SHAPE = (2, 3)" in source and "from math import sqrt as root" in source
    assert "# TABLE: array float64[4], set by Cuvil before this module runs" in source


def test_closure_variables_are_captured():
    def make(k):
        def f(x):
            return x * k

        return f

    assert cuvil.jit(make(3))(2) == 6
    assert cuvil.jit(make(5))(2) == 10


def test_undecorated_helpers_are_compiled_transitively():
    fn = define("""
        def square(x):
            return x * x
        def norm2(a):
            s = 0.0
            for x in a:
                s += square(x)
            return s
        def norm(a):
            return math.sqrt(norm2(a))
        """, "norm", env={"math": math})
    jitted = cuvil.jit(fn)
    assert jitted(np.array([3.0, 4.0])) == 5.0
    source = jitted.source()
    assert source.index("def square") < source.index("def norm2") < source.index("def norm(")


def test_calls_to_jitted_and_numba_functions():
    inner = cuvil.jit(define("""
        def inner(x):
            return x + 1
        """))

    @numba.njit
    def numba_fn(x):
        return x * 2

    fn = cuvil.jit(define("""
        def outer(x):
            return inner(x) + numba_fn(x)
        """, env={"inner": inner, "numba_fn": numba_fn}))
    assert fn(3) == 4 + 6


def test_same_global_name_with_different_values_in_two_functions():
    helper = define("""
        K = 100
        def helper(x):
            return x + K
        """, "helper")
    fn = cuvil.jit(define("""
        K = 1
        def f(x):
            return helper(x) + K
        """, "f", env={"helper": helper}))
    assert fn(0) == 101
    assert "K_1 = 100" in fn.source()


def test_numpy_dot_and_matmul_work_after_a_plain_install():
    fn = cuvil.jit(define("""
        import numpy as np
        def f(a, b):
            return np.dot(a, b) + (a @ b)
        """))
    a = np.arange(3.0)
    assert fn(a, a) == 2 * np.dot(a, a)


def test_unsupported_global_is_named_at_its_line():
    fn = cuvil.jit(define("""
        CONFIG = {"k": 1}
        def f(x):
            y = x + 1
            return CONFIG
        """))
    with pytest.raises(cuvil.CuvilTypeError) as info:
        fn(1)
    assert info.value.lineno == 4
    assert "global 'CONFIG' is a dict" in info.value.message


def test_undefined_name_is_an_error_at_its_line():
    fn = cuvil.jit(define("""
        def f(x):
            y = x + 1
            return y + not_defined_anywhere
        """))
    with pytest.raises(cuvil.CuvilTypeError) as info:
        fn(1)
    assert (info.value.lineno, info.value.message) == (3, "name 'not_defined_anywhere' is not defined")


def test_read_only_global_array_is_a_constant_without_warning():
    table = np.arange(3.0)
    table.flags.writeable = False
    fn = cuvil.jit(define("""
        def f(i):
            return TABLE[i]
        """, env={"TABLE": table}))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert fn(2) == 2.0
