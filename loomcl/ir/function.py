"""Blocks, functions and modules of the kernel IR.

A function is a CFG of basic blocks, entry first; each block is a list of instructions ending in
exactly one terminator, with its phis at the start. Predecessors are derived from terminators when
asked (CFGs are small; keeping them in sync by hand is where IRs grow bugs).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from . import types as ty
from .instructions import Instruction, Phi, Terminator
from .values import Argument, GlobalVariable


class Block:
    def __init__(self, name: str = "") -> None:
        self.name = name
        self.instructions: list[Instruction] = []
        self.function: Function | None = None
        self.comment = ""  # printed after the label (what a pass wants a reader of --emit to know)

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

    def remove_all(self, gone: set[Instruction]) -> None:
        """Take the instructions `gone` out of this block in one pass (unplaced, operands kept):
        removing many one by one is quadratic in a long block."""
        self.instructions[:] = [inst for inst in self.instructions if inst not in gone]
        for inst in gone:
            inst.block = None

    def __repr__(self) -> str:
        return f"<Block {self.name}>"


DIMENSION_NAMES = "xyz"


@dataclass(eq=False)
class WorkItemLoop:
    """A loop over the work-items of one dimension of a work-group: the structure of the work-group
    form (transforms/__init__.py). Its iterations are independent work-items, so code generation
    marks its memory accesses with one access group and its latch branch with
    `llvm.loop.parallel_accesses` (pocl 4.2), letting LLVM vectorize without alias checks.

    Only the header, the latch and the counter are stored; everything else is read from the CFG
    when asked, so no pass can leave it stale. The shape, which `work_group_verifier` checks:

        header:  %counter = phi i64 [lower, preheader], [%next, latch]   ; the only way in
                 ...the region, possibly in more blocks, all reaching the latch...
        latch:   (phis: where the work-items go next)
                 %next = add %counter, i64 1
                 %more = cmp ult %next, upper
                 branch %more, header, exit

    The latch holds nothing else: code that must run for every work-item never sits in it, so a
    path that jumps to the latch skips exactly the rest of one work-item's region."""

    dim: int
    header: Block
    latch: Block
    counter: Phi
    note: str = ""  # what whole-function vectorization did with it (printed as a comment on the header)

    @property
    def name(self) -> str:
        return DIMENSION_NAMES[self.dim]

    @property
    def blocks(self) -> set[Block]:
        """The natural loop of the latch's back edge."""
        preds = self.header.function.predecessors()
        blocks, stack = {self.header, self.latch}, [self.latch]
        while stack:
            for pred in preds[stack.pop()]:
                if pred not in blocks:
                    blocks.add(pred)
                    stack.append(pred)
        return blocks

    @property
    def preheader(self) -> Block:
        return next(b for b in self.counter.incoming_blocks if b is not self.latch)

    @property
    def lower(self):
        return self.counter.value_for(self.preheader)

    @property
    def latch_compare(self) -> Instruction:
        return self.latch.terminator.condition

    @property
    def upper(self):
        return self.latch_compare.rhs

    @property
    def exit(self) -> Block:
        return next(s for s in self.latch.successors if s is not self.header)

    def set_bounds(self, lower, upper) -> None:
        """Run the counter over [lower, upper) instead (both defined before the loop; the caller
        makes sure the loop is not entered when the range is empty: loops are bottom-tested)."""
        self.counter.set_operand(self.counter.incoming_blocks.index(self.preheader), lower)
        self.latch_compare.set_operand(1, upper)


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
        self.work_item_loops: list[WorkItemLoop] = []  # the work-group form's loops, outer first
        self.local_size: tuple[int, int, int] | None = None  # set once specialized to a work-group
        self.check_sites: list = []  # checked mode: site index -> ir.check_sites.AccessSite | BarrierSite
        self.remarks: list[str] = []  # why passes chose what they did; printed as `; ` lines
        self.group_tile: int | None = None  # walk the groups in tiles of this many (group-order); None: rows

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

    def innermost_loops(self) -> list[WorkItemLoop]:
        """The work-item loops that contain no other: each nest's x-most loop."""
        headers = {loop.header for loop in self.work_item_loops}
        return [loop for loop in self.work_item_loops
                if not any(h in loop.blocks for h in headers if h is not loop.header)]

    def instructions(self):
        for block in self.blocks:
            yield from block.instructions

    def __repr__(self) -> str:
        return f"<Function {self.name}>"


class Linkage(enum.Enum):
    """How a unit's function is seen by the others when units are linked (loomcl/driver/linker.py)."""

    EXTERNAL = "external"  # one definition in the program; other units' declarations resolve to it
    INTERNAL = "internal"  # static: the unit's own
    INLINE = "inline"  # C99 inline definition: the unit's own; other units may use it if no external one


class Module:
    def __init__(self) -> None:
        self.functions: dict[str, Function] = {}
        self.globals: list[GlobalVariable] = []  # program-scope __constant data
        self.printf_formats: dict[int, bytes] = {}  # format id (from 1) -> the format of printf calls
        # A unit compiled to be linked (loomcl/driver/linker.py) also has:
        self.declarations: dict[str, Function] = {}  # functions it calls that another unit defines (no blocks)
        self.linkage: dict[str, Linkage] = {}  # functions that are not EXTERNAL (the default)

    def printf_format_id(self, format: bytes) -> int:
        """The id of a printf format in this program, given on first use."""
        for format_id, known in self.printf_formats.items():
            if known == format:
                return format_id
        format_id = len(self.printf_formats) + 1
        self.printf_formats[format_id] = format
        return format_id

    def add_function(self, function: Function) -> Function:
        self.functions[function.name] = function
        return function

    @property
    def kernels(self) -> list[Function]:
        return [f for f in self.functions.values() if f.is_kernel]
