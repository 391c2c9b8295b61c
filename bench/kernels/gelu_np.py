"""GELU (tanh approximation) over 10M float32 values, written as a NumPy user writes it (`x ** 3` included):
Cuvil lowers the array expression to one fused loop; NumPy evaluates it as a chain of temporaries."""

import numpy as np

try:
    import torch
except ImportError:  # the NumPy forms need no torch
    torch = None

PYTHON_SCALE = 1.0  # the "loop form" is NumPy code: plain Python runs it at full size


def gelu_np(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))


prange_form = gelu_np  # Numba's parallel=True parallelizes array expressions itself


def numpy_form(x):
    """NumPy's fastest spelling: `x * x * x` (float32 `x ** 3` calls powf per element), in-place steps."""
    inner = x * x
    inner *= x
    inner *= np.float32(0.044715)
    inner += x
    inner *= np.float32(0.7978845608)
    np.tanh(inner, out=inner)
    inner += np.float32(1.0)
    inner *= x
    inner *= np.float32(0.5)
    return inner


def torch_form(x):
    return 0.5 * x * (1.0 + torch.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))


def work(x):
    return x.size


def args(scale=1.0):
    return (np.random.default_rng(0).standard_normal(int(10_000_000 * scale), dtype=np.float32),)
