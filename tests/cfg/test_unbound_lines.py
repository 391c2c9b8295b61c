"""The flags of Python's unbound-local check carry the user's line of the binding they follow, like every
statement the compiler emits (cfg/unbound.py `leave_SimpleStatementLine` and `leave_For`: mutation testing found
that dropping that line failed no test). The check itself raises Python's UnboundLocalError at the read's line."""

from __future__ import annotations

import numpy as np
import pytest

import cuvil


def found_at(a, x):
    k = -1
    for v in a:
        k = k + 1
        if v == x:
            found = k
    return found


def test_every_flag_of_the_unbound_check_carries_the_line_it_follows():
    jitted = cuvil.jit(found_at)
    assert jitted(np.arange(4.0), 2.0) == 2
    flags = [line for line in str(jitted.source("kernel")).splitlines() if "_bound_found" in line]
    first = found_at.__code__.co_firstlineno  # flags set first at the def, then after `found = k`, read at return
    assert [line.split("#")[-1].strip() for line in flags] == [f"L{first}", f"L{first + 5}", f"L{first + 6}"]
    with pytest.raises(UnboundLocalError, match="cannot access local variable 'found'"):
        jitted(np.arange(4.0), 9.0)


def last_index(a):
    for i in range(a.shape[0]):
        a[i] = 2 * a[i]
    return i


def test_a_loop_targets_flag_carries_the_loops_line():
    """The flag a `for` sets for its target (`leave_For`) carries the loop's line; with no iteration the read
    raises Python's UnboundLocalError."""
    jitted = cuvil.jit(last_index)
    assert jitted(np.arange(3.0)) == last_index(np.arange(3.0)) == 2
    flags = [line for line in str(jitted.source("kernel")).splitlines() if "_bound_i" in line]
    first = last_index.__code__.co_firstlineno
    assert [line.split("#")[-1].strip() for line in flags] == [f"L{first}", f"L{first + 1}", f"L{first + 3}"]
    with pytest.raises(UnboundLocalError, match="cannot access local variable 'i'"):
        jitted(np.empty(0))
