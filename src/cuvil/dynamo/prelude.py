"""The vector math functions compiled ahead, on a worker thread, once a process has its first kernel (issue 14).

Why: runtime/vmath.py's functions are Numba overloads, each compiled (a whole Numba pipeline, then LLVM) the
first time a kernel calls it, and Numba keys that compile by the caller's flags too. So a later graph's softmax
paid for `exp_f32` and `maximum` inside its own compile: 0.27–0.33 s of CPU time, against 0.14–0.16 s for the
same kernel once they were compiled (measured, three interleaved processes each). Compiled here with the kernels'
own decorator (modules.module_text: the same flags, so the same entries), while the model runs after its first
graph, a later graph's compile is its own kernel's alone.

Started after the first kernel, not at import: Numba's start (~0.7 s) is paid by then, and a process that never
compiles a kernel pays nothing. With `cache=True` like the kernels: a process whose kernels all come from disk
loads this from disk too (milliseconds) rather than spending CPU on functions it will not compile. A later
graph compiled while this still runs waits for it at Numba's compiler lock (at most its 0.3–0.5 s). Nothing here
changes a result: the kernels compile the same functions with or without it.
"""

from __future__ import annotations

import threading

from . import modules

# Every vector-math function and half conversion a kernel can call (kernel.py), with the argument types it
# calls them with: the compute types' scalars, and a half's bits.
_FUNCTION = """def prelude(x, y, h):
    f32 = (erf_f32(x) + exp_f32(x) + log_f32(x) + tanh_f32(x) + sigmoid_f32(x) + maximum(x, x) + minimum(x, x)
           + bf16_to_f32(h) + f16_to_f32(h))
    f64 = erf_f64(y) + exp_f64(y) + log_f64(y) + tanh_f64(y) + sigmoid_f64(y) + maximum(y, y) + minimum(y, y)
    return f32, f64, bf16(x), f16(x)
"""

_lock = threading.Lock()
_THREAD: list[threading.Thread] = []


def start() -> None:
    """Compile the functions on a worker thread, once per process."""
    with _lock:
        if _THREAD:
            return
        _THREAD.append(threading.Thread(target=_compile, name="cuvil-dynamo-prelude"))
    _THREAD[0].start()


def wait(timeout: float | None = None) -> bool:
    """True once the functions are compiled (or were never started)."""
    with _lock:
        thread = _THREAD[0] if _THREAD else None
    if thread is not None:
        thread.join(timeout)
    return thread is None or not thread.is_alive()


def _compile() -> None:
    from numba import types

    try:
        fn = modules.load(modules.module_text("the vector math compiled ahead (prelude.py)", _FUNCTION)).prelude
        fn.compile((types.float32, types.float64, types.uint16))
    except Exception:  # noqa: BLE001, S110 - it only saves time: a kernel compiles what it needs itself
        pass
