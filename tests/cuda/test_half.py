"""Half precision on target="cuda" (issue 12): the same storage as on the CPU (uint16 bits, float32 values), so a
kernel's result equals the CPU variant's bit for bit, with NumPy's per-operation rounding and with the policy."""

import numpy as np
import pytest
import torch

import cuvil
from tests.cuda.test_kernels import expression, gelu, saxpy


def bits(a):
    return a.view(torch.int16).numpy().view(np.uint16) if isinstance(a, torch.Tensor) else a.view(np.uint16)


def halves(dtype: str, n: int = 300):
    values = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    return values.astype(np.float16) if dtype == "float16" else torch.from_numpy(values).to(torch.bfloat16)


def empty_like(x):
    return x.clone() * 0 if isinstance(x, torch.Tensor) else np.zeros_like(x)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("precision", [None, "fp32"])
def test_kernels_on_halves_equal_the_cpu_variant(dtype, precision):
    x, y = halves(dtype), halves(dtype, 600)[300:]
    for fn, args in ((gelu, lambda: (x, empty_like(x))), (saxpy, lambda: (1.5, x, y, empty_like(x))),
                     (expression, lambda: (x, y))):
        cpu = cuvil.jit(fn, precision=precision)(*args())
        for call in range(2):  # first call, then a guard hit
            gpu = cuvil.jit(fn, target="cuda", precision=precision)(*args())
            assert type(gpu) is type(cpu) and gpu.dtype == cpu.dtype and gpu.shape == cpu.shape
            assert np.array_equal(bits(gpu), bits(cpu)), (fn.__name__, call)


def test_saxpy_on_float16_in_place_equals_numpy():
    x = halves("float16")
    out = np.zeros_like(x)
    got = cuvil.jit(saxpy, target="cuda")(1.5, x, x, out)
    assert got is out and np.array_equal(bits(out), bits(saxpy(1.5, x, x, np.zeros_like(x))))
