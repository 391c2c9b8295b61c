"""The host's first touch of a virtual machine's memory, paid once before a bench times anything."""

from __future__ import annotations

import numpy as np

PREFAULT_BYTES = 1 << 30


def prefault() -> None:
    """Touch a GiB of huge-page memory once, so that no timed system pays for the host.

    On a virtual machine the host backs a guest's memory the first time the guest touches it: measured on the
    bench machine, the parallel GELU (bench/lowering.py) took 50-55 ms for each of its first ten calls in a fresh
    process and 4.3 ms from then on, as freed huge pages came back to it already backed; NumPy's own GELU went
    from 118 to 15 ms. Without this, whichever system ran first (or longest) paid for the host, not for its
    code. A long-running process is past it.
    """
    block = np.empty(PREFAULT_BYTES, np.uint8)  # NumPy advises huge pages for it, as Cuvil does for its arrays
    block.fill(1)
    del block
