"""How Numba compiles a partition's kernel: its pipeline without the passes generated kernels never need, and
LLVM at `-O1` (issue 14's compile-time target: a later graph waits for this compile).

Measured on the bench's three kernels (bench/dynamo.md, interleaved rounds, CPU time of the compile, the
kernel's steady state in the same run): Numba's default pipeline spends ~0.01 s of a 0.15 s LayerNorm compile
in three passes whose input never occurs in a kernel printed from a Plan: `InlineClosureLikes` (closures and
lambdas), `GenericRewrites` (constant-index getitems, raises with constant arguments, static binops on
literals) and `NopythonRewrites` (array expressions, print calls, constant getitems). The kernel is scalar
loops over arrays indexed by loop variables; without these passes it lowers to the same code.

LLVM's `-O1` function and module pipelines instead of `-O3` (Numba's `NUMBA_OPT`, for this compile alone):
−0.01 s a kernel, and the same loops come out vectorized: steady state of the GELU chain, LayerNorm and softmax
kernels unchanged within 1% (the vectorizers run at `-O1` too; what `-O3` adds — GVN, loop unswitching, more
inlining rounds — finds nothing in a loop nest this regular). Measured and not taken: skipping Numba's
per-function passes with `-O1` left softmax's `exp` a call, 6× slower.
"""

from __future__ import annotations

from typing import Any

from numba.core.compiler import CompilerBase, DefaultPassBuilder
from numba.core.typed_passes import NopythonRewrites
from numba.core.untyped_passes import GenericRewrites, InlineClosureLikes

LLVM_OPT = 1
_UNNEEDED = (InlineClosureLikes, GenericRewrites, NopythonRewrites)


class KernelCompiler(CompilerBase):
    """Numba's nopython pipeline, less the passes whose input a generated kernel never holds."""

    def define_pipelines(self) -> list[Any]:
        pm = DefaultPassBuilder.define_nopython_pipeline(self.state)
        pm.passes = [(p, why) for p, why in pm.passes if p not in _UNNEEDED]
        pm.finalize()
        return [pm]


def compile_kernel(dispatcher: Any, signature: tuple[Any, ...]) -> None:
    """`dispatcher.compile(signature)` with LLVM at LLVM_OPT. Numba reads its OPT setting when it builds each
    pass manager; its compiler lock (held by every compile, on any thread) keeps the change to this one."""
    from numba.core import config as numba_config
    from numba.core.compiler_lock import global_compiler_lock

    config: Any = numba_config  # OPT is set at import from NUMBA_OPT: not in the module's stubs

    with global_compiler_lock:
        old = config.OPT
        config.OPT = type(old)(LLVM_OPT)
        try:
            dispatcher.compile(signature)
        finally:
            config.OPT = old
