"""Griffe extension: an exported module attribute with no docstring in the source takes the `__doc__` its object
was given at run time, so the API reference says what `help()` says.

`cuvil.fp16 = _Cast("fp16", "<doc>")` is an object, not a function (the compiler binds it as a library name), so
griffe's static reading finds no docstring for it. Only names in a module's `__all__` are looked up, so the build
imports the modules that export something and no others.
"""

from __future__ import annotations

import importlib
from typing import Any

import griffe


class RuntimeDocstrings(griffe.Extension):
    def on_module_members(self, *, node: Any, mod: griffe.Module, agent: Any, **kwargs: Any) -> None:
        for name in sorted(mod.exports or ()):
            member = mod.members.get(name)
            if not isinstance(member, griffe.Attribute) or member.docstring is not None:
                continue
            value = getattr(importlib.import_module(mod.path), name)
            doc = vars(value).get("__doc__") if hasattr(value, "__dict__") else None
            if isinstance(doc, str) and doc.strip():
                member.docstring = griffe.Docstring(doc, parent=member)
