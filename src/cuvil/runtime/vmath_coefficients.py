"""The fitted constants of runtime/vmath.py: minimax polynomials and rationals from `python bench/vmath_fit.py`
(Remez exchange, or reweighted least squares for the rationals, in mpmath at 60 digits; each coefficient
rounded to the working precision in turn and the rest refitted). Each table is lowest degree first; the error
quoted is the fit's own, in exact arithmetic with the rounded coefficients, in units of 2**-24 (float32) or
2**-53 (float64) of the result; the rounding of the evaluation comes on top and is what tests/lower/test_math.py
measures.
"""

from __future__ import annotations

import numpy as np

F32 = np.float32
F64 = np.float64

LN2 = 0.6931471805599453094
# ln 2 split so that k * hi is exact for the k each precision meets: 16 bits for |k| < 2**8 in float32, 32 bits
# for |k| < 2**21 in float64 (Cody and Waite).
LN2_HI32 = F32(0.693145751953125)
LN2_LO32 = F32(1.4286068203094173e-06)
LN2_HI64 = F64(0.6931471803691238)
LN2_LO64 = F64(1.9082149292705877e-10)
LOG2E32 = F32(1.4426950408889634)
LOG2E64 = F64(1.4426950408889634)

# exp(r) = 1 + r + r**2 * P(r) on |r| <= ln2/2: fit 0.054 (float32), 0.11 (float64)
EXP32 = tuple(F32(c) for c in (0.49999994, 0.16666517, 0.041668102, 0.0083691925, 0.0013838903))
EXP64 = tuple(F64(c) for c in (
    0.5000000000000011, 0.16666666666666438, 0.04166666666652578, 0.008333333333473702, 0.0013888888944871372,
    0.00019841269560778627, 2.480149171735824e-05, 2.7557530551872684e-06, 2.763080816062134e-07,
    2.5020661164564265e-08))

# log1p(f) = 2s + s * R(s**2), s = f / (2 + f), on 0 <= s**2 <= ((sqrt2 - 1) / (sqrt2 + 1))**2, R(0) = 0:
# fit 0.014 (float32), 0.011 (float64)
LOG32 = tuple(F32(c) for c in (0.6666677594184875, 0.39977583289146423, 0.2987079620361328))
LOG64 = tuple(F64(c) for c in (
    0.6666666666666734, 0.3999999999941664, 0.28571428742028376, 0.22222198605012378, 0.1818356285447141,
    0.15314084739685058, 0.14795634524871668))

# float32 tanh(x) = e / (e + 2), e = expm1(2|x|) from EXP32, up to TANH_CLAMP32, where float32's tanh is 1
TANH_CLAMP32 = F32(9.1)

# float64 tanh(x) = x + x * z * P(z), z = x**2, on |x| < TANH_SMALL64: fit 0.067
TANH_SMALL64 = F64(0.8)
TANH64 = tuple(F64(c) for c in (
    -0.33333333333333043, 0.13333333333297281, -0.053968253952572605, 0.021869488191596002, -0.00886323104846431,
    0.0035920904130339088, -0.0014556197233200245, 0.0005891691554713165, -0.00023668492203260917,
    9.193377571610266e-05, -3.2048546393186164e-05, 8.544250021753578e-06, -1.2323351788994626e-06))

# float32 erf(x) = x + x * P(z), z = x**2, on |x| < 1: fit 0.024; beyond, 1 - 2**V(|x|), V a polynomial for
# log2(erfc(x)) on [1, ERF_CLAMP32] (fit 0.018 ulp of erf: its error weighted by erfc(x) ln 2), and 2**f = 1 + f Q(f)
# on |f| <= 1/2 (relative fit 0.14 ulp); from ERF_CLAMP32, float32's erf is 1
ERF_CLAMP32 = F32(3.95)
ERF_SMALL32 = tuple(F32(c) for c in (
    0.12837916612625122, -0.3761262595653534, 0.11283578723669052, -0.026853347197175026, 0.005187162198126316,
    -0.0007997853099368513, 7.806903886375949e-05))
ERFC_LOG2_32 = tuple(F32(c) for c in (
    -0.0005103097064420581, -1.6259750127792358, -0.920765221118927, -0.14865122735500336, 0.03145824745297432,
    -0.004240904003381729, 0.00026772121782414615))
EXP2_32 = tuple(F32(c) for c in (
    0.6931471824645996, 0.24022649228572845, 0.05550375580787659, 0.009618367068469524, 0.0013386262580752373,
    0.00015381451521534473))

# float64 erf(x) = x + x * P(z), z = x**2, on |x| < ERF_SMALL: fit 0.12
ERF_SMALL = 1.0
ERF64 = tuple(F64(c) for c in (
    0.12837916709551256, -0.37612638903183376, 0.11283791670939697, -0.026866170642602712, 0.005223977603455108,
    -0.0008548325862475025, 0.0001205529305678051, -1.492472499048321e-05, 1.6447509417035986e-06,
    -1.621054090662861e-07, 1.3733790275814794e-08, -7.828660339766489e-10))

# float64 erfc(t) = exp(-t**2) * P(t) / Q(t) on ERF_SMALL <= t <= 6 (beyond, erf is 1): relative fit 1.8e-17
ERFC_CLAMP64 = F64(6.0)
ERFC_P64 = tuple(F64(c) for c in (
    0.9999999970777278, 1.7962035584476126, 1.5976089743004824, 0.8795275627863544, 0.3202327591004714,
    0.07703766238073488, 0.011428539837298843, 0.0008257865933754669, 1.417434705628674e-12))
ERFC_Q64 = tuple(F64(c) for c in (
    1.0, 2.9245826926647744, 3.897647335305073, 3.105221080767474, 1.6264792283911549, 0.5777245683925554,
    0.13727764075031934, 0.020256554195240892, 0.0014636687938866665))
