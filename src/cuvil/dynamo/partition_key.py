"""The key of an FX partition: what its generated module depends on, hashed without building it (issue 14).

A graph Dynamo compiles again (a guard failed, a new process, `torch._dynamo.reset()`) hands the backend the
same partitions; the key finds their compiled kernel (in this process) or their module and call record (on
disk, spec.py) before any Plan is built. The parts, each named:

- `format` (bump when the entry or the meaning of a part changes); `environment`: runtime/cache_key.py's
  `environment()`, the parts every Cuvil key shares (its entry format, Cuvil's version and the fingerprint of
  its files, so a changed code generator never reuses old modules, Python's version, those of numba, llvmlite,
  numpy, libcst and numba-cuda; docs/cache-key.md); `torch`: its version (the aten ops' meaning);
- `nodes`: every node of the partition in graph order: its kind, its target (an aten overload by name), its
  arguments (other nodes by position, numbers with their type, dtypes and strings as text) and its fake
  value's dtype, device and shape (symbolic sizes by their expression: what kernel.py compares them by).

Left out: the partition's name in the graph and the node names (the generated code names values by position,
kernel.py, so they change nothing in it); the data of the tensors (a kernel never depends on values). Static
sizes are in the key (they locate the extents in the call record), not in the module: partitions that differ
only in them print the same text and share one module and its machine code (modules.py names a module by its
text).
"""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Any

import torch
import torch.fx

FORMAT = 2  # 2: cache_key.environment() (adds Python's version and numba-cuda's)


def key(gm: torch.fx.GraphModule) -> str:
    nodes = list(gm.graph.nodes)
    position = {n: i for i, n in enumerate(nodes)}

    def arg(a: Any) -> Any:
        if isinstance(a, torch.fx.Node):
            return ["node", position[a]]
        if isinstance(a, list | tuple):
            return [type(a).__name__, [arg(x) for x in a]]
        if isinstance(a, dict):
            return ["dict", sorted((str(k), arg(v)) for k, v in a.items())]
        if isinstance(a, bool | int | float | str) or a is None:
            return [type(a).__name__, repr(a)]
        return [type(a).__name__, str(a)]

    described = [[n.op, _target(n), arg(n.args), arg(dict(n.kwargs)), _value(n.meta.get("val"))] for n in nodes]
    return _digest([FORMAT, _environment(), described])[:32]


def _target(node: torch.fx.Node) -> str:
    t = node.target
    return str(t) if isinstance(t, torch._ops.OpOverload) else getattr(t, "__qualname__", str(t))


def _value(v: Any) -> Any:
    if isinstance(v, torch.Tensor):
        return ["tensor", str(v.dtype), v.device.type, [str(d) for d in v.shape]]
    if isinstance(v, list | tuple):
        return [_value(x) for x in v]
    return [type(v).__name__, str(v) if isinstance(v, torch.SymInt | int | float | bool) else ""]


@functools.cache
def _environment() -> Any:
    from ..runtime.cache_key import environment

    return {"environment": environment(), "torch": torch.__version__}


def _digest(parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()
