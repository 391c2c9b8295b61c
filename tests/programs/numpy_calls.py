"""NumPy and math calls: sqrt/exp, sum/dot/@, allocation helpers, copy/shape/len, math.*, abs/min/max."""
import math

import numpy as np


def elementwise_sqrt_exp(a):
    return np.sqrt(a * a + 1.0), np.exp(a / 50.0)


def scalar_sqrt_exp(x):
    return np.sqrt(x * x + 1.0) + np.exp(-x / 20.0)


def math_functions(x):
    # math.floor returns a Python int.
    return math.sqrt(abs(x)), math.exp(x / 10.0), math.floor(x)


def builtin_min_max_abs(a, b, c):
    return min(a, b), max(a, b, c), abs(a - c), min(abs(a), abs(b))


def total_sum(a):
    return np.sum(a)


def matrix_sum(m):
    return np.sum(m)


def int_array_sum(a):
    return np.sum(a)


def dot_vectors(a, b):
    return np.dot(a, b)


def vector_norm(a):
    return np.sqrt(np.dot(a, a))


def matmul_matrices(x, y):
    return x @ y


def matvec_matmul(m, v):
    return m @ v


def dot_matrix_vector(m, v):
    return np.dot(m, v)


def allocate_1d(n):
    z = np.zeros(n)
    o = np.ones(n)
    f = np.full(n, 2.5)
    e = np.empty(n)
    for i in range(n):
        e[i] = z[i] + o[i] * i + f[i]
    return e


def allocate_2d(rows, cols):
    z = np.zeros((rows, cols))
    o = np.ones((rows, cols))
    for i in range(rows):
        for j in range(cols):
            z[i, j] = o[i, j] * (i - j)
    return z, o


def like_allocations(a):
    z = np.zeros_like(a)
    e = np.empty_like(a)
    for i in range(len(a)):
        e[i] = a[i] * 2
        z[i] = z[i] + 1
    return z, e


def copy_is_independent(a):
    b = a.copy()
    for i in range(len(b)):
        b[i] = b[i] * 2.0 + 1.0
    return a, b


def slice_view_write(a):
    # A slice is a view: writing through it updates the copied array.
    b = a.copy()
    v = b[1:]
    for i in range(len(v)):
        v[i] = v[i] + 1.0
    return b


def shape_and_len(m):
    rows, cols = m.shape
    return rows, cols, len(m), m.shape[1] * 2


def normalized(a):
    norm = np.sqrt(np.dot(a, a))
    if norm == 0.0:
        return a.copy()
    return a / norm


def softmax(a):
    m = a[0]
    for x in a:
        m = max(m, x)
    e = np.exp(a - m)
    return e / np.sum(e)


def floor_bins(a, width):
    out = np.zeros(len(a))
    for i in range(len(a)):
        out[i] = math.floor(a[i] / width) * width
    return out
