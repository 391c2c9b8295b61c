"""Fused GELU (tanh approximation) over 10M float32 values: one transcendental per element, no reuse."""

import math

import numba
import numpy as np

try:
    import torch
except ImportError:  # the loop and NumPy forms need no torch
    torch = None

PYTHON_SCALE = 0.01  # plain Python runs on 100k elements


def gelu(x, out):
    for i in range(len(x)):
        v = x[i]
        out[i] = 0.5 * v * (1.0 + math.tanh(0.7978845608 * (v + 0.044715 * v * v * v)))
    return out


def prange_form(x, out):
    for i in numba.prange(len(x)):
        v = x[i]
        out[i] = 0.5 * v * (1.0 + math.tanh(0.7978845608 * (v + 0.044715 * v * v * v)))
    return out


def numpy_form(x, out):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))


def torch_form(x, out):
    return 0.5 * x * (1.0 + torch.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))


def work(x, out):
    return len(x)


def args(scale=1.0):
    n = int(10_000_000 * scale)
    x = np.random.default_rng(0).standard_normal(n, dtype=np.float32)
    return x, np.empty_like(x)
