"""Redefining a function in a cell of a real ipykernel never returns the old variant (issue 13's Must show):
the key is the cell's text, so the new body is a new entry, and defining the first body again finds the first
entry, in this kernel's memory and in a restarted kernel from the disk."""

from __future__ import annotations

import pytest

pytest.importorskip("nbclient", reason="the notebooks need the dev extra (nbclient, ipykernel)")

from tests.notebooks import kernels  # noqa: E402

DOUBLE = """
@cuvil.jit
def f(a):
    return a * 2.0
"""

CALL = "\nseen.append(f(np.arange(3.0)).tolist())\ncaches.append(cuvil.explain(f).compiles[0].cache)"
CELLS = [
    "import json\nimport numpy as np\nimport cuvil\nseen, caches = [], []",
    DOUBLE + CALL,
    DOUBLE.replace("2.0", "3.0") + CALL,
    DOUBLE + CALL,  # the first cell's text again: its entry
    'print(json.dumps({"seen": seen, "cache": caches}))',
]


def test_a_redefined_function_never_returns_the_old_variant_in_this_kernel_or_the_next(tmp_path):
    first = kernels.report(kernels.run(CELLS, tmp_path / "cache"))
    assert first["seen"] == [[0.0, 2.0, 4.0], [0.0, 3.0, 6.0], [0.0, 2.0, 4.0]]
    assert first["cache"] == ["miss", "miss", "memory"]
    again = kernels.report(kernels.run(CELLS, tmp_path / "cache"))  # a fresh kernel, the same cache
    assert again["seen"] == first["seen"]
    assert again["cache"] == ["disk", "disk", "memory"]
