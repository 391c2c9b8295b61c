"""Write a generated module into its cache entry as a real file, and import it.

A real file lets users read the code and lets Numba's own `cache=True` keep the machine code beside it, also
for functions defined in notebooks. The module is registered in `sys.modules` under its unique name before it
runs: Numba's cache reload imports it again by that name.
"""

from __future__ import annotations

import os
import sys
import tempfile
import types
from pathlib import Path

from . import numba_aliases


def write_atomic(path: Path, text: str) -> None:
    """Readers see the old file or the new one, never half of one (several processes may share a cache)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def import_module(path: Path, source: str, injected: dict[str, object]) -> types.ModuleType:
    name = path.stem
    existing = sys.modules.get(name)
    if existing is not None and getattr(existing, "__file__", None) == str(path):
        return existing
    module = types.ModuleType(name)
    module.__file__ = str(path)
    module.__dict__.update(injected)
    sys.modules[name] = module
    try:
        exec(compile(source, str(path), "exec"), module.__dict__)
    except BaseException:
        del sys.modules[name]
        raise
    # Before Numba compiles anything of it (lazily, at the first call or launch): stores through values that
    # calls return must survive Numba's dead-code elimination.
    numba_aliases.install_cpu()
    if "numba.cuda" in sys.modules:
        numba_aliases.install_cuda()
    return module
