"""Escape-time fractal: a data-dependent while loop per pixel.

The array forms cannot stop per pixel: they run all `limit` iterations over the whole image and freeze the
pixels that have escaped, which gives the same counts.
"""

import numba
import numpy as np

from cuvil.demo import escape_time  # noqa: F401 (the loop form: one copy, shared with `cuvil demo`)

try:
    import torch
except ImportError:  # the loop and NumPy forms need no torch
    torch = None

PYTHON_SCALE = 0.1  # plain Python runs on 51×51 pixels over the same region (work grows as width²)


def prange_form(width, height, limit, out):
    for row in numba.prange(height):
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


def numpy_form(width, height, limit, out):
    c_re = -2.0 + 3.0 * np.arange(width, dtype=np.float64)[None, :] / width + np.zeros((height, 1))
    c_im = -1.5 + 3.0 * np.arange(height, dtype=np.float64)[:, None] / height + np.zeros((1, width))
    z_re, z_im = np.zeros((height, width)), np.zeros((height, width))
    n = np.zeros((height, width), dtype=np.int64)
    for _ in range(limit):
        active = z_re * z_re + z_im * z_im <= 4.0
        z_re, z_im = (np.where(active, z_re * z_re - z_im * z_im + c_re, z_re),
                      np.where(active, 2.0 * z_re * z_im + c_im, z_im))
        n += active
    return n


def torch_form(width, height, limit, out):
    f64 = torch.float64
    c_re = -2.0 + 3.0 * torch.arange(width, dtype=f64)[None, :] / width + torch.zeros((height, 1), dtype=f64)
    c_im = -1.5 + 3.0 * torch.arange(height, dtype=f64)[:, None] / height + torch.zeros((1, width), dtype=f64)
    z_re, z_im = torch.zeros((height, width), dtype=f64), torch.zeros((height, width), dtype=f64)
    n = torch.zeros((height, width), dtype=torch.int64)
    for _ in range(limit):
        active = z_re * z_re + z_im * z_im <= 4.0
        z_re, z_im = (torch.where(active, z_re * z_re - z_im * z_im + c_re, z_re),
                      torch.where(active, 2.0 * z_re * z_im + c_im, z_im))
        n += active
    return n


def work(width, height, limit, out):
    return width * height


def args(scale=1.0):
    w = int(512 * scale)
    return w, w, 100, np.empty((w, w), dtype=np.int64)
