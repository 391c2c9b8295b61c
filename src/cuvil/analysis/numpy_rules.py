"""Types of NumPy calls and array methods (reductions, allocations, casts, views, where, matmul): the part of
analysis/type_rules.py's rules that reads the library table (library/numpy.py) by kind."""

from __future__ import annotations

import libcst as cst
import numpy as np

from ..cfg.effects import Calls
from ..library import numpy as library
from ..library.replaced import trapezoid_dtype
from .types import FLOAT, NONE, UNKNOWN, Array, Scalar, Tuple, Type, operand, ufunc_result

# The library table's kinds (library/numpy.py): what each call's result is
_DTYPE_NAMES = library.named("cast") | {"double", "single", "half", "byte", "ubyte", "short", "ushort", "intc",
                                        "uintc", "longlong", "ulonglong", "cdouble", "csingle"}  # dtype aliases
_SUMS, _MEANS, _KEEPS = library.named("sum"), library.named("mean"), library.named("extreme")
_INDICES, _LOGICAL = library.named("index"), library.named("logical")
_QUANTILES = frozenset({"percentile", "quantile", "nanpercentile", "nanquantile"})  # the second argument: q
_ALLOCATE = library.named("allocate") - {"full"}  # full's dtype comes from its fill value
_LIKE = library.named("like")
_VIEWS = library.named("view") | {"flatten", "copy", "conj", "conjugate"}
_JOINS = frozenset({"stack", "concatenate", "vstack", "hstack"})  # a tuple of arrays joined into a new one
_CLIP: np.ufunc = np._core.umath.clip  # type: ignore[attr-defined]  # np.clip is this three-input ufunc: its resolution is NumPy's dtype (NEP 50)
_WEAK_VALUE = {"bool": False, "int64": 0, "float64": 0.0, "complex128": 0j}  # NEP 50: a Python number is weak
_PYTHON_KINDS = {"b": "bool", "i": "int64", "u": "int64", "f": "float64", "c": "complex128"}  # item()'s type


def _none(node: cst.BaseExpression | None) -> bool:
    return node is None or isinstance(node, cst.Name) and node.value == "None"


def _kind(dtype: str) -> str:
    try:
        return np.dtype(dtype).kind
    except TypeError:
        return ""


def _dtype_name(node: cst.BaseExpression | None, calls: Calls) -> str | None:
    """`np.float32`, `float`, `"float32"` as a dtype argument."""
    if node is None:
        return None
    if isinstance(node, cst.SimpleString):
        try:
            return np.dtype(node.evaluated_value).name  # type: ignore[arg-type]
        except TypeError:
            return None
    if isinstance(node, cst.Name) and node.value in ("float", "int", "bool", "complex") \
            and calls.global_of(node.value) is None:
        return {"float": "float64", "int": "int64", "bool": "bool", "complex": "complex128"}[node.value]
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name):
        found = calls.global_of(node.value.value)
        if found is not None and found.kind == "module" and found.qualname == "numpy" \
                and node.attr.value in _DTYPE_NAMES:
            return np.dtype(node.attr.value).name
    if isinstance(node, cst.Name):
        found = calls.global_of(node.value)
        if found is not None and found.kind == "function" and found.qualname.startswith("numpy.") \
                and found.qualname[6:] in _DTYPE_NAMES:
            return np.dtype(found.qualname[6:]).name
    return None


def rounded(t: Type) -> Type:
    """`np.round(x)`'s type: x's own (a Python number's as a NumPy scalar, `np.round(2.5)` is np.float64);
    unknown for a bool (NumPy's `rint`, a float16, or with decimals other than 0 its TypeError)."""
    if not isinstance(t, Array | Scalar) or t.dtype == "bool":
        return UNKNOWN
    return Array(t.dtype, t.ndim) if isinstance(t, Array) else Scalar(t.dtype)


LINSPACE = ("start", "stop", "num", "endpoint", "retstep", "dtype", "axis")  # np.linspace's parameters


def linspace_compute(ends: list[Type]) -> str | None:
    """The dtype np.linspace computes in: start's and stop's result type, float64 if not inexact (a Python
    number gives way to a NumPy one: `np.linspace(0, np.float32(1))` is float32); None if not both numbers."""
    if len(ends) != 2 or not all(isinstance(t, Scalar) for t in ends):
        return None
    values = [_WEAK_VALUE[t.dtype] if t.weak else np.dtype(t.dtype) for t in ends
              if isinstance(t, Scalar)]
    dtype = np.result_type(*values)
    return dtype.name if dtype.kind in "fc" else "float64"


def _ndim_of_shape(t: Type) -> int | None:
    if isinstance(t, Tuple):
        return len(t.items)
    if isinstance(t, Scalar) and t.dtype.startswith(("int", "uint")):
        return 1
    return None


class NumpyRules:
    """Mixed into type_rules.Rules, whose `of` and `calls` these use."""

    calls: Calls

    def of(self, node: cst.BaseExpression) -> Type:
        raise NotImplementedError

    def dtype_arg(self, node: cst.BaseExpression) -> str | None:
        """A dtype argument: what _dtype_name reads, or `x.dtype` of an array or NumPy scalar `x`."""
        if isinstance(node, cst.Attribute) and node.attr.value == "dtype":
            owner = self.of(node.value)
            return owner.dtype if isinstance(owner, Array) or isinstance(owner, Scalar) and not owner.weak else None
        return _dtype_name(node, self.calls)

    def reduction(self, name: str, array: Type, keywords: dict[str, cst.BaseExpression]) -> Type:
        if not isinstance(array, Array | Scalar):
            return UNKNOWN
        dtype = array.dtype
        if name in _SUMS:
            kind = np.dtype(dtype).kind
            dtype = "int64" if kind in "bi" and np.dtype(dtype).itemsize < 8 or kind == "b" else \
                "uint64" if kind == "u" else dtype
        elif name in _MEANS:
            dtype = "float64" if np.dtype(dtype).kind in "biu" else dtype
            if name in ("var", "std", "nanvar", "nanstd") and np.dtype(dtype).kind == "c":  # |x - mean|**2: real
                dtype = np.empty(0, dtype).real.dtype.name
        elif name in _INDICES:
            dtype = "int64"
        elif name in _LOGICAL:
            dtype = "bool"
        elif name not in _KEEPS:
            return UNKNOWN
        if "dtype" in keywords:  # one Cuvil cannot read is unknown, not the default
            explicit = self.dtype_arg(keywords["dtype"])
            if explicit is None:
                return UNKNOWN
            dtype = explicit
        if name in ("cumsum", "cumprod"):
            return Array(dtype, 1 if "axis" not in keywords else getattr(array, "ndim", 1))
        axis = keywords.get("axis")
        ndim = array.ndim if isinstance(array, Array) else 0
        keep = keywords.get("keepdims")
        kept = isinstance(keep, cst.Name) and keep.value == "True"
        if axis is None or isinstance(axis, cst.Name) and axis.value == "None":
            return Array(dtype, ndim) if kept and ndim else Scalar(dtype)
        if isinstance(axis, cst.Tuple):
            out = ndim if kept else max(ndim - len(axis.elements), 0)  # more axes than dims: NumPy raises
        else:
            out = ndim if kept else ndim - 1
        return Array(dtype, out) if out else Scalar(dtype)

    def numpy(self, name: str, args: list[cst.BaseExpression], keywords: dict[str, cst.BaseExpression]) -> Type:
        ufunc = getattr(np, name, None)
        if isinstance(ufunc, np.ufunc):
            return ufunc_result(name, [self.of(a) for a in args[:ufunc.nin]], python=False)
        first = self.of(args[0]) if args else UNKNOWN
        if name in _SUMS | _MEANS | _KEEPS | _INDICES | _LOGICAL:
            if len(args) > 1 and "axis" not in keywords and name not in _QUANTILES:  # np.max(a, (0, 1)): the axis
                keywords = {**keywords, "axis": args[1]}
            result = self.reduction(name, first, keywords)
            q = self.of(args[1]) if name in _QUANTILES and len(args) > 1 and "axis" not in keywords else None
            if isinstance(q, Array | Scalar) and not (isinstance(q, Scalar) and q.weak) \
                    and isinstance(result, Scalar) and _kind(q.dtype) == "f":  # q's dtype promotes (NEP 50)
                result = Scalar(np.result_type(getattr(first, "dtype", result.dtype), q.dtype).name)
            if isinstance(q, Array) and isinstance(result, Scalar):  # one value per q
                return Array(result.dtype, q.ndim) if q.ndim else result
            return result
        if name == "tile" and len(args) == 2:  # max(a.ndim, len(reps)) axes, a's dtype
            reps = self.of(args[1])
            count = len(reps.items) if isinstance(reps, Tuple) else 1 if isinstance(reps, Scalar) else None
            if count is None or not isinstance(first, Array | Scalar):
                return UNKNOWN
            return Array(first.dtype, max(first.ndim if isinstance(first, Array) else 0, count))
        if name in _ALLOCATE or name == "full":
            ndim = _ndim_of_shape(first)
            explicit = keywords.get("dtype") or (args[2] if name == "full" and len(args) > 2 else
                                                 args[1] if name != "full" and len(args) > 1 else None)
            dtype = self.dtype_arg(explicit) if explicit is not None else None
            if dtype is None and explicit is None:
                fill = self.of(args[1]) if name == "full" and len(args) > 1 else FLOAT
                dtype = fill.dtype if isinstance(fill, Scalar) else None
            return Array(dtype, ndim) if dtype and ndim is not None else UNKNOWN
        if name in _LIKE or name.endswith("_like"):
            at = {"full_like": 2, "copy": len(args)}.get(name, 1)  # the dtype's place (np.copy's 2nd: order)
            explicit = keywords.get("dtype", args[at] if len(args) > at else None)
            dtype = self.dtype_arg(explicit) if explicit is not None else None
            if explicit is not None and dtype is None:
                return UNKNOWN
            if isinstance(first, Array):
                return Array(dtype or first.dtype, first.ndim)
            if isinstance(first, Scalar) and name in ("array", "asarray"):
                return Array(dtype or first.dtype, 0)
            if isinstance(first, Tuple) and name in ("array", "asarray"):
                return _built_of_halves(first, dtype)
            return UNKNOWN
        if name in _DTYPE_NAMES:
            target = np.dtype(name).name
            return Array(target, first.ndim) if isinstance(first, Array) else Scalar(target)
        if name == "where" and len(args) == 3:
            branches = [self.of(args[1]), self.of(args[2])]
            # NumPy's where promotes its branches as its add resolves them, Python numbers included (NumPy's add
            # of two Python bools is a bool; Python's `True + False` is the int the default would give)
            result = ufunc_result("add", branches, python=False)
            cond = self.of(args[0])
            ndim = max([t.ndim for t in (cond, *branches) if isinstance(t, Array)], default=0)
            dtype = getattr(result, "dtype", None)
            return Array(dtype, ndim) if dtype else UNKNOWN
        if name == "trace" and len(args) == 1 and not keywords and isinstance(first, Array) and first.ndim == 2:
            return self.reduction("sum", first, {})  # the diagonal's sum, in sum's dtype
        if name == "linalg.det" and len(args) == 1 and not keywords and isinstance(first, Array) and first.ndim == 2:
            return Scalar(first.dtype if np.dtype(first.dtype).kind in "fc" else "float64")
        if name in ("linalg.slogdet", "linalg.cond") and len(args) == 1 and not keywords \
                and isinstance(first, Array) and first.ndim == 2:  # runtime/linalg.py: integers in float64
            inner = first.dtype if np.dtype(first.dtype).kind in "fc" else "float64"
            real = Scalar(np.empty(0, inner).real.dtype.name)
            return Tuple((Scalar(inner), real)) if name == "linalg.slogdet" else real
        if name == "trapezoid" and isinstance(first, Array) and first.ndim == 1 and len(args) <= 2:
            x = self.of(args[1]) if len(args) > 1 else keywords.get("x") and self.of(keywords["x"])
            if x is None or isinstance(x, Array) and x.ndim == 1:  # runtime/integrals.py
                return Scalar(trapezoid_dtype(np.dtype(first.dtype), np.dtype(x.dtype) if x else None).name)
        given = dict(zip(("ord", "axis", "keepdims"), args[1:])) | keywords if name == "linalg.norm" else {}
        if "axis" in given and isinstance(first, Array) and set(given) <= {"axis", "keepdims", "ord"} \
                and _none(given.get("ord")) and isinstance(self.of(given["axis"]), Scalar):
            kind = np.dtype(first.dtype).kind  # lower/norms.py: each lane's 2-norm
            lane = "float64" if kind in "biu" else np.empty(0, first.dtype).real.dtype.name
            keep = given.get("keepdims")
            rank = first.ndim if isinstance(keep, cst.Name) and keep.value == "True" else first.ndim - 1
            return Array(lane, rank) if rank else Scalar(lane)
        if name == "linalg.norm" and len(args) == 1 and not keywords and isinstance(first, Array):
            kind = np.dtype(first.dtype).kind  # Numba's is float32 for float32 (NumPy's too), boxed as a float
            return Scalar("float64" if kind in "biu" else np.empty(0, first.dtype).real.dtype.name)
        if name in ("dot", "matmul") and len(args) == 2:
            return self.matmul(self.of(args[0]), self.of(args[1]))
        if name in ("arange",):
            kinds = [self.of(a) for a in args]
            explicit = keywords.get("dtype", args[3] if len(args) > 3 else None)
            dtype = self.dtype_arg(explicit) if explicit is not None else (
                "float64" if any(getattr(k, "dtype", "") .startswith("float") for k in kinds) else "int64")
            return Array(dtype, 1) if dtype else UNKNOWN
        if name == "linspace":
            return self.linspace(args, keywords)
        if name in _JOINS and isinstance(first, Tuple) and first.items \
                and all(isinstance(t, Array) for t in first.items):  # NumPy promotes the arrays' dtypes
            items = [t for t in first.items if isinstance(t, Array)]
            ndim = max(t.ndim for t in items)
            dtype = np.result_type(*(np.dtype(t.dtype) for t in items)).name
            return Array(dtype, {"stack": ndim + 1, "vstack": max(ndim, 2), "hstack": max(ndim, 1)}.get(name, ndim))
        if name in ("reshape",) and len(args) == 2 and isinstance(first, Array):
            ndim = _ndim_of_shape(self.of(args[1]))
            return Array(first.dtype, ndim) if ndim is not None else UNKNOWN
        if name in ("ravel",) and isinstance(first, Array):
            return Array(first.dtype, 1)
        if name == "clip" and len(args) == 3 and not keywords:
            return self.clip([self.of(a) for a in args])
        if name in ("round", "around"):
            if len(args) == 1 and not keywords and isinstance(first, Array) and first.dtype == "bool":
                return Array("float16", first.ndim)  # NumPy's rint (lower/arrays.py lowers it so)
            return rounded(first)
        if name in ("transpose", "sort", "clip", "flip", "abs") and isinstance(first, Array):
            return first
        return UNKNOWN

    def linspace(self, args: list[cst.BaseExpression], keywords: dict[str, cst.BaseExpression]) -> Type:
        """`np.linspace(start, stop, …)`: an array of `dtype=`, else of start's and stop's inexact result type
        (float32 for np.float32 ones); with a literal `retstep=True`, a tuple with the step, of that type."""
        named = {**dict(zip(LINSPACE, args, strict=False)), **keywords}
        ends = [self.of(named[n]) for n in ("start", "stop") if n in named]
        compute = linspace_compute(ends) or "float64"
        dtype = self.dtype_arg(named["dtype"]) if "dtype" in named else compute
        if dtype is None:
            return UNKNOWN
        step = named.get("retstep")
        if isinstance(step, cst.Name) and step.value == "True":
            return Tuple((Array(dtype, 1), Scalar(compute)))
        return Array(dtype, 1)

    def clip(self, operands: list[Type]) -> Type:
        """`np.clip(int32_array, 0.0, 2.5)` is float64 (Numba's clip kept int32 and cut 2.5 to 2)."""
        first = operands[0]
        if len(operands) == 3 and (operands[1] == NONE) != (operands[2] == NONE):  # one bound: NumPy's maximum
            ufunc, bound = ("minimum", operands[2]) if operands[1] == NONE else ("maximum", operands[1])  # or minimum
            return ufunc_result(ufunc, [first, bound], python=False)
        if not all(isinstance(t, Scalar | Array) for t in operands):
            return first if isinstance(first, Array) else UNKNOWN
        try:
            resolved = _CLIP.resolve_dtypes((*(operand(t) for t in operands), None))  # type: ignore[arg-type]
        except (TypeError, ValueError, OverflowError):
            return first if isinstance(first, Array) else UNKNOWN
        dtype = np.dtype(resolved[-1]).name
        ndim = max((t.ndim for t in operands if isinstance(t, Array)), default=None)
        return Array(dtype, ndim) if ndim is not None else Scalar(dtype)

    def matmul(self, a: Type, b: Type) -> Type:
        if not (isinstance(a, Array) and isinstance(b, Array)):
            return UNKNOWN
        result = ufunc_result("multiply", [a, b])
        dtype = getattr(result, "dtype", None)
        if dtype is None:
            return UNKNOWN
        if a.ndim == 1 and b.ndim == 1:
            return Scalar(dtype)
        ndim = b.ndim - 1 if a.ndim == 1 else a.ndim - 1 if b.ndim == 1 else max(a.ndim, b.ndim)
        return Array(dtype, ndim)

    def method(self, name: str, args: list[cst.BaseExpression], keywords: dict[str, cst.BaseExpression]) -> Type:
        if name == "type" and args and isinstance(args[0], cst.Attribute) and args[0].attr.value == "dtype":
            dtype = self.dtype_arg(args[0])  # `a.dtype.type(v)`: the dtype's constructor, np.int8(v)
            return self.numpy("bool_" if dtype == "bool" else dtype, args[1:], keywords) if dtype else UNKNOWN
        owner = self.of(args[0]) if args else UNKNOWN
        rest = args[1:]
        if name in _SUMS | _MEANS | _KEEPS | _INDICES | _LOGICAL:
            if rest and "axis" not in keywords:
                keywords = {**keywords, "axis": rest[0]}
            return self.reduction(name, owner, keywords)
        if name == "round":
            return rounded(owner)
        if not isinstance(owner, Array):
            return UNKNOWN
        if name == "astype" and rest:
            dtype = self.dtype_arg(rest[0])
            return Array(dtype, owner.ndim) if dtype else UNKNOWN
        if name == "reshape" and rest:  # (before the views, whose rank and dtype are the owner's)
            ndim = len(rest) if len(rest) > 1 else _ndim_of_shape(self.of(rest[0]))
            return Array(owner.dtype, ndim) if ndim is not None else UNKNOWN
        if name == "diagonal" and not rest and not keywords and owner.ndim >= 2:
            return Array(owner.dtype, owner.ndim - 1)
        if name in ("reshape", "squeeze", "diagonal") or (name == "view" and (rest or keywords)):
            return UNKNOWN  # a rank (squeeze: which dims are 1) or a dtype (`a.view(np.uint8)`) not read here
        if name in _VIEWS:
            return Array(owner.dtype, 1) if name in ("ravel", "flatten") else owner
        if name == "item":  # Python's scalar (lower/pyscalars.py converts; uint64 beyond int64 raises)
            kind = _kind(owner.dtype)
            return Scalar(_PYTHON_KINDS[kind], True) if kind in _PYTHON_KINDS else Scalar(owner.dtype)
        if name == "dot" and rest:
            return self.matmul(owner, self.of(rest[0]))
        if name == "clip" and len(rest) == 2 and not keywords:
            return self.clip([owner, *(self.of(r) for r in rest)])
        if name in ("fill", "sort"):
            return NONE
        return UNKNOWN


def _built_of_halves(items: Tuple, dtype: str | None) -> Type:
    """`np.array((h[0], h[1]))`: NumPy's dtype of a tuple of numbers holding a half (a Python number counts as
    its default dtype there, not as a weak scalar), where Numba's would be float32 (lower/half_scalars.py builds
    it from the halves' bits). A tuple of numbers with a dtype given is that dtype (Numba's too: lower/sequences.py
    writes these); other tuples stay Numba's."""
    if not items.items or not all(isinstance(t, Scalar) for t in items.items):
        return UNKNOWN
    dtypes = [t.dtype for t in items.items if isinstance(t, Scalar)]
    half = next((d for d in dtypes if d in ("float16", "bfloat16")), None)
    if dtype in ("float16", "bfloat16"):  # `np.array((1.5, 2.5), np.float16)`: built from bits too
        return Array(dtype, 1)
    if half is None or dtype is not None or None in dtypes:
        return Array(dtype, 1) if dtype else UNKNOWN
    result = np.result_type(*("float16" if d == "bfloat16" else d for d in dtypes)).name
    return Array(half if result == "float16" else result, 1)
