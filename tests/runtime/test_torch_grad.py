"""A tensor that requires grad is read zero-copy, but never written behind autograd's back: where the compiled
function may write it (its effect summary, recorded with the variant), the call is refused as torch refuses an
in-place operation on it — RuntimeError, torch's sentence — unless grad mode is off, as in torch."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import cuvil
from cuvil.runtime import dispatcher
from tests.helpers import define

WRITE = """
    def write_first(x):
        x[0] = 5.0
        return x
    """

HELPERS = """
    def fill(o, v):
        for i in range(len(o)):
            o[i] = v

    def spread(x, out):
        fill(out, x[0])
        return out
    """


def _torch_words(inplace) -> str:
    with pytest.raises(RuntimeError) as info:
        inplace()
    return str(info.value).rstrip(".")


@pytest.mark.parametrize("call", ["first", "hit", "miss"])
def test_writing_a_leaf_that_requires_grad_is_refused_as_torch_refuses_it(call):
    fn = cuvil.jit(define(WRITE))
    if call == "hit":
        with torch.no_grad():
            fn(torch.zeros(3, requires_grad=True))
    if call == "miss":
        fn(torch.zeros(3, dtype=torch.float64))
    leaf = torch.ones(3, requires_grad=True)
    torch_says = _torch_words(lambda: leaf.add_(1.0))
    with pytest.raises(RuntimeError) as info:
        fn(leaf)
    assert str(info.value).startswith(torch_says + ": write_first may write into argument 'x'")
    assert torch.equal(leaf, torch.ones(3))


def test_writing_a_view_of_a_leaf_is_refused_with_torchs_words():
    fn = cuvil.jit(define(WRITE))
    leaf = torch.ones(4, requires_grad=True)
    torch_says = _torch_words(lambda: leaf[1:].add_(1.0))
    with pytest.raises(RuntimeError, match="^" + torch_says):
        fn(leaf[1:])


def test_a_helper_that_writes_the_argument_counts_and_one_that_reads_it_does_not():
    fn = cuvil.jit(define(HELPERS))
    grad = torch.full((3,), 2.0, requires_grad=True)
    out = fn(grad, torch.zeros(3))  # reads the tensor that requires grad, writes the other
    assert torch.equal(out, torch.full((3,), 2.0))
    with pytest.raises(RuntimeError, match="spread may write into argument 'out'"):
        fn(torch.zeros(3), torch.zeros(3, requires_grad=True))


def test_reading_stays_zero_copy_and_no_grad_mode_allows_writes():
    reader = cuvil.jit(define("""
        def total(x):
            s = 0.0
            for v in x:
                s += v
            return s
        """))
    assert reader(torch.ones(4, requires_grad=True)) == 4.0
    fn = cuvil.jit(define(WRITE))
    leaf = torch.ones(3, requires_grad=True)
    with torch.no_grad():
        result = fn(leaf)
    assert leaf.tolist() == [5.0, 1.0, 1.0] and result.data_ptr() == leaf.data_ptr()


def test_the_record_of_writes_survives_a_warm_start():
    fn = define(WRITE)
    cuvil.jit(fn)(np.zeros(3))
    dispatcher._memory.clear()  # the next compile reads meta.json from the disk cache
    warm = cuvil.jit(fn)
    warm(np.zeros(3))
    assert cuvil.explain(warm).compiles[0].cache == "disk"
    with pytest.raises(RuntimeError, match="may write into argument 'x'"):
        warm(torch.ones(3, requires_grad=True))


def test_a_variant_without_a_record_may_write_every_argument():
    class Meta:
        writes = None

    class Variant:
        meta = Meta()

    assert dispatcher.written_arguments(Variant(), ["a", "b"]) == {"a", "b"}  # type: ignore[arg-type]
