"""`np.linalg.norm(x, axis=k)` (the 2-norm of each lane, `ord` left out or None) as runtime/axes.norm_axis:
Numba's norm takes no axis. Other `ord`s and a tuple of axes stay Numba's, which refuses them in its words.

    np.linalg.norm(x, axis=1)                   →  norm_axis(x, 1)
    np.linalg.norm(x, None, -1, keepdims=True)  →  norm_axis(x, -1, True)
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from ..analysis.type_rules import Types
from ..analysis.types import Scalar
from .reductions import is_none

_PARAMETERS = ("x", "ord", "axis", "keepdims")


def norm_along(original: cst.Call, updated: cst.Call, types: Types,
               intrinsic: Callable[[str, str], str]) -> cst.Call | None:
    if any(a.star for a in updated.args) or any(a.keyword is not None and a.keyword.value not in _PARAMETERS
                                                 for a in updated.args):
        return None
    values = dict(zip(_PARAMETERS, (a.value for a in updated.args if a.keyword is None)))
    values |= {a.keyword.value: a.value for a in updated.args if a.keyword is not None}
    originals = dict(zip(_PARAMETERS, (a.value for a in original.args if a.keyword is None)))
    originals |= {a.keyword.value: a.value for a in original.args if a.keyword is not None}
    if "axis" not in values or is_none(values["axis"]) or "ord" in values and not is_none(values["ord"]):
        return None
    axis = types.of(originals["axis"])
    if not (isinstance(axis, Scalar) and "int" in axis.dtype):
        return None  # a tuple of axes: a matrix norm, Numba's
    keep = values.get("keepdims")
    if keep is not None and not (isinstance(keep, cst.Name) and keep.value in ("True", "False")):
        return None  # keepdims must be written True or False: it decides the result's rank
    args = [cst.Arg(values["x"]), cst.Arg(values["axis"])] + ([cst.Arg(keep)] if keep is not None else [])
    return cst.Call(cst.Name(intrinsic("cuvil.runtime.axes", "norm_axis")), args)
