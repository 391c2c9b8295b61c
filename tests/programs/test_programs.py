"""Differential tests: every corpus program, compiled with cuvil.jit, must agree with plain CPython."""
import warnings
from collections.abc import Callable
from copy import deepcopy
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import cuvil
from cuvil.testing import _compare

from . import (
    calls,
    constants,
    control,
    integers,
    iteration,
    kernels,
    loops,
    narrow,
    numpy_calls,
    tuples,
)

# ---------------------------------------------------------------- strategies

FLOAT = st.floats(-100, 100, allow_nan=False, allow_infinity=False, width=64)
# Multiples of 1/4 in [-100, 100]: sums and products are exact, so results of
# reductions (np.sum, np.dot, @) do not depend on summation order.
DYADIC = st.integers(-400, 400).map(lambda k: k / 4.0)
INT = st.integers(-1000, 1000)
NONZERO_INT = INT.filter(lambda v: v != 0)
BIG_INT = st.integers(-10**6, 10**6)


def farr(min_size=0, max_size=20, elements=FLOAT):
    return hnp.arrays(np.float64, st.integers(min_size, max_size), elements=elements)


def iarr(min_size=0, max_size=20, elements=INT):
    return hnp.arrays(np.int64, st.integers(min_size, max_size), elements=elements)


def fmat(min_rows=0, max_rows=8, min_cols=0, max_cols=8, elements=FLOAT):
    shape = st.tuples(st.integers(min_rows, max_rows), st.integers(min_cols, max_cols))
    return hnp.arrays(np.float64, shape, elements=elements)


def same_length(count, elements=FLOAT, min_size=0, max_size=20):
    """`count` float arrays sharing one length."""
    return st.integers(min_size, max_size).flatmap(
        lambda n: st.tuples(*[hnp.arrays(np.float64, n, elements=elements)] * count)
    )


def matrix_and_vector(elements=FLOAT):
    """(m, v) with m of shape (r, c) and v of length c."""
    dims = st.tuples(st.integers(0, 8), st.integers(0, 8))
    return dims.flatmap(
        lambda rc: st.tuples(
            hnp.arrays(np.float64, rc, elements=elements),
            hnp.arrays(np.float64, rc[1], elements=elements),
        )
    )


def matmul_operands():
    dims = st.tuples(st.integers(0, 6), st.integers(0, 6), st.integers(0, 6))
    return dims.flatmap(
        lambda d: st.tuples(
            hnp.arrays(np.float64, (d[0], d[1]), elements=DYADIC),
            hnp.arrays(np.float64, (d[1], d[2]), elements=DYADIC),
        )
    )


def histogram_args():
    return st.tuples(FLOAT, st.floats(0.5, 100)).flatmap(
        lambda lw: st.tuples(farr(), st.integers(1, 10), st.just(lw[0]), st.just(lw[0] + lw[1]))
    )


def args(*strategies):
    return st.tuples(*strategies)


def typed(dtype, elements, min_size=0, max_size=20):
    return hnp.arrays(dtype, st.integers(min_size, max_size), elements=elements)


# Multiples of 1/4 as float32: sums and dot products of 20 of them are exact in float32 too.
F32 = typed(np.float32, DYADIC)
F32_PAIR = st.integers(0, 20).flatmap(lambda n: st.tuples(*[typed(np.float32, DYADIC, n, n)] * 2))
I32 = typed(np.int32, INT)
U8 = typed(np.uint8, st.integers(0, 255))
U8_SAME = st.integers(0, 20).flatmap(lambda n: st.tuples(*[typed(np.uint8, st.integers(0, 255), n, n)] * 2))
# Small enough that a uint8 scalar sum never overflows (NumPy warns there; the corpus must not).
U8_PAIR = st.tuples(*[typed(np.uint8, st.integers(0, 100), 1)] * 2)


# ------------------------------------------------------------------ registry


@dataclass(frozen=True)
class Case:
    fn: Callable[..., Any]
    strategy: st.SearchStrategy
    xfail: str = ""  # why the compiled result is known to differ, and which issue fixes it


CASES = [
    # loops
    Case(loops.sum_of_squares_below, args(st.integers(-5, 2000))),
    Case(loops.range_step_sum, args(st.integers(-100, 100), st.integers(-100, 100),
                                    st.integers(-7, 7).filter(lambda s: s != 0))),
    Case(loops.triangle_pairs, args(st.integers(0, 60))),
    Case(loops.sum_by_index, args(farr())),
    Case(loops.reverse_weighted_sum, args(farr())),
    Case(loops.count_multiples, args(st.integers(0, 500), st.integers(1, 20))),
    Case(loops.fill_squares, args(st.integers(0, 50))),
    Case(loops.nested_grid, args(st.integers(0, 8), st.integers(0, 8))),
    Case(loops.loop_var_reassigned, args(st.integers(0, 200))),
    Case(loops.range_bound_evaluated_once, args(st.integers(-10, 100))),
    # control
    Case(control.classify_sign, args(st.integers(-50, 50))),
    Case(control.grade, args(st.floats(0, 100))),
    Case(control.clip_ternary, args(FLOAT, FLOAT, FLOAT)),
    Case(control.bool_logic, args(st.integers(-3, 3), st.integers(-3, 3))),
    Case(control.pick_first_truthy, args(st.integers(-2, 2), st.integers(-2, 2), st.integers(-2, 2))),
    Case(control.pick_and, args(st.integers(-2, 2), st.integers(-2, 2))),
    Case(control.count_in_half_open_range, args(farr(), st.floats(-100, 0), st.floats(0, 100))),
    Case(control.count_leading_positive, args(farr())),
    Case(control.sum_skipping_multiples, args(st.integers(0, 500))),
    Case(control.first_index_above, args(farr(), FLOAT)),
    Case(control.first_power_exceeding, args(st.integers(2, 10), st.integers(0, 10**6))),
    Case(control.find_pair_with_sum, args(iarr(elements=st.integers(-10, 10)), st.integers(-20, 20))),
    Case(control.sum_nonnegative_with_continue, args(farr())),
    Case(control.piecewise, args(st.floats(-2, 2))),
    # integers
    Case(integers.floor_div_mod, args(BIG_INT, NONZERO_INT)),
    Case(integers.float_floor_div_mod, args(FLOAT, FLOAT.filter(lambda v: abs(v) >= 0.5))),
    Case(integers.true_division, args(BIG_INT, NONZERO_INT)),
    Case(integers.mixed_int_float, args(BIG_INT, FLOAT)),
    Case(integers.int_power, args(st.integers(-20, 20), st.integers(0, 10))),
    Case(integers.float_negative_power, args(st.integers(-20, 20).filter(lambda v: v != 0), st.integers(1, 5))),
    Case(integers.truncated_division, args(BIG_INT, NONZERO_INT)),
    Case(integers.digit_sum, args(BIG_INT)),
    Case(integers.bool_arithmetic, args(farr(), FLOAT)),
    Case(integers.bucket_code_sum, args(iarr(), st.integers(1, 50))),
    Case(integers.abs_diff_sum, args(iarr())),
    Case(integers.int_mean, args(iarr())),
    Case(integers.negative_modulus_cycle, args(st.integers(0, 100), NONZERO_INT)),
    # iteration
    Case(iteration.sum_elements, args(farr())),
    Case(iteration.count_even, args(iarr())),
    Case(iteration.reversed_weighted, args(farr())),
    Case(iteration.strided_sums, args(farr())),
    Case(iteration.row_sums, args(fmat())),
    Case(iteration.row_first_times_last, args(fmat(min_cols=1))),
    Case(iteration.zero_first_column, args(fmat(min_cols=1))),
    Case(iteration.weighted_sum_from_one, args(farr())),
    Case(iteration.argmin_enumerate, args(farr(min_size=1))),
    Case(iteration.dot_zip, same_length(2)),
    Case(iteration.zip_stops_at_shortest, args(farr(), farr())),
    Case(iteration.fma_zip3, same_length(3)),
    Case(iteration.elementwise_max_enumerate_zip, same_length(2)),
    Case(iteration.crossing_index_sum, args(farr(), farr())),
    Case(iteration.rows_times_weights, st.tuples(st.integers(0, 8), st.integers(0, 8)).flatmap(
        lambda rc: args(hnp.arrays(np.float64, rc, elements=FLOAT),
                        hnp.arrays(np.float64, rc[0], elements=FLOAT)))),
    # tuples
    Case(tuples.min_max, args(farr(min_size=1))),
    Case(tuples.sort_two, args(FLOAT, FLOAT)),
    Case(tuples.sort_three, args(INT, INT, INT)),
    Case(tuples.fibonacci, args(st.integers(0, 80))),
    Case(tuples.rotate_triple, args(FLOAT, FLOAT, FLOAT, st.integers(0, 10))),
    Case(tuples.mean_and_variance, args(farr(min_size=1))),
    Case(tuples.tuple_through_variable, args(FLOAT, FLOAT)),
    Case(tuples.nested_unpack, args(INT, INT, INT)),
    Case(tuples.clamp_negatives, args(farr())),
    Case(tuples.extended_gcd, args(BIG_INT, BIG_INT)),
    # constants
    Case(constants.scale_and_offset, args(farr())),
    Case(constants.clamp_to_limits, args(FLOAT)),
    Case(constants.poly_from_constants, args(st.floats(-10, 10))),
    Case(constants.weighted_window, args(farr())),
    Case(constants.projectile_height, args(st.floats(0, 50), st.floats(0, 10))),
    Case(constants.halve_until_small, args(FLOAT)),
    Case(constants.scaled_int_sum, args(st.integers(0, 300))),
    Case(constants.smooth_with_array_constant, args(farr())),
    # numpy and math calls
    Case(numpy_calls.elementwise_sqrt_exp, args(farr())),
    Case(numpy_calls.scalar_sqrt_exp, args(FLOAT)),
    Case(numpy_calls.math_functions, args(FLOAT)),
    Case(numpy_calls.builtin_min_max_abs, args(FLOAT, FLOAT, FLOAT)),
    Case(numpy_calls.total_sum, args(farr(elements=DYADIC))),
    Case(numpy_calls.matrix_sum, args(fmat(elements=DYADIC))),
    Case(numpy_calls.int_array_sum, args(iarr())),
    Case(numpy_calls.dot_vectors, same_length(2, elements=DYADIC)),
    Case(numpy_calls.vector_norm, args(farr(elements=DYADIC))),
    Case(numpy_calls.matmul_matrices, matmul_operands()),
    Case(numpy_calls.matvec_matmul, matrix_and_vector(DYADIC)),
    Case(numpy_calls.dot_matrix_vector, matrix_and_vector(DYADIC)),
    Case(numpy_calls.allocate_1d, args(st.integers(0, 30))),
    Case(numpy_calls.allocate_2d, args(st.integers(0, 8), st.integers(0, 8))),
    Case(numpy_calls.like_allocations, args(farr())),
    Case(numpy_calls.copy_is_independent, args(farr())),
    Case(numpy_calls.slice_view_write, args(farr())),
    Case(numpy_calls.shape_and_len, args(fmat())),
    Case(numpy_calls.normalized, args(farr(elements=DYADIC))),
    Case(numpy_calls.softmax, args(farr(min_size=1))),
    Case(numpy_calls.floor_bins, args(farr(), st.floats(0.5, 10))),
    # kernels
    Case(kernels.saxpy, same_length(2).flatmap(lambda xy: args(FLOAT, st.just(xy[0]), st.just(xy[1])))),
    Case(kernels.prefix_sum, args(farr())),
    Case(kernels.stencil3, args(farr())),
    Case(kernels.escape_time, args(st.floats(-2, 1), st.floats(-1.5, 1.5), st.integers(0, 100))),
    Case(kernels.bubble_sort, args(farr())),
    Case(kernels.insertion_sort, args(iarr())),
    Case(kernels.histogram, histogram_args()),
    Case(kernels.matvec_loops, matrix_and_vector()),
    Case(kernels.pairwise_distances, args(hnp.arrays(np.float64, st.tuples(st.integers(0, 12), st.just(3)),
                                                     elements=FLOAT))),
    Case(kernels.running_max, args(farr())),
    Case(kernels.count_sign_changes, args(farr(elements=st.sampled_from([-2.0, 0.0, 3.5]) | FLOAT))),
    Case(kernels.gcd, args(BIG_INT, BIG_INT)),
    Case(kernels.collatz_steps, args(st.integers(1, 10**5))),
    Case(kernels.horner, args(farr(), st.floats(-2, 2))),
    Case(kernels.argmax_early_exit, args(farr(), FLOAT)),
    Case(kernels.binary_search, args(iarr(elements=st.integers(-50, 50)).map(np.sort), st.integers(-60, 60))),
    Case(kernels.count_primes_below, args(st.integers(0, 2000))),
    Case(kernels.moving_average, args(farr(), st.integers(1, 6))),
    Case(kernels.trapezoid_gaussian, args(st.floats(-5, 0), st.floats(0, 5), st.integers(1, 200))),
    # calls
    Case(calls.clamped_mean, args(farr(), st.floats(-50, 0), st.floats(0, 50))),
    Case(calls.sum_of_lengths, same_length(2)),
    Case(calls.balance_ratio, args(farr())),
    Case(calls.double_then_stats, args(farr())),
    Case(calls.arithmetic_sequence, args(st.integers(0, 30), FLOAT, FLOAT)),
    Case(calls.nested_calls, args(FLOAT)),
    Case(calls.poly_with_defaults, st.one_of(
        args(FLOAT), args(FLOAT, st.integers(-5, 5)), args(FLOAT, st.integers(-5, 5), FLOAT))),
    # narrow dtypes: results keep float32 / int32 / uint8, as NumPy 2 does
    Case(narrow.f32_saxpy, F32_PAIR.flatmap(lambda xy: args(DYADIC, st.just(xy[0]), st.just(xy[1])))),
    Case(narrow.f32_array_sum, args(F32)),
    Case(narrow.f32_max_and_dot, F32_PAIR.filter(lambda xy: len(xy[0]) > 0)),
    Case(narrow.f32_element, args(typed(np.float32, DYADIC, 1))),
    Case(narrow.f32_mean, args(typed(np.float32, DYADIC, 1))),
    Case(narrow.f32_loop_sum, args(typed(np.float32, DYADIC, 1))),
    Case(narrow.f32_scaled, args(F32)),
    Case(narrow.i32_copy_plus_one, args(I32)),
    Case(narrow.i32_array_sum, args(I32)),
    Case(narrow.i32_loop_sum, args(typed(np.int32, INT, 1))),
    Case(narrow.i32_plus_literal, args(I32)),
    Case(narrow.u8_add_arrays, U8_SAME),
    Case(narrow.u8_element_sum, U8_PAIR),
    Case(narrow.u8_histogram, args(U8)),
]


# ---------------------------------------------------------------- comparison


def assert_same(expected, actual, path="result"):
    """Exact, by cuvil.testing's rule (its module docstring): arrays of the same class, shape and dtype, scalars
    of the same dtype (Python's int and float standing for int64 and float64); tolerance by dtype for floats."""
    problems = _compare(expected, actual, path, None, None)
    assert not problems, "\n".join(problems)


# --------------------------------------------------------------------- tests

_JITTED = {}


def compiled(fn, **options):
    """cuvil.jit(fn, **options), created once per program and options (compiling is expensive)."""
    key = (fn, tuple(sorted(options.items())))
    if key not in _JITTED:
        try:
            _JITTED[key] = cuvil.jit(fn, **options)
        except Exception as exc:  # remember the failure instead of recompiling per example
            _JITTED[key] = exc
    result = _JITTED[key]
    if isinstance(result, Exception):
        raise RuntimeError(f"cuvil.jit({fn.__name__}) failed: {result!r}") from result
    return result


def run_reference(fn, args):
    """Plain CPython; any numeric warning means the corpus itself is broken."""
    with warnings.catch_warnings(), np.errstate(over="raise", divide="raise", invalid="raise"):
        warnings.simplefilter("error", RuntimeWarning)
        return fn(*args)


@pytest.mark.parametrize("case", [
    pytest.param(c, id=c.fn.__name__, marks=[pytest.mark.xfail(strict=True, reason=c.xfail)] if c.xfail else [])
    for c in CASES
])
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_program_matches_python(case, data):
    jitted = compiled(case.fn)
    args = data.draw(case.strategy, label="args")
    py_args = deepcopy(args)
    jit_args = deepcopy(args)
    expected = run_reference(case.fn, py_args)
    actual = jitted(*jit_args)
    assert_same(expected, actual)
    # Side effects on the arguments must match too (programs should leave them untouched).
    assert_same(tuple(py_args), tuple(jit_args), path="args")


# Under parallel=True (a subset: parallel compiles cost seconds each): programs whose loops the dependence
# analysis makes prange (reductions, writes of one's own slot, nested loops), and programs whose loops carry a
# value from one iteration to the next and must stay serial (a mutation audit survivor took the prefix sum's
# running total for a reduction; no corpus program ran with parallel=True then).
PARALLEL = {
    "sum_of_squares_below", "count_even", "abs_diff_sum", "row_sums", "zero_first_column", "clamp_negatives",
    "stencil3", "saxpy", "floor_bins", "i32_copy_plus_one", "copy_is_independent",
    "prefix_sum", "running_max", "moving_average", "count_sign_changes", "horner", "reverse_weighted_sum",
    "histogram", "argmin_enumerate",
}


@pytest.mark.parametrize("case", [pytest.param(c, id=c.fn.__name__) for c in CASES if c.fn.__name__ in PARALLEL])
@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_program_under_parallel_matches_python(case, data):
    jitted = compiled(case.fn, parallel=True)
    args = data.draw(case.strategy, label="args")
    py_args, jit_args = deepcopy(args), deepcopy(args)
    assert_same(run_reference(case.fn, py_args), jitted(*jit_args))
    assert_same(tuple(py_args), tuple(jit_args), path="args")


def test_corpus_size():
    names = [c.fn.__name__ for c in CASES]
    assert len(CASES) >= 34
    assert len(names) == len(set(names)), "duplicate program names"
    assert PARALLEL <= set(names)
