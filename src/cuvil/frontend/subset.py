"""Reject everything outside Cuvil's subset (DESIGN.md §3) at decoration time, before Numba sees anything.

Each rejected construct has one row in `_UNSUPPORTED`: what the user wrote and what to write instead. The error
points at the first character of the offending construct in the user's file.
"""

from __future__ import annotations

import libcst as cst

from .containers import containers
from .keyed import check_keys
from .nested_defs import check_nested_def, is_nested_def
from .parse import Checker, Parsed
from .walk import walk

_UNSUPPORTED: dict[type[cst.CSTNode], tuple[str, str]] = {
    cst.Try: ("'try' is not supported", "check the condition with an if and return an error code instead"),
    cst.TryStar: ("'try' is not supported", "check the condition with an if and return an error code instead"),
    cst.With: ("'with' is not supported", "enter the context outside the jitted function"),
    cst.Yield: ("'yield' is not supported", "write the values into an output array and return it"),
    cst.Global: ("'global' is not supported", "pass the value in as an argument and return the new value"),
    cst.Nonlocal: ("'nonlocal' is not supported", "pass the value in as an argument and return the new value"),
    cst.FunctionDef: (
        "a nested 'def' is supported only in the function's own body (not in a loop, an 'if' or another def) "
        "and without decorators (it is inlined where it is called)",
        "define the function at module level; Cuvil compiles the helpers you call",
    ),
    cst.ClassDef: ("a 'class' is not supported", "define classes outside; pass arrays and scalars"),
    cst.Del: ("'del' is not supported", "stop using the variable instead"),
    cst.Await: ("'await' is not supported", "call the jitted function from synchronous code"),
    cst.NamedExpr: ("':=' is not supported", "assign the value on its own line first"),
    cst.Match: ("'match' is not supported", "use if/elif/else"),
    cst.StarredElement: ("unpacking with '*' is not supported", "index the elements explicitly"),
    cst.StarredDictElement: ("unpacking with '**' is not supported", "copy the items in a loop"),
    cst.Ellipsis: ("'...' is not supported", "write the slices explicitly"),
}

# Calls that cannot have side effects: a chained comparison may evaluate its middle operand twice.
_PURE_BUILTINS = frozenset({"len", "abs", "min", "max", "int", "float", "bool", "round"})


class _SubsetChecker(Checker):
    def __init__(self, parsed: Parsed):
        super().__init__(parsed)
        self.top = parsed.function
        self.consumed: set[int] = set()  # generator expressions a call consumes whole (normalize/comprehensions)
        self.lambdas: set[int] = set()  # lambdas normalize/lambdas.py inlines
        self.sets: set[str] = set()  # names that hold a set (frontend/containers.py)

    def on_visit(self, node: cst.CSTNode) -> bool:
        if node is self.top:
            self.check_signature(node)
            self.visit_top(node)
            return False
        if isinstance(node, cst.Expr) and isinstance(node.value, cst.Ellipsis):
            return False  # a statement `...` (a stub's body) does nothing, as `pass`; `a[...]` stays refused
        if id(node) in self.lambdas:  # a lambda, or a nested def, normalize/lambdas.py inlines
            return super().on_visit(node)
        row = _UNSUPPORTED.get(type(node))
        if row is not None:
            self.fail(node, *row)
        if isinstance(node, cst.FormattedStringExpression):  # normalize/fstrings.py writes the rest
            if node.conversion == "a":
                self.fail(node, "'!a' in an f-string is not supported", "write '!r' (repr) instead")
            if any(isinstance(p, cst.FormattedStringExpression) for p in node.format_spec or ()):
                self.fail(node, "an f-string field whose format spec has a field of its own is not supported",
                          "write the spec out: f'{x:10.3f}', or build it with format(x, spec)")
        if isinstance(node, cst.Lambda):
            self.fail(node, "'lambda' is supported only assigned to a name in the function's own body and called",
                      "write `f = lambda x: ...` in the function's body and call f(...), or define a module-level "
                      "function and call it")
        return super().on_visit(node)

    def visit_top(self, fn: cst.FunctionDef) -> None:
        # Decorators and annotations are not compiled; only defaults and the body are.
        self.sets = {name for name, kind in containers(fn).items() if kind == "set"}
        self.check_lambdas(fn)
        self.lambdas |= check_keys(fn, self.fail)
        for param in (*fn.params.posonly_params, *fn.params.params):
            if param.default is not None:
                walk(param.default, self)
        walk(fn.body, self)

    def check_lambdas(self, fn: cst.FunctionDef) -> None:
        """Each `f = lambda ...` in the function's own body that normalize/lambdas.py can inline exactly."""
        body = fn.body
        if isinstance(body, cst.SimpleStatementSuite):  # `def f(x): return x * 2`: on the def's line
            stmts: list[cst.BaseStatement] = [cst.SimpleStatementLine([small]) for small in body.body]
        else:
            stmts = list(cst.ensure_type(body, cst.IndentedBlock).body)
        for k, stmt in enumerate(stmts):
            found = lambda_assignment(stmt)
            if found is None and is_nested_def(stmt):  # a def with statements (normalize/nested_defs.py)
                check_nested_def(fn, stmts, k, self.fail)
                self.lambdas.add(id(stmt))
            if found is None:
                continue
            name, lam = found
            at = stmt if isinstance(stmt, cst.FunctionDef) else lam  # a nested def is a lambda with a name
            params = lam.params
            if params.posonly_params or params.kwonly_params or isinstance(params.star_arg, cst.Param) \
                    or params.star_kwarg is not None or any(p.default is not None for p in params.params):
                self.fail(at, "a lambda or nested def with defaults or '*' parameters is not supported",
                          "give it plain parameters, or define a module-level function")
            inner = _first(lam.body, cst.Lambda, cst.ListComp, cst.GeneratorExp, cst.SetComp, cst.DictComp,
                           cst.NamedExpr)
            if inner is not None:
                self.fail(inner, "a lambda's body may not hold a lambda or a comprehension",
                          "define a module-level function and call it")
            names = [p.name.value for p in params.params]
            uses = _Uses(name)
            walk(fn, uses)
            if uses.bindings != 1 or name in {p.name.value for p in fn.params.params}:
                self.fail(at, f"'{name}' holds a lambda and is bound again in the function",
                          "give the lambda a name of its own")
            for earlier in (*stmts[:k], lam.body):
                user = _first_name(earlier, name)
                if user is not None:
                    self.fail(user, f"'{name}' is used before its lambda is defined (or by itself)",
                              "define the lambda first; a recursive function is a module-level def")
            for bare in uses.bare:
                self.fail(bare, f"'{name}' is a lambda: it can only be called here",
                          "define a module-level function to pass it around")
            for call in uses.calls:
                if len(call.args) != len(names) or any(a.keyword is not None or a.star for a in call.args):
                    self.fail(call, f"'{name}' takes {len(names)} positional argument(s) here",
                              "pass one positional argument per parameter")
                for param, arg in zip(names, call.args):
                    reads = _reads(lam.body, param)
                    if not (_trivial(arg.value) or reads == 1 or reads > 1 and _pure(arg.value)):
                        self.fail(arg, "an argument with a call, or one the lambda never reads, must be a name or a "
                                       "literal", "assign it to a variable first")
            self.lambdas.add(id(at))

    def check_signature(self, fn: cst.FunctionDef) -> None:
        if fn.asynchronous is not None:
            self.fail(fn, "'async def' is not supported", "define a plain function")
        params = fn.params
        if isinstance(params.star_arg, cst.Param):
            self.fail(params.star_arg, "'*args' is not supported", "pass a tuple or separate arguments")
        if params.kwonly_params:
            self.fail(params.kwonly_params[0], "keyword-only parameters are not supported",
                      "remove the '*' and make it a regular parameter")
        if params.star_kwarg is not None:
            self.fail(params.star_kwarg, "'**kwargs' is not supported", "pass separate arguments")
        if params.posonly_params:
            self.fail(params.posonly_params[0], "positional-only parameters are not supported",
                      "remove the '/'")

    def visit_For(self, node: cst.For) -> None:
        if node.asynchronous is not None:
            self.fail(node, "'async for' is not supported", "use a plain for loop")
        self.not_a_set(node.iter)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self.not_a_set(node.iter)

    def not_a_set(self, iterable: cst.BaseExpression) -> None:
        """A set iterates in CPython's hash-table order, which compiled code does not promise to reproduce."""
        parts = [a.value for a in iterable.args] if isinstance(iterable, cst.Call) and isinstance(
            iterable.func, cst.Name) and iterable.func.value in ("enumerate", "zip", "list", "tuple") else [iterable]
        for part in parts:
            if isinstance(part, cst.Name) and part.value in self.sets:
                self.fail(part, f"iterating the set '{part.value}' is not supported: CPython's order is its hash "
                                "table's, which compiled code does not reproduce", f"iterate over sorted({part.value})")

    def visit_GeneratorExp(self, node: cst.GeneratorExp) -> None:
        if id(node) not in self.consumed:
            self.fail(node, "a generator expression is supported only as the one argument of "
                      + ", ".join(sorted(_GENERATOR_CONSUMERS)), "write a list comprehension or a for loop")

    def visit_IfExp(self, node: cst.IfExp) -> None:
        self.not_built_in(node.body, "a branch of a conditional expression")
        self.not_built_in(node.orelse, "a branch of a conditional expression")

    def visit_BooleanOperation(self, node: cst.BooleanOperation) -> None:
        self.not_built_in(node.right, f"the right operand of '{node.operator.__class__.__name__.lower()}'")

    def visit_While(self, node: cst.While) -> None:
        self.not_built_in(node.test, "a 'while' condition")

    def not_built_in(self, node: cst.CSTNode, where: str) -> None:
        """normalize/comprehensions.py builds a comprehension before its statement runs: not where it may not."""
        found = _first_comprehension(node)
        if found is not None:
            self.fail(found, f"a comprehension in {where} is not supported (it would be built every time)",
                      "assign it to a variable first, inside an if where it is needed")

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func.value if isinstance(node.func, cst.Name) else None
        if func in ("list", "tuple") and len(node.args) == 1:
            self.not_a_set(node.args[0].value)
        if func == "tuple" and len(node.args) == 1 and isinstance(node.args[0].value, cst.GeneratorExp | cst.ListComp):
            self.fail(node, "tuple() of a generator is not supported: compiled code knows a tuple's length when it "
                            "compiles", "keep a list ([f(v) for v in xs]) or make an array (np.array([...]))")
        if func in _GENERATOR_CONSUMERS and len(node.args) == 1 and isinstance(node.args[0].value, cst.GeneratorExp):
            self.consumed.add(id(node.args[0].value))
        # zip's keyword (strict=) would be taken for an array by normalize/for_in.py: refused at the keyword
        keyword = next((a for a in node.args if a.keyword is not None), None)
        if isinstance(node.func, cst.Name) and node.func.value == "zip" and keyword is not None:
            self.fail(keyword, "zip() with a keyword (strict=) is not supported",
                      "compare the lengths before the loop: if len(a) != len(b): raise ValueError(...)")

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.star:
            self.fail(node, f"'{node.star}' in a call is not supported", "pass the arguments one by one")

    def visit_Comparison(self, node: cst.Comparison) -> None:
        for target in node.comparisons[:-1]:
            if not _is_pure(target.comparator):
                self.fail(
                    target.comparator,
                    "a chained comparison cannot call a function in its middle operand",
                    "assign the value to a variable first",
                )


def lambda_assignment(stmt: cst.BaseStatement) -> tuple[str, cst.Lambda] | None:
    """(name, lambda) of a statement `name = lambda ...: ...`, or of a nested `def name(...): return ...`, the
    same function (its annotations dropped: they are not compiled)."""
    if isinstance(stmt, cst.FunctionDef):
        body = stmt.body.body if isinstance(stmt.body, cst.IndentedBlock) else ()
        line = body[0] if len(body) == 1 else None
        if stmt.decorators or stmt.asynchronous is not None or not isinstance(line, cst.SimpleStatementLine) \
                or len(line.body) != 1 or not isinstance(line.body[0], cst.Return) or line.body[0].value is None:
            return None
        params = stmt.params.with_changes(params=[p.with_changes(annotation=None) for p in stmt.params.params])
        return stmt.name.value, cst.Lambda(params, line.body[0].value)
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1 or not isinstance(stmt.body[0], cst.Assign):
        return None
    assign = stmt.body[0]
    if len(assign.targets) != 1 or not isinstance(assign.targets[0].target, cst.Name) \
            or not isinstance(assign.value, cst.Lambda):
        return None
    return assign.targets[0].target.value, assign.value


class _Uses(cst.CSTVisitor):
    """Where a name is bound, called and used otherwise."""

    def __init__(self, name: str):
        super().__init__()
        self.name = name
        self.bindings = 0
        self.calls: list[cst.Call] = []
        self.bare: list[cst.Name] = []
        self.seen: set[int] = set()  # names already accounted for (targets, called names)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        for found in _names_in(node.target):
            if found.value == self.name:
                self.bindings += 1
                self.seen.add(id(found))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self.visit_AssignTarget(cst.AssignTarget(node.target))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if node.name.value == self.name:
            self.bindings += 1
            self.seen.add(id(node.name))

    def visit_For(self, node: cst.For) -> None:
        self.visit_AssignTarget(cst.AssignTarget(node.target))

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name) and node.func.value == self.name:
            self.calls.append(node)
            self.seen.add(id(node.func))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self.seen.add(id(node.attr))

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == self.name and id(node) not in self.seen:
            self.bare.append(node)


def _names_in(target: cst.BaseExpression) -> list[cst.Name]:
    if isinstance(target, cst.Name):
        return [target]
    if isinstance(target, cst.Tuple | cst.List):
        return [n for e in target.elements for n in _names_in(e.value)]
    return []


def _first(node: cst.CSTNode, *kinds: type[cst.CSTNode]) -> cst.CSTNode | None:
    if isinstance(node, kinds):
        return node
    return next((found for child in node.children if (found := _first(child, *kinds)) is not None), None)


def _first_name(node: cst.CSTNode, name: str) -> cst.Name | None:
    if isinstance(node, cst.Name) and node.value == name:
        return node
    if isinstance(node, cst.Attribute):
        return _first_name(node.value, name)
    return next((found for child in node.children if (found := _first_name(child, name)) is not None), None)


def _reads(node: cst.CSTNode, name: str) -> int:
    if isinstance(node, cst.Name):
        return int(node.value == name)
    if isinstance(node, cst.Attribute):
        return _reads(node.value, name)
    return sum(_reads(child, name) for child in node.children)


def _trivial(node: cst.BaseExpression) -> bool:
    """Evaluating it twice, or not at all, is not seen: a name, a literal, a module's attribute."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        return isinstance(node.expression, cst.Integer | cst.Float)
    if isinstance(node, cst.Attribute):
        return _trivial(node.value)
    return isinstance(node, cst.Name | cst.Integer | cst.Float | cst.SimpleString)


def _pure(node: cst.CSTNode) -> bool:
    """No call: evaluating it again gives the same value, or raises the same exception first."""
    return not isinstance(node, cst.Call | cst.Lambda | cst.NamedExpr) and all(_pure(c) for c in node.children)


# Calls that take a generator expression as their one argument (normalize/comprehensions.py builds it): those
# that consume all of it, and any/all, which stop at the element that decides.
CONSUMING = frozenset({"sum", "min", "max", "sorted", "list", "tuple"})
SHORT_CIRCUITING = frozenset({"any", "all"})
_GENERATOR_CONSUMERS = CONSUMING | SHORT_CIRCUITING


def _first_comprehension(node: cst.CSTNode) -> cst.CSTNode | None:
    if isinstance(node, cst.ListComp | cst.GeneratorExp | cst.SetComp | cst.DictComp):
        return node
    return next((found for child in node.children if (found := _first_comprehension(child)) is not None), None)


def _is_pure(expr: cst.BaseExpression) -> bool:
    """True when evaluating `expr` twice is indistinguishable from evaluating it once."""
    if isinstance(expr, cst.Call):
        func = expr.func
        pure = (isinstance(func, cst.Name) and func.value in _PURE_BUILTINS) or (
            isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)
            and func.value.value in ("math", "np", "numpy")
        )
        return pure and all(_is_pure(a.value) for a in expr.args)
    return all(_is_pure(c) for c in expr.children if isinstance(c, cst.BaseExpression))


def check_subset(parsed: Parsed) -> None:
    """Raise `CuvilSyntaxError` at the first construct outside the subset."""
    _SubsetChecker(parsed).check()
