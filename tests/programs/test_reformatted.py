"""Layout is not meaning: every corpus program, re-laid-out the ways users write (an expression broken over lines
inside parentheses, comments inside it, trailing commas, backslash continuations), compiles to the same results.

`return (a[:-1] +\\n a[1:])` once made a module that did not import: the whole-array rewrite lifted the sum out
of its parentheses and kept the line break (issue 39).
"""
import inspect
import sys
from copy import deepcopy

import libcst as cst
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from tests.helpers import define

from .test_programs import CASES, assert_same, compiled, run_reference

_BREAK = cst.ParenthesizedWhitespace(
    first_line=cst.TrailingWhitespace(cst.SimpleWhitespace("  "), cst.Comment("# a comment inside")),
    empty_lines=(cst.EmptyLine(comment=cst.Comment("# a line of its own")),),
    indent=True,
    last_line=cst.SimpleWhitespace("        "),
)
_BACKSLASH = cst.SimpleWhitespace(" \\\n        ")


class Relayout(cst.CSTTransformer):
    """Parenthesise every value assigned or returned and every operand pair, break the line after each
    operator and comma (with comments), add trailing commas, and continue assignments with a backslash."""

    def leave_BinaryOperation(self, original, updated):
        op = updated.operator.with_changes(whitespace_after=_BREAK)
        return updated.with_changes(operator=op, lpar=[cst.LeftParen()], rpar=[cst.RightParen()])

    def leave_BooleanOperation(self, original, updated):
        op = updated.operator.with_changes(whitespace_after=_BREAK)
        return updated.with_changes(operator=op, lpar=[cst.LeftParen()], rpar=[cst.RightParen()])

    def leave_Call(self, original, updated):
        if not updated.args:
            return updated
        args = [a.with_changes(comma=cst.Comma(whitespace_after=_BREAK)) for a in updated.args]
        return updated.with_changes(args=args)

    def leave_AssignTarget(self, original, updated):
        return updated.with_changes(whitespace_after_equal=_BACKSLASH)

    def leave_Return(self, original, updated):
        if updated.value is None or updated.value.lpar:
            return updated
        value = updated.value.with_changes(lpar=[cst.LeftParen(whitespace_after=_BREAK)], rpar=[cst.RightParen()])
        return updated.with_changes(value=value)


def relaid(fn):
    source = inspect.getsource(fn)
    module = cst.parse_module(source).visit(Relayout())
    return define(module.code, fn.__name__, env=vars(sys.modules[fn.__module__]))


def test_relayout_changes_the_layout():
    fn = next(c.fn for c in CASES if c.fn.__name__ == "clip_ternary")
    text = cst.parse_module(inspect.getsource(fn)).visit(Relayout()).code
    assert "# a comment inside" in text and "\\\n" in text


@pytest.mark.parametrize("case", [pytest.param(c, id=c.fn.__name__) for c in CASES if not c.xfail])
@settings(max_examples=3, deadline=None)
@given(data=st.data())
def test_relaid_program_matches_python(case, data):
    jitted = compiled(relaid(case.fn))
    args = data.draw(case.strategy, label="args")
    py_args, jit_args = deepcopy(args), deepcopy(args)
    assert_same(run_reference(case.fn, py_args), jitted(*jit_args))
    assert_same(tuple(py_args), tuple(jit_args), path="args")


# Whole-array expressions are where rewrites lift subexpressions out of their parentheses (fused nests).
WHOLE_ARRAY = {
    "broken_sum": """
        def f(a):
            return (a[:-1] +
                    a[1:])
    """,
    "comment_inside": """
        def f(a):
            b = (a * 2.0  # doubled
                 # a comment line of its own
                 - a[::-1])
            return b
    """,
    "backslash": """
        def f(a):
            b = a * 2.0 + \\
                a
            return b.sum()
    """,
    "call_over_lines": """
        def f(a):
            return np.where(
                a > 0,
                a,
                -a,
            )
    """,
    "body_on_the_def_line": """
        def f(a): b = a * 2.0; return b + a[::-1]
    """,
    "suites_on_their_lines": """
        def f(a):
            if a.sum() > 0: b = a * 2.0
            else: b = -a
            for k in range(2): b = b + k
            return b
    """,
    "store_over_lines": """
        def f(a):
            out = np.empty_like(a)
            out[:] = (np.sqrt(np.abs(a))
                      * 3.0)
            return out
    """,
}


_DEFINED: dict = {}


def _defined(name):
    """One function per source, so that it compiles once and not once per example."""
    if name not in _DEFINED:
        _DEFINED[name] = define(WHOLE_ARRAY[name], "f", env={"np": np})
    return _DEFINED[name]


@pytest.mark.parametrize("name", sorted(WHOLE_ARRAY))
@settings(max_examples=5, deadline=None)
@given(a=hnp.arrays(np.float64, st.integers(1, 12), elements=st.floats(-100, 100)))
def test_whole_array_expression_over_lines(name, a):
    fn = _defined(name)
    assert_same(fn(a.copy()), compiled(fn)(a.copy()))


def test_an_error_in_a_body_on_the_def_line_is_at_that_line():
    """`def f(a): return a.summ()` raised libcst's 'Expected a IndentedBlock' when the decorator ran."""
    import cuvil

    fn = define("def f(a): return a.summ()\n", "f")
    with pytest.raises(cuvil.CuvilAttributeError) as info:
        cuvil.jit(fn)(np.ones(2))
    assert info.value.lineno == fn.__code__.co_firstlineno
