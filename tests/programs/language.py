"""Plain Python the corpora write and 0.2 refused (issue 39): `raise`, `else` on loops, layouts over lines."""

import math
from math import sqrt  # noqa: F401 (imports_again imports it again)

import numpy as np


class ConvergenceError(Exception):
    """A user's own exception, defined at module level as libraries do."""


# -- raise ---------------------------------------------------------------------------------------------------

def validated_factorial(n):
    if n < 0:
        raise ValueError("n must be >= 0")
    acc = 1.0
    for k in range(2, n + 1):
        acc *= k
    return acc


def sqrt_sum_of_nonnegative(x):
    s = 0.0
    for v in x:
        if v < 0:
            raise ValueError("negative input")
        s += math.sqrt(v)
    return s


def first_below_raises_with_index(x, lo):
    for i in range(len(x)):
        if x[i] < lo:
            raise ValueError("value below lo at index", i)
    return x.sum()


def newton_sqrt(a, steps):
    if a < 0:
        raise ValueError("math domain error")
    x = a if a > 1.0 else 1.0
    for _ in range(steps):
        nxt = 0.5 * (x + a / x)
        if abs(nxt - x) < 1e-12:
            return nxt
        x = nxt
    raise ConvergenceError("no convergence after", steps, "steps")


def sign_or_raise(x):
    if x > 0:
        m = 1
    elif x < 0:
        m = -1
    else:
        raise ZeroDivisionError("sign of zero")
    return m * 10


def check_symmetric(a):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            if a[i, j] != a[j, i]:
                raise ValueError("not symmetric")
    return np.trace(a)


def odd_raises_bare_class(n):
    if n % 2 == 1:
        raise IndexError
    return n // 2


def index_of_or_raise(x, v):
    for i in range(len(x)):
        if x[i] == v:
            return i
    raise LookupError("value not found")


def scaled_or_raise(x, out, k):
    for i in range(len(x)):
        if x[i] > k:
            raise OverflowError("value above the limit")
        out[i] = x[i] * 2.0
    return out


def asserted_mean(x):
    assert len(x) > 0, "empty input"
    return x.sum() / len(x)


# -- else on loops -----------------------------------------------------------------------------------------

def find_or_minus_one(x, v):
    for i in range(len(x)):
        if x[i] == v:
            break
    else:
        return -1
    return i


def is_prime(n):
    if n < 2:
        return False
    for d in range(2, int(math.sqrt(n)) + 1):
        if n % d == 0:
            break
    else:
        return True
    return False


def count_primes_below(n):
    count = 0
    for k in range(2, n):
        for d in range(2, k):
            if k % d == 0:
                break
        else:
            count += 1
    return count


def halve_until_multiple_of_seven(n):
    while n > 1:
        if n % 7 == 0:
            break
        n //= 2
    else:
        n = -n
    return n


def sum_doubled_without_break(x):
    s = 0.0
    for v in x:
        s += v
    else:
        s *= 2.0
    return s


def rows_without_zero(a):
    count = 0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            if a[i, j] == 0.0:
                break
        else:
            count += 1
    return count


def first_row_without_zero(a):
    row = -1
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            if a[i, j] == 0.0:
                break
        else:
            row = i
            break
    return row


def first_crossing(x, y):
    for i, (a, b) in enumerate(zip(x, y)):  # noqa: B007 (i is read after the loop)
        if a > b:
            break
    else:
        i = -1
    return i


def skip_negatives_else(x):
    s = 0.0
    for v in x:
        if v < 0:
            continue
        if v > 50:
            break
        s += v
    else:
        s = -s
    return s


def elif_break_in_for_else(x):
    n = 0
    for v in x:
        if v < -90:
            n += 100
        elif v > 90:
            break
        else:
            n += 1
    else:
        n = -n
    return n


# -- lists, comprehensions, generator expressions -------------------------------------------------------------

def squares_sum(n):
    xs = [i * i for i in range(n)]
    return sum(xs)


def positive_values(x):
    return [v for v in x if v > 0]


def comprehension_as_array(n):
    return np.array([i * 0.5 for i in range(n)])


def collect_then_array(x):
    out = []
    for v in x:
        if v > 0:
            out.append(v * 2.0)
    return np.array(out)


def nested_table(n):
    return [[i * j for j in range(3)] for i in range(n)]


def literal_lookup(k):
    weights = [0.5, 0.25, 0.125]
    return weights[k]


def literal_store(k):
    xs = [1, 2, 3]
    xs[k] = 7
    return xs


def pop_and_len(n):
    xs = [1, 2, 3, n]
    a = xs.pop()
    return a + len(xs)


def iterate_literal(n):
    s = 0
    for v in [3, 5, n]:
        s += v
    return s


def dot_generator(x, y):
    return sum(x[i] * y[i] for i in range(min(len(x), len(y))))


def any_all_generators(x, t):
    return any(v > t for v in x), all(v >= 0 for v in x)


def largest_magnitude(x):
    return max(abs(v) for v in x)


def parts_of_an_array(x):
    parts = [x[:2], x[2:]]
    return parts[1].sum() - parts[0].sum()


def repeated_then_filled(n):
    xs = [0.0] * n
    for i in range(n):
        xs[i] = i * 2.0
    return xs


def products_of_pairs(x, y):
    return [a * b for a, b in zip(x, y) if a != b]


def indexed_comprehension(x):
    return [(i, v) for i, v in enumerate(x) if v > 0]


# -- lambdas assigned to a name and called ---------------------------------------------------------------------

def lambda_square_sum(x):
    sq = lambda v: v * v  # noqa: E731 (the corpora's spelling)
    s = 0.0
    for i in range(len(x)):
        s += sq(x[i])
    return s


def lambda_late_binding(n):
    k = 2
    g = lambda v: v * k  # noqa: E731
    k = 3
    return g(n)


def lambda_calls_lambda(x):
    clip = lambda v, lo, hi: min(max(v, lo), hi)  # noqa: E731
    scale = lambda v: clip(v * 0.1, -1.0, 1.0)  # noqa: E731
    out = np.empty_like(x)
    for i in range(len(x)):
        out[i] = scale(x[i])
    return out


def lambda_in_a_conditional(x):
    sq = lambda v: v * v  # noqa: E731
    return sq(x[0] + 1.0) if len(x) > 0 else -1.0


# -- nested functions whose body is one return: closures over the enclosing function's locals ----------------

def nested_def_gaussian(x, sigma):
    def g(v):
        return math.exp(-(v * v) / (2.0 * sigma * sigma))

    out = np.empty_like(x)
    for i in range(len(x)):
        out[i] = g(x[i])
    return out


def nested_def_late_binding(n):
    k = 2

    def times_k(v: float) -> float:
        return v * k

    k = 5
    return times_k(n) + times_k(1)


def nested_defs_calling_each_other(x):
    def sq(v):
        return v * v

    def norm2(a, b):
        return sq(a) + sq(b)

    s = 0.0
    for i in range(len(x) - 1):
        s += norm2(x[i], x[i + 1])
    return s


def argmax_by_key(x):
    best = max(range(len(x)), key=lambda i: x[i])  # the first of equal keys; NaN keys compare as CPython's
    return best


def nearest_in_a_stepped_range(x, start, step):
    target = 0.5
    return min(range(start, len(x), step), key=lambda i: abs(x[i] - target))


def largest_magnitude_by_abs(x):
    m = max(x, key=abs)  # a builtin's name for the key: the first of -3.0 and 3.0
    return m


def row_of_largest_sum(rows):
    total = 0.0
    best = max(rows, key=lambda row: row.sum())
    total += best.sum()
    return total


def nested_def_with_statements(x, hi):
    def clamp(v, lo):
        if v < lo:
            return lo
        w = v * 2.0
        if w > hi:
            return hi
        return w

    out = np.empty_like(x)
    for i in range(len(x)):
        out[i] = clamp(x[i], -1.0)
    return out


def nested_def_with_a_loop(x):
    scale = 0.5

    def weighted(a, k):
        s = 0.0
        for v in a:
            if v < 0:
                continue
            s += v * scale
        return s / k

    total = weighted(x, 2.0)
    scale = 3.0  # read where the call runs: Python's late binding
    total += weighted(x[1:], 4.0)
    return total


def nested_def_writes_its_argument(x):
    def bump(a, i):
        if i >= len(a):
            raise IndexError("bump past the end")
        a[i] += 1.0

    for k in range(3):
        bump(x, k)
    return x


# -- dicts and sets of numbers ---------------------------------------------------------------------------------

def count_with_get(x):
    counts = {}
    for v in x:
        counts[v] = counts.get(v, 0) + 1  # the only store reads the dict: Numba could not type it
    most = 0
    for v in x:
        most = max(most, counts.get(v, 0))
    return len(counts), most, counts.get(1.0, -1)


def totals_with_an_int_default(x, m):
    totals = {}
    for i in range(len(x)):
        totals[i % m] = totals.get(i % m, 0) + x[i]  # the default an int, the stores floats: float values
    half = {}
    for v in x:
        half[v] = half.get(v, 0) + 0.5
    return totals.get(0, -1.0), half.get(1.0, -1.0), len(half)


def sums_by_remainder(x, m):
    sums = dict()
    for i in range(len(x)):
        sums[i % m] = sums.get(i % m, 0.0) + x[i]
    return sums.get(0, 0.0) + 2 * sums.get(1, 0.0)


def histogram_dict(x):
    counts = {}
    for v in x:
        k = int(v)
        if k in counts:
            counts[k] += 1
        else:
            counts[k] = 1
    total = 0
    for k, c in counts.items():
        total += k * c
    return total, len(counts), [k for k in counts], list(counts.values())


def squares_by_index(n):
    sq = {i: i * i for i in range(n) if i % 2 == 0}
    s = 0
    for k in sq.keys():
        s += sq[k] - k
    return s, len(sq), sq.get(4, -1), 3 in sq


def distinct_sorted(x):
    seen = set()
    for v in x:
        seen.add(int(v) % 5)
    return sorted(seen), len(seen), 2 in seen, {int(v) // 2 for v in x} == {0, 1}


def first_repeat(x):
    seen = set()
    for i in range(len(x)):
        if x[i] in seen:
            return i
        seen.add(x[i])
    return -1


def lookup_table(x):
    table = {0: 1.5, 1: -2.0, 2: 0.25}
    out = np.empty(len(x))
    for i in range(len(x)):
        out[i] = table.get(int(x[i]) % 4, 0.0) * x[i]
    return out


# -- a tuple where NumPy takes an array --------------------------------------------------------------------------

def check_mask(db, mask=(1, 0, 1)):
    out = np.zeros(db.shape[0], dtype=bool)
    for idx, line in enumerate(db):
        target, vector = line[0], line[1:]
        if (mask == np.bitwise_and(mask, vector)).all():
            if target == 1:
                out[idx] = 1
    return out


# -- NumPy through Python's builtins ---------------------------------------------------------------------------

def nearest_symbol(e, symbols):
    out = np.zeros(len(e), dtype=e.dtype)
    for i in range(len(e)):
        k = np.argmin(abs(e[i] - symbols) ** 2)
        out[i] = symbols[k]
    return out, abs(symbols)


def laplace_by_rolls(grid, dt):
    return grid + dt * (np.roll(grid, 1, axis=0) + np.roll(grid, -1, axis=0) + np.roll(grid, 1, axis=1)
                        + np.roll(grid, -1, axis=1) - 4 * grid)


def roll_along(a, k, axis):
    return np.roll(a, k, axis=axis)


def tile_reps(a, reps):
    return np.tile(a, reps)


def pairwise_differences_by_tile(x):
    n = len(x)
    t = np.tile(x, (n, 1))
    d = t - t.T
    d[d > 2.0] = d[d > 2.0] - 4.0
    return d


# -- imports inside the function (the module's own, again) ---------------------------------------------------

def imports_again(x):
    import math
    from math import sqrt  # noqa: F811 (the module's own sqrt, imported again as corpora do)

    import numpy as np
    return np.sum(x) + math.pi + sqrt(4.0)


# -- layouts ---------------------------------------------------------------------------------------------------

def broken_over_lines(x):
    out = np.empty_like(x)
    out[:] = (x * 2.0 +  # doubled
              1.0)
    total = x.sum() \
        + 1.0
    return (out,
            total,)
