"""Diagnostics: clang-style error messages, collected rather than thrown.

Each stage reports problems to a shared `Diagnostics` object and keeps going where it reasonably can
(the parser resynchronizes at `;` and `}`), so one build reports every error it can find. At the end of
a stage, `raise_if_errors()` turns the collection into a `CompileError` whose `.log` is the build log a
user sees, rendered like clang:

    kernel.cl:3:5: error: use of undeclared identifier 'y'
        y = 1;
        ^

`OptionError` is raised for a build option that is not understood; it is not collected because the
options string is parsed before any source is read.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from .source import BUILTIN_LOCATION, Location


class Severity(enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


@dataclass(frozen=True)
class Diagnostic:
    """One message. `length` > 1 underlines the range with `~` after the caret."""

    severity: Severity
    location: Location
    message: str
    length: int = 1

    def render(self) -> str:
        """The message, the source line, and a caret line under the column."""
        if self.location.file is None:  # compiler-made: no position to show
            return f"{self.severity.value}: {self.message}"
        head = f"{self.location}: {self.severity.value}: {self.message}"
        text = self.location.file.line(self.location.line)
        column = max(self.location.column, 1)
        # Keep tabs in the padding so the caret lines up with the source line in a terminal.
        pad = "".join(c if c == "\t" else " " for c in text[: column - 1])
        caret = pad + "^" + "~" * max(self.length - 1, 0)
        return f"{head}\n{text}\n{caret}"


class CompileError(Exception):
    """A build failed. `.diagnostics` holds every message; `.log` is their rendered text."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = list(diagnostics)
        self.log = "\n".join(d.render() for d in self.diagnostics)
        super().__init__(self.log)


class OptionError(ValueError):
    """A build option string holds an option loomcl does not understand."""

    def __init__(self, option: str, reason: str = "unknown build option"):
        self.option = option
        super().__init__(f"{reason}: '{option}'")


WALL_ONLY = {"unused-variable"}  # as in clang, shown only under -Wall


class Diagnostics:
    """The collector every stage reports to."""

    def __init__(self, warnings_as_errors: bool = False, suppress_warnings: bool = False, warn_all: bool = False):
        self.messages: list[Diagnostic] = []
        self.warnings_as_errors = warnings_as_errors
        self.suppress_warnings = suppress_warnings
        self.warn_all = warn_all

    def error(self, location: Location, message: str, length: int = 1) -> None:
        self.messages.append(Diagnostic(Severity.ERROR, location, message, length))

    def warning(self, location: Location, message: str, flag: str | None = None, length: int = 1) -> None:
        """A warning named, as clang names it, by its flag: `unused-value` shows as
        "[-Wunused-value]", or "[-Werror,-Wunused-value]" when -Werror makes it an error."""
        if self.suppress_warnings or flag in WALL_ONLY and not self.warn_all:
            return
        severity = Severity.ERROR if self.warnings_as_errors else Severity.WARNING
        if flag is not None:
            message += f" [-Werror,-W{flag}]" if self.warnings_as_errors else f" [-W{flag}]"
        self.messages.append(Diagnostic(severity, location, message, length))

    def note(self, location: Location | None, message: str) -> None:
        location = location or BUILTIN_LOCATION
        self.messages.append(Diagnostic(Severity.NOTE, location, message))

    @property
    def error_count(self) -> int:
        return sum(1 for d in self.messages if d.severity is Severity.ERROR)

    @property
    def log(self) -> str:
        """The build log: every message, rendered, in source order."""
        return "\n".join(d.render() for d in self.in_source_order())

    def raise_if_errors(self) -> None:
        if self.error_count:
            raise CompileError(self.in_source_order())

    def in_source_order(self) -> list[Diagnostic]:
        """Messages sorted by position (stages report in turn), notes kept after their error."""
        groups: list[list[Diagnostic]] = []
        for d in self.messages:
            if d.severity is Severity.NOTE and groups:
                groups[-1].append(d)
            else:
                groups.append([d])
        files: dict[str, int] = {}
        for g in groups:
            files.setdefault(g[0].location.filename, len(files))
        groups.sort(key=lambda g: (files[g[0].location.filename], g[0].location.line,
                                   g[0].location.column))
        return [d for g in groups for d in g]
