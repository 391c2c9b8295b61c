"""Control flow: if/elif chains, ternary, and/or/not, chained compares, while/break/continue, early return."""


def classify_sign(x):
    if x < 0:
        return -1
    elif x == 0:
        return 0
    elif x < 10:
        return 1
    else:
        return 2


def grade(score):
    g = 0
    if score >= 90.0:
        g = 4
    elif score >= 80.0:
        g = 3
    elif score >= 70.0:
        g = 2
    elif score >= 60.0:
        g = 1
    return g


def clip_ternary(x, lo, hi):
    y = lo if x < lo else x
    return hi if y > hi else y


def bool_logic(x, y):
    both = x > 0 and y > 0
    either = x > 0 or y < 0
    neither = not (x > 0 or y > 0)
    return both, either, neither


def pick_first_truthy(a, b, c):
    # `or` returns an operand, not a bool.
    return a or b or c


def pick_and(a, b):
    # `and` returns the first falsy operand, else the last one.
    return a and b


def count_in_half_open_range(a, lo, hi):
    count = 0
    for x in a:
        if lo <= x < hi:
            count += 1
    return count


def count_leading_positive(a):
    # Relies on short-circuit `and` to avoid indexing past the end.
    i = 0
    while i < len(a) and a[i] > 0.0:
        i += 1
    return i


def sum_skipping_multiples(n):
    i = 0
    total = 0
    while True:
        i += 1
        if i > n:
            break
        if i % 3 == 0 or i % 5 == 0:
            continue
        total += i
    return total


def first_index_above(a, threshold):
    for i in range(len(a)):
        if a[i] > threshold:
            return i
    return -1


def first_power_exceeding(base, limit):
    p = 1
    k = 0
    while p <= limit:
        p *= base
        k += 1
    return k, p


def find_pair_with_sum(a, target):
    found_i = -1
    found_j = -1
    for i in range(len(a)):
        for j in range(i + 1, len(a)):
            if a[i] + a[j] == target:
                found_i = i
                found_j = j
                break
        if found_i >= 0:
            break
    return found_i, found_j


def sum_nonnegative_with_continue(a):
    total = 0.0
    skipped = 0
    for x in a:
        if x < 0.0:
            skipped += 1
            continue
        total += x
    return total, skipped


def piecewise(x):
    if x < -1.0 or x > 1.0:
        if not x > 0.0:
            return -1.0
        return 1.0
    elif -0.5 < x < 0.5 and x != 0.0:
        return x * 2.0
    return x
