"""The notebooks run on a real ipykernel (issue 13 §2): each walkthrough executes without an error (their cells
assert what they teach), and a restarted kernel reads every function from the disk cache instead of compiling
it. How soon it is ready next to Numba's own `cache=True` is a timing claim: bench/warm_start.py measures it."""

from __future__ import annotations

import pytest

pytest.importorskip("nbclient", reason="the notebooks need the dev extra (nbclient, ipykernel)")

from tests.notebooks import kernels  # noqa: E402


@pytest.mark.parametrize("name", ["01_quickstart", "02_recompiles_and_guards", "03_parallel_and_arrays",
                                  "05_mixed_precision"])
def test_notebook_runs(name, tmp_path):
    nb = kernels.run(kernels.NOTEBOOKS / f"{name}.ipynb", tmp_path / "cache")
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert errors == []
    if name == "01_quickstart":  # its last cell: where each function came from, in a fresh cache
        assert nb.cells[-1].outputs[0]["data"]["text/plain"] == (
            "{'saxpy': ['miss'], 'first_outlier': ['miss'], 'at': ['miss']}")
    if name == "03_parallel_and_arrays":  # its last cell: time against size, a chart and nothing else
        assert [sorted(o.get("data", {})) for o in nb.cells[-1].outputs] == [["image/png", "text/plain"]]


def test_restarted_kernel_reads_every_function_from_disk(tmp_path):
    cold = kernels.report(kernels.run(kernels.CUVIL_CELLS, tmp_path / "cuvil"))
    assert cold["cache"] == {"smooth": ["miss"], "count_above": ["miss"]}
    warm = kernels.report(kernels.run(kernels.CUVIL_CELLS, tmp_path / "cuvil"))
    assert warm["cache"] == {"smooth": ["disk"], "count_above": ["disk"]}
