"""a·x + y over 10M bfloat16 values, computed in float32: storage in bf16, arithmetic in fp32.

NumPy and Numba have no bfloat16 type. `args` returns float32 arrays whose values are exactly representable in
bf16 (what plain Python computes on, at a reduced size); `torch_args` stores them as bf16 tensors, which is what
the torch forms and Cuvil's `precision="bf16"` take.
"""

import numpy as np

try:
    import torch
except ImportError:  # the loop form needs no torch
    torch = None

PYTHON_SCALE = 0.01  # plain Python runs on 100k elements
PRECISION = "bf16"  # the cuvil.jit precision this kernel asks for


def bf16_axpy(a, x, y, out):
    for i in range(len(x)):
        out[i] = a * x[i] + y[i]
    return out


def torch_form(a, x, y, out):
    return (a * x.float() + y.float()).to(torch.bfloat16)


def work(a, x, y, out):
    return len(x)


def _bf16_values(values):
    """float32 values rounded to the nearest bfloat16 (round half to even on the upper 16 bits)."""
    bits = values.astype(np.float32).view(np.uint32)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return rounded.astype(np.uint32).view(np.float32)


def args(scale=1.0):
    n = int(10_000_000 * scale)
    rng = np.random.default_rng(0)
    x, y = _bf16_values(rng.standard_normal(n)), _bf16_values(rng.standard_normal(n))
    return 1.5, x, y, np.empty_like(x)


def torch_args(a, x, y, out):
    bf16 = torch.bfloat16
    return a, torch.from_numpy(x).to(bf16), torch.from_numpy(y).to(bf16), torch.from_numpy(out).to(bf16)
