"""The README's opening example runs as written, and says true things."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import numpy as np

README = Path(__file__).resolve().parent.parent / "README.md"


def test_opening_example_runs_and_its_parallel_loop_is_parallel(tmp_path):
    code = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    path = tmp_path / "readme_example.py"
    path.write_text(code)
    spec = importlib.util.spec_from_file_location("readme_example", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["readme_example"] = module
    spec.loader.exec_module(module)
    a = np.array([1.0, 5.0, 20.0, -3.0])
    assert module.first_outlier(a, 0.0, 10.0) == module.first_outlier.py_func(a, 0.0, 10.0) == 2
    x = np.arange(5.0)
    assert np.array_equal(module.saxpy(2.0, x, x, np.empty(5)), 3 * x)
    assert "numba.prange" in module.saxpy.source()


def test_softmax_example_is_one_parallel_nest_without_temporaries(tmp_path):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    code = next(b for b in blocks if "def softmax" in b)
    path = tmp_path / "readme_softmax.py"
    path.write_text("import numpy as np\nimport cuvil\n" + code)
    spec = importlib.util.spec_from_file_location("readme_softmax", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["readme_softmax"] = module
    spec.loader.exec_module(module)
    x = np.random.default_rng(0).standard_normal((50, 40)).astype(np.float32)
    got, expected = module.softmax(x), module.softmax.py_func(x)
    assert got.dtype == expected.dtype == np.float32
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    plan = module.softmax.source("plan")
    assert plan.count(" Alloc ") == 1 and plan.count(" ParallelNest ") == 1, plan
