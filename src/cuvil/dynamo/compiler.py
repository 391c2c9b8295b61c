"""`torch.compile(model, backend="cuvil")`: the model's elementwise and last-dim reduction subgraphs fused into
Numba kernels, everything else left to torch (issue 14).

Why the aten graph and not Dynamo's torch-level graph: Dynamo's graph spells one operation many ways (a module
call `self.act(x)`, `F.gelu`, `x.exp()`, `torch.exp`, `+` on tensors, in-place `x.add_`) and holds modules whose
parameters are attributes. AOTAutograd's graph (the one inductor reads) is functional (no in-place ops or
aliasing), calls only canonical aten overloads (`aten.gelu.default` with its `approximate`), has parameters as
inputs, and every node carries a fake tensor with torch's result dtype and (symbolic) shape. So the op table
is one short list, type promotion is torch's own, and batch sizes stay symbols. `softmax`, `log_softmax` and
`layer_norm` are decomposed into the reductions and elementwise ops the table fuses (`var_mean` is kept whole:
its mean and variance are two loops of one nest).

Inference only: when grad is enabled and an input requires it, the graph runs in eager PyTorch, with one
warning per graph (Dynamo compiles a graph once per grad mode, so a `torch.no_grad()` call compiles its own).
"""

from __future__ import annotations

import functools
import operator
import time
import warnings
from collections.abc import Sequence
from typing import Any

import torch
import torch.fx
from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
from torch.fx.passes.operator_support import OperatorSupport

from ..errors import PerformanceWarning
from . import layout as L
from . import ops
from .background import Background
from .compiled import Compiled, Found, compile_partition
from .report import Fallback, Fused, GraphReport, record

aten = torch.ops.aten
_DECOMPOSE = (aten._softmax, aten._log_softmax, aten.native_layer_norm, aten.softmax.int, aten.log_softmax.int)


class _Support(OperatorSupport):
    def __init__(self) -> None:
        super().__init__()
        self.reasons: dict[str, str] = {}

    def is_node_supported(self, submodules: Any, node: torch.fx.Node) -> bool:
        if node.op != "call_function":
            return False
        why = ops.unsupported(node)
        if why is not None:
            self.reasons.setdefault(_op_name(node), why)
        return why is None


def _op_name(node: torch.fx.Node) -> str:
    return getattr(node.target, "__name__", str(node.target)) if node.op == "call_function" else str(node.target)


def fuse(gm: torch.fx.GraphModule, report: GraphReport, background: bool = False) -> torch.fx.GraphModule:
    """`gm` with each maximal supported subgraph replaced by a call to its compiled kernel (with `background`,
    by a call that runs its torch ops until the kernel compiled on a worker thread is ready: background.py)."""
    started = time.perf_counter()
    support = _Support()
    partitioner = CapabilityBasedPartitioner(gm, support, allows_single_node_partition=True)
    partitions = partitioner.propose_partitions()
    fused = partitioner.fuse_partitions(partitions, prefix="fused_")
    report.stages["partition"] = time.perf_counter() - started
    for node in list(fused.graph.nodes):
        if node.op == "call_module" and str(node.target).startswith("fused_"):
            sub = getattr(fused, node.target)
            record = functools.partial(_record, report, str(node.target),
                                       tuple(_op_name(n) for n in sub.graph.nodes if n.op == "call_function"))
            if background:
                target: Any = Background(str(node.target), sub, record)
            else:
                try:
                    found = compile_partition(sub)
                except Exception as e:  # noqa: BLE001 - the partition runs in torch; explain shows why
                    record(None, e)
                    continue
                record(found, None)
                target = found.kernel
            with fused.graph.inserting_before(node):
                call = fused.graph.call_function(target, tuple(node.args))
            call.meta = dict(node.meta)
            node.replace_all_uses_with(call)
            fused.graph.erase_node(node)
            delattr(fused, node.target)
    for node in fused.graph.nodes:
        if node.op == "call_function" and not isinstance(node.target, _FUSED) and not _unpacks_fused(node):
            report.left.setdefault(_op_name(node), support.reasons.get(_op_name(node), "in a partition that "
                                                                       "could not be fused (see above)"))
    fused.graph.lint()
    fused.recompile()
    return fused


def _record(report: GraphReport, name: str, names: tuple[str, ...], found: Found | None,
            error: BaseException | None) -> None:
    """What became of a partition, in the graph's report: fused, or why it stays torch ops."""
    if found is not None:
        k = found.kernel
        report.fused.append(Fused(name, names, k.spec.mode, k.text, found.seconds, found.where, found.plan_seconds))
        for stage, seconds in (("plans", found.plan_seconds), ("numba", found.seconds)):
            report.stages[stage] = report.stages.get(stage, 0.0) + seconds
    elif isinstance(error, L.NotFusable):
        report.fallbacks.append(Fallback(names, str(error)))
    else:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        report.fallbacks.append(Fallback(names, f"Numba could not compile it: {first}"))


_FUSED = (Compiled, Background)


def _unpacks_fused(node: torch.fx.Node) -> bool:
    """A getitem the partitioner added to take one result of a fused call apart."""
    source = node.args[0] if node.target is operator.getitem else None
    return isinstance(source, torch.fx.Node) and (
        isinstance(source.target, _FUSED) or str(source.target).startswith("fused_"))


def _requires_grad(example_inputs: Sequence[Any]) -> bool:
    return torch.is_grad_enabled() and any(isinstance(t, torch.Tensor) and t.requires_grad for t in example_inputs)


OPTIONS = {"background": "compile each partition on a worker thread, running its torch ops until the kernel is "
                         "ready (True or False; default False)"}


def backend_options(options: Any = None, mode: Any = None) -> dict[str, Any]:
    """`torch.compile(..., options=...)` checked when the model is compiled (a typo fails there, with the known
    options, not silently)."""
    if mode not in (None, "default"):
        raise ValueError(f"backend='cuvil' has no mode {mode!r} (torch.compile's modes tune inductor); "
                         "pass options={...} instead: " + "; ".join(f"{k}: {v}" for k, v in OPTIONS.items()))
    found = dict(options or {})
    unknown = sorted(set(found) - set(OPTIONS))
    if unknown:
        raise ValueError(f"backend='cuvil' has no option {', '.join(map(repr, unknown))}; its options: "
                         + "; ".join(f"{k}: {v}" for k, v in OPTIONS.items()))
    if not isinstance(found.get("background", False), bool):
        raise TypeError(f"backend='cuvil': options['background'] must be True or False, not "
                        f"{found['background']!r}")
    return {"background": False, **found}


def cuvil_backend(gm: torch.fx.GraphModule, example_inputs: Sequence[Any], options: Any = None,
                  mode: Any = None) -> Any:
    """The backend torch.compile calls with Dynamo's graph; returns the callable Dynamo runs under its guards."""
    from torch._decomp import get_decompositions
    from torch._dynamo.backends.common import aot_autograd
    from torch._functorch.aot_autograd import make_boxed_func
    from torch.fx._lazy_graph_module import _LazyGraphModule

    entered = time.perf_counter()
    chosen = backend_options(options, mode)
    parameters = _parameters(example_inputs)
    if _requires_grad(example_inputs):
        report = GraphReport(_next_id(), parameters)
        record(report)
        report.eager = "the graph requires grad (this backend is inference only): it runs in eager PyTorch"
        warnings.warn(f"cuvil: {report.eager}. Call the model under torch.no_grad() or "
                      "torch.inference_mode() to fuse it.", PerformanceWarning, stacklevel=2)
        return gm.forward

    def forward_compiler(aten_gm: torch.fx.GraphModule, inputs: Sequence[Any]) -> Any:
        started = time.perf_counter()
        report = GraphReport(_next_id(), parameters)
        report.stages["aot"] = started - entered
        record(report)
        try:
            result = fuse(aten_gm, report, chosen["background"])
        except Exception as e:  # noqa: BLE001 - a bug of ours must not stop the model: torch runs the graph
            report.eager = f"the backend failed ({type(e).__name__}: {e}); the aten graph runs in eager PyTorch"
            warnings.warn(f"cuvil: {report.eager}. Please report it.", PerformanceWarning, stacklevel=2)
            result = aten_gm
        report.seconds = time.perf_counter() - entered
        _LazyGraphModule.force_recompile(result)  # its forward, not the lazy one that recompiles and calls
        return make_boxed_func(result.forward)     # the module (measured: 5-8 µs a call)

    compiler = aot_autograd(fw_compiler=forward_compiler,
                            decompositions=get_decompositions(list(_DECOMPOSE)))
    return compiler(gm, example_inputs)


_ids = [0]


def _next_id() -> int:
    _ids[0] += 1
    return _ids[0]


def _parameters(example_inputs: Sequence[Any]) -> frozenset[int]:
    return frozenset(id(t) for t in example_inputs if isinstance(t, torch.nn.Parameter))
