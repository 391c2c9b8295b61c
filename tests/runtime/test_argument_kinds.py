"""Every kind of argument, called four ways — first call, guard hit, guard miss (after a variant for its nearest
neighbour, often one with the same Numba fingerprint), and by keyword: each either gives Python's answer,
exactly (cuvil.testing's rule), or a CuvilTypeError naming the argument. Never a Numba error."""

from __future__ import annotations

import enum
import math
import re
import tempfile

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.testing import _compare
from tests.helpers import define

IDENT = define("""
    def ident(x):
        return x
    """)


class MyInt(int):
    pass


class MyFloat(float):
    pass


class MyComplex(complex):
    pass


class MyFloat64(np.float64):
    pass


class Color(enum.IntEnum):
    RED = 1


def _memmap() -> np.memmap:
    # An unnamed file (gone when closed): a named one per call would be left in the temp directory.
    with tempfile.TemporaryFile() as file:  # the mapping outlives the file object
        mapped = np.memmap(file, dtype=np.float64, mode="w+", shape=(3,))
    mapped[:] = [1.0, 2.0, 3.0]
    return mapped


def _readonly() -> np.ndarray:
    a = np.arange(3.0)
    a.flags.writeable = False
    return a


def _unaligned() -> np.ndarray:
    return np.zeros(3 * 8 + 1, np.uint8)[1:].view(np.float64)


def _generator():
    yield 1.0


def _array(dtype: str):
    return lambda: np.array([1, 0, 3]).astype(dtype)


F8 = lambda: np.arange(3.0)  # noqa: E731
T32 = lambda: torch.arange(3, dtype=torch.float32)  # noqa: E731

# (id, value, neighbour that makes the first variant of the miss call, expected result or None for the value)
WORKS = [
    *[(f"array-{d}", _array(d), F8 if d != "f8" else _array("f4"), None)
      for d in ("?", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f4", "f8", "c8", "c16")],
    ("array-non-contiguous", lambda: np.arange(6.0)[::2], F8, None),
    ("array-reversed", lambda: np.arange(3.0)[::-1], F8, None),
    ("array-0d", lambda: np.array(2.5), F8, None),
    ("array-fortran-2d", lambda: np.asfortranarray(np.arange(6.0).reshape(2, 3)), lambda: np.ones((2, 3)), None),
    ("array-readonly", _readonly, F8, None),
    ("array-unaligned", _unaligned, F8, None),
    ("array-memmap", _memmap, F8, lambda v: np.asarray(v)),
    ("tensor-f32", T32, lambda: torch.ones(3, dtype=torch.float64), None),
    ("tensor-f64", lambda: torch.arange(3, dtype=torch.float64), T32, None),
    ("tensor-i64", lambda: torch.arange(3), T32, None),
    ("tensor-i32", lambda: torch.arange(3, dtype=torch.int32), T32, None),
    ("tensor-u8", lambda: torch.arange(3, dtype=torch.uint8), T32, None),
    ("tensor-bool", lambda: torch.tensor([True, False]), T32, None),
    ("tensor-c64", lambda: torch.ones(3, dtype=torch.complex64), T32, None),
    ("tensor-non-contiguous", lambda: torch.arange(6.0)[::2], T32, None),
    ("tensor-transposed", lambda: torch.arange(6.0).reshape(2, 3).T, lambda: torch.ones(3, 2), None),
    ("tensor-0d", lambda: torch.tensor(2.5), T32, None),
    ("tensor-requires-grad", lambda: torch.ones(3, requires_grad=True), T32, None),
    ("int", lambda: 7, lambda: 1.5, None),
    ("int-min", lambda: -(2**63), lambda: 1.5, None),
    ("int-max", lambda: 2**63 - 1, lambda: 1.5, None),
    ("float", lambda: 2.5, lambda: 1, None),
    ("float-nan", lambda: math.nan, lambda: 1, None),
    ("bool", lambda: True, lambda: 1, None),
    ("complex", lambda: 1 - 2j, lambda: 1, None),
    ("none", lambda: None, lambda: 1, None),
    *[(f"numpy-scalar-{t.__name__}", lambda t=t: t(3), lambda t=t: 1.5 if t is not np.float64 else 1, None)
      for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64, np.float32,
                np.float64, np.complex64, np.complex128, np.bool_)],
    ("tuple", lambda: (1, 2.0), lambda: (1.0, 2.0), None),
    ("tuple-empty", lambda: (), lambda: 1, None),
    ("tuple-nested", lambda: (1, (np.arange(3.0), None)), lambda: (1, (np.arange(3.0, dtype=np.float32), None)), None),
]

ONE = lambda: 1  # noqa: E731
REFUSED = [
    ("array-big-endian", lambda: np.arange(3.0).astype(">f8"), F8, "non-native byte order (>f8)"),
    ("array-longdouble", lambda: np.ones(3, np.longdouble), F8, "has dtype float128"),
    ("array-datetime", lambda: np.ones(3, "M8[s]"), _array("i8"), "has dtype datetime64[s]"),
    ("array-object", lambda: np.array([1, None], dtype=object), F8, "has dtype object"),
    ("array-str", lambda: np.array(["a"]), F8, "has dtype <U1"),
    ("array-record", lambda: np.zeros(3, [("a", "f8")]), F8, "has dtype [('a', '<f8')]"),
    ("array-masked", lambda: np.ma.masked_array([1.0, 2.0, 3.0], [0, 1, 0]), F8, "is a MaskedArray, a subclass"),
    ("array-matrix", lambda: np.matrix([[1.0, 2.0]]), lambda: np.ones((1, 2)), "is a matrix, a subclass"),
    ("tensor-conjugate", lambda: torch.ones(3, dtype=torch.complex64).conj(),
     lambda: torch.ones(3, dtype=torch.complex64), "NumPy cannot view without a copy"),
    ("tensor-meta", lambda: torch.ones(3, device="meta"), T32, "torch tensor on meta"),
    ("int-subclass", lambda: MyInt(3), ONE, "is a MyInt, a subclass of int"),
    ("int-enum", lambda: Color.RED, ONE, "is a Color, a subclass of int"),
    ("float-subclass", lambda: MyFloat(1.5), lambda: 1.5, "is a MyFloat, a subclass of float"),
    ("float-subclass-in-tuple", lambda: (MyFloat(1.5),), lambda: (1.5,), "is a MyFloat, a subclass of float"),
    ("complex-subclass", lambda: MyComplex(1j), lambda: 1j, "is a MyComplex, a subclass of complex"),
    ("numpy-scalar-float16", lambda: np.float16(1), lambda: np.float32(1), "float16; pass np.float32(x)"),
    ("numpy-scalar-subclass", lambda: MyFloat64(1.5), lambda: np.float64(1.5), "a subclass of numpy.float64"),
    ("numpy-scalar-longdouble", lambda: np.longdouble(1), lambda: np.float64(1), "float128"),
    ("numpy-scalar-datetime", lambda: np.datetime64(1, "s"), lambda: np.int64(1), "datetime64[s]"),
    ("list", lambda: [1.0, 2.0], ONE, "is a list; pass a NumPy array"),
    ("dict", lambda: {"a": 1}, ONE, "is a dict"),
    ("str", lambda: "abc", ONE, "is a str"),
    ("bytes", lambda: b"abc", ONE, "is a bytes"),
    ("range", lambda: range(3), ONE, "is a range"),
    ("generator", _generator, ONE, "is a generator"),
    ("set", lambda: {1}, ONE, "is a set"),
    ("object", object, ONE, "is an object"),
    ("function", lambda: abs, ONE, "is a builtin_function_or_method"),
    ("tuple-with-str", lambda: (1, "a"), lambda: (1, 2), "argument 'x[1]' is a str"),
    ("tuple-with-big-endian", lambda: (np.arange(3.0).astype(">f8"),), lambda: (np.arange(3.0),),
     "non-native byte order"),
]

MODES = ("first", "hit", "miss", "keyword")
# Kinds whose neighbour is the same variant: Numba's code for an aligned array reads an unaligned one (x86
# loads need no alignment); a memmap and a tensor that requires grad are passed on as plain arrays.
SHARED = {"array-unaligned", "array-memmap", "tensor-requires-grad"}


def _calls(mode: str, fn: cuvil.jit, make, neighbour):
    """The last result of calling `fn` as `mode` says, or the exception it raised."""
    if mode == "hit":
        fn(make())
    if mode == "miss":
        fn(neighbour())
    return fn(x=make()) if mode == "keyword" else fn(make())


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("make", "neighbour", "expected", "shared"),
                         [pytest.param(*w[1:], w[0] in SHARED, id=w[0]) for w in WORKS])
def test_argument_kind_runs_as_python(make, neighbour, expected, shared, mode):
    fn = cuvil.jit(IDENT)
    value = make()
    result = _calls(mode, fn, make, neighbour)
    want = IDENT(value) if expected is None else expected(value)
    assert _compare(want, result, "result", None, None) == []
    assert len(cuvil.explain(fn).compiles) == (2 if mode == "miss" and not shared else 1)


@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("make", "neighbour", "words"), [pytest.param(*r[1:], id=r[0]) for r in REFUSED])
def test_argument_kind_is_refused_naming_the_argument(make, neighbour, words, mode):
    fn = cuvil.jit(IDENT)
    with pytest.raises(cuvil.CuvilTypeError) as info:
        _calls(mode, fn, make, neighbour)
    assert words in str(info.value)
    assert info.value.argument.startswith("x")
    assert info.value.__cause__ is None and (info.value.__context__ is None or info.value.__suppress_context__)


KINDS = [(w[1], w[3], None) for w in WORKS] + [(r[1], None, r[3]) for r in REFUSED]


@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(range(len(KINDS))), min_size=1, max_size=6), st.booleans())
def test_any_sequence_of_argument_kinds_runs_or_is_named(picks, by_keyword):
    """Whatever variants exist already, each call gives Python's answer or names the argument."""
    fn = cuvil.jit(IDENT)
    for k in picks:
        make, expected, words = KINDS[k]
        value = make()
        if words is None:
            result = fn(x=value) if by_keyword else fn(value)
            want = IDENT(value) if expected is None else expected(value)
            assert _compare(want, result, "result", None, None) == []
        else:
            with pytest.raises(cuvil.CuvilTypeError, match=re.escape(words)):
                fn(x=value) if by_keyword else fn(value)


def test_an_overflow_the_program_raises_still_passes_through():
    fn = cuvil.jit(define("""
        def fact(n):
            return math.factorial(n)
        """, env={"math": math}))
    assert fn(5) == 120
    with pytest.raises(OverflowError, match="factorial"):
        fn(25)
