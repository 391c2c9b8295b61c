"""1-D 3-point stencil, repeated: two sweeps per step through a scratch array."""

import numba
import numpy as np

from cuvil.demo import stencil  # noqa: F401 (the loop form: one copy, shared with `cuvil demo`)

PYTHON_SCALE = 0.005  # plain Python runs on 5k points, all 100 steps


def prange_form(u, steps, tmp):
    for _ in range(steps):
        for i in numba.prange(1, len(u) - 1):
            tmp[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1]
        for i in numba.prange(1, len(u) - 1):
            u[i] = tmp[i]
    return u


def numpy_form(u, steps, tmp):
    for _ in range(steps):
        u[1:-1] = 0.25 * u[:-2] + 0.5 * u[1:-1] + 0.25 * u[2:]
    return u


def torch_form(u, steps, tmp):
    for _ in range(steps):
        u[1:-1] = 0.25 * u[:-2] + 0.5 * u[1:-1] + 0.25 * u[2:]
    return u


def work(u, steps, tmp):
    return len(u) * steps


def args(scale=1.0):
    n = int(1_000_000 * scale)
    return np.random.default_rng(0).random(n), 100, np.empty(n)
