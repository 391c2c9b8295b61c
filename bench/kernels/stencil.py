"""1-D 3-point stencil, repeated: two sweeps per step through a scratch array."""

import numpy as np


def stencil(u, steps, tmp):
    for _ in range(steps):
        for i in range(1, len(u) - 1):
            tmp[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1]
        for i in range(1, len(u) - 1):
            u[i] = tmp[i]
    return u


def args(scale=1.0):
    n = int(1_000_000 * scale)
    return np.random.default_rng(0).random(n), 100, np.empty(n)
