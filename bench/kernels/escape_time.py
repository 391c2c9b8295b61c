"""Escape-time fractal: a data-dependent while loop per pixel."""

import numpy as np


def escape_time(width, height, limit, out):
    for row in range(height):
        for col in range(width):
            c_re = -2.0 + 3.0 * col / width
            c_im = -1.5 + 3.0 * row / height
            z_re, z_im = 0.0, 0.0
            n = 0
            while n < limit and z_re * z_re + z_im * z_im <= 4.0:
                z_re, z_im = z_re * z_re - z_im * z_im + c_re, 2.0 * z_re * z_im + c_im
                n += 1
            out[row, col] = n
    return out


def args(scale=1.0):
    w = int(512 * scale)
    return w, w, 100, np.empty((w, w), dtype=np.int64)
