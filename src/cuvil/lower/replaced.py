"""A call of a NumPy function library/replaced.py names, as Cuvil's own helper (CPU):

    np.histogram(a, 20, (0, 1))   →  histogram(a, 20, (0, 1))
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from ..library.replaced import REPLACED


def replaced(name: str, updated: cst.Call, intrinsic: Callable[[str, str], str]) -> cst.Call | None:
    """The call of Cuvil's helper for `name`, or None where Numba's stays."""
    found = REPLACED.get(name)
    if found is None or any(a.star or a.keyword is not None and a.keyword.value not in found[2]
                            for a in updated.args):
        return None
    return updated.with_changes(func=cst.Name(intrinsic(found[0], found[1])))
