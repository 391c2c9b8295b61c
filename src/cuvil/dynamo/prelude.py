"""The vector math functions compiled ahead, on a worker thread, once a process has its first kernel (issue 14).

Why: runtime/vmath.py's functions were Numba overloads, each compiled (a whole Numba pipeline, then LLVM) the first
time a kernel calls it, and Numba keys that compile by the caller's flags too. They are now functions cached on disk
(loaded in milliseconds once any process compiled them), so this matters for the half conversions and for a process
whose Numba cache is empty; the figures below are from the overload days. So a later graph's softmax paid for
`exp_f32` and `maximum` inside its own compile: 0.27–0.33 s of CPU time, against 0.14–0.16 s for the same kernel
once they were compiled (measured, three interleaved processes each). Compiled here with the kernels' own decorator
(modules.module_text: the same flags, so the same entries), while the model runs after its first graph, a later
graph's compile is its own kernel's alone.

Only the families a kernel of the process used (float32 math, float64 math, half conversions: all three cost
1.5–2 s of CPU), one function at a time, and never while a partition compiles in the foreground (`foreground()`):
the first version compiled everything as one function under Numba's compiler lock, and a graph compiled right
after the first one (a graph break) waited 3.1–4.3 s for it instead of 0.7–0.8 s (measured). Now such a graph
waits at most for the one function in progress. Started after the first kernel, not at import: Numba's start
(~0.7 s) is paid by then, and a process that never compiles a kernel pays nothing. With `cache=True` like the
kernels: a process whose kernels all come from disk loads these from disk too. Nothing here changes a result:
the kernels compile the same functions with or without it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import torch

from . import modules

# Every vector-math function and half conversion a kernel can call (kernel.py), with the argument types it
# calls them with: the compute types' scalars, and a half's bits.
FAMILIES = {
    "float32": [f"{f}_f32(x)" for f in ("exp", "erf", "tanh", "log", "sigmoid")] + ["maximum(x, x)", "minimum(x, x)"],
    "float64": [f"{f}_f64(x)" for f in ("exp", "erf", "tanh", "log", "sigmoid")] + ["maximum(x, x)", "minimum(x, x)"],
    "half": ["bf16_to_f32(x)", "f16_to_f32(x)", "bf16(np.float32(x))", "f16(np.float32(x))"],
}
_ARGUMENT = {"float32": "float32", "float64": "float64", "half": "uint16"}

_cond = threading.Condition()
_state: dict[str, Any] = {"thread": None, "foreground": 0}
_requested: set[str] = set()
_queue: list[str] = []


def families(dtypes: Any) -> list[str]:
    """The families a kernel over tensors of these dtypes calls into."""
    out = ["float64" if d == torch.float64 else "float32" for d in dtypes if d.is_floating_point]
    if any(d in (torch.float16, torch.bfloat16) for d in dtypes):
        out.append("half")
    return sorted(set(out))


def start(wanted: list[str]) -> None:
    """Queue the families not compiled yet, and start the worker if it is not running."""
    with _cond:
        new = [f for f in wanted if f not in _requested]
        _requested.update(new)
        _queue.extend(new)
        if not _queue or _state["thread"] is not None:
            return
        _state["thread"] = thread = threading.Thread(target=_work, name="cuvil-dynamo-prelude")
    thread.start()


@contextmanager
def foreground() -> Iterator[None]:
    """While a partition compiles for a caller, the worker starts no new function."""
    with _cond:
        _state["foreground"] += 1
    try:
        yield
    finally:
        with _cond:
            _state["foreground"] -= 1
            _cond.notify_all()


def wait(timeout: float | None = None) -> bool:
    """True once every queued family is compiled."""
    with _cond:
        return _cond.wait_for(lambda: _state["thread"] is None, timeout)


def _text() -> str:
    functions = [f"def {family}_{i}(x):\n    return {call}\n"
                 for family, calls in FAMILIES.items() for i, call in enumerate(calls)]
    return modules.module_text("the vector math compiled ahead (prelude.py)", *functions)


def _work() -> None:
    from numba import types

    module = None
    while True:
        with _cond:
            if not _queue:
                _state["thread"] = None
                _cond.notify_all()
                return
            family = _queue[0]
        for i in range(len(FAMILIES[family])):
            with _cond:
                _cond.wait_for(lambda: _state["foreground"] == 0)
            try:
                module = module or modules.load(_text())
                getattr(module, f"{family}_{i}").compile((getattr(types, _ARGUMENT[family]),))
            except Exception:  # noqa: BLE001, S110 - it only saves time: a kernel compiles what it needs itself
                pass
        with _cond:
            _queue.pop(0)
