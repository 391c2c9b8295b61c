"""A Numba dispatcher that runs one compiled signature and nothing else, for the call entry (entry.py).

Numba's C dispatcher types the arguments of a call (dtype, rank, layout, byte order, writability, scalar
kinds) far faster than Python can: for three arrays ~120 ns over the entry point, where three
`compute_fingerprint` calls from Python cost ~300 ns. The module's own dispatcher cannot serve: it compiles
what it has not seen, and it may hold several signatures (two variants of one cache entry differ only in
layout), so a variant's check would accept its sibling's arguments and the recompile count would depend on
what ran before. This one holds exactly the variant's signature, requires an exact match, and returns `MISS`
where Numba would compile; it holds the compile result, and registers nothing in Numba's typing context.
"""

from __future__ import annotations

import inspect
from typing import Any

from numba import _dispatcher
from numba.core import types
from numba.core.typeconv.rules import default_type_manager
from numba.core.typing.typeof import Purpose, typeof

from .guards import MISS


class ExactDispatcher(_dispatcher.Dispatcher):
    def __init__(self, numba_dispatcher: Any, signature: tuple[Any, ...]):
        names = tuple(inspect.signature(numba_dispatcher.py_func).parameters)
        # (type manager, argument count, fold keywords, names, defaults, object-mode fallback, *args, exact)
        super().__init__(default_type_manager.get_pointer(), len(names), False, names, (), False, False, True)
        self.compiled = numba_dispatcher.overloads[signature]
        # Under a profiler (cProfile, sys.setprofile) Numba's C dispatcher shows the call as a frame of this code
        # object, and raises RuntimeError("No __code__ attribute found.") on every call where there is none.
        self.__code__ = numba_dispatcher.__code__
        self._insert([t._code for t in signature], self.compiled.entry_point, False)  # type: ignore[attr-defined]

    def _compile_for_args(self, *args: Any, **kwargs: Any) -> Any:
        """Numba's C dispatcher calls this on a miss, then calls what it returns with the arguments."""
        return _miss

    def typeof_pyval(self, value: Any) -> Any:
        """The C dispatcher's fallback for values it cannot type itself (as Numba's own dispatcher does it)."""
        try:
            found = typeof(value, Purpose.argument)
        except Exception:
            found = None
        return types.pyobject if found is None else found


def _miss(*args: Any, **kwargs: Any) -> Any:
    return MISS
