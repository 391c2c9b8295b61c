"""A construct target="cuda" cannot compile is refused at the user's line in the user's words: the message names
what the user wrote (`x[1:] += x[:-1]`, a float stored into an integer array), never one of Cuvil's helpers that
the lowering turned it into (`inplace_value`, `python_float_as`) or a generated name (`_t0`) (issue 36, class 6).

The helpers' names are read off Cuvil's own sources (every function defined in runtime/, lower/ and codegen/
whose name is not also NumPy's, math's or a builtin), so a helper added later is covered too."""

from __future__ import annotations

import ast
import builtins
import functools
import math
import pathlib
import re
import warnings

import numpy as np
import pytest

import cuvil
from tests.helpers import define

_SRC = pathlib.Path(cuvil.__file__).parent


@functools.cache
def internal_names() -> frozenset[str]:
    public = set(dir(np)) | set(dir(math)) | set(dir(builtins))
    names = set()
    for folder in ("runtime", "lower", "codegen"):
        for path in (_SRC / folder).glob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.FunctionDef | ast.ClassDef) and "_" in node.name.strip("_") \
                        and node.name not in public:
                    names.add(node.name)
    return frozenset(names)


REFUSED = {
    "overlapping update": ((np.arange(4.0),), "def f(x):\n    x[1:] += x[:-1]\n"),
    "overlapping update in a loop": ((np.arange(5.0),),
                                     "def f(x):\n    for i in range(2):\n        x[i:i + 2] += x[i + 1:i + 3]\n"),
    "float stored in a callee": ((np.zeros(3, np.int8), np.array([1.5, 2.0, 3.0])),
                                 "def put(o, i, v):\n    o[i] = v\n\n"
                                 "def f(o, x):\n    for i in range(3):\n        put(o, i, x[i])\n"),
    "int64 stored in a callee": ((np.zeros(3, np.int8), np.array([1, 2, 3])),
                                 "def put(o, i, v):\n    o[i] = v\n\n"
                                 "def f(o, x):\n    for i in range(3):\n        put(o, i, x[i])\n"),
    "Python int beside int8 in a callee": ((np.zeros(3, np.int8), 5),
                                           "def add(o, i, n):\n    return o[i] + n\n\n"
                                           "def f(o, n):\n    s = 0\n    for i in range(3):\n"
                                           "        s += add(o, i, n)\n    return s\n"),
    "reshape in a loop": ((np.arange(6.0).reshape(2, 3),),
                          "def f(x):\n    for i in range(2):\n        r = x[i].reshape(3, 1)\n"
                          "        x[i, 0] = r[0, 0]\n"),
    "matrix product in a loop": ((np.arange(6.0).reshape(2, 3),),
                                 "def f(x):\n    s = 0.0\n    for i in range(2):\n        s += x[i] @ x[i]\n"
                                 "    return s\n"),
    "allocation in a callee": ((np.arange(3.0),),
                               "def mk(n):\n    return np.empty(n)\n\n"
                               "def f(x):\n    for i in range(2):\n        y = mk(3)\n        x[i] = y.size\n"),
    "clip with a Python int in a loop": ((np.arange(3, dtype=np.int8), np.zeros(3, np.int8), 300),
                                         "def f(x, o, v):\n    for i in range(3):\n"
                                         "        o[i] = np.clip(x[i], 0, v)\n"),
    "a ufunc's out=": ((np.arange(3.0), np.zeros(3)), "def f(x, o):\n    np.add(x, x, out=o)\n"),
    "a list in a kernel": ((np.arange(3.0),), "def f(x):\n    for i in range(3):\n        v = [x[i], 2.0]\n"
                                             "        x[i] = v[0] + v[1]\n"),
    "a set in a kernel": ((np.arange(3.0),), "def f(x):\n    for i in range(3):\n        s = {x[i], 2.0}\n"
                                           "        x[i] = len(s)\n"),
    "a dict comprehension in a kernel": ((np.arange(3.0),), "def f(x):\n    for i in range(3):\n"
                                                          "        d = {k: x[k] for k in range(i)}\n"
                                                          "        x[i] = len(d)\n"),
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_refusal_names_the_users_construct(name):
    args, source = REFUSED[name]
    fn = define(source, env={"np": np})
    with warnings.catch_warnings(), pytest.raises(cuvil.CuvilError) as info:
        warnings.simplefilter("ignore", cuvil.PerformanceWarning)
        cuvil.jit(fn, target="cuda")(*args)
    error = info.value
    assert isinstance(error, cuvil.CuvilSyntaxError), f"{type(error).__name__}: {error}"
    assert error.filename == fn.__code__.co_filename and error.lineno is not None
    words = f"{error.msg} {getattr(error, 'hint', '')}"
    named = set(re.findall(r"\w+", words)) & internal_names()
    generated = re.findall(r"\b_[a-z]+\d+\b", words)
    assert not named and not generated, f"the refusal names {sorted(named) + generated}: {words}"


def test_internal_names_are_found():
    assert {"inplace_value", "python_float_as", "numpy_int_as", "python_int_as"} <= internal_names()
