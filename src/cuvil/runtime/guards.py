"""Guards: what a compiled variant assumed, checked on every call.

A variant assumes, per argument, its exact Numba type (dtype, rank, layout, scalar kind: the fingerprint
Numba's own dispatcher computes) and the size of each dim it specialized on that its code depends on (a static
dim no statement reads is left out: codegen/specialize.read_dims); and every value it read from
outside its arguments — globals, closure cells, module attributes, defaults, also those of its callees —
is the one compiled in (runtime/global_guards.py). Numba dispatches on types only and freezes those values at
its first compile, so without these checks a changed module constant would silently give stale results.

The checks are compiled into Python source (`failure_tests`): the call entry (runtime/entry.py) inlines every
variant's checks into one generated `__call__`, and each variant also gets an `enter` function, for the slow
path, on arguments adapters.py converted (torch tensors, half-precision arrays):

    def enter(args):
        try:
            a0, a1 = args
            if (fp(a0) != F_0 or type(a1) is not C_1                        # types (C_1: a float's class)
                    or type(a0) is not ndarray or a0.dtype is not T_0 and a0.dtype != T_0  # class, byte order
                    or a0.shape[1] != 3                                     # a static dim
                    or GD_0['K'] is not GE_0 and not same(GD_0['K'], GE_0)):  # runtime/global_guards.py
                return MISS
        except Exception:
            return MISS
        return impl(a0, a1)

Numba's fingerprint ignores two things that change an array's meaning: byte order (a big-endian float64 array
fingerprints as a native one) and the class (a masked array or np.matrix fingerprints as a plain ndarray), so
each array also checks both: the dtype by identity first (native dtypes are singletons), by value if not. A
float or complex scalar checks its class too (a float subclass fingerprints as a float): Python floats pay
one `type() is` test, np.float64 two.
Anything a guard cannot even look at (a torch tensor, a float16 array, a dict) is a miss, not an error: the
slow path then hands it to adapters.py, which converts it or refuses it with the argument's name.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import numba
import numpy as np
from numba._dispatcher import compute_fingerprint
from numba.np.numpy_support import as_dtype

from ..analysis.types import Array, Scalar, Tuple, Type, of_argument
from ..errors import CuvilTypeError
from ..frontend.captures import MISSING
from .adapters import Half
from .global_guards import Check, global_guards, on_use, same, warn_unfrozen_arrays  # noqa: F401 (re-exported)


@dataclasses.dataclass(frozen=True)
class ArgGuard:
    name: str
    numba_type: Any
    fingerprint: bytes
    shape: tuple[int, ...] | None  # for arrays: the sizes seen when the variant was made
    kind: Type  # the type the compiler sees: a Python float is weak (NEP 50), an np.float64 is not
    device: int | None = None  # for GPU arrays: the CUDA device ordinal, if the array says (device_ordinal)


_DLPACK_CUDA = (2, 3)  # DLPack's kDLCUDA and kDLCUDAHost: what the CUDA target takes (runtime/cuda_arrays.py)


def on_device(value: object) -> bool:
    """An array that lives on a GPU, as the CUDA target takes them (runtime/cuda_arrays.device_array): one with
    `__cuda_array_interface__` (a torch CUDA tensor, CuPy, a numba device array), a DLPack producer on a CUDA
    device (JAX, ...), or the CUDA simulator's device array (a NumPy array inside, which answers DLPack for the
    host). Read here without importing numba.cuda: `target="auto"` asks this of every argument of a slow call."""
    if isinstance(value, tuple):
        return any(on_device(v) for v in value)
    if isinstance(value, np.ndarray | int | float | complex) or value is None:
        return False
    if hasattr(value, "__cuda_array_interface__"):
        return True
    cls = type(value)
    if cls.__name__ == "FakeCUDAArray" and cls.__module__.startswith("numba.cuda.simulator"):
        return True
    where = getattr(value, "__dlpack_device__", None)
    if where is None or not hasattr(value, "__dlpack__"):
        return False
    try:
        return int(where()[0]) in _DLPACK_CUDA
    except Exception:  # a producer that cannot say where it lives is not a GPU array
        return False


def device_interface(value: Any) -> dict[str, Any]:
    """A GPU array's `__cuda_array_interface__`, as the CUDA target reads it (runtime/cuda_arrays.interface:
    its own, or DLPack's for a producer with no other); numba's own device arrays state theirs."""
    from .cuda_arrays import interface  # imports numba.cuda: only for a GPU array

    return interface(value) or value.__cuda_array_interface__


def device_ordinal(value: Any) -> int | None:
    """The CUDA device a GPU array lives on: DLPack's device id (torch, CuPy, JAX), else the device of a numba
    device array's context; None where neither says (an object with only `__cuda_array_interface__`, whose
    version 3 names no device: such an argument is not guarded by device)."""
    found = getattr(value, "__dlpack_device__", None)
    if found is not None:
        return int(found()[1])
    device = getattr(getattr(getattr(value, "gpu_data", None), "context", None), "device", None)
    ordinal = getattr(device, "id", None)
    return ordinal if isinstance(ordinal, int) else None


def device_fingerprint(value: Any) -> bytes:
    """What a variant assumes of a GPU array: dtype, rank, C-contiguity, its library (results go back in it),
    and the device it lives on (a kernel launched on one device cannot read another's memory)."""
    iface = device_interface(value)
    shape, strides = tuple(iface["shape"]), iface.get("strides")
    if strides is not None:  # C-contiguous arrays may state their strides
        dtype, step, contiguous = np.dtype(iface["typestr"]), 0, True
        step = dtype.itemsize
        for n, st in zip(reversed(shape), reversed(strides)):
            contiguous = contiguous and (n <= 1 or st == step)
            step *= n
        strides = None if contiguous else strides
    return repr(("cuda", iface["typestr"], len(shape), strides is None, type(value).__module__,
                 device_ordinal(value))).encode()


def _device_guard(name: str, value: Any) -> ArgGuard:
    fingerprint = device_fingerprint(value)
    iface = device_interface(value)
    dtype = numba.from_dtype(np.dtype(iface["typestr"]))
    layout = "C" if b"True" in fingerprint else "A"
    numba_type = numba.types.Array(dtype, len(iface["shape"]), layout)  # type: ignore[call-overload]
    return ArgGuard(name, numba_type, fingerprint, tuple(iface["shape"]), of_argument(value, numba_type),
                    device_ordinal(value))


def half_fingerprint(value: Any) -> bytes:
    """A half-precision array (adapters.Half): which half, and Numba's fingerprint of its uint16 bits."""
    return b"half " + value.dtype.encode() + b" " + compute_fingerprint(value.bits)


def _half_guard(name: str, value: Half) -> ArgGuard:
    numba_type = numba.typeof(value.bits)
    return ArgGuard(name, numba_type, half_fingerprint(value), value.shape, Array(value.dtype, value.bits.ndim))


def arg_guards(names: Sequence[str], args: Sequence[object]) -> tuple[ArgGuard, ...]:
    out = []
    for name, value in zip(names, args):
        if on_device(value) and not isinstance(value, tuple):
            out.append(_device_guard(name, value))
            continue
        if isinstance(value, Half):
            out.append(_half_guard(name, value))
            continue
        shape = tuple(value.shape) if hasattr(value, "shape") and hasattr(value, "dtype") else None
        try:
            numba_type, fingerprint = numba.typeof(value), compute_fingerprint(value)  # type: ignore[arg-type]
        except Exception as exc:  # adapters.py refuses what it knows; a user never sees Numba's refusal
            raise CuvilTypeError(f"argument '{name}' is a {type(value).__name__}, which compiled code cannot "
                                 f"take ({exc})", argument=name) from None
        out.append(ArgGuard(name, numba_type, fingerprint, shape, of_argument(value, numba_type)))
    return tuple(out)


# The class a bool / float64 / complex128 scalar argument has, weak (a Python number) or not; the fingerprint
# lets subclasses through, and does not tell a Python float from an np.float64, nor True from np.True_ — whose
# results differ (NEP 50; `True + True` is 2, `np.True_ + np.True_` is np.True_).
_SCALAR_CLASSES = {numba.types.boolean: (bool, np.bool_), numba.types.float64: (float, np.float64),
                   numba.types.complex128: (complex, np.complex128)}


def exact_items(numba_type: Any, expr: str, kind: Type) -> list[tuple[str, Any]]:
    """What the fingerprint misses, inside an argument of `numba_type` (itself, or inside tuples): each array as
    (expression, its dtype), each float64 or complex128 scalar as (expression, its class, twice)."""
    if isinstance(numba_type, numba.types.Array):
        return [(expr, np.dtype(as_dtype(numba_type.dtype)))]
    if numba_type in _SCALAR_CLASSES:
        python, numpy = _SCALAR_CLASSES[numba_type]
        cls = python if isinstance(kind, Scalar) and kind.weak else numpy
        return [(expr, (cls, cls))]
    if isinstance(numba_type, numba.types.BaseTuple):
        items = numba_type.types  # type: ignore[attr-defined]
        kinds = kind.items if isinstance(kind, Tuple) else (kind,) * len(items)
        return [found for k, (t, i) in enumerate(zip(items, kinds)) for found in exact_items(t, f"{expr}[{k}]", i)]
    return []


@dataclasses.dataclass
class Guard:
    args: tuple[ArgGuard, ...]
    static: dict[tuple[int, int], int]  # (argument index, axis) → size this variant is compiled for
    globals: tuple[Check, ...]  # on the values read from outside the arguments: runtime/global_guards.py
    target: str = "cpu"  # the target the variant was compiled for ("cuda": a launcher of kernels)
    # Indices into `globals` the call path does not test on every call: the entry's own defaults, which only a
    # call that leaves an argument out reads (runtime/entry.py tests them then, and drops this variant from
    # the call path if they changed). `check` and `failure` still test them.
    on_use: frozenset[int] = frozenset()
    # (argument index, axis) → the declared range (low, high) this variant serves (cuvil/dims.py)
    ranges: dict[tuple[int, int], tuple[int, int]] = dataclasses.field(default_factory=dict)

    def check(self, args: Sequence[object]) -> bool:
        return self.failure(args) is None

    def holds_on_use(self) -> bool:
        """Whether the checks left to the call entry (`on_use`) pass now."""
        return all(self.globals[j].failure() is None for j in self.on_use)

    def entry(self, impl: Callable[..., Any]) -> Callable[[tuple[Any, ...]], Any]:
        """`enter(args)`: `impl(*args)` if `args` pass this guard, else `MISS`."""
        return _compile_entry(self, impl)

    def items(self) -> list[str]:
        """The guard in words, for `cuvil.explain`."""
        lines = [f"{a.name}: {a.kind} as uint16 bits" if is_half(a) else
                 f"{a.name}: {a.numba_type}" + (_on_gpu(a) if is_device(a) else "") for a in self.args]
        lines += [f"target: {self.target}"] if self.target != "cpu" else []
        lines += [f"{self.args[i].name}.shape[{k}] == {v}" for (i, k), v in sorted(self.static.items())]
        lines += [f"{lo} <= {self.args[i].name}.shape[{k}] <= {hi} (declared)"
                  for (i, k), (lo, hi) in sorted(self.ranges.items())]
        lines += [g.describe() for g in self.globals]
        return lines

    def failure(self, args: Sequence[object]) -> str | None:
        """Why `args` fail this guard, as a sentence naming the first failed item; None if they pass."""
        if len(args) != len(self.args):
            return f"{len(args)} arguments != {len(self.args)}"
        for spec, value in zip(self.args, args):
            reason = _type_failure(spec, value)
            if reason:
                return reason
        for (i, k), size in sorted(self.static.items()):
            now = args[i].shape[k]  # type: ignore[attr-defined]
            if now != size:
                return f"{self.args[i].name}.shape[{k}]: {now} != {size}"
        for (i, k), (lo, hi) in sorted(self.ranges.items()):
            now = args[i].shape[k]  # type: ignore[attr-defined]
            if not lo <= now <= hi:
                return f"{self.args[i].name}.shape[{k}]: {now} outside the declared range {lo}..{hi}"
        for g in self.globals:
            reason = g.failure()
            if reason:
                return reason
        return None


def _on_gpu(spec: ArgGuard) -> str:
    return " on the GPU" if spec.device is None else f" on CUDA device {spec.device}"


def is_device(spec: ArgGuard) -> bool:
    return spec.fingerprint.startswith(b"('cuda'")


def is_half(spec: ArgGuard) -> bool:
    return spec.fingerprint.startswith(b"half ")


def _type_failure(spec: ArgGuard, value: object) -> str | None:
    if is_half(spec) or isinstance(value, Half):
        was = f"{spec.kind}" if is_half(spec) else f"{spec.numba_type}"
        got = f"{Array(value.dtype, value.bits.ndim)}" if isinstance(value, Half) else f"{numba.typeof(value)}"
        same_type = isinstance(value, Half) and is_half(spec) and half_fingerprint(value) == spec.fingerprint
        return None if same_type else f"{spec.name}: {got} != {was}"
    if is_device(spec):
        if not on_device(value):
            return f"{spec.name}: {type(value).__name__} is not a GPU array"
        now = device_fingerprint(value)
        if now == spec.fingerprint:
            return None
        ordinal = device_ordinal(value)
        if ordinal != spec.device:
            return f"{spec.name}: on CUDA device {ordinal}, not device {spec.device}"
        return f"{spec.name}: {now.decode()} != {spec.fingerprint.decode()}"
    was = spec.numba_type
    if on_device(value):  # a host variant, a GPU array now (which Numba's typeof cannot look at)
        return f"{spec.name}: a GPU array, not {was}"
    try:
        if compute_fingerprint(value) == spec.fingerprint:  # type: ignore[arg-type]
            return _exact_failure(spec.numba_type, value, spec.name, spec.kind)
    except Exception:  # not a kind Numba knows: typeof below names it
        pass
    try:
        now = numba.typeof(value)
    except Exception:  # nothing Numba can type: the user sees a reason, never Numba's ValueError
        return f"{spec.name}: {type(value).__name__} != {was}"
    for attr in ("dtype", "ndim", "layout"):
        if hasattr(now, attr) and hasattr(was, attr) and getattr(now, attr) != getattr(was, attr):
            return f"{spec.name}.{attr}: {getattr(now, attr)} != {getattr(was, attr)}"
    if str(now) == str(was) and isinstance(spec.kind, Scalar):  # a Python number against a NumPy scalar
        here = f"a NumPy {now}" if isinstance(value, np.generic) else f"a Python {type(value).__name__}"
        there = f"a Python {spec.kind}" if spec.kind.weak else f"a NumPy {spec.kind}"
        return f"{spec.name}: {here}, not {there}"
    return f"{spec.name}: {now} != {was}"


def _exact_failure(numba_type: Any, value: Any, name: str, kind: Type) -> str | None:
    """What the fingerprint missed (see the module docstring): a subclass, or another byte order."""
    for expr, want in exact_items(numba_type, "", kind):
        part = value
        for k in expr.strip("[]").split("][") if expr else ():
            part = part[int(k)]
        classes = (np.ndarray,) if isinstance(want, np.dtype) else want
        if type(part) not in classes:
            return f"{name}{expr}: {type(part).__name__} is not {classes[0].__name__}"
        if isinstance(want, np.dtype) and part.dtype != want:
            return f"{name}{expr}.dtype: {part.dtype.str} != {want.str}"
    return None


MISS = object()  # what `enter` returns when the guard fails (None is a legitimate result)


def failure_tests(guard: Guard, exprs: Sequence[str], env: dict[str, object], tag: str = "") -> list[str]:
    """Conditions, each true when `guard` fails for the arguments spelled `exprs`, to be joined by `or` in this
    order: an argument's type before its dims and tuple items, a module before its attributes. Names the
    conditions need go into `env`, suffixed by `tag` (several guards share one generated function)."""
    fingerprints = {i: "dfp" if is_device(s) else "hfp" if is_half(s) else "fp" for i, s in enumerate(guard.args)}
    tests = []
    for i, spec in enumerate(guard.args):
        cls = scalar_class(spec.numba_type, spec.kind) if fingerprints[i] == "fp" else None
        if cls is not None:
            env[f"C{tag}_{i}"] = cls
            tests.append(f"type({exprs[i]}) is not C{tag}_{i}")
        else:
            env[f"F{tag}_{i}"] = spec.fingerprint
            tests.append(f"{fingerprints[i]}({exprs[i]}) != F{tag}_{i}")
    exact = [found for i, spec in enumerate(guard.args) if fingerprints[i] == "fp"
             and scalar_class(spec.numba_type, spec.kind) is None
             for found in exact_items(spec.numba_type, exprs[i], spec.kind)]
    tests += exact_tests(exact, env, tag)
    tests += dim_tests(guard, exprs)
    tests += global_tests(guard, env, tag)
    return tests


def global_tests(guard: Guard, env: dict[str, object], tag: str) -> list[str]:
    return [g.condition(f"{tag}_{j}", env) for j, g in enumerate(guard.globals) if j not in guard.on_use]


def exact_tests(exact: Sequence[tuple[str, Any]], env: dict[str, object], tag: str) -> list[str]:
    """The class (and byte order) tests of `exact_items`'s findings: what a fingerprint does not see."""
    tests = []
    for j, (expr, want) in enumerate(exact):
        if isinstance(want, np.dtype):
            env[f"T{tag}_{j}"] = want
            tests.append(f"type({expr}) is not ndarray or {expr}.dtype is not T{tag}_{j} and "
                         f"{expr}.dtype != T{tag}_{j}")
        else:
            env[f"P{tag}_{j}"], env[f"N{tag}_{j}"] = want
            tests.append(f"type({expr}) is not P{tag}_{j} and type({expr}) is not N{tag}_{j}")
    return tests


def dim_tests(guard: Guard, exprs: Sequence[str]) -> list[str]:
    """A test per static dim and declared range, true when the size does not fit (valid once the argument is
    known to be an array of enough dims)."""
    def dim(i: int, k: int) -> str:
        return f"len({exprs[i]})" if k == 0 else f"{exprs[i]}.shape[{k}]"  # len() builds no shape tuple

    return [f"{dim(i, k)} != {size}" for (i, k), size in sorted(guard.static.items())] + \
        [f"not {lo} <= {dim(i, k)} <= {hi}" for (i, k), (lo, hi) in sorted(guard.ranges.items())]


ENV = {"fp": compute_fingerprint, "same": same, "MISSING": MISSING, "MISS": MISS, "ndarray": np.ndarray,
       "dfp": device_fingerprint, "hfp": half_fingerprint}  # what every generated guard may call


def _compile_entry(guard: Guard, impl: Callable[..., Any]) -> Callable[[tuple[Any, ...]], Any]:
    env: dict[str, object] = {**ENV, "impl": impl}
    n = len(guard.args)
    exprs = [f"a{i}" for i in range(n)]
    lines = ["def enter(args):", "    try:"]
    lines.append(f"        {', '.join(exprs)}{',' if n == 1 else ''} = args" if n else "        if args: return MISS")
    tests = failure_tests(guard, exprs, env)
    if tests:
        lines.append("        if " + " or ".join(tests) + ": return MISS")
    passed = ", ".join(f"a{i}.bits" if is_half(s) else f"a{i}" for i, s in enumerate(guard.args))
    lines += ["    except Exception:",
              "        return MISS", f"    return impl({passed})"]
    exec("\n".join(lines), env)
    return env["enter"]  # type: ignore[return-value]


_NUMBER_TYPES = (numba.types.Integer, numba.types.Float, numba.types.Complex)


def scalar_class(numba_type: Any, kind: Type) -> type | None:
    """The one class a number argument of `numba_type` has, when that class alone fixes Numba's fingerprint:
    one `type(a) is C` test (~30 ns) then stands for the fingerprint call and the class test after it. A
    Python int or float is weak (NEP 50), an np.int64 or np.float64 is not, and each is a variant of its own;
    an int subclass or a bool is another class, so a miss (the slow path refuses or retypes it)."""
    if not isinstance(numba_type, _NUMBER_TYPES) or not isinstance(kind, Scalar):
        return None
    if kind.weak:
        python = {numba.types.int64: int, numba.types.float64: float, numba.types.complex128: complex}
        return python.get(numba_type)
    return np.dtype(as_dtype(numba_type)).type
