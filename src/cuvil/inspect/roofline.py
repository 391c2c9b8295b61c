"""Roofline charts: kernels as points (arithmetic intensity, achieved GFLOP/s) under this machine's roofs.

matplotlib is an optional extra (`pip install cuvil[plot]`); without it `chart` raises ImportError saying so,
and profiles print as text.
"""

from __future__ import annotations

import io
from collections.abc import Sequence


def chart(points: Sequence[tuple[str, float, float]], roof: tuple[float, float], title: str,
          markers: Sequence[str] | None = None) -> bytes:
    """PNG bytes: the roof (min of peak GFLOP/s and intensity × GB/s) on log axes, and each (label, intensity,
    GFLOP/s) point."""
    try:
        import matplotlib

        matplotlib.use("Agg", force=False)
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError("a roofline chart needs matplotlib: pip install 'cuvil[plot]'") from None
    peak, bandwidth = roof
    finite = [p for p in points if 0 < p[1] < float("inf") and p[2] > 0]
    low = min([0.01, *(p[1] / 4 for p in finite)])
    high = max([100.0, *(p[1] * 4 for p in finite)])
    ridge = peak / bandwidth
    figure = Figure(figsize=(6.4, 4.4))
    ax = figure.subplots()
    xs = [low, ridge, high]
    ax.plot(xs, [min(peak, x * bandwidth) for x in xs], color="black", linewidth=1.5)
    ax.annotate(f"{bandwidth:.0f} GB/s", (low * 1.5, low * 1.5 * bandwidth * 1.2), fontsize=8)
    ax.annotate(f"{peak:.0f} GFLOP/s", (ridge * 1.2, peak * 1.1), fontsize=8)
    for k, (label, intensity, gflops) in enumerate(finite):
        marker = markers[k] if markers and k < len(markers) else "o"
        ax.loglog([intensity], [gflops], marker=marker, linestyle="none", label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (FLOP/byte)")
    ax.set_ylabel("GFLOP/s")
    ax.set_title(title, fontsize=10)
    if len(finite) > 4:  # many kernels: the legend beside the chart, not over its points
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    elif finite:
        ax.legend(fontsize=7, loc="lower right")
    ax.grid(True, which="both", linewidth=0.3)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
    return buffer.getvalue()
