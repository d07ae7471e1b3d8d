"""loomcl.frontend: OpenCL C source text to a fully typed AST.

    tu = parse_program(source, parse_options("-D N=4"), filename="kernel.cl")
    for kernel in tu.kernels:
        kernel.name, kernel.params, kernel.reqd_work_group_size, kernel.body

The stages, each its own module: preprocessor (with lexer.tokenize) -> lexer.finish_tokens ->
parser -> sema. Every stage reports to one Diagnostics collection; if any error was found, the build
raises CompileError whose `.log` holds all of them, clang-style. See ast.py for the AST contract.
"""
from __future__ import annotations

from .ast import TranslationUnit
from .diagnostics import CompileError, Diagnostic, Diagnostics, OptionError
from .lexer import finish_tokens
from .options import BuildOptions, LinkOptions, MacroOption, parse_link_options, parse_options
from .parser import parse
from .preprocessor import preprocess
from .sema import analyze
from .source import SourceFile

__all__ = ["parse_program", "parse_options", "parse_link_options", "LinkOptions", "BuildOptions", "MacroOption", "CompileError",
           "OptionError", "Diagnostic", "TranslationUnit"]


def parse_program(source: str, options: BuildOptions | None = None, filename: str = "<kernel>",
                  headers: dict[str, str] | None = None, separate: bool = False,
                  files: dict | None = None) -> TranslationUnit:
    """Preprocess, parse and type-check an OpenCL C program; raise CompileError on any error.
    `headers`: the text of `#include "name"` by name (clCompileProgram's header programs), looked
    up before the file system. `separate`: the program is one unit of several linked later, so a
    function it declares may be defined in another (sema.py). `files`, when given, receives every
    path the include search looked at: the text read there, or None where no file was."""
    options = options or BuildOptions()
    diags = Diagnostics(warnings_as_errors=options.warnings_as_errors,
                        suppress_warnings=options.suppress_warnings, warn_all=options.warn_all)
    tokens = preprocess(SourceFile(filename, source), options, diags, headers or {}, files)
    finish_tokens(tokens, diags, options.single_precision_constant)
    tu = parse(tokens, diags)
    analyze(tu, options, diags, separate)  # runs after syntax errors too: more of the program is checked
    diags.raise_if_errors()
    tu.warnings = "\n".join(d.render() for d in diags.in_source_order())
    return tu
