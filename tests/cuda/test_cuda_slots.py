"""runtime/cuda_slots.py: an error slot read back clean goes back to its thread's pool when the call returns,
so the next call copies no fresh slot to the device; a slot launched with again after its clean read, or one
of a call that raised, is never reused (a stale error would be raised by a later call)."""

import numpy as np
import pytest

import cuvil
from cuvil.runtime import cuda_slots
from tests.cuda.backing import GPU
from tests.cuda.test_cuda_jam import Counts
from tests.cuda.test_cuda_rows import softmax


def gather(x, idx, out):
    for i in range(len(idx)):
        out[i] = x[idx[i]]
    return out


def test_a_clean_slot_is_reused_and_one_launched_again_is_not():
    with cuda_slots.recycling():
        kept, again = cuda_slots.error_slots(), cuda_slots.error_slots()
        assert cuda_slots.first_error(kept) == 0 and cuda_slots.first_error(again) == 0
        cuda_slots.launched((1.5, again))  # launched with after its clean read: it may hold an error now
    assert cuda_slots.error_slots() is kept
    assert cuda_slots.error_slots() is not again


def test_a_call_that_raised_keeps_no_slot():
    with pytest.raises(ZeroDivisionError), cuda_slots.recycling():
        slot = cuda_slots.error_slots()
        assert cuda_slots.first_error(slot) == 0
        raise ZeroDivisionError
    assert cuda_slots.error_slots() is not slot


@pytest.mark.skipif(GPU, reason="counts the simulator's copies")
def test_later_calls_copy_no_slot_to_the_device(monkeypatch):
    from numba import cuda

    x = cuda.to_device(np.linspace(-2, 2, 3 * 40, dtype=np.float32).reshape(3, 40))
    out = cuda.device_array((3, 40), np.float32)
    fn = cuvil.jit(softmax, target="cuda")
    fn(x, out)
    assert "_error_slots()" in fn.source(stage="kernel")  # the loop form's checks record errors
    counts = Counts(monkeypatch)
    fn(x, out), fn(x, out)
    assert counts.seen == ["copy_to_host", "copy_to_host"]  # each call reads its slot; none copied in


def test_a_failed_call_does_not_poison_the_next_first_call_hit_and_miss():
    fn = cuvil.jit(gather, target="cuda")
    x = np.arange(40, dtype=np.int64) * 2
    for n in (40, 40, 12):  # first call, guard hit, guard miss (another length)
        bad, good = np.arange(n, dtype=np.int64), np.arange(n, dtype=np.int64)[::-1].copy()
        bad[n // 2] = 99
        with pytest.raises(IndexError):
            fn(x, bad, np.zeros(n, np.int64))
        for _ in range(2):
            got = fn(x, good, np.zeros(n, np.int64))
            assert got.dtype == np.int64 and np.array_equal(got, x[good])
