"""The types of every function of the generated module, as the lowering needs them (lower/program.py): the
entry from the variant's argument types, each helper from the types its call sites pass, a recursive helper
from its base case (a fixed point), and helpers called with several signatures each under every one of them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import libcst as cst

from ..analysis.type_rules import Types
from ..analysis.types import UNKNOWN, Scalar, Tuple, Type, of_value, unify
from ..cfg.effects import Calls, Global
from ..cfg.uses import calls_in
from ..frontend.walk import walk
from ..normalize.names import assigned_names


def program_types(functions: Mapping[str, cst.FunctionDef], entry: str, params: dict[str, Type],
           globals: Mapping[str, Global], values: Mapping[str, Type], compute: str | None = None,
           thorough: bool = False, several: dict[str, list[Types]] | None = None) -> dict[str, Types]:
    """Types of the entry and of each helper typed with one signature only (else Numba's typing decides).
    Helpers are found as the names' types need them; `thorough` types every call (a call whose value no name
    keeps, `out[i] = h(x[i])`, too): half precision needs every function typed. `several` receives, per
    helper called with several signatures, its types under each (the check passes check all of them)."""
    signatures: dict[str, set[tuple[Type, ...]]] = {}
    memo: dict[tuple[str, tuple[Type, ...]], Types | None] = {}
    recursive: set[tuple[str, tuple[Type, ...]]] = set()
    assumed: dict[tuple[str, tuple[Type, ...]], Type] = {}  # a recursive call's type while its function is typed

    def typed(name: str, arguments: dict[str, Type]) -> Types | None:
        key = (name, tuple(arguments.values()))
        if key not in memo:
            memo[key] = None  # recursion: the inner call's type is `assumed`, UNKNOWN at first
            fn = functions[name]
            local = {p.name.value for p in fn.params.params} | assigned_names(fn.body)

            def make() -> Types:
                types = Types(fn, arguments, values, Calls(globals, local, {}), helper, compute)
                if thorough:
                    for call in calls_in(fn.body):
                        types.of(call)
                return types

            memo[key] = first = make()
            guess = _base_case(fn, first, name) if key in recursive else None
            for _ in range(3):  # `return 1` … `return n * fact(n - 1)`: assume the base case's type, then
                if guess is None:  # what typing under it returns, until the two agree (a fixed point)
                    break
                assumed[key], memo[key] = guess, None
                again = make()
                returned = returned_type(fn, again)
                memo[key] = again if returned == guess else first
                guess = None if returned == guess or returned == UNKNOWN else returned
        return memo[key]

    defaults: dict[str, Types] = {}  # per helper, its defaults' types (a Types of the helper with no arguments)

    def default(name: str, value: cst.BaseExpression) -> Type:
        if name not in defaults:
            defaults[name] = Types(functions[name], {}, values, Calls(globals, set(), {}), None, compute)
        return defaults[name].of(value)

    def helper(name: str, positional: tuple[Type, ...], keywords: Mapping[str, Type]) -> Type:
        if name not in functions:
            return UNKNOWN
        fn = functions[name]
        arguments = bind(fn, positional, keywords, lambda value: default(name, value))
        if arguments is None:  # not a call Python would make (an unknown keyword, a missing argument)
            return UNKNOWN
        signatures.setdefault(name, set()).add(arguments)
        names = [p.name.value for p in fn.params.params]
        types = typed(name, dict(zip(names, arguments)))
        if types is None:
            key = (name, tuple(dict(zip(names, arguments)).values()))
            recursive.add(key)
            return assumed.get(key, UNKNOWN)
        return returned_type(fn, types)

    out: dict[str, Types] = {}
    top = typed(entry, params)
    if top is not None:
        out[entry] = top
    for name, seen in signatures.items():
        names = [p.name.value for p in functions[name].params.params]
        if name != entry and len(seen) == 1:
            (only,) = seen
            if len(only) == len(names):
                found = memo.get((name, only))
                if found is not None:
                    out[name] = found
        elif name != entry and several is not None:
            several[name] = [t for sig in sorted(seen, key=str) if len(sig) == len(names)
                             for t in (memo.get((name, sig)),) if t is not None]
    return out


def bind(fn: cst.FunctionDef, positional: tuple[Type, ...], keywords: Mapping[str, Type],
         default: Callable[[cst.BaseExpression], Type]) -> tuple[Type, ...] | None:
    """The type of each of `fn`'s parameters in a call: positional, by keyword, else its default's. A helper
    typed from its positional arguments only (`h(a, x=b[0])`, `h(a)` with `x=1`) was left to Numba's typing,
    whose int8 arithmetic does not wrap: `a[0] + x` gave 200 where NumPy gives np.int8(-56)."""
    params = fn.params.params
    if len(positional) > len(params) or not set(keywords) <= {p.name.value for p in params[len(positional):]}:
        return None
    bound = list(positional)
    for param in params[len(positional):]:
        if param.name.value in keywords:
            bound.append(keywords[param.name.value])
        elif param.default is not None:
            bound.append(default(param.default))
        else:
            return None
    return tuple(bound)


def _base_case(fn: cst.FunctionDef, types: Types, name: str) -> Type | None:
    """The type of what `fn` returns without calling itself (the values bound to its one returned name, or
    returned directly, that hold no call of `name`), when they agree on a known type."""
    returned: list[cst.Return] = []
    found: list[cst.BaseExpression] = []

    class Values(cst.CSTVisitor):
        def visit_Return(self, node: cst.Return) -> None:
            returned.append(node)

    walk(fn.body, Values())
    if len(returned) != 1 or returned[0].value is None:
        return None
    value = returned[0].value
    if isinstance(value, cst.Name):
        variable = value.value

        class Binds(cst.CSTVisitor):
            def visit_Assign(self, node: cst.Assign) -> None:
                if any(isinstance(t.target, cst.Name) and t.target.value == variable for t in node.targets):
                    found.append(node.value)

        walk(fn.body, Binds())
    else:
        found.append(value)
    base = [v for v in found if not any(isinstance(c.func, cst.Name) and c.func.value == name for c in calls_in(v))]
    if not base:
        return None
    kind: Type | None = None
    for v in base:
        kind = unify(kind, types.of(v))
    return kind if isinstance(kind, Scalar | Tuple) else None


def returned_type(fn: cst.FunctionDef, types: Types) -> Type:
    found: list[Type] = []

    class Returns(cst.CSTVisitor):
        def visit_Return(self, node: cst.Return) -> None:
            found.append(types.of(node.value) if node.value is not None else of_value(None))

    walk(fn.body, Returns())
    return found[0] if len(found) == 1 else UNKNOWN
