"""Results given torch inputs come back as tensors, whatever their strides."""

from __future__ import annotations

import numpy as np
import torch

import cuvil
from tests.helpers import define


def test_a_reversed_view_comes_back_as_a_tensor_copy():
    """torch has no negative strides: a reversed view is returned as a tensor with the same values."""
    fn = define("""
        def f(a):
            return a[::-1]
        """)
    jitted = cuvil.jit(fn)
    for n in (5, 5, 7):  # first call, guard hit, guard miss
        x = torch.arange(n, dtype=torch.float64)
        got = jitted(x)
        assert isinstance(got, torch.Tensor) and got.dtype == torch.float64
        np.testing.assert_array_equal(got.numpy(), np.arange(float(n))[::-1])


def test_arrays_inside_a_returned_tuple_come_back_as_tensors():
    """Each array of a returned tuple, nested ones too, comes back as a tensor on the input's memory where it is
    a view; scalars stay Python scalars (a mutation audit survivor returned the tuple's arrays as NumPy)."""
    fn = define("""
        def f(a):
            return (a * 2.0, a[1:]), a[0]
        """)
    jitted = cuvil.jit(fn)
    for n, dtype in ((4, torch.float64), (4, torch.float64), (6, torch.float32)):  # first call, hit, miss
        x = torch.arange(n, dtype=dtype)
        (doubled, tail), first = jitted(x)
        assert isinstance(doubled, torch.Tensor) and isinstance(tail, torch.Tensor)
        assert doubled.dtype == tail.dtype == dtype
        assert torch.equal(doubled, x * 2.0) and torch.equal(tail, x[1:])
        assert tail.data_ptr() == x.data_ptr() + x.element_size()
        assert not isinstance(first, torch.Tensor) and first == 0.0
    assert len(cuvil.explain(jitted).compiles) == 2


def test_a_tensor_argument_returned_is_the_caller_s_own_tensor():
    """`f(t) is t` as in Python (NumPy arrays kept their identity, tensors came back as new objects): the same
    object, in a tuple too, with its autograd state (a tensor that requires grad still does)."""
    fn = define("""
        def f(a, b):
            return a, (b, a)
        """)
    jitted = cuvil.jit(fn)
    for n, dtype, grad in ((3, torch.float64, False), (3, torch.float64, False), (5, torch.float32, True),
                           (2, torch.int32, False)):  # first call, guard hit, guard misses
        x = torch.arange(n, dtype=dtype, requires_grad=grad)
        y = torch.ones(n, dtype=dtype)
        got = jitted(x, y)
        assert got[0] is x and got[1][0] is y and got[1][1] is x
        assert got[0].requires_grad == grad


def test_a_new_tensor_from_tensors_that_require_grad_is_flagged():
    """Compiled code is invisible to autograd: a new result of a tensor that requires grad does not require grad,
    and a CuvilWarning at the caller's line says so; under torch.no_grad(), or with no such tensor, none."""
    import warnings

    fn = define("""
        def f(a):
            return a * 2.0
        """)
    jitted = cuvil.jit(fn)
    x = torch.arange(3.0, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = jitted(x)
        line = __import__("inspect").currentframe().f_lineno - 1
    assert not got.requires_grad and torch.equal(got, x.detach() * 2.0)
    flagged = [w for w in caught if issubclass(w.category, cuvil.CuvilWarning)]
    assert len(flagged) == 1 and "require grad" in str(flagged[0].message)
    assert flagged[0].filename == __file__ and flagged[0].lineno == line
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with torch.no_grad():
            jitted(x)
        jitted(torch.arange(3.0))
