"""runtime/mistakes.py on Numba's own sentences, without compiling: each rule's words and class, and the cases
where the words would claim a Python error for code Python runs (a 0-d array, a NumPy scalar's method, a str
NumPy reads), which keep Numba's gap in its own words. tests/programs/test_user_mistakes.py compiles the corpus."""

from __future__ import annotations

import pytest

import cuvil
from cuvil.runtime.mistakes import kind, words

NO_IMPLEMENTATION = "No implementation of function {} found for signature: {}"
CASES = [  # (Numba's first sentence, Python's words, class)
    ("Unknown attribute 'format' of type Literal[str]({0}-{1}-{0})", "str.format() with these fields or arguments "
     "is not supported in compiled code: write an f-string (f'{a}-{b:.2f}')", cuvil.CuvilTypeError),
    (NO_IMPLEMENTATION.format("mod", "mod(unicode_type, int64)"), "'%' formatting of a string is not supported in "
     "compiled code: write an f-string (f'{n:d} items')", cuvil.CuvilTypeError),
    (NO_IMPLEMENTATION.format("impl_get", "impl_get(DictType[undefined,undefined]<iv=None>, int64, float64)"),
     "compiled code cannot tell the key and value types of an empty dict read before anything is stored in it: "
     "give its key a variable of its own (one type), or store a first value before the loop", cuvil.CuvilTypeError),
    (NO_IMPLEMENTATION.format("len", "len(float64)"), "object of type 'float' has no len()", cuvil.CuvilTypeError),
    (NO_IMPLEMENTATION.format("int", "int(array(float64, 1d, C))"),
     "only 0-dimensional arrays can be converted to Python scalars", cuvil.CuvilTypeError),
    (NO_IMPLEMENTATION.format("getitem", "getitem(array(float64, 2d, C), float64)"),
     "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are "
     "valid indices", cuvil.CuvilIndexError),
    (NO_IMPLEMENTATION.format("getitem", "getitem(Literal[int](4), Literal[int](0))"),
     "'int' object is not subscriptable", cuvil.CuvilTypeError),
    (NO_IMPLEMENTATION.format("getitem", "getitem(float64, Literal[int](0))"), "invalid index to scalar variable.",
     cuvil.CuvilIndexError),
    (NO_IMPLEMENTATION.format("getitem", "getitem(array(float64, 0d, C), UniTuple(int64 x 2))"),
     "too many indices for array: array is 0-dimensional, but 2 were indexed", cuvil.CuvilIndexError),
    (NO_IMPLEMENTATION.format("setitem", "setitem(UniTuple(int64 x 2), Literal[int](0), int64)"),
     "'tuple' object does not support item assignment", cuvil.CuvilTypeError),
    (NO_IMPLEMENTATION.format("setitem", "setitem(array(float64, 1d, C), int64, Literal[str](x))"),
     "could not convert string to float: 'x'", cuvil.CuvilValueError),
    (NO_IMPLEMENTATION.format("setitem", "setitem(array(int8, 1d, C), int64, Literal[str](2.5))"),
     "invalid literal for int() with base 10: '2.5'", cuvil.CuvilValueError),
    (NO_IMPLEMENTATION.format("zeros", "zeros(Literal[int](3), Literal[int](4))"),
     "Cannot interpret '4' as a data type", cuvil.CuvilTypeError),
    (NO_IMPLEMENTATION.format("max", "max(array(float64, 1d, C), Literal[int](0))"),
     "The truth value of an array with more than one element is ambiguous", cuvil.CuvilValueError),
    (NO_IMPLEMENTATION.format("range", "range(array(int64, 1d, C))"),
     "only integer scalar arrays can be converted to a scalar index", cuvil.CuvilTypeError),
    (NO_IMPLEMENTATION.format("concatenate", "concatenate(array(float64, 1d, C), array(float64, 1d, C))"),
     "only integer scalar arrays can be converted to a scalar index", cuvil.CuvilTypeError),
    (NO_IMPLEMENTATION.format("round", "round(array(float64, 1d, C))"),
     "type numpy.ndarray doesn't define __round__ method", cuvil.CuvilTypeError),
    (NO_IMPLEMENTATION.format("add", "add(Literal[str](total=), float64)"),
     'can only concatenate str (not "float") to str', cuvil.CuvilTypeError),
    (NO_IMPLEMENTATION.format("mul", "mul(int64, unicode_type)"), "unsupported operand type(s) for *: 'int' and 'str'",
     cuvil.CuvilTypeError),
    ("Invalid use of array(float64, 1d, C) with parameters (Literal[int](0))", "'numpy.ndarray' object is not callable",
     cuvil.CuvilTypeError),
    ("Unknown attribute 'reel' of type Literal[int](4)", "'int' object has no attribute 'reel'; did you mean 'real'?",
     cuvil.CuvilAttributeError),
    (NO_IMPLEMENTATION.format("getitem", "getitem(array(int8, 0d, C), Tuple(int64, int32, int64))"),
     "too many indices for array: array is 0-dimensional, but 3 were indexed", cuvil.CuvilIndexError),
    ("tuple index out of range", "tuple index out of range", cuvil.CuvilIndexError),
]


@pytest.mark.parametrize(("numba", "python", "cls"), CASES, ids=[c[1][:40] for c in CASES])
def test_numbas_words_become_pythons(numba, python, cls):
    said = words(numba)
    assert said.startswith(python), said
    assert kind(said) is cls


@pytest.mark.parametrize("numba", [
    NO_IMPLEMENTATION.format("int", "int(array(float64, 0d, C))"),  # int() of a 0-d array: Python converts it
    NO_IMPLEMENTATION.format("range", "range(array(int64, 0d, C))"),
    NO_IMPLEMENTATION.format("max", "max(array(float64, 0d, C), Literal[int](0))"),
    NO_IMPLEMENTATION.format("len", "len(array(float64, 1d, C))"),  # not a mistake at all
    "Unknown attribute 'upper' of type unicode_type",
])
def test_what_python_runs_keeps_numbas_words(numba):
    assert words(numba) == numba


@pytest.mark.parametrize(("numba", "said"), [
    ("Unknown attribute 'astype' of type float64", "numbers have no .astype in compiled code"),  # a NumPy scalar's
    ("Unknown attribute 'bit_length' of type Literal[int](3)", "numbers have no .bit_length in compiled code"),
    (NO_IMPLEMENTATION.format("setitem", "setitem(array(float64, 1d, C), int64, Literal[str](3))"),
     "a str stored into an array is not supported in compiled code"),  # NumPy reads '3'
])
def test_what_python_runs_but_numba_lacks_is_said_to_be_unsupported(numba, said):
    assert words(numba).startswith(said)
    assert kind(words(numba)) is cuvil.CuvilTypeError
