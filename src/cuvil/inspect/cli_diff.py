"""`cuvil diff FILE.py:FN --shapes SPEC SPEC` (two variants) or `--shapes SPEC --sweep 1..32` (a sweep).

A SPEC lists the arguments, separated by spaces: `[8,3]` is an array of ones of that shape (float64),
`[8,3]:float32` one of that dtype, `5` an int, `2.5` a float. In a sweep, `B` in a shape stands for the size.
The variants are compiled, never run: the arrays' contents do not matter.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np

_ARRAY = re.compile(r"\[([^\]]*)\](?::(\w+))?$")


def parse_spec(spec: str, size: int | None = None) -> tuple[Any, ...]:
    """The argument tuple a SPEC describes (`B` in a shape: `size`)."""
    out: list[Any] = []
    for item in spec.split():
        found = _ARRAY.match(item)
        if found:
            dims = [d.strip() for d in found.group(1).split(",") if d.strip()]
            if "B" in dims and size is None:
                raise ValueError(f"{item!r}: 'B' stands for the size of a sweep; give --sweep FROM..TO")
            shape = tuple(size if d == "B" else int(d) for d in dims)
            out.append(np.ones(shape, dtype=np.dtype(found.group(2) or "float64")))
        elif re.fullmatch(r"[+-]?\d+", item):
            out.append(int(item))
        else:
            try:
                out.append(float(item))
            except ValueError:
                raise ValueError(f"{item!r} is neither [d0,d1,...][:dtype], an int nor a float") from None
    return tuple(out)


def load(target: str) -> Any:
    """The jitted function FILE.py:FUNCTION names (jitted here with default options if the file did not)."""
    path, _, name = target.partition(":")
    spec = importlib.util.spec_from_file_location(Path(path).stem, path)
    if spec is None or spec.loader is None or not name:
        raise ValueError(f"expected FILE.py:FUNCTION, got {target!r}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    import cuvil

    fn = getattr(module, name)
    return fn if getattr(fn, "__cuvil_jit__", False) else cuvil.jit(fn)


def run(target: str, shapes: list[str], sweep_range: str | None) -> int:
    from .diff import diff, sweep

    try:
        fn = load(target)
        if sweep_range is not None:
            low, _, high = sweep_range.partition("..")
            if len(shapes) != 1 or not low.isdigit() or not high.isdigit():
                raise ValueError("--sweep FROM..TO takes one --shapes SPEC with B in a shape")
            print(sweep(fn, lambda size: parse_spec(shapes[0], size), range(int(low), int(high) + 1)))
            return 0
        if len(shapes) != 2:
            raise ValueError("--shapes takes two SPECs (or one with --sweep)")
        print(diff(fn, parse_spec(shapes[0]), parse_spec(shapes[1])), end="")
        return 0
    except ValueError as exc:
        print(f"cuvil diff: {exc}", file=sys.stderr)
        return 2
