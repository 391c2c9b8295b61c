"""CanonicalBlocks drops annotations, except a precision's (`acc: cuvil.fp32 = 0.0`), which becomes the cast
that keeps the name in that precision (issue 12); no test of the normalizer's own checked it."""

from __future__ import annotations

from cuvil.normalize.canonical import CanonicalBlocks

from .rewrites import assert_rewrites


def test_a_precision_annotation_becomes_its_cast_and_any_other_annotation_goes():
    assert_rewrites(CanonicalBlocks, """
        def f(x, y):
            acc: cuvil.fp32 = 0.0
            h: bf16 = x
            g: cuvil.fp16 = y * 2
            c: int = 1
            d: np.float32 = 2.0
            return acc + h + g + c + d
        """, """
        def f(x, y):
            acc = cuvil.fp32(0.0)
            h = bf16(x)
            g = cuvil.fp16(y * 2)
            c = 1
            d = 2.0
            return acc + h + g + c + d
        """)
