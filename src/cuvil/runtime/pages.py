"""Huge-page advice for the large arrays compiled code allocates, as NumPy gives its own arrays.

Numba allocates arrays with malloc, and a fresh 40 MB array then takes ten thousand page faults as it is first
written: on Linux with transparent huge pages in `madvise` mode (the common default) that costs more than the
arithmetic. Measured on 10M float32 (bench/lowering.py's machine): `out[i] = 2 * x[i]` into `np.empty` takes
24 ms under Numba against 7.3 ms for NumPy's `x * 2`, and 7.2 ms with this advice; the lowered GELU 50 ms, 16 ms
with it. NumPy advises `MADV_HUGEPAGE` for every allocation of 4 MiB or more (numpy/_core/src/multiarray/
alloc.c); `advise` does the same for the arrays the generated code allocates (codegen/cpu.py prints it around
`np.empty` in the Plan's Alloc regions). The call is `madvise` from the C library, by name, so that compiled
modules stay cacheable; it changes no value and its failure (an old kernel) is ignored, as NumPy ignores it.
"""

from __future__ import annotations

import sys

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

ON_LINUX = sys.platform.startswith("linux")
MADV_HUGEPAGE = 14  # linux/mman.h
THRESHOLD = 1 << 22  # NumPy's: 4 MiB
PAGE = 4096


@intrinsic
def _madvise(typingctx, start, length):
    sig = types.int32(types.uintp, types.uintp)

    def codegen(context, builder, signature, args):
        size_t = ir.IntType(64)
        fnty = ir.FunctionType(ir.IntType(32), [size_t, size_t, ir.IntType(32)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "madvise")
        return builder.call(fn, [args[0], args[1], ir.Constant(ir.IntType(32), MADV_HUGEPAGE)])

    return sig, codegen


if ON_LINUX:
    @njit(nogil=True, cache=True)
    def advise(a):
        """`a`, its pages advised huge when it has 4 MiB or more (whole pages inside it only)."""
        if a.nbytes >= THRESHOLD:
            start = (a.ctypes.data + (PAGE - 1)) // PAGE * PAGE
            end = (a.ctypes.data + a.nbytes) // PAGE * PAGE
            _madvise(start, end - start)
        return a
else:  # no transparent huge pages to ask for
    @njit(nogil=True, cache=True)
    def advise(a):
        return a


@njit(nogil=True, cache=True)
def empty(shape, dtype):
    """`advise(np.empty(shape, dtype))`, compiled once per dims and dtype and then loaded from disk: Numba's
    np.empty is an overload, compiled in every process (0.08-0.2 s of a first call, measured under load)."""
    return advise(np.empty(shape, dtype))
