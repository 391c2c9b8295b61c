# ruff: noqa: F841  (reached_by_other_names assigns names only for the test to find them in Numba's IR)
"""codegen/numba_aliases.py on Numba's own IR, for the CPU compiler and numba-cuda's copy (which has its own
IR classes and table, and which no test can run without a GPU): after the rule is installed, every name that
may hold an argument's array counts as an argument alias, so `remove_dead` keeps stores through it."""

from __future__ import annotations

import importlib

import pytest

from cuvil.codegen import numba_aliases


def row_of(M, i):
    return M[i]


def reached_by_other_names(M, v):
    by_call = row_of(M, 0)
    by_method = M.reshape(-1)
    packed = (M, 1)
    by_item = packed[0]
    by_unpacking, n = row_of(M, 1), 2
    lifted = M.real
    fresh = M + 1.0
    return 0


def untyped_ir(core, fn):
    """Numba's frontend, spelt out: numba.cuda.compiler.run_frontend is not there under the CUDA simulator."""
    bytecode = importlib.import_module(core + ".bytecode")
    interpreter = importlib.import_module(core + ".interpreter")
    postproc = importlib.import_module(core + ".postproc")
    func_id = bytecode.FunctionIdentity.from_function(fn)
    func_ir = interpreter.Interpreter(func_id).interpret(bytecode.ByteCode(func_id=func_id))
    postproc.PostProcessor(func_ir).run(False)
    return func_ir


@pytest.mark.parametrize("core", ["numba.core", "numba.cuda.core"])
def test_names_that_may_hold_an_argument_are_its_aliases(core):
    ir_utils = importlib.import_module(core + ".ir_utils")
    numba_aliases.install_cpu()
    numba_aliases.install_cuda()
    func_ir = untyped_ir(core, reached_by_other_names)
    _, arg_aliases = ir_utils.find_potential_aliases(func_ir.blocks, func_ir.arg_names, None, func_ir)
    assert {"by_call", "by_method", "packed", "by_item", "by_unpacking", "lifted"} <= arg_aliases
