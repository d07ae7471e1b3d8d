"""One function definition to one IR function in work-item form.

Storage: every parameter and private variable lives in an `Alloca` of its memory type, at the top
of the entry block in declaration order; reads and writes are loads and stores. No SSA is built
here: the transforms' mem2reg promotes scalar allocas, so this stage stays a direct reading of the
source (the "emit stack slots and promote them" option of DESIGN.md, lower/). Parameters are stored
into their slot on entry, so `x = ...` on a parameter needs no special case.

A kernel's `__local` variables (declared at kernel scope or in nested blocks: one instance per
work-group either way) become `GlobalVariable`s in the function's `local_variables`, named after
the source variable and made unique within the kernel.

Every instruction carries the source location of the innermost AST node being lowered (`located`),
so later passes can point a diagnostic at the source.

Finishing: a path that falls off the end gets `ret` (`ret undef` in a non-void function, which C
leaves undefined only if the value is used); blocks that no path reaches (after `break`, `return`,
or before a switch's first label) are deleted.
"""
from __future__ import annotations

from contextlib import contextmanager

from ..frontend import ast as A
from ..frontend import types as T
from ..ir import Block, Builder, Function, GlobalVariable
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.values import Undef
from .builtins import BuiltinLowering
from .casts import CastLowering
from .errors import LoweringError
from .expressions import ExpressionLowering
from .initializers import InitializerLowering
from .statements import StatementLowering
from .types import memory_type
from .vectors import VectorLowering


class FunctionLowerer(ExpressionLowering, StatementLowering, BuiltinLowering, CastLowering,
                      InitializerLowering, VectorLowering):
    """The state of lowering one function body (the program context is shared)."""

    def __init__(self, program, decl: A.FunctionDecl, function: Function) -> None:
        self.program = program
        self.decl = decl
        self.function = function
        self.b = Builder()
        self.storage: dict = {}   # VarDecl/ParamDecl -> its address (Alloca or GlobalVariable)
        self.targets: dict = {}   # loop/switch Stmt -> (break block, continue block)
        self.labels: dict = {}    # CaseStmt/DefaultStmt/LabelStmt -> its block
        self.gotos: list[A.GotoStmt] = []

    def lower(self) -> Function:
        self.enter(self.new_block("entry"))
        self.b.loc = self.decl.loc
        for param, argument in zip(self.decl.params, self.function.params):
            self.declare_param(param, argument)
        self.statement(self.decl.body)
        self.finish()
        return self.function

    # -- blocks ------------------------------------------------------------------------------------

    def new_block(self, name: str) -> Block:
        """A block of this function, placed in the block list only when entered, so blocks print
        in source order."""
        block = Block(name)
        block.function = self.function
        return block

    def enter(self, block: Block) -> None:
        self.function.blocks.append(block)
        self.b.position_at_end(block)

    @contextmanager
    def located(self, node):
        saved = self.b.loc
        self.b.loc = getattr(node, "loc", None) or saved
        try:
            yield
        finally:
            self.b.loc = saved

    # -- storage -----------------------------------------------------------------------------------

    def storage_of(self, decl) -> object:
        found = self.storage.get(decl)
        if found is None:
            found = self.program.global_storage(decl)
        return found

    def slot(self, t: ty.Type, name: str) -> ins.Alloca:
        """An entry-block alloca, after the ones made before it (declaration order reads best)."""
        entry = self.function.entry
        at = next((i for i, inst in enumerate(entry.instructions)
                   if not isinstance(inst, ins.Alloca)), len(entry.instructions))
        alloca = ins.Alloca(t, name)
        alloca.loc = self.b.loc
        entry.insert(at, alloca)
        if self.b.block is entry and self.b.index is not None:
            self.b.index += 1
        return alloca

    def declare_param(self, param: A.ParamDecl, argument) -> None:
        slot = self.slot(memory_type(param.type), f"{param.name}.addr")
        self.store_to(argument, slot, param.type)
        self.storage[param] = slot

    def declare(self, decl: A.VarDecl) -> None:
        """A block-scope declaration: storage by address space, then the initializer."""
        space = decl.address_space
        if space is T.AddressSpace.LOCAL:
            self.storage[decl] = self.local_variable(decl)
        elif space is T.AddressSpace.CONSTANT:
            self.storage[decl] = self.program.constant(decl, f"{self.function.name}.{decl.name}")
        else:
            slot = self.slot(memory_type(decl.type), decl.name)
            self.storage[decl] = slot
            if decl.init is not None:
                self.initialize(slot, decl.type, decl.init)

    def local_variable(self, decl: A.VarDecl) -> GlobalVariable:
        if not self.function.is_kernel:
            raise LoweringError(f"__local variable '{decl.name}' outside a kernel", decl.loc)
        taken = {v.name for v in self.function.local_variables}
        name, n = decl.name, 1
        while name in taken:
            name, n = f"{decl.name}.{n}", n + 1
        variable = GlobalVariable(name, memory_type(decl.type), ty.AddressSpace.LOCAL)
        self.function.local_variables.append(variable)
        return variable

    # -- the end -----------------------------------------------------------------------------------

    def finish(self) -> None:
        if not self.b.is_terminated:
            result = self.function.return_type
            self.b.ret(None if result is ty.void else Undef(result))
        remove_unreachable_blocks(self.function)
        self.check_gotos()


def remove_unreachable_blocks(function: Function) -> None:
    """Delete the blocks no path from the entry reaches. Only `&&`, `||` and `?:` make phis, and
    they lie wholly inside dead code or wholly outside, but a live phi is cleaned up anyway."""
    reachable, work = {function.entry}, [function.entry]
    while work:
        for succ in work.pop().successors:
            if succ not in reachable:
                reachable.add(succ)
                work.append(succ)
    dead = [b for b in function.blocks if b not in reachable]
    for block in dead:
        for succ in set(block.successors) & reachable:
            for phi in succ.phis:
                if block in phi.incoming_blocks:
                    phi.remove_incoming(block)
    for block in dead:
        function.remove_block(block)
