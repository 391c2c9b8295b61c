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
