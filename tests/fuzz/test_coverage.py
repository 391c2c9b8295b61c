"""The generator covers the whole subset of DESIGN.md §3: over a few hundred drawn programs, every construct in
CONSTRUCTS appears at least once. Each construct is recognised on Python's own AST (a test may use `ast`)."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from hypothesis import HealthCheck, given, seed, settings

from .generator import Program, programs

ALLOCATIONS = {"empty", "zeros", "ones", "full", "empty_like", "zeros_like", "ones_like", "full_like"}


def _calls(tree: ast.AST, owner: str) -> set[str]:
    return {n.func.attr for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and isinstance(n.func.value, ast.Name) and n.func.value.id == owner}


def _for_over(name: str) -> Callable[[ast.AST], bool]:
    return lambda t: any(isinstance(n, ast.For) and isinstance(n.iter, ast.Call) and isinstance(n.iter.func, ast.Name)
                         and n.iter.func.id == name for n in ast.walk(t))


def _in_loop(t: ast.AST, kinds: tuple[type, ...]) -> bool:
    return any(isinstance(n, kinds) for loop in ast.walk(t) if isinstance(loop, ast.For | ast.While)
               for stmt in loop.body for n in ast.walk(stmt))


def _binop(op: type) -> Callable[[ast.AST], bool]:
    return lambda t: any(isinstance(n, ast.BinOp) and isinstance(n.op, op) for n in ast.walk(t))


def _has(kind: type, test: Callable[[ast.AST], bool] = lambda n: True) -> Callable[[ast.AST], bool]:
    return lambda t: any(isinstance(n, kind) and test(n) for n in ast.walk(t))


def _functions(t: ast.AST) -> set[str]:
    return {n.name for n in ast.walk(t) if isinstance(n, ast.FunctionDef)}


def _module_names(t: ast.Module) -> set[str]:
    return {tg.id for s in t.body if isinstance(s, ast.Assign) for tg in s.targets if isinstance(tg, ast.Name)}


# construct → test on the module's AST (or, for `elif`/`else`, which ast folds into If, on the text)
CONSTRUCTS: dict[str, Callable[[ast.Module], bool]] = {
    "for-range": _for_over("range"),
    "for-enumerate": _for_over("enumerate"),
    "for-zip": _for_over("zip"),
    "for-array": _has(ast.For, lambda n: isinstance(n.iter, ast.Name) and not n.iter.id.endswith("row")),
    "for-array-rows": _has(ast.For, lambda n: isinstance(n.target, ast.Name) and n.target.id.endswith("_row")),
    "nested-loop": lambda t: _in_loop(t, (ast.For, ast.While)),
    "while": _has(ast.While),
    "break": _has(ast.Break),
    "continue": _has(ast.Continue),
    "if": _has(ast.If),
    "ternary": _has(ast.IfExp),
    "and": _has(ast.BoolOp, lambda n: isinstance(n.op, ast.And)),
    "or": _has(ast.BoolOp, lambda n: isinstance(n.op, ast.Or)),
    "not": _has(ast.UnaryOp, lambda n: isinstance(n.op, ast.Not)),
    "chained-compare": _has(ast.Compare, lambda n: len(n.ops) >= 2),
    "multiple-return": _has(ast.FunctionDef, lambda n: sum(isinstance(r, ast.Return) for r in ast.walk(n)) >= 2),
    "return-in-loop": lambda t: _in_loop(t, (ast.Return,)),
    "return-tuple": _has(ast.Return, lambda n: isinstance(n.value, ast.Tuple)),
    "assign": _has(ast.Assign),
    "augassign": _has(ast.AugAssign, lambda n: isinstance(n.target, ast.Name)),
    "augassign-element": _has(ast.AugAssign, lambda n: isinstance(n.target, ast.Subscript)),
    "tuple-unpack": _has(ast.Assign, lambda n: isinstance(n.targets[0], ast.Tuple)),
    "truediv": _binop(ast.Div),
    "floordiv": _binop(ast.FloorDiv),
    "mod": _binop(ast.Mod),
    "mod-negative-divisor": _has(ast.BinOp, lambda n: isinstance(n.op, ast.Mod | ast.FloorDiv)
                                 and isinstance(n.right, ast.UnaryOp | ast.Constant)
                                 and str(ast.unparse(n.right)).startswith("-")),
    "pow": _binop(ast.Pow),
    "int-to-float": _has(ast.Call, lambda n: isinstance(n.func, ast.Name) and n.func.id == "float"),
    "builtins-abs-min-max": lambda t: {"abs", "min", "max"} <= {n.func.id for n in ast.walk(t) if isinstance(
        n, ast.Call) and isinstance(n.func, ast.Name)},
    "math-call": lambda t: bool(_calls(t, "math")),
    "numpy-call": lambda t: bool(_calls(t, "np") - ALLOCATIONS - {"array"}),
    "array-method": lambda t: any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                                  and n.func.attr in ("copy", "sum") for n in ast.walk(t)),
    "array-alloc": lambda t: bool(_calls(t, "np") & ALLOCATIONS),
    "array-read": _has(ast.Subscript, lambda n: isinstance(n.ctx, ast.Load)),
    "array-write": _has(ast.Subscript, lambda n: isinstance(n.ctx, ast.Store)),
    "array-2d-index": _has(ast.Subscript, lambda n: isinstance(n.slice, ast.Tuple)),
    "slice": _has(ast.Slice),
    "negative-index": _has(ast.Subscript, lambda n: ast.unparse(n.slice).startswith("-")),
    "module-constant": lambda t: any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
                                     and n.id in _module_names(t) for f in t.body if isinstance(f, ast.FunctionDef)
                                     for n in ast.walk(f)),
    "helper-call": lambda t: any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                                 and n.func.id in _functions(t) for n in ast.walk(t)),
    "jit-helper-call": _has(ast.FunctionDef, lambda n: any(ast.unparse(d) == "cuvil.jit" for d in n.decorator_list)),
    "keyword-argument": _has(ast.keyword),
    "default-parameter": _has(ast.FunctionDef, lambda n: bool(n.args.defaults)),
    "print": _has(ast.Call, lambda n: isinstance(n.func, ast.Name) and n.func.id == "print"),
    "maybe-unassigned-local": _has(ast.Name, lambda n: n.id == "z0" and isinstance(n.ctx, ast.Load)),
}
TEXT_CONSTRUCTS = {"elif": re.compile(r"^\s*elif ", re.M), "else": re.compile(r"^\s*else:", re.M)}


def constructs(source: str) -> set[str]:
    tree = ast.parse(source)
    found = {name for name, test in CONSTRUCTS.items() if test(tree)}
    return found | {name for name, pattern in TEXT_CONSTRUCTS.items() if pattern.search(source)}


def test_constructs_recognise_what_they_name():
    # The recognisers themselves must be able to say no, or the coverage test below proves nothing.
    assert constructs("def f(a):\n    return a\n") == set()
    assert constructs("def f(a):\n    for x in a:\n        pass\n    return a[-1]\n") == {
        "for-array", "array-read", "negative-index"}


def test_generated_programs_cover_the_subset():
    seen: set[str] = set()

    @seed(0)
    @settings(max_examples=400, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(programs())
    def draw(program: Program) -> None:
        seen.update(constructs(program.source))

    draw()
    missing = set(CONSTRUCTS) | set(TEXT_CONSTRUCTS)
    assert missing - seen == set(), f"never generated: {sorted(missing - seen)}"
