"""np.nextafter and np.spacing with a half result step in the half's own units (runtime/half_steps.py), bit for
bit against NumPy's float16 (every one of the 65,536 patterns) and torch's bfloat16 nextafter. Before, both were
computed in float32 and rounded back: `np.nextafter(np.float16(3), 5)` was 3.0 and `np.spacing` float32's
2.4e-07. Each function is called on the first dtype twice (first call, guard hit) and then on another (guard
miss): an int8 array, whose result NumPy also gives as float16."""

from __future__ import annotations

import warnings

import numpy as np
import torch

import cuvil

ALL = np.arange(65536, dtype=np.uint16).view(np.float16)


def spacing(a):
    return np.spacing(a)


def nextafter(a, b):
    return np.nextafter(a, b)


def _same_bits(got: np.ndarray, expected: np.ndarray) -> None:
    assert got.dtype == expected.dtype and got.shape == expected.shape
    nan = np.isnan(expected)
    assert (np.isnan(got) == nan).all()
    bits = got.view(np.uint16) == expected.view(np.uint16)
    assert bits[~nan].all(), f"{ALL[~nan][~bits[~nan]][:5]}: {got[~nan][~bits[~nan]][:5]}"


def test_spacing_of_every_float16_is_numpys():
    fn = cuvil.jit(spacing)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for x in (ALL, ALL[::-1].copy(), np.arange(-128, 128, dtype=np.int8)):
            _same_bits(fn(x), np.spacing(x))


def test_nextafter_of_every_float16_toward_each_side_is_numpys():
    fn = cuvil.jit(nextafter)
    towards = np.array([np.inf, -np.inf, 0.0, -0.0, 1.0, np.nan], np.float16)
    for b in towards:
        target = np.full(ALL.shape, b, np.float16)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's "overflow encountered in nextafter"
            expected = np.nextafter(ALL, target)
        _same_bits(fn(ALL, target), expected)
    _same_bits(fn(ALL, ALL[::-1].copy()), np.nextafter(ALL, ALL[::-1]))
    ints = np.arange(-128, 128, dtype=np.int8)
    _same_bits(fn(ints, ints[::-1].copy()), np.nextafter(ints, ints[::-1]))


def test_nextafter_of_every_bfloat16_is_torchs():
    fn = cuvil.jit(nextafter)
    values = torch.from_numpy(np.arange(65536, dtype=np.uint16).view(np.int16)).view(torch.bfloat16)
    for b in (float("inf"), float("-inf"), 0.0, 1.0):
        target = torch.full(values.shape, b, dtype=torch.bfloat16)
        got, expected = fn(values, target), torch.nextafter(values, target)
        assert got.dtype == torch.bfloat16 and got.shape == expected.shape
        nan = torch.isnan(expected)
        assert torch.equal(torch.isnan(got), nan)
        assert torch.equal(got.view(torch.int16)[~nan], expected.view(torch.int16)[~nan])
