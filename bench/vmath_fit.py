"""How the constants in src/cuvil/runtime/vmath_coefficients.py were fitted; run it to check or refit them.

Polynomials: the Remez exchange on the weighted error, in mpmath at 60 digits. Rationals P/Q (Q(0) = 1):
Sanathanan-Koerner iterations (least squares of P - g Q, divided by the previous Q) with Lawson's reweighting
towards the largest errors, which ends close to minimax. Coefficients are then rounded to the working precision
one at a time, the rest refitted after each, and the error of the rounded table is printed in units of 2**-24
(float32) or 2**-53 (float64). mpmath is not a Cuvil dependency: `pip install mpmath` first.

Run: `python bench/vmath_fit.py [name ...]` (names: see FITS; the rationals take minutes each). Every table is
evaluated with fused multiply-adds (runtime/vmath.py's horner).
"""

from __future__ import annotations

import sys

import mpmath as mp
import numpy as np

mp.mp.dps = 60


def remez(phis, g, w, a, b, fixed=None, iters=30, grid=3000):
    """Minimax sum c_j phi_j(v) ~ g(v) on [a, b], error weighted by w; `fixed`: {j: coefficient} kept."""
    fixed = fixed or {}
    free = [j for j in range(len(phis)) if j not in fixed]
    n = len(free)
    a, b = mp.mpf(a), mp.mpf(b)

    def target(x):
        return g(x) - mp.fsum(fixed[j] * phis[j](x) for j in fixed)

    # the reference starts off the Chebyshev points so that it never meets a zero of w (r = 0 in exp's)
    ref = [(a + b) / 2 - (b - a) / 2 * mp.cos(mp.pi * (i + mp.mpf("0.37")) / (n + mp.mpf("0.81")))
           for i in range(n + 1)]
    xs = [(a + b) / 2 - (b - a) / 2 * mp.cos(mp.pi * i / (grid - 1)) for i in range(grid)]
    gx, wx = [target(x) for x in xs], [w(x) for x in xs]
    px = [[phis[j](x) for j in free] for x in xs]
    best = None
    for _ in range(iters):
        matrix = mp.matrix([[phis[j](x) for j in free] + [(-1) ** i / w(x)] for i, x in enumerate(ref)])
        sol = mp.lu_solve(matrix, mp.matrix([target(x) for x in ref]))
        c, level = [sol[j] for j in range(n)], abs(sol[n])
        err = [wx[i] * (gx[i] - mp.fsum(c[j] * px[i][j] for j in range(n))) for i in range(grid)]
        worst = max(abs(e) for e in err)
        if best is None or worst < best[0]:
            best = (worst, c)
        if worst <= level * (1 + mp.mpf("1e-6")):
            break
        peaks, run = [], [0]  # the largest error of each run of one sign
        for i in range(1, grid):
            if (err[i] >= 0) == (err[run[0]] >= 0):
                run.append(i)
            else:
                peaks.append(max(run, key=lambda k: abs(err[k])))
                run = [i]
        peaks.append(max(run, key=lambda k: abs(err[k])))
        while len(peaks) > n + 1:
            peaks.pop(0 if abs(err[peaks[0]]) < abs(err[peaks[-1]]) else -1)
        if len(peaks) < n + 1:
            break
        ref = [xs[i] for i in peaks]
    out = dict(fixed)
    out.update(zip(free, best[1]))
    return [out[j] for j in range(len(phis))]


def rational(g, w, a, b, n, m, fixp=None, fixq=None, points=120, iters=20):
    fixp, fixq = fixp or {}, fixq or {}
    xs = [(mp.mpf(a) + b) / 2 - (mp.mpf(b) - a) / 2 * mp.cos(mp.pi * (i + mp.mpf(0.5)) / points)
          for i in range(points)]
    gs, ws = [g(x) for x in xs], [w(x) for x in xs]
    weight, qprev = [mp.mpf(1)] * points, [mp.mpf(1)] * points
    fp, fq = [j for j in range(n + 1) if j not in fixp], [j for j in range(1, m + 1) if j not in fixq]
    best = None
    for _ in range(iters):
        rows, rhs = [], []
        for i, x in enumerate(xs):
            s = mp.sqrt(weight[i]) * ws[i] / qprev[i]
            rows.append([s * x**j for j in fp] + [-s * gs[i] * x**j for j in fq])
            known = gs[i] - mp.fsum(fixp[j] * x**j for j in fixp) + gs[i] * mp.fsum(fixq[j] * x**j for j in fixq)
            rhs.append(s * known)
        q_, r_ = mp.qr(mp.matrix(rows))
        sol = mp.lu_solve(r_[0:len(fp) + len(fq), 0:len(fp) + len(fq)], (q_.T * mp.matrix(rhs))[0:len(fp) + len(fq)])
        p, q = dict(fixp), dict(fixq)
        q[0] = mp.mpf(1)
        p.update(zip(fp, sol[:len(fp)]))
        q.update(zip(fq, sol[len(fp):]))
        pc, qc = [p[j] for j in range(n + 1)], [q[j] for j in range(m + 1)]
        qprev = [mp.polyval(qc[::-1], x) for x in xs]
        err = [ws[i] * (gs[i] - mp.polyval(pc[::-1], xs[i]) / qprev[i]) for i in range(points)]
        worst = max(abs(e) for e in err)
        if best is None or worst < best[0]:
            best = (worst, pc, qc)
        total = mp.fsum(weight[i] * abs(err[i]) for i in range(points))
        weight = [weight[i] * abs(err[i]) / total for i in range(points)]
    return best[1], best[2]


def _round(v, bits):
    return mp.mpf(float(np.float32(float(v)))) if bits == 24 else mp.mpf(float(v))


def poly_fit(phis, g, w, a, b, bits):
    fixed: dict = {}
    c = remez(phis, g, w, a, b)
    for j in range(len(phis)):
        fixed[j] = _round(c[j], bits)
        if len(fixed) < len(phis):
            c = remez(phis, g, w, a, b, fixed)
    return [fixed[j] for j in range(len(phis))]


def rational_fit(g, w, a, b, n, m, bits):
    """float32 tables are refitted after each rounding; float64 ones lose nothing that matters rounded at once."""
    fixp: dict = {}
    fixq: dict = {}
    p, q = rational(g, w, a, b, n, m, iters=25 if bits == 53 else 20)
    if bits == 53:
        return [_round(v, bits) for v in p], [_round(v, bits) for v in q]
    for kind, j in [("q", j) for j in range(m, 0, -1)] + [("p", j) for j in range(n, -1, -1)]:
        (fixq if kind == "q" else fixp)[j] = _round((q if kind == "q" else p)[j], bits)
        if len(fixp) + len(fixq) < n + m + 1:
            p, q = rational(g, w, a, b, n, m, fixp, fixq)
    return [fixp[j] for j in range(n + 1)], [mp.mpf(1)] + [fixq[j] for j in range(1, m + 1)]


def powers(lo, hi):
    return [lambda v, k=k: v**k for k in range(lo, hi + 1)]


def _series(value, small, x):  # g near 0, where the closed form cancels
    return small(x) if abs(x) < mp.mpf("1e-12") else value(x)


LN2 = mp.log(2)
H = LN2 / 2 * (1 + mp.mpf(2) ** -20)
ZMAX = ((mp.sqrt(2) - 1) / (mp.sqrt(2) + 1)) ** 2 * (1 + mp.mpf(2) ** -18)


def exp_g(r):
    return _series(lambda r: (mp.exp(r) - 1 - r) / r**2, lambda r: mp.mpf(1) / 2 + r / 6, r)


def log_g(z):
    return _series(lambda z: (2 * mp.atanh(mp.sqrt(z)) - 2 * mp.sqrt(z)) / mp.sqrt(z), lambda z: 2 * z / 3, z)


def tanh_g(z):
    return _series(lambda z: (mp.tanh(mp.sqrt(z)) - mp.sqrt(z)) / z**1.5, lambda z: -mp.mpf(1) / 3 + 2 * z / 15, z)


def tanh_w(z):
    return z / (mp.tanh(mp.sqrt(z)) / mp.sqrt(z)) if z > 0 else z


def erf_g(z):
    return _series(lambda z: mp.erf(mp.sqrt(z)) / mp.sqrt(z) - 1, lambda z: 2 / mp.sqrt(mp.pi) * (1 - z / 3) - 1, z)


def erf_w(z):
    return 1 / (mp.erf(mp.sqrt(z)) / mp.sqrt(z)) if z > 0 else mp.sqrt(mp.pi) / 2


def exp2_g(f):  # (2**f - 1) / f
    return _series(lambda f: (mp.power(2, f) - 1) / f, lambda f: LN2 + f * LN2**2 / 2, f)


def erfcx(t):
    return mp.erfc(t) * mp.exp(t * t)


FITS = {  # name: (kind, arguments, bits)
    "EXP32": ("poly", (powers(0, 4), exp_g, lambda r: r**2 / mp.exp(r), -H, H), 24),
    "EXP64": ("poly", (powers(0, 9), exp_g, lambda r: r**2 / mp.exp(r), -H, H), 53),
    "LOG32": ("poly", (powers(1, 3), log_g, lambda z: mp.mpf(1) / 2, 0, ZMAX), 24),
    "LOG64": ("poly", (powers(1, 7), log_g, lambda z: mp.mpf(1) / 2, 0, ZMAX), 53),
    "TANH64": ("poly", (powers(0, 12), tanh_g, tanh_w, 0, mp.mpf("0.8") ** 2), 53),
    "ERF64": ("poly", (powers(0, 11), erf_g, erf_w, 0, 1), 53),
    "ERF_SMALL32": ("poly", (powers(0, 6), erf_g, erf_w, 0, 1), 24),
    # the error of V in 2**V, in units of erf's ulp (erf >= 0.84 on [1, 3.95]): weighted by erfc ln 2
    "ERFC_LOG2_32": ("poly", (powers(0, 6), lambda t: mp.log(mp.erfc(t), 2), lambda t: mp.erfc(t) * LN2, 1,
                              mp.mpf("3.95")), 24),
    "EXP2_32": ("poly", (powers(0, 5), exp2_g, lambda f: f / mp.power(2, f), -mp.mpf(0.5), mp.mpf(0.5)), 24),
    "ERFC64": ("rational", (erfcx, lambda t: 1 / erfcx(t), 1, 6, 8, 8), 53),
}


def _error(g, w, a, b, value):
    xs = [mp.mpf(a) + (mp.mpf(b) - a) * i / 4000 for i in range(4001)]
    return max(abs(w(x) * (g(x) - value(x))) for x in xs)


def main(names):
    for name in names or FITS:
        kind, args, bits = FITS[name]
        if kind == "poly":
            phis, g, w, a, b = args
            c = poly_fit(phis, g, w, a, b, bits)
            err = _error(g, w, a, b, lambda x, c=c, phis=phis: mp.fsum(cj * f(x) for cj, f in zip(c, phis)))
            print(f"{name} = {tuple(float(v) for v in c)}  # fit {float(err * 2**bits):.3g} ulp")
        else:
            g, w, a, b, n, m = args
            p, q = rational_fit(g, w, a, b, n, m, bits)
            err = _error(g, w, a, b, lambda x, p=p, q=q: mp.polyval(p[::-1], x) / mp.polyval(q[::-1], x))
            print(f"{name}: P = {tuple(float(v) for v in p)}\n    Q = {tuple(float(v) for v in q)}"
                  f"  # relative fit {float(err):.3g}")


if __name__ == "__main__":
    main(sys.argv[1:])
