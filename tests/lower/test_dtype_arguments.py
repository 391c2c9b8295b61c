"""A dtype argument, however it is spelled — a NumPy attribute, a name imported from NumPy, a string, a builtin
type, a local name bound to one, by keyword or by position — gives the array NumPy gives (analysis/numpy_rules.py
`_dtype_name`: mutation testing found that ignoring every dtype argument, or crashing on a local name, failed
no test in the analysis's list). Each function is called for a first call, a guard hit and a guard miss."""

from __future__ import annotations

import numpy as np
import pytest
from numpy import float32, int16

import cuvil
from cuvil.testing import assert_matches


def by_attribute(n):
    return np.zeros(n, dtype=np.float32) + np.ones(n, np.int8)


def by_imported_name(n):
    return np.ones(n, dtype=float32), np.full(n, 3, int16)


def by_string(n):
    return np.zeros(n, "float32"), np.ones(n, dtype="uint8")


def by_builtin(n):
    return np.ones(n, float), np.zeros(n, dtype=float)


def by_builtin_int_or_bool(n):
    return np.zeros(n, dtype=int), np.zeros(n, bool)


def by_local_name(n):
    dt = np.float32
    kind = np.int16
    return np.zeros(n, dt), np.ones(n, dtype=kind)


def by_astype(n):
    return np.arange(n).astype(np.float32), np.arange(n).astype("int8") * 2


@pytest.mark.parametrize("fn", [by_attribute, by_imported_name, by_string, by_builtin, by_local_name, by_astype,
                                by_builtin_int_or_bool], ids=lambda f: f.__name__)
def test_a_dtype_argument_gives_numpys_dtype(fn):
    jitted = cuvil.jit(fn)
    for n in (3, 3, 5):
        assert_matches(fn, {"cuvil": jitted}, n)
