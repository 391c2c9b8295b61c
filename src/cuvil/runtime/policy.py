"""Which dims a new variant specializes on (its static dims), by the `dynamic` option.

- `dynamic=None` (default): a dim is static the first time it is seen if its size is at most 16 (0 and 1
  included: they decide broadcasting); once a call shows it a second value, it is dynamic for good.
- `dynamic=True`: no static dims.
- `dynamic=False`: every dim static, until `cuvil.config.recompile_limit` variants exist; the last of them is
  fully dynamic and comes with a `RecompileWarning`.

Declared dims (cuvil/dims.py) come first, whatever `dynamic` says, for a call whose size fits them: a range
makes the dim dynamic and guarded by the range (`ranges`), a declared size makes it static, a declared name
makes it dynamic. A size that does not fit its declaration is left to the policy. A variant past the recompile
limit is fully dynamic and unguarded all the same.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ..dims import Declared
from .guards import ArgGuard, Guard

SMALL_DIM = 16


@dataclasses.dataclass
class DimPolicy:
    dynamic: bool | None
    limit: int
    dynamic_dims: set[tuple[int, int]] = dataclasses.field(default_factory=set)
    exhausted: bool = False  # the limit was reached: new variants are fully dynamic
    declared: Declared = dataclasses.field(default_factory=dict)  # (argument, axis) → range, size or None

    def static_dims(self, args: Sequence[ArgGuard], existing: Sequence[Guard]) -> dict[tuple[int, int], int]:
        """Static dims for a variant for `args`, given the variants that already exist (and failed)."""
        for guard in existing:  # a dim that shows a second value becomes dynamic
            for (i, k), size in guard.static.items():
                now = args[i].shape if i < len(args) else None
                if now is not None and k < len(now) and now[k] != size:
                    self.dynamic_dims.add((i, k))
        if self.exhausted or self.dynamic is False and len(existing) + 1 >= self.limit:
            self.exhausted = True
            return {}
        static = {}
        for i, arg in enumerate(args):
            for k, size in enumerate(arg.shape or ()):
                if (i, k) in self.declared and _fits(self.declared[(i, k)], size):
                    if self.declared[(i, k)] == size:  # a declared size (a range or a name: dynamic)
                        static[(i, k)] = size
                elif self.dynamic is False or self.dynamic is None and (i, k) not in self.dynamic_dims \
                        and size <= SMALL_DIM:
                    static[(i, k)] = size
        return static

    def ranges(self, args: Sequence[ArgGuard]) -> dict[tuple[int, int], tuple[int, int]]:
        """The declared ranges `args`' sizes fall in: the new variant serves each whole range."""
        if self.exhausted:
            return {}
        return {(i, k): r for i, arg in enumerate(args) for k, size in enumerate(arg.shape or ())
                if isinstance(r := self.declared.get((i, k)), tuple) and r[0] <= size <= r[1]}


def _fits(declared: tuple[int, int] | int | None, size: int) -> bool:
    """Whether `size` fits a declaration (a name without a range fits any size)."""
    if declared is None:
        return True
    if isinstance(declared, tuple):
        return declared[0] <= size <= declared[1]
    return declared == size
