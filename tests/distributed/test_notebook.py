"""notebooks/04_dask_map_blocks.ipynb runs on a real ipykernel, its cells asserting what they teach (a cluster
warmed up, a map_blocks job equal to NumPy, one compile per worker, a second cluster reading from the disk).
Two clusters and a kernel take ~20 s on two cores: `nox -s distributed` runs it (CUVIL_DISTRIBUTED_ALL=1), the
default session runs the rest of this folder."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("nbclient", reason="the notebooks need the dev extra (nbclient, ipykernel)")

from tests.notebooks import kernels  # noqa: E402


@pytest.mark.skipif(os.environ.get("CUVIL_DISTRIBUTED_ALL") != "1",
                    reason="two clusters and a kernel: run by `nox -s distributed` (CUVIL_DISTRIBUTED_ALL=1)")
def test_dask_notebook_runs(tmp_path):
    nb = kernels.run(kernels.NOTEBOOKS / "04_dask_map_blocks.ipynb", tmp_path / "cache")
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert errors == []
    assert nb.cells[-2].outputs[0]["data"]["text/plain"] == "[['disk'], ['disk']]"
    # no noise from the cluster (a worker's or the scheduler's log lines at start-up, during a compile, at close)
    noise = [o.text for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.get("name") == "stderr"]
    assert noise == []
    assert nb.cells[-1].outputs == []  # the clusters close without a word
