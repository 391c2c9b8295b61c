"""Row softmax of a 4096×1024 float32 matrix: per row a max, a sum of exponentials, a division."""

import math

import numba
import numpy as np

try:
    import torch
except ImportError:  # the loop and NumPy forms need no torch
    torch = None

PYTHON_SCALE = 0.01  # plain Python runs on 40 rows


def softmax(x, out):
    for i in range(x.shape[0]):
        m = x[i, 0]
        for j in range(1, x.shape[1]):
            m = max(m, x[i, j])
        s = 0.0
        for j in range(x.shape[1]):
            e = math.exp(x[i, j] - m)
            out[i, j] = e
            s += e
        for j in range(x.shape[1]):
            out[i, j] = out[i, j] / s
    return out


def prange_form(x, out):
    for i in numba.prange(x.shape[0]):
        m = x[i, 0]
        for j in range(1, x.shape[1]):
            m = max(m, x[i, j])
        s = 0.0
        for j in range(x.shape[1]):
            e = math.exp(x[i, j] - m)
            out[i, j] = e
            s += e
        for j in range(x.shape[1]):
            out[i, j] = out[i, j] / s
    return out


def numpy_form(x, out):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def torch_form(x, out):
    return torch.softmax(x, dim=1)


def work(x, out):
    return x.size


def args(scale=1.0):
    rows = max(1, int(4096 * scale))
    x = np.random.default_rng(0).standard_normal((rows, 1024), dtype=np.float32)
    return x, np.empty_like(x)
