"""A function of three small arrays: what one call costs beyond its work. Timed as CALLS calls in a row."""

import numpy as np

PYTHON_SCALE = 1.0
CALLS = 100_000  # bench/run.py times this many back-to-back calls


def small_call(x, y, out):
    out[0] = x[0] + y[0]
    return out


numpy_form = torch_form = small_call  # the same indexing code runs on arrays and on tensors


def work(x, y, out):
    return 1


def args(scale=1.0):
    return np.ones(4), np.ones(4), np.empty(4)
