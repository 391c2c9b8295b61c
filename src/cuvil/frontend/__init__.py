"""Front end: find a function's source, parse it with libcst, and reject what is outside the subset."""
