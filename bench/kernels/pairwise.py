"""Pairwise Euclidean distances of n points in 3-D."""

import math

import numpy as np


def pairwise(points, out):
    n = points.shape[0]
    for i in range(n):
        for j in range(n):
            d = 0.0
            for k in range(points.shape[1]):
                t = points[i, k] - points[j, k]
                d += t * t
            out[i, j] = math.sqrt(d)
    return out


def args(scale=1.0):
    n = int(2000 * scale)
    rng = np.random.default_rng(0)
    return rng.random((n, 3)), np.empty((n, n))
