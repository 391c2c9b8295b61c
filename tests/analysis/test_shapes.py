"""The shape analysis: flow- and path-sensitive facts, certain errors only on every path, and which in-place
updates need run-time care. Soundness against NumPy is a hypothesis property at the end."""

from __future__ import annotations

import libcst as cst
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cuvil.analysis import shapes
from cuvil.analysis.shape_rules import UNKNOWN, Sym
from cuvil.frontend.parse import parse
from cuvil.frontend.source import get_source
from cuvil.normalize.pipeline import normalize
from tests.helpers import define


def _check(source: str, certain: bool = True, **params) -> shapes.Checked:
    fn = normalize(parse(get_source(define(source)))).function
    return shapes.check(fn, params, certain=certain)


def _error(source: str, **params) -> str | None:
    error = _check(source, **params).error
    return None if error is None else f"L{error.line}: {error.message}"


def _inplace(source: str, **params) -> list[str]:
    """The in-place updates that need `inplace_value`, as code."""
    return [cst.Module([]).code_for_node(s.body[0]) for s in _check(source, **params).inplace]


# flow sensitivity: what an augmented assignment does to what is known


def test_augmented_assignment_updates_a_known_dim():
    assert _error("""
        def f(a):
            n = 3
            n -= 2
            t = np.zeros((4, n))
            t += a
            return t
        """, a=(4, 3)) == "L5: non-broadcastable output operand with shape (4,1) doesn't match the broadcast shape " \
        "(4,3)"


def test_augmented_assignment_growing_a_dim_is_no_false_error():
    assert _error("""
        def f(x):
            n = 2
            n += 1
            return np.zeros(n) + x
        """, x=(3,)) is None


@pytest.mark.parametrize(("update", "size"), [("n += 1", 8), ("n -= 1", 6), ("n *= 2", 14), ("n //= 2", 3),
                                              ("n %= 4", 3), ("n = -n + 10", 3)])
def test_int_updates_follow_python(update, size):
    source = f"""
        def f(x):
            n = 7
            {update}
            return np.zeros(n) + x
        """
    assert _error(source, x=(size,)) is None
    assert _error(source, x=(size + 1,)) is not None


def test_an_int_updated_by_an_unknown_amount_is_forgotten():
    assert _error("""
        def f(x, k):
            n = 3
            n += k
            return np.zeros(n) + x
        """, x=(5,)) is None


def test_a_rebound_parameter_takes_its_new_shape():
    assert _error("""
        def f(a, b):
            a = b[1:]
            return a + b[:-1]
        """, a=(7,), b=(4,)) is None


# path sensitivity: a contradiction on a path the program may not take is left to run time


@pytest.mark.parametrize("source", [
    """
    def f(a, b):
        if len(a) != len(b):
            return a * 0.0
        return a + b
    """,
    """
    def f(a, b):
        if a.shape[1] != b.shape[0]:
            return np.zeros((1, 1))
        return a @ b
    """,
    """
    def f(t, a):
        if t.shape != a.shape:
            return t
        t += a
        return t
    """,
    """
    def f(a, b, n):
        for i in range(n):
            a = a + b
        return a
    """,
    """
    def f(a, b, flag):
        c = a + b if flag else a
        return c
    """,
    """
    def f(a, b):
        assert len(a) == len(b)
        return a + b
    """,
])
def test_contradictions_on_paths_not_always_taken_are_left_to_run_time(source):
    assert _error(source, a=(3, 3), b=(4, 2), t=(3,)) is None


def test_a_contradiction_after_a_branch_is_certain():
    assert _error("""
        def f(a, b, flag):
            if flag:
                a = a * 2.0
            c = a + b
            return c
        """, a=(3,), b=(4,)) == "L4: operands could not be broadcast together with shapes (3,) (4,) "


def test_callees_get_no_compile_time_errors():
    source = """
        def f(a):
            return np.ones(3) + np.ones(4)
        """
    assert _error(source) == "L2: operands could not be broadcast together with shapes (3,) (4,) "
    assert _check(source, certain=False).error is None


def test_unreachable_code_is_not_analysed():
    assert _error("""
        def f(a, b):
            for i in range(3):
                return a
                c = a + b
            return b
        """, a=(3,), b=(4,)) is None


# joins and loops


def test_names_keep_what_both_branches_agree_on():
    source = """
        def f(x, flag):
            if flag:
                t = np.zeros((3, 4))
            else:
                t = np.zeros((5, 4))
            return t + x
        """
    assert _error(source, x=(4,)) is None
    assert _error(source, x=(5,)) == "L6: operands could not be broadcast together with shapes (?,4) (5,) "


def test_a_scalar_stays_a_scalar_through_a_loop_reduction():
    assert _inplace("""
        def f(p):
            d = 0.0
            for k in range(len(p)):
                d += p[k] * p[k]
            return d
        """) == []


def test_a_shape_changed_in_a_loop_becomes_unknown_at_its_header():
    assert _error("""
        def f(x, n):
            t = np.zeros(4)
            for i in range(n):
                t = t[1:]
            return t + x
        """, x=(3,)) is None


# indexing


@pytest.mark.parametrize("index", ["x[:, np.newaxis]", "x[np.newaxis, :]", "x[None]", "x[None, :, None]",
                                   "x[..., 0]", "x[0, None]"])
def test_new_axes_are_not_indices(index):
    assert _error(f"""
        def f(x):
            return {index}
        """, x=(3,)) is None


def test_the_rank_check_counts_indices_not_new_axes():
    assert _error("""
        def f(x):
            return x[None, 0, 0]
        """, x=(3,)) == "L2: too many indices for array: array is 1-dimensional, but 2 were indexed (argument 'x')"


def test_a_rebound_parameter_is_no_longer_named_as_the_argument():
    assert _error("""
        def f(x):
            x = x[0]
            return x[0, 1]
        """, x=(3, 4)) == "L3: too many indices for array: array is 1-dimensional, but 2 were indexed"


@pytest.mark.parametrize("binding", ["s = x.shape", "s = (len(x),)", "s: tuple = x.shape"])
def test_a_tuple_bound_to_one_name_is_not_a_scalar(binding):
    """`s = x.shape` of a 1-D x made `s` a scalar, and `s[0]` 'an array indexed with too many indices'."""
    assert _error(f"""
        def f(x):
            {binding}
            return s[0] + x[s[0] - 1]
        """, x=(3,)) is None


# which in-place updates need `inplace_value`


def test_in_place_updates_that_may_overlap_or_mismatch_are_checked():
    assert _inplace("""
        def f(a, x, t, s):
            a += a.T
            x[1:] += x[:-1]
            t += a * 2.0
            x += 1.0
            s += x[0]
            x[0] += s
            return a
        """, a=(2, 2), x=(5,), t=(2, 2), s=()) == ["a += a.T", "x[1:] += x[:-1]"]


def test_an_update_that_grows_the_target_along_a_symbolic_dim_is_checked():
    source = """
        def f(a):
            t = np.zeros((a.shape[0], 1))
            t += a * 1.0
            return t
        """
    assert _inplace(source, a=(Sym("s0"), Sym("s1"))) == ["t += a * 1.0"]
    assert _inplace(source, a=(Sym("s0"), 1)) == []


def test_updates_with_unknown_shapes_are_checked():
    assert _inplace("""
        def f(t, a):
            t += a
            return t
        """) == ["t += a"]


# soundness: a certain error is an error NumPy raises too; shapes that NumPy runs are never refused

_DIMS = st.integers(1, 4)
_SHAPES = st.lists(_DIMS, min_size=1, max_size=2).map(tuple)
_STEPS = st.sampled_from(["n += 1", "n -= 1", "n *= 2", "n = n + 1", "n = len(a)", "pass"])
_USES = st.sampled_from(["t = np.zeros(n) + a", "t = a + b", "t = np.zeros((n, 1)) * b", "t = a @ b",
                         "t = np.zeros(n)\nt += a", "t = np.zeros((2, n))\nt += b"])


@given(_SHAPES, _SHAPES, st.integers(0, 4), _STEPS, _USES, st.booleans())
def test_certain_errors_are_numpys_errors(a, b, start, step, use, guarded):
    """Where the analysis reports an error, NumPy raises ValueError on every path; where the program runs
    unguarded and NumPy does not raise, the analysis reports nothing."""
    lines = ["if flag:"] + ["    " + line for line in use.split("\n")] if guarded else use.split("\n")
    source = f"def f(a, b, flag):\n    n = {start}\n    {step}\n"
    source += "".join(f"    {line}\n" for line in lines) + "    return 0\n"
    error = _check(source, a=a, b=b, flag=()).error
    fn = define(source, env={"np": np})
    outcomes = []
    for flag in (True, False):
        try:
            fn(np.ones(a), np.ones(b), flag)
            outcomes.append(None)
        except ValueError:
            outcomes.append(ValueError)
    if error is not None:
        assert outcomes == [ValueError, ValueError], (source, a, b, error)
    if not guarded and outcomes[0] is None:
        assert error is None, (source, a, b, error)


@given(shape=st.lists(st.integers(1, 3), min_size=1, max_size=3).map(tuple),
       parts=st.lists(st.sampled_from(["None", ":", "0", "1:", "np.newaxis"]), min_size=1, max_size=5))
def test_the_rank_check_agrees_with_numpy(shape, parts):
    """Indexed with more indices than it has dims — new axes not counted — is NumPy's IndexError, and exactly
    then the analysis says so; otherwise it knows the result's shape."""
    source = f"def f(x):\n    y = x[{', '.join(parts)}]\n    return y\n"
    fn = define(source, env={"np": np})
    try:
        expected = fn(np.zeros(shape)).shape
    except IndexError:
        expected = None
    error = _check(source, x=shape).error
    assert (error is None) == (expected is not None), (source, shape, error)
    if expected is not None:
        function = normalize(parse(get_source(fn))).function
        before_return = shapes.infer(function, {"x": shape})[id(function.body.body[-1])]
        assert before_return.env["y"] == expected


def test_signature_shapes_name_dynamic_dims_in_order():
    assert shapes.signature_shapes(["a", "n", "b"], [(3, None), None, (None,)]) == {
        "a": (3, Sym("s0")), "b": (Sym("s1"),)}
    assert shapes.signature_shapes(["a"], [(None, 2, None, None)]) == {"a": (Sym("s0"), 2, Sym("s1"), Sym("s2"))}
    assert UNKNOWN != Sym("s0")


# Found by `nox -s mutation` (tests/MUTATION.md): a statement that would raise binds nothing known.


def _states(source: str, **params):
    """The normalized function, and what `infer` knows before each statement (by the statement's code)."""
    function = normalize(parse(get_source(define(source, env={"np": np})))).function
    table = shapes.infer(function, params)
    code = cst.Module([]).code_for_node
    found = {}
    for stmt in _all_statements(function):
        if id(stmt) in table:
            found.setdefault(code(stmt).strip().splitlines()[0], table[id(stmt)])
    return found


def _all_statements(node):
    out = []

    class Find(cst.CSTVisitor):
        def visit_SimpleStatementLine(self, n):
            out.append(n)

        def visit_If(self, n):
            out.append(n)

    node.visit(Find())
    return out


def test_a_name_bound_by_a_statement_that_raises_is_forgotten():
    """Only what the statement itself binds: an `if` whose test raises binds nothing (its branch's names are
    the branch's). After normalization a loop header is `range(…)`, which raises no contradiction."""
    states = _states("""
        def f(a):
            t = np.zeros(3)
            y = np.zeros(2)
            t = a[0, 0]
            if a[0, 0]:
                y = np.zeros(2)
            return y
        """, a=(3,))
    assert "t" not in states["if a[0, 0]:  # L5"].env  # the indexing raises: t's old shape is gone
    assert states["return y  # L7"].env["y"] == (2,)


def test_a_contradiction_on_an_uncertain_path_is_no_in_place_update():
    assert _inplace("""
        def f(a, b, flag):
            if flag:
                t = a + b
            return 0
        """, a=(3,), b=(4,), flag=()) == []


def test_statements_after_an_unreachable_block_are_still_analysed():
    states = _states("""
        def f(a):
            for i in range(3):
                break
                y = a[0]
            z = a + 1.0
            return z
        """, a=(3,))
    assert "y = a[0]  # L4" not in states  # never runs: no state
    assert states["return z  # L6"].env["z"] == (3,)
