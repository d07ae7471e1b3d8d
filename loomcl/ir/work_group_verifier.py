"""Checks of the work-group form: the structure that `WorkItemLoop`s give a function.

A function in work-group form (`function.local_size` set) is group-level code with work-item loop
nests in it. Every block belongs to exactly one region: the outermost work-item loop containing it,
or the group level. What must hold, and which bug each rule turns into a loud failure:

* each loop has its shape (`WorkItemLoop`): one way in, the counter's phi, and a latch that only
  counts: region code in a latch would be skipped by a guard folded into the loop's bounds;
* its bounds are defined before the loop (guard folding computes them in the preheader);
* loops nest properly, inner loops over lower dimensions;
* a value defined in a work-item loop is used only inside it: per-work-item values reach other
  regions through context arrays or uniform slots, never as SSA values (the latch's phis, where
  the work-items go next, are the exception: OpenCL makes every work-item agree);
* private storage is allocated once, in the entry block, and an aggregate used inside a
  work-item loop is a context array with one element per work-item (or, transposed, one row of
  them per element of a private array): storage shared by the iterations of a parallel loop would
  be a data race;
* no barrier, call or `local_id` query is left.
"""
from __future__ import annotations

from . import instructions as ins
from . import types as ty
from .function import Block, Function, WorkItemLoop


def work_group_errors(function: Function) -> list[str]:
    return _Checker(function).run()


class _Checker:
    def __init__(self, function: Function) -> None:
        self.function = function
        self.errors: list[str] = []
        self.preds = function.predecessors()
        self.loop_blocks = {id(loop): loop.blocks for loop in function.work_item_loops}

    def fail(self, where: str, message: str) -> None:
        self.errors.append(f"@{self.function.name}: {where}: {message}")

    def run(self) -> list[str]:
        for loop in self.function.work_item_loops:
            self.check_shape(loop)
        if self.errors:
            return self.errors
        self.check_nesting()
        self.check_values()
        self.check_private_storage()
        self.check_leftovers()
        return self.errors

    # -- loops ---------------------------------------------------------------------------------

    def check_shape(self, loop: WorkItemLoop) -> None:
        where = f"work-item loop {loop.name} at {loop.header.name}"
        blocks = self.loop_blocks[id(loop)]
        counter, header, latch = loop.counter, loop.header, loop.latch
        if counter.block is not header or counter.type is not ty.i64:
            return self.fail(where, "the counter is not an i64 phi of the header")
        outside = [p for p in self.preds[header] if p not in blocks]
        if len(outside) != 1 or set(counter.incoming_blocks) != {outside[0], latch} or len(counter.incoming) != 2:
            return self.fail(where, "not entered from exactly one preheader feeding the counter")
        body = latch.instructions[latch.first_non_phi_index:]
        term = latch.terminator
        if len(body) != 3 or not isinstance(term, ins.Branch) or term.if_true is not header:
            return self.fail(where, f"latch {latch.name} holds more than the counting, or does not loop")
        step, compare = body[0], body[1]
        if not (isinstance(step, ins.BinaryOp) and step.opcode is ins.BinaryOpcode.ADD and step.lhs is counter
                and _is_one(step.rhs) and counter.value_for(latch) is step):
            return self.fail(where, "the latch does not step the counter by one")
        if not (isinstance(compare, ins.Compare) and compare.predicate is ins.Predicate.ULT
                and compare.lhs is step and term.condition is compare):
            return self.fail(where, "the latch does not test `counter + 1 <u upper`")
        for bound, what in ((loop.lower, "lower"), (loop.upper, "upper")):
            if isinstance(bound, ins.Instruction) and bound.block in blocks:
                self.fail(where, f"the {what} bound is computed inside the loop")

    def check_nesting(self) -> None:
        loops = self.function.work_item_loops
        for a in loops:
            for b in loops:
                if a is b:
                    continue
                sa, sb = self.loop_blocks[id(a)], self.loop_blocks[id(b)]
                if sa & sb and not (sa < sb or sb < sa):
                    self.fail(a.header.name, f"work-item loops at {a.header.name} and {b.header.name} overlap")
                if sa < sb and a.dim >= b.dim:
                    self.fail(a.header.name, f"loop over {a.name} nested in a loop over {b.name}")

    def innermost_loop_of(self, block: Block) -> WorkItemLoop | None:
        best = None
        for loop in self.function.work_item_loops:
            blocks = self.loop_blocks[id(loop)]
            if block in blocks and (best is None or len(blocks) < len(self.loop_blocks[id(best)])):
                best = loop
        return best

    # -- values and storage ------------------------------------------------------------------

    def check_values(self) -> None:
        home = {b: self.innermost_loop_of(b) for b in self.function.blocks}
        latches = {loop.latch for loop in self.function.work_item_loops}
        for block in self.function.blocks:
            loop = home[block]
            if loop is None:
                continue
            blocks = self.loop_blocks[id(loop)]
            for inst in block.instructions:
                if isinstance(inst, ins.Phi) and block in latches and inst is not loop.counter:
                    continue  # where the work-items go next
                for user in inst.users:
                    uses = [b for v, b in user.incoming if v is inst] if isinstance(user, ins.Phi) else [user.block]
                    if any(u not in blocks for u in uses):
                        self.fail(block.name, f"{_name(inst)} is defined in work-item loop {loop.name} at "
                                              f"{loop.header.name} but used outside it, in {uses[0].name}")

    def check_private_storage(self) -> None:
        entry = self.function.entry
        size = self.function.local_size
        group_size = size[0] * size[1] * size[2]
        in_loops = set().union(*self.loop_blocks.values()) if self.loop_blocks else set()
        for inst in self.function.instructions():
            if not isinstance(inst, ins.Alloca):
                continue
            if inst.block is not entry:
                self.fail(inst.block.name, f"private storage {_name(inst)} is allocated outside the entry block")
                continue
            t = inst.allocated_type
            if not isinstance(t, (ty.ArrayType, ty.StructType)) or not _used_in(inst, in_loops):
                continue
            if not (isinstance(t, ty.ArrayType) and (t.count == group_size or _transposed(t, group_size))):
                self.fail(entry.name, f"private {t} {_name(inst)} is used by the work-items of a loop but "
                                      f"is not a context array of {group_size} elements")

    def check_leftovers(self) -> None:
        for inst in self.function.instructions():
            left = isinstance(inst, (ins.Barrier, ins.Call)) or (
                isinstance(inst, ins.WorkItemQuery) and inst.query is ins.Query.LOCAL_ID)
            if left:
                self.fail(inst.block.name, f"{type(inst).__name__} left in a work-group function")


def _transposed(t: ty.ArrayType, group_size: int) -> bool:
    """A private array's context array laid out element-major (transpose-private-arrays)."""
    return isinstance(t.element, ty.ArrayType) and t.element.count == group_size


def _is_one(value) -> bool:
    return getattr(value, "value", None) == 1 and not isinstance(value, ins.Instruction)


def _name(inst: ins.Instruction) -> str:
    return f"%{inst.name}" if inst.name else type(inst).__name__


def _used_in(pointer: ins.Instruction, blocks: set[Block]) -> bool:
    """Whether an access through `pointer` (or an address derived from it) lies in `blocks`."""
    work, seen = [pointer], set()
    while work:
        value = work.pop()
        for user in value.users:
            if user.block in blocks:
                return True
            if isinstance(user, (ins.ElementPtr, ins.FieldPtr, ins.Cast, ins.Select, ins.Phi)) and user not in seen:
                seen.add(user)
                work.append(user)
    return False
