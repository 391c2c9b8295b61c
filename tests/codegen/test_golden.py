"""Generated modules match their reviewed snapshots byte for byte (regenerate: `nox -s update-golden`)."""

from __future__ import annotations

import numpy as np
import pytest

import cuvil
from cuvil.compiler import generate
from cuvil.options import Options
from tests.golden.programs import GOLDEN
from tests.golden.update import HERE, kernel_source


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_generated_module_matches_snapshot(name):
    assert kernel_source(name) == (HERE / f"{name}.golden").read_text()


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_every_statement_of_a_function_carries_its_origin(name):
    lines = kernel_source(name).splitlines()
    body = [ln for ln in lines if ln.startswith("    ") and ln.strip() not in ("else:",)]
    assert body and all("  # L" in ln for ln in body)


@pytest.mark.parametrize("name", ["norm_with_helpers", "shifted_sum"])
def test_generation_is_deterministic(name):
    """The compiler itself runs twice (a second `source()` would be served from the in-process cache and
    generate nothing): the same function gives byte-identical modules, equal to the snapshot another process
    wrote, so nothing of one run (a counter, an address, a set's order) leaks into the next."""
    fn, options = GOLDEN[name]
    first, second = generate(fn, Options(**options)), generate(fn, Options(**options))
    assert first.source == second.source == (HERE / f"{name}.golden").read_text()
    assert (first.line_map, first.normalized, first.plan) == (second.line_map, second.normalized, second.plan)


def test_snapshots_compile_and_run():
    x, y = np.arange(5.0), np.ones(5)
    saxpy, _ = GOLDEN["saxpy_parallel"]
    assert np.array_equal(cuvil.jit(saxpy, parallel=True)(2.0, x, y, np.empty(5)), saxpy(2.0, x, y, np.empty(5)))
