"""Source is found in files, notebook cells and registered exec'd code; positions are the file's own."""

from __future__ import annotations

import importlib.util
import linecache
import sys
import textwrap

import numpy as np
import pytest

import cuvil
from cuvil.frontend.source import get_source


def _import_file(tmp_path, text: str, name: str):
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(text))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module, path


def test_function_in_a_file_keeps_the_files_line_numbers(tmp_path):
    module, path = _import_file(tmp_path, """
        import numpy as np


        def total(a):
            s = 0.0
            for x in a:
                s += x
            return s
        """, "cuvil_src_file")
    src = get_source(module.total)
    assert (src.filename, src.first_line) == (str(path), 5)
    jitted = cuvil.jit(module.total)
    assert jitted(np.arange(4.0)) == 6.0
    assert "s += x  # L8" in jitted.source("normalized")


def test_method_in_a_class_reports_columns_with_its_indentation(tmp_path):
    module, path = _import_file(tmp_path, """
        class Kernels:
            @staticmethod
            def f(x):
                del x
                return 1
        """, "cuvil_src_method")
    with pytest.raises(cuvil.CuvilSyntaxError) as info:
        cuvil.jit(module.Kernels.f)
    assert (info.value.filename, info.value.lineno, info.value.offset) == (str(path), 5, 9)


def test_ipython_cell_source_comes_from_linecache():
    # IPython registers each cell in linecache under a name like this one, then execs it.
    cell = "import numpy as np\ndef twice(a):\n    return a * 2\n"
    name = "<ipython-input-7-0123456789ab>"
    linecache.cache[name] = (len(cell), None, cell.splitlines(keepends=True), name)
    namespace: dict = {}
    exec(compile(cell, name, "exec"), namespace)
    jitted = cuvil.jit(namespace["twice"])
    assert np.array_equal(jitted(np.arange(3)), np.arange(3) * 2)
    assert get_source(namespace["twice"]).first_line == 2


def test_exec_without_source_is_a_clear_error():
    namespace: dict = {}
    exec("def f(x):\n    return x\n", namespace)
    with pytest.raises(cuvil.CuvilError, match="cannot find the source of f"):
        cuvil.jit(namespace["f"])


def test_not_a_function_is_a_clear_error():
    with pytest.raises(cuvil.CuvilError, match="needs a Python function"):
        cuvil.jit(len)
