"""A reduction without identity of an empty row inside a `parallel=True` loop raises NumPy's ValueError, word
for word, at the user's line: the loop tests `row.size == 0` before it runs (cfg/raising.py), and the message
is NumPy's for each function ("… operation maximum …", "attempt to get argmax of an empty sequence", "… fmax
…" for nanmax), not the function's qualified name."""

from __future__ import annotations

import traceback

import numpy as np
import pytest

import cuvil
from tests.helpers import define

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")  # nanmax of an all-nan row, in plain NumPy

SOURCE = """
def rows(a, k):
    out = np.empty(a.shape[0])
    for i in range(a.shape[0]):
        out[i] = REDUCE(a[i, :k])
    return out
"""


def _raised(fn, *args):
    with pytest.raises(ValueError) as info:
        fn(*args)
    return str(info.value), traceback.extract_tb(info.value.__traceback__)[-1]


@pytest.mark.parametrize("reduce", ["np.max", "np.amin", "np.argmax", "np.argmin", "np.nanmax", "np.nanargmin"])
def test_empty_row_in_parallel_loop_raises_numpys_words(reduce):
    fn = define(SOURCE.replace("REDUCE", reduce), env={"np": np})
    jitted = cuvil.jit(fn, parallel=True)
    for a in (np.ones((3, 4)), np.ones((3, 4)), np.ones((2, 5), np.float32)):  # first call, hit, miss
        expected, _ = _raised(fn, a, 0)
        message, last = _raised(jitted, a, 0)
        assert message == expected
        assert (last.filename, last.lineno) == (fn.__code__.co_filename, 4)
        np.testing.assert_array_equal(jitted(a, 2), fn(a, 2))
    assert len(jitted.compile_events) == 2
    assert "loop rows L3: parallel" in str(cuvil.explain(jitted))  # the test before the loop, not a serial loop
