"""Which dims a new variant specializes on (its static dims), by the `dynamic` option.

- `dynamic=None` (default): a dim is static the first time it is seen if its size is at most 16 (0 and 1
  included: they decide broadcasting); once a call shows it a second value, it is dynamic for good.
- `dynamic=True`: no static dims.
- `dynamic=False`: every dim static, until `cuvil.config.recompile_limit` variants exist; the last of them is
  fully dynamic and comes with a `RecompileWarning`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from .guards import ArgGuard, Guard

SMALL_DIM = 16


@dataclasses.dataclass
class DimPolicy:
    dynamic: bool | None
    limit: int
    dynamic_dims: set[tuple[int, int]] = dataclasses.field(default_factory=set)
    exhausted: bool = False  # the limit was reached: new variants are fully dynamic

    def static_dims(self, args: Sequence[ArgGuard], existing: Sequence[Guard]) -> dict[tuple[int, int], int]:
        """Static dims for a variant for `args`, given the variants that already exist (and failed)."""
        for guard in existing:  # a dim that shows a second value becomes dynamic
            for (i, k), size in guard.static.items():
                now = args[i].shape if i < len(args) else None
                if now is not None and k < len(now) and now[k] != size:
                    self.dynamic_dims.add((i, k))
        if self.dynamic is True or self.exhausted:
            return {}
        if self.dynamic is False and len(existing) + 1 >= self.limit:
            self.exhausted = True
            return {}
        static = {}
        for i, arg in enumerate(args):
            for k, size in enumerate(arg.shape or ()):
                if self.dynamic is False or ((i, k) not in self.dynamic_dims and size <= SMALL_DIM):
                    static[(i, k)] = size
        return static
