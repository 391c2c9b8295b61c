"""The common mistakes, told as Python tells them: Numba's typing failure → the words and the exception class the
plain call raises at the same line (issue 41; tests/programs/test_user_mistakes.py is the corpus).

Numba says what it could not type, in its own terms: "No implementation of function len found for signature:
len(float64)". The plain call raises TypeError: object of type 'float' has no len(). Each rule below reads the
function and its arguments' Python types off Numba's signature and gives Python's or NumPy's words; the class
follows from the words (`kind`). A failure no rule knows keeps Numba's summary.
"""

from __future__ import annotations

import difflib
import re

import numpy as np

from ..errors import CuvilAttributeError, CuvilIndexError, CuvilTypeError, CuvilValueError

_NO_IMPLEMENTATION = re.compile(r"No implementation of function (\w+) found for signature: \w+\((.*)\)$")
_OPERATORS = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%", "pow": "**",
              "iadd": "+=", "isub": "-=", "imul": "*=", "itruediv": "/="}
_PYTHON_TYPES = ((re.compile(r"Literal\[str\]|unicode_type"), "str"), (re.compile(r"none|Literal\[NoneType\]"),
                 "NoneType"), (re.compile(r"bool"), "bool"), (re.compile(r"Literal\[int\]|u?int\d+"), "int"),
                 (re.compile(r"float\d+"), "float"), (re.compile(r"complex\d+"), "complex"),
                 (re.compile(r"array\("), "numpy.ndarray"), (re.compile(r"(?:Uni)?Tuple\("), "tuple"))
_LITERAL = re.compile(r"Literal\[\w+\]\((.*)\)$")
_NUMBERS = ("int", "float", "bool", "complex")
_NOT_AN_INDEX = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean "
                 "arrays are valid indices")
_AMBIGUOUS = "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()"
_NOT_A_SCALAR_INDEX = "only integer scalar arrays can be converted to a scalar index"
_INVALID_USE = re.compile(r"^Invalid use of (.*?) with parameters \(")
_NUMBER_ATTRIBUTE = re.compile(r"Unknown attribute '(\w+)' of type (Literal\[\w+\]\(.*?\)|u?int\d+|float\d+|bool|"
                               r"complex\d+)\s*$")


def python_type(numba_type: str) -> str | None:
    """The Python (or NumPy) type a user knows for a Numba type in a signature: 'int', 'numpy.ndarray', …."""
    return next((name for pattern, name in _PYTHON_TYPES if pattern.match(numba_type.strip())), None)


def _split(text: str) -> list[str]:
    """A signature's arguments, split at its top-level commas."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += c in "([{"
        depth -= c in ")]}"
        if c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    return [*parts, text[start:].strip()]


_NDIM = re.compile(r"array\(\w+, (\d+)d")


def _ndim(numba_type: str) -> int | None:
    found = _NDIM.match(numba_type)
    return int(found.group(1)) if found else None


def _literal(numba_type: str) -> str | None:
    found = _LITERAL.match(numba_type)
    return found.group(1) if found else None


_STR_ATTRIBUTE = re.compile(r"Unknown attribute '(\w+)' of type (?:Literal\[str\]|unicode_type)")


def _str_method(line: str) -> str | None:
    """`"{0}-{0}".format(f(x))` that normalize/fstrings.py could not write as an f-string: a refusal in words,
    not Numba's "Unknown attribute 'format' of type Literal[str]"."""
    found = _STR_ATTRIBUTE.search(line)
    if found is None or found.group(1) != "format":
        return None  # another method Python's strings have: Numba's words say it lacks it
    return ("str.format() with these fields or arguments is not supported in compiled code: write an f-string "
            "(f'{a}-{b:.2f}')")


def words(summary: str) -> str:
    """Python's words for `summary` (the sentences diagnose.py kept of Numba's message), or `summary`."""
    first = summary.splitlines()[0] if summary else ""
    said = _call(first) or _invalid_use(first) or _number_attribute(first) or _str_method(first)
    if said is None and first == "tuple index out of range":
        said = first
    return said or summary


def kind(said: str) -> type[CuvilTypeError]:
    """The exception class Python raises with these words."""
    if " has no attribute '" in said:
        return CuvilAttributeError
    if said.startswith((_AMBIGUOUS, "could not convert string to", "invalid literal for int()")):
        return CuvilValueError
    if said in (_NOT_AN_INDEX, "tuple index out of range", "invalid index to scalar variable.") \
            or said.startswith("too many indices for array"):
        return CuvilIndexError
    return CuvilTypeError


def _call(line: str) -> str | None:
    found = _NO_IMPLEMENTATION.match(line)
    if found is None:
        return None
    function, raw = found.group(1), _split(found.group(2))
    types = [python_type(a) for a in raw]
    first = types[0] if types else None
    if raw and raw[0].startswith("DictType[undefined"):  # `d = {}` read before a store of a type Cuvil knows
        return ("compiled code cannot tell the key and value types of an empty dict read before anything is "
                "stored in it: give its key a variable of its own (one type), or store a first value before the "
                "loop")
    if function == "nonnegative_dims" and first in ("float", "complex", "str", "NoneType"):
        return f"expected a sequence of integers or a single integer, got a {first}"  # NumPy's, less the value
    if function == "len" and first in _NUMBERS:
        return f"object of type '{first}' has no len()"
    ranked = first == "numpy.ndarray" and (_ndim(raw[0]) or 0) > 0  # an array of 1 or more dims
    if function in ("int", "float", "complex") and ranked:
        return "only 0-dimensional arrays can be converted to Python scalars"
    if function == "getitem" and first == "numpy.ndarray" and any(t in ("float", "complex") for t in types[1:]):
        return _NOT_AN_INDEX
    if function == "getitem":
        return _number_index(raw)
    if function == "setitem":
        return _store(raw, types)
    if function in ("zeros", "ones", "empty") and len(types) > 1 and types[1] in _NUMBERS:
        return f"Cannot interpret '{_literal(raw[1]) or 'the number'}' as a data type"  # np.zeros(3, 4)
    if function in ("max", "min") and len(types) > 1 and any((_ndim(r) or 0) > 0 for r in raw):
        # max(a, 0) compares the array with the number: NumPy's error unless `a` holds one element
        return f"{_AMBIGUOUS} (compiled code compares no array with a number: np.{function}imum(a, 0) is the " \
            "elementwise one)"
    if function == "range" and ranked:
        return _NOT_A_SCALAR_INDEX
    if function == "concatenate" and len(types) > 1 and types[1] == "numpy.ndarray":  # b taken as the axis
        return _NOT_A_SCALAR_INDEX
    if function == "round" and first == "numpy.ndarray":
        return "type numpy.ndarray doesn't define __round__ method"
    return _operator(function, types)


def _number_index(raw: list[str]) -> str | None:
    """`x[0]` of a number or a 0-d array: NumPy's words for a NumPy scalar (a Python int's when the type says
    it is one: Numba's literal int) and for a 0-d array."""
    index = raw[1] if len(raw) > 1 else ""
    repeated = re.match(r"UniTuple\(.* x (\d+)\)$", index)  # UniTuple(int64 x 2); Tuple(int64, int32)
    count = int(repeated.group(1)) if repeated else len(_split(index[6:-1])) if index.startswith("Tuple(") else 1
    if _ndim(raw[0]) == 0:
        return f"too many indices for array: array is 0-dimensional, but {count} were indexed"
    if raw[0].startswith("Literal[int]"):
        return "'int' object is not subscriptable"
    return "invalid index to scalar variable." if python_type(raw[0]) in _NUMBERS else None


def _store(raw: list[str], types: list[str | None]) -> str | None:
    """`t[0] = 1` of a tuple or a number, `a[0] = 'x'` of an array: a str NumPy cannot read as the array's
    number is its ValueError; one it can ('3' into a float array) is a str Numba cannot store."""
    if types[0] in ("tuple", *_NUMBERS):
        return f"'{types[0]}' object does not support item assignment"
    text = _literal(raw[-1])
    if types[0] != "numpy.ndarray" or types[-1] != "str" or text is None:
        return None
    kind = "int" if re.match(r"array\(u?int", raw[0]) else "float" if raw[0].startswith("array(float") else None
    try:
        if kind is not None:
            (int if kind == "int" else float)(text)
    except ValueError:
        return f"invalid literal for int() with base 10: '{text}'" if kind == "int" else \
            f"could not convert string to float: '{text}'"
    convert = f" ({kind}('{text}'))" if kind else ""
    return f"a str stored into an array is not supported in compiled code; convert it where it is written{convert} " \
        "or before the call"


def _operator(function: str, types: list[str | None]) -> str | None:
    """`"total=" + total`: can only concatenate str (not "float") to str."""
    symbol = _OPERATORS.get(function)
    if symbol is None or len(types) != 2 or None in types or not {"str", "NoneType"} & set(types):
        return None
    if symbol in ("+", "+=") and types[0] == "str":
        return f'can only concatenate str (not "{types[1]}") to str'
    if symbol == "%" and types[0] == "str":  # Python formats; compiled code has no printf-style formatting
        return "'%' formatting of a string is not supported in compiled code: write an f-string (f'{n:d} items')"
    return f"unsupported operand type(s) for {symbol}: '{types[0]}' and '{types[1]}'"


def _invalid_use(line: str) -> str | None:
    """`a(0)` of an array, `x(1)` of a number: Numba's "Invalid use of array(…) with parameters"."""
    found = _INVALID_USE.match(line)
    called = python_type(found.group(1)) if found else None
    return f"'{called}' object is not callable" if called in ("numpy.ndarray", *_NUMBERS) else None


def _number_attribute(line: str) -> str | None:
    """`n.sum()` of an int: Python's AttributeError with the nearest name; an attribute Python's number has
    (`n.bit_length()`) but Numba lacks stays Numba's words."""
    found = _NUMBER_ATTRIBUTE.search(line)
    if found is None:
        return None
    name, number = found.group(1), python_type(found.group(2))
    owner = {"int": int, "float": float, "bool": bool, "complex": complex}.get(number or "")
    scalar = {"int": np.int64, "float": np.float64, "bool": np.bool_, "complex": np.complex128}.get(number or "")
    if owner is None:
        return None
    literal = found.group(2).startswith("Literal[")  # certainly a Python number; an int64 may be a NumPy scalar
    if hasattr(owner, name) or not literal and hasattr(scalar, name):  # Python's or a NumPy scalar's (.astype)
        instead = "; convert with the dtype's function, np.int32(x)" if name == "astype" else ""
        return f"numbers have no .{name} in compiled code (Numba does not implement it){instead}"
    near = difflib.get_close_matches(name, [n for n in dir(owner) if not n.startswith("_")], n=1)
    return f"'{number}' object has no attribute '{name}'" + (f"; did you mean '{near[0]}'?" if near else "")
