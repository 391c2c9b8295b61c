"""Every ```python block of README.md and docs/ runs as a reader would run it, or fails as its marker says.

A reader pastes a page's blocks in order, so a file's blocks run in order and a block sees the names the blocks
before it defined (the softmax block uses the opening block's `np` and `cuvil`). Each block is its own module,
written to a file first: Cuvil reads a function's source from its file. The modules stay out of `sys.modules`,
as a script's `__main__` would be for Dask's workers, so a function is sent to them by value.

A block that is meant to fail, or cannot run here, says so in an HTML comment on the line before its fence,
invisible on GitHub and on the site:

    <!-- snippet: expect CuvilSyntaxError -->     the block raises exactly this class (builtins or cuvil.*)
    <!-- snippet: skip (needs a GPU) -->          the block is not run; the reason is required

A block that defines `test_*` functions (the `cuvil.testing` example) has them called, as pytest would.
"""

from __future__ import annotations

import builtins
import dataclasses
import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest

import cuvil

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
MARKER = re.compile(r"<!--\s*snippet:\s*(.*?)\s*-->\s*\Z")


@dataclasses.dataclass(frozen=True)
class Block:
    page: Path
    line: int  # of the fence, 1-based
    code: str
    marker: str | None  # "skip (reason)", "expect Name", or None

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT) if self.page.is_relative_to(ROOT) else self.page}:{self.line}"


def blocks(page: Path) -> list[Block]:
    text = page.read_text()
    found = []
    for match in FENCE.finditer(text):
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        marker = MARKER.search(before)
        found.append(Block(page, text.count("\n", 0, match.start()) + 1, match.group(1),
                           marker.group(1) if marker else None))
    return found


def expected_exception(marker: str) -> type[BaseException]:
    name = marker.removeprefix("expect").strip().removeprefix("cuvil.")
    cls = getattr(cuvil, name, None) or getattr(builtins, name, None)
    if not (isinstance(cls, type) and issubclass(cls, BaseException)):
        raise ValueError(f"snippet marker names no exception class of builtins or cuvil: {marker!r}")
    return cls


def run_block(block: Block, number: int, names: dict[str, Any], folder: Path) -> None:
    """Run `block` as a fresh module that starts with `names`, and add what it defined to `names` (what it
    defined before it raised too, as a reader's session keeps it)."""
    path = folder / f"{block.page.stem.lower().replace('-', '_')}_block{number}.py"
    path.write_text(block.code)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    module.__dict__.update(names)
    try:
        spec.loader.exec_module(module)
        for name, value in list(vars(module).items()):
            if name.startswith("test_") and callable(value) and name not in names:
                value()
    finally:
        names.update({k: v for k, v in vars(module).items() if not k.startswith("__")})


@pytest.mark.parametrize("page", [p for p in PAGES if blocks(p)], ids=lambda p: str(p.relative_to(ROOT)))
def test_python_blocks_run_or_fail_as_marked(page, tmp_path):
    names: dict[str, Any] = {}
    try:
        run_blocks(page, names, tmp_path)
    finally:
        close_clusters(names)


def run_blocks(page: Path, names: dict[str, Any], folder: Path) -> None:
    for number, block in enumerate(blocks(page)):
        if block.marker is None:
            try:
                run_block(block, number, names, folder)
            except BaseException as exc:
                raise AssertionError(f"the block at {block.where} raised {type(exc).__name__}: {exc}") from exc
        elif block.marker.startswith("expect"):
            expected = expected_exception(block.marker)
            with pytest.raises(BaseException) as caught:
                run_block(block, number, names, folder)
            assert type(caught.value) is expected, (
                f"the block at {block.where} is marked to raise {expected.__name__}, "
                f"raised {type(caught.value).__name__}: {caught.value}")


def close_clusters(names: dict[str, Any]) -> None:
    """A page's Dask client (the README's Dask block starts a local cluster) is closed with its worker processes,
    as the reader's script would close it by ending."""
    import sys

    distributed = sys.modules.get("distributed")
    for value in names.values():
        if distributed is not None and isinstance(value, distributed.Client):
            value.close()


def test_markers_name_a_reason_or_an_exception():
    for page in PAGES:
        for block in blocks(page):
            if block.marker is None:
                continue
            if block.marker.startswith("skip"):
                assert re.fullmatch(r"skip \(.+\)", block.marker), f"{block.where}: a skip needs its (reason)"
            else:
                assert block.marker.startswith("expect "), f"{block.where}: unknown marker {block.marker!r}"
                expected_exception(block.marker)


def test_an_expect_marker_holds_only_for_that_exact_class(tmp_path):
    refused = "@cuvil.jit\ndef f(x):\n    with x:\n        return x\n"  # `with` is outside the subset
    page = tmp_path / "page.md"
    for marker, passes in [("expect CuvilSyntaxError", True), ("expect SyntaxError", False),
                           ("skip (shown, not run)", True)]:
        page.write_text(f"```python\nimport cuvil\n```\n\n<!-- snippet: {marker} -->\n```python\n{refused}```\n")
        assert [b.marker for b in blocks(page)] == [None, marker]
        if passes:
            run_blocks(page, {}, tmp_path)
        else:
            with pytest.raises(AssertionError, match="marked to raise SyntaxError, raised CuvilSyntaxError"):
                run_blocks(page, {}, tmp_path)
    page.write_text(f"```python\nimport cuvil\n{refused}```\n")
    with pytest.raises(AssertionError, match=r"page.md:1 raised CuvilSyntaxError"):
        run_blocks(page, {}, tmp_path)
