"""Blocks, functions and modules of the kernel IR.

A function is a CFG of basic blocks, entry first; each block is a list of instructions ending in
exactly one terminator, with its phis at the start. Predecessors are derived from terminators when
asked (CFGs are small; keeping them in sync by hand is where IRs grow bugs).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import types as ty
from .instructions import Instruction, Phi, Terminator
from .values import Argument, GlobalVariable


class Block:
    def __init__(self, name: str = "") -> None:
        self.name = name
        self.instructions: list[Instruction] = []
        self.function: Function | None = None

    @property
    def terminator(self) -> Terminator | None:
        if self.instructions and self.instructions[-1].is_terminator:
            return self.instructions[-1]
        return None

    @property
    def successors(self) -> list[Block]:
        term = self.terminator
        return term.successors if term is not None else []

    @property
    def phis(self) -> list[Phi]:
        result = []
        for inst in self.instructions:
            if not isinstance(inst, Phi):
                break
            result.append(inst)
        return result

    @property
    def first_non_phi_index(self) -> int:
        return len(self.phis)

    def append(self, inst: Instruction) -> Instruction:
        return self.insert(len(self.instructions), inst)

    def insert(self, index: int, inst: Instruction) -> Instruction:
        assert inst.block is None, "instruction is already placed"
        self.instructions.insert(index, inst)
        inst.block = self
        return inst

    def insert_before(self, anchor: Instruction, inst: Instruction) -> Instruction:
        return self.insert(self.instructions.index(anchor), inst)

    def __repr__(self) -> str:
        return f"<Block {self.name}>"


@dataclass(eq=False)
class ParallelLoop:
    """A work-item loop made by work-group formation: its iterations are independent work-items,
    so code generation marks its memory accesses with one access group and its latch branch with
    `llvm.loop.parallel_accesses` (pocl 4.2), letting LLVM vectorize without alias checks."""

    header: Block
    latch: Block
    blocks: set[Block] = field(default_factory=set)


@dataclass(frozen=True)
class KernelAttributes:
    reqd_work_group_size: tuple[int, int, int] | None = None


class Function:
    def __init__(self, name: str, return_type: ty.Type, param_types: list[ty.Type],
                 param_names: list[str] | None = None, is_kernel: bool = False) -> None:
        self.name = name
        self.return_type = return_type
        names = param_names or [f"arg{i}" for i in range(len(param_types))]
        self.params = [Argument(t, n, i) for i, (t, n) in enumerate(zip(param_types, names))]
        self.is_kernel = is_kernel
        self.attributes = KernelAttributes()
        self.blocks: list[Block] = []
        self.local_variables: list[GlobalVariable] = []  # kernel-scope __local storage
        self.parallel_loops: list[ParallelLoop] = []
        self.local_size: tuple[int, int, int] | None = None  # set once specialized to a work-group

    @property
    def entry(self) -> Block:
        return self.blocks[0]

    def add_block(self, name: str = "", after: Block | None = None) -> Block:
        block = Block(name)
        block.function = self
        if after is None:
            self.blocks.append(block)
        else:
            self.blocks.insert(self.blocks.index(after) + 1, block)
        return block

    def remove_block(self, block: Block) -> None:
        for inst in list(block.instructions):
            inst.drop_operands()
            inst.block = None
        block.instructions = []
        self.blocks.remove(block)
        block.function = None

    def predecessors(self) -> dict[Block, list[Block]]:
        preds: dict[Block, list[Block]] = {b: [] for b in self.blocks}
        for block in self.blocks:
            for succ in block.successors:
                if block not in preds[succ]:
                    preds[succ].append(block)
        return preds

    def instructions(self):
        for block in self.blocks:
            yield from block.instructions

    def __repr__(self) -> str:
        return f"<Function {self.name}>"


class Module:
    def __init__(self) -> None:
        self.functions: dict[str, Function] = {}
        self.globals: list[GlobalVariable] = []  # program-scope __constant data

    def add_function(self, function: Function) -> Function:
        self.functions[function.name] = function
        return function

    @property
    def kernels(self) -> list[Function]:
        return [f for f in self.functions.values() if f.is_kernel]
