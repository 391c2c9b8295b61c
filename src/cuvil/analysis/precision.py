"""What half precision means in one compiled variant: which half its arrays hold, and what it computes in.

- `storage`: "float16" (IEEE fp16, NumPy's float16) or "bfloat16" (torch's bf16). A variant holds one of them:
  the half arguments' (torch.bfloat16 tensors make it bf16), else the `precision` option's, else NumPy's
  float16 (which NumPy itself gives for some operations on small integers, `np.exp(uint8_array)`).
- `compute`: None follows NumPy and torch eager — every operation on halves gives a half, rounded to the
  nearest, ties to even; "float32" is the mixed-precision policy (`precision="fp16" | "bf16" | "fp32"`): loads
  widen to float32, arithmetic and accumulators stay float32, only stores into half arrays round.

Inside the analyses both halves are spelled "float16": the promotion rules are NumPy's float16 rules for either
(torch agrees for bf16 with floats and with 8-bit integers; it keeps bf16 where NumPy goes to float32 with
wider integers — `bf16_tensor + int32_tensor` — a difference the README states), and a variant never holds
both. lower/precision.py writes the conversions; runtime/half.py has them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from .types import Array, Scalar, Tuple, Type

HALVES = ("float16", "bfloat16")
_OPTION_STORAGE = {"fp16": "float16", "bf16": "bfloat16"}


class PrecisionError(ValueError):
    """The arguments contradict the precision a function was compiled for (the message names the argument)."""

    def __init__(self, message: str, argument: str):
        super().__init__(message)
        self.argument = argument


@dataclasses.dataclass(frozen=True)
class Precision:
    storage: str = "float16"
    compute: str | None = None  # None: NumPy's rounding after every operation; "float32": the policy

    @property
    def policy(self) -> bool:
        return self.compute is not None

    @classmethod
    def of(cls, option: str | None, params: Sequence[str], args: Sequence[Type]) -> Precision:
        found = {name: h for name, t in zip(params, args) for h in _halves(t)}
        storages = sorted(set(found.values()))
        if len(storages) > 1:
            name = next(n for n, h in found.items() if h == "bfloat16")
            raise PrecisionError(f"argument '{name}' is bfloat16 while others are float16; a compiled function "
                                 "holds one half-precision type: convert one of them", name)
        wanted = _OPTION_STORAGE.get(option or "")
        if storages and wanted and storages[0] != wanted:
            name = next(iter(found))
            raise PrecisionError(f"argument '{name}' is {storages[0]}, but the function was compiled with "
                                 f"precision={option!r} ({wanted}); pass {name} as {wanted}, or use "
                                 "precision='fp32' (float32 compute, any half storage)", name)
        storage = storages[0] if storages else wanted or "float16"
        return cls(storage, "float32" if option else None)

    def logical(self, t: Type) -> Type:
        """`t` as the analyses see it: either half is "float16"."""
        if isinstance(t, Array) and t.dtype == "bfloat16":
            return Array("float16", t.ndim)
        if isinstance(t, Tuple):
            return Tuple(tuple(self.logical(i) for i in t.items))
        return t

    def actual(self, t: Type) -> Type:
        """`t` as the user sees it: "float16" is the variant's half."""
        if isinstance(t, Array) and t.dtype == "float16":
            return Array(self.storage, t.ndim)
        if isinstance(t, Tuple):
            return Tuple(tuple(self.actual(i) for i in t.items))
        return t

    def result(self, t: Type) -> str:
        """The entry's result as runtime/adapters.py turns it back into halves: a Python literal of nested
        tuples of "A:<half>" (an array of halves), "S:<half>" (a half value) and "-" (anything else); "" when
        nothing in it is half."""
        def walk(t: Type) -> object:
            if isinstance(t, Tuple):
                return tuple(walk(i) for i in t.items)
            if isinstance(t, Array | Scalar) and t.dtype == "float16":
                return f"{'A' if isinstance(t, Array) else 'S'}:{self.storage}"
            return "-"

        found = walk(t)
        return repr(found) if ":" in repr(found) else ""

    @property
    def short(self) -> str:
        return "fp16" if self.storage == "float16" else "bf16"


def _halves(t: Type) -> list[str]:
    if isinstance(t, Array) and t.dtype in HALVES:
        return [t.dtype]
    if isinstance(t, Tuple):
        return [h for i in t.items for h in _halves(i)]
    return []
