"""`np.linspace` of two numbers, rewritten by the casts pass (lower/library_results.py dispatches here) into
runtime/ranges.py's helper, which computes as NumPy does:

    np.linspace(a, b, n, endpoint=False, dtype=np.float32)  →  linspace(a, b, n, False, np.float64, np.float32)
    np.linspace(x32, y32, n, retstep=True)                   →  linspace_step(x32, y32, n, True, np.float32, …)

The dtype it computes in is analysis/numpy_rules.linspace_compute's: a Python int and an np.int64 are one type in
compiled code, but not to NumPy. Numba's own takes no endpoint, retstep or dtype and computes in float64.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from ..analysis.numpy_rules import LINSPACE, linspace_compute
from ..analysis.type_rules import Types
from ..analysis.types import Array, Scalar, Tuple


class Linspaces:
    """Mixed into lower/casts.Casts (through LibraryResults), whose `types`, `numpy` and `intrinsic` these use."""

    types: Types
    numpy: Callable[[], str]
    intrinsic: Callable[[str, str], str]
    arrays_into: bool

    def linspace(self, original: cst.Call, updated: cst.Call) -> cst.Call | None:
        """The helper's call, or None where the form is not one it computes (arrays as start or stop, an
        `axis=`, a complex or half result, a retstep that is not a literal): Numba's own."""
        if not self.arrays_into:
            return None
        pairs = list(zip(original.args, updated.args, strict=True))
        given = [(o.value, u.value) for o, u in pairs if u.keyword is None]
        named = {u.keyword.value: (o.value, u.value) for o, u in pairs if u.keyword is not None}
        if len(given) > 6 or any(n in named for n in LINSPACE[:len(given)]) or set(named) - set(LINSPACE[:6]):
            return None
        arguments = {**dict(zip(LINSPACE, given, strict=False)), **named}
        ends = [self.types.of(arguments[n][0]) for n in ("start", "stop") if n in arguments]
        compute = linspace_compute(ends)
        result = self.types.of(original)
        array = result.items[0] if isinstance(result, Tuple) else result
        num = self.types.of(arguments["num"][0]) if "num" in arguments else Scalar("int64", True)
        if compute not in ("float32", "float64") or not isinstance(array, Array) or array.dtype == "float16" \
                or not isinstance(num, Scalar) or not num.dtype.startswith(("int", "uint")):
            return None
        if "retstep" in arguments and (not isinstance(arguments["retstep"][1], cst.Name)
                                       or arguments["retstep"][1].value not in ("True", "False")):
            return None
        stepped = isinstance(result, Tuple)
        if stepped and compute != "float64":
            return None  # NumPy's step is a float32, or Python's nan for one sample: two types
        numpy = cst.Name(self.numpy())
        values = [arguments["start"][1], arguments["stop"][1],
                  arguments["num"][1] if "num" in arguments else cst.Integer("50"),
                  arguments["endpoint"][1] if "endpoint" in arguments else cst.Name("True"),
                  cst.Attribute(numpy, cst.Name(compute)), cst.Attribute(numpy, cst.Name(array.dtype))]
        helper = self.intrinsic("cuvil.runtime.ranges", "linspace_step" if stepped else "linspace")
        return cst.Call(cst.Name(helper), [cst.Arg(v.with_changes(lpar=[], rpar=[])) for v in values])
