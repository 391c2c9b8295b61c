"""Rich displays (issue 13 §3): `cuvil.explain(fn)` as an HTML table with a recompile's reason highlighted, and
`fn.source(...)` as highlighted HTML with origins that show the user's line; both keep their plain text."""

from __future__ import annotations

import numpy as np

import cuvil
from cuvil.jupyter import SourceText
from tests.helpers import define

TOTAL = """
    def total_shown(a):
        s = 0.0
        for x in a:
            s += x
        return s
    """


def test_explain_html_is_a_table_with_the_recompile_reason_highlighted():
    fn = cuvil.jit(define(TOTAL))
    fn(np.ones(3))  # first call
    fn(np.ones(3))  # guard hit: no row
    fn(np.ones(4))  # guard miss
    shown = cuvil.explain(fn)._repr_html_()
    assert shown.count("<tr><td>") == 2
    assert "<td class='first'>first call</td>" in shown
    assert "<td class='reason'>a.shape[0]: 4 != 3 (guard of variant #1)</td>" in shown
    assert "<li><code>a.shape[0] == 3</code></li>" in shown and "variant #2 (newest, checked first)" in shown
    printed: list[str] = []
    cuvil.explain(fn)._repr_pretty_(type("P", (), {"text": lambda self, t: printed.append(t)})(), False)
    assert printed == [str(cuvil.explain(fn))] and printed[0].startswith("total_shown: 2 compile(s)")


def test_explain_html_shows_a_type_recompile_reason():
    fn = cuvil.jit(define("""
        def lt_shown(a, b):
            return a < b
        """))
    fn(1.0, 2.0)
    fn(1, 2.0)
    shown = cuvil.explain(fn)._repr_html_()
    assert "<code>global np is module numpy</code>" not in shown  # reads no global
    assert "<td class='reason'>a: int64 != float64 (guard of variant #1)</td>" in shown


def test_source_is_a_str_shown_highlighted_with_origins():
    fn = cuvil.jit(define(TOTAL))
    text = fn.source("normalized")
    assert isinstance(text, SourceText) and isinstance(text, str)
    assert text == str(text) and "for _i0 in range(len(a)):  # L3" in text
    shown = text._repr_html_()
    assert "<span class='origin' title='for x in a:'># L3</span>" in shown
    assert "<span class='origin' title='s += x'># L4</span>" in shown
    printed: list[str] = []
    text._repr_pretty_(type("P", (), {"text": lambda self, t: printed.append(t)})(), False)
    assert printed == [str(text)]
