"""The shape analysis (analysis/shape_eval.py, shape_transfer.py, shape_rules.py) where it must know little:
an index that is an expression, a name the loop header rebinds, a reshape of an array whose size is known only
at run time. Each compiled result is checked against NumPy's (value, dtype and shape, or the exception).

Mutation testing found each class untested (the sixth session's sample of the three modules):
- `_is_new_axis` 5: any node with a Name `.value` taken for `None`, and an internal AttributeError on an index
  that has none (`x[len(x) - 1]`);
- `Transfer.loop_target` 3: a loop target's earlier dim kept (`k = len(x); for k in range(1, 2)`), and a valid
  broadcast after the loop refused at compile time;
- `reshape` 20: a reshape of an array of run-time size refused ("cannot reshape array of size None"), or an
  internal TypeError for a `-1`;
- `Evaluator.slice_len` 5: `x[::k]` taken for the whole dim (a valid broadcast refused, an invalid one let by);
- `Transfer.bind` 12: a tuple assignment's elements paired with nothing (an internal ValueError);
- `Transfer.values` 10: `n, m = x.shape` bound nothing (a certain error left to run time);
- `_axis` 2, 18: no test of the list reached a reduction's axis;
- `Evaluator.module_call` 15: a one- or two-operand ufunc called as `np.f(...)` left unmodelled."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.analysis import shapes
from cuvil.frontend.parse import parse
from cuvil.frontend.source import get_source
from cuvil.normalize.pipeline import normalize

from ..helpers import define

_ENV = {"np": np}
_FAST = settings(max_examples=6, deadline=None, phases=(Phase.generate,))  # no shrinking: each try may compile


def _same(got, expected):
    assert np.asarray(got).dtype == np.asarray(expected).dtype and np.shape(got) == np.shape(expected)
    np.testing.assert_array_equal(got, expected)


_INDEXED = {text: define(f"""
    def pick(x, idx, k):
        return x[{text}] * 2
    """, env=_ENV) for text in ["len(x) - 1", "abs(k) - 1", "idx[1]", "-k", "k % len(x)"]}


@pytest.mark.parametrize("index", list(_INDEXED))
@_FAST
@given(values=st.lists(st.integers(-50, 50), min_size=6, max_size=6), k=st.integers(1, 6))
def test_an_index_that_is_an_expression_is_one_index(index, values, k):
    fn = _INDEXED[index]
    jitted = cuvil.jit(fn)
    idx = np.array([k - 1, 6 - k])
    for x in (np.array(values, np.float64), np.array(values, np.int32)):  # first call or hit; a dtype miss
        _same(jitted(x, idx, k), fn(x, idx, k))


_REBOUND = {m: define(f"""
    def after(x):
        k = len(x)
        for k in range(1, 2):
            x[0] += 1
        return np.zeros(k) + np.ones({m})
    """, env=_ENV) for m in (2, 3, 5)}


@_FAST
@given(n=st.integers(2, 12), m=st.sampled_from(list(_REBOUND)))
def test_a_loop_target_forgets_the_dim_its_name_held(n, m):
    fn = _REBOUND[m]
    _same(cuvil.jit(fn)(np.zeros(n)), fn(np.zeros(n)))


_RESHAPED = {text: define(f"""
    def shaped(x):
        return x.reshape({text}) + 1
    """, env=_ENV) for text in ["2, -1", "-1, 3", "(3, 2, -1)", "4, 6"]}


@pytest.mark.parametrize("target", list(_RESHAPED))
@_FAST
@given(rows=st.sampled_from([4, 5, 8]))
def test_a_reshape_of_a_run_time_size(target, rows):
    fn = _RESHAPED[target]
    x = np.arange(6.0 * rows)  # 24 elements and more: past the dims the policy makes static
    try:
        expected = fn(x)
    except ValueError as exc:
        with pytest.raises(ValueError) as info:
            cuvil.jit(fn)(x)
        assert str(info.value) == str(exc)
        return
    _same(cuvil.jit(fn)(x), expected)


def _refused(source: str, **params) -> bool:
    fn = normalize(parse(get_source(define(source, env=_ENV)))).function
    return shapes.check(fn, params, certain=True).error is not None


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 12), step=st.integers(1, 4), lower=st.sampled_from(["", "0", "1"]), m=st.integers(1, 6))
def test_a_slice_with_a_step_has_numpys_length(n, step, lower, m):
    """`x[::k]`, `x[1::k]` on a static dim: the analysis refuses the broadcast exactly when NumPy does (the
    analysis alone: no compile). `slice_len` 5 took `x[::k]` for the whole dim."""
    source = f"""
        def f(x):
            return x[{lower}::{step}] + np.ones({m})
        """
    try:
        np.zeros(n)[int(lower or 0)::step] + np.ones(m)
        numpy_refuses = False
    except ValueError:
        numpy_refuses = True
    assert _refused(source, x=(n,)) == numpy_refuses


@settings(max_examples=40, deadline=None)
@given(p=st.integers(1, 4), q=st.integers(1, 4), swap=st.booleans())
def test_a_tuple_assignment_binds_each_name_to_its_values_shape(p, q, swap):
    """`a, b = np.zeros(p), x`, and a swap after it: the analysis refuses `a + np.ones(3)` exactly when NumPy
    does (no compile). `Transfer.bind` 12 paired no element with its value: an internal ValueError on every
    tuple assignment."""
    source = f"""
        def f(x):
            a, b = np.zeros({p}), x
            {"a, b = b, a" if swap else "pass"}
            return a + np.ones(3)
        """
    first = np.zeros(q) if swap else np.zeros(p)
    try:
        first + np.ones(3)
        numpy_refuses = False
    except ValueError:
        numpy_refuses = True
    assert _refused(source, x=(q,)) == numpy_refuses


@settings(max_examples=40, deadline=None)
@given(p=st.integers(1, 4), q=st.integers(1, 4), d=st.integers(0, 2))
def test_unpacking_a_shape_binds_each_dim(p, q, d):
    """`n, m = x.shape`: each name is that dim, so `np.zeros((n, m + d)) + x` is refused exactly when NumPy
    refuses it (no compile). `Transfer.values` 10 forgot the shape: the certain error went unreported."""
    source = f"""
        def f(x):
            n, m = x.shape
            return np.zeros((n, m + {d})) + x
        """
    try:
        np.zeros((p, q + d)) + np.zeros((p, q))
        numpy_refuses = False
    except ValueError:
        numpy_refuses = True
    assert _refused(source, x=(p, q)) == numpy_refuses


@settings(max_examples=60, deadline=None)
@given(p=st.integers(1, 4), r=st.integers(1, 4), q=st.integers(1, 4),
       axis=st.sampled_from(["0", "1", "-1", "-2", "None"]), how=st.sampled_from(["method", "function"]))
def test_a_reduction_along_an_axis_has_numpys_shape(p, r, q, axis, how):
    """`x.sum(axis=k)`, `np.max(x, axis=k)`: the analysis refuses `… + np.ones(q)` exactly when NumPy does (no
    compile). No test of the list reached `_axis` at all (its mutants 2 and 18: every axis taken for None, an
    internal TypeError on a literal axis)."""
    call = f"x.sum(axis={axis})" if how == "method" else f"np.max(x, axis={axis})"
    source = f"""
        def f(x):
            return {call} + np.ones({q})
        """
    reduced = np.zeros((p, r)).sum(axis=None if axis == "None" else int(axis))
    try:
        reduced + np.ones(q)
        numpy_refuses = False
    except ValueError:
        numpy_refuses = True
    assert _refused(source, x=(p, r)) == numpy_refuses


@settings(max_examples=60, deadline=None)
@given(p=st.integers(1, 4), q=st.integers(1, 4),
       call=st.sampled_from(["np.sqrt(x)", "np.add(x, 1.0)", "np.maximum(x, x)", "np.where(x, x, 0.0)"]))
def test_a_ufunc_called_by_name_has_its_operands_broadcast_shape(p, q, call):
    """`np.sqrt(x)`, `np.add(x, 1.0)`: the analysis refuses `… + np.ones(q)` exactly when NumPy does (no
    compile). `Evaluator.module_call` 15 modelled only three-argument calls (every one- and two-operand ufunc
    of unknown shape: the certain error went unreported)."""
    source = f"""
        def f(x):
            return {call} + np.ones({q})
        """
    try:
        np.zeros(p) + np.ones(q)
        numpy_refuses = False
    except ValueError:
        numpy_refuses = True
    assert _refused(source, x=(p,)) == numpy_refuses
