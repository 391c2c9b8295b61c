"""Mistakes a data scientist makes, told as Python tells them (issue 41): the exception a plain call raises (its
class, its words, its line), found when compiling; never a Numba or Cuvil internal in the words."""

from __future__ import annotations

import math
import traceback
import warnings

import numpy as np
import pytest

import cuvil
from tests.helpers import define

# The words to find: Python's own (None), or NumPy's words less what only the run knows (the value).
WORDS = {"float dim": "expected a sequence of integers or a single integer, got a float",
         "string method": "object has no attribute 'upper'"}  # a float64 is a Python float to compiled code
MISTAKES = {  # 30 and more, as a data scientist writes them
    "undefined name": "def f(a):\n    return a + undefined_name\n",
    "str plus number": "def f(a):\n    total = float(a.sum())\n    return 'total=' + total\n",
    "number plus str": "def f(a):\n    n = len(a)\n    return n + ' items'\n",
    "float dim": "def f(a):\n    return np.zeros(len(a) / 2)\n",
    "misspelt method": "def f(a):\n    return a.summ()\n",
    "misspelt function": "def f(a):\n    return np.sume(a)\n",
    "misspelt random": "def f(a):\n    return a + np.random.nromal()\n",
    "axis out of range": "def f(a):\n    b = a * 2\n    return b.sum(axis=1)\n",
    "negative axis out of range": "def f(a):\n    return np.mean(a, axis=-2) + 1\n",
    "index past end": "def f(a):\n    return a[len(a)]\n",
    "zero division": "def f(a):\n    x = 1.0\n    return x / (len(a) - 4)\n",
    "int zero division": "def f(a):\n    k = len(a) - 4\n    return 10 // k\n",
    "broadcast": "def f(a):\n    return a + a[:-1]\n",
    "matmul": "def f(a):\n    return a @ np.ones(3)\n",
    "reshape size": "def f(a):\n    return a.reshape(3, 3)\n",
    "unbound": "def f(a):\n    if a[0] > 10:\n        m = 1\n    return m\n",
    "len float": "def f(a):\n    x = 3.0\n    return len(x)\n",
    "call array": "def f(a):\n    return a(0)\n",
    "float index": "def f(a):\n    return a[len(a) / 2]\n",
    "int of array": "def f(a):\n    return int(a)\n",
    "truth of array": "def f(a):\n    if a > 0:\n        return 1\n    return 0\n",
    "float range": "def f(a):\n    s = 0.0\n    for i in range(len(a) / 2):\n        s += a[i]\n    return s\n",
    "math domain": "def f(a):\n    return math.sqrt(a[0] - 1.0)\n",
    "shape past rank": "def f(a):\n    return a.shape[2]\n",
    "tuple item assignment": "def f(a):\n    s = a.shape\n    s[0] = 1\n    return s\n",
    "zeros two ints": "def f(a):\n    return np.zeros(3, 4)\n",
    "append to array": "def f(a):\n    a.append(1.0)\n    return a\n",
    "max of array and number": "def f(a):\n    return max(a, 0)\n",
    "dot shapes": "def f(a):\n    return np.dot(a, np.ones(3))\n",
    "index a scalar": "def f(a):\n    x = a[0]\n    return x[0]\n",
    "range of array": "def f(a):\n    s = 0.0\n    for i in range(a):\n        s += i\n    return s\n",
    "round array": "def f(a):\n    return round(a)\n",
    "attribute of int": "def f(a):\n    n = len(a)\n    return n.sum()\n",
    "reshape -1": "def f(a):\n    return a.reshape(-1, 3)\n",
    "concatenate no tuple": "def f(a):\n    return np.concatenate(a, a)\n",
    "sort axis": "def f(a):\n    return np.sort(a, axis=1)\n",
    "2d index of 1d": "def f(a):\n    return a[0, 0]\n",
    "str store": "def f(a):\n    a[0] = 'x'\n    return a\n",
    "wrong arg count": "def f(a, b):\n    return a + b\n",
    "negative sqrt int": "def f(a):\n    return math.sqrt(-len(a))\n",
    "log zero": "def f(a):\n    return math.log(a[0])\n",
    "empty max": "def f(a):\n    return a[:0].max()\n",
    "int of nan": "def f(a):\n    return int(a[0] / 0.0)\n",
    "tuple index": "def f(a):\n    t = (1, 2)\n    return t[len(a)]\n",
    "neg count": "def f(a):\n    return np.zeros(len(a) - 10)\n",
    "unpack": "def f(a):\n    x, y = a.shape\n    return x + y\n",
    "string method": "def f(a):\n    return a.sum().upper()\n",
    "index an int": "def f(a):\n    n = 3\n    return n[0]\n",
    "index a 0-d array": "def f(a):\n    b = a[:1].reshape(())\n    return b[0]\n",
    "int array from a str": "def f(a):\n    b = np.zeros(2, np.int64)\n    b[0] = '3.5'\n    return b\n",
}
# Code that runs in Python but not compiled: refused in words that say so, never a Python error it does not have
REFUSED = {
    "astype of a NumPy scalar": ("def f(a):\n    return a.sum().astype(np.int32)\n",
                                 "numbers have no .astype in compiled code"),
    "a str NumPy reads": ("def f(a):\n    a[0] = '3'\n    return a\n",
                          "a str stored into an array is not supported in compiled code"),
    "int() of a 0-d array": ("def f(a):\n    return int(a[:1].reshape(()))\n", "int("),
}
INTERNALS = ("Numba", "numba", "Literal[", "nonnegative_dims", "cuvil.runtime", "Module(", "unicode_type")


def _raised(fn, *args):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's warning for 1.0 / 0.0 before int(nan)
            fn(*args)
    except Exception as exc:  # noqa: BLE001 (the test compares whatever it is)
        return exc
    raise AssertionError("no exception")


def _line(exc, filename):
    """The line of `filename` the traceback ends in (a run-time error), or the one a compile-time error names."""
    frames = [f.lineno for f in traceback.extract_tb(exc.__traceback__) if f.filename == filename]
    return getattr(exc, "lineno", None) or (frames[-1] if frames else None)


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_a_mistake_is_pythons_exception_at_its_line(name):
    fn = define(MISTAKES[name], env={"np": np, "math": math})
    a = np.arange(4.0)
    expected = _raised(fn, a)
    got = _raised(cuvil.jit(fn), a)
    assert isinstance(got, type(expected)), (type(got), type(expected), str(got))
    assert WORDS.get(name, str(expected)) in str(got)
    assert _line(got, fn.__code__.co_filename) == _line(expected, fn.__code__.co_filename)
    assert not any(word in str(got) for word in INTERNALS), str(got)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_what_python_runs_is_refused_in_words_that_say_so(name):
    source, words = REFUSED[name]
    fn = define(source, env={"np": np})
    a = np.arange(4.0)
    fn(a.copy())  # runs in Python
    got = _raised(cuvil.jit(fn), a.copy())
    assert type(got) is cuvil.CuvilTypeError and words in str(got), (type(got), str(got))
    assert got.lineno == fn.__code__.co_firstlineno + 1  # each one's second line


def test_a_stub_body_compiles_to_none():
    fn = define("def norms(x):\n    ...\n")
    assert cuvil.jit(fn)(np.ones(3)) is None
