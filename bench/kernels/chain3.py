"""A three-operation float64 elementwise chain over 10M values: `(a + b) * c - a`, memory-bound."""

import numpy as np

PYTHON_SCALE = 1.0


def chain3(a, b, c):
    return (a + b) * c - a


prange_form = chain3


def numpy_form(a, b, c):
    out = a + b
    out *= c
    out -= a
    return out


def torch_form(a, b, c):
    return (a + b) * c - a


def work(a, b, c):
    return a.size


def args(scale=1.0):
    rng = np.random.default_rng(0)
    n = int(10_000_000 * scale)
    return rng.random(n), rng.random(n), rng.random(n)
