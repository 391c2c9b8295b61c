"""Sum of 10M float64 values as a plain loop: a reduction the compiler must keep in order (no fastmath)."""

import numba
import numpy as np

PYTHON_SCALE = 0.01  # plain Python runs on 100k elements


def total(a):
    s = 0.0
    for x in a:
        s += x
    return s


def prange_form(a):
    s = 0.0
    for i in numba.prange(len(a)):
        s += a[i]
    return s


def numpy_form(a):
    return a.sum()


def torch_form(a):
    return a.sum()


def work(a):
    return len(a)


def args(scale=1.0):
    return (np.random.default_rng(0).random(int(10_000_000 * scale)),)
