"""Statements: structured C control flow to a CFG of blocks.

Each construct gets the canonical block shape the loop and barrier passes expect:

    if:        cond -> if.then [-> if.else] -> if.end
    while:     while.cond -> while.body -> while.cond | while.end
    do-while:  do.body -> do.cond -> do.body | do.end
    for:       init; for.cond -> for.body -> for.step -> for.cond | for.end
    switch:    one `switch` terminator to a block per case label; the body runs in source order,
               so falling through a label is just falling into the next block

`break`/`continue` jump to the blocks recorded for their AST target (sema resolved which loop or
switch that is); `goto` jumps to its label's block. A goto can make a cycle with two entries,
which the work-group transforms cannot handle, so such a function is refused (`check_gotos`). After any jump or return the lowering continues in a fresh block with no
predecessor, so code after `break` still lowers; the function's finishing step deletes such
unreachable blocks.
"""
from __future__ import annotations

from contextlib import contextmanager

from ..frontend import ast as A
from ..analysis.reducibility import irreducible_cycle_entry
from .errors import LoweringError, unsupported


class StatementLowering:
    """Mixin of FunctionLowerer: needs `self.b`, `self.new_block`, `self.enter`, `self.declare`,
    `self.finish_block` and ExpressionLowering."""

    def statement(self, s: A.Stmt) -> None:
        handler = _HANDLERS.get(type(s))
        if handler is None:
            raise unsupported(f"statement '{type(s).__name__}'", s.loc)
        with self.located(s):
            handler(self, s)

    @contextmanager
    def jump_targets(self, s: A.Stmt, break_to, continue_to):
        self.targets[s] = (break_to, continue_to)
        try:
            yield
        finally:
            del self.targets[s]

    def jump_then_continue(self, target) -> None:
        """Jump to target; further code of this path is unreachable, so start a fresh block."""
        self.b.jump(target)
        self.enter(self.new_block("unreachable"))

    # -- simple statements -------------------------------------------------------------------------

    def _compound(self, s: A.CompoundStmt) -> None:
        for item in s.items:
            self.statement(item)

    def _decl(self, s: A.DeclStmt) -> None:
        for decl in s.decls:
            self.declare(decl)

    def _expr(self, s: A.ExprStmt) -> None:
        self.effect(s.expr)

    def _null(self, s: A.NullStmt) -> None:
        pass

    def _return(self, s: A.ReturnStmt) -> None:
        value = self.value(s.value) if s.value is not None else None
        if value is not None and s.value.type.is_void:
            value = None  # `return f();` in a void function: only the call's effects remain
        self.b.ret(value)
        self.enter(self.new_block("unreachable"))

    def _break(self, s: A.BreakStmt) -> None:
        self.jump_then_continue(self.targets[s.target][0])

    def _continue(self, s: A.ContinueStmt) -> None:
        self.jump_then_continue(self.targets[s.target][1])

    # -- branches and loops ------------------------------------------------------------------------

    def _if(self, s: A.IfStmt) -> None:
        cond = self.condition(s.cond)
        then_block, end = self.new_block("if.then"), self.new_block("if.end")
        else_block = self.new_block("if.else") if s.else_ is not None else end
        self.b.branch(cond, then_block, else_block)
        self.enter(then_block)
        self.statement(s.then)
        self.b.jump(end)
        if s.else_ is not None:
            self.enter(else_block)
            self.statement(s.else_)
            self.b.jump(end)
        self.enter(end)

    def _while(self, s: A.WhileStmt) -> None:
        cond, body, end = self.new_block("while.cond"), self.new_block("while.body"), \
            self.new_block("while.end")
        self.b.jump(cond)
        self.enter(cond)
        self.b.branch(self.condition(s.cond), body, end)
        self.enter(body)
        with self.jump_targets(s, end, cond):
            self.statement(s.body)
        self.b.jump(cond)
        self.enter(end)

    def _do_while(self, s: A.DoWhileStmt) -> None:
        body, cond, end = self.new_block("do.body"), self.new_block("do.cond"), \
            self.new_block("do.end")
        self.b.jump(body)
        self.enter(body)
        with self.jump_targets(s, end, cond):
            self.statement(s.body)
        self.b.jump(cond)
        self.enter(cond)
        self.b.branch(self.condition(s.cond), body, end)
        self.enter(end)

    def _for(self, s: A.ForStmt) -> None:
        if s.init is not None:
            self.statement(s.init)
        cond, body = self.new_block("for.cond"), self.new_block("for.body")
        step, end = self.new_block("for.step"), self.new_block("for.end")
        self.b.jump(cond)
        self.enter(cond)
        if s.cond is not None:
            self.b.branch(self.condition(s.cond), body, end)
        else:
            self.b.jump(body)
        self.enter(body)
        with self.jump_targets(s, end, step):
            self.statement(s.body)
        self.b.jump(step)
        self.enter(step)
        if s.step is not None:
            self.effect(s.step)
        self.b.jump(cond)
        self.enter(end)

    # -- switch ------------------------------------------------------------------------------------

    def _switch(self, s: A.SwitchStmt) -> None:
        """One terminator dispatching to a block per label; code before the first label is dead."""
        value = self.value(s.cond)
        end = self.new_block("switch.end")
        for case in s.cases:
            self.labels[case] = self.new_block("switch.case")
        if s.default is not None:
            self.labels[s.default] = self.new_block("switch.default")
        default = self.labels[s.default] if s.default is not None else end
        self.b.switch(value, default, [(case.value, self.labels[case]) for case in s.cases])
        self.enter(self.new_block("unreachable"))
        with self.jump_targets(s, end, None):
            self.statement(s.body)
        self.b.jump(end)
        self.enter(end)

    def _label(self, s: A.CaseStmt | A.DefaultStmt) -> None:
        """A case or default label: fall into its block, then lower the labelled statement."""
        block = self.labels[s]
        self.b.jump(block)
        self.enter(block)
        self.statement(s.body)

    def _labeled(self, s: A.LabelStmt) -> None:
        block = self.goto_block(s)
        self.b.jump(block)
        self.enter(block)
        self.statement(s.body)

    def _goto(self, s: A.GotoStmt) -> None:
        self.gotos.append(s)
        self.jump_then_continue(self.goto_block(s.target))

    def goto_block(self, label: A.LabelStmt):
        if label not in self.labels:
            self.labels[label] = self.new_block(label.name)
        return self.labels[label]

    def check_gotos(self) -> None:
        """Refuse a function whose gotos made an irreducible CFG (after dead blocks are gone)."""
        entry = irreducible_cycle_entry(self.function) if self.gotos else None
        if entry is not None:
            goto = next((g for g in self.gotos if self.labels[g.target] is entry), self.gotos[0])
            raise LoweringError("this 'goto' enters a loop other than through its start; loomcl "
                                "needs every loop to have a single entry", goto.loc)


_HANDLERS = {
    A.CompoundStmt: StatementLowering._compound,
    A.DeclStmt: StatementLowering._decl,
    A.ExprStmt: StatementLowering._expr,
    A.NullStmt: StatementLowering._null,
    A.ReturnStmt: StatementLowering._return,
    A.BreakStmt: StatementLowering._break,
    A.ContinueStmt: StatementLowering._continue,
    A.IfStmt: StatementLowering._if,
    A.WhileStmt: StatementLowering._while,
    A.DoWhileStmt: StatementLowering._do_while,
    A.ForStmt: StatementLowering._for,
    A.SwitchStmt: StatementLowering._switch,
    A.CaseStmt: StatementLowering._label,
    A.DefaultStmt: StatementLowering._label,
    A.LabelStmt: StatementLowering._labeled,
    A.GotoStmt: StatementLowering._goto,
}
