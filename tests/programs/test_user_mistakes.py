"""Mistakes a data scientist makes, told as Python tells them (issue 41): the exception a plain call raises (its
class, its words, its line), found when compiling; never a Numba or Cuvil internal in the words."""

from __future__ import annotations

import traceback

import numpy as np
import pytest

import cuvil
from tests.helpers import define

# The words to find: Python's own (None), or NumPy's words less what only the run knows (the value).
WORDS = {"float dim": "expected a sequence of integers or a single integer, got a float"}
MISTAKES = {
    "undefined name": "def f(a):\n    return a + undefined_name\n",
    "str plus number": "def f(a):\n    total = float(a.sum())\n    return 'total=' + total\n",
    "number plus str": "def f(a):\n    n = len(a)\n    return n + ' items'\n",
    "float dim": "def f(a):\n    return np.zeros(len(a) / 2)\n",
    "misspelt method": "def f(a):\n    return a.summ()\n",
    "misspelt function": "def f(a):\n    return np.sume(a)\n",
    "misspelt random": "def f(a):\n    return a + np.random.nromal()\n",
    "axis out of range": "def f(a):\n    b = a * 2\n    return b.sum(axis=1)\n",
    "negative axis out of range": "def f(a):\n    return np.mean(a, axis=-2) + 1\n",
}
INTERNALS = ("Numba", "numba", "Literal[", "nonnegative_dims", "cuvil.runtime", "Module(", "unicode_type")


def _raised(fn, *args):
    try:
        fn(*args)
    except Exception as exc:  # noqa: BLE001 (the test compares whatever it is)
        return exc
    raise AssertionError("no exception")


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_a_mistake_is_pythons_exception_at_its_line(name):
    fn = define(MISTAKES[name], env={"np": np})
    a = np.arange(4.0)
    expected = _raised(fn, a)
    line = [f.lineno for f in traceback.extract_tb(expected.__traceback__) if f.filename == fn.__code__.co_filename]
    got = _raised(cuvil.jit(fn), a)
    assert isinstance(got, type(expected)), (type(got), type(expected))
    assert WORDS.get(name, str(expected)) in str(got)
    assert got.lineno == line[-1]
    assert not any(word in str(got) for word in INTERNALS), str(got)


def test_a_stub_body_compiles_to_none():
    fn = define("def norms(x):\n    ...\n")
    assert cuvil.jit(fn)(np.ones(3)) is None
