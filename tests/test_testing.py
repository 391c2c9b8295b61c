"""cuvil.testing: shared symbolic dims, default elements, and a comparison that fails loudly and readably."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuvil
from cuvil.testing import arrays, assert_equivalent, assert_matches, equivalence, inputs, scalars, targets

from .helpers import define


def saxpy(a, x, y):
    out = np.empty_like(x)
    for i in range(len(x)):
        out[i] = a * x[i] + y[i]
    return out


def fill(out, value):
    for i in range(len(out)):
        out[i] = value
    return len(out)


def divide(a, k):
    return a // k


def ratio(x):
    return x / 0.0 if x != x else x * 0.5


# ---------------------------------------------------------------- strategies


@settings(max_examples=60)
@given(inputs(arrays("f8", ("n", 3)), arrays("i4", ("n",)), arrays("f4", ("m", "n")), scalars("f4"),
              st.just("tag"), dims=st.integers(0, 5)))
def test_a_dim_name_is_one_size_across_arguments(args):
    grid, column, square, scale, tag = args
    n = grid.shape[0]
    assert grid.shape == (n, 3) and column.shape == (n,) and square.shape[1] == n
    assert (grid.dtype, column.dtype, square.dtype) == (np.float64, np.int32, np.float32)
    assert type(scale) is np.float32 and tag == "tag"


@settings(max_examples=40)
@given(inputs(arrays("f8", "n"), arrays("u1", "n"), scalars(int), scalars(float, -2.0, 2.0),
              dims={"n": st.just(7)}))
def test_defaults_are_small_finite_and_typed(args):
    x, small, k, f = args
    assert x.shape == (7,) and np.all(np.isfinite(x)) and np.all(np.abs(x) <= 1e3)
    assert small.dtype == np.uint8
    assert type(k) is int and -1000 <= k <= 1000
    assert type(f) is float and -2.0 <= f <= 2.0


def test_nan_and_infinity_are_opt_in():
    found = set()

    @settings(max_examples=200, database=None)
    @given(inputs(arrays("f8", (8,), allow_nan=True, allow_infinity=True)))
    def collect(args):
        (x,) = args
        found.update(["nan"] * bool(np.isnan(x).any()) + ["inf"] * bool(np.isinf(x).any()))

    collect()
    assert found == {"nan", "inf"}


def test_importing_cuvil_testing_loads_neither_libcst_nor_the_compiler():
    code = ("import sys, cuvil; assert 'cuvil.testing' not in sys.modules; import cuvil.testing; "
            "bad = [m for m in ('libcst', 'cuvil.compiler', 'numba') if m in sys.modules]; assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)


# ---------------------------------------------------------------- comparing


def test_targets_are_the_cpu_for_now():
    assert targets() == ("cpu",)


def test_a_correct_function_passes_and_both_sides_get_their_own_copies():
    out = np.zeros(4)
    assert_equivalent(fill, out, 2.5)
    assert_equivalent(cuvil.jit(saxpy), 2.0, np.arange(4.0), np.ones(4))
    assert np.all(out == 0.0), "the caller's arrays are never written"


def test_a_different_jitted_function_fails_with_a_readable_diff(monkeypatch):
    jitted = cuvil.jit(saxpy)
    jitted(2.0, np.arange(5.0), np.ones(5))  # compiled from saxpy before py_func is swapped

    def wrong(a, x, y):
        out = a * x + y
        out[2] += 1e-3
        return out

    monkeypatch.setattr(jitted, "py_func", wrong)
    with pytest.raises(AssertionError) as failure:
        assert_equivalent(jitted, 2.0, np.arange(5.0), np.ones(5))
    message = str(failure.value)
    assert "on target 'cpu' differs from wrong" in message
    assert "result: 1 of 5 elements differ (shape (5,), dtype float64 vs float64)" in message
    assert "at [2]: expected 5.001, got 5.0" in message
    assert "max abs error 0.001" in message and "rtol 1e-09" in message


def test_nan_in_the_same_place_is_equal_and_nan_against_a_number_is_not():
    nan_twice = np.array([1.0, math.nan, 3.0])
    assert_matches(lambda: nan_twice.copy(), {"same": lambda: nan_twice.copy()})
    with pytest.raises(AssertionError, match=r"at \[1\]: expected nan, got 2.0"):
        assert_matches(lambda: nan_twice.copy(), {"a number": lambda: np.array([1.0, 2.0, 3.0])})
    with pytest.raises(AssertionError, match="expected -inf, got inf"):
        assert_matches(lambda: -math.inf, {"sign": lambda: math.inf})
    assert_equivalent(ratio, math.nan)
    assert_equivalent(ratio, math.inf)


def test_complex_values_compare_part_by_part():
    """inf+nanj is inf+nanj (the NaN part in the same place), where `==` on the complex values is False;
    a differing part is named."""
    special = np.array([complex(math.inf, math.nan), 1 + 2j], np.complex64)
    assert_matches(lambda: special.copy(), {"same": lambda: special.copy()})
    assert_matches(lambda: special[0], {"scalar": lambda: special[0]})
    with pytest.raises(AssertionError, match=r"(?s)imaginary part.*at \[1\]: expected 2.0, got 3.0"):
        assert_matches(lambda: special.copy(), {"other": lambda: np.array([special[0], 1 + 3j], np.complex64)})


def test_tolerance_follows_the_dtype():
    close = np.float32(1.0) + np.float32(2e-6)
    assert_matches(lambda: np.float32(1.0), {"float32": lambda: close})
    with pytest.raises(AssertionError, match="rtol 1e-09"):
        assert_matches(lambda: 1.0, {"float64": lambda: 1.0 + 2e-6})
    assert_matches(lambda: 1.0, {"loose": lambda: 1.0 + 2e-6}, rtol=1e-5)
    with pytest.raises(AssertionError, match=r"expected 3, got np.int64\(4\)"):
        assert_matches(lambda: 3, {"int": lambda: np.int64(4)})
    assert_matches(lambda: 3, {"numpy int": lambda: np.int64(3)})
    with pytest.raises(AssertionError, match="expected int 3, got float 3.0"):
        assert_matches(lambda: 3, {"float": lambda: 3.0})


@pytest.mark.parametrize(("expected", "actual", "words"), [
    (np.zeros(3, np.float32), np.zeros(3), "result: dtype float64, expected float32"),
    (np.zeros(3, np.int32), np.zeros(3, np.int64), "result: dtype int64, expected int32"),
    (np.zeros(3, np.int64), np.zeros(3, np.uint64), "result: dtype uint64, expected int64"),
    (np.zeros((1, 3)), np.zeros(3), "result: shape (3,), expected (1, 3)"),
    (np.float32(2.0), 2.0, "result: expected float32 np.float32(2.0), got float 2.0"),
    (np.int32(3), 3, "result: expected int32 np.int32(3), got int 3"),
    (True, 1, "result: expected bool True, got int 1"),
    (3, 3.0, "result: expected int 3, got float 3.0"),
    (2.0, np.array(2.0), "result: expected float 2.0, got ndarray 2."),
    (np.array(2.0), 2.0, "result: expected ndarray, got float 2.0"),
    ((1, 2), [1, 2], "result: expected tuple of length 2"),
])
def test_types_compare_exactly(expected, actual, words):
    with pytest.raises(AssertionError) as failure:
        assert_matches(lambda: expected, {"exact": lambda: actual})
    assert words in str(failure.value)


@pytest.mark.parametrize(("expected", "actual"), [
    (3, np.int64(3)), (np.int64(3), 3), (2.0, np.float64(2.0)), (1j, np.complex128(1j)), (True, np.True_),
    (np.float32(0.5), np.float32(0.5)), ((1, np.float32(2.0)), (np.int64(1), np.float32(2.0))),
])
def test_python_numbers_stand_for_their_64_bit_dtypes(expected, actual):
    """Numba returns int64/float64/complex128/bool scalars as Python numbers: the one liberty of the rule."""
    assert_matches(lambda: expected, {"numba's boxing": lambda: actual})


def test_a_torch_tensor_must_come_back_as_a_tensor():
    import torch

    with pytest.raises(AssertionError, match="expected torch tensor, got ndarray"):
        assert_matches(lambda: torch.zeros(2), {"numpy": lambda: np.zeros(2, np.float32)})
    assert_matches(lambda: torch.zeros(2), {"torch": lambda: torch.zeros(2)})


def test_writes_into_arguments_are_compared():
    def writes_one_less(out, value):
        for i in range(len(out) - 1):
            out[i] = value
        return len(out)

    with pytest.raises(AssertionError, match=r"argument 'out' \(after the call\): 1 of 3 elements differ"):
        assert_matches(fill, {"one less": writes_one_less}, np.zeros(3), 1.0)


def test_exceptions_must_match_in_kind():
    assert_equivalent(divide, 7, 0)  # ZeroDivisionError on both sides
    with pytest.raises(AssertionError, match="expected ZeroDivisionError: .*, got a return of 7"):
        assert_matches(divide, {"no error": lambda a, k: 7}, 7, 0)
    with pytest.raises(AssertionError, match="expected a return of 3, got IndexError"):
        assert_matches(divide, {"raises": lambda a, k: (a,)[5]}, 7, 2)


def test_tuples_are_compared_element_by_element_with_their_path():
    with pytest.raises(AssertionError, match=r"result\[1\]\[0\]: expected 2, got 5"):
        assert_matches(lambda: (1, (2, 3.0)), {"nested": lambda: (1, (5, 3.0))})
    with pytest.raises(AssertionError, match="expected tuple of length 2"):
        assert_matches(lambda: (1, 2), {"short": lambda: (1,)})


test_saxpy_equivalence = equivalence(scalars(float), arrays("f8", ("n",)), arrays("f8", ("n",)),
                                     max_examples=20)(saxpy)


def test_equivalence_fails_on_a_wrong_function(monkeypatch):
    jitted = cuvil.jit(saxpy)
    jitted(2.0, np.arange(3.0), np.ones(3))
    monkeypatch.setattr(jitted, "py_func", lambda a, x, y: a * x - y)
    test = equivalence(scalars(float, 1.0, 2.0), arrays("f8", (3,), elements=st.floats(1.0, 2.0)),
                       arrays("f8", (3,), elements=st.floats(1.0, 2.0)), max_examples=5)(jitted)
    with pytest.raises(AssertionError, match="differs from"):
        test()


def test_the_readme_example_runs():
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Testing with `cuvil.testing`")[1].split("\n## ")[0]
    example = section.split("```python\n")[1].split("```")[0]
    define(example, "test_saxpy")()
    define(example, "test_saxpy_on_nan")()
