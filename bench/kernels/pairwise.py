"""Pairwise Euclidean distances of n points in 3-D."""

import math

import numba
import numpy as np

from cuvil.demo import pairwise  # noqa: F401 (the loop form: one copy, shared with `cuvil demo`)

PYTHON_SCALE = 0.1  # plain Python runs on 200 points (work grows as n²)


def prange_form(points, out):
    n = points.shape[0]
    for i in numba.prange(n):
        for j in range(n):
            d = 0.0
            for k in range(points.shape[1]):
                t = points[i, k] - points[j, k]
                d += t * t
            out[i, j] = math.sqrt(d)
    return out


def numpy_form(points, out):
    return np.sqrt(((points[:, None, :] - points[None, :, :]) ** 2).sum(axis=-1))


def torch_form(points, out):
    return (points[:, None, :] - points[None, :, :]).square().sum(dim=-1).sqrt()


def work(points, out):
    return points.shape[0] ** 2


def args(scale=1.0):
    n = int(2000 * scale)
    rng = np.random.default_rng(0)
    return rng.random((n, 3)), np.empty((n, n))
