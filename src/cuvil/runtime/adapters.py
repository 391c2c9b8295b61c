"""Arguments in, results out: NumPy arrays pass through; torch CPU tensors become zero-copy NumPy views and
results go back as tensors; half-precision arrays (NumPy float16, torch float16 and bfloat16) pass as their
uint16 bits (`Half`, runtime/half.py); anything compiled code cannot take is refused with the argument's name.

This module is the one gate for argument kinds. The guards only recognise what passed through it before, so
whatever it accepts must be something Numba can type and fingerprint, with the same meaning in compiled code
as in Python; everything else is a `CuvilTypeError` naming the argument, never a Numba error.
"""

from __future__ import annotations

import ast
import functools
import sys
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..errors import CuvilTypeError, CuvilWarning
from .where import warn_at_caller

# The dtypes Numba's CPU target computes in (float16 passes as `Half`); longdouble, datetimes, strings,
# objects and records have no compiled meaning here.
_DTYPES = frozenset(np.dtype(c) for c in ("?", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8",
                                          "f4", "f8", "c8", "c16"))
_INT64 = (-(2**63), 2**63 - 1)
# ndarray subclasses that only change where the memory lives: passed on as plain ndarray views. Others
# (np.matrix, masked arrays, arrays with units) change what operations mean, which compiled code would ignore.
_STORAGE_SUBCLASSES = (np.memmap,)


def _torch() -> Any:
    return sys.modules.get("torch")


_ARGUMENTS: weakref.WeakValueDictionary[int, Half] = weakref.WeakValueDictionary()


class Half:
    """A half-precision array as compiled code takes it: its bits as a uint16 view (no copy), and which half it
    is — "float16" or "bfloat16", the logical dtype the guard and the compiler see (analysis/types.py). Numba
    has no float16 on the CPU and nobody has bfloat16, so the generated code widens and narrows the bits
    itself (runtime/half.py)."""

    __slots__ = ("__weakref__", "bits", "dtype", "origin")

    def __init__(self, bits: np.ndarray, dtype: str, origin: object):
        self.bits, self.dtype, self.origin = bits, dtype, origin
        _ARGUMENTS[id(bits)] = self  # a result that is these bits is the caller's own array

    @property
    def shape(self) -> tuple[int, ...]:
        return self.bits.shape

    def __len__(self) -> int:
        return len(self.bits)




def _dtype_problem(dtype: np.dtype, name: str, what: str) -> str | None:
    if dtype in _DTYPES:
        return None
    if dtype == np.float16:  # arrays pass (as Half); a scalar has no exact compiled twin to hide in
        return f"argument '{name}' {what} float16; pass np.float32({name}) (it holds every float16 exactly)"
    if dtype.kind in "biufc" and not dtype.isnative:
        return (f"argument '{name}' has non-native byte order ({dtype.str}); pass "
                f"{name}.astype({name}.dtype.newbyteorder('='))")
    return (f"argument '{name}' {what} {dtype}; compiled code takes bool, integer, float (32 and 64-bit) and "
            "complex values")


def _check_array(a: np.ndarray, name: str) -> np.ndarray | Half:
    if a.dtype == np.float16 and a.dtype.isnative:
        if type(a) is not np.ndarray and not isinstance(a, _STORAGE_SUBCLASSES):
            raise CuvilTypeError(f"argument '{name}' is a {type(a).__name__}, a subclass of numpy.ndarray whose "
                                 f"meaning compiled code would ignore; pass np.asarray({name})", argument=name)
        return Half(a.view(np.ndarray).view(np.uint16), "float16", a)
    problem = _dtype_problem(a.dtype, name, "has dtype")
    if problem:
        raise CuvilTypeError(problem, argument=name)
    if type(a) is not np.ndarray:
        if not isinstance(a, _STORAGE_SUBCLASSES):
            raise CuvilTypeError(f"argument '{name}' is a {type(a).__name__}, a subclass of numpy.ndarray whose "
                                 f"meaning compiled code would ignore; pass np.asarray({name})", argument=name)
        a = a.view(np.ndarray)
    return a


def _check_scalar(value: object, name: str) -> object:
    exact = type(value)
    if exact is int:
        if not _INT64[0] <= value <= _INT64[1]:  # type: ignore[operator]
            raise OverflowError(f"argument '{name}' is {value}, outside int64: Python would keep it as a big int, "
                                "compiled code computes Python ints in 64 bits; pass it as a float")  # issue 10 §2
        return value
    if exact in (bool, float, complex) or value is None:
        return value
    base = next(t for t in (int, float, complex) if isinstance(value, t))
    raise CuvilTypeError(f"argument '{name}' is a {exact.__name__}, a subclass of {base.__name__} whose "
                         f"behaviour compiled code would ignore; pass {base.__name__}({name})", argument=name)


def _check_tensor(value: Any, name: str) -> np.ndarray | Half:
    torch = _torch()
    if value.device.type != "cpu":
        raise CuvilTypeError(f"argument '{name}' is a torch tensor on {value.device}; target='cpu' takes "
                             "CPU tensors (use .cpu(), or target='cuda')", argument=name)
    half = {torch.float16: "float16", torch.bfloat16: "bfloat16"}.get(value.dtype)
    try:
        if half is not None:  # an int16 view is zero-copy and has a NumPy twin
            return Half(value.detach().view(torch.int16).numpy().view(np.uint16), half, value)
        array = value.detach().numpy()
    except (RuntimeError, TypeError) as exc:  # sparse, quantized, conjugate-bit, float8 … tensors
        raise CuvilTypeError(f"argument '{name}' is a torch tensor NumPy cannot view without a copy "
                             f"({exc})", argument=name) from None
    return _check_array(array, name)


def _convert(value: object, name: str) -> tuple[object, bool]:
    """(what Numba gets, whether it came from torch)."""
    if isinstance(value, np.ndarray):
        return _check_array(value, name), False
    if isinstance(value, np.generic):  # before the Python scalars: np.float64 is a float subclass
        problem = _dtype_problem(value.dtype, name, "is a NumPy scalar of type")
        if problem:
            raise CuvilTypeError(problem, argument=name)
        if type(value) is not value.dtype.type:
            raise CuvilTypeError(f"argument '{name}' is a {type(value).__name__}, a subclass of "
                                 f"numpy.{value.dtype.type.__name__} whose behaviour compiled code would ignore; "
                                 f"pass {name}.item()", argument=name)
        return value, False
    if value is None or isinstance(value, int | float | complex):
        return _check_scalar(value, name), False
    torch = _torch()
    if torch is not None and isinstance(value, torch.Tensor):
        return _check_tensor(value, name), True
    if isinstance(value, tuple):
        items = [_convert(v, f"{name}[{i}]") for i, v in enumerate(value)]
        if any(isinstance(v, Half) for v, _ in items):
            raise CuvilTypeError(f"argument '{name}' is a tuple holding half-precision arrays; pass them as "
                                 "separate arguments", argument=name)
        return tuple(v for v, _ in items), any(t for _, t in items)
    if isinstance(value, list):
        hint = f"pass a NumPy array instead (np.asarray({name}))"
    elif isinstance(value, str | bytes):
        hint = "compiled functions take numbers and arrays"
    elif hasattr(value, "__cuda_array_interface__"):
        hint = "it lives on a GPU; target='cpu' takes host arrays"
    else:
        hint = "compiled functions take numbers, NumPy arrays, torch CPU tensors and tuples of those"
    what = type(value).__name__
    raise CuvilTypeError(f"argument '{name}' is {'an' if what[0] in 'aeiou' else 'a'} {what}; {hint}",
                         argument=name)
def prepare(args: Sequence[object], names: Sequence[str],
            device: bool = False) -> tuple[tuple[object, ...], Callable[[object], object]]:
    """Arguments as Numba takes them, and the function that turns results back into the callers' kind. With
    `device` (target="cuda"), arrays on a GPU pass as they are (through `__cuda_array_interface__`, or DLPack
    for a producer that has only that: runtime/cuda_arrays.device_array), and runtime/cuda_call.py takes them
    zero-copy and returns results in the caller's library."""
    from_torch = False
    out = []
    seen: dict[int, object] = {}  # one object passed twice stays one object (one view, one device copy)
    tensors: list[tuple[object, object]] = []  # (the view compiled code gets, the caller's tensor)
    for i, value in enumerate(args):
        if id(value) in seen and not isinstance(value, int | float | complex):
            out.append(seen[id(value)])
            continue
        on_gpu = _on_gpu(value) if device else None
        if on_gpu is not None:
            seen[id(value)] = on_gpu
            out.append(on_gpu)
            continue
        converted, t = _convert(value, names[i] if i < len(names) else f"#{i}")
        seen[id(value)] = converted
        out.append(converted)
        from_torch |= t
        if t:
            tensors += _pairs(converted, value)
    return tuple(out), (_ToTorch(tensors) if from_torch else unchanged)


def _pairs(converted: object, value: object) -> list[tuple[object, object]]:
    if isinstance(value, tuple) and isinstance(converted, tuple):
        return [p for c, v in zip(converted, value) for p in _pairs(c, v)]
    return [(converted, value)] if isinstance(converted, np.ndarray) else []


def _on_gpu(value: object) -> object | None:
    if isinstance(value, np.ndarray | int | float | complex | tuple) or value is None:
        return None  # the common cases, without importing numba.cuda
    from . import cuda_arrays

    return cuda_arrays.device_array(value)


def grad_arguments(args: Sequence[object], names: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """The arguments holding torch tensors whose in-place writes autograd would have to record — they require
    grad and grad mode is on (under torch.no_grad() torch allows such writes, and so does Cuvil) — each as
    (argument name, torch's words for that tensor)."""
    torch = _torch()
    if torch is None or not torch.is_grad_enabled():
        return ()
    found = []
    for name, value in zip(names, args):
        parts = value if isinstance(value, tuple) else (value,)
        tensors = [t for t in parts if isinstance(t, torch.Tensor) and t.requires_grad]
        if tensors:
            t = tensors[0]
            what = ("a leaf Variable" if t.is_leaf else "a view of a leaf Variable" if t._base is not None
                    and t._base.is_leaf else "a tensor")
            found.append((name, what))
    return tuple(found)


def refuse_grad_writes(grads: Sequence[tuple[str, str]], written: frozenset[str], function: str) -> None:
    """Raise as torch does for an in-place operation on a tensor that requires grad, when `function` may write
    one: the compiled code writes through a NumPy view, which autograd would never see."""
    for name, what in grads:
        if name in written:
            raise RuntimeError(f"{what} that requires grad is being used in an in-place operation: {function} "
                               f"may write into argument '{name}' (pass {name}.detach(), or call it under "
                               "torch.no_grad(), to write into it anyway)")


def numba_args(args: Sequence[object]) -> tuple[object, ...]:
    """The arguments as Numba's entry takes them: a `Half` as its bits."""
    return tuple(a.bits if isinstance(a, Half) else a for a in args)


def typed_results(impl: Callable[..., Any], return_type: Any, halves: str = "",
                  several: bool = False, bools: Any = False) -> Callable[..., Any]:
    """`impl`, returning its scalars as NumPy would: Numba boxes every scalar as a Python int, float or
    complex, which is NumPy's answer only for int64, float64 and complex128 (cuvil.testing's rule). A
    float32 sum comes back as np.float32, an int32 element as np.int32; other variants pay nothing.
    `halves` (analysis/precision.py `Precision.result`) says which results are half precision: their bits
    come back as float16 arrays, bfloat16 tensors, np.float16 values (a bf16 value: an np.float32).
    `several`: the entry returns numbers of several types as (which, slot, slot, …) (lower/returns.py).
    `bools` (lower/program.py's `_numpy_bools`) says which bools are NumPy's: Numba boxes np.bool_ as bool."""
    convert = _half_results(ast.literal_eval(halves), return_type, bools) if halves else \
        _picked(return_type, bools) if several else _scalar_types(return_type, bools)
    if convert is None:
        return impl

    def call(*args: Any) -> Any:
        return convert(impl(*args))

    for attribute in ("launcher", "kernel_sizes"):  # a CUDA launcher's, for cuvil.profile and cuvil.explain
        if hasattr(impl, attribute):
            setattr(call, attribute, getattr(impl, attribute))
    return call


def _picked(t: Any, bools: Any) -> Callable[[Any], Any]:
    """The slot `which` names, in its own type (None for the tag -1: a `None` returned)."""
    each = bools[1:] if isinstance(bools, tuple) else (False,) * (len(t.types) - 1)
    parts = [_scalar_types(item, b) or unchanged for item, b in zip(t.types[1:], each)]
    return lambda r: None if r[0] < 0 else parts[r[0]](r[1 + r[0]])


def _half_results(kind: Any, t: Any = None, bools: Any = False) -> Callable[[Any], Any]:
    """The half parts of a result as `kind` says; the others ("-") as _scalar_types gives them (`return h[0],
    f32[0]`: an np.float32 beside the np.float16, not the Python float Numba boxes)."""
    if isinstance(kind, tuple):
        items = getattr(t, "types", None)
        items = items if isinstance(items, tuple) and len(items) == len(kind) else (None,) * len(kind)
        each = bools if isinstance(bools, tuple) and len(bools) == len(kind) else (False,) * len(kind)
        parts = [_half_results(k, i, b) for k, i, b in zip(kind, items, each)]
        return lambda r: tuple(p(v) for p, v in zip(parts, r))
    if kind in ("A:float16", "A:bfloat16"):
        return functools.partial(_half_array, kind[2:])
    if kind == "S:float16":
        return np.float16
    if kind == "S:bfloat16":
        return np.float32
    return (_scalar_types(t, bools) if t is not None else None) or unchanged


def _half_array(dtype: str, bits: np.ndarray) -> Any:
    found = _ARGUMENTS.get(id(bits))
    if found is not None and found.bits is bits:  # an argument returned: the caller's own array
        return found.origin
    return bits.view(np.float16) if dtype == "float16" else _bf16_array(bits)


def _bf16_array(bits: np.ndarray) -> Any:
    torch = _torch()
    if torch is None:  # no torch, no bfloat16 type: float32 holds every bf16 value exactly
        return (bits.astype(np.uint32) << 16).view(np.float32)
    return torch.from_numpy(bits.view(np.int16)).view(torch.bfloat16)


def _scalar_types(t: Any, bools: Any = False) -> Callable[[Any], Any] | None:
    from numba.core import types
    from numba.np.numpy_support import as_dtype

    t = types.unliteral(t)
    if isinstance(t, types.Boolean):
        return np.bool_ if bools is True else None
    if isinstance(t, types.Integer | types.Float | types.Complex):
        if t in (types.int64, types.float64, types.complex128):
            return None
        return np.dtype(as_dtype(t)).type
    if isinstance(t, types.Optional):
        inner = _scalar_types(t.type, bools)
        return None if inner is None else (lambda r: None if r is None else inner(r))
    if isinstance(t, types.BaseTuple):
        each = bools if isinstance(bools, tuple) else (False,) * len(t.types)  # type: ignore[attr-defined]
        parts = [_scalar_types(item, b) for item, b in zip(t.types, each)]  # type: ignore[attr-defined]
        if any(parts):
            return lambda r: tuple(v if p is None else p(v) for p, v in zip(parts, r))
    return None


def kind(value: object) -> str:
    """How an argument came in, for `cuvil.explain`: numpy, torch, scalar or tuple."""
    torch = _torch()
    if torch is not None and isinstance(value, torch.Tensor):
        return "torch"
    if isinstance(value, np.ndarray):
        return "numpy"
    return "tuple" if isinstance(value, tuple) else "scalar"


def unchanged(result: object) -> object:
    return result


class _ToTorch:
    """Results back as torch tensors. A tensor argument returned is the caller's own tensor (Numba gives back
    the very view it was passed): the same object, with its autograd state. Anything else is a new tensor over
    the result's memory, which autograd never saw: where an argument requires grad (and grad mode is on), a
    warning says so instead of handing back a detached result in silence."""

    def __init__(self, tensors: list[tuple[object, object]]):
        self.tensors = tensors
        torch = _torch()
        self.tracked = torch.is_grad_enabled() and any(getattr(t, "requires_grad", False) for _, t in tensors)

    def __call__(self, result: object) -> object:
        if isinstance(result, np.ndarray):
            own = next((tensor for view, tensor in self.tensors if view is result), None)
            if own is not None:
                return own
            if self.tracked:
                warn_at_caller("a tensor this function returns was computed from tensors that require grad, and "
                               "compiled code is invisible to autograd: it does not require grad (call it under "
                               "torch.no_grad(), or pass .detach()ed tensors, to say that is meant)", CuvilWarning)
            if any(s < 0 for s in result.strides):  # a reversed view: torch has no negative strides, so a copy
                result = result.copy()
            return _torch().from_numpy(result)
        if isinstance(result, tuple):
            return tuple(self(r) for r in result)
        return result
