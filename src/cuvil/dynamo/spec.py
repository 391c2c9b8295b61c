"""What a compiled partition needs at call time, apart from its machine code: the kernel's form, how each
argument and result lies against the nest, and where each extent is found (issue 14).

Kept apart from the Plan (kernel.py) and written next to the generated module as JSON, so that a partition met
again in a later process is called from this record alone: no Plan is built and libcst is not imported
(measured: importing libcst and the lowering's modules costs 0.35 s, printing a Plan 10–20 ms per partition).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import torch

from . import layout as L

STORAGE = {torch.float16: "uint16", torch.bfloat16: "uint16"}  # halves travel as their bits


@dataclasses.dataclass(frozen=True)
class Spec:
    name: str  # the generated function's name
    mode: str  # "rows" or "flat"
    inputs: tuple[tuple[str, torch.dtype], ...]  # layout class and dtype of each argument
    outputs: tuple[tuple[str, torch.dtype, tuple[L.Dim, ...]], ...]  # class, dtype, shape spec
    reference: tuple[L.Dim, ...]
    result: Any  # the partition's output structure, as indices into `outputs`
    ops: tuple[str, ...]  # the aten operations fused, in graph order

    def to_json(self) -> str:
        return json.dumps({"name": self.name, "mode": self.mode,
                           "inputs": [[c, _dtype_name(d)] for c, d in self.inputs],
                           "outputs": [[c, _dtype_name(d), [list(x) if isinstance(x, tuple) else x for x in s]]
                                       for c, d, s in self.outputs],
                           "reference": [list(x) if isinstance(x, tuple) else x for x in self.reference],
                           "result": list(self.result) if isinstance(self.result, tuple) else self.result,
                           "ops": list(self.ops)}, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Spec:
        d = json.loads(text)

        def dims(spec: list[Any]) -> tuple[L.Dim, ...]:
            return tuple(tuple(x) if isinstance(x, list) else x for x in spec)

        return cls(d["name"], d["mode"], tuple((c, getattr(torch, t)) for c, t in d["inputs"]),
                   tuple((c, getattr(torch, t), dims(s)) for c, t, s in d["outputs"]), dims(d["reference"]),
                   tuple(d["result"]) if isinstance(d["result"], list) else d["result"], tuple(d["ops"]))

    def signature(self) -> tuple[Any, ...]:
        """The Numba argument types: the extents, then every input's and output's C-contiguous array."""
        from numba import types

        def array(cls: str, dtype: torch.dtype) -> Any:
            np_name = STORAGE.get(dtype) or _dtype_name(dtype)
            ndim = 2 if cls == L.FULL and self.mode == "rows" else 1
            return types.Array(getattr(types, "boolean" if np_name == "bool" else np_name), ndim, "C")

        extents = [types.int64] if self.mode == "flat" else [types.int64, types.int64]
        return (*extents, *(array(c, d) for c, d in self.inputs), *(array(c, d) for c, d, _ in self.outputs))


def _dtype_name(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")
