"""`torch.compile(model, backend="cuvil")` (issue 14): a model's elementwise and last-dim reduction subgraphs
fused into Numba kernels built from Plans; `explain(model)` says what was fused and what stayed torch.

Registered with torch through the `torch_dynamo_backends` entry point (pyproject.toml), so no import is needed.
Importing this package imports neither torch's compiler nor Numba; the first compiled graph does.
"""

from __future__ import annotations

from typing import Any


def backend(gm: Any, example_inputs: Any, options: Any = None, mode: Any = None) -> Any:
    """The torch.compile backend: `torch.compile(model, backend="cuvil")` or `backend=cuvil.dynamo.backend`;
    `options={"background": True}` compiles on a worker thread while the graph runs in torch (background.py)."""
    from .compiler import cuvil_backend

    return cuvil_backend(gm, example_inputs, options, mode)


def wait(timeout: float | None = None) -> bool:
    """Block until the partitions compiling in the background are compiled or refused (False on timeout)."""
    from .background import wait as _wait

    return _wait(timeout)


def explain(model: Any = None) -> Any:
    """What the backend did with `model`'s graphs (every graph when None): fused partitions, torch calls, why."""
    from .report import explain as _explain

    return _explain(model)


def reset() -> None:
    """Forget the reports (torch._dynamo.reset() forgets the compiled graphs)."""
    from .report import reset as _reset

    _reset()
