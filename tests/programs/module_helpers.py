"""Functions a test reaches as attributes of this module (tests/programs/test_module_callees.py)."""

import cuvil


def scaled(x):
    return x * 2


@cuvil.jit
def shifted(x):
    return x + 100
