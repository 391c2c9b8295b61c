"""Dot product as a plain loop over zip: a reduction."""

import numba
import numpy as np

PYTHON_SCALE = 0.01  # plain Python runs on 100k elements


def dot(a, b):
    s = 0.0
    for x, y in zip(a, b):
        s += x * y
    return s


def prange_form(a, b):
    s = 0.0
    for i in numba.prange(len(a)):
        s += a[i] * b[i]
    return s


def numpy_form(a, b):
    return np.dot(a, b)


def torch_form(a, b):
    return a.dot(b)


def work(a, b):
    return len(a)


def args(scale=1.0):
    n = int(10_000_000 * scale)
    rng = np.random.default_rng(0)
    return rng.random(n), rng.random(n)
