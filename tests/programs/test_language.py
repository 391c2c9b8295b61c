"""`raise`, `else` on loops and layouts over lines (tests/programs/language.py) against CPython: the value, or
the same exception class with the same arguments raised at the same line of the user's file. Serial, under
`parallel=True` (the loops stay parallel: the raise is recorded and raised after the loop, the first failing
iteration's), and on the CUDA simulator; every argument as first call, guard hit and guard miss."""

from __future__ import annotations

import traceback
from copy import deepcopy

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from numba.core.errors import NumbaPerformanceWarning

import cuvil
from cuvil.errors import CuvilSyntaxError
from tests.helpers import define

from . import language
from .test_programs import assert_same

SMALL = st.floats(-100, 100, allow_nan=False, width=64)
INTS = st.integers(-100, 100).map(float)  # equal values drawn often: `x[i] == v` finds something


def farr(elements=SMALL, min_size=0, max_size=12):
    return hnp.arrays(np.float64, st.integers(min_size, max_size), elements=elements)


def square(elements=SMALL):
    return st.integers(0, 5).flatmap(lambda n: hnp.arrays(np.float64, (n, n), elements=elements))


def symmetric():
    return square(st.sampled_from([0.0, 1.0, 2.0])).map(lambda a: np.triu(a) + np.triu(a, 1).T) | square(
        st.sampled_from([0.0, 1.0]))


CASES = {
    language.validated_factorial: st.tuples(st.integers(-3, 20)),
    language.sqrt_sum_of_nonnegative: st.tuples(farr(st.floats(-1, 100))),
    language.first_below_raises_with_index: st.tuples(farr(), SMALL),
    language.newton_sqrt: st.tuples(st.floats(-2, 1e6), st.integers(0, 40)),
    language.sign_or_raise: st.tuples(st.integers(-3, 3)),
    language.check_symmetric: st.tuples(symmetric()),
    language.odd_raises_bare_class: st.tuples(st.integers(-9, 9)),
    language.index_of_or_raise: st.tuples(farr(INTS), INTS),
    language.scaled_or_raise: st.integers(0, 12).flatmap(lambda n: st.tuples(
        hnp.arrays(np.float64, n, elements=SMALL), st.just(np.zeros(n)), SMALL)),
    language.asserted_mean: st.tuples(farr()),
    language.find_or_minus_one: st.tuples(farr(INTS), INTS),
    language.is_prime: st.tuples(st.integers(-3, 500)),
    language.count_primes_below: st.tuples(st.integers(0, 120)),
    language.halve_until_multiple_of_seven: st.tuples(st.integers(-5, 10**6)),
    language.sum_doubled_without_break: st.tuples(farr()),
    language.rows_without_zero: st.tuples(st.tuples(st.integers(0, 5), st.integers(0, 5)).flatmap(
        lambda s: hnp.arrays(np.float64, s, elements=st.sampled_from([0.0, 1.0, 2.0, 3.0])))),
    language.first_row_without_zero: st.tuples(st.tuples(st.integers(0, 5), st.integers(0, 5)).flatmap(
        lambda s: hnp.arrays(np.float64, s, elements=st.sampled_from([0.0, 1.0, 2.0, 3.0])))),
    language.first_crossing: st.tuples(farr(), farr()),
    language.skip_negatives_else: st.tuples(farr()),
    language.elif_break_in_for_else: st.tuples(farr()),
    language.broken_over_lines: st.tuples(farr()),
    language.imports_again: st.tuples(farr()),
    language.squares_sum: st.tuples(st.integers(-2, 50)),
    language.positive_values: st.tuples(farr()),
    language.comprehension_as_array: st.tuples(st.integers(0, 20)),
    language.collect_then_array: st.tuples(farr()),
    language.nested_table: st.tuples(st.integers(0, 6)),
    language.literal_lookup: st.tuples(st.integers(-5, 5)),
    language.literal_store: st.tuples(st.integers(-5, 5)),
    language.pop_and_len: st.tuples(st.integers(-9, 9)),
    language.iterate_literal: st.tuples(st.integers(-9, 9)),
    language.dot_generator: st.tuples(farr(min_size=1), farr(min_size=1)),
    language.any_all_generators: st.tuples(farr(), SMALL),
    language.largest_magnitude: st.tuples(farr()),
    language.parts_of_an_array: st.tuples(farr()),
    language.repeated_then_filled: st.tuples(st.integers(0, 12)),
    language.products_of_pairs: st.tuples(farr(INTS), farr(INTS)),
    language.indexed_comprehension: st.tuples(farr()),
    language.nearest_symbol: st.tuples(*[hnp.arrays(np.complex128, st.integers(1, 8), elements=st.complex_numbers(
        max_magnitude=100, allow_nan=False, allow_infinity=False))] * 2),
    language.laplace_by_rolls: st.tuples(st.tuples(st.integers(1, 5), st.integers(1, 5)).flatmap(
        lambda s: hnp.arrays(np.float64, s, elements=SMALL)), st.floats(0, 1)),
    language.roll_along: st.tuples(hnp.arrays(st.sampled_from([np.float64, np.int32, np.bool_]), hnp.array_shapes(
        min_dims=0, max_dims=3, min_side=0, max_side=4)), st.integers(-9, 9), st.integers(-4, 3)),
    # NumPy words a negative count of what is empty (or made empty by a count of 0) as a failed reshape: the
    # class is the same (test_tile_of_an_empty_array_negatively)
    language.tile_reps: st.tuples(hnp.arrays(st.sampled_from([np.float64, np.int32, np.bool_]), hnp.array_shapes(
        min_dims=0, max_dims=2, min_side=0, max_side=3)), st.integers(-1, 3) | st.lists(
        st.integers(-1, 3), min_size=1, max_size=3).map(tuple)).filter(
        lambda t: min(np.atleast_1d(t[1])) >= 0 or t[0].size and 0 not in np.atleast_1d(t[1])),
    language.pairwise_differences_by_tile: st.tuples(farr()),
    language.lambda_square_sum: st.tuples(farr()),
    language.lambda_late_binding: st.tuples(st.integers(-9, 9)),
    language.lambda_calls_lambda: st.tuples(farr()),
    language.lambda_in_a_conditional: st.tuples(farr()),
    language.nested_def_gaussian: st.tuples(farr(), st.floats(0.5, 4.0)),
    language.nested_def_late_binding: st.tuples(st.integers(-9, 9)),
    language.nested_defs_calling_each_other: st.tuples(farr()),
    language.nested_def_with_statements: st.tuples(farr(), st.floats(-2.0, 2.0)),
    language.argmax_by_key: st.tuples(farr(st.sampled_from([0.0, 1.0, 2.0, np.nan, -np.inf]))),
    language.nearest_in_a_stepped_range: st.tuples(farr(), st.integers(-2, 4), st.integers(-3, 3)),
    language.largest_magnitude_by_abs: st.tuples(farr(st.sampled_from([1.0, -3.0, 3.0, -0.0, np.nan]))),
    language.row_of_largest_sum: st.tuples(st.tuples(st.integers(0, 4), st.integers(0, 3)).flatmap(
        lambda s: hnp.arrays(np.float64, s, elements=st.sampled_from([0.0, 1.0, 2.0, 3.0])))),
    language.nested_def_with_a_loop: st.tuples(farr()),
    language.nested_def_writes_its_argument: st.tuples(farr()),
    language.check_mask: st.tuples(st.integers(0, 6).flatmap(lambda n: hnp.arrays(bool, (n, 4)))),
    language.count_with_get: st.tuples(farr(st.sampled_from([0.0, 1.0, 2.0, -1.0]))),
    language.sums_by_remainder: st.tuples(farr(), st.integers(1, 4)),
    language.totals_with_an_int_default: st.tuples(farr(st.sampled_from([0.0, 1.0, 2.5])), st.integers(1, 4)),
    language.histogram_dict: st.tuples(farr(st.sampled_from([0.0, 1.0, 2.0, 3.5, -1.0]))),
    language.squares_by_index: st.tuples(st.integers(0, 12)),
    language.distinct_sorted: st.tuples(farr(st.sampled_from([0.0, 1.0, 2.0, 3.0, 7.0]))),
    language.first_repeat: st.tuples(farr(st.sampled_from([0.0, 1.0, 2.0, 3.0]))),
    language.lookup_table: st.tuples(farr(st.sampled_from([0.0, 1.0, 2.0, 3.0, 5.0]))),
}
# Loops that are parallel with their raise (it is recorded, then raised after the loop).
PARALLEL = [language.sqrt_sum_of_nonnegative, language.check_symmetric, language.scaled_or_raise,
            language.sum_doubled_without_break, language.broken_over_lines, language.lambda_square_sum,
            language.lambda_calls_lambda, language.rows_without_zero,
            language.nested_def_gaussian, language.nested_def_with_statements]
JITTED = {fn: cuvil.jit(fn) for fn in CASES}
PARALLEL_JITTED = {fn: cuvil.jit(fn, parallel=True) for fn in PARALLEL}


def outcome(fn, args):
    """('value', result, args after) or (exception class, its args, the line of language.py it came from)."""
    args = deepcopy(args)
    try:
        return "value", fn(*args), args
    except Exception as exc:  # noqa: BLE001
        lines = [f.lineno for f in traceback.extract_tb(exc.__traceback__) if f.filename == language.__file__]
        return type(exc), exc.args, lines[-1] if lines else None


def assert_as_python(fn, jitted, args):
    expected, actual = outcome(fn, args), outcome(jitted, args)
    if expected[0] == "value" and actual[0] == "value":
        assert_same(expected[1], actual[1])
        assert_same(tuple(expected[2]), tuple(actual[2]), path="args")
    else:
        assert actual == expected


def grown(args):
    """The arguments with each array one element longer (a guard miss on the length), else unchanged."""
    return tuple(np.append(a, a[:1] if a.size else [1.0]) if isinstance(a, np.ndarray) and a.ndim == 1 else a
                 for a in args)


@pytest.mark.parametrize("fn", list(CASES), ids=lambda f: f.__name__)
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_matches_python(fn, data):
    args = data.draw(CASES[fn])
    for call in (args, args, grown(args)):  # first call, guard hit, guard miss
        assert_as_python(fn, JITTED[fn], call)


@pytest.mark.filterwarnings("error", category=NumbaPerformanceWarning)
@pytest.mark.parametrize("fn", PARALLEL, ids=lambda f: f.__name__)
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_parallel_matches_python(fn, data):
    args = data.draw(CASES[fn])
    for call in (args, args, grown(args)):
        assert_as_python(fn, PARALLEL_JITTED[fn], call)


@pytest.mark.parametrize("fn", PARALLEL, ids=lambda f: f.__name__)
def test_the_loops_with_a_raise_are_parallel(fn):
    x = np.arange(5.0)
    args = {language.check_symmetric: (np.eye(3),), language.scaled_or_raise: (x, np.zeros(5), 10.0),
            language.rows_without_zero: (np.eye(3),), language.nested_def_gaussian: (x, 1.5),
            language.nested_def_with_statements: (x, 1.5)}.get(fn, (x,))
    PARALLEL_JITTED[fn](*args)
    assert "numba.prange(" in PARALLEL_JITTED[fn].source()


@pytest.mark.parametrize(("x", "k"), [(np.arange(6.0), 10.0), (np.arange(6.0), 3.0), (np.arange(6.0) - 9, -9.0)])
def test_a_raise_on_the_cuda_simulator(x, k):
    fn = cuvil.jit(language.scaled_or_raise, target="cuda")
    for _ in range(2):
        assert_as_python(language.scaled_or_raise, fn, (x, np.zeros(len(x)), k))


@pytest.mark.parametrize(("source", "column", "message"), [
    ("def f(n):\n    raise ValueError('x') from None\n", 32, "'raise ... from' is not supported"),
    ("def f(n):\n    raise n\n", 11, "'n', which is not a module-level name"),
    ("def f(n):\n    raise NotAnError('x')\n", 11, "NotAnError, a class that does not derive from Exception"),
    ("def f(n):\n    raise KeyboardInterrupt\n", 11, "KeyboardInterrupt, which compiled code cannot raise"),
    ("def f(n):\n    raise ValueError(msg='x')\n", 11, "an exception is raised with positional arguments only"),
    ("def f(n):\n    import math\n", 5, "'math' at module level is not this"),
    ("def f(n):\n    import math as np\n", 5, "'np' at module level is not this"),
    ("def f(n):\n    from . import helpers\n", 5, "a relative or '*' 'import'"),
    ("def f(n):\n    import no_such_module_here\n", 5, "cannot import no_such_module_here"),
    ("def f(n):\n    def g(v, k=2):\n        return v * k\n    return g(n)\n", 5,
     "a lambda or nested def with defaults or '*' parameters is not supported"),
])
def test_what_compiled_code_cannot_do_is_refused_at_its_place(source, column, message):
    fn = define(source, "f", env={"NotAnError": type("NotAnError", (), {}), "math": np, "np": np})
    with pytest.raises(CuvilSyntaxError) as caught:
        cuvil.jit(fn)(1)
    assert (caught.value.lineno, caught.value.offset) == (2, column)
    assert message in caught.value.msg


def test_tile_of_an_empty_array_negatively():
    """NumPy's ValueError (its words: a reshape that fails); an axis of length 0 repeated -1 times is empty."""
    fn = JITTED[language.tile_reps]
    with pytest.raises(ValueError):
        language.tile_reps(np.zeros((0, 1)), -1)
    with pytest.raises(ValueError):
        fn(np.zeros((0, 1)), -1)
    with pytest.raises(ValueError):
        language.tile_reps(np.ones(2), (0, -1))
    with pytest.raises(ValueError):
        fn(np.ones(2), (0, -1))
    assert_as_python(language.tile_reps, fn, (np.zeros((1, 0)), -1))
    assert_as_python(language.tile_reps, fn, (np.zeros((0, 1)), (-1, 1)))
