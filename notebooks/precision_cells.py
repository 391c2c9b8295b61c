"""Cells of notebooks/05_mixed_precision.ipynb (built by notebooks/build.py): fp16 and bf16 storage, fp32 compute."""

MIXED_PRECISION = [
    ("md", """# Mixed precision: fp16 and bf16 storage, fp32 compute

Numba's CPU target has no float16 and no bfloat16. Cuvil passes half-precision arrays — NumPy `float16`, torch
`float16` and `bfloat16` tensors — as their 16-bit patterns, and the generated code converts each element it
loads and stores (bit for bit as NumPy and torch convert). You choose what happens in between:

* `precision=None` (the default): NumPy's and torch eager's rule — every operation on halves gives a half,
  rounded to the nearest;
* `precision="fp16"`, `"bf16"` or `"fp32"`: loads widen to float32, all arithmetic and accumulators stay in
  float32, and only the store into a half array rounds."""),
    ("code", """import warnings
import numpy as np
import torch
import cuvil

def gelu(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x**3)))

x16 = np.linspace(-4, 4, 1001).astype(np.float16)"""),
    ("md", """Without a policy, a float16 array gives NumPy's float16 answer — the same bits, with each of the
expression's ten operations rounded to float16 on the way."""),
    ("code", """numpy_like = cuvil.jit(gelu)
assert np.array_equal(numpy_like(x16).view(np.uint16), gelu(x16).view(np.uint16))
numpy_like(x16)[:4]"""),
    ("md", """With `precision="fp16"` the same source computes in float32 and rounds once, at the store: the
result is the float32 GELU rounded to float16, which is closer to the exact value."""),
    ("code", """mixed = cuvil.jit(gelu, precision="fp16")
exact = gelu(x16.astype(np.float64))
err_numpy = np.abs(gelu(x16).astype(np.float64) - exact).max()
err_mixed = np.abs(mixed(x16).astype(np.float64) - exact).max()
assert mixed(x16).dtype == np.float16 and err_mixed <= err_numpy
print(f"largest error: NumPy float16 {err_numpy:.2e}, Cuvil fp16 storage + fp32 compute {err_mixed:.2e}")"""),
    ("md", """The generated kernel shows how: `f16_to_f32` on each load, float32 arithmetic (the vectorized
`tanh_f32`), one `f16(...)` rounding per store."""),
    ("code", """print(mixed.source("kernel").split("\\n\\n\\n")[-1])"""),
    ("md", """## bfloat16 tensors

torch `bfloat16` tensors come in without a copy and results go back as `bfloat16` tensors. With
`precision="bf16"` the result equals the float32 computation rounded once to bf16."""),
    ("code", """xb = torch.linspace(-4, 4, 1001).to(torch.bfloat16)
bf = cuvil.jit(gelu, precision="bf16")
out = bf(xb)
reference = torch.from_numpy(gelu(xb.float().numpy())).to(torch.bfloat16)
assert out.dtype == torch.bfloat16
assert (out.float() - reference.float()).abs().max() <= 2 ** -7 * reference.float().abs().max()
out[:4]"""),
    ("md", """## Where precision is lost silently, Cuvil says so

A `PrecisionWarning` points at your line for an implicit narrowing store, a bf16 value mixed with a float64
literal or array, and a half-precision accumulator in a loop (each update rounds: a long sum stops growing)."""),
    ("code", """@cuvil.jit
def total(x):
    s = x[0] * 0
    for i in range(len(x)):
        s += x[i]
    return s

ones = np.ones(4096, np.float16)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    half_sum = total(ones)
assert [w.category for w in caught] == [cuvil.PrecisionWarning]
print(caught[0].message)
half_sum  # NumPy's answer too: a float16 accumulator stops at 2048"""),
    ("md", """`cuvil.fp32(v)`, `cuvil.fp16(v)` and `cuvil.bf16(v)` convert on purpose, with no warning, and run as
plain Python too: `s = cuvil.fp32(0.0)` keeps the accumulator in float32 compiled and in `py_func` alike. The
annotation `s: cuvil.fp32 = 0.0` compiles the same, but plain Python ignores annotations."""),
    ("code", """@cuvil.jit
def total32(x):
    s = cuvil.fp32(0.0)
    for i in range(len(x)):
        s += x[i]
    return s

@cuvil.jit
def annotated(x):
    s: cuvil.fp32 = 0.0
    for i in range(len(x)):
        s += x[i]
    return s

assert total32(ones) == total32.py_func(ones) == annotated(ones) == 4096
assert annotated.py_func(ones) == 2048  # Python ran s = 0.0; s += np.float16(...): a float16 sum
total32(ones)"""),
]
