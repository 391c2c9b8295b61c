"""Programs on float32, int32 and uint8 data: NumPy 2 keeps these widths (NEP 50: a Python scalar never widens
an array or a NumPy scalar), so a result that comes back wider is a wrong type even when the values agree."""
import numpy as np


def f32_saxpy(alpha, x, y):
    out = np.empty_like(x)
    for i in range(len(x)):
        out[i] = alpha * x[i] + y[i]
    return out


def f32_array_sum(x):
    return np.sum(x)


def f32_max_and_dot(x, y):
    return np.max(x), np.dot(x, y)


def f32_element(x):
    return x[0] * x[-1]


def f32_loop_sum(x):
    s = 0.0
    for v in x:
        s += v
    return s


def f32_scaled(x):
    return x * 2.0


def f32_mean(x):
    return np.mean(x)


def i32_copy_plus_one(x):
    out = x.copy()
    for i in range(len(out)):
        out[i] += 1
    return out


def i32_array_sum(x):
    return np.sum(x)


def i32_loop_sum(x):
    s = 0
    for v in x:
        s += v
    return s


def i32_plus_literal(x):
    return x + 1


def u8_add_arrays(a, b):
    return a + b


def u8_element_sum(a, b):
    return a[0] + b[0]


def u8_histogram(a):
    counts = np.zeros(256, dtype=np.int64)
    for v in a:
        counts[v] += 1
    return counts
