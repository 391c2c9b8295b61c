"""Counting loops: range with start/stop/step, nested loops, index-based array access."""
import numpy as np


def sum_of_squares_below(n):
    total = 0
    for i in range(n):
        total += i * i
    return total


def range_step_sum(start, stop, step):
    total = 0
    count = 0
    for i in range(start, stop, step):
        total += i
        count += 1
    return total, count


def triangle_pairs(n):
    total = 0
    for i in range(n):
        for j in range(i):
            total += i * j - j
    return total


def sum_by_index(a):
    total = 0.0
    for i in range(len(a)):
        total += a[i]
    return total


def reverse_weighted_sum(a):
    total = 0.0
    w = 1.0
    for i in range(len(a) - 1, -1, -1):
        total += w * a[i]
        w *= 0.5
    return total


def count_multiples(n, k):
    count = 0
    for i in range(1, n + 1):
        if i % k == 0:
            count += 1
    return count


def fill_squares(n):
    out = np.zeros(n)
    for i in range(n):
        out[i] = i * i
    return out


def nested_grid(rows, cols):
    grid = np.zeros((rows, cols))
    for i in range(rows):
        for j in range(cols):
            grid[i, j] = (i + 1) * (j - 2)
    return grid


def loop_var_reassigned(n):
    # Rebinding the loop variable must not change the iteration sequence.
    total = 0
    for i in range(n):
        i = i * 2 + 1
        total += i
    return total


def range_bound_evaluated_once(n):
    # range(n) is evaluated once; shrinking n inside the body has no effect.
    steps = 0
    for _ in range(n):
        n -= 1
        steps += 1
    return steps, n
