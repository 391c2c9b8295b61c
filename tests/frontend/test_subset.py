"""Every construct DESIGN.md §3 rules out is a CuvilSyntaxError at decoration, at its exact line and column."""

from __future__ import annotations

import textwrap

import pytest

import cuvil
from tests.helpers import define

# (construct, source, line, 1-based column, words the message must contain)
UNSUPPORTED = [
    ("try", """
        def f(x):
            try:
                return x
            except ValueError:
                return 0
        """, 2, 5, "'try'"),
    ("try-star", """
        def f(x):
            y = x
            try:
                y = y + 1
            except* ValueError:
                y = 0
            return y
        """, 3, 5, "'try'"),
    ("with", """
        def f(x):
            y = x
            with open(y) as h:
                pass
        """, 3, 5, "'with'"),
    ("yield", """
        def f(x):
            for i in range(x):
                yield i
        """, 3, 9, "'yield'"),
    ("lambda inside an if", """
        def f(x):
            if x > 0:
                g = lambda v: v + 1
                return g(x)
            return x
        """, 3, 13, "'lambda' is supported only assigned to a name in the function's own body and called"),
    ("lambda passed on", """
        def f(x):
            g = lambda v: v + 1
            return h(g, x)
        """, 3, 14, "'g' is a lambda: it can only be called here"),
    ("recursive lambda", """
        def f(x):
            g = lambda v: 1 if v == 0 else v * g(v - 1)
            return g(x)
        """, 2, 40, "'g' is used before its lambda is defined (or by itself)"),
    ("lambda given a call it never reads", """
        def f(x):
            g = lambda v: 1.0
            return g(h(x))
        """, 3, 14, "an argument with a call, or one the lambda never reads"),
    ("lambda with a default", """
        def f(x):
            g = lambda v, k=2: v * k
            return g(x)
        """, 2, 9, "a lambda or nested def with defaults or '*' parameters"),
    ("global", """
        def f(x):
            global COUNT
            return x
        """, 2, 5, "'global'"),
    ("nonlocal", """
        def outer():
            n = 0
            def f(x):
                nonlocal n
                return x
            return f
        """, 4, 9, "'nonlocal'"),
    ("tuple of a generator", """
        def f(x):
            return tuple(v * 2 for v in x)
        """, 2, 12, "tuple() of a generator is not supported"),
    ("key lambda inside an expression", """
        def f(x):
            return max(range(3), key=lambda i: x[i]) + 1
        """, 2, 12, "max(..., key=...) is supported only as a statement's whole value"),
    ("key over zip", """
        def f(x, y):
            best = min(zip(x, y), key=lambda p: p[0])
            return best
        """, 2, 16, "min(..., key=...) needs a sequence it can index"),
    ("key with a default", """
        def f(x):
            best = max(x, key=lambda v: v, default=0)
            return best
        """, 2, 12, "max(..., key=...) takes one iterable and no other keyword here"),
    ("nested def in a loop", """
        def f(x):
            for i in range(3):
                def g(y):
                    return y
            return x
        """, 3, 9, "a nested 'def' is supported only in the function's own body"),
    ("nested def of statements called inside an expression", """
        def f(x):
            def g(y):
                z = y
                return z
            return g(x) + 1
        """, 5, 12, "the nested def 'g' can only be called here, as a statement's whole value"),
    ("nested def of statements passed as a value", """
        def f(x):
            def g(y):
                z = y
                return z
            return h(g, x)
        """, 5, 14, "the nested def 'g' can only be called here"),
    ("nested def of statements calling itself", """
        def f(x):
            def g(y):
                z = g(y)
                return z
            return g(x)
        """, 3, 13, "the nested def 'g' calls itself"),
    ("nested def of statements called before its def", """
        def f(x):
            w = g(x)
            def g(y):
                z = y
                return z
            return w
        """, 2, 9, "'g' is used before its def"),
    ("nested def of statements with a keyword argument", """
        def f(x):
            def g(y):
                z = y
                return z
            w = g(y=x)
            return w
        """, 5, 9, "'g' takes 1 positional argument(s) here"),
    ("class", """
        def f(x):
            class P:
                pass
            return x
        """, 2, 5, "'class'"),
    ("import", """
        def f(x):
            import math
            return math.sqrt(x)
        """, 2, 5, "'import'"),
    ("from import", """
        def f(x):
            from math import sqrt
            return sqrt(x)
        """, 2, 5, "'import'"),
    ("iterating a set", """
        def f(x):
            s = {i % 3 for i in range(x)}
            return [v for v in s]
        """, 3, 24, "iterating the set 's' is not supported"),
    ("a set in a loop", """
        def f(x):
            s = set()
            for v in enumerate(s):
                x += 1
            return x
        """, 3, 24, "iterating the set 's' is not supported"),
    ("generator expression not consumed whole", """
        def f(x):
            g = (i for i in range(x))
            return g
        """, 2, 10, "generator expression is supported only as the one argument of"),
    ("comprehension in a conditional expression", """
        def f(x):
            return [i for i in range(x)] if x > 0 else [0]
        """, 2, 12, "a comprehension in a branch of a conditional expression"),
    ("comprehension after 'or'", """
        def f(x):
            return x > 3 or sum([i for i in range(x)]) > 2
        """, 2, 25, "the right operand of 'or'"),
    ("comprehension in a while condition", """
        def f(x):
            while len([i for i in range(x)]) > 2:
                x -= 1
            return x
        """, 2, 15, "a 'while' condition"),
    ("dict unpacking", """
        def f(x):
            return {'a': x, **D}
        """, 2, 21, "unpacking with '**'"),
    ("f-string with '!a'", """
        def f(x):
            print(f"x={x!a}")
            return x
        """, 2, 15, "'!a' in an f-string is not supported"),
    ("del", """
        def f(x):
            y = x
            del y
            return x
        """, 3, 5, "'del'"),
    ("*args", """
        def f(x, *rest):
            return x
        """, 1, 10, "'*args'"),
    ("**kwargs", """
        def f(x, **options):
            return x
        """, 1, 10, "'**kwargs'"),
    ("keyword-only parameter", """
        def f(x, *, scale):
            return x * scale
        """, 1, 13, "keyword-only"),
    ("positional-only parameter", """
        def f(x, /, y):
            return x + y
        """, 1, 7, "positional-only"),
    ("async def", """
        async def f(x):
            return x
        """, 1, 1, "'async def'"),
    ("walrus", """
        def f(x):
            if (y := x + 1) > 2:
                return y
            return 0
        """, 2, 9, "':='"),
    ("match", """
        def f(x):
            match x:
                case 1:
                    return 1
            return 0
        """, 2, 5, "'match'"),
    ("star unpacking in a call", """
        def f(t):
            return max(*t)
        """, 2, 16, "'*' in a call"),
    ("call inside a chained comparison", """
        def g(v):
            return v
        def f(x, lo, hi):
            return lo < g(x) < hi
        """, 4, 17, "chained comparison"),
]


@pytest.mark.parametrize(("construct", "source", "line", "col", "words"), UNSUPPORTED,
                         ids=[row[0] for row in UNSUPPORTED])
def test_unsupported_construct_points_at_it(construct, source, line, col, words):
    fn = define(source, "f" if construct not in ("nonlocal",) else "outer")
    if construct == "nonlocal":
        fn = fn()
    with pytest.raises(cuvil.CuvilSyntaxError) as info:
        cuvil.jit(fn)
    err = info.value
    assert (err.lineno, err.offset) == (line, col)
    assert words in err.msg
    assert err.filename == fn.__code__.co_filename
    assert err.text == textwrap.dedent(source).lstrip("\n").splitlines(keepends=True)[line - 1]
    assert err.hint  # every rejection says what to write instead


def test_error_is_a_syntax_error_with_caret():
    fn = define("""
        def f(x):
            del x
            return 1
        """)
    with pytest.raises(SyntaxError) as info:  # a CuvilSyntaxError is a SyntaxError too
        cuvil.jit(fn)
    text = str(info.value)
    assert text.splitlines()[0].endswith("2:5: 'del' is not supported; stop using the variable instead")
    assert text.splitlines()[1].strip() == "del x"
    assert text.splitlines()[2].index("^") == text.splitlines()[1].index("d")


def test_lambda_as_the_jitted_function_is_rejected():
    with pytest.raises(cuvil.CuvilSyntaxError, match="lambda"):
        cuvil.jit(lambda x: x + 1)


def test_rejection_happens_at_decoration_not_at_call():
    fn = define("""
        def f(x):
            try:
                return x
            finally:
                pass
        """)
    with pytest.raises(cuvil.CuvilSyntaxError):
        cuvil.jit(fn)  # no call needed


def test_disable_jit_skips_the_check(monkeypatch):
    monkeypatch.setenv("CUVIL_DISABLE_JIT", "1")
    fn = define("""
        def f(x):
            return [v for v in range(x)]
        """)
    assert cuvil.jit(fn)(3) == [0, 1, 2]


def test_bad_option_fails_at_decoration():
    with pytest.raises(ValueError, match="target"):
        cuvil.jit(target="tpu")


def test_a_validated_function_excuses_no_other_and_no_other_text():
    """A warm start skips the check for source validated before, by a marker keyed by the function's file and
    text: one function's marker never excuses another, nor the same function edited (mutmut survivors keyed
    markers without the text, or all alike)."""
    import linecache

    good = define("""
        def good(x):
            return x
        """)
    cuvil.jit(good)
    with pytest.raises(cuvil.CuvilSyntaxError):
        cuvil.jit(define("""
            def bad(x):
                with x:
                    return x
            """))
    size, mtime, lines, name = linecache.cache[good.__code__.co_filename]
    linecache.cache[name] = (size, mtime, [*lines[:1], "    with x:\n", "        return x\n"], name)
    with pytest.raises(cuvil.CuvilSyntaxError):
        cuvil.jit(good)


def test_the_printed_traceback_shows_the_hint_and_ends_at_the_users_line(tmp_path):
    """Python prints a SyntaxError's `msg`, not its str(): the hint is in it. Raised afresh by cuvil.jit, the
    traceback holds no frame of the front end (libcst's visitors): the decorator's line, then the user's line
    and caret."""
    import subprocess
    import sys

    script = tmp_path / "user.py"
    script.write_text("import cuvil\n\n@cuvil.jit\ndef f(a):\n    del a\n    return 1\n")
    shown = subprocess.run([sys.executable, str(script)], capture_output=True, text=True).stderr
    lines = shown.strip().splitlines()
    assert lines[-1] == "cuvil.errors.CuvilSyntaxError: 'del' is not supported; stop using the variable instead"
    assert lines[-4:-1] == [f'  File "{script}", line 5', "    del a", "    ^"]
    assert len(lines) <= 15 and "libcst" not in shown


def test_a_misspelt_option_names_the_nearest():
    import cuvil

    with pytest.raises(TypeError, match=r"unexpected keyword argument 'paralel'; did you mean 'parallel'\?"):
        cuvil.jit(paralel=True)


def test_the_options_are_jits_keyword_parameters_with_options_defaults():
    """An editor shows the options from jit's signature; a new Options field must be added there too."""
    import dataclasses
    import inspect

    import cuvil

    params = inspect.signature(cuvil.jit).parameters
    fields = {f.name: f.default for f in dataclasses.fields(cuvil.Options)}
    keywords = {name: p.default for name, p in params.items() if p.kind is inspect.Parameter.KEYWORD_ONLY}
    assert keywords == fields
    for name in fields:
        assert f"        {name}: " in cuvil.jit.__doc__


def test_an_options_value_is_checked_when_the_decorator_runs():
    import cuvil

    with pytest.raises(ValueError, match="overflow must be 'raise' or 'wrap', not 'saturate'"):
        cuvil.jit(overflow="saturate")
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'targets'; did you mean 'target'\?"):
        cuvil.jit(lambda x: x, targets="cpu")
