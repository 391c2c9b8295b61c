"""cuvil.explain with each variant's fingerprint: printed under the variant's guard line.

The fingerprint is computed when the explanation is printed, not when it is made: it runs the front end again
(inspect/variants.py), which a program that only collects `.compiles` should not pay for. A CUDA variant also
gets a line per kernel and signature it was compiled for: its PTX size and the registers a thread uses (what
limits occupancy), as numba-cuda has them after the first launch (runtime/cuda_runtime.kernel_sizes).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..errors import CuvilError
from ..runtime.events import Explanation


@dataclasses.dataclass(frozen=True)
class Explained(Explanation):
    fn: Any = dataclasses.field(default=None, repr=False, compare=False)

    @property
    def fingerprints(self) -> list[str]:
        """Per live variant, newest first (as `.guards`): its fingerprint (inspect/fingerprint.py)."""
        from .fingerprint import fingerprint

        return [fingerprint(self.fn, v.number) for v in self.fn._variants] if self.fn is not None else []

    def __str__(self) -> str:
        from .fingerprint import fingerprint

        lines: list[str] = []
        pending: list[str] = []  # the kernel lines of the variant being printed: after its loops
        variants = list(self.fn._variants) if self.fn is not None else []
        k = 0
        for line in super().__str__().splitlines():
            if line.startswith("variant #"):
                lines += pending
                pending = []
            lines.append(line)
            if line.startswith("variant #") and k < len(variants):
                try:
                    lines.append(f"  fingerprint {fingerprint(self.fn, variants[k].number)}")
                except CuvilError as exc:
                    lines.append(f"  fingerprint unavailable ({exc})")
                except Exception as exc:  # noqa: BLE001 (printing an explanation must not fail on our bug)
                    lines.append(f"  fingerprint unavailable (an internal error: {type(exc).__name__}: {exc})")
                pending = [f"  {text}" for text in _kernel_lines(variants[k])]
                k += 1
        return "\n".join(lines + pending)

def _kernel_lines(variant: Any) -> list[str]:
    if variant.guard.target != "cuda":
        return []
    sizes = getattr(variant.impl, "kernel_sizes", None)
    try:
        found = sizes() if sizes is not None else []
    except Exception as exc:  # noqa: BLE001 (printing an explanation must not fail on a driver's answer)
        return [f"kernels: PTX sizes unavailable ({type(exc).__name__}: {exc})"]
    if found:
        return found
    from ..runtime import cuda_runtime

    if cuda_runtime.simulator() or cuda_runtime._is_sim():
        return ["kernels: no PTX sizes or registers on the CUDA simulator (it compiles nothing)"]
    return ["kernels: no PTX sizes yet (a variant's kernels compile at their first launch)"]
