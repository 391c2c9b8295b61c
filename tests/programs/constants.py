"""Module-level constants (ints, floats, bools, tuples) read inside functions."""
import numpy as np

SCALE = 3
OFFSET = 0.5
GRAVITY = 9.81
MAX_STEPS = 40
USE_DRAG = True
LIMITS = (-10.0, 10.0)
COEFFS = (2.0, -3.0, 0.5, 1.0)
WEIGHTS = (1, 2, 3, 2, 1)
SMOOTHING = np.array([0.25, 0.5, 0.25])


def scale_and_offset(a):
    out = np.empty(len(a))
    for i in range(len(a)):
        out[i] = a[i] * SCALE + OFFSET
    return out


def clamp_to_limits(x):
    lo, hi = LIMITS
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


def poly_from_constants(x):
    acc = 0.0
    for i in range(len(COEFFS)):
        acc = acc * x + COEFFS[i]
    return acc


def weighted_window(a):
    m = len(WEIGHTS)
    n_out = len(a) - m + 1
    if n_out < 0:
        n_out = 0
    out = np.zeros(n_out)
    for i in range(n_out):
        acc = 0.0
        for k in range(m):
            acc += WEIGHTS[k] * a[i + k]
        out[i] = acc
    return out


def projectile_height(v0, t):
    h = v0 * t - 0.5 * GRAVITY * t * t
    if USE_DRAG:
        h = h * 0.9
    return h if h > 0.0 else 0.0


def halve_until_small(x):
    steps = 0
    while steps < MAX_STEPS and abs(x) > OFFSET:
        x = x / 2.0
        steps += 1
    return steps, x


def scaled_int_sum(n):
    total = 0
    for i in range(n):
        total += (i % SCALE) * WEIGHTS[i % len(WEIGHTS)]
    return total


def smooth_with_array_constant(a):
    out = a.copy()
    for i in range(1, len(a) - 1):
        acc = 0.0
        for k in range(len(SMOOTHING)):
            acc += SMOOTHING[k] * a[i - 1 + k]
        out[i] = acc
    return out
