"""What the torch backend did with each graph: `cuvil.dynamo.explain(compiled_model)` (issue 14).

A user who compiled a model wants to know what Cuvil fused and what it left to torch, and why. Each graph
Dynamo hands the backend gets one GraphReport: the partitions fused (their aten ops, the kernel's form and its
generated source), the partitions that stayed torch calls with the reason, and every operation left outside a
kernel with the reason the op table gives. A report is matched to a model by the model's parameters, which
Dynamo passes to the backend as graph inputs.
"""

from __future__ import annotations

import dataclasses
from typing import Any


@dataclasses.dataclass(frozen=True)
class Fused:
    name: str
    ops: tuple[str, ...]
    mode: str  # "rows": a nest over rows with reductions inside; "flat": one loop over all elements
    source: str  # the generated Numba module
    seconds: float  # loading the module and compiling it (Numba), or loading its cached machine code
    found: str = "built"  # "built" (a Plan printed), "disk" (a cache entry from before), "process" (compiled)
    plan_seconds: float = 0.0  # building and printing the Plan (0 unless built)


@dataclasses.dataclass(frozen=True)
class Fallback:
    ops: tuple[str, ...]
    reason: str


@dataclasses.dataclass
class GraphReport:
    id: int
    parameters: frozenset[int]
    fused: list[Fused] = dataclasses.field(default_factory=list)
    fallbacks: list[Fallback] = dataclasses.field(default_factory=list)
    left: dict[str, str] = dataclasses.field(default_factory=dict)  # op → why it stays a torch call
    eager: str = ""  # why the whole graph runs in eager PyTorch, if it does
    seconds: float = 0.0  # the backend's part, from AOTAutograd's trace to the fused graph
    stages: dict[str, float] = dataclasses.field(default_factory=dict)  # "aot", "partition", "plans", "numba"

    def __str__(self) -> str:
        stages = ", ".join(f"{_STAGES[k]} {v:.2f}" for k, v in self.stages.items())
        lines = [f"graph #{self.id}" + (f": {self.eager}" if self.eager else
                                         f": {len(self.fused)} fused partition(s), built in {self.seconds:.2f} s"
                                         + (f" ({stages})" if stages else ""))]
        for f in self.fused:
            how = {"built": f"Plan {f.plan_seconds:.2f} s", "disk": "from the disk cache",
                   "process": "compiled before in this process"}[f.found]
            lines.append(f"  fused {f.name} ({f.mode}, {len(f.ops)} ops, {how}, Numba {f.seconds:.2f} s): "
                         f"{', '.join(f.ops)}")
        for b in self.fallbacks:
            lines.append(f"  not fused ({b.reason}): {', '.join(b.ops)}")
        for op, why in sorted(self.left.items()):
            lines.append(f"  torch call {op}: {why}")
        return "\n".join(lines)


_STAGES = {"aot": "AOTAutograd", "partition": "partition", "plans": "Plans", "numba": "Numba"}


@dataclasses.dataclass(frozen=True)
class Explanation:
    graphs: tuple[GraphReport, ...]

    @property
    def fused(self) -> list[Fused]:
        return [f for g in self.graphs for f in g.fused]

    @property
    def fallbacks(self) -> list[Fallback]:
        return [b for g in self.graphs for b in g.fallbacks]

    @property
    def left(self) -> dict[str, str]:
        return {op: why for g in self.graphs for op, why in g.left.items()}

    def __str__(self) -> str:
        return "\n".join(str(g) for g in self.graphs) or "no graph compiled with backend='cuvil'"


_REPORTS: list[GraphReport] = []


def record(report: GraphReport) -> None:
    _REPORTS.append(report)


def reset() -> None:
    _REPORTS.clear()


def explain(model: Any = None) -> Explanation:
    """The reports of `model`'s graphs (a module, compiled or not), or of every graph when `model` is None."""
    if model is None:
        return Explanation(tuple(_REPORTS))
    module = getattr(model, "_orig_mod", model)
    if not hasattr(module, "parameters"):
        raise TypeError(f"cuvil.dynamo.explain takes a torch.nn.Module (compiled or not), not {type(model).__name__}")
    ids = {id(p) for p in module.parameters()}
    return Explanation(tuple(r for r in _REPORTS if r.parameters & ids))
