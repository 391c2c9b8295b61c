"""The half conversions (runtime/half.py) against NumPy's float16 and torch's bfloat16, bit for bit: every one of
the 65,536 half patterns in both directions, and float32/float64 inputs sampled over all their bit patterns."""

from __future__ import annotations

import numba
import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from cuvil.runtime import half

ALL = np.arange(65536, dtype=np.uint16)


def _elementwise(convert):
    """A compiled loop applying one conversion of runtime/half.py to every element (as generated code does)."""
    @numba.njit
    def run(values, out):
        for i in range(values.size):
            out[i] = convert(values[i])

    return run


_widen_f16, _widen_bf16 = _elementwise(half.f16_to_f32), _elementwise(half.bf16_to_f32)
_narrow_f16, _narrow_bf16 = _elementwise(half.f16), _elementwise(half.bf16)
_round_f16 = _elementwise(half.round_f16)


def widen(kind: str, bits: np.ndarray) -> np.ndarray:
    out = np.empty(bits.size, np.float32)
    (_widen_f16 if kind == "f16" else _widen_bf16)(bits, out)
    return out


def narrow(kind: str, values: np.ndarray) -> np.ndarray:
    out = np.empty(values.size, np.uint16)
    (_narrow_f16 if kind == "f16" else _narrow_bf16)(values, out)
    return out


def torch_bf16(values: np.ndarray) -> np.ndarray:
    return torch.from_numpy(values.astype(np.float32)).to(torch.bfloat16).view(torch.int16).numpy().view(np.uint16)


def bits32(a: np.ndarray) -> np.ndarray:
    return a.view(np.uint32)


def test_f16_to_f32_equals_numpy_on_every_pattern():
    assert np.array_equal(bits32(widen("f16", ALL)), bits32(ALL.view(np.float16).astype(np.float32)))


def test_f16_to_f32_equals_torch_on_every_number():
    # torch's own conversion quiets signalling NaNs (and differs between its scalar and vector paths)
    ours = widen("f16", ALL)
    theirs = torch.from_numpy(ALL.view(np.int16)).view(torch.float16).float().numpy()
    numbers = ~np.isnan(theirs)
    assert np.array_equal(bits32(ours)[numbers], bits32(theirs)[numbers])
    assert np.isnan(ours[~numbers]).all() and int((~numbers).sum()) == 2 * 1023  # two signs, 1023 payloads


def test_f16_round_trip_keeps_every_pattern():
    assert np.array_equal(narrow("f16", ALL.view(np.float16).astype(np.float32)), ALL)
    assert np.array_equal(narrow("f16", ALL.view(np.float16).astype(np.float64)), ALL)


def test_bf16_to_f32_equals_torch_on_every_pattern():
    theirs = torch.from_numpy(ALL.view(np.int16)).view(torch.bfloat16).float().numpy()
    assert np.array_equal(bits32(widen("bf16", ALL)), bits32(theirs))


def test_bf16_round_trip_keeps_every_number_and_quiets_nans():
    values = widen("bf16", ALL)
    back = narrow("bf16", values)
    nan = np.isnan(values)
    assert np.array_equal(back[~nan], ALL[~nan])
    # a NaN stays a NaN of the same sign, quiet, with its top payload bits
    assert np.array_equal(back[nan], ALL[nan] | 0x40)
    assert np.array_equal(torch_bf16(values)[~nan], ALL[~nan])


def test_every_tie_rounds_to_even():
    # the float32 exactly halfway between two neighbouring halves, for every finite half below the largest
    below = ALL[(ALL & 0x7C00) != 0x7C00]
    below = below[(below & 0x7FFF) != 0x7BFF]
    lo = below.view(np.float16).astype(np.float64)
    hi = (below + 1).view(np.float16).astype(np.float64)
    ties = ((lo + hi) / 2).astype(np.float32)
    assert np.array_equal(ties.astype(np.float64), (lo + hi) / 2)  # exactly representable
    assert np.array_equal(narrow("f16", ties), ties.astype(np.float16).view(np.uint16))
    finite = ALL[(ALL & 0x7F80) != 0x7F80].astype(np.uint32)
    bf_ties = ((finite << 16) | 0x8000).view(np.float32)  # halfway to the next bf16 up in magnitude
    assert np.array_equal(narrow("bf16", bf_ties), torch_bf16(bf_ties))


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.uint32, 4096, elements=st.integers(0, 2**32 - 1)))
def test_float32_to_half_equals_numpy_and_torch(raw):
    values = raw.view(np.float32)
    with np.errstate(over="ignore"):
        assert np.array_equal(narrow("f16", values), values.astype(np.float16).view(np.uint16))
    numbers = ~np.isnan(values)
    assert np.array_equal(narrow("bf16", values)[numbers], torch_bf16(values)[numbers])


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.uint64, 4096, elements=st.integers(0, 2**64 - 1)))
def test_float64_to_f16_rounds_once_as_numpy(raw):
    values = raw.view(np.float64)
    with np.errstate(over="ignore"):
        assert np.array_equal(narrow("f16", values), values.astype(np.float16).view(np.uint16))


@settings(max_examples=40, deadline=None)
@given(st.floats(width=32, allow_nan=False) | st.floats(allow_nan=False))
def test_plain_python_meaning_equals_compiled(x):
    """The functions run without Numba too (CUVIL_DISABLE_JIT, py_func): the same bits."""
    values = np.array([x], np.float64)
    with np.errstate(over="ignore"):
        assert int(half.f16(x)) == int(narrow("f16", values)[0])
        assert int(half.bf16(x)) == int(narrow("bf16", values)[0])
        out = np.empty(1, np.float32)
        _round_f16(values, out)
        assert bits32(np.array([half.round_f16(x)], np.float32))[0] == bits32(out)[0]


@pytest.mark.parametrize("value", [65504.0, 65519.99, 65520.0, 1e10, -np.inf, 2.0**-25, 2.0**-25 * 1.0000001])
def test_edges_of_the_half_range(value):
    with np.errstate(over="ignore"):
        expected = np.array([value]).astype(np.float16).view(np.uint16)
    assert narrow("f16", np.array([value], np.float64))[0] == expected[0]
    assert narrow("f16", np.array([value], np.float32))[0] == np.array([value], np.float32).astype(np.float16).view(
        np.uint16)[0]


@numba.njit
def _int_paths(bits, values, wide, narrow_bits):
    for i in range(bits.size):
        wide[i] = half._int_f16_to_f32(bits[i])
    for i in range(values.size):
        narrow_bits[i] = half._f32_to_f16(values[i])


def test_integer_paths_without_f16c_equal_numpy():
    """The conversions a CPU without F16C compiles (this machine may use the hardware ones)."""
    wide, narrow_bits = np.empty(65536, np.float32), np.empty(65536 * 2, np.uint16)
    values = np.concatenate([ALL.view(np.float16).astype(np.float32),
                             np.random.default_rng(2).integers(0, 2**32, 65536, dtype=np.uint64)
                             .astype(np.uint32).view(np.float32)])
    _int_paths(ALL, values, wide, narrow_bits)
    assert np.array_equal(bits32(wide), bits32(ALL.view(np.float16).astype(np.float32)))
    with np.errstate(over="ignore"):
        assert np.array_equal(narrow_bits, values.astype(np.float16).view(np.uint16))
