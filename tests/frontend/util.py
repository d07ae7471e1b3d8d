"""Helpers shared by the front-end tests."""
from __future__ import annotations

import pytest

from loomcl.frontend import CompileError, parse_options, parse_program
from loomcl.frontend import ast as A
from loomcl.frontend.diagnostics import Diagnostics
from loomcl.frontend.lexer import finish_tokens
from loomcl.frontend.preprocessor import preprocess
from loomcl.frontend.printer import format_expr
from loomcl.frontend.source import SourceFile


def compile_ok(source: str, options: str = "") -> A.TranslationUnit:
    return parse_program(source, parse_options(options), filename="t.cl")


def compile_log(source: str, options: str = "") -> str:
    """The build log of a program that must fail."""
    with pytest.raises(CompileError) as info:
        parse_program(source, parse_options(options), filename="t.cl")
    return info.value.log


def preprocessed(source: str, options: str = "", filename: str = "t.cl") -> str:
    diags = Diagnostics()
    tokens = preprocess(SourceFile(filename, source), parse_options(options), diags)
    assert diags.error_count == 0, [d.render() for d in diags.messages]
    return " ".join(t.text for t in tokens[:-1])


def kernel_body(source: str, options: str = "") -> list[A.Stmt]:
    """The statements of the last function of a program."""
    return compile_ok(source, options).functions[-1].body.items


def typed_expr(expr: str, decls: str = "int i; uint u; long l; ulong ul; char c; short s; "
               "float f; double d; __global float *gp; __global int *ip;") -> A.Expr:
    """Type-check `expr` in a kernel with some variables; return the checked expression."""
    source = f"kernel void k(__global float *gp, __global int *ip) {{ {_locals(decls)} ({expr}); }}"
    items = kernel_body(source)
    return items[-1].expr


def _locals(decls: str) -> str:
    return " ".join(d + ";" for d in decls.split(";") if d.strip() and "gp" not in d and "ip" not in d)


def show(expr: str, implicit: bool = False, **kw) -> str:
    return format_expr(typed_expr(expr, **kw), implicit)


def tokens_of(source: str):
    diags = Diagnostics()
    tokens = finish_tokens(preprocess(SourceFile("t.cl", source), parse_options(""), diags), diags)
    return tokens[:-1], diags
