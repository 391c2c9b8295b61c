"""`cuvil.fp16(v)`, `cuvil.bf16(v)`, `cuvil.fp32(v)`: explicit precision in user code, and annotations.

    acc: cuvil.fp32 = 0.0              # an fp32 accumulator, whatever the halves around it
    y[i] = cuvil.bf16(acc * scale)     # round here, on purpose: no PrecisionWarning

In compiled code each is a conversion that lower/precision.py writes (round to the half, or to float32); these
objects are what runs in plain Python (`fn.py_func`, CUVIL_DISABLE_JIT=1), with the same values: fp16 as
NumPy's float16, bf16 as torch's bfloat16 (round to nearest, ties to even), returned as a float32 that holds
the bf16 value exactly (NumPy has no bfloat16). Arrays and torch tensors convert elementwise.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

__all__ = ["bf16", "fp16", "fp32"]


class _Cast:
    """A named conversion: an object, not a plain function, so that the compiler binds it as a library name
    (codegen/bindings.py) instead of compiling its Python body as a helper."""

    def __init__(self, name: str, doc: str):
        self.__name__ = self.__qualname__ = name
        self.__module__ = __name__
        self.__doc__ = doc

    def __repr__(self) -> str:
        return f"cuvil.{self.__name__}"

    def __call__(self, value: Any) -> Any:
        torch = sys.modules.get("torch")
        if torch is not None and isinstance(value, torch.Tensor):
            return value.to({"fp16": torch.float16, "bf16": torch.bfloat16, "fp32": torch.float32}[self.__name__])
        if self.__name__ == "fp16":
            return np.float16(value) if np.ndim(value) == 0 else np.asarray(value).astype(np.float16)
        as32 = np.asarray(value, np.float32) if np.ndim(value) else np.float32(value)
        if self.__name__ == "fp32":
            return as32
        return _round_bf16(as32)


def _round_bf16(values: Any) -> Any:
    bits = np.asarray(values, np.float32).view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
    nan = np.isnan(np.asarray(values, np.float32))
    out = np.where(nan, ((bits >> 16) | 0x40) << 16, rounded).astype(np.uint32).view(np.float32)
    return out if np.ndim(values) else np.float32(out)


fp16 = _Cast("fp16", "`value` rounded to IEEE half precision (NumPy's float16), round to nearest even.")
bf16 = _Cast("bf16", "`value` rounded to bfloat16 (torch's), round to nearest even; a float32 holding it.")
fp32 = _Cast("fp32", "`value` as float32: in an annotation, the type a name keeps (`acc: cuvil.fp32 = 0.0`).")
