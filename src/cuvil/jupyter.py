"""Cuvil in Jupyter: rich displays of `cuvil.explain(fn)` and `fn.source(...)`, and the IPython extension.

Both displays are plain data turned into HTML here (no widget, no JavaScript: they survive nbconvert and a
notebook viewer), and both keep a plain-text form for terminals and `print`. Which context a compile ran in
(the kernel session) is runtime/context.py's; this module only shows things.

`%load_ext cuvil.jupyter` is optional: the displays work without it; it adds `%cuvil_stats`.
"""

from __future__ import annotations

import html
import linecache
import re
from typing import Any

_ORIGIN = re.compile(r"# L(\d+)\b")
_STYLE = (
    "<style>.cuvil-explain table{border-collapse:collapse;font-size:12px}"
    ".cuvil-explain th,.cuvil-explain td{padding:2px 8px;text-align:left;border-bottom:1px solid #ddd}"
    ".cuvil-explain .reason{background:#fff3cd}.cuvil-explain .first{color:#666}"
    ".cuvil-explain .miss{color:#b45309}.cuvil-explain .disk,.cuvil-explain .memory{color:#047857}"
    ".cuvil-explain ul{margin:2px 0 6px 0}.cuvil-src .origin{color:#2563eb;cursor:help}</style>"
)


def explanation_html(explanation: Any) -> str:
    """`cuvil.explain(fn)` as HTML: a table of compiles (a recompile's reason highlighted: it is what to
    fix), then each live variant's guard as a list, with what the text form prints under it (loops, …)."""
    from .runtime.events import STAGES

    e = html.escape
    head = "".join(f"<th>{e(c)}</th>" for c in ("#", "signature", "cache", *STAGES, "reason"))
    rows = []
    for i, event in enumerate(explanation.compiles, 1):
        stages = "".join(f"<td>{event.seconds.get(s, 0.0) * 1e3:.1f} ms</td>" for s in STAGES)
        kind = "first" if event.reason == "first call" else "reason"
        rows.append(f"<tr><td>{i}</td><td><code>{e(event.signature)}</code></td>"
                    f"<td class='{e(event.cache)}'>{e(event.cache)}</td>{stages}"
                    f"<td class='{kind}'>{e(event.reason)}</td></tr>")
    parts = [_STYLE, "<div class='cuvil-explain'>",
             f"<b>{e(explanation.function)}</b>: {len(explanation.compiles)} compile(s), "
             f"{len(explanation.guards)} variant(s)",
             f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"]
    for number, (items, notes) in zip(range(len(explanation.guards), 0, -1), _variants(explanation)):
        newest = " (newest, checked first)" if number == len(explanation.guards) else ""
        parts.append(f"<div>variant #{number}{newest}</div><ul>"
                     + "".join(f"<li><code>{e(item)}</code></li>" for item in items)
                     + "".join(f"<li>{e(note)}</li>" for note in notes) + "</ul>")
    parts.append("</div>")
    return "".join(parts)


def _variants(explanation: Any) -> list[tuple[list[str], list[str]]]:
    """Per live variant: its guard items, and the indented lines the text form prints under it (its loops,
    and what a subclass adds, such as fingerprints)."""
    notes: list[list[str]] = []
    for line in str(explanation).splitlines():
        if line.startswith("variant #"):
            notes.append([])
        elif notes and line.startswith("  "):
            notes[-1].append(line.strip())
    notes += [[] for _ in range(len(explanation.guards) - len(notes))]
    return list(zip(explanation.guards, notes))


def source_html(text: str, filename: str | None) -> str:
    """A stage's text as highlighted Python (pygments, when installed), each `# L<n>` origin marked with the
    user's line itself on hover."""
    try:
        from pygments import highlight
        from pygments.formatters import HtmlFormatter
        from pygments.lexers import PythonLexer

        body = highlight(text, PythonLexer(), HtmlFormatter(nowrap=True, noclasses=True))
    except ImportError:
        body = html.escape(text)

    def origin(match: re.Match[str]) -> str:
        line = linecache.getline(filename, int(match.group(1))).strip() if filename else ""
        return f"<span class='origin' title='{html.escape(line, quote=True)}'>{match.group(0)}</span>"

    return f"{_STYLE}<pre class='cuvil-src'>{_ORIGIN.sub(origin, body)}</pre>"


class SourceText(str):
    """What `fn.source(...)` returns: the text itself (a `str`, compared and printed as one), shown in a
    notebook highlighted, and in IPython's plain display as text, not as a quoted one-line string."""

    filename: str | None = None

    def __new__(cls, text: str, filename: str | None = None) -> SourceText:
        made = super().__new__(cls, text)
        made.filename = filename
        return made

    def _repr_html_(self) -> str:
        return source_html(str(self), self.filename)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(str(self))


def load_ipython_extension(ipython: Any) -> None:
    """`%load_ext cuvil.jupyter`: adds `%cuvil_stats`, a table of `cuvil.stats()`."""

    def cuvil_stats(line: str = "") -> None:
        import cuvil

        rows = [f"{name:<40} {s['compiles']:>8} {s['cache_hits']:>10} {s['p50_seconds']:>10.3f}"
                for name, s in cuvil.stats().items()]
        print(f"{'function':<40} {'compiles':>8} {'cache hits':>10} {'p50 s':>10}", *rows, sep="\n")

    ipython.register_magic_function(cuvil_stats, "line")
