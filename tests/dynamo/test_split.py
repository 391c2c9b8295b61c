"""split.py: a kernel's calls split their rows over threads only where the split was timed faster than one
thread, per size class; the way a call runs never changes its result."""

import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional

from cuvil.dynamo import compiled as C  # noqa: E402
from cuvil.dynamo.split import MARGIN, TRIALS, SplitChoice  # noqa: E402


class Clock:
    """Time that passes only when a way runs: `costs[way]` seconds a call."""

    def __init__(self, whole, split):
        self.now, self.costs, self.ran = 0.0, {"whole": whole, "split": split}, []

    def __call__(self):
        return self.now

    def way(self, name):
        def run():
            self.ran.append(name)
            self.now += self.costs[name]
            return name
        return run


@pytest.mark.parametrize(("whole", "split", "kept"), [
    (1.0, 0.6, "split"),            # a real second core
    (1.0, 1.4, "whole"),            # this VM: the hand-off and a slow second vCPU
    (1.0, MARGIN * 1.0 + 0.01, "whole"),  # not faster by the margin: one thread, one core busy
])
def test_the_faster_way_is_kept_after_the_trials(whole, split, kept):
    clock = Clock(whole, split)
    choice = SplitChoice(clock)
    results = [choice.run((21, 2), clock.way("whole"), clock.way("split")) for _ in range(2 * TRIALS + 5)]
    assert clock.ran[:2 * TRIALS] == ["whole", "split"] * TRIALS
    assert clock.ran[2 * TRIALS:] == [kept] * 5
    assert results == clock.ran
    assert choice.chosen == {(21, 2): kept == "split"}


def test_size_classes_are_timed_apart():
    clock = Clock(1.0, 0.5)
    choice = SplitChoice(clock)
    for _ in range(2 * TRIALS):
        choice.run((21, 2), clock.way("whole"), clock.way("split"))
    clock.ran.clear()
    choice.run((22, 2), clock.way("whole"), clock.way("split"))
    choice.run((21, 3), clock.way("whole"), clock.way("split"))
    choice.run((21, 2), clock.way("whole"), clock.way("split"))
    assert clock.ran == ["whole", "whole", "split"]  # the new classes start their own trials


def test_every_call_gives_the_same_bits_split_or_not(new_process):
    x = torch.randn(96, 1024, generator=torch.Generator().manual_seed(5))  # 96K elements: over the split size
    w, b = torch.randn(1024), torch.randn(1024)

    def block(x, w, b):
        return torch.softmax(F.layer_norm(x, (1024,), w, b), -1)

    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        compiled = torch.compile(block, backend="cuvil", dynamic=False)
        with torch.no_grad():
            outs = [compiled(x, w, b) for _ in range(2 * TRIALS + 2)]
    finally:
        torch.set_num_threads(before)
    (kernel,) = [k for k in C._COMPILED.values() if k._choice.chosen or k._choice._times]
    assert list(kernel._choice.chosen) == [((96 * 1024).bit_length(), 2)]  # both ways were timed, one kept
    expected = block(x, w, b)
    assert all(o.dtype == torch.float32 and o.shape == (96, 1024) for o in outs)
    assert all(torch.equal(o, outs[0]) for o in outs)
    torch.testing.assert_close(outs[0], expected, atol=1e-5, rtol=1e-5)
