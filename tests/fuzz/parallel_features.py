"""What a parallel-fuzz program contains, by name: the constructs the generator promises (test_parallel_harness
checks that it reaches each), and the labels the hunt gives a shrunk reproducer."""

from __future__ import annotations

import re
from collections.abc import Callable

from .parallel_programs import LAYOUTS, ParallelProgram

Check = Callable[[ParallelProgram], bool]


def _text(pattern: str) -> Check:
    return lambda p: re.search(pattern, "\n".join(p.body), re.M) is not None


CONSTRUCTS: dict[str, Check] = {
    "view a[1:]": _text(r"= [a-z]\[1:\]$"), "reversed view": _text(r"\[::-1\]"), "b = a": _text(r"^[vw] = [a-z]$"),
    "reshape": _text(r"\.reshape\("), "np.ravel": _text(r"np\.ravel\("), "transpose": _text(r"\.T$"),
    "tuple alias": _text(r"k0 = "), "alias through a ternary": _text(r" if d >= 0 else "),
    "view from a helper": _text(r"tail\("), "gather": _text(r"= .*\bidx\["), "scatter": _text(r"^\s+\w+\[idx\["),
    "range(-n, n)": _text(r"range\(-\w+(\.shape\[\d\]|\(\w+\)), "), "reversed range": _text(r", -1, -1\)"),
    "range with a step": _text(r"range\(.*, [23]\):|, -3\):"),
    "range with a negative step": _text(r"range\(.*, -[13]\):$"), "numba.prange": _text(r"numba\.prange\("),
    "loop variable after the loop": _text(r"^return .*\bi\b"), "reduction": _text(r"^\s+s [-+]= "),
    "scan": _text(r"= s$"), "recurrence": _text(r"s = s \* 0.5"),
    "max/min reduction": _text(r"s = m(ax|in)\(s, "), "break": _text(r"^\s+break$"),
    "continue": _text(r"^\s+continue$"),
    "row view made in the loop": _text(r"^\s+row = \w+\["), "counter": _text(r"c \+= 1"),
    "plain helper that writes": _text(r"\bput\("), "numba.njit helper that writes": _text(r"\bnput\("),
    "helper that writes and returns": _text(r"bump\("),
    "ufunc with an output": _text(r"np\.(add|multiply|subtract)\(\w+\["),
    "ufunc accumulating into an array": _text(r"np\.(add|subtract)\(acc, "),
    ".fill": _text(r"\.fill\("), ".sort": _text(r"\.sort\("), "allocation in the loop": _text(r"^\s+tmp = np\."),
    "allocation read after the loop": _text(r"^return .*tmp"), "// by zero": _text(r"// \(d - i\)|// d\)"),
    "% by zero": _text(r"% \(d - i\)"), "math.fmod": _text(r"math\.fmod\("), "wrapped index": _text(r"% len\("),
    "negative index": _text(r"\[-1 - [ij]\]|- len\(\w+\)\]"), "inner loop": _text(r"for j in"),
    "row assignment": _text(r", :\] = "), "private scalar": _text(r"^\s+t = "),
    "global read": _text(r"\bG\b"), "int global in an index": _text(r"\+ K\)"),
    "torch call": lambda p: any(r.kind == "torch" for r in p.runs),
    "numpy then torch": lambda p: len({r.kind for r in p.runs}) == 2,
    "size changes": lambda p: len({r.size for r in p.runs}) > 1,
    "global changes": lambda p: "G" in p.source and len({r.g for r in p.runs}) > 1,
    "int64 array": lambda p: p.b_dtype == "int64",
    "float reduction compared with a tolerance": lambda p: bool(p.loose),
    **{f"dynamic={d}": lambda p, d=d: p.dynamic is d for d in (None, True, False)},
    **{f"layout {f}/{n}": lambda p, f=f, n=n: (p.family, p.layout) == (f, n) for f in LAYOUTS for n in LAYOUTS[f]},
}


def features(program: ParallelProgram) -> list[str]:
    return [name for name, test in CONSTRUCTS.items() if test(program)]
