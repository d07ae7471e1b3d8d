"""A Python function's source text, parsed, with positions in its file.

`inspect` gives the function's lines and where they start in the file; the text is dedented for
`ast.parse`, so a node's (lineno, col_offset) is shifted back by the first line and the indentation
to give the (line, column) of the file. Locations point into a `frontend.source.SourceFile` holding
the whole file, so a diagnostic shows the real source line with its caret, exactly as the OpenCL C
front-end's do (frontend/diagnostics.py), and every IR instruction lowered from the node carries it
(checked mode's reports name the Python line).
"""
from __future__ import annotations

import ast
import inspect
import linecache
import textwrap
from dataclasses import dataclass

from ..frontend.source import Location, SourceFile


@dataclass
class FunctionSource:
    """One function's syntax tree and the file it came from."""

    tree: ast.FunctionDef
    file: SourceFile
    first_line: int   # the file's line of the tree's line 1
    indent: int       # columns removed by dedenting
    text: str         # the function's own (dedented) text: part of the cache key

    def location(self, node) -> Location:
        line = getattr(node, "lineno", 1)
        column = getattr(node, "col_offset", 0)
        return Location(self.file, line + self.first_line - 1, column + self.indent + 1)

    def length(self, node) -> int:
        """How many columns the node spans on its first line (the diagnostic's underline)."""
        end = getattr(node, "end_col_offset", None)
        if end is None or getattr(node, "end_lineno", None) != getattr(node, "lineno", None):
            return 1
        return max(end - node.col_offset, 1)


def function_source(function) -> FunctionSource:
    """The parsed source of a Python function; raises TypeError when Python cannot show it (a
    function typed at the interactive prompt or made by exec from a string)."""
    try:
        lines, first_line = inspect.getsourcelines(function)
        filename = inspect.getsourcefile(function) or inspect.getfile(function)
    except (OSError, TypeError) as exc:
        raise TypeError(f"cannot compile {function.__qualname__}: Python has no source text for it "
                        f"({exc}); define kernels in a file") from None
    raw = "".join(lines)
    indent = len(lines[0]) - len(lines[0].lstrip()) if lines else 0
    text = textwrap.dedent(raw)
    module = ast.parse(text)
    tree = next(node for node in module.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)))
    whole = "".join(linecache.getlines(filename))
    if not whole:  # only the function's own lines are known: number them from 1
        whole, first_line = raw, 1
    return FunctionSource(tree, SourceFile(filename, whole), max(first_line, 1), indent, text)
