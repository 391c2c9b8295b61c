"""Shape algebra: dims, NumPy's broadcasting, matmul, reductions and reshape over known and symbolic dims.

Each rule raises `Contradiction` only when the dims involved are known ints that certainly disagree; anything
symbolic or unknown gives an unknown dim instead, to be checked at run time.
"""

from __future__ import annotations

import dataclasses
import math


@dataclasses.dataclass(frozen=True)
class Sym:
    name: str

    def __str__(self) -> str:
        return self.name


class Unknown:
    def __str__(self) -> str:
        return "?"


UNKNOWN = Unknown()
Dim = int | Sym | Unknown
Shape = tuple[Dim, ...]  # () for a scalar


class Contradiction(Exception):
    def __init__(self, message: str, argument: str | None = None, index: bool = False, axis: bool = False):
        super().__init__(message)
        self.argument = argument
        self.index = index  # too many indices: NumPy raises IndexError
        self.axis = axis  # an axis the array does not have: NumPy raises AxisError


def fmt(shape: Shape) -> str:
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def numpy_fmt(shape: Shape) -> str:
    """A shape as NumPy's errors print it, `(2,3)`: a certain error is raised in NumPy's words (issue 10)."""
    return fmt(shape).replace(", ", ",")


def broadcast(a: Shape, b: Shape) -> Shape:
    """NumPy's rule, right-aligned; raises `Contradiction` only when two known dims certainly disagree."""
    out: list[Dim] = []
    for k in range(1, max(len(a), len(b)) + 1):
        x = a[-k] if k <= len(a) else 1
        y = b[-k] if k <= len(b) else 1
        if x == 1:
            out.append(y)
        elif y == 1 or x == y:
            out.append(x)
        elif isinstance(x, int) and isinstance(y, int):
            raise Contradiction(f"operands could not be broadcast together with shapes {numpy_fmt(a)} {numpy_fmt(b)} ")
        else:
            out.append(UNKNOWN)
    return tuple(reversed(out))


def elementwise(inputs: list[Shape], outputs: list[Shape]) -> Shape:
    """A ufunc's result shape, its outputs' when it has any; raises `Contradiction` in NumPy's words (which name
    every operand, outputs last) when a known dim certainly does not fit."""
    shape: Shape = ()
    try:
        for s in inputs + outputs:
            shape = broadcast(shape, s)
    except Contradiction:
        raise Contradiction("operands could not be broadcast together with shapes "
                            + "".join(numpy_fmt(s) + " " for s in inputs + outputs)) from None
    for out in outputs:
        if out != shape and all(isinstance(d, int) for d in out + shape):
            raise Contradiction(f"non-broadcastable output operand with shape {numpy_fmt(out)} doesn't match the "
                                f"broadcast shape {numpy_fmt(shape)}")
    return outputs[0] if outputs else shape


def matmul(a: Shape, b: Shape, dot: bool = False) -> Shape | None:
    """The shape of `a @ b` (np.dot's for 1-D and 2-D operands); inner dims that certainly differ raise NumPy's
    words for the operation (np.dot's name every dim: where one is not known, Cuvil's words instead)."""
    if not a or not b:
        return None
    inner_a, inner_b = a[-1], (b[0] if len(b) == 1 else b[-2])
    if isinstance(inner_a, int) and isinstance(inner_b, int) and inner_a != inner_b:
        if not dot:
            raise Contradiction(f"matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                                f"signature (n?,k),(k,m?)->(n?,m?) (size {inner_b} is different from {inner_a})")
        if all(isinstance(d, int) for d in a + b):
            raise Contradiction(f"shapes {numpy_fmt(a)} and {numpy_fmt(b)} not aligned: {inner_a} (dim "
                                f"{len(a) - 1}) != {inner_b} (dim {0 if len(b) == 1 else len(b) - 2})")
        raise Contradiction(f"np.dot of {fmt(a)} and {fmt(b)}: inner dims {inner_a} and {inner_b} differ")
    if len(a) == 1 and len(b) == 1:
        return ()
    if len(a) == 1:
        return b[:-2] + b[-1:]
    if len(b) == 1:
        return a[:-1]
    return broadcast(a[:-2], b[:-2]) + (a[-2], b[-1])


def reduce(shape: Shape | None, axis: int | None | Unknown, keepdims: bool = False) -> Shape | None:
    """A reduction over all dims (axis None) or one literal axis (negative counts from the end), the reduced
    dims kept as 1 with `keepdims`; unknown for any other axis. A literal axis the array does not have is NumPy's
    AxisError, in its words."""
    if shape is None or isinstance(axis, Unknown):
        return None
    if axis is None:
        return (1,) * len(shape) if keepdims else ()
    if not -len(shape) <= axis < len(shape):
        raise Contradiction(f"axis {axis} is out of bounds for array of dimension {len(shape)}", axis=True)
    axis %= len(shape)
    return shape[:axis] + ((1,) if keepdims else ()) + shape[axis + 1:]


def reshape(shape: Shape | None, target: Shape | None) -> Shape | None:
    if shape is None or target is None:
        return None
    known = all(isinstance(d, int) for d in shape)
    size = math.prod(d for d in shape if isinstance(d, int)) if known else None
    holes = [k for k, d in enumerate(target) if d == -1]
    rest = [d for d in target if d != -1]
    if size is None or not all(isinstance(d, int) for d in rest) or len(holes) > 1:
        return tuple(UNKNOWN if d == -1 else d for d in target)
    product = math.prod(rest)  # type: ignore[arg-type]
    if holes:
        if product == 0 or size % product:
            raise Contradiction(_cannot_reshape(size, target))
        return tuple(size // product if d == -1 else d for d in target)
    if product != size:
        raise Contradiction(_cannot_reshape(size, target))
    return target


def _cannot_reshape(size: int, target: Shape) -> str:
    """NumPy's words, the unknown dim as it prints it (left out when leading, else "newaxis"): "cannot reshape
    array of size 6 into shape (5,newaxis)"; runtime/library_checks.py prints the same at run time."""
    first = next((k for k, d in enumerate(target) if d != -1), len(target))
    if first == len(target):
        return f"cannot reshape array of size {size} into shape ()"
    shown = f"({target[first]}" + "".join(",newaxis" if d == -1 else f",{d}" for d in target[first + 1:])
    return f"cannot reshape array of size {size} into shape {shown}{',)' if len(target) == 1 else ')'}"


