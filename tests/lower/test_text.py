"""Text built in compiled code is Python's: `str`, `repr` and `format` of numbers, arrays and tuples, and
f-strings (normalize/fstrings.py → lower/prints.py → runtime/printing.py). Numba's own `str(2.5)` is
"<object type:float64>", so a message built from a float was wrong, silently; f-strings were refused."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil import CuvilSyntaxError
from tests.helpers import define
from tests.lower.compare import elements, jitted

# each field of a value `v` (an element of the array argument, of the dtype drawn): the forms people write
FIELDS = {
    "str": "str(v)", "repr": "repr(v)", "format": "format(v, '')", "fixed": "format(v, '.3f')",
    "f": "f'{v}'", "f_repr": "f'{v!r}'", "f_eq": "f'{v = }'", "f_spec": "f'[{v:>12.4e}]'",
    "f_str": "f'<{v!s}>'", "concat": "'v=' + str(v) + ';'",
}
DTYPES = ("float64", "float32", "float16", "complex64", "int8", "uint64", "bool")
_NUMERIC_SPECS = ("fixed", "f_spec")


def _source(field: str, python: bool) -> str:
    value = "float(x[0])" if python else "x[0]"  # a Python float, or the NumPy scalar
    return f"def f(x):\n    v = {value}\n    return {FIELDS[field]}\n"


def _draw(data, dtype: str) -> np.ndarray:
    if dtype == "complex64":
        parts = data.draw(st.tuples(elements("float32"), elements("float32")))
        return np.array([complex(*parts)], np.complex64)
    return np.array([data.draw(elements(dtype))], dtype)


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("dtype", DTYPES)
@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_the_text_of_a_numpy_scalar_is_pythons(field, dtype, data):
    if field in _NUMERIC_SPECS and dtype == "bool":
        return  # format(np.True_, '.3f') is 1.000 in NumPy: a bool formats as an int there, not compared
    fn = jitted(_source(field, python=False))
    for _ in range(2):  # first call, guard hit
        x = _draw(data, dtype)
        assert fn(x) == fn.py_func(x), (field, x)


@pytest.mark.parametrize("field", FIELDS)
@settings(max_examples=6, deadline=None)
@given(v=st.floats(allow_nan=True, allow_infinity=True))
def test_the_text_of_a_python_float_is_pythons(field, v):
    fn = jitted(_source(field, python=True))
    x = np.array([v])
    assert fn(x) == fn.py_func(x)


@pytest.mark.parametrize("form", ["str(x)", "repr(x)", "f'{x}'", "f'{x!r}'", "f'{x.shape}'", "repr(x.shape)",
                                  "format(x, '')", "str((x[0], len(x)))", "str(x.dtype) + repr(x.dtype)"])
@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "bool"])
def test_the_text_of_an_array_or_a_tuple_is_pythons(form, dtype):
    fn = jitted(f"def f(x):\n    return {form}\n")
    for x in (np.arange(3).astype(dtype), np.arange(3).astype(dtype), np.ones((2, 2), dtype)):  # a guard miss
        assert fn(x) == fn.py_func(x)


SCALED = """
def scaled(x, out, k):
    for i in range(len(x)):
        if x[i] > k:
            raise OverflowError(f"x[{i}] = {x[i]} is above the limit {k:.2f}")
        out[i] = x[i] * 2.0
    return out
"""


@pytest.mark.parametrize("options", [{}, {"parallel": True}])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_an_fstring_message_is_raised_at_the_users_line(options, dtype):
    fn = cuvil.jit(define(SCALED, "scaled", env={"np": np}), **options)
    x = np.array([0.5, 0.1, 7.25, 9.0], dtype)
    for k in (1.0, 8.0):  # the first element above k is the one named
        with pytest.raises(OverflowError) as expected:
            fn.py_func(x, np.zeros(4, dtype), k)
        with pytest.raises(OverflowError) as got:
            fn(x, np.zeros(4, dtype), k)
        assert str(got.value) == str(expected.value)
        assert got.traceback[-1].lineno == expected.traceback[-1].lineno
    assert np.array_equal(fn(x, np.zeros(4, dtype), 10.0), fn.py_func(x, np.zeros(4, dtype), 10.0))


def test_a_gpu_kernel_refuses_a_message_of_values_it_computes():
    """The host raises what a kernel recorded: a message naming the loop's values was a NameError there."""
    fn = cuvil.jit(define(SCALED, "scaled", env={"np": np}), target="cuda")
    with pytest.raises(CuvilSyntaxError) as caught:
        fn(np.arange(4.0), np.zeros(4), 10.0)
    assert caught.value.lineno == 4
    assert "holds a value the kernel computes (i)" in caught.value.msg


def test_a_gpu_kernel_raises_a_message_of_its_arguments():
    source = ("def f(x, k):\n    for i in range(len(x)):\n        if x[i] > k:\n"
              "            raise ValueError(f'above {k}')\n        x[i] += 1.0\n    return x\n")
    fn = cuvil.jit(define(source, "f", env={"np": np}), target="cuda")
    with pytest.raises(ValueError, match=r"^above 2\.5$"):
        fn(np.arange(4.0), 2.5)


@pytest.mark.parametrize(("source", "column", "words"), [
    ("def f(x):\n    return f'{x!a}'\n", 14, "'!a' in an f-string is not supported"),
    ("def f(x):\n    return f'{x:{4}}'\n", 14, "whose format spec has a field of its own"),
])
def test_what_an_fstring_cannot_do_is_refused_at_its_place(source, column, words):
    with pytest.raises(CuvilSyntaxError) as caught:
        cuvil.jit(define(source, "f"))
    assert (caught.value.lineno, caught.value.offset) == (2, column)
    assert words in caught.value.msg


@pytest.mark.parametrize("form", ["str(xs)", "repr(xs)", "f'{xs}|{xs!r}'", "format(xs, '')", "str(rows)",
                                  "f'{table}'", "str([n > 1, n > 2])"])
def test_the_text_of_a_list_or_a_dict_is_pythons(form):
    """A list's text is built element by element (object mode cannot take one); a dict's is boxed."""
    source = ("def f(n):\n    xs = [i * 0.5 for i in range(n)]\n    rows = [[i, i + 1] for i in range(n)]\n"
              f"    table = {{1: 2.5, 3: -1.0}}\n    return {form}\n")
    fn = jitted(source)
    for n in (3, 3, 0):
        assert fn(n) == fn.py_func(n)


@pytest.mark.parametrize("value", ["float(x[0])", "int(x[0])", "x[0].real", "x[0].imag", "abs(x[0])"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int16", "complex64"])
def test_the_text_of_a_converted_or_a_part_is_its_types(value, dtype):
    """repr(float(v)) is a Python float's (a later pass writes np.float64(v): the text is decided before it);
    x[0].real of a complex64 is a float32."""
    if dtype == "complex64" and value.startswith(("float", "int")):
        return  # a TypeError in NumPy 2 for complex (compared elsewhere)
    fn = jitted(f"def f(x):\n    v = {value}\n    return str(v) + ' ' + repr(v) + ' ' + f'{{v}}'\n")
    for x in (np.array([1.1], dtype) if dtype != "int16" else np.array([-3], dtype),) * 2:
        assert fn(x) == fn.py_func(x)


@pytest.mark.parametrize("form", ["'{} of {:.2f} {!r} {k}'.format(n, x[0], x[1], k=len(x))",
                                  "'{0}-{1}-{0}'.format(x[0], n)", "'{:>8}|{:x}|{{}}'.format('ab', n)"])
def test_str_format_of_a_literal_is_pythons(form):
    fn = jitted(f"def f(x, n):\n    return {form}\n")
    for x, n in ((np.array([1.5, 2.0], np.float32), 3), (np.array([1.5, 2.0], np.float32), 255),
                 (np.array([-0.0, np.nan]), 3)):
        assert fn(x, n) == fn.py_func(x, n)


@pytest.mark.parametrize("form", ["str((x[0], len(x)))", "str(x.dtype) + repr(x.dtype)", "f'{x[0]!r} {x.shape}'"])
def test_the_text_of_a_half_element_and_dtype_is_pythons(form):
    """A float16 array is held as its bits (uint16): its dtype's text is the user's, decided when compiling;
    its elements' text is a float16's; its whole text is refused (below)."""
    fn = jitted(f"def f(x):\n    return {form}\n")
    for x in (np.array([0.1, 2.0], np.float16),) * 2:
        assert fn(x) == fn.py_func(x)


@pytest.mark.parametrize("form", ["str(x)", "f'{x!r}'"])
def test_the_whole_text_of_a_half_array_is_refused_in_words(form):
    with pytest.raises(cuvil.CuvilTypeError, match="on a float16 array: compiled code holds half arrays as their"):
        jitted(f"def f(x):\n    return {form}\n")(np.zeros(2, np.float16))
