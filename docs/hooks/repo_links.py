"""MkDocs hook: a link to a repository file outside docs/ (`bench/distributed.md` in an included README section,
`../bench/checks.md` in a design note) becomes that file's path, as code.

The site holds docs/ only, so such a link would be dead there, and `mkdocs build --strict` rightly fails on it;
on GitHub and in a clone the Markdown keeps its working link. Runs after include-markdown, which has already
made an included file's links relative to the including page.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any

LINK = re.compile(r"(?<!!)\[([^\]\n]+)\]\(([^)\s#]+)(#[^)\s]*)?\)")


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    docs = Path(config["docs_dir"]).resolve()
    root = docs.parent
    here = posixpath.dirname(page.file.src_uri)

    def outside(match: re.Match[str]) -> str:
        text, target = match.group(1), match.group(2)
        if "://" in target or target.startswith("mailto:"):
            return match.group(0)
        path = (docs / here / target).resolve()
        if path.is_relative_to(docs) or not path.is_relative_to(root) or not path.exists():
            return match.group(0)
        name = path.relative_to(root).as_posix()
        return f"`{name}`" if text.strip("`") == name else f"{text} (`{name}`)"

    return LINK.sub(outside, markdown)
