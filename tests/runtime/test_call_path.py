"""The fast call path (issue 13 §4): keywords and defaults are bound by a generated `def` (Python's own
binding) and then take the guarded path; a number argument is guarded by its exact class."""

from __future__ import annotations

import numpy as np
import pytest

import cuvil
from tests.helpers import define

SCALED = """
    def scaled_kw(x, scale=1.0, shift=0):
        return x[0] * scale + shift
    """


def test_keywords_and_defaults_first_call_guard_hit_and_guard_miss():
    fn = cuvil.jit(define(SCALED))
    x = np.ones(3)
    assert fn(x, scale=2.0) == fn.py_func(x, scale=2.0) == 2.0  # first call
    assert fn(x, shift=0, scale=3.0) == 3.0 and fn(x) == 1.0  # guard hits
    assert len(cuvil.explain(fn).compiles) == 1
    assert fn(x, scale=2, shift=1.5) == fn.py_func(x, scale=2, shift=1.5) == 3.5  # guard miss: other types
    assert len(cuvil.explain(fn).compiles) == 2


def test_keyword_errors_are_pythons():
    fn = cuvil.jit(define(SCALED))
    for call in (lambda f: f(np.ones(3), scal=2.0), lambda f: f(), lambda f: f(np.ones(3), 1.0, 2, 3),
                 lambda f: f(np.ones(3), 2.0, scale=2.0)):
        with pytest.raises(TypeError) as python:
            call(fn.py_func)
        with pytest.raises(TypeError) as compiled:
            call(fn)
        assert str(compiled.value) == str(python.value)


def test_changed_defaults_are_read_at_the_call():
    fn = cuvil.jit(define(SCALED))
    x = np.ones(3)
    assert fn(x, scale=2.0) == 2.0
    fn.py_func.__defaults__ = (1.0, 10)
    assert fn(x, scale=2.0) == fn.py_func(x, scale=2.0) == 12.0


def test_a_number_of_another_class_is_a_miss_not_a_wrong_variant():
    fn = cuvil.jit(define("""
        def twice(v):
            return v + v
        """))
    assert fn(3) == 6  # a Python int
    assert fn(True) == fn.py_func(True) == 2  # a bool fingerprints apart
    assert fn(np.int64(3)) == 6  # an np.int64 is a variant of its own (NEP 50: not weak)
    assert fn(2.5) == 5.0
    assert [e.signature for e in cuvil.explain(fn).compiles] == ["(int64)", "(bool)", "(int64)", "(float64)"]
