"""Out of SSA: phis and values that must live in memory, for the passes that need them there.

Two passes put SSA values into private variables: structurize-uniform-barriers demotes the varying
phis of blocks that will run at group level, and subcfg-formation stores values that cross a
barrier. Both use this module, so the subtle part is written once.

The subtle part is the copies on an edge. The phis of one block are *parallel* copies: on the edge
P -> B every phi takes its incoming value as it was at the end of P, all at once. When an incoming
value is itself a demoted phi of B (`t = a; a = b; b = t` around a barrier loop makes `a' = phi(b)`
and `b' = phi(a)`), storing the copies one after another would let a later copy read a variable
an earlier one already overwrote: the swap and lost-copy problems of SSA destruction (Briggs et al.,
"Practical improvements to the construction and destruction of static single assignment form",
1998). `demote_phis` therefore loads every source of an edge before it stores any destination.
"""
from __future__ import annotations

from collections.abc import Callable

from ..ir import instructions as ins
from ..ir.builder import Builder
from ..ir.function import Block, Function
from ..ir.values import Value

EdgeBlock = Callable[[Block, Block], Block]  # (pred, succ) -> where code for that edge runs


def _on_the_edge(pred: Block, succ: Block) -> Block:
    return pred


def demote_phis(function: Function, phis: list[ins.Phi], edge_block: EdgeBlock = _on_the_edge,
                store_early: Callable[[ins.Phi, Value], bool] | None = None) -> dict[ins.Phi, ins.Alloca]:
    """Replace `phis` by private variables: every edge into a phi's block copies the incoming
    values (all sources read before any destination is written) and every use loads. `edge_block`
    chooses the block that runs an edge's copies (called once per edge); `store_early(phi, value)`
    may instead claim a copy to be stored right after the value's definition. Returns the
    variables."""
    if not phis:
        return {}
    entry = Builder(function.entry)
    variables = {phi: entry.alloca(phi.type, phi.name) for phi in phis}
    edges: dict[tuple[Block, Block], list[tuple[ins.Phi, Value]]] = {}
    for phi in phis:
        for value, pred in phi.incoming:
            if store_early is not None and store_early(phi, value):
                b = Builder()
                b.position_before(_after_definition(value))
                b.store(value, variables[phi])
            else:
                edges.setdefault((pred, phi.block), []).append((phi, value))
    for (pred, succ), copies in edges.items():
        block = edge_block(pred, succ)
        b = Builder()
        b.position_before(block.terminator)
        sources = {}
        for _, value in copies:  # read every source first
            if value in variables and value not in sources:
                sources[value] = b.load(value.type, variables[value], value.name)
        for phi, value in copies:
            b.store(sources.get(value, value), variables[phi])
    for phi in phis:
        for user in list(phi.users):
            if user not in variables:
                load_for_use(phi, user, variables[phi], edge_block)
    for phi in phis:
        phi.drop_operands()
    for phi in phis:
        phi.users.clear()
        phi.erase()
    return variables


def load_for_use(value: Value, user: ins.Instruction, variable: ins.Alloca,
                 edge_block: EdgeBlock = _on_the_edge) -> None:
    """Make `user` read `value` from `variable`: right before it, or for a phi at the end of the
    block that runs the incoming edge (an `edge_block` that splits the edge updates the phi)."""
    if isinstance(user, ins.Phi):
        for i, (v, pred) in enumerate(user.incoming):
            if v is value:
                place = edge_block(pred, user.block)
                load = ins.Load(value.type, variable, value.name)
                place.insert_before(place.terminator, load)
                user.set_operand(i, load)
    else:
        load = ins.Load(value.type, variable, value.name)
        user.block.insert_before(user, load)
        user.replace_uses_of(value, load)


def store_after_definition(value: ins.Instruction, variable: ins.Alloca) -> None:
    """`variable := value` right after the definition (after the phis, for a phi)."""
    value.block.insert_before(_after_definition(value), ins.Store(value, variable))


def _after_definition(value: ins.Instruction) -> ins.Instruction:
    block = value.block
    index = block.first_non_phi_index if isinstance(value, ins.Phi) else block.instructions.index(value) + 1
    return block.instructions[index]
