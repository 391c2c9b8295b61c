"""What a user sees of a result, as CPython shows it (issue 36, class 9): a printed np.float32 / np.float16 /
np.complex64 is NumPy's text (Numba printed the float64 it converts to: 0.10000000149011612 for 0.1); `x and y`
/ `x or y` returned gives back the operand Python picks, in its own type (a Python bool False, not np.False_);
a function returning tuples of different types on different paths returns each path's tuple as Python does
(`(-1, 0)`, not `(-1, 0.0)`)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil


def printed(a, b):
    x, y = a[0], b[0]
    print(x, x * 2, y, "end")
    print(x + y)
    return 0


PRINTED = cuvil.jit(printed)


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")
@settings(max_examples=25)
@given(dtype=st.sampled_from(["float32", "float16", "complex64", "float64", "int8"]), x=st.floats(-1e4, 1e4),
       y=st.floats(-10, 10) | st.sampled_from([math.inf, math.nan, 0.1, 1 / 3]))
def test_printed_numbers_read_as_python_prints_them(capfd, dtype, x, y):
    x = np.array([x if dtype != "int8" else int(x) % 128], dtype)
    y = np.array([y if dtype != "int8" else 3], dtype)
    for _ in range(2):  # a first call, a guard hit
        capfd.readouterr()
        printed(x, y)
        expected = capfd.readouterr().out
        PRINTED(x, y)
        assert capfd.readouterr().out == expected


def both(a, i):
    return i < len(a) and a[i] > 0


def either(a, i):
    return i >= len(a) or a[i] > 0


def kept_then_returned(a, i):
    found = i < len(a) and a[i] > 0 and a[i] < 10
    return found


def several_types(a, i):
    return (i < len(a) and a[i]) or -1


def mixed(a, i):
    return (i >= len(a) or a[i] > 0) and (a[0] if i > 1 else 1)


def tuple_or_pair(a):
    for i in range(len(a)):
        if a[i] > 5:
            return (i, a[i])
    return (-1, 0)


def nested_tuples(a):
    if len(a) > 2:
        return (a[0], (1, a[1]))
    return (0.5, (len(a), 2))


@pytest.mark.parametrize("program", [both, either, kept_then_returned, several_types, mixed, tuple_or_pair,
                                     nested_tuples],
                         ids=lambda p: p.__name__)
@pytest.mark.parametrize("dtype", ["float64", "float32", "int32"])
def test_returned_values_have_the_type_python_gives(program, dtype):
    jitted = cuvil.jit(program)
    a = np.array([-1, 7, 3], dtype=dtype)
    for args in [(a, 0), (a, 1), (a, 5), (a[:2], 1), (a[:1], 0)] if program.__code__.co_argcount == 2 \
            else [(a,), (a,), (a[:2],), (-a,)]:
        expected, got = program(*args), jitted(*args)
        assert repr(got) == repr(shown(expected)), args


def shown(value):
    """`value` as Cuvil documents its results: int64, float64 and complex128 NumPy scalars come back as Python's
    int, float and complex (as Numba returns them; README), everything else as it is."""
    if isinstance(value, tuple):
        return tuple(shown(v) for v in value)
    if isinstance(value, np.int64 | np.float64 | np.complex128):
        return value.item()
    return value
