"""cuvil.profile with keyword arguments and defaults: the variant the call runs is found from the bound
arguments (the profile once read a dispatcher attribute that no longer exists, and failed on any keyword)."""

from __future__ import annotations

import numpy as np

import cuvil
from cuvil.inspect import profile as profile_module
from tests.helpers import define
from tests.inspect.test_profile import FIXED

SCALE = """
def scale(x, out, k=2.0):
    for i in range(x.shape[0]):
        out[i] = k * x[i]
    return out
"""


def test_profile_binds_keywords_and_defaults(monkeypatch):
    monkeypatch.setattr(profile_module, "peaks", lambda: FIXED)
    fn = cuvil.jit(define(SCALE))
    x, out = np.arange(10.0), np.empty(10)
    found = cuvil.profile(fn, x, out=out, repeat=2)
    assert np.array_equal(out, 2.0 * x) and out.dtype == np.float64
    assert (found.variant, found.flops, found.moved) == (1, 10, 160)
    again = cuvil.profile(fn, out=out, x=x, k=3.0, repeat=1)  # guard hit: the same variant
    assert np.array_equal(out, 3.0 * x) and (again.variant, len(fn._variants)) == (1, 1)
    other = cuvil.profile(fn, x.astype(np.float32), out=np.empty(10, np.float32), repeat=1)  # guard miss
    assert (other.variant, other.dtype, other.moved) == (2, "float32", 80)
