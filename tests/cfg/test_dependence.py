"""Which loops the dependence analysis finds parallel, and the reason it gives when it does not."""

from __future__ import annotations

import pytest

from cuvil.cfg.effects import Global
from cuvil.cfg.program import analyze_program
from cuvil.frontend.parse import parse
from cuvil.frontend.source import get_source
from cuvil.normalize.pipeline import normalize
from tests.helpers import define

GLOBALS = {"np": Global("module", "numpy"), "math": Global("module", "math")}


def decisions(source: str, globals: dict[str, Global] | None = None, numbers=(), ranks=None):
    fn = normalize(parse(get_source(define(source)))).function
    analyses = analyze_program({"f": fn}, "f", {**GLOBALS, **(globals or {})}, frozenset(numbers), ranks or {},
                               True)
    return analyses["f"].loops


def parallel_lines(source: str, **kw) -> list[int]:
    return [d.line for d in decisions(source, **kw) if d.parallel]


def reasons(source: str, **kw) -> list[str]:
    return [d.reason for d in decisions(source, **kw) if not d.parallel]


def test_independent_iterations_are_parallel():
    assert parallel_lines("""
        def f(a, b, out):
            s = 0.0
            for i in range(len(a)):
                t = a[i] * 2.0
                out[i] = t + b[i]
                s += t
            return s
        """, ranks={"a": 1, "b": 1, "out": 1}) == [3]


def test_loop_carried_dependences_are_serial():
    assert parallel_lines("""
        def f(a, out, hist):
            for i in range(1, len(a)):
                out[i] = out[i - 1] + a[i]
            for i in range(len(a)):
                hist[a[i]] += 1
            x = 0.0
            for i in range(len(a)):
                x = x * 0.5 + a[i]
            for i in range(len(a)):
                t = a[i]
                out[i] = t
            return t
        """) == []


def test_private_arrays_and_nested_loops_keep_the_outer_loop_parallel():
    assert parallel_lines("""
        def f(points, out):
            for i in range(points.shape[0]):
                tmp = np.empty(3)
                for k in range(3):
                    tmp[k] = points[i, k] * 2.0
                for j in range(points.shape[0]):
                    out[i, j] = tmp[0] - points[j, 0]
            return out
        """) == [2]


def test_break_print_and_unknown_calls_make_a_loop_serial():
    found = reasons("""
        def f(a, out):
            for i in range(len(a)):
                if a[i] < 0:
                    break
                out[i] = a[i]
            for i in range(len(a)):
                print(i)
                out[i] = a[i]
            for i in range(len(a)):
                out[i] = helper(a, i)
            return out
        """)
    assert found[0] == "L4 may leave the loop early (break or return)"
    assert found[1] == "L7 calls print, whose calls must run in order"
    assert found[2].startswith("L10 calls helper")


@pytest.mark.parametrize("view", ["a[1:]", "a", "a[::-1]", "a[:]", "a.reshape(-1)", "np.ravel(a)", "a.T",
                                  "a if c else a", "np.asarray(a)"])
def test_a_view_aliases_its_base(view):
    """Writing through a view while reading its base is a dependence, whatever the view is."""
    found = reasons(f"""
        def f(a, c):
            b = {view}
            for i in range(len(b)):
                b[i] = a[i] + 1.0
            return a
        """)
    assert len(found) == 1 and "'b' may touch memory other iterations write" in found[0] \
        or "'a' may touch" in found[0], found


def test_tuple_unpacking_keeps_aliases_apart():
    assert parallel_lines("""
        def f(a, x):
            b, c = a, 0
            for i in range(len(x)):
                b[i] = x[i] + c
            return a
        """) == [3]
    assert reasons("""
        def f(a):
            b, c = a, 0
            for i in range(len(a) - 1):
                b[i] = a[i + 1] + c
            return a
        """)


def test_a_helper_returning_its_argument_is_a_view():
    helper = {"same": Global("helper", "same")}
    fn_same = normalize(parse(get_source(define("""
        def same(x):
            return x
        """)))).function
    f = normalize(parse(get_source(define("""
        def f(a):
            b = same(a)
            for i in range(len(a) - 1):
                b[i] = a[i + 1]
            return a
        """)))).function
    loops = analyze_program({"f": f, "same": fn_same}, "f", {**GLOBALS, **helper}, frozenset(), {}, True)["f"].loops
    assert not loops[0].parallel and "may touch memory" in loops[0].reason


@pytest.mark.parametrize("call", ["np.add(a[i:i + 1], 1.0, a[i + 1:i + 2])", "np.add(out, x[i], out)",
                                  "out.fill(x[i])", "out.sort()", "np.copyto(out, x)",
                                  "np.add(x[i], 1.0, out=out)"])
def test_calls_that_write_their_arguments_are_writes(call):
    found = reasons(f"""
        def f(a, x, out):
            for i in range(len(x) - 1):
                {call}
            return out
        """)
    assert len(found) == 1, call


def test_a_call_that_writes_only_its_own_slot_stays_parallel():
    assert parallel_lines("""
        def f(x, out):
            for i in range(len(x)):
                np.add(x[i], 1.0, out[i])
            return out
        """, ranks={"x": 2, "out": 2}) == [2]


def test_a_scalar_read_besides_its_update_is_not_a_reduction():
    """A prefix sum: `s` is updated and also read in the loop (a mutation audit survivor)."""
    found = reasons("""
        def f(a, out):
            s = 0.0
            for i in range(len(a)):
                s += a[i]
                out[i] = s
            return out
        """, ranks={"a": 1, "out": 1})
    assert found == ["'s' carries a value from one iteration to the next"]


def test_reductions_need_one_operator():
    assert reasons("""
        def f(a):
            s = 1.0
            for i in range(len(a)):
                s += a[i]
                s *= 2.0
            return s
        """, ranks={"a": 1}) == ["'s' carries a value from one iteration to the next"]


@pytest.mark.parametrize(("body", "parallel"), [
    ("s += a[i]\n                s += 1.0", False),  # one block: Numba's prange refuses two updates there
    ("s += a[i]; s -= 1.0", False),
    ("if a[i] > 2:\n                    s += a[i]\n                else:\n                    s += 1.0", True),
    ("if a[i] > 2:\n                    s += a[i]\n                s += 1.0", True),
    ("s += a[i]\n                for j in range(2):\n                    t = j\n                s += 1.0", True),
])
def test_a_reduction_is_updated_once_per_block(body, parallel):
    source = f"""
        def f(a):
            s = 0.0
            for i in range(len(a)):
                {body}
            return s
        """
    found = decisions(source, ranks={"a": 1})[0]
    assert found.parallel == parallel
    if parallel:
        assert found.reductions == ("s",)


def test_a_negative_start_is_checked_at_run_time():
    (d,) = decisions("""
        def f(a, n):
            for i in range(-n, n):
                a[i] = i
            return a
        """)
    assert d.parallel and not d.nonnegative
    (d,) = decisions("""
        def f(a, n):
            for i in range(n - 1, -1, -1):
                a[i] = i
            return a
        """)
    assert d.parallel and d.nonnegative


def test_arguments_that_may_overlap_are_checked_at_run_time():
    (d,) = decisions("""
        def f(a, b, out, k):
            for i in range(len(a)):
                out[i] = a[i] + b[i] * k
            return out
        """, numbers=("k",))
    assert d.overlap == (("out", "a"), ("out", "b")) and d.self_overlap == ("out",)


def test_fresh_memory_needs_no_overlap_check():
    (d,) = decisions("""
        def f(a):
            out = np.empty(len(a))
            for i in range(len(a)):
                out[i] = a[i] * 2.0
            return out
        """)
    assert d.parallel and d.overlap == () and d.self_overlap == ()


def test_an_array_made_in_the_loop_and_read_after_it_is_serial():
    assert reasons("""
        def f(a):
            for i in range(len(a)):
                tmp = np.zeros(1)
                tmp[0] = a[i]
            return tmp[0]
        """) == ["'tmp' is assigned in the loop and read after it"]


def test_raising_statements_become_checks_or_make_the_loop_serial():
    (d,) = decisions("""
        def f(out, d):
            for i in range(len(out)):
                out[i] = i // d
            return out
        """)
    assert d.parallel and [c.exception for cs in d.checks.values() for c in cs] == ["ZeroDivisionError"]
    assert reasons("""
        def f(out, x):
            for i in range(len(out)):
                out[i] = math.fmod(x[i], 0.0)
            return out
        """) == ["L3: math.fmod may raise"]


def test_the_loop_variable_read_after_the_loop_keeps_its_last_value():
    (d,) = decisions("""
        def f(x, n):
            i = -1
            for i in range(n):
                x[i] = 2.0
            return i
        """)
    assert d.parallel and d.last_value


def test_a_slot_view_of_the_written_array_is_private():
    assert parallel_lines("""
        def f(m, out):
            for i in range(m.shape[0]):
                row = out[i]
                for j in range(m.shape[1]):
                    row[j] = m[i, j] * 2.0
            return out
        """) == [2]


# Found by `nox -s mutation` (tests/MUTATION.md): what is a reduction, the words of a reason, which starts are
# never negative.


@pytest.mark.parametrize(("update", "reduction"), [("+=", True), ("-=", True), ("*=", True), ("/=", False),
                                                   ("//=", False), ("%=", False), ("**=", False)])
def test_only_sums_differences_and_products_are_reductions(update, reduction):
    source = f"""
        def f(a):
            s = 1.0
            for i in range(len(a)):
                s {update} a[i]
            return s
        """
    if reduction:
        (d,) = decisions(source, ranks={"a": 1})
        assert d.parallel and d.reductions == ("s",)
    else:
        assert reasons(source, ranks={"a": 1}) == ["'s' carries a value from one iteration to the next"]


def test_a_scalar_also_assigned_plainly_in_the_loop_is_not_a_reduction():
    assert reasons("""
        def f(a):
            s = 0.0
            for i in range(len(a)):
                s = 1.0
                s += a[i]
            return s
        """, ranks={"a": 1}) == ["'s' is assigned in the loop and read after it"]


@pytest.mark.parametrize(("made", "words"), [("a", "argument 'a'"),
                                             ("np.zeros(len(a))", "an array made in the function")])
def test_a_write_other_iterations_may_touch_names_the_array(made, words):
    assert reasons(f"""
        def f(a):
            t = {made}
            for i in range(1, len(a)):
                t[i] = t[i - 1] + a[i]
            return t
        """, ranks={"a": 1}) == [f"L4: 't' may touch memory other iterations write ({words})"]


@pytest.mark.parametrize(("start", "nonnegative"), [("0", True), ("3", True), ("0x10", True), ("-1", False),
                                                    ("len(b)", True), ("b.shape[0]", True), ("b.size", False),
                                                    ("k", False)])
def test_a_start_is_never_negative_when_a_literal_or_a_length_says_so(start, nonnegative):
    (d,) = decisions(f"""
        def f(a, b, k, n):
            for i in range({start}, n):
                a[i] = 1.0
            return a
        """, ranks={"a": 1, "b": 1}, numbers=("k", "n"))
    assert d.parallel and d.nonnegative == nonnegative


@pytest.mark.parametrize(("stop", "nonnegative"), [("-1", True), ("0", True), ("-5", False), ("k", False)])
def test_a_descending_range_is_never_negative_when_its_stop_is_at_least_minus_one(stop, nonnegative):
    (d,) = decisions(f"""
        def f(a, k, n):
            for i in range(n, {stop}, -1):
                a[i] = 1.0
            return a
        """, ranks={"a": 1}, numbers=("k", "n"))
    assert d.parallel and d.nonnegative == nonnegative


@pytest.mark.parametrize("body", ["v, w = a[i + 1], b[i]\n        out[i] = v * w",
                                  "out[i] = 1.0 if 0.0 < a[i + 1] < b[i] else 0.0"])
def test_reads_inside_tuples_and_comparisons_are_checked_for_overlap(body):
    """A tuple's elements and a comparison's right sides are not expressions of their own in libcst: their
    reads were missed, so `out` overlapping `a` went unchecked and the loop raced (a mutmut survivor led
    here)."""
    (d,) = decisions("def f(a, b, out):\n    for i in range(len(a) - 1):\n        " + body + "\n    return out\n",
                     ranks={"a": 1, "b": 1, "out": 1})
    assert d.parallel and d.overlap == (("out", "a"), ("out", "b")) and d.self_overlap == ("out",)


def test_unpacking_a_row_is_serial_when_the_row_may_overlap_the_output():
    assert reasons("""
        def f(m, out):
            for i in range(len(out)):
                p, q = m[i]
                out[i] = p - q
            return out
        """, ranks={"m": 2, "out": 1}) == ["L4: cannot check at run time that an array it reads does not overlap 'out'"]


@pytest.mark.parametrize(("header", "nonnegative"), [("range(n, -2, -1)", False), ("range(n, 0, k)", False),
                                                     ("range(0, n, k)", False), ("range(0, n, 2)", True)])
def test_a_range_with_an_unknown_or_negative_step_is_checked(header, nonnegative):
    (d,) = decisions(f"""
        def f(a, k, n):
            for i in {header}:
                a[i] = 1.0
            return a
        """, ranks={"a": 1}, numbers=("k", "n"))
    assert d.parallel and d.nonnegative == nonnegative


def test_a_slot_view_after_other_private_names_is_still_a_slot_view():
    assert parallel_lines("""
        def f(m, out):
            for i in range(m.shape[0]):
                scale = m[i, 0] * 2.0
                row = out[i]
                for j in range(m.shape[1]):
                    row[j] = m[i, j] * scale
            return out
        """) == [2]
