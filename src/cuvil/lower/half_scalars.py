"""NumPy calls and methods on single half elements (`h[i]` of a float16 array or a bf16 tensor), for
lower/precision.Values (issue 36, class 5).

Compiled code holds a half element as the float32 it equals (runtime/half.py), while a half array is its
uint16 bits. Where NumPy builds a half array out of half scalars, Numba would build a float32 array and
the caller would read its bytes as halves (`np.where(h[0] > 1, h[0], h[1])`, `np.array((h[0], h[1]))`):
the scalars are narrowed to their bits first, so Numba builds the bits. Where NumPy computes a float64 result
from halves (`np.geomspace(h[0], h[1], 4)`), the halves are widened to float64 first, exactly, or Numba would
compute in float32. A half range (`np.linspace(0.0, h[1], 4)`, `np.arange(…, dtype=np.float16)`) rounds every
step in NumPy's own order, which float32 code does not reproduce: refused at the line. `v.item()` of a half
scalar is a Python float (lower/precision.Access), `v.astype(np.float32)` NumPy's conversion.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from ..analysis.type_rules import Types
from ..analysis.types import Array, Scalar, Type

_BUILT = frozenset({"numpy.array", "numpy.asarray"})  # of a tuple of numbers
_RANGES = frozenset({"numpy.linspace", "numpy.geomspace", "numpy.logspace", "numpy.arange",
                     *(f"cuvil.runtime.ranges.{n}" for n in ("arange", "linspace", "linspace_step"))})
_HALVES = ("float16", "bfloat16")


def _half(kind: Type, array: bool) -> bool:
    return isinstance(kind, Array if array else Scalar) and kind.dtype in _HALVES


def _names_half(call: cst.Call) -> bool:
    """A call with a half dtype among its arguments (`dtype=np.float16`), whatever its result was typed."""
    return any(isinstance(a.value, cst.Attribute) and a.value.attr.value == "float16" for a in call.args)


def _call(func: cst.BaseExpression, *args: cst.BaseExpression) -> cst.Call:
    return cst.Call(func, [cst.Arg(a) for a in args])


class HalfScalars:
    """`rewrite(original, updated)` gives the call Values should print, or None to leave it to Values."""

    def __init__(self, types: Types, storage: str, narrow: str, numpy: Callable[[], str],
                 refuse: Callable[[str], Exception]):
        self.types, self.storage, self.narrow, self.numpy, self.refuse = types, storage, narrow, numpy, refuse

    def rewrite(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression | None:
        name = self.types.calls.effect(original).name
        result = self.types.of(original)
        func = original.func
        if isinstance(func, cst.Attribute) and _half(self.types.of(func.value), False):
            return self.method(func.attr.value, original, updated)
        halves = any(_half(self.types.of(a.value), False) for a in original.args)
        if name == "numpy.geomspace" and halves and not any(a.keyword for a in original.args):
            return updated.with_changes(args=[u.with_changes(value=self.wide(o.value, u.value))  # NumPy's
                                              for o, u in zip(original.args, updated.args)])  # float64
        if name in _RANGES and (_half(result, True) or _names_half(original) or halves and not (
                isinstance(result, Array) and result.dtype in ("float32", "float64"))):
            raise self.refuse(f"np.{name.rsplit('.', 1)[1]} with a {self.storage} result: NumPy rounds every "
                              "step to the half in its own order, which compiled code (computing halves in "
                              "float32) does not reproduce; compute the range in float32 and round it outside "
                              "the function, or pass dtype=np.float32")
        if name in _BUILT and _half(result, True) and original.args:
            if isinstance(self.types.of(original.args[0].value), Array) and len(original.args) > 1:
                raise self.refuse(f"{name.replace('numpy.', 'np.')} of an array with a {self.storage} dtype: "
                                  "write x.astype(np.float16), which rounds each element to the half")
            if isinstance(original.args[0].value, cst.Tuple):
                return self.built(original, updated)
            if isinstance(self.types.of(original.args[0].value), Scalar):  # np.array(h[0]): 0-d
                return updated.with_changes(args=[self.bits(original.args[0], updated.args[0]), *updated.args[1:]])
        if name == "numpy.where" and _half(result, True) and len(original.args) == 3:
            return updated.with_changes(args=[updated.args[0], *(self.bits(o, u) for o, u in zip(
                original.args[1:], updated.args[1:]))])
        if name in _RANGES and halves and isinstance(result, Array) and result.dtype == "float64":
            return updated.with_changes(args=[u.with_changes(value=self.wide(o.value, u.value))
                                              for o, u in zip(original.args, updated.args)])
        return None

    def method(self, attr: str, original: cst.Call, updated: cst.Call) -> cst.BaseExpression | None:
        value = updated.func.value  # type: ignore[attr-defined]
        if attr == "astype" and len(original.args) == 1 and original.args[0].keyword is None:
            target = original.args[0].value
            dtype = target.attr.value if isinstance(target, cst.Attribute) else None
            if dtype is None or dtype in _HALVES:
                raise self.refuse(f".astype() of a {self.storage} element: write np.float32(v) or np.float64(v)")
            return _call(cst.Attribute(cst.Name(self.numpy()), cst.Name(dtype)), value)
        return None

    def bits(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        """A branch of np.where with a half result: a number as its half's bits; an array must be a half's."""
        kind = self.types.of(original.value)
        if isinstance(kind, Scalar):
            return updated.with_changes(value=_call(cst.Name(self.narrow), updated.value))
        if not _half(kind, True):
            raise self.refuse(f"np.where of a {self.storage} number and a {getattr(kind, 'dtype', '?')} array: "
                              "convert the array to float32 first")
        return updated

    def built(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression | None:
        elements = original.args[0].value.elements  # type: ignore[attr-defined]
        if not all(isinstance(self.types.of(e.value), Scalar) for e in elements):
            return None  # rows of arrays: Numba's own, refused by Values as a whole-array use if it is one
        tuple_ = updated.args[0].value
        assert isinstance(tuple_, cst.Tuple)
        narrowed = [e.with_changes(value=_call(cst.Name(self.narrow), e.value)) for e in tuple_.elements]
        return updated.with_changes(args=[updated.args[0].with_changes(value=tuple_.with_changes(
            elements=narrowed)), *updated.args[1:]])

    def wide(self, original: cst.BaseExpression, updated: cst.BaseExpression) -> cst.BaseExpression:
        if not _half(self.types.of(original), False):
            return updated
        return _call(cst.Attribute(cst.Name(self.numpy()), cst.Name("float64")), updated)


__all__ = ["HalfScalars"]
