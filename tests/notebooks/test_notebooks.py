"""The notebooks run on a real ipykernel (issue 13 §2): each walkthrough executes without an error (their cells
assert what they teach), and a restarted kernel reads every function from the disk cache, ready about as soon
as Numba's own `cache=True` (Must show: at most Numba's warm start plus a tenth of the cold compile)."""

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


def test_second_kernel_reads_every_function_from_disk_about_as_soon_as_numba(tmp_path):
    cold = kernels.report(kernels.run(kernels.CUVIL_CELLS, tmp_path / "cuvil"))
    assert cold["cache"] == {"smooth": ["miss"], "count_above": ["miss"]}
    warm = [kernels.report(kernels.run(kernels.CUVIL_CELLS, tmp_path / "cuvil")) for _ in range(2)]
    assert all(w["cache"] == {"smooth": ["disk"], "count_above": ["disk"]} for w in warm)
    kernels.run(kernels.NUMBA_CELLS, tmp_path / "numba")  # Numba compiles and saves its cache
    numba_warm = min(kernels.report(kernels.run(kernels.NUMBA_CELLS, tmp_path / "numba"))["first_result_s"]
                     for _ in range(2))
    cuvil_warm = min(w["first_result_s"] for w in warm)  # best of two: a loaded machine stalls one kernel
    print(f"time to first result: cuvil cold {cold['first_result_s']:.2f} s, cuvil warm {cuvil_warm:.2f} s, "
          f"numba cache=True warm {numba_warm:.2f} s")
    assert cuvil_warm <= numba_warm + 0.1 * cold["first_result_s"]
