"""Tuples: returning tuples, unpacking (flat and nested), swaps, tuple indexing, tuples holding arrays."""


def min_max(a):
    lo = a[0]
    hi = a[0]
    for x in a:
        if x < lo:
            lo = x
        if x > hi:
            hi = x
    return lo, hi


def sort_two(a, b):
    if a > b:
        a, b = b, a
    return a, b


def sort_three(a, b, c):
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    return a, b, c


def fibonacci(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def rotate_triple(x, y, z, k):
    for _ in range(k):
        x, y, z = y, z, x
    return x, y, z


def mean_and_variance(a):
    n = len(a)
    mean = 0.0
    for x in a:
        mean += x
    mean = mean / n
    var = 0.0
    for x in a:
        var += (x - mean) * (x - mean)
    return mean, var / n


def tuple_through_variable(x, y):
    t = (x + y, x - y, x * y)
    s, d, p = t
    return t[0] * 2 + t[2], (s, d), p


def nested_unpack(x, y, z):
    pair = ((x, y), z)
    (a, b), c = pair
    return a * c - b


def clamp_negatives(a):
    # Returns an (array, int) tuple.
    out = a.copy()
    count = 0
    for i in range(len(out)):
        if out[i] < 0.0:
            out[i] = 0.0
            count += 1
    return out, count


def extended_gcd(a, b):
    old_r, r = a, b
    old_s, s = 1, 0
    old_t, t = 0, 1
    while r != 0:
        q = old_r // r
        old_r, r = r, old_r - q * r
        old_s, s = s, old_s - q * s
        old_t, t = t, old_t - q * t
    return old_r, old_s, old_t
