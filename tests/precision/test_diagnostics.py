"""PrecisionWarning at the user's line for each silent loss of precision (issue 12), and none where the user chose
the precision (a policy or an explicit cast)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import cuvil
from tests.helpers import define

ENV = {"np": np, "cuvil": cuvil}


def caught(fn, *args) -> list[warnings.WarningMessage]:
    with warnings.catch_warnings(record=True) as found:
        warnings.simplefilter("always")
        fn(*args)
    return [w for w in found if issubclass(w.category, cuvil.PrecisionWarning)]


def line_of(fn, text: str) -> int:
    lines = __import__("linecache").getlines(fn.__code__.co_filename)
    return next(k for k, line in enumerate(lines, 1) if text in line)


NARROW = """
def store(x, out):
    for i in range(len(x)):
        out[i] = x[i] * 2.0
    return out
"""


def test_implicit_narrowing_store_warns_at_the_line():
    py = define(NARROW, env=ENV)
    found = caught(cuvil.jit(py), np.ones(4, np.float32), np.empty(4, np.float16))
    assert [(w.filename, w.lineno) for w in found] == [(py.__code__.co_filename, line_of(py, "out[i] ="))]
    assert "float32 value stored into a float16 array" in str(found[0].message)


@pytest.mark.parametrize("how", ["policy", "cast"])
def test_chosen_narrowing_does_not_warn(how):
    source = NARROW if how == "policy" else NARROW.replace("x[i] * 2.0", "cuvil.fp16(x[i] * 2.0)")
    fn = cuvil.jit(define(source, env=ENV), precision="fp16" if how == "policy" else None)
    assert caught(fn, np.ones(4, np.float32), np.empty(4, np.float16)) == []


def test_bf16_mixed_with_a_float64_literal_warns_at_the_line():
    py = define("""
        def scale(x):
            return x * 0.1
        """, env=ENV)
    x = torch.ones(4, dtype=torch.bfloat16)
    found = caught(cuvil.jit(py), x)
    assert [(w.lineno, "float64 literal 0.1") for w in found] == [(line_of(py, "x * 0.1"), "float64 literal 0.1")]
    assert "float64 literal 0.1" in str(found[0].message)
    assert caught(cuvil.jit(define("def exact(x):\n    return x * 0.5\n", env=ENV)), x) == []  # 0.5 is a bf16


def test_bf16_mixed_with_a_float64_array_warns():
    py = define("""
        def mix(x, w):
            out = np.empty(len(x), np.float64)
            for i in range(len(x)):
                out[i] = x[i] * w[i]
            return out
        """, env=ENV)
    found = caught(cuvil.jit(py), torch.ones(4, dtype=torch.bfloat16), np.ones(4))
    assert [w.lineno for w in found] == [line_of(py, "x[i] * w[i]")]
    assert "mixed with a float64 value" in str(found[0].message)


def test_half_accumulator_in_a_loop_warns_and_fp32_annotation_does_not():
    py = define("""
        def total(x):
            s = x[0] * 0
            for i in range(len(x)):
                s += x[i]
            return s
        """, env=ENV)
    found = caught(cuvil.jit(py), np.ones(8, np.float16))
    assert [w.lineno for w in found] == [line_of(py, "s += x[i]")]
    assert "float16 accumulator updated in a loop" in str(found[0].message)
    annotated = define("""
        def total(x):
            s: cuvil.fp32 = 0.0
            for i in range(len(x)):
                s += x[i]
            return s
        """, env=ENV)
    assert caught(cuvil.jit(annotated), np.ones(8, np.float16)) == []
