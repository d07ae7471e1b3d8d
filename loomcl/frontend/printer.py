"""Text forms of the AST, for tests and `loomcl build --emit ast`.

`format_expr` writes an expression fully parenthesized, so grouping (precedence and associativity)
is visible: `a + b * c` prints as `(a + (b * c))`. With `implicit=True` the conversions sema
inserted are shown as `kind(operand)`, e.g. `int-to-float(load(i))`. `format_tree` prints a whole
translation unit, one statement per line, indented by nesting.
"""
from __future__ import annotations

from . import ast as A


def format_expr(e: A.Expr, implicit: bool = False) -> str:
    f = lambda x: format_expr(x, implicit)  # noqa: E731
    if isinstance(e, A.IntLiteral):
        return str(e.value)
    if isinstance(e, A.FloatLiteral):
        return repr(e.value)
    if isinstance(e, A.StringLiteral):
        return repr(e.value)
    if isinstance(e, A.VarRef):
        return e.name
    if isinstance(e, A.Cast):
        if e.implicit:
            return f"{e.kind.value}({f(e.operand)})" if implicit else f(e.operand)
        return f"(({e.type}){f(e.operand)})"
    if isinstance(e, A.Unary):
        return f"({e.op.value}{f(e.operand)})"
    if isinstance(e, A.AddressOf):
        return f"(&{f(e.operand)})"
    if isinstance(e, A.Deref):
        return f"(*{f(e.operand)})"
    if isinstance(e, A.IncDec):
        return f"({e.op.value.replace('x', f(e.operand))})"
    if isinstance(e, A.Binary):
        return f"({f(e.left)} {e.op.value} {f(e.right)})"
    if isinstance(e, A.PointerArith):
        return f"({f(e.pointer)} {e.op.value} {f(e.offset)})"
    if isinstance(e, A.PointerDiff):
        return f"({f(e.left)} - {f(e.right)})"
    if isinstance(e, A.Assign):
        return f"({f(e.target)} = {f(e.value)})"
    if isinstance(e, A.CompoundAssign):
        return f"({f(e.target)} {e.op.value}= {f(e.value)})"
    if isinstance(e, A.Conditional):
        return f"({f(e.cond)} ? {f(e.then)} : {f(e.else_)})"
    if isinstance(e, A.Comma):
        return f"({f(e.left)}, {f(e.right)})"
    if isinstance(e, A.Call):
        return f"{f(e.callee)}({', '.join(map(f, e.args))})"
    if isinstance(e, A.BuiltinCall):
        return f"{e.overload.name}({', '.join(map(f, e.args))})"
    if isinstance(e, A.PrintfCall):
        args = [A.StringLiteral(e.loc, e.format), *e.args, *e.unused]
        return f"printf({', '.join(map(f, args))})"
    if isinstance(e, A.Index):
        return f"{f(e.base)}[{f(e.index)}]"
    if isinstance(e, A.SizeOf):
        return f"sizeof({e.type_operand if e.operand is None else f(e.operand)})"
    if isinstance(e, A.InitList):
        return "{" + ", ".join(map(f, e.items)) + "}"
    if isinstance(e, A.VectorLiteral):
        return f"(({e.type})({', '.join(map(f, e.items))}))"
    if isinstance(e, A.Member):
        return f"{f(e.base)}{'->' if e.arrow else '.'}{e.name or '(anonymous)'}"
    if isinstance(e, A.VectorIndex):
        return f"{f(e.base)}[{f(e.index)}]"
    if isinstance(e, A.Swizzle):
        return f"{f(e.base)}.s{''.join('%x' % lane for lane in e.lanes)}"
    raise TypeError(f"unknown expression node {type(e).__name__}")


def format_tree(tu: A.TranslationUnit) -> str:
    lines: list[str] = []
    for d in tu.decls:
        if isinstance(d, A.VarDecl):
            lines.append(_var(d))
        else:
            _function(d, lines)
    return "\n".join(lines)


def _var(d: A.VarDecl) -> str:
    init = f" = {format_expr(d.init)}" if d.init is not None else ""
    return f"var {d.name}: {d.type}{init}"


def _function(f: A.FunctionDecl, lines: list[str]) -> None:
    params = ", ".join(f"{p.name}: {p.type}" for p in f.params)
    kind = "kernel" if f.is_kernel else "function"
    size = f" reqd_work_group_size{f.reqd_work_group_size}" if f.reqd_work_group_size else ""
    lines.append(f"{kind} {f.name}({params}) -> {f.result_type}{size}")
    if f.body is not None:
        _stmt(f.body, lines, 1)


def _stmt(s: A.Stmt, lines: list[str], depth: int) -> None:
    pad = "  " * depth
    if isinstance(s, A.CompoundStmt):
        lines.append(pad + "{")
        for item in s.items:
            _stmt(item, lines, depth + 1)
        lines.append(pad + "}")
    elif isinstance(s, A.DeclStmt):
        lines.extend(pad + _var(d) for d in s.decls)
    elif isinstance(s, A.ExprStmt):
        lines.append(pad + format_expr(s.expr))
    else:
        _control(s, lines, depth, pad)


def _control(s: A.Stmt, lines: list[str], depth: int, pad: str) -> None:
    fx = format_expr
    if isinstance(s, A.IfStmt):
        lines.append(f"{pad}if {fx(s.cond)}")
        _stmt(s.then, lines, depth + 1)
        if s.else_ is not None:
            lines.append(pad + "else")
            _stmt(s.else_, lines, depth + 1)
    elif isinstance(s, (A.WhileStmt, A.DoWhileStmt)):
        word = "while" if isinstance(s, A.WhileStmt) else "do-while"
        lines.append(f"{pad}{word} {fx(s.cond)}")
        _stmt(s.body, lines, depth + 1)
    elif isinstance(s, A.ForStmt):  # its parts in source order, each labelled (any may be empty)
        lines.append(f"{pad}for")
        lines.append(f"{pad}  init:" + ("" if s.init is not None else " (none)"))
        if s.init is not None:
            _stmt(s.init, lines, depth + 2)
        lines.append(f"{pad}  cond: {'(none)' if s.cond is None else fx(s.cond)}")
        lines.append(f"{pad}  step: {'(none)' if s.step is None else fx(s.step)}")
        _stmt(s.body, lines, depth + 1)
    elif isinstance(s, A.SwitchStmt):
        lines.append(f"{pad}switch {fx(s.cond)}")
        _stmt(s.body, lines, depth + 1)
    elif isinstance(s, (A.CaseStmt, A.DefaultStmt)):
        lines.append(f"{pad}case {s.value}:" if isinstance(s, A.CaseStmt) else f"{pad}default:")
        _stmt(s.body, lines, depth + 1)
    elif isinstance(s, A.ReturnStmt):
        lines.append(f"{pad}return" + ("" if s.value is None else f" {fx(s.value)}"))
    elif isinstance(s, A.LabelStmt):
        lines.append(f"{pad}{s.name}:")
        _stmt(s.body, lines, depth + 1)
    elif isinstance(s, A.GotoStmt):
        lines.append(f"{pad}goto {s.name}")
    else:
        lines.append(pad + type(s).__name__.removesuffix("Stmt").lower())
