"""Define functions from literal source text, the way notebooks and exec'd code do: registered in linecache,
so the source (and so every line number a test asserts) is exactly the text in the test."""

from __future__ import annotations

import itertools
import linecache
import textwrap
import types
from typing import Any

_counter = itertools.count()


def define(source: str, name: str | None = None, env: dict[str, Any] | None = None) -> types.FunctionType:
    """Exec `source` as a file of its own named `<cuvil-test-N>` and return the function `name` (or the last)."""
    text = textwrap.dedent(source).lstrip("\n")
    filename = f"<cuvil-test-{next(_counter)}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(keepends=True), filename)
    namespace: dict[str, Any] = {"__name__": filename.strip("<>").replace("-", "_")}
    namespace.update(env or {})
    exec(compile(text, filename, "exec"), namespace)
    if name is None:
        name = [k for k, v in namespace.items() if isinstance(v, types.FunctionType)][-1]
    fn = namespace[name]
    assert isinstance(fn, types.FunctionType)
    return fn
