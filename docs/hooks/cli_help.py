"""MkDocs hook: `<!-- cli-help -->` in a page becomes the `--help` of `cuvil` and of each of its subcommands.

The help is printed by the parser in `cuvil/cli.py` while the site is built, so the CLI page cannot drift from
the command: a new subcommand or option appears on the next build, with no page to edit.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
from typing import Any

MARKER = "<!-- cli-help -->"


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if MARKER not in markdown:
        return markdown
    top = _help([])
    # argparse lists the subcommands as `{demo,inspect,...}` on the usage line
    commands = re.search(r"\{([\w,-]+)\}", top).group(1).split(",")
    sections = [f"```text\n$ cuvil --help\n{top}```"]
    sections += [f"## `cuvil {name}`\n\n```text\n$ cuvil {name} --help\n{_help([name])}```" for name in commands]
    return markdown.replace(MARKER, "\n\n".join(sections))


def _help(argv: list[str]) -> str:
    """What `cuvil ARGV --help` prints, at a fixed width (argparse wraps to $COLUMNS)."""
    from cuvil.cli import main

    out = io.StringIO()
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"
    try:
        with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
            main([*argv, "--help"])
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old
    return out.getvalue()
