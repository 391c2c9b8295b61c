"""cuvil.fingerprint: a hash of a variant's structure, not of its names, lines or process."""

from __future__ import annotations

import keyword
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.inspect.structure import structure
from cuvil.inspect.variants import plans_for, variant_for
from tests.helpers import define

SCALE = """
def scale(x, out):
    for i in range(x.shape[0]):
        out[i] = 2.0 * x[i] + 1.0
    return out
"""

# The same function with other names, other blank lines and a comment: the same structure.
SCALE_RENAMED = """


def other(values, result):
    # a comment the fingerprint must not see
    for k in range(values.shape[0]):

        result[k] = 2.0 * values[k] + 1.0
    return result
"""


def _fp(source, *args, **options):
    fn = cuvil.jit(define(source), **options)
    variant_for(fn, args)  # compiled, not run
    return cuvil.fingerprint(fn)


def test_fingerprint_ignores_names_lines_and_comments():
    x = np.ones(40)
    assert _fp(SCALE, x, x) == _fp(SCALE_RENAMED, x, x)


def test_fingerprint_differs_across_static_dims_dtype_and_parallel():
    x = np.ones(40)
    base = _fp(SCALE, x, x, dynamic=False)
    assert _fp(SCALE, x[:39], x[:39], dynamic=False) != base  # another static size
    assert _fp(SCALE, x, x, dynamic=True) != base  # the dim dynamic
    assert _fp(SCALE, x.astype(np.float32), x.astype(np.float32), dynamic=False) != base  # dtype
    assert _fp(SCALE, x, x, dynamic=False, parallel=True) != base  # a parallel loop


def test_fingerprint_counts_variants_like_explain():
    fn = cuvil.jit(define(SCALE), dynamic=False)
    with pytest.raises(cuvil.CuvilError, match="has no compiled variant yet: call it first"):
        cuvil.fingerprint(fn)
    variant_for(fn, (np.ones(3), np.ones(3)))
    variant_for(fn, (np.ones(4), np.ones(4)))
    first, second = cuvil.fingerprint(fn, 1), cuvil.fingerprint(fn, 2)
    assert first != second
    assert cuvil.fingerprint(fn, -1) == second and cuvil.fingerprint(fn, -2) == first
    with pytest.raises(cuvil.CuvilError, match=r"has no variant 3; its variants are #1, #2 \(or -1 for the newest\)"):
        cuvil.fingerprint(fn, 3)
    text = str(cuvil.explain(fn))
    assert "variant #2 (newest, checked first)" in text
    assert text.index(f"fingerprint {second}") < text.index("variant #1:") < text.index(f"fingerprint {first}")
    assert cuvil.explain(fn).fingerprints == [second, first]


def test_fingerprint_of_a_plain_function_is_refused():
    with pytest.raises(TypeError, match="cuvil.fingerprint takes a function made by cuvil.jit, not function"):
        cuvil.fingerprint(define(SCALE))


PROGRAM = """
import sys
import numpy as np
import cuvil

@cuvil.jit
def softmax_rows(x):
    m = np.max(x, axis=1, keepdims=True)
    e = np.exp(x - m)
    return e / np.sum(e, axis=1, keepdims=True)

softmax_rows(np.ones((int(sys.argv[1]), 64), np.float32))
print(cuvil.fingerprint(softmax_rows))
"""


def test_fingerprint_is_equal_in_two_fresh_processes(tmp_path):
    """Fresh processes with their own caches and other hash seeds: nothing process-bound enters the hash."""
    script = tmp_path / "prog.py"
    script.write_text(textwrap.dedent(PROGRAM))
    runs = []
    for seed, rows in (("1", "4"), ("2", "4")):
        env = dict(os.environ, PYTHONHASHSEED=seed, CUVIL_CACHE_DIR=str(tmp_path / f"cache{seed}"))
        runs.append(subprocess.Popen([sys.executable, str(script), rows], env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True))
    outputs = []
    for run in runs:
        out, err = run.communicate(timeout=300)
        assert run.returncode == 0, err
        outputs.append(out.strip())
    assert len(outputs[0]) == 16
    assert outputs[0] == outputs[1]


NAMES = st.from_regex(r"[a-z][a-z0-9]{0,6}", fullmatch=True).filter(
    lambda n: not keyword.iskeyword(n) and n not in {"np", "range", "len", "max", "min", "float", "int"})


@settings(max_examples=10)
@given(st.lists(NAMES, min_size=4, max_size=4, unique=True), st.integers(0, 3))
def test_structure_is_the_same_under_any_names_and_blank_lines(names, blank):
    """Property: renaming parameters and locals and shifting lines leaves the structure (so the fingerprint)
    as it was; compared without compiling (every dim dynamic)."""
    x, out, i, v = names
    renamed = "\n" * blank + f"""
def other({x}, {out}):
    for {i} in range({x}.shape[0]):
        {v} = {x}[{i}] * 2.0
        {out}[{i}] = {v} + 1.0
    return {out}
"""
    base = SCALE.replace("out[i] = 2.0 * x[i] + 1.0", "v = x[i] * 2.0\n        out[i] = v + 1.0")
    args = (np.ones(5), np.ones(5))
    assert structure(plans_for(cuvil.jit(define(renamed)), args)) == \
        structure(plans_for(cuvil.jit(define(base)), args))
