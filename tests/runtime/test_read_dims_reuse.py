"""The static-dims decision (codegen/specialize.read_dims) generates the module a second time with the static
dims dynamic, from the first generation's shape-independent stages (compiler.generate(again=...)): that second
generation must be exactly what a fresh one gives, or the decision is wrong, and a dim the code reads would go
unguarded (a wrong answer at the next size). And a CPU cold start must not import the CUDA printer."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import numpy as np
import pytest

import cuvil
from cuvil.analysis.types import of_value
from cuvil.compiler import Specialization, generate
from cuvil.options import Options
from tests.golden import programs
from tests.helpers import define
from tests.runtime.test_read_dims import own_cache  # noqa: F401 (fixture)

# Reads its static dims only through the lowering (a broadcast of x against y's rows), not through a
# `x.shape[k]` the substitution replaces; a callee, a default and a local named like a builtin (renamed before
# normalizing) take the other paths of the shape-independent stages.
BROADCAST = """
    import numpy as np

    def shifted(x, y, scale=2.0):
        max = scale
        return (x + y) * max + _first(y)

    def _first(v):
        return v[0]
    """

CASES = [
    (programs.saxpy, (2.0, np.ones(5), np.ones(5), np.zeros(5))),
    (programs.norm, (np.arange(4.0),)),
    (programs.shifted_sum, (np.arange(6.0),)),
    (programs.first_above, (np.arange(7.0), 3.0)),
    (define(BROADCAST, "shifted"), (np.ones((3, 4)), np.ones(4))),
]


@pytest.mark.parametrize("fn, args", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_a_generation_again_is_a_fresh_generation(fn, args):
    options = Options()
    shapes = tuple(np.shape(a) if isinstance(a, np.ndarray) else None for a in args)
    static = Specialization(shapes, tuple(of_value(a) for a in args))
    dynamic = dataclasses.replace(static, shapes=tuple(None if s is None else (None,) * len(s) for s in shapes))
    first = generate(fn, options, static)
    for spec in (dynamic, static):
        again, fresh = generate(fn, options, spec, again=first), generate(fn, options, spec)
        assert (again.source, again.plan, again.line_map, again.loops) == \
            (fresh.source, fresh.plan, fresh.line_map, fresh.loops)
        assert again.normalized == again.cfg == ""  # for comparing only
    assert generate(fn, options, static).source == first.source


def test_dims_read_only_by_the_lowering_stay_guarded_first_call_hit_and_miss(own_cache):  # noqa: F811
    fn = cuvil.jit(define(BROADCAST, "shifted"))
    for rows, cols, compiles in ((3, 4, 1), (3, 4, 1), (3, 5, 2), (2, 5, 3)):
        x, y = np.arange(rows * cols, dtype=np.float64).reshape(rows, cols), np.arange(cols, dtype=np.float64)
        got, expected = fn(x, y), fn.py_func(x, y)
        assert got.dtype == expected.dtype and got.shape == expected.shape and np.array_equal(got, expected)
        assert len(fn.compile_events) == compiles
    assert [e.cache for e in fn.compile_events] == ["miss", "miss", "miss"]
    assert fn.compile_events[1].reason.startswith("x.shape[1]: 5 != 4 (guard of variant #1)")
    assert fn.compile_events[2].reason.startswith("x.shape[0]: 2 != 3 (guard of variant #2)")
    with pytest.raises(ValueError, match="could not be broadcast"):
        fn(np.ones((2, 5)), np.ones(4))


_IMPORTS = """
import sys, numpy as np
sys.path.insert(0, {root!r})
import cuvil
from tests.helpers import define
f = cuvil.jit(define("def f(x):\\n    return x * 2.0\\n"))
assert f(np.ones(3)).tolist() == [2.0, 2.0, 2.0]
print(sorted(m for m in ("cuvil.codegen.cuda_module", "cuvil.codegen.launch") if m in sys.modules))
"""


def test_a_cpu_cold_start_imports_no_cuda_printer(tmp_path):
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[2])
    code = _IMPORTS.format(root=root)
    env = {"CUVIL_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
