"""Numba's failures reach the user as a CuvilTypeError at the user's line with Numba's key sentence — also
when Numba fails with an exception of its own (not a NumbaError) or raises NotImplementedError at run time."""

from __future__ import annotations

import numpy as np
import pytest

import cuvil
from tests.helpers import define


def _error(source: str, *args):
    fn = cuvil.jit(define(source, env={"np": np}))
    with pytest.raises(cuvil.CuvilTypeError) as info:
        fn(*args)
    error = info.value
    assert error.filename == fn.py_func.__code__.co_filename
    assert error.__cause__ is None and error.__suppress_context__
    return error


def test_int_array_plus_float_array_in_place_is_numpys_type_error_not_numbas_attribute_error():
    """Numba 0.68 types `int_array += float_array` by failing with AttributeError ('NoneType' … 'args'); the
    lowering now refuses it as NumPy does, when it runs (lower/casts.py), so Numba never sees it. Numba's own
    failures keep their line: the test below."""
    fn = cuvil.jit(define("""
        def f(x, y):
            x += y
            return x
        """, env={"np": np}))
    for x in (np.arange(3), np.arange(3), np.arange(5)):  # first call, guard hit, guard miss
        with pytest.raises(TypeError) as numpy_error:
            fn.py_func(x.copy(), np.ones(len(x)))
        with pytest.raises(TypeError) as cuvil_error:
            fn(x, np.ones(len(x)))
        assert str(cuvil_error.value) == str(numpy_error.value)
        assert x.tolist() == list(range(len(x)))


def test_numba_empty_assertion_error_is_a_type_error_at_the_line():
    error = _error("""
        def f(x, m):
            s = 0.0
            x[m] = 0.0
            return x
        """, np.ones((2, 2, 2)), np.ones((2, 2)) > 0)  # a mask of fewer dims than the array (lower/masks.py
    # takes a mask of all of them)
    assert (error.lineno, error.text.strip()) == (3, "x[m] = 0.0")
    assert "failed with AssertionError (and no message)" in error.message


def test_unsupported_numpy_function_is_named_with_what_to_do():
    error = _error("""
        def f(x):
            y = x + 1.0
            return np.pad(y, 1)
        """, np.ones(3))
    assert error.lineno == 3
    assert error.message == "np.pad is not supported in compiled code (Numba does not implement it); write it as a " \
                            "loop instead"


@pytest.mark.parametrize("call", ["a.squeeze()", "np.squeeze(a)", "a.tolist()", "a.byteswap()"])
def test_array_method_numba_lacks_is_named_at_its_line(call):
    """Numba says "Unknown attribute 'squeeze' of type array(float64, 2d, C)": Cuvil names the method and says
    what to write instead, at the line; the first call and again after a guard miss (another rank)."""
    for a in (np.ones((1, 3)), np.ones((1, 3, 1))):
        error = _error(f"""
            def f(a):
                b = a * 2
                return {call}
            """, a)
        assert error.lineno == 3
        name = call.split("(")[0].split(".")[1]
        said = f"np.{name} is not supported" if call.startswith("np.") else f"arrays have no .{name}"
        assert error.message.startswith(said + " in compiled code (Numba does not implement it); ")


def test_swapaxes_method_is_numpys():
    """`a.swapaxes(i, j)` (Numba has only the function) is NumPy's view: written through, all ranks."""
    fn = cuvil.jit(define("""
        def f(a, i, j):
            b = a.swapaxes(i, j)
            b[0, -1] = -1
            return b.copy(), b.sum(axis=0)
        """))
    for shape, i, j in (((2, 3), 0, 1), ((2, 3), 0, 1), ((2, 3, 4), -1, 0), ((4, 5), 1, 1)):
        a = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
        expected, got = fn.py_func(a.copy(), i, j), fn(a, i, j)
        for e, g in zip(expected, got):
            assert e.dtype == g.dtype and e.shape == g.shape and np.array_equal(e, g)
        assert np.array_equal(a, np.swapaxes(expected[0], i, j))


def test_unexpected_keyword_keeps_numbas_sentence():
    error = _error("""
        def f(x):
            return np.nanmedian(x, axis=0)
        """, np.ones((2, 2)))
    assert error.lineno == 2
    first, second = error.message.splitlines()
    assert first == ("No implementation of function nanmedian found for signature: "
                     "nanmedian(array(float64, 2d, C), axis=Literal[int](0))")
    assert second == "got an unexpected keyword argument 'axis'"


def test_reshape_of_a_strided_array_keeps_numbas_sentence():
    error = _error("""
        def f(x):
            return x[:, ::2].reshape(8)
        """, np.ones((4, 4)))
    assert error.lineno == 2 and error.message == "reshape() supports contiguous array only"


def test_run_time_not_implemented_error_is_a_type_error_at_the_line():
    """A transposed array types as layout 'F'; Numba's reshape raises NotImplementedError when it would copy."""
    fn = cuvil.jit(define("""
        def f(x):
            y = x.T
            return y.reshape((8,))
        """))
    assert np.array_equal(fn(np.ones((8, 1))), np.ones(8))  # no copy needed: runs
    for _ in range(2):  # the slow path (first call of these types), then the fast path
        with pytest.raises(cuvil.CuvilTypeError) as info:
            fn(np.ones((2, 4)))
        assert (info.value.lineno, info.value.text.strip()) == (3, "return y.reshape((8,))")
        assert "incompatible shape for array" in info.value.message and "NumPy would copy" in info.value.message


@pytest.mark.parametrize(("dtype", "want"), [
    (np.float32, np.float32), (np.int32, np.int32), (np.uint8, np.uint8), (np.complex64, np.complex64),
    (np.float64, float), (np.int64, int), (np.bool_, np.bool_),
])
def test_scalar_results_keep_their_numpy_type(dtype, want):
    """Numba boxes every scalar as a Python number; NumPy's answer keeps the dtype (cuvil.testing's rule)."""
    fn = cuvil.jit(define("""
        def ends(x):
            return x[0], (x[-1], len(x))
        """))
    x = np.array([1, 0, 1], dtype=dtype)
    first, (last, n) = fn(x)
    assert (type(first), type(last), type(n)) == (want, want, int)
    assert fn.py_func(x) == fn(x)


def test_numbas_temporaries_and_the_generated_module_are_not_shown():
    error = _error("""
        def f(x, flag):
            y = 1 if flag else x
            return y
        """, np.ones(2), True)
    assert error.lineno == 2
    assert error.message == "Cannot unify Literal[int](1) and array(float64, 1d, C)"


def test_candidate_lists_are_not_shown():
    error = _error("""
        def f(x):
            return x + "a"
        """, np.ones(2))
    assert error.message == "unsupported operand type(s) for +: 'numpy.ndarray' and 'str'"  # no Numba types


def test_a_method_arrays_do_not_have_is_pythons_attribute_error():
    """`a.ptp_of()` is no method of NumPy's either: Python's AttributeError and words, with no suggestion when no
    name is near (tests/programs/test_user_mistakes.py has the misspellings)."""
    error = _error("""
        def f(a):
            b = a * 2
            return a.ptp_of()
        """, np.ones(3))
    assert isinstance(error, AttributeError) and error.lineno == 3
    assert error.message == "'numpy.ndarray' object has no attribute 'ptp_of'"
