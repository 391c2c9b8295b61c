"""What the shape analysis must know, found missing by mutation testing (session 13's sample of shape_eval,
shape_transfer and shape_rules, `--every 16 --offset 8`): each test fails on the mutant named in it.

- `Transfer.loop_target` 11: a `range()` loop's counter taken for unknown, not a scalar (a needless
  `inplace_value` on `x += i`);
- `_fresh` 12: an `np.full` value taken for a view that may overlap its target (a needless `inplace_value`);
- `Evaluator.dims_of` 4: `np.zeros(x.shape)` of unknown shape;
- `Evaluator.subscript` 9: an index written as a parenthesized tuple (`x[(1, 2)]`) crashed the analysis;
- `_true` 4: `keepdims=True` not read (a valid broadcast refused at compile time);
- `_cannot_reshape` 14: NumPy's reshape message for a shape of three dims;
- `Evaluator.module_call` 55, 71: the shapes of `np.dot(a, b)` and `np.reshape(x, shape)`;
- `Evaluator.call` 13, 29 and `arith` 6: builtins of scalars and arrays, helpers, `n * 0` and `n // 0`."""

from __future__ import annotations

import libcst as cst
import numpy as np
import pytest

import cuvil
from cuvil.analysis import shapes
from cuvil.frontend.parse import parse
from cuvil.frontend.source import get_source
from cuvil.normalize.pipeline import normalize
from tests.helpers import define

_ENV = {"np": np}


def _checked(source: str, **params) -> shapes.Checked:
    return shapes.check(normalize(parse(get_source(define(source, env=_ENV)))).function, params, certain=True)


def _error(source: str, **params) -> str | None:
    error = _checked(source, **params).error
    return None if error is None else error.message


def _inplace(source: str, **params) -> list[str]:
    return [cst.Module([]).code_for_node(s.body[0]) for s in _checked(source, **params).inplace]


def _numpys(fn, *args) -> str:
    with pytest.raises(ValueError) as info:
        fn(*args)
    return str(info.value)


def test_a_range_counter_is_a_scalar_after_its_loop():
    source = """
        def f(a, b):
            i = 0
            for i in range(3):
                a[0] += 1.0
            return a + b * i
        """
    fn = define(source, env=_ENV)
    assert _error(source, a=(3,), b=(4,)) == _numpys(fn, np.zeros(3), np.zeros(4))
    assert _error(source, a=(4,), b=(4,)) is None


def test_a_range_counter_added_into_an_array_needs_no_check():
    assert _inplace("""
        def f(x):
            for i in range(3):
                x += i
            return x
        """, x=(3,)) == []


def test_reductions_and_full_are_fresh_memory():
    assert _inplace("""
        def f(a, b):
            a += b.sum(axis=0)
            a -= np.sum(b, axis=0)
            a *= np.full(3, 2.0)
            a += b[0]
            return a
        """, a=(3,), b=(2, 3)) == ["a += b[0]"]


def test_a_shape_given_as_another_arrays_shape_is_known():
    source = """
        def f(x):
            return np.zeros(x.shape) + np.ones(4)
        """
    assert _error(source, x=(3,)) == _numpys(define(source, env=_ENV), np.zeros(3))


@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 4)])
def test_an_index_written_as_a_tuple_is_several_indices(shape):
    source = """
        def f(x):
            return x[(1, 2)] + np.ones(3)
        """
    fn = define(source, env=_ENV)
    x = np.arange(float(np.prod(shape))).reshape(shape)
    if len(shape) == 2:  # x[(1, 2)] a scalar: broadcasts
        assert _error(source, x=shape) is None
        np.testing.assert_array_equal(cuvil.jit(fn)(x), fn(x))
    else:  # a row of 4 against 3
        assert _error(source, x=shape) == _numpys(fn, x)


def test_keepdims_keeps_the_reduced_axis():
    source = """
        def f(a):
            return a - a.sum(axis=1, keepdims=True)
        """
    assert _error(source, a=(2, 3)) is None
    fn = define(source, env=_ENV)
    a = np.arange(6.0).reshape(2, 3)
    got = cuvil.jit(fn)(a)
    assert got.shape == (2, 3) and got.dtype == np.float64
    np.testing.assert_array_equal(got, fn(a))


def test_a_reshape_to_three_dims_of_another_size_says_numpys_words():
    source = """
        def f(x):
            return x.reshape(4, -1, 2)
        """
    assert _error(source, x=(6,)) == _numpys(define(source, env=_ENV), np.zeros(6))


@pytest.mark.parametrize("call", ["np.dot(a, b)", "np.reshape(b, (4, 3))"])
def test_module_functions_have_known_shapes(call):
    source = f"""
        def f(a, b):
            return {call} + np.ones(5)
        """
    fn = define(source, env=_ENV)
    assert _error(source, a=(2, 3), b=(3, 4)) == _numpys(fn, np.zeros((2, 3)), np.zeros((3, 4)))


def test_a_builtin_of_scalars_is_a_scalar_and_of_arrays_unknown():
    """`Evaluator.call` 13, 29: `abs(k)` of a scalar is a scalar (a certain mismatch after it is found); `abs(a)`
    of an array and a helper's result are not taken for scalars (no rank error for `abs(a)[0, 1]`)."""
    source = """
        def f(a, k):
            y = np.zeros(3) + abs(k)
            return y + np.ones(4)
        """
    assert _error(source, a=(2, 3), k=()) == _numpys(define(source, env=_ENV), np.zeros((2, 3)), -2)
    assert _error("""
        def f(a, k):
            return abs(a)[0, 1] + max(a.shape)
        """, a=(2, 3), k=()) is None


def test_a_helper_of_scalars_may_return_an_array():
    def grid(n):
        return np.zeros((n, n))

    fn = define("""
        def f(k):
            return grid(k)[0, 1] + grid(2)[1, 1]
        """, env={**_ENV, "grid": grid})
    assert cuvil.jit(fn)(3) == fn(3) == 0.0


def test_a_dim_times_zero_is_zero_and_a_division_by_zero_is_pythons_error():
    """`arith` 6: `n * 0` is a known 0 (a certain mismatch); `n // 0` is left to run time (ZeroDivisionError
    in CPython's words at the line), not computed by the analysis."""
    source = """
        def f(a):
            n = len(a)
            return np.zeros(n * 0) + np.ones(3)
        """
    assert _error(source, a=(4,)) == _numpys(define(source, env=_ENV), np.zeros(4))
    fn = define("""
        def f(a):
            n = len(a)
            k = n // 0
            return np.zeros(k)
        """, env=_ENV)
    with pytest.raises(ZeroDivisionError) as want:
        fn(np.zeros(4))
    with pytest.raises(ZeroDivisionError) as got:
        cuvil.jit(fn)(np.zeros(4))
    assert str(got.value) == str(want.value)
    assert got.traceback[-1].lineno == want.traceback[-1].lineno
