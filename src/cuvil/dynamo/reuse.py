"""Which costly element values a row nest keeps in an output between its loops, instead of computing them again
in every loop that needs them (issue 14).

A nest over rows recomputes an element's value in each column loop that needs it (kernel.py): free for a
subtraction, not for an `exp` or a GELU's `erf` that a LayerNorm and a softmax after it need in five loops. The
output a value feeds is this row's own memory, of the value's type, and is written only by the last loop; so a
loop may write a costly value into it and the next loops read it back, as torch's softmax keeps `exp(x - max)`
in its output. One output holds one value at a time: a later loop may replace it (reading the old value first,
element by element) only when no loop after it needs the old one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import torch

aten = torch.ops.aten
COSTLY = {aten.exp.default, aten.log.default, aten.tanh.default, aten.sigmoid.default, aten.erf.default,
          aten.gelu.default, aten.silu.default, aten.pow.Tensor_Tensor}

Needed = Callable[[list[Any], Any], set[Any]]  # (targets, leaves) → the nodes a loop computes or loads
Loops = Sequence[tuple[int, list[Any]]]  # (level, what the loop needs), in order; the output loop last


def schedule(loops: Loops, candidates: Callable[[Any], bool], buffer: str, needed: Needed,
             order: dict[Any, int]) -> tuple[dict[int, dict[Any, str]], dict[int, dict[Any, str]]]:
    """Per loop level: the values it writes to `buffer`, and the value it reads from there."""
    stash_at: dict[int, dict[Any, str]] = {}
    load_at: dict[int, dict[Any, str]] = {}
    held = None
    for k, (level, targets) in enumerate(loops):
        leaves: dict[Any, str] = {held: buffer} if held is not None else {}
        here = needed(targets, leaves)
        if held is not None and held in here:
            load_at[level] = leaves
        if k + 1 == len(loops):
            break
        later = [t for _, ts in loops[k + 1:] for t in ts]
        wanted = needed(later, leaves)
        found = [n for n in here if n not in leaves and n in wanted and candidates(n)
                 and (held is None or held not in needed(later, {n: buffer}))]
        if found:
            held = max(found, key=order.__getitem__)
            stash_at[level] = {held: buffer}
    return stash_at, load_at
