"""The `math` table on target="cuda" (issue 36, class 4; the simulator): a kernel calling a math function on
array elements gives what the CPU target gives — the result, or the exception in its words at the user's line
(tests/lower/test_math_errors_table.py holds the CPU target to CPython). Functions whose errors are conditions
on their argument (library/numpy.py's DOMAINS: sqrt … sin, gamma) run in grid-stride kernels that test them first
(codegen/parallel.py); the others (MATH_RAISES: fmod, gcd, ldexp, …) in single-thread kernels whose recording
twins (runtime/cuda_checks.py) compute runtime/pymath.py's (value, error) and record the error.

Not here: math.pow (a kernel's is Numba's, README), functions of tuples (frexp, modf) or of iterables, and the
ones the CPU target refuses."""

import itertools
import math
import traceback

import numpy as np
import pytest

from cuvil.library.numpy import DOMAINS, MATH_RAISES
from tests.cuda.test_python_errors import jitted
from tests.helpers import define
from tests.lower import test_math_errors_table as table
from tests.programs.test_programs import assert_same

INTEGERS = frozenset({"gcd", "lcm", "factorial", "comb", "perm", "isqrt"})
SKIPPED = frozenset({"pow", "frexp", "modf", *table.REFUSED})
CALLS = [(n, a) for n, a in table.CALLS if a and n not in SKIPPED]
FLOATS, INTS = table.FLOATS, table.INTS
FEW_FLOATS = [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.5, 2.0, -3.0, 0.5, 1e300, 5e-324, 1024.0, 171.7]
FEW_INTS = [0, 1, -1, 2, -3, 20, 21, 67, 2**62, 2**63 - 1, -(2**63)]
_PROGRAMS: dict = {}


def program(name: str, arity: int):
    """`out[i] = math.<name>(x0[i], …)` (line 3) over arrays; ldexp's exponent a Python int, the only kind
    CPython takes."""
    if (name, arity) not in _PROGRAMS:
        args = [f"x{k}[i]" for k in range(arity)]
        if name == "ldexp":
            args[1] = "x1"
        _PROGRAMS[name, arity] = define(
            f"def f({', '.join(f'x{k}' for k in range(arity))}, out):\n    for i in range(len(out)):\n"
            f"        out[i] = math.{name}({', '.join(args)})\n    return out\n", env={"math": math})
    return _PROGRAMS[name, arity]


def output(name: str) -> np.dtype:
    if name in INTEGERS or name in ("floor", "ceil", "trunc"):
        return np.dtype(np.int64)
    return np.dtype(np.bool_ if name in ("isnan", "isinf", "isfinite", "isclose") else np.float64)


def values(name: str, arity: int) -> list[tuple]:
    if name in INTEGERS:
        return list(itertools.product(INTS if arity == 1 else FEW_INTS, repeat=arity))
    if name == "ldexp":
        return list(itertools.product(FEW_FLOATS, FEW_INTS))
    return list(itertools.product(FLOATS if arity == 1 else FEW_FLOATS, repeat=arity))[: 400 if arity < 3 else 120]


def arguments(name: str, columns: list[list]) -> list:
    """One array per argument (ldexp's exponent a Python int), and the output."""
    kind = np.int64 if name in INTEGERS else np.float64
    arrays: list = [np.array(c, kind) for c in columns]
    if name == "ldexp":
        arrays = [np.array(columns[0]), int(columns[1][0])]
    return [*arrays, np.zeros(len(columns[0]), output(name))]


def outcome(fn, args, filename: str):
    """The result, or the exception's type, message and the line of `filename` it was raised at."""
    try:
        return "result", fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    except Exception as exc:  # noqa: BLE001
        lines = [f.lineno for f in traceback.extract_tb(exc.__traceback__) if f.filename == filename]
        return type(exc), str(exc), lines[-1] if lines else None


def assert_as_cpu(fn, *args):
    """The CPU target's result (floats within assert_same's tolerance: a kernel's gamma is the device's), or its
    exception with its message at line 3 of fn (the statement)."""
    cpu = outcome(jitted(fn, "cpu"), args, fn.__code__.co_filename)
    gpu = outcome(jitted(fn, "cuda"), args, fn.__code__.co_filename)
    if cpu[0] == "result" and gpu[0] == "result":
        assert_same(cpu[1], gpu[1])
    else:
        assert gpu == cpu, (args, cpu, gpu)
        assert gpu[2] == 3


def test_the_kernels_run_where_the_tables_say():
    """A DOMAINS function's loop is a grid-stride kernel (its conditions tested first); a MATH_RAISES one's a
    single-thread kernel (its error found by computing it)."""
    for name, raises in (("gamma", False), ("sin", False), ("exp2", False), ("fmod", True), ("gcd", True)):
        arity = 2 if name in ("fmod", "gcd") else 1
        args = arguments(name, [[2.0]] * arity if name != "gcd" else [[4], [6]])
        g = jitted(program(name, arity), "cuda")
        g(*args)
        kernel = g.source(stage="kernel")
        assert ("_rt.grid(" in kernel) == (not raises), name
        assert (name in DOMAINS) == (not raises) and (name in MATH_RAISES) == raises


@pytest.mark.parametrize(("name", "arity"), CALLS, ids=[f"{n}-{a}" for n, a in CALLS])
def test_each_value_as_the_cpu_target(name, arity):
    fn = program(name, arity)
    for combo in values(name, arity):
        assert_as_cpu(fn, *arguments(name, [[v] for v in combo]))


@pytest.mark.parametrize(("name", "arity"), CALLS, ids=[f"{n}-{a}" for n, a in CALLS])
def test_the_first_failing_element_raises(name, arity):
    """Every value of the table in one array: the first failing element's error, as on the CPU."""
    combos = values(name, arity)
    assert_as_cpu(program(name, arity), *arguments(name, [list(c) for c in zip(*combos)]))
