"""Iteration: for-in over 1-D arrays, slices, 2-D rows; enumerate(+start); zip of 2 and 3; enumerate(zip)."""
# zip() without strict= is deliberate: these programs test plain-Python zip semantics.
# ruff: noqa: B905
import numpy as np


def sum_elements(a):
    total = 0.0
    for x in a:
        total += x
    return total


def count_even(a):
    count = 0
    for x in a:
        if x % 2 == 0:
            count += 1
    return count


def reversed_weighted(a):
    out = np.zeros(len(a))
    k = 0
    for x in a[::-1]:
        out[k] = x * (k + 1)
        k += 1
    return out


def strided_sums(a):
    even = 0.0
    for x in a[::2]:
        even += x
    odd = 0.0
    for x in a[1::2]:
        odd += x
    return even, odd


def row_sums(m):
    out = np.zeros(m.shape[0])
    for i, row in enumerate(m):
        s = 0.0
        for v in row:
            s += v
        out[i] = s
    return out


def row_first_times_last(m):
    total = 0.0
    for row in m:
        total += row[0] * row[-1]
    return total


def zero_first_column(m):
    # Rows of a 2-D array are views: writing through them updates the copy.
    c = m.copy()
    for row in c:
        row[0] = 0.0
    return c


def weighted_sum_from_one(a):
    total = 0.0
    for i, x in enumerate(a, 1):
        total += i * x
    return total


def argmin_enumerate(a):
    best_i = 0
    best = a[0]
    for i, x in enumerate(a):
        if x < best:
            best = x
            best_i = i
    return best_i


def dot_zip(a, b):
    total = 0.0
    for x, y in zip(a, b):
        total += x * y
    return total


def zip_stops_at_shortest(a, b):
    count = 0
    total = 0.0
    for x, y in zip(a, b):
        total += x - y
        count += 1
    return count, total


def fma_zip3(a, b, c):
    out = np.empty(len(a))
    i = 0
    for x, y, z in zip(a, b, c):
        out[i] = x * y + z
        i += 1
    return out


def elementwise_max_enumerate_zip(a, b):
    out = np.zeros(len(a))
    for i, (x, y) in enumerate(zip(a, b)):
        out[i] = x if x > y else y
    return out


def crossing_index_sum(a, b):
    # enumerate with a start over zip, nested tuple target.
    total = 0
    prev_above = False
    for i, (x, y) in enumerate(zip(a, b), 10):
        above = x > y
        if above != prev_above:
            total += i
        prev_above = above
    return total


def rows_times_weights(m, w):
    # zip over the rows of a 2-D array and a 1-D array.
    out = np.zeros(m.shape[1])
    for row, wi in zip(m, w):
        for j in range(len(row)):
            out[j] += wi * row[j]
    return out
