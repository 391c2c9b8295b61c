"""Operations whose Python semantics Numba does not reproduce, as Numba overloads the generated code calls.

`py_pow`: Numba computes `int ** negative int` in integers (2 ** -1 == 0), where Python returns the float 0.5.
Python's result type depends on the exponent's *value*, which no static type can follow, so an integer base
with a negative integer exponent raises instead of silently answering wrong. (NumPy integers raise there too.)
"""

from __future__ import annotations

from numba import types
from numba.extending import overload


def py_pow(base, exp):  # the plain-Python meaning, for CUVIL_DISABLE_JIT and for reading
    return base ** exp


@overload(py_pow, jit_options={"nogil": True})
def _py_pow(base, exp):
    if isinstance(base, types.Integer | types.Boolean) and isinstance(exp, types.Integer | types.Boolean):

        def int_pow(base, exp):
            if exp < 0:
                raise ValueError("integer ** negative integer gives a float in Python; write float(base) ** exp")
            return base ** exp

        return int_pow

    def any_pow(base, exp):
        return base ** exp

    return any_pow
