"""Whether a kernel's call splits its rows over threads, decided by timing both ways on this machine (issue 14).

Why not a fixed size threshold: what a split gains depends on the machine, not only on the partition. Here (a
VM of two vCPUs) a second thread runs the same loop at a fraction of the first one's speed (two processes of one
loop take 0.44 and 0.72 s against 0.34 s alone), and a pool worker that slept takes 0.1–0.15 ms to wake: a
2048 × 1024 LayerNorm or softmax split in two took longer than on the calling thread alone (bench/dynamo.md,
0.64–0.86x inductor at 2 threads against 1.04–1.43x at one). On a machine with real cores the same call
splits well. So the first calls of each size class (rows × columns to a power of two, and the number of
chunks) alternate between one thread and the split, TRIALS of each, and the faster way is kept; the split
only when it is at least 5% faster (it keeps more than one core busy for the gain). Either way each row is
computed by the same code, so the choice never changes a result. Calls from several threads at once only
share the samples.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

TRIALS = 4  # timed calls each way; the minimum of each is compared (the least disturbed by other work)
MARGIN = 0.95  # the split is kept when its best time is under this fraction of one thread's

Key = tuple[int, int]  # (rows * cols).bit_length(), chunks


class SplitChoice:
    """Per kernel: for each size class, the way its calls run, once both ways have been timed."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter):
        self._clock = clock
        self._times: dict[Key, tuple[list[float], list[float]]] = {}
        self.chosen: dict[Key, bool] = {}  # True: split

    def run(self, key: Key, whole: Callable[[], Any], split: Callable[[], Any]) -> Any:
        chosen = self.chosen.get(key)
        if chosen is not None:
            return split() if chosen else whole()
        times = self._times.setdefault(key, ([], []))
        splitting = len(times[1]) < len(times[0])  # one thread first, then alternating
        started = self._clock()
        result = split() if splitting else whole()
        times[splitting].append(self._clock() - started)
        if len(times[1]) >= TRIALS:
            self.chosen[key] = min(times[1]) < MARGIN * min(times[0])
            self._times.pop(key, None)
        return result
