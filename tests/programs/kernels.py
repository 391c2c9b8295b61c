"""Realistic numeric kernels: BLAS-like loops, scans, stencils, sorting, histograms, number theory."""
import math

import numpy as np


def saxpy(alpha, x, y):
    out = np.empty(len(x))
    for i in range(len(x)):
        out[i] = alpha * x[i] + y[i]
    return out


def prefix_sum(a):
    out = np.empty(len(a))
    acc = 0.0
    for i in range(len(a)):
        acc += a[i]
        out[i] = acc
    return out


def stencil3(a):
    n = len(a)
    out = a.copy()
    for i in range(1, n - 1):
        out[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1]
    return out


def escape_time(cr, ci, max_iter):
    zr = 0.0
    zi = 0.0
    for k in range(max_iter):
        zr2 = zr * zr
        zi2 = zi * zi
        if zr2 + zi2 > 4.0:
            return k
        zi = 2.0 * zr * zi + ci
        zr = zr2 - zi2 + cr
    return max_iter


def bubble_sort(a):
    b = a.copy()
    n = len(b)
    for i in range(n):
        swapped = False
        for j in range(n - 1 - i):
            if b[j] > b[j + 1]:
                b[j], b[j + 1] = b[j + 1], b[j]
                swapped = True
        if not swapped:
            break
    return b


def insertion_sort(a):
    b = a.copy()
    for i in range(1, len(b)):
        key = b[i]
        j = i - 1
        while j >= 0 and b[j] > key:
            b[j + 1] = b[j]
            j -= 1
        b[j + 1] = key
    return b


def histogram(a, nbins, lo, hi):
    counts = np.zeros(nbins, dtype=np.int64)
    width = (hi - lo) / nbins
    outside = 0
    for x in a:
        if lo <= x < hi:
            k = int((x - lo) / width)
            if k >= nbins:
                k = nbins - 1
            counts[k] += 1
        else:
            outside += 1
    return counts, outside


def matvec_loops(m, v):
    rows, cols = m.shape
    out = np.zeros(rows)
    for i in range(rows):
        acc = 0.0
        for j in range(cols):
            acc += m[i, j] * v[j]
        out[i] = acc
    return out


def pairwise_distances(p):
    n = p.shape[0]
    d = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            dx = p[i, 0] - p[j, 0]
            dy = p[i, 1] - p[j, 1]
            dz = p[i, 2] - p[j, 2]
            r = math.sqrt(dx * dx + dy * dy + dz * dz)
            d[i, j] = r
            d[j, i] = r
    return d


def running_max(a):
    out = np.empty(len(a))
    if len(a) == 0:
        return out
    cur = a[0]
    for i in range(len(a)):
        if a[i] > cur:
            cur = a[i]
        out[i] = cur
    return out


def count_sign_changes(a):
    count = 0
    prev = 0.0
    for x in a:
        if x != 0.0:
            if prev != 0.0 and (x > 0.0) != (prev > 0.0):
                count += 1
            prev = x
    return count


def gcd(a, b):
    a = abs(a)
    b = abs(b)
    while b != 0:
        a, b = b, a % b
    return a


def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def horner(coeffs, x):
    acc = 0.0
    for c in coeffs:
        acc = acc * x + c
    return acc


def argmax_early_exit(a, cap):
    # Index of the maximum, or of the first element >= cap if one exists.
    if len(a) == 0:
        return -1
    best_i = 0
    for i in range(len(a)):
        if a[i] >= cap:
            return i
        if a[i] > a[best_i]:
            best_i = i
    return best_i


def binary_search(sorted_a, target):
    lo = 0
    hi = len(sorted_a)
    while lo < hi:
        mid = (lo + hi) // 2
        if sorted_a[mid] < target:
            lo = mid + 1
        else:
            hi = mid
    found = lo < len(sorted_a) and sorted_a[lo] == target
    return lo, found


def count_primes_below(n):
    if n < 3:
        return 0
    is_prime = np.ones(n)
    is_prime[0] = 0.0
    is_prime[1] = 0.0
    i = 2
    while i * i < n:
        if is_prime[i] == 1.0:
            for j in range(i * i, n, i):
                is_prime[j] = 0.0
        i += 1
    count = 0
    for flag in is_prime:
        if flag == 1.0:
            count += 1
    return count


def moving_average(a, w):
    n_out = len(a) - w + 1
    if n_out <= 0:
        return np.zeros(0)
    out = np.empty(n_out)
    acc = 0.0
    for i in range(w):
        acc += a[i]
    out[0] = acc / w
    for i in range(1, n_out):
        acc += a[i + w - 1] - a[i - 1]
        out[i] = acc / w
    return out


def trapezoid_gaussian(lo, hi, n):
    h = (hi - lo) / n
    total = 0.5 * (math.exp(-lo * lo) + math.exp(-hi * hi))
    for k in range(1, n):
        x = lo + k * h
        total += math.exp(-x * x)
    return total * h
