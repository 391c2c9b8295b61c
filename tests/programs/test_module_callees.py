"""`mod.helper(x)` — a plain function, or a `cuvil.jit` one, reached as an attribute of a module — is called as a
helper, as after `from mod import helper` (Numba knew no attribute `helper` of a module: a CuvilTypeError), and
rebinding the attribute between calls is seen, as in Python."""

from __future__ import annotations

import numpy as np

import cuvil
from cuvil.testing import assert_matches
from tests.programs import module_helpers


def both(x):
    return module_helpers.scaled(x) + module_helpers.shifted(x)


def test_a_module_s_functions_called_through_the_module():
    jitted = cuvil.jit(both)
    for x in (3, 3, 2.5, np.arange(4.0)):  # first call, guard hit, guard misses
        assert_matches(both, {"cuvil": jitted}, x)


def test_rebinding_the_module_s_function_is_seen(monkeypatch):
    jitted = cuvil.jit(both)
    assert jitted(3) == both(3) == 109

    def tripled(x):
        return x * 3

    monkeypatch.setattr(module_helpers, "scaled", tripled)
    assert jitted(3) == both(3) == 112
