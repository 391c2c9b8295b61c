"""How each tensor of a partition lies against the partition's reference shape, and how its extents are found at
run time (issue 14).

A fused partition runs as one loop nest over the reference shape S seen as rows × columns (R = the product of
all dims but the last, C = the last). Every tensor in it must be one of

    full    the shape of S (after right-aligned broadcasting)     indexed [r, c]
    row     S with a last dim of 1 (a keepdim reduction's result)  indexed [r]
    col     a vector along the last dim (a bias, a LayerNorm weight) indexed [c]
    scalar  one element                                            indexed [0]

Anything else (a broadcast along a middle dim) is refused, and the partition stays a torch call. Dims are
symbolic under dynamic shapes (SymInt): they are compared by their expression, never evaluated, so building a
kernel adds no guard and a new batch size runs the same kernel. Each symbolic dim is found again at run time as
some input's dim, so a kernel takes its extents as arguments.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch

FULL, ROW, COL, SCALAR = "full", "row", "col", "scalar"


class NotFusable(Exception):
    """The partition cannot be one kernel; the message says why (explain shows it)."""


def same(a: Any, b: Any) -> bool:
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    if isinstance(a, torch.SymInt) and isinstance(b, torch.SymInt):
        return str(a.node.expr) == str(b.node.expr)
    if isinstance(a, torch.SymInt) or isinstance(b, torch.SymInt):
        sym = a if isinstance(a, torch.SymInt) else b
        const = b if sym is a else a
        return sym.node.expr.is_number and int(sym.node.expr) == const
    return False


def is_one(d: Any) -> bool:
    return same(d, 1)


def reference(shapes: Sequence[list[Any]]) -> list[Any]:
    """The shape every other one broadcasts to: the highest rank, then the fewest dims known to be 1."""
    best: list[Any] = []
    for s in shapes:  # the first of the highest rank with the fewest ones
        if (len(s), -sum(is_one(d) for d in s)) > (len(best), -sum(is_one(d) for d in best)) or not best:
            best = list(s)
    return best


def classify(shape: Sequence[Any], ref: Sequence[Any]) -> str:
    if all(is_one(d) for d in shape):
        return SCALAR
    if len(shape) > len(ref):
        raise NotFusable(f"a tensor of shape {tuple(shape)} does not broadcast to {tuple(ref)}")
    padded = [1] * (len(ref) - len(shape)) + list(shape)
    if all(same(a, b) for a, b in zip(padded, ref)):
        return FULL
    if ref and all(is_one(d) for d in padded[:-1]) and same(padded[-1], ref[-1]):
        return COL
    if ref and is_one(padded[-1]) and all(same(a, b) for a, b in zip(padded[:-1], ref[:-1])):
        return ROW
    raise NotFusable(f"a tensor of shape {tuple(shape)} broadcasts to {tuple(ref)} along a dim other than the "
                     "last (fused: full, per-row, per-column or scalar operands)")


def join(classes: Sequence[str]) -> str:
    found = set(classes) - {SCALAR}
    if not found:
        return SCALAR
    if len(found) == 1:
        return found.pop()
    return FULL  # row with col, or anything with full


Dim = tuple[int, int] | int  # (input, its dim) or a constant


def locate(dim: Any, inputs: Sequence[Sequence[Any]]) -> Dim:
    """Where a dim's value is found at run time: a constant, or the dim of an input that has the same size."""
    if isinstance(dim, int):
        return dim
    if dim.node.expr.is_number:
        return int(dim.node.expr)
    for i, shape in enumerate(inputs):
        for j, d in enumerate(shape):
            if same(d, dim):
                return (i, j)
    raise NotFusable(f"the size {dim} is no input's dim (a shape computed from sizes)")


def resolve(spec: Sequence[Dim], args: Sequence[torch.Tensor]) -> list[int]:
    return [d if isinstance(d, int) else args[d[0]].shape[d[1]] for d in spec]
