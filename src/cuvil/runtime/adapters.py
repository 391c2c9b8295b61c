"""Arguments in, results out: NumPy arrays pass through; torch CPU tensors become zero-copy NumPy views and
results go back as tensors; anything compiled code cannot take is refused with the argument's name."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..errors import CuvilTypeError

_NUMERIC_KINDS = "biufc"


def _torch() -> Any:
    return sys.modules.get("torch")


def _check_array(a: np.ndarray, name: str) -> np.ndarray:
    if a.dtype.kind not in _NUMERIC_KINDS:
        raise CuvilTypeError(f"argument '{name}' has dtype {a.dtype}; compiled code takes bool, integer, "
                             "float and complex arrays", argument=name)
    if not a.dtype.isnative:
        raise CuvilTypeError(f"argument '{name}' has non-native byte order ({a.dtype.str}); pass "
                             f"{name}.astype({name}.dtype.newbyteorder('='))", argument=name)
    return a


def _convert(value: object, name: str) -> tuple[object, bool]:
    """(what Numba gets, whether it came from torch)."""
    if isinstance(value, np.ndarray):
        return _check_array(value, name), False
    if value is None or isinstance(value, int | float | complex):
        return value, False
    if isinstance(value, np.generic):
        if value.dtype.kind not in _NUMERIC_KINDS:
            raise CuvilTypeError(f"argument '{name}' is a {type(value).__name__}; compiled functions take "
                                 "numbers and arrays", argument=name)
        return value, False
    torch = _torch()
    if torch is not None and isinstance(value, torch.Tensor):
        if value.device.type != "cpu":
            raise CuvilTypeError(f"argument '{name}' is a torch tensor on {value.device}; target='cpu' takes "
                                 "CPU tensors (use .cpu(), or target='cuda')", argument=name)
        if value.dtype in (torch.float16, torch.bfloat16):
            raise CuvilTypeError(f"argument '{name}' is {value.dtype}; fp16/bf16 are not supported yet",
                                 argument=name)
        return _check_array(value.detach().numpy(), name), True
    if isinstance(value, tuple):
        items = [_convert(v, f"{name}[{i}]") for i, v in enumerate(value)]
        return tuple(v for v, _ in items), any(t for _, t in items)
    if isinstance(value, list):
        hint = f"pass a NumPy array instead (np.asarray({name}))"
    elif isinstance(value, str | bytes):
        hint = "compiled functions take numbers and arrays"
    elif hasattr(value, "__cuda_array_interface__"):
        hint = "it lives on a GPU; target='cpu' takes host arrays"
    else:
        hint = "compiled functions take numbers, NumPy arrays, torch CPU tensors and tuples of those"
    raise CuvilTypeError(f"argument '{name}' is a {type(value).__name__}; {hint}", argument=name)


def prepare(args: Sequence[object], names: Sequence[str]) -> tuple[tuple[object, ...], Callable[[object], object]]:
    """Arguments as Numba takes them, and the function that turns results back into the callers' kind."""
    from_torch = False
    out = []
    for i, value in enumerate(args):
        converted, t = _convert(value, names[i] if i < len(names) else f"#{i}")
        out.append(converted)
        from_torch |= t
    return tuple(out), (_to_torch if from_torch else _same)


def kind(value: object) -> str:
    """How an argument came in, for `cuvil.explain`: numpy, torch, scalar or tuple."""
    torch = _torch()
    if torch is not None and isinstance(value, torch.Tensor):
        return "torch"
    if isinstance(value, np.ndarray):
        return "numpy"
    return "tuple" if isinstance(value, tuple) else "scalar"


def _same(result: object) -> object:
    return result


def _to_torch(result: object) -> object:
    if isinstance(result, np.ndarray):
        return _torch().from_numpy(result)
    if isinstance(result, tuple):
        return tuple(_to_torch(r) for r in result)
    return result
