"""Python number semantics: // and % on negatives, abs, **, true division, int/float mixing, bool math."""


def floor_div_mod(a, b):
    q = a // b
    r = a % b
    return q, r, q * b + r == a


def float_floor_div_mod(x, y):
    return x // y, x % y


def true_division(a, b):
    return a / b, -a / b, (a + 1) / 2


def mixed_int_float(n, x):
    return n * x + n // 3 - x / (abs(n) + 1) + n / 4


def int_power(b, e):
    return b ** e, b ** 2 - e ** 3


def float_negative_power(b, e):
    # Cuvil rejects int ** negative int (its result type depends on a value); a float base is fine.
    return float(b) ** -e, 2.0 ** -e


def truncated_division(a, b):
    # C-style truncation built from Python floor division.
    q = abs(a) // abs(b)
    if (a < 0) != (b < 0):
        q = -q
    return q, a - q * b


def digit_sum(n):
    n = abs(n)
    s = 0
    while n > 0:
        s += n % 10
        n //= 10
    return s


def bool_arithmetic(a, threshold):
    count = 0
    for x in a:
        count += x > threshold
    flag = (count > 2) + (count > 5) * 2 + True
    return count, flag


def bucket_code_sum(a, width):
    acc = 0
    for x in a:
        acc += (x // width) * 3 + x % width
    return acc


def abs_diff_sum(a):
    total = 0
    for i in range(1, len(a)):
        total += abs(a[i] - a[i - 1])
    return total


def int_mean(a):
    if len(a) == 0:
        return 0.0
    total = 0
    for x in a:
        total += x
    return total / len(a)


def negative_modulus_cycle(n, m):
    # Walks backwards around a cycle of length m (m may be negative).
    pos = 0
    visits = 0
    for k in range(n):
        pos = (pos - k) % m
        visits += pos
    return visits, pos
