"""The aten operations the torch backend fuses, and how each is written inside a loop body (issue 14).

One table: the partitioner asks it what is supported (and why not), the kernel builder asks it how to write an
element. An entry is elementwise (`emit` writes one element's value from its operands' values) or a reduction
over the last dimension (`reduce`: the accumulator's operator and what follows the loop). Operand values arrive
already converted to the node's compute type (float32 for float32, float16 and bfloat16 tensors, float64 for
float64), so every expression here computes in that one type, as torch's CPU kernels and inductor do for halves.
The result dtypes are torch's own: the graph's fake tensors carry them (`node.meta["val"]`), so type promotion is
torch.result_type's by construction and the table never restates it.
"""

from __future__ import annotations

import dataclasses
import math
import operator
from collections.abc import Callable
from typing import Any

import torch
import torch.fx

aten = torch.ops.aten

# Operand(i) → the i-th operand's value as an expression in the node's compute type; lit(x) → a literal of it.
Operand = Callable[[int], str]
Literal = Callable[[float], str]


@dataclasses.dataclass(frozen=True)
class Elementwise:
    emit: Callable[[Operand, Literal, torch.fx.Node], str]
    operands: tuple[int, ...] = (0,)  # positions of the arguments that are values (tensors or numbers)
    compare: bool = False  # the operands compute in their promoted type; the result is bool


@dataclasses.dataclass(frozen=True)
class Reduction:
    op: str  # "sum", "max", "min", "mean", "var", "var_mean"


Entry = Elementwise | Reduction


def _kw(node: torch.fx.Node, name: str, position: int, default: Any) -> Any:
    if name in node.kwargs:
        return node.kwargs[name]
    return node.args[position] if len(node.args) > position else default


def _scaled(node: torch.fx.Node, lit: Literal, b: str) -> str:
    alpha = _kw(node, "alpha", 2, 1)
    return b if alpha == 1 else f"({lit(alpha)} * {b})"


def _gelu(v: Operand, lit: Literal, node: torch.fx.Node) -> str:
    x = v(0)
    if _kw(node, "approximate", 1, "none") == "tanh":
        inner = f"{lit(math.sqrt(2 / math.pi))} * ({x} + {lit(0.044715)} * {x} * {x} * {x})"
        return f"{lit(0.5)} * {x} * ({lit(1.0)} + tanh({inner}))"
    return f"{lit(0.5)} * {x} * ({lit(1.0)} + erf({x} * {lit(math.sqrt(0.5))}))"


def _clamp(v: Operand, lit: Literal, node: torch.fx.Node) -> str:
    low, high = _kw(node, "min", 1, None), _kw(node, "max", 2, None)
    out = v(0)
    if low is not None:
        out = f"maximum({out}, {v(1)})"
    if high is not None:
        out = f"minimum({out}, {v(2)})"
    return out


def _pow(v: Operand, lit: Literal, node: torch.fx.Node) -> str:
    exponent = node.args[1]
    if isinstance(exponent, int | float) and not isinstance(exponent, bool):
        if exponent in (1, 2, 3, 4):  # as torch's CPU kernel: repeated products, exactly rounded per step
            return " * ".join([v(0)] * int(exponent))
        if exponent == 0.5:
            return f"np.sqrt({v(0)})"
        if exponent == -1:
            return f"{lit(1.0)} / {v(0)}"
    return f"{v(0)} ** {v(1)}"


def _where(v: Operand, lit: Literal, node: torch.fx.Node) -> str:
    return f"({v(1)} if {v(0)} else {v(2)})"


def _binary(symbol: str) -> Callable[[Operand, Literal, torch.fx.Node], str]:
    return lambda v, lit, node: f"({v(0)} {symbol} {v(1)})"


def _unary(template: str) -> Elementwise:
    return Elementwise(lambda v, lit, node: template.format(x=v(0), one=lit(1.0), zero=lit(0.0)))


_ADD = Elementwise(lambda v, lit, node: f"({v(0)} + {_scaled(node, lit, v(1))})", (0, 1))
_SUB = Elementwise(lambda v, lit, node: f"({v(0)} - {_scaled(node, lit, v(1))})", (0, 1))
_MUL = Elementwise(_binary("*"), (0, 1))
_DIV = Elementwise(_binary("/"), (0, 1))
_CLAMP = Elementwise(_clamp, (0, 1, 2))

TABLE: dict[Any, Entry] = {
    aten.add.Tensor: _ADD, aten.add.Scalar: _ADD, aten.sub.Tensor: _SUB, aten.sub.Scalar: _SUB,
    aten.rsub.Scalar: Elementwise(lambda v, lit, node: f"({_scaled(node, lit, v(1))} - {v(0)})", (0, 1)),
    aten.mul.Tensor: _MUL, aten.mul.Scalar: _MUL, aten.div.Tensor: _DIV, aten.div.Scalar: _DIV,
    aten.neg.default: _unary("(-{x})"),
    aten.exp.default: _unary("exp({x})"),
    aten.log.default: _unary("log({x})"),
    aten.tanh.default: _unary("tanh({x})"),
    aten.sigmoid.default: _unary("sigmoid({x})"),
    aten.erf.default: _unary("erf({x})"),
    aten.silu.default: _unary("({x} * sigmoid({x}))"),
    aten.relu.default: _unary("maximum({x}, {zero})"),
    aten.sqrt.default: _unary("np.sqrt({x})"),
    aten.rsqrt.default: _unary("({one} / np.sqrt({x}))"),
    aten.reciprocal.default: _unary("({one} / {x})"),
    aten.abs.default: _unary("abs({x})"),
    aten.gelu.default: Elementwise(_gelu),
    aten.clamp.default: _CLAMP, aten.clamp.Tensor: _CLAMP,
    aten.clamp_min.default: Elementwise(lambda v, lit, node: f"maximum({v(0)}, {v(1)})", (0, 1)),
    aten.clamp_max.default: Elementwise(lambda v, lit, node: f"minimum({v(0)}, {v(1)})", (0, 1)),
    aten.pow.Tensor_Scalar: Elementwise(_pow, (0, 1)), aten.pow.Tensor_Tensor: Elementwise(_pow, (0, 1)),
    aten.where.self: Elementwise(_where, (0, 1, 2)),
    aten._to_copy.default: _unary("{x}"),  # a dtype conversion: the store narrows, the load widens
    aten.clone.default: _unary("{x}"),
    **{getattr(aten, name).Tensor: Elementwise(_binary(symbol), (0, 1), compare=True)
       for name, symbol in (("gt", ">"), ("lt", "<"), ("ge", ">="), ("le", "<="), ("eq", "=="), ("ne", "!="))},
    **{getattr(aten, name).Scalar: Elementwise(_binary(symbol), (0, 1), compare=True)
       for name, symbol in (("gt", ">"), ("lt", "<"), ("ge", ">="), ("le", "<="), ("eq", "=="), ("ne", "!="))},
    aten.sum.dim_IntList: Reduction("sum"),
    aten.mean.dim: Reduction("mean"),
    aten.amax.default: Reduction("max"),
    aten.amin.default: Reduction("min"),
    aten.var.correction: Reduction("var"),
    aten.var_mean.correction: Reduction("var_mean"),
}

FLOATS = {torch.float32: "float32", torch.float64: "float64", torch.float16: "float16", torch.bfloat16: "bfloat16"}


def value(node: Any) -> Any:
    return node.meta.get("val") if isinstance(node, torch.fx.Node) else node


def reduced_dims(node: torch.fx.Node) -> list[int]:
    dims: Any = node.args[1] if len(node.args) > 1 else node.kwargs.get("dim")
    return list(dims) if isinstance(dims, list | tuple) else ([] if dims is None else [dims])


def keepdim(node: torch.fx.Node) -> bool:
    return bool(_kw(node, "keepdim", 2, False))


def correction(node: torch.fx.Node) -> float:
    found: Any = node.kwargs.get("correction")
    return 1.0 if found is None else float(found)


def unsupported(node: torch.fx.Node) -> str | None:
    """Why `node` cannot be fused (None when it can): what explain reports for each op left to torch."""
    if node.target is operator.getitem:
        source = node.args[0]
        ok = isinstance(source, torch.fx.Node) and source.target is aten.var_mean.correction
        return None if ok else "getitem of an operation Cuvil does not fuse"
    entry = TABLE.get(node.target)
    if entry is None:
        return "not an elementwise operation or a last-dimension reduction Cuvil fuses (stays a torch call)"
    val = value(node)
    vals = val if isinstance(val, tuple | list) else (val,)
    for v in vals:
        if not isinstance(v, torch.Tensor):
            return "its result is not a tensor"
        if v.device.type != "cpu":
            return f"a {v.device.type} tensor (this backend fuses CPU tensors)"
        if v.dtype not in FLOATS and v.dtype is not torch.bool:
            return f"a {v.dtype} result (fused: float32, float64, float16, bfloat16)"
    for arg in (*node.args, *node.kwargs.values()):
        if isinstance(arg, torch.fx.Node):
            a = value(arg)
            if isinstance(a, torch.Tensor) and a.dtype not in FLOATS and a.dtype is not torch.bool:
                return f"a {a.dtype} operand (fused: float32, float64, float16, bfloat16)"
            if not isinstance(a, torch.Tensor) and arg.target is not aten.var_mean.correction:
                return "a symbolic scalar operand"
    if node.target is aten.div.Tensor and node.kwargs.get("rounding_mode") is not None:
        return "division with a rounding mode"
    if node.target is aten._to_copy.default and set(node.kwargs) - {"dtype"}:
        return "a copy that changes more than the dtype (device, layout or memory format)"
    if isinstance(entry, Reduction):
        x = value(node.args[0])
        dims = [d % max(x.dim(), 1) for d in reduced_dims(node)]
        if dims != [x.dim() - 1] or x.dim() == 0:
            return f"a reduction over dims {reduced_dims(node)} of a {x.dim()}-d tensor (fused: the last dim only)"
        if node.kwargs.get("dtype") is not None:
            return "a reduction with a dtype argument"
    return None
