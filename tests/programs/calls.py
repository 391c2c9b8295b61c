"""Calls: @cuvil.jit calling @cuvil.jit, and entry points calling plain helpers (nested, defaults, arrays)."""
import math

import numpy as np

import cuvil


@cuvil.jit
def clamp_jit(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


@cuvil.jit
def clamped_sum_jit(a, lo, hi):
    # A jitted function calling another jitted function.
    total = 0.0
    for x in a:
        total += clamp_jit(x, lo, hi)
    return total


def square(x):
    return x * x


def hypot_squared(x, y):
    # Plain helper calling another plain helper.
    return square(x) + square(y)


def scale(x, factor=2.0):
    return x * factor


def positive_negative_sums(a):
    pos = 0.0
    neg = 0.0
    for x in a:
        if x > 0.0:
            pos += x
        else:
            neg += x
    return pos, neg


def doubled(a):
    out = np.empty(len(a))
    for i in range(len(a)):
        out[i] = scale(a[i])
    return out


def fill_arithmetic(out, start, step):
    # Helper that writes into an array owned by the caller.
    for i in range(len(out)):
        out[i] = start + i * step


def clamped_mean(a, lo, hi):
    # Undecorated entry calling the jitted chain.
    if len(a) == 0:
        return 0.0
    return clamped_sum_jit(a, lo, hi) / len(a)


def sum_of_lengths(a, b):
    total = 0.0
    for i in range(len(a)):
        total += math.sqrt(hypot_squared(a[i], b[i]))
    return scale(total) + scale(total, 0.5)


def balance_ratio(a):
    pos, neg = positive_negative_sums(a)
    if pos - neg == 0.0:
        return 0.0
    return (pos + neg) / (pos - neg)


def double_then_stats(a):
    b = doubled(a)
    pos, neg = positive_negative_sums(b)
    return b, pos, neg


def arithmetic_sequence(n, start, step):
    out = np.zeros(n)
    fill_arithmetic(out, start, step)
    return out


def nested_calls(x):
    return scale(square(scale(x, 0.5))) + hypot_squared(square(x), x)


def poly_with_defaults(x, c=3, d=0.5):
    # Entry point with default parameters (harness passes 1, 2 or 3 args).
    return c * x * x + d * x + clamp_jit(x, -1.0, 1.0)
