"""mem2reg: promote scalar private variables from stack slots to SSA values.

Lowering gives every private variable an `alloca` with loads and stores. An alloca of a scalar or
vector type whose only uses are whole-value loads and stores through it (never an address
computation, never stored as a value, never volatile) becomes SSA: Cytron et al., "Efficiently
Computing Static Single Assignment Form and the Control Dependence Graph" (1991): phis at the
iterated dominance frontier of the blocks that store, then one walk of the dominator tree that
renames (a stack of current values per variable). A load before any store reads `undef`.
Phis that no real instruction needs (the minimal-SSA extras, dead loop-carried copies) are removed
afterwards, so the result is pruned SSA.

Arrays, structs and address-taken scalars stay in memory; work-group formation turns them into
per-work-item context arrays (pocl 4.7).

`run(function, analyses)` promotes every promotable alloca, with the cached dominator tree;
`promote(function, allocas)` only the given ones: sub-CFG formation uses it to rebuild SSA for the
variables it introduces.
Expects: a verified function. Guarantees: a verified function; promoted allocas are gone.
"""
from __future__ import annotations

from ..ir.dominators import DominatorTree
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.function import Block, Function
from ..ir.values import Undef
from .passes import PassContext

NAME = "mem2reg"
_SCALAR_TYPES = (ty.IntType, ty.FloatType, ty.PointerType, ty.VectorType)


def is_promotable(alloca: ins.Alloca) -> bool:
    if not isinstance(alloca.allocated_type, _SCALAR_TYPES):
        return False
    for user in alloca.users:
        if isinstance(user, ins.Load):
            if user.volatile or user.type is not alloca.allocated_type:
                return False
        elif isinstance(user, ins.Store):
            if user.volatile or user.value is alloca or user.value.type is not alloca.allocated_type:
                return False
        else:
            return False
    return True


class _Promoter:
    def __init__(self, function: Function, allocas: list[ins.Alloca], domtree: DominatorTree) -> None:
        self.function = function
        self.allocas = allocas
        self.index = {a: i for i, a in enumerate(allocas)}
        self.domtree = domtree
        self.phi_of: dict[ins.Phi, int] = {}  # placed phi -> variable index
        self.new_phis: list[ins.Phi] = []

    def run(self) -> None:
        self.place_phis()
        self.rename()
        self.remove_unreachable_accesses()
        self.complete_phis()
        for alloca in self.allocas:
            alloca.erase()
        prune_dead_phis(self.new_phis)

    def place_phis(self) -> None:
        frontiers = self.domtree.frontiers()
        for i, alloca in enumerate(self.allocas):
            stores = {u.block for u in alloca.users if isinstance(u, ins.Store)}
            work, placed = [b for b in stores if self.domtree.is_reachable(b)], set()
            while work:
                block = work.pop()
                for frontier in frontiers.get(block, ()):
                    if frontier not in placed:
                        placed.add(frontier)
                        phi = ins.Phi(alloca.allocated_type, alloca.name)
                        frontier.insert(0, phi)
                        self.phi_of[phi] = i
                        self.new_phis.append(phi)
                        if frontier not in stores:
                            work.append(frontier)

    def rename(self) -> None:
        children = self.domtree.children()
        entry = self.function.entry
        initial = [Undef(a.allocated_type) for a in self.allocas]
        stack = [(entry, initial)]
        while stack:  # an explicit stack instead of recursion over the dominator tree
            block, current = stack.pop()
            current = self.rename_block(block, list(current))
            for succ in block.successors:
                for phi in succ.phis:
                    i = self.phi_of.get(phi)
                    if i is not None and block not in phi.incoming_blocks:
                        phi.add_incoming(current[i], block)
            for child in children[block]:
                stack.append((child, current))

    def rename_block(self, block: Block, current: list) -> list:
        erased = []  # taken out of the block together at the end (one by one is quadratic)
        for inst in block.instructions:
            if isinstance(inst, ins.Phi) and inst in self.phi_of:
                current[self.phi_of[inst]] = inst
            elif isinstance(inst, ins.Load) and inst.pointer in self.index:
                inst.replace_all_uses_with(current[self.index[inst.pointer]])
                erased.append(inst)
            elif isinstance(inst, ins.Store) and inst.pointer in self.index:
                current[self.index[inst.pointer]] = inst.value
                erased.append(inst)
        if erased:
            block.remove_all(set(erased))
            for inst in erased:
                inst.drop_operands()
        return current

    def complete_phis(self) -> None:
        """Unreachable predecessors contribute `undef`, so every phi lists every predecessor."""
        preds = self.function.predecessors()
        for phi in self.new_phis:
            for pred in preds[phi.block]:
                if pred not in phi.incoming_blocks:
                    phi.add_incoming(Undef(phi.type), pred)

    def remove_unreachable_accesses(self) -> None:
        for alloca in self.allocas:
            for user in list(alloca.users):
                if isinstance(user, ins.Load):
                    user.replace_all_uses_with(Undef(user.type))
                user.erase()


def prune_dead_phis(phis: list[ins.Phi]) -> None:
    """Erase the given phis that feed only (transitively) other phis of the list or nothing."""
    candidates = set(phis)
    live = set()
    work = [p for p in phis if any(u not in candidates for u in p.users)]
    while work:
        phi = work.pop()
        if phi in live:
            continue
        live.add(phi)
        work += [v for v in phi.operands if v in candidates and v not in live]
    dead = [p for p in phis if p not in live]
    for phi in dead:
        phi.drop_operands()
    by_block: dict[Block, set[ins.Phi]] = {}
    for phi in dead:
        phi.users.clear()
        by_block.setdefault(phi.block, set()).add(phi)
    for block, gone in by_block.items():
        block.remove_all(gone)


def promotable(function: Function, allocas: list[ins.Alloca] | None = None) -> list[ins.Alloca]:
    """The promotable ones of `allocas` (by default, of all the function's allocas)."""
    if allocas is None:
        allocas = [i for i in function.instructions() if isinstance(i, ins.Alloca)]
    return [a for a in allocas if is_promotable(a)]


def promote(function: Function, allocas: list[ins.Alloca] | None = None) -> bool:
    """Promote the promotable ones of `allocas` (all by default); whether there was any."""
    allocas = promotable(function, allocas)
    if allocas:
        _Promoter(function, allocas, DominatorTree(function)).run()
    return bool(allocas)


def run(function: Function, analyses: PassContext) -> bool:
    allocas = promotable(function)
    if allocas:
        _Promoter(function, allocas, analyses.dominators).run()
    return bool(allocas)
