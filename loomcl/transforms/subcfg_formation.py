"""subcfg-formation: turn a canonicalized work-item kernel into a work-group function by
continuation-based synchronization (Karrenberg & Hack 2.3; hipSYCL 3.2.1; pocl's SubCFGFormation).

The blocks of the function fall into two levels:
  * *group level*: the prologue, the barrier blocks, and optionally blocks of uniform control flow
    chosen by `structurize_uniform_barriers` (the structured form). They run once per work-group.
  * *work-item level*: all other blocks. A *sub-CFG* is grown from each entry into this level (the
    successor of a barrier block or of a group-level block): every work-item-level block reachable
    from it without passing a group-level block. Each sub-CFG is copied into a work-item loop nest
    (`workitem_loops.WorkItemNest`), so all work-items run it before anything after it runs; that
    is exactly what a barrier demands. Each exit of the copy records which group-level block comes
    next (`%next`, by barrier id: entry 0, exit -1, then 1, 2, ...); OpenCL requires all work-items
    of a group to reach the same barrier, so the last work-item's `%next` decides for the group.
    Instead of one while-loop around a switch (the papers' dispatcher), the nest ends in a switch
    over only the targets that sub-CFG can reach: the same control flow, already jump-threaded.
    A sub-CFG is copied per entry, not per path, so code grows with the number of barriers that
    start a region, never with the number of paths (no tail duplication).

Values: an SSA value defined at the work-item level is *crossing* if some use is not dominated by
its definition within one copy (used in another sub-CFG, at group level, or "around" a barrier in a
loop, hipSYCL fig. 3.4). Crossing values get a slot: a scalar alloca when the uniformity analysis
says the value is uniform (all work-items store the same value; pocl 4.7's merged uniform
variables), otherwise a *context array* `alloca [N x T]` indexed by the linear local id. Every
definition stores to the slot; each copy reads the slot on entry (uniform slots once, before the
nest, so a later work-item's store cannot be seen by an earlier one; hipSYCL 3.2.4) into a
variable private to that copy, and mem2reg rebuilds SSA for those variables: within a copy, uses
see the copy's own definition where it dominates and the slot's value otherwise, with phis where
both meet. Group-level definitions dominate all their uses in the new CFG (its paths are a subset
of the old ones), so they need nothing. Private allocas left by mem2reg (arrays, structs) become
context arrays too: inside a parallel loop, storage shared by all work-items would be a data race.

`get_local_id(d)` becomes the nest's i64 loop counter, `get_local_size(d)` the constant.

Expects: the shape `canonicalize_barriers` produces; the uniformity analysis of it, the local size,
`context_all` and the group-level blocks come from `analyses`. Guarantees: the work-group form of
transforms/__init__.py; the function verifies.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..ir.dominators import dominates, immediate_dominators
from ..analysis.uniformity import Uniformity
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.builder import Builder
from ..ir.check_sites import BarrierSite
from ..ir.function import Block, Function
from ..ir.values import Constant, Value
from . import mem2reg, simplify
from .canonicalize_barriers import is_barrier_block, split_edge
from .clone import clone_instruction, remap_instruction
from .passes import PassContext
from .ssa_destruction import load_for_use, store_after_definition
from .workitem_loops import WorkItemNest

NAME = "subcfg-formation"
EXIT_ID = -1
NO_TARGET_YET = -2  # checked mode: no work-item of the group has left the region yet


@dataclass(eq=False)
class SubCFG:
    entry: Block
    blocks: list[Block]  # in function order
    targets: list[Block] = field(default_factory=list)  # group-level blocks it exits to
    nest: WorkItemNest | None = None


@dataclass(eq=False)
class Slot:
    """Where a crossing value lives between sub-CFGs."""
    value: ins.Instruction
    variable: ins.Alloca  # the scalar the definition stores to before copying (demoted SSA)
    storage: ins.Alloca  # uniform: == variable; varying: the context array
    uniform: bool


class _Formation:
    def __init__(self, function: Function, local_size, uniformity: Uniformity, context_all: bool,
                 group_blocks, checked: bool = False) -> None:
        self.function = function
        self.checked = checked  # checked mode: verify that all work-items reach the same barrier
        self.local_size = tuple(local_size)
        self.group_size = local_size[0] * local_size[1] * local_size[2]
        self.uniformity = uniformity
        self.context_all = context_all
        self.prologue = function.entry
        self.group = {b for b in function.blocks if is_barrier_block(b)} | set(group_blocks)
        self.ids: dict[Block, int] = {}
        self.subcfgs: dict[Block, SubCFG] = {}
        self.slots: dict[ins.Instruction, Slot] = {}
        self.contexts: dict[ins.Alloca, ins.Alloca] = {}
        self.copy_variables: list[ins.Alloca] = []

    # -- 1. structure ---------------------------------------------------------------------------

    def run(self) -> None:
        self.replace_local_sizes()
        simplify.fold_constants(self.function)  # the local size is known now: regions may empty
        simplify.eliminate_dead_code(self.function)
        self.private_allocas = [i for i in self.prologue.instructions if isinstance(i, ins.Alloca)]
        self.split_level_edges()
        self.number_targets()
        self.grow_subcfgs()
        self.find_crossing_values()
        self.rematerialize_cheap_values()
        self.demote_crossing_values()
        self.make_context_arrays()
        self.original_blocks = list(self.function.blocks)
        for sub in self.subcfgs.values():
            self.copy_subcfg(sub)
        self.connect_group_level()
        self.delete_originals()
        mem2reg.promote(self.function, self.copy_variables)
        self.widen_truncated_ids()

    def is_work_item_level(self, block: Block) -> bool:
        return block not in self.group and block is not self.prologue

    def replace_local_sizes(self) -> None:
        for inst in list(self.prologue.instructions):
            if ins.is_query(inst, ins.Query.LOCAL_SIZE):
                inst.replace_all_uses_with(Constant(ty.i64, self.local_size[inst.dim]))
                inst.erase()

    def split_level_edges(self) -> None:
        """Entries into the work-item level get one predecessor and no phis; edges from the
        work-item level into a group-level block with phis get a group-level block of their own
        (the phi's incoming value is then read at group level)."""
        preds = self.function.predecessors()
        for block in list(self.function.blocks):
            for succ in list(dict.fromkeys(block.successors)):
                if block in self.group and self.is_work_item_level(succ):
                    if len(preds[succ]) > 1 or succ.phis:
                        split_edge(block, succ, f"{succ.name}.entry")
                elif self.is_work_item_level(block) and succ in self.group and succ.phis:
                    self.group.add(split_edge(block, succ, f"{block.name}.to.{succ.name}"))

    def number_targets(self) -> None:
        barriers = [b for b in self.function.blocks if is_barrier_block(b)]
        for block in barriers:
            if isinstance(block.terminator, ins.Return):
                self.ids[block] = EXIT_ID
        self.ids[self.prologue.successors[0]] = 0
        for block in self.function.blocks:
            if block in self.group and block not in self.ids:
                self.ids[block] = len(self.ids) - 1

    def grow_subcfgs(self) -> None:
        position = {b: i for i, b in enumerate(self.function.blocks)}
        for block in list(self.function.blocks):
            if block in self.group:
                for succ in block.successors:
                    if self.is_work_item_level(succ) and succ not in self.subcfgs:
                        self.subcfgs[succ] = self.grow(succ, position)

    def grow(self, entry: Block, position: dict) -> SubCFG:
        seen, targets, work = {entry}, {}, [entry]
        while work:
            for succ in work.pop().successors:
                if succ in self.group:
                    targets.setdefault(succ, None)
                elif succ not in seen:
                    seen.add(succ)
                    work.append(succ)
        return SubCFG(entry, sorted(seen, key=position.__getitem__), list(targets))

    # -- 2. crossing values ---------------------------------------------------------------------

    def find_crossing_values(self) -> None:
        """Values with a use that its definition does not dominate within some copy."""
        preds = self.function.predecessors()
        self.containing: dict[Block, list[SubCFG]] = {}
        self.idoms = {}
        for sub in self.subcfgs.values():
            inside = set(sub.blocks)
            for block in sub.blocks:
                self.containing.setdefault(block, []).append(sub)
            self.idoms[sub] = immediate_dominators(
                sub.entry, lambda b, s=inside: [x for x in b.successors if x in s],
                lambda b, s=inside: [x for x in preds[b] if x in s])
        self.crossing = [inst for block in self.function.blocks if self.is_work_item_level(block)
                         for inst in block.instructions if inst.users and self.is_crossing(inst)]

    def is_crossing(self, value: ins.Instruction) -> bool:
        for user in value.users:
            for use_block in user.use_blocks(value):
                if not self.is_work_item_level(use_block):
                    return True
                for sub in self.containing.get(use_block, ()):
                    if value.block is use_block:
                        continue
                    if not dominates(self.idoms[sub], value.block, use_block):
                        return True
        return False

    def rematerialize_cheap_values(self) -> None:
        """A crossing value computed by a few pure instructions from prologue values (local ids,
        group ids, arguments, constants) is recomputed at each use instead of stored: a context
        array would hide from the vectorizer that `in[get_global_id(0)]` is a consecutive access
        (hipSYCL 3.2.4 restores contiguous values for the same reason), and recomputing costs
        less than a load."""
        kept = []
        for value in self.crossing:
            tree = self.expression_tree(value)
            if tree is None:
                kept.append(value)
                continue
            for user in list(value.users):
                for block in user.use_blocks(value):
                    if block is value.block:
                        continue
                    anchor = block.terminator if isinstance(user, ins.Phi) else user
                    copy = _copy_tree(tree, anchor)
                    _replace_use(user, value, copy, block)
        self.crossing = kept

    def expression_tree(self, value: ins.Instruction, limit: int = 12) -> list | None:
        """The pure instructions computing `value` from prologue values, operands first (the root
        last); None if there are more than `limit` or any other kind of operand."""
        tree: list[ins.Instruction] = []
        seen: set[ins.Instruction] = set()

        def visit(inst) -> bool:
            if inst in seen:
                return True
            if not inst.is_pure or len(seen) >= limit:
                return False
            seen.add(inst)
            for op in inst.operands:
                if isinstance(op, ins.Instruction) and op.block is not self.prologue and not visit(op):
                    return False
            tree.append(inst)
            return True

        if not visit(value):
            return None
        if self.local_id_in(tree) and self.used_at_group_level(value):
            return None
        return tree

    def local_id_in(self, tree: list) -> bool:
        return any(ins.is_query(op, ins.Query.LOCAL_ID)
                   for inst in tree for op in inst.operands)

    def used_at_group_level(self, value: ins.Instruction) -> bool:
        return any(not self.is_work_item_level(b) for u in value.users for b in u.use_blocks(value))

    def demote_crossing_values(self) -> None:
        """Store each crossing value to a variable after its definition and load it at each use."""
        for value in self.crossing:
            variable = Builder(self.prologue).alloca(value.type, (value.name or "v") + ".slot")
            uniform = self.uniformity.is_uniform(value) and not self.context_all
            storage = variable
            if not uniform:
                storage = self.context_array(value.type, (value.name or "v") + ".context")
            self.slots[value] = Slot(value, variable, storage, uniform)
            for user in list(value.users):
                load_for_use(value, user, variable)
            store_after_definition(value, variable)
        self.slot_of_variable = {s.variable: s for s in self.slots.values()}

    def context_array(self, element: ty.Type, name: str) -> ins.Alloca:
        return Builder(self.prologue).alloca(ty.ArrayType(element, self.group_size), name)

    def make_context_arrays(self) -> None:
        """Private allocas of the kernel (arrays, structs, address-taken scalars) get one element
        per work-item."""
        for private in self.private_allocas:
            self.contexts[private] = self.context_array(private.allocated_type, private.name + ".context")

    # -- 3. copies ------------------------------------------------------------------------------

    def copy_subcfg(self, sub: SubCFG) -> None:
        if self.is_trivial(sub):
            return
        nest = sub.nest = WorkItemNest(self.function, self.local_size, sub.entry.name)
        copy = _Copy(self, nest)
        blocks = {b: self.function.add_block(b.name) for b in sub.blocks}
        exits = {t: self.exit_block(sub, t, nest) for t in sub.targets}
        made = []
        for block in sub.blocks:
            for inst in block.instructions:
                made += copy.instruction(inst, blocks[block])
        copied = set(blocks.values())
        blocks.update(exits)
        for inst in made:
            remap_instruction(inst, copy.values, blocks)
            if isinstance(inst, ins.Phi):  # edges from outside the sub-CFG do not exist in a copy
                for pred in [p for p in inst.incoming_blocks if p not in copied]:
                    inst.remove_incoming(pred)
        nest.enter(blocks[sub.entry])
        self.dispatch(sub, nest, exits)
        nest.register_loops()

    def is_trivial(self, sub: SubCFG) -> bool:
        """A region of empty blocks leading to one place needs no loop (two barriers in a row)."""
        return len(sub.targets) == 1 and all(len(b.instructions) == 1 for b in sub.blocks)

    def exit_block(self, sub: SubCFG, target: Block, nest: WorkItemNest) -> Block:
        block = self.function.add_block(f"{sub.entry.name}.to.{target.name}")
        block.append(ins.Jump(nest.latch))
        return block

    def dispatch(self, sub: SubCFG, nest: WorkItemNest, exits: dict[Block, Block]) -> None:
        """Record where each work-item goes next, and branch there after the nest."""
        after = Builder(nest.after)
        if not sub.targets:  # an endless loop: no work-item ever leaves the region
            after.unreachable()
            return
        if len(sub.targets) == 1:
            after.jump(sub.targets[0])
            return
        phi = ins.Phi(ty.i32, "next")
        nest.latch.insert(0, phi)
        for target, block in exits.items():
            phi.add_incoming(Constant(ty.i32, self.ids[target]), block)
        if self.checked and nest.loop_dims:
            self.check_convergence(sub, nest, exits)
        default, *cases = sub.targets
        after.switch(phi, default, [(self.ids[t], t) for t in cases])

    def check_convergence(self, sub: SubCFG, nest: WorkItemNest, exits: dict[Block, Block]) -> None:
        """Checked mode: every work-item must leave the region towards the same barrier. The first
        one's target goes to a slot that each exit compares with its own (ir/ops/checks.py)."""
        first = Builder(self.prologue).alloca(ty.i32, f"{sub.entry.name}.next.first")
        first.loc = None
        init = ins.Store(Constant(ty.i32, NO_TARGET_YET), first)
        nest.pre.insert_before(nest.pre.terminator, init)
        site = len(self.function.check_sites)
        self.function.check_sites.append(BarrierSite({self.ids[t]: self.describe_target(t) for t in sub.targets}))
        for target, block in exits.items():
            block.insert_before(block.terminator, ins.CheckBarrier(site, Constant(ty.i32, self.ids[target]), first, nest.ids))

    def describe_target(self, target: Block) -> tuple[str, object]:
        if self.ids[target] == EXIT_ID:
            return "the end of the kernel", None
        loc = next((i.loc for i in target.instructions if i.loc is not None), None)
        what = "the barrier" if is_barrier_block(target) else "the group-level code"
        return (f"{what} at {loc}" if loc is not None else f"{what} '{target.name}'"), loc

    def widen_truncated_ids(self) -> None:
        """`(long)(int)get_local_id(0)` is the id itself: the loop counters lie in [0, 2**31).
        Keeping the i64 counter makes the access affine for LLVM (LLVMLITE.md: a sext of a plain
        trunc became a mask and stopped vectorization)."""
        ids = [sub.nest.ids[d] for sub in self.subcfgs.values() if sub.nest for d in sub.nest.loop_dims]
        for counter in ids:
            for trunc in [u for u in counter.users if isinstance(u, ins.Cast) and u.opcode is ins.CastOpcode.TRUNC]:
                if trunc.type.bits < 32:
                    continue
                for ext in [u for u in trunc.users if isinstance(u, ins.Cast) and u.type is counter.type
                            and u.opcode in (ins.CastOpcode.SEXT, ins.CastOpcode.ZEXT)]:
                    ext.replace_all_uses_with(counter)
                    ext.erase()

    # -- 4. group level -------------------------------------------------------------------------

    def entry_of(self, block: Block) -> Block:
        """Where the group goes to run the work-item region entered at `block`."""
        sub = self.subcfgs[block]
        return sub.nest.pre if sub.nest is not None else sub.targets[0]

    def connect_group_level(self) -> None:
        for block in list(self.group):
            if is_barrier_block(block):
                barrier = block.instructions[0]
                barrier.erase()
            term = block.terminator
            for succ in set(term.successors):
                if self.is_work_item_level(succ):
                    term.replace_successor(succ, self.entry_of(succ))

    def delete_originals(self) -> None:
        doomed = [b for b in self.original_blocks if self.is_work_item_level(b)]
        for block in doomed:
            for inst in block.instructions:
                inst.drop_operands()
        for block in doomed:
            for inst in block.instructions:
                inst.users.clear()
            self.function.remove_block(block)
        for inst in list(self.prologue.instructions):
            if ins.is_query(inst, ins.Query.LOCAL_ID):
                inst.erase()
        for private in self.contexts:
            private.erase()


class _Copy:
    """The state of copying one sub-CFG: the value map and the copy's private variables."""

    def __init__(self, formation: _Formation, nest: WorkItemNest) -> None:
        self.formation = formation
        self.nest = nest
        self.values: dict[Value, Value] = {}
        self.variables: dict[ins.Alloca, ins.Alloca] = {}
        body = Builder(nest.body)
        for inst in formation.prologue.instructions:
            if ins.is_query(inst, ins.Query.LOCAL_ID):
                self.values[inst] = nest.ids[inst.dim]
        for private, context in formation.contexts.items():
            self.values[private] = body.element_ptr(private.allocated_type, context, nest.linear, private.name)

    def instruction(self, inst: ins.Instruction, block: Block) -> list[ins.Instruction]:
        slots = self.formation.slot_of_variable
        if isinstance(inst, ins.Store) and inst.pointer in slots:
            new = self.store_to_slot(inst.value, slots[inst.pointer])
        elif isinstance(inst, ins.Load) and inst.pointer in slots:
            new = [ins.Load(inst.type, self.variable(slots[inst.pointer]), inst.name)]
            self.values[inst] = new[0]
        else:
            new = [clone_instruction(inst)]
            self.values[inst] = new[0]
        for n in new:
            block.append(n)
        return new

    def store_to_slot(self, value: Value, slot: Slot) -> list[ins.Instruction]:
        """A definition updates the copy's variable and the slot that outlives the copy."""
        new = [ins.Store(value, self.variable(slot))]
        if slot.uniform:
            return new + [ins.Store(value, slot.storage)]
        pointer = ins.ElementPtr(slot.value.type, slot.storage, self.nest.linear, slot.value.name)
        return new + [pointer, ins.Store(value, pointer)]

    def variable(self, slot: Slot) -> ins.Alloca:
        """The copy's private variable for a slot, initialized from the slot on entry: uniform
        slots are read once before the nest, context arrays by each work-item."""
        if slot.variable in self.variables:
            return self.variables[slot.variable]
        type, name = slot.value.type, slot.value.name
        variable = Builder(self.formation.prologue).alloca(type, name)
        self.formation.copy_variables.append(variable)
        self.variables[slot.variable] = variable
        body = Builder(self.nest.body)
        if slot.uniform:
            pre = Builder()
            pre.position_before(self.nest.pre.terminator)
            snapshot = pre.load(type, slot.storage, name)
        else:
            snapshot = body.load(type, body.element_ptr(type, slot.storage, self.nest.linear, name), name)
        body.store(snapshot, variable)
        return variable


def _copy_tree(tree: list[ins.Instruction], anchor: ins.Instruction) -> ins.Instruction:
    """Copies of `tree` (operands first) inserted before `anchor`; returns the copy of its root."""
    values = {}
    for inst in tree:
        new = clone_instruction(inst)
        remap_instruction(new, values, {})
        anchor.block.insert_before(anchor, new)
        values[inst] = new
    return values[tree[-1]]


def _replace_use(user: ins.Instruction, old: Value, new: Value, block: Block) -> None:
    if isinstance(user, ins.Phi):
        for i, (v, b) in enumerate(user.incoming):
            if v is old and b is block:
                user.set_operand(i, new)
    else:
        user.replace_uses_of(old, new)


def run(function: Function, analyses: PassContext) -> bool:
    """Form the work-group function in place for `analyses.local_size`. Runs at group level, besides
    the barriers, the blocks in `analyses.group_blocks` (the structured form; they must hold only
    uniform, side-effect-free code)."""
    local_size = analyses.local_size
    uniformity = analyses.uniformity
    function.local_size = local_size
    _Formation(function, local_size, uniformity, analyses.options.context_all, analyses.group_blocks,
               analyses.options.checked).run()
    return True
