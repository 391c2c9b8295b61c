"""Code generation: the only stage that knows Numba's decorators."""
