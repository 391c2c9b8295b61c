"""The run-time tests parallel loops rely on are sound: when they say "no overlap", there is none."""

from __future__ import annotations

import numba
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cuvil.runtime.parallel import overlaps, self_overlaps

_overlaps = numba.njit(lambda a, b: overlaps(a, b))
_self_overlaps = numba.njit(lambda a: self_overlaps(a))


def element_bytes(a: np.ndarray) -> list[set[int]]:
    """The byte addresses of each element of `a`."""
    base = a.__array_interface__["data"][0]
    out = []
    for index in np.ndindex(a.shape):
        start = base + sum(i * s for i, s in zip(index, a.strides))
        out.append(set(range(start, start + a.itemsize)))
    return out


@st.composite
def strided_views(draw, buffer: np.ndarray):
    ndim = draw(st.integers(1, 3))
    shape = tuple(draw(st.integers(0, 4)) for _ in range(ndim))
    strides = tuple(draw(st.integers(-3, 3)) * buffer.itemsize for _ in range(ndim))
    # start far enough in that negative strides stay inside the buffer
    start = 3 * 4 * ndim
    view = buffer[start:]
    return np.lib.stride_tricks.as_strided(view, shape=shape, strides=strides)


BUFFER = np.zeros(200, np.float64)


@settings(max_examples=300, deadline=None)
@given(strided_views(BUFFER))
def test_self_overlaps_is_never_wrong_when_it_says_no(view):
    elements = element_bytes(view)
    shared = any(elements[i] & elements[j] for i in range(len(elements)) for j in range(i))
    if not _self_overlaps(view):
        assert not shared


@settings(max_examples=300, deadline=None)
@given(strided_views(BUFFER), strided_views(BUFFER))
def test_overlaps_is_never_wrong_when_it_says_no(a, b):
    if not _overlaps(a, b):
        assert not np.shares_memory(a, b)


def test_contiguous_and_plainly_strided_arrays_do_not_overlap_themselves():
    for a in (np.zeros((3, 4)), np.zeros((3, 4)).T, np.zeros((3, 4))[:, ::2], np.zeros(5)[::-1],
              np.zeros((4, 4))[::2, ::-1]):
        assert not _self_overlaps(a)
    assert _self_overlaps(np.broadcast_to(np.zeros(3), (4, 3)))
    assert _self_overlaps(np.lib.stride_tricks.as_strided(np.zeros(11), (5, 2), (8, 8)))


def test_overlap_is_found_for_views_of_one_buffer_and_not_for_distinct_arrays():
    buf = np.zeros(10)
    assert _overlaps(buf[1:], buf[:-1]) and _overlaps(buf, buf) and _overlaps(buf[::2], buf[1::2])
    assert not _overlaps(buf[:5], buf[5:]) and not _overlaps(np.zeros(3), np.zeros(3))
    assert not _overlaps(buf, 3.0) and _overlaps((np.zeros(2), buf), buf[3:])
