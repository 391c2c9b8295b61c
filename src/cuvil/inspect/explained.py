"""cuvil.explain with each variant's fingerprint: printed under the variant's guard line.

The fingerprint is computed when the explanation is printed, not when it is made: it runs the front end again
(inspect/variants.py), which a program that only collects `.compiles` should not pay for.
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

        lines, k = [], 0
        variants = list(self.fn._variants) if self.fn is not None else []
        for line in super().__str__().splitlines():
            lines.append(line)
            if line.startswith("variant #") and k < len(variants):
                try:
                    lines.append(f"  fingerprint {fingerprint(self.fn, variants[k].number)}")
                except CuvilError as exc:
                    lines.append(f"  fingerprint unavailable ({exc})")
                except Exception as exc:  # noqa: BLE001 (printing an explanation must not fail on our bug)
                    lines.append(f"  fingerprint unavailable (an internal error: {type(exc).__name__}: {exc})")
                k += 1
        return "\n".join(lines)
