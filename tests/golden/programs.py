"""Programs whose generated modules are kept as snapshots (`*.golden`), reviewed as diffs."""

import math

import numpy as np

SCALE = 0.5
OFFSETS = (1.0, -1.0)


def saxpy(a, x, y, out):
    for i in range(len(x)):
        out[i] = a * x[i] + y[i]
    return out


def first_above(a, limit):
    for i, x in enumerate(a):
        if x > limit:
            return i
    return -1


def classify(x, lo, hi):
    if x < lo:
        return -1
    elif lo <= x < hi:
        return 0
    else:
        return 1


def norm(v):
    return math.sqrt(dot(v, v)) * SCALE


def dot(a, b):
    s = 0.0
    for x, y in zip(a, b):
        s += x * y
    return s


def shifted_sum(a):
    out = np.zeros(2)
    for k in range(2):
        out[k] = a.sum() + OFFSETS[k]
    return out


# name → (function, jit options)
GOLDEN = {
    "saxpy_parallel": (saxpy, {"parallel": True}),
    "first_above": (first_above, {}),
    "classify": (classify, {}),
    "norm_with_helpers": (norm, {}),
    "shifted_sum": (shifted_sum, {}),
}
