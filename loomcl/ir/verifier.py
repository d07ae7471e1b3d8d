"""The IR verifier: structural, SSA and type rules that every pass must leave intact.

Tests run it after every pass. It reports every broken rule it finds, not just the first, with the
printed instruction, so a failing pass is easy to pin down. The rules of the CFG and of SSA (blocks
end in one terminator, phis come first and name the predecessors, definitions dominate uses) live
here; the type rules of each instruction kind live in its class (`Instruction.verify`).
"""
from __future__ import annotations

from . import instructions as ins
from .dominators import DominatorTree
from .function import Function, Module
from .printer import FunctionPrinter
from .values import Argument
from .work_group_verifier import work_group_errors


class VerificationError(Exception):
    pass


class _Verifier:
    def __init__(self, function: Function) -> None:
        self.function = function
        self.printer = FunctionPrinter(function)
        self.errors: list[str] = []

    def fail(self, where, message: str) -> None:
        if isinstance(where, ins.Instruction):
            where = f"'{self.printer.instruction(where)}' in {self.printer.label(where.block)}"
        self.errors.append(f"@{self.function.name}: {where}: {message}")

    def run(self) -> list[str]:
        f = self.function
        if not f.blocks:
            return [f"@{f.name}: function has no blocks"]
        self.check_structure()
        if self.errors:
            return self.errors
        self.domtree = DominatorTree(f)
        self.preds = f.predecessors()
        self.position = {inst: i for b in f.blocks for i, inst in enumerate(b.instructions)}
        for block in f.blocks:
            for inst in block.instructions:
                self.check_operands(inst)
                for message in inst.verify():
                    self.fail(inst, message)
            for phi in block.phis:
                self.check_phi(phi)
        if f.local_size is not None and not self.errors:
            self.errors += work_group_errors(f)
        return self.errors

    def check_structure(self) -> None:
        blocks = set(self.function.blocks)
        for block in self.function.blocks:
            if block.function is not self.function:
                self.fail(block.name, "block does not point back to its function")
            if block.terminator is None:
                self.fail(block.name, "block does not end in a terminator")
            seen_non_phi = False
            for inst in block.instructions:
                if inst.block is not block:
                    self.fail(inst, "instruction does not point back to its block")
                if inst.is_terminator and inst is not block.instructions[-1]:
                    self.fail(inst, "terminator in the middle of a block")
                if isinstance(inst, ins.Phi) and seen_non_phi:
                    self.fail(inst, "phi after a non-phi instruction")
                seen_non_phi |= not isinstance(inst, ins.Phi)
            for succ in block.successors:
                if succ not in blocks:
                    self.fail(block.name, f"branches to block {succ.name!r} outside the function")

    def check_operands(self, inst: ins.Instruction) -> None:
        for i, operand in enumerate(inst.operands):
            if operand.tracks_users and inst not in operand.users:
                self.fail(inst, f"operand {i} does not list the instruction as a user")
            if isinstance(operand, Argument) and operand not in self.function.params:
                self.fail(inst, f"uses a parameter of another function")
            if isinstance(operand, ins.Instruction):
                if operand.block is None or operand.block.function is not self.function:
                    self.fail(inst, f"operand {i} is not placed in this function")
                elif not isinstance(inst, ins.Phi) and not self.defined_before(operand, inst):
                    self.fail(inst, f"operand {i} does not dominate its use")

    def defined_before(self, definition: ins.Instruction, use: ins.Instruction) -> bool:
        if definition.block is use.block:
            return self.position[definition] < self.position[use]
        return self.domtree.dominates(definition.block, use.block)

    def check_phi(self, phi: ins.Phi) -> None:
        preds = self.preds[phi.block]
        if not self.domtree.is_reachable(phi.block):
            return
        if sorted(map(id, phi.incoming_blocks)) != sorted(map(id, preds)):
            self.fail(phi, "incoming blocks differ from the block's predecessors")
        for value, pred in phi.incoming:
            if isinstance(value, ins.Instruction) and value.block is not None and pred in self.domtree.idom:
                if not self.domtree.dominates(value.block, pred):
                    self.fail(phi, f"incoming value does not dominate the end of its predecessor")


def verify_function(function: Function) -> None:
    errors = _Verifier(function).run()
    if errors:
        raise VerificationError("\n".join(errors))


def verify_module(module: Module) -> None:
    errors = []
    for function in module.functions.values():
        errors += _Verifier(function).run()
    if errors:
        raise VerificationError("\n".join(errors))
