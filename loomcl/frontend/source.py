"""Source files and locations.

Every token and AST node carries a `Location` (file, line, column), so that any stage can point a
diagnostic at the exact character that caused it. A `SourceFile` owns the text and can hand back one
line of it for the caret display (see diagnostics.py). Lines and columns are 1-based, as in clang.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(eq=False)
class SourceFile:
    """One file of OpenCL C text: the main program source or an #include'd file."""

    name: str
    text: str = field(repr=False)
    _lines: list[str] | None = field(default=None, repr=False)

    def line(self, number: int) -> str:
        """The text of line `number` (1-based) without its newline; '' past the end."""
        if self._lines is None:
            self._lines = self.text.split("\n")
        if 1 <= number <= len(self._lines):
            return self._lines[number - 1].rstrip("\r")
        return ""


@dataclass(unsafe_hash=True, slots=True)
class Location:
    """A point in a source file. `file` may be None for tokens synthesized by the compiler.
    Never changed once made (not `frozen`, whose checks would slow the lexer's one per token)."""

    file: SourceFile | None
    line: int
    column: int

    @property
    def filename(self) -> str:
        return self.file.name if self.file is not None else "<built-in>"

    def __str__(self) -> str:
        return f"{self.filename}:{self.line}:{self.column}"

    def __repr__(self) -> str:
        return f"Location({self.filename!r}, {self.line}, {self.column})"


BUILTIN_LOCATION = Location(None, 0, 0)
