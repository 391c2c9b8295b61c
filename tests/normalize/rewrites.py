"""Test helper for passes: literal before/after source, LibCST's codemod style."""

from __future__ import annotations

import textwrap

import libcst as cst


def assert_rewrites(pass_: type[cst.CSTTransformer], before: str, after: str) -> None:
    """`pass_` turns `before` into exactly `after`, and changes nothing when run again (idempotent)."""
    module = cst.parse_module(textwrap.dedent(before).lstrip("\n"))
    out = module.visit(pass_())
    assert out.code == textwrap.dedent(after).lstrip("\n")
    assert out.visit(pass_()).code == out.code
