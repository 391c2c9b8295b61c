"""What a call does besides computing its value: which argument expressions it writes, which its result may
view, whether it may raise, and whether calls must stay in program order.

Library calls are looked up in the one table (library/numpy.py); a function Cuvil compiles itself is described
by its `Summary`, computed from its own body (cfg/summary.py) before its callers are analysed; anything else is
`UNKNOWN` (writes and views every argument, may raise, ordered).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import libcst as cst

from ..library import numpy as library
from ..library.numpy import SELF, Arg, Entry


@dataclasses.dataclass(frozen=True)
class Global:
    """What a module-level name of the generated module is, as far as the analyses care."""

    kind: str  # "module", "function" (a library function), "helper" (compiled by Cuvil), "constant", "opaque"
    qualname: str = ""  # the module's or library function's dotted name; the helper's name in the module


@dataclasses.dataclass(frozen=True)
class Summary:
    """What a compiled function may do to its parameters, seen from a call."""

    params: tuple[str, ...]
    writes: frozenset[int] = frozenset()  # parameter positions it may write into
    views: frozenset[int] = frozenset()  # parameter positions its result may view
    raises: str | None = None  # why it may raise ("L12: `//` may divide by zero"); None if it cannot
    ordered: str | None = None  # why calls must stay in order ("L13: print"); None if they need not
    # each parameter's default (an expression of the module, as the function's `def` has it), None for none
    defaults: tuple[cst.BaseExpression | None, ...] = ()


OPAQUE_SUMMARY = Summary((), raises="it is compiled in a recursive cycle", ordered="recursion")


@dataclasses.dataclass(frozen=True)
class CallEffect:
    name: str  # what is called, for messages: "numpy.add", ".fill", "helper h"
    writes: tuple[cst.BaseExpression, ...]  # argument expressions written in place
    views: tuple[cst.BaseExpression, ...]  # argument expressions the result may view
    raises: str | None  # library.RAISES key, or a helper's reason; None when it cannot raise
    ordered: bool
    args: tuple[cst.BaseExpression, ...]  # positional arguments, the method's array first


def _chain(node: cst.BaseExpression) -> list[str] | None:
    """`np.linalg.norm` → ["np", "linalg", "norm"]; None for anything but names and attributes."""
    if isinstance(node, cst.Name):
        return [node.value]
    if isinstance(node, cst.Attribute):
        head = _chain(node.value)
        return None if head is None else [*head, node.attr.value]
    return None


class Calls:
    """Resolves the calls of one function: `globals` are the generated module's names, `locals` the function's
    parameters and assigned names, `summaries` the compiled helpers' summaries by module name; `lengths` the
    locals that only ever hold a length or a dim (cfg/raising.py: an allocation of those cannot raise)."""

    def __init__(self, globals: Mapping[str, Global], locals: set[str], summaries: Mapping[str, Summary],
                 lengths: frozenset[str] = frozenset()):
        self.globals, self.locals, self.summaries, self.lengths = globals, locals, summaries, lengths

    def global_of(self, name: str) -> Global | None:
        return None if name in self.locals else self.globals.get(name)

    def effect(self, call: cst.Call) -> CallEffect:
        positional = [a.value for a in call.args if a.keyword is None]
        keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
        func = call.func
        chain = _chain(func)
        if chain is not None and len(chain) == 1 and chain[0] not in self.locals:
            found = self.globals.get(chain[0])
            if found is None:  # a builtin
                entry = library.lookup(chain[0])
                if chain[0] in ("min", "max") and len(positional) >= 2:
                    entry = dataclasses.replace(entry, raises=None)  # only of an empty sequence
                return _from_entry(chain[0], entry, positional, keywords, None)
            if found.kind == "function":
                return _from_entry(found.qualname, library.lookup(found.qualname), positional, keywords, None)
            if found.kind == "helper":
                return self._helper(found.qualname, positional, keywords)
            return _from_entry(chain[0], library.UNKNOWN, positional, keywords, None)
        if chain is not None and len(chain) > 1 and chain[0] not in self.locals:
            found = self.globals.get(chain[0])
            if found is not None and found.kind == "module":
                qualname = ".".join([found.qualname, *chain[1:]])
                return _from_entry(qualname, library.lookup(qualname), positional, keywords, None)
        if isinstance(func, cst.Attribute):  # a method of an array expression
            entry = library.method(func.attr.value)
            return _from_entry(f".{func.attr.value}", entry, positional, keywords, func.value)
        return _from_entry("a call", library.UNKNOWN, positional, keywords, None)

    def _helper(self, name: str, positional: list[cst.BaseExpression],
                keywords: dict[str, cst.BaseExpression]) -> CallEffect:
        summary = self.summaries.get(name, OPAQUE_SUMMARY)
        # Each parameter's argument, by position or by keyword. Binding stopped at the first default once, so
        # `put(a, i, out=b)` past a default `k=1.0` hid the write into b, and a loop carrying a dependence
        # through it ran in parallel.
        at = dict(enumerate(positional))
        at.update((k, keywords[p]) for k, p in enumerate(summary.params) if k >= len(positional) and p in keywords)
        args = list(positional)
        while len(args) in at:
            args.append(at[len(args)])
        # A parameter left to its default gets the default's value: written or viewed, that is the module's array
        # (`def put(a, out=BUF)`: `put(a)` writes BUF, which compiled code holds as a constant, lower/constants.py)
        at.update((k, d) for k, d in enumerate(summary.defaults) if k not in at and d is not None)
        return CallEffect(
            f"helper {name}",
            tuple(at[p] for p in sorted(summary.writes) if p in at),
            tuple(at[p] for p in sorted(summary.views) if p in at),
            summary.raises,
            summary.ordered is not None,
            tuple(args),
        )


def _from_entry(name: str, entry: Entry, positional: list[cst.BaseExpression],
                keywords: dict[str, cst.BaseExpression], owner: cst.BaseExpression | None) -> CallEffect:
    every = ([owner] if owner is not None else []) + positional + list(keywords.values())

    def pick(refs: tuple[Arg | str, ...]) -> tuple[cst.BaseExpression, ...]:
        found: list[cst.BaseExpression] = []
        for ref in refs:
            if ref == "*":
                found += every
            elif ref == SELF:
                found += [owner] if owner is not None else []
            elif isinstance(ref, Arg):
                if ref.position is not None and ref.position < len(positional):
                    found.append(positional[ref.position])
                elif ref.keyword is not None and ref.keyword in keywords:
                    found.append(keywords[ref.keyword])
        return tuple(found)

    writes = pick(entry.writes)
    if library.OUT in keywords and keywords[library.OUT] not in writes:
        writes += (keywords[library.OUT],)
    args = tuple(([owner] if owner is not None else []) + positional)
    return CallEffect(name, writes, pick(entry.views), entry.raises, entry.ordered, args)
