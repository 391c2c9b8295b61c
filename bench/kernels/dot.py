"""Dot product as a plain loop over zip: a reduction."""

import numpy as np


def dot(a, b):
    s = 0.0
    for x, y in zip(a, b):
        s += x * y
    return s


def args(scale=1.0):
    n = int(10_000_000 * scale)
    rng = np.random.default_rng(0)
    return rng.random(n), rng.random(n)
